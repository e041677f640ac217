"""The config schemas come from the core: the CLI prints them, the config
reference is generated from them, and recall configs are checked by them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seekplan import _core
from seekplan.errors import SeekplanError
from seekplan.recall.config import parse_config
from seekplan.schema_docs import render

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_schema_verb_lists_and_prints(cli):
    listed = cli("schema")
    assert listed.exit_code == 0
    names = [line.split("\t")[0] for line in listed.output.splitlines()]
    assert "recall" in names
    r = cli("schema", "recall")
    assert r.exit_code == 0
    schema = json.loads(r.output)
    assert schema["properties"]["duration_h"]["default"] == 60.0


def test_unknown_schema_is_exit_2(cli):
    r = cli("schema", "nope")
    assert r.exit_code == 2
    assert "recall" in r.output


def test_config_reference_is_current():
    assert (DOCS / "config-reference.md").read_text() == render(), (
        "regenerate: python -m seekplan.schema_docs > docs/config-reference.md"
    )


def test_recall_defaults_come_from_the_core():
    cfg = parse_config({})
    assert cfg.library["drives"] == 12
    assert cfg.library["rate_mb_s"] == 252.0
    assert cfg.library["robot"] == {"arms": 1, "fetch_s": 0.0, "return_s": 0.0}
    assert cfg.data["strategy"] == {"name": "by-tapes", "tapes": 12}
    dcache = parse_config({"strategy": {"name": "dcache"}}).data["strategy"]
    assert dcache["min_request_count"] == 1000
    assert (
        parse_config({"strategy": {"name": "dcache", "min_request_count": None}}).data["strategy"][
            "min_request_count"
        ]
        is None
    )


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ({"library": {"robot": {"armz": 2}}}, ["library.robot", "armz"]),
        ({"library": {"rate_mb_s": -1}}, ["library.rate_mb_s", "-1"]),
        ({"library": {"robot": {"arms": 0}}}, ["library.robot.arms"]),
        ({"library": {"drives": "many"}}, ["library.drives", "many"]),
        ({"workload": {"kind": "kit", "scale": 2}}, ["workload.scale", "2"]),
        # A tagged section (strategy by name, read_model by kind) is read
        # whole before its variant is known; the field is still named.
        ({"strategy": {"name": "by-tapes", "tapes": -1}}, ["strategy.tapes", "-1"]),
        ({"strategy": {"name": "dcache", "max_active_tapes": "x"}}, ["strategy.max_active_tapes"]),
        (
            {"library": {"read_model": {"kind": "session-fraction", "floor": "x"}}},
            ["library.read_model.floor"],
        ),
    ],
)
def test_recall_errors_name_the_field_and_value(data, words):
    with pytest.raises(SeekplanError) as e:
        parse_config(data, "my.yaml")
    msg = str(e.value)
    assert msg.startswith("my.yaml: ")
    assert "column" not in msg, "a position in the core's JSON would mislead a YAML user"
    for w in words:
        assert w in msg, msg


def test_every_registered_schema_is_an_object_schema():
    for name, description in _core.schema_names():
        assert description
        assert json.loads(_core.schema(name))["type"] == "object"
