"""Hypothesis over every simulator's config parser (issue 16 item 3): any
YAML-shaped value is either a config or a SeekplanError naming what is
wrong, never another exception. Values are drawn near each schema's real
fields so that most reach the deep checks, not only the top-level type."""

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
