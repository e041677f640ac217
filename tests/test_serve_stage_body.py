"""A stage body decoded by the core's shortcut (``plain_stage_paths``, for
the plain shape FTS sends) gives what ``json.loads`` and the field checks
give: the same paths, or for any other body the same refusal, word for
word. Bodies are drawn by Hypothesis (seeded in CI), valid and not."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from seekplan.serve.api import _decode_stage, _parse_json, _stage_files
from seekplan.serve.store import ApiError

pytestmark = pytest.mark.hypothesis

PATH_TEXT = st.lists(
    st.sampled_from(["/", "a", "é", "..", "\x00", "\n", " ", "\\", '"', "\ud800", "𝄞", "."]),
    max_size=8,
).map("".join)
FILE = st.fixed_dictionaries(
    {"path": st.one_of(PATH_TEXT, st.none(), st.integers())},
    optional={
        "diskLifetime": st.sampled_from(["PT1H", "1h", -1, None, "x"]),
        "targetedMetadata": st.sampled_from([{}, None, 3]),
        "other": st.just(1),
    },
)
BODY = st.one_of(
    st.fixed_dictionaries(
        {"files": st.lists(FILE, max_size=4)}, optional={"extra": st.just([1, 2])}
    ),
    st.lists(FILE, max_size=2),
    st.just({}),
)


def _outcome(decode: Any, raw: bytes) -> tuple[str, Any]:
    try:
        return "ok", decode(raw)
    except ApiError as e:
        return "refused", (e.status, e.detail)


@given(BODY, st.booleans(), st.sampled_from(["", " ", "\n", " x", "\ufeff"]))
def test_the_shortcut_and_the_full_decoder_agree(doc, ascii_only, around):
    text = json.dumps(doc, ensure_ascii=ascii_only)
    raw = (around.strip() + text + around if around != " x" else text + around).encode(
        "utf-8", "surrogatepass"
    )
    full = _outcome(lambda b: _parse_json(b, _stage_files), raw)
    assert _outcome(_decode_stage, raw) == full, raw[:200]


def test_a_plain_body_of_many_files_takes_the_shortcut():
    from seekplan import _core

    raw = json.dumps({"files": [{"path": f"/d/f{i}"} for i in range(1000)]}).encode()
    assert _core.plain_stage_paths(raw) == [f"/d/f{i}" for i in range(1000)]
    assert _decode_stage(raw) == ([f"/d/f{i}" for i in range(1000)], {})
