"""A stage request's status document (the reference document's
``GET /stage/{id}`` answer), from its summary and its files' rows."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from typing import Any

from seekplan.serve.db import TERMINAL
from seekplan.serve.store import Summary

#: Files per json.dumps call of a status document.
ENCODE_CHUNK = 1_000
#: A file as the document shows it: path, state, error, started, finished.
FileRow = tuple[str, str, "str | None", "float | None", "float | None"]


def status_document(s: Summary, rows: Sequence[FileRow]) -> bytes:
    """The JSON bytes of request ``s``'s document with its files ``rows``
    (in submission order)."""
    out = []
    for path, state, error, started, finished in rows:
        item: dict[str, Any] = {"path": path, "state": state}
        if error is not None:
            item["error"] = error
        if started is not None:
            item["startedAt"] = int(started)
        if finished is not None:
            item["finishedAt"] = int(finished)
        out.append(item)
    doc: dict[str, Any] = {
        "id": s.id,
        "createdAt": int(s.created_at),
        "startedAt": int(s.started_at if s.started_at is not None else s.created_at),
    }
    # The files may have been read after the summary was taken: a file may
    # have finished in between. completedAt follows the files shown, so the
    # document never says done while a file is not, or the reverse.
    if all(row[1] in TERMINAL for row in rows):
        finished_at = [row[4] for row in rows if row[4] is not None]
        done_at = s.completed_at if s.completed_at is not None else max(finished_at, default=None)
        doc["completedAt"] = int(done_at if done_at is not None else time.time())
    # The files are encoded a thousand at a time: json.dumps holds the
    # interpreter lock for its whole call, 49 ms for a 100,000-file request
    # (a GIL probe in the server, 2026-11-28), which a release then waited for.
    head = json.dumps(doc, separators=(",", ":"))[:-1]
    files = ",".join(
        json.dumps(out[i : i + ENCODE_CHUNK], separators=(",", ":"))[1:-1]
        for i in range(0, len(out), ENCODE_CHUNK)
    )
    return f'{head},"files":[{files}]}}'.encode()
