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
         20.0 + i if i % 2 else None, 30.0 + i if i % 3 == 0 else None)
        for i in range(n)
    ]  # fmt: skip
    files = []
    for path, state, error, started, finished in rows:
        item: dict = {"path": path, "state": state}
        if error is not None:
            item["error"] = error
        if started is not None:
            item["startedAt"] = int(started)
        if finished is not None:
            item["finishedAt"] = int(finished)
        files.append(item)
    whole = {"id": "r1", "createdAt": 10, "startedAt": 11, "files": files}
    assert status_document(s, rows) == json.dumps(whole, separators=(",", ":")).encode()
