"""Recovery after a start: the requests and pins are loaded at once, and every
file still open in the database (not yet read, or read when the service
stopped) goes back to the scheduler in the background, a chunk at a time, so
that a restart with a million queued files serves at once (issue 35). Split
from :mod:`seekplan.serve.service`, whose :class:`~seekplan.serve.service.Service`
it is a part of: the service starts it and its API operations read
``recovering`` while files are still being queued again.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np
import sqlalchemy as sa

from seekplan.serve.backend import Backend
from seekplan.serve.catalog import Catalog
from seekplan.serve.clock import Clock
from seekplan.serve.db import COMPLETED, FAILED, SUBMITTED
from seekplan.serve.drives import Drives
from seekplan.serve.intake import NOT_IN_CATALOG
from seekplan.serve.jobs import Job
from seekplan.serve.scheduler import Scheduler
from seekplan.serve.store import Store

#: Real seconds before queueing open files again is retried after the
#: database failed doing it.
RESUME_RETRY_S = 5.0

log = logging.getLogger("seekplan.serve")


class _RecoveringService(Protocol):
    """What recovery reads and changes of the service."""

    catalog: Catalog
    backend: Backend
    sched: Scheduler
    clock: Clock
    store: Store
    drives: Drives
    threads: list[threading.Thread]
    _stop: threading.Event
    _recovered: threading.Event
    recovering: bool
    recovered: int
    recover_error: str | None
    resume_before: int

    def _resume(self) -> None: ...

    def _buffered(self) -> set[str]: ...

    def _requeue(self, rows: Sequence[Any], buffered: set[str]) -> None: ...


class Recovery:
    """The service's recovery after a start (a mixin of
    :class:`~seekplan.serve.service.Service`, which sets these in its
    constructor)."""

    #: Whether open files are still being queued again after a start, how
    #: many were, and the last error doing it.
    recovering: bool
    recovered: int
    recover_error: str | None
    #: The first file id a request made after the start takes: the resume
    #: queues only the files below it.
    resume_before: int

    def recover(self: _RecoveringService) -> None:
        """Loads the requests and pins (the service can answer then), and
        starts putting every non-terminal file back in the queue in the
        background, a chunk at a time: a restart with a million queued files
        serves at once instead of after reading them all (issue 35)."""
        self.store.load()
        # Only what was open before the start: a request made meanwhile is
        # queued by its own call, and queued again from the database it
        # went back to its stored states (a file a drive had marked STARTED
        # was SUBMITTED again, and its COMPLETED move then matched no row).
        self.resume_before = self.store.next_file_id
        self.recovering = True
        t = threading.Thread(target=self._resume, name="resume", daemon=True)
        t.start()
        self.threads.append(t)

    def wait_recovered(self: _RecoveringService, timeout: float | None = None) -> bool:
        """Waits until every open file is back in the queue; whether it is."""
        return self._recovered.wait(timeout)

    def _resume(self: _RecoveringService) -> None:
        """Queues the open files again, oldest first, in chunks; each chunk
        is read and queued under the store's lock, so a cancel or release of
        a file not yet queued meets it either in the database or in the
        scheduler, never in between. A failing database is retried, and so
        is anything else that fails (a bug, logged): the thread ended on it
        before, and the open files were never queued again."""
        last = 0
        buffered: set[str] | None = None
        while not self._stop.is_set():
            try:
                if buffered is None:
                    self.store.refresh_statistics()
                    # What the backend holds, read once (outside the lock: a
                    # long read log takes a while).
                    opened = self.store.open_files(0, self.resume_before, 1)
                    buffered = self._buffered() if opened else set()
                with self.store.wlock:
                    rows = self.store.open_files(last, self.resume_before)
                    if rows:
                        self._requeue(rows, buffered)
                        last = rows[-1].id
                        self.recovered += len(rows)
                if not rows:
                    break
            except Exception as e:
                if not isinstance(e, (sa.exc.SQLAlchemyError, OSError)):
                    log.exception("queueing the open files again")
                text = str(e).splitlines()
                self.recover_error = f"{type(e).__name__}: {text[0] if text else ''}"
                self._stop.wait(RESUME_RETRY_S)
        with self.store.wlock:
            self.recovering = False
        self._recovered.set()

    def _buffered(self: _RecoveringService) -> set[str]:
        """The copies the backend holds (their files complete without a
        second read), or none where it cannot say (logged): every open file
        is then read again, which costs tape time but leaves none waiting
        on the listing."""
        try:
            return self.backend.on_disk()
        except Exception:
            log.exception("the backend could not list its copies: open files are read again")
            return set()

    def _requeue(self: _RecoveringService, rows: Sequence[Any], buffered: set[str]) -> None:
        """One chunk of open files: those the backend already holds complete
        without a second read, those no longer catalogued fail, the others
        go back to the scheduler. Caller holds the store's lock."""
        now = time.time()
        jobs: dict[str, Job] = {}
        # Files waiting as they were submitted, kept by column: (file id, request, row).
        waiting: list[tuple[int, str, int]] = []
        done: list[tuple[int, str, str, str, str | None]] = []
        pin: dict[int, str] = {}
        found = self.catalog.lookup([row.path for row in rows])
        for k, (fid, rid, path, state, released) in enumerate(rows):
            if path in buffered or path in self.store.disk:
                done.append((fid, rid, state, COMPLETED, None))
                if not released:
                    pin[fid] = path
            elif found.tape[k] is None:
                done.append((fid, rid, state, FAILED, NOT_IN_CATALOG))
            elif state == SUBMITTED and not released:
                waiting.append((fid, rid, found.row[k]))
            else:
                job = jobs.get(path)
                if job is None:
                    job = Job(
                        path, found.tape_index[k], found.block[k], found.size[k], found.row[k]
                    )
                    jobs[path] = job
                job.rows[fid] = (rid, state)
                if released:
                    job.release([fid])
        if done:
            self.store.transition(done, now, pin)
        with self.sched.lock:
            now = self.clock.now()
            if waiting:
                file_ids, rids, cat_rows = zip(*waiting, strict=True)
                self.sched.add_rows(
                    np.array(cat_rows, dtype=np.int64), np.array(file_ids, dtype=np.int64),
                    rids, now,
                )  # fmt: skip
            self.sched.add(jobs.values(), now)
            self.drives.notify()
