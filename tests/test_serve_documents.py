"""A status document encoded a thousand files at a time is byte for byte
the document encoded at once."""

from __future__ import annotations

import json

import pytest

from seekplan.serve.documents import ENCODE_CHUNK, status_document
from seekplan.serve.store import Summary


@pytest.mark.parametrize("n", [1, ENCODE_CHUNK - 1, ENCODE_CHUNK, ENCODE_CHUNK + 1, 2500])
def test_the_document_in_parts_is_the_document_at_once(n):
    s = Summary("r1", "c", 10.5, 11.0, None, False, n, {})
    rows = [
        (f'/d/"f{i}"\\é', "FAILED" if i % 3 == 1 else "STARTED", "no" if i % 3 == 1 else None,
         20.0 + i if i % 2 else None, 30.0 + i if i % 3 == 1 else None)
        for i in range(n)
    ]  # fmt: skip
    body = status_document(s, rows)
    doc = json.loads(body)
    # Decoded and encoded again in one call: the same bytes.
    assert body == json.dumps(doc, separators=(",", ":")).encode()
    assert [doc[k] for k in ("id", "createdAt", "startedAt")] == ["r1", 10, 11]
    assert [f["path"] for f in doc["files"]] == [r[0] for r in rows]
    assert doc["files"][0] == {"path": '/d/"f0"\\é', "state": "STARTED"}
    if n > 1:
        assert doc["files"][1] == {
            "path": '/d/"f1"\\é', "state": "FAILED", "error": "no", "startedAt": 21,
            "finishedAt": 31,
        }  # fmt: skip
