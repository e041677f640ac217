"""Hypothesis over every config parser (issue 16 item 3): the recall,
archive and media configs and `seekplan serve`'s stage.yaml, as values and
as files of any bytes. Any input is either a config or a SeekplanError
naming what is wrong (exit code 2 at the CLI), never another exception.
Values are drawn near each schema's real fields so that most reach the deep
checks, not only the top-level type."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from seekplan import _core
from seekplan.archive.config import parse_config as parse_archive
from seekplan.errors import SeekplanError
from seekplan.media.config import parse_study
from seekplan.recall.config import parse_config

scalars = st.one_of(
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0, 1, -1, 0.5, 1e-300, 1e300, "", "x", "12", None, True]),
    st.text(max_size=5),
)
values = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)


def _schema_fields(name: str) -> tuple[dict[str, list[str]], list[str]]:
    """(section -> its field names, top-level field names) of a config, from
    the core's JSON Schema (every variant's fields merged)."""
    schema = json.loads(_core.schema(name))
    defs = schema.get("$defs", {})

    def props(node: dict[str, Any]) -> list[str]:
        if "$ref" in node:
            node = defs[node["$ref"].rsplit("/", 1)[1]]
        out = list(node.get("properties", {}))
        for variant in node.get("oneOf", []) + node.get("allOf", []) + node.get("anyOf", []):
            out += props(variant)
        return sorted(set(out))

    sections, top = {}, []
    for key, node in schema["properties"].items():
        fields = props(node)
        if fields:
            sections[key] = fields
        else:
            top.append(key)
    return sections, top


def near(fields: tuple[dict[str, list[str]], list[str]]) -> st.SearchStrategy[Any]:
    """Dicts using the schema's own section and field names (and strays)."""
    sections, top = fields
    assert sections and top, fields
    section = st.one_of(
        *[
            st.dictionaries(st.sampled_from([*fields, "stray"]), values, max_size=4)
            for fields in sections.values()
        ]
    )
    keys = st.sampled_from([*sections, *top, "stray"])
    return st.one_of(values, st.dictionaries(keys, st.one_of(section, values), max_size=5))


def _never_crashes(parse: Any, data: Any) -> None:
    try:
        parse(data)
    except SeekplanError as e:
        assert str(e)


@settings(max_examples=300, deadline=None)
@given(near(_schema_fields("recall")))
def test_recall_configs(data):
    _never_crashes(parse_config, data)


@settings(max_examples=300, deadline=None)
@given(near(_schema_fields("archive")))
def test_archive_configs(data):
    _never_crashes(parse_archive, data)


@settings(max_examples=300, deadline=None)
@given(near(_schema_fields("media")))
def test_media_configs(data):
    _never_crashes(parse_study, data)


def _stage_fields() -> tuple[dict[str, list[str]], list[str]]:
    """The stage.yaml fields: its own (pydantic) and, under `library` and
    `policy`, the recall config's that the core checks there."""
    from seekplan.serve.config import Limits, StageConfig

    recall, _ = _schema_fields("recall")
    top = [k for k in StageConfig.model_fields if k not in ("limits", "library", "policy")]
    sections = {
        "limits": sorted(Limits.model_fields),
        "library": recall["library"],
        "policy": recall["strategy"],
    }
    return sections, top


@settings(max_examples=200, deadline=None)
@given(near(_stage_fields()))
def test_stage_configs(data):
    from seekplan.serve.config import stage_config

    _never_crashes(stage_config, data)


# YAML text as hostile users write it: aliases, tags, tabs, deep nesting,
# several documents, huge numbers, bytes that are not UTF-8.
yaml_fragments = st.sampled_from(
    [
        "a: &x [1, 2]\nb: *x\n",
        "library: {drives: 4}\n",
        "workload: {rate_per_hour: 1e400}\n",
        "!!python/object/apply:os.system ['true']\n",
        "lambdas: [.nan, .inf, -.inf]\n",
        "\tlibrary:\n\t\tdrives: 2\n",
        "[" * 200,
        "{a: " * 50,
        "---\nseed: 1\n---\nseed: 2\n",
        "seed: 1\nseed: 2\n",
        "seed: 0x_ff\n",
        "duration_h: 99999999999999999999999999\n",
        "policy: fifo\n",
        "limits: {max_files_per_request: 0}\n",
        "? [a, b]\n: c\n",
        "disk: ~\n",
        "'unterminated\n",
        ": x\n",
        "c_requests: 60\nround_s: 0.001\n",
    ]
)
yaml_bytes = st.one_of(
    st.lists(yaml_fragments, max_size=4).map(lambda parts: "".join(parts).encode()),
    st.binary(max_size=64),
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
)


def _loaders() -> list[Any]:
    from seekplan.archive.config import load_config as load_archive
    from seekplan.media.config import load_config as load_study
    from seekplan.recall.config import load_config as load_recall
    from seekplan.serve.config import load_stage_config

    return [load_recall, load_archive, load_study, lambda p: load_stage_config(p, {})]


@settings(max_examples=150, deadline=None)
@given(yaml_bytes)
def test_config_files(tmp_path_factory, text):
    """Every loader behind a CLI config argument, on any bytes: a config or
    a SeekplanError (which the CLI turns into exit code 2), never another
    exception."""
    path = tmp_path_factory.mktemp("cfg") / "config.yaml"
    path.write_bytes(text)
    for load in _loaders():
        _never_crashes(load, path)


def test_a_nul_character_in_any_config_text_is_an_error_naming_its_key(tmp_path):
    """The OS refuses a path holding NUL with a ValueError, which no loader
    caught: a NUL in any text of a config (value or key) is refused when
    the file is read, naming where it is."""
    cases = {
        'workload: {kind: files, files: "\\0x", tapes: t.csv}\n': "workload.files",
        'catalog: "cat\\0.csv"\n': "catalog",
        'db: ["a", "b\\0"]\n': "db[1]",
        '"a\\0b": 1\n': "a\\0b",
    }
    for text, where in cases.items():
        path = tmp_path / "config.yaml"
        path.write_text(text)
        for load in _loaders():
            try:
                load(path)
            except SeekplanError as e:
                assert f"{where}: text holds a NUL character" in str(e), (text, e)
            else:
                raise AssertionError(f"{text!r} was accepted")
