"""The staging service's request lifecycle: the API's operations (stage,
status, cancel, delete, release, archive info), start and stop, and pin
expiry. The drives are :mod:`seekplan.serve.drives`, the records
:mod:`seekplan.serve.store`, start-up recovery :mod:`seekplan.serve.recovery`,
the status page's figures :mod:`seekplan.serve.snapshot`.

Durability rules (issue 15, item 4; issue 35, item 5):

* a stage request and all its files are committed before the 201 is sent
  (large requests in chunks; a request is visible only once its last chunk
  and its ``accepted`` flag are committed, and start-up deletes one that
  never was);
* nothing is acknowledged unless the database is still the one opened (a
  SQLite file deleted or replaced under the service answers 503);
* a file's COMPLETED is committed only after the backend says its buffer copy
  is whole, and at start-up files the backend already holds are completed
  without being read again (so nothing is read twice to the buffer);
* after a crash every file not in a terminal state goes back to the queue; a
  file that was being read keeps its STARTED state (the API has no way back
  to SUBMITTED) and is read again; terminal files are never touched.

Locks: the store's ``wlock`` is held per transaction (bulk work in chunks);
the scheduler's lock is taken inside it, never around it.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import logging
import threading
import time
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NamedTuple

import sqlalchemy as sa
from prometheus_client import Gauge

from seekplan.errors import SeekplanError, quote
from seekplan.hardware import Hardware
from seekplan.serve import db
from seekplan.serve.backend import Backend
from seekplan.serve.catalog import Catalog, sanitise
from seekplan.serve.clock import Clock
from seekplan.serve.db import CANCELLED, COMPLETED, STARTED, SUBMITTED
from seekplan.serve.documents import status_document
from seekplan.serve.drives import Drives
from seekplan.serve.faults import ReadDeadline, RetryPolicy
from seekplan.serve.guard import DatabaseGuard
from seekplan.serve.intake import NOT_IN_CATALOG, Intake, Queued
from seekplan.serve.metrics import Stats
from seekplan.serve.recovery import Recovery
from seekplan.serve.scheduler import Scheduler
from seekplan.serve.store import CHUNK, ApiError, Store, Summary, chunks

__all__ = ["ApiError", "Service", "Summary", "buffer_dir"]

#: The error text of a file the client cancelled.
CANCELLED_ERROR = "stage cancelled by the client"
#: Bytes of status bodies kept (least recently used dropped first): WLCG's
#: load of 5,000 requests of 200 files is about 60 MB of bodies, so a poll of
#: an unchanged request is answered from memory (32 bodies, the old bound,
#: missed nearly every poll of that load: 382 polls/s).
CACHE_BYTES = 96 * 1024 * 1024
#: Files handed to the scheduler under one hold of its lock, which every
#: drive's next step also takes: a bound on their wait, not a tuned figure
#: (no scheduler call held it past 20 ms in a probe of a 100,000-file stage).
ARRIVALS_CHUNK = 500


class OpenRow(NamedTuple):
    """A request file waiting for its read, as the database's rows name it."""

    id: int
    path: str
    state: str
    request_id: str


log = logging.getLogger("seekplan.serve")

#: Real seconds between two looks for expired pins.
PIN_CHECK_S = 5.0


class Service(Recovery):
    """The service: API operations, recovery, pin expiry; owns the drives."""

    def __init__(
        self,
        *,
        catalog: Catalog,
        engine: sa.engine.Engine,
        backend: Backend,
        scheduler: Scheduler,
        clock: Clock,
        hardware: Hardware,
        max_files: int,
        max_active: int,
        retry_after_s: int,
        unavailable_tapes: Iterable[str] = (),
        retry: RetryPolicy | None = None,
        deadline: ReadDeadline | None = None,
        drive_repair_s: float = 3600.0,
        mount_deadline_s: float = 10_800.0,
        default_lifetime_s: float = 86_400.0,
        max_lifetime_s: float = 30 * 86_400.0,
        guard: DatabaseGuard | None = None,
        models: str = "",
    ) -> None:
        self.catalog = catalog
        self.engine = engine
        self.backend = backend
        self.sched = scheduler
        self.clock = clock
        self.hardware = hardware
        #: The drive and library models, as the status page names them.
        self.models = models
        self.max_files = max_files
        self.max_active = max_active
        self.retry_after_s = retry_after_s
        self.unavailable = set(unavailable_tapes)
        self.guard = guard
        self.store = Store(engine, default_lifetime_s)
        self.stats = Stats()
        self.intake = Intake(
            catalog,
            self.store,
            self.stats,
            self.unavailable,
            max_lifetime_s,
            self._acknowledge,
            self._cache,
        )
        self.drives = Drives(
            store=self.store,
            backend=backend,
            sched=scheduler,
            clock=clock,
            hardware=hardware,
            stats=self.stats,
            retry=retry or RetryPolicy(),
            deadline=deadline or ReadDeadline(),
            drive_repair_s=drive_repair_s,
            mount_deadline_s=mount_deadline_s,
        )
        self.cache: collections.OrderedDict[str, tuple[int, bytes]] = collections.OrderedDict()
        self.cache_bytes = 0
        self.cache_lock = threading.Lock()
        self.threads: list[threading.Thread] = []
        self._stop = threading.Event()
        #: Why the service stopped acknowledging (the database was lost), or None.
        self.lost: str | None = None
        self.recovering = False
        self.recovered = 0
        self.recover_error: str | None = None
        self.resume_before = 0
        self._recovered = threading.Event()
        Gauge(
            "seekplan_stage_files_waiting",
            "Files requested and not yet read",
            registry=self.stats.registry,
        ).set_function(lambda: self.sched.waiting())
        files_gauge = Gauge(
            "seekplan_stage_files",
            "Request files per state",
            ["state"],
            registry=self.stats.registry,
        )
        for state in db.STATES:
            count = functools.partial(self.store.totals.__getitem__, state)
            files_gauge.labels(state).set_function(count)

    # ---- views kept for callers of the one-class service --------------------------

    @property
    def summaries(self) -> dict[str, Summary]:
        """Every request's summary by id."""
        return self.store.summaries

    @property
    def totals(self) -> dict[str, int]:
        """Files per state over all requests."""
        return self.store.totals

    @property
    def paused(self) -> bool:
        """Whether the drives are down."""
        return self.drives.paused

    def pause(self, paused: bool) -> None:
        """Takes the drives down (they finish the file in hand) or brings them back."""
        self.drives.pause(paused)

    # ---- start and stop (recovery: seekplan.serve.recovery) -------------------

    def start(self) -> None:
        """Takes the database's lock, recovers from it and starts the drive
        workers, the watchdog and the pin reaper; does nothing once started.
        Another service on the database, or a worker the system refuses to
        start (thread or memory limits), is a SeekplanError."""
        if self.threads:
            return
        if self.guard is not None:
            self.guard.acquire()
        try:
            self.recover()
            self.threads += self.drives.start()
            reaper = threading.Thread(target=self._reap, name="pin-reaper", daemon=True)
            reaper.start()
            self.threads.append(reaper)
        except RuntimeError as e:
            started = len(self.drives.threads)
            self.stop()
            raise SeekplanError(
                f"cannot start the worker thread of drive {started + 1} of "
                f"{len(self.sched.drives)} ({e}): lower library.drives or raise the "
                "process's thread or memory limits"
            ) from None

    def stop(self) -> None:
        """Stops the workers (a file being read stays STARTED; it is read
        again after a restart), closes the database and drops its lock."""
        self._stop.set()
        self.drives.stop()
        for t in self.threads:
            t.join(timeout=10)
        close = getattr(self.backend, "close", None)
        if close is not None:
            close()
        if self.guard is not None:
            self.guard.release()
        self.engine.dispose()

    # ---- acknowledgement -------------------------------------------------------

    def _acknowledge(self) -> None:
        """Raises 503 unless the database is still the one opened; on the
        first loss the drives stop, so that no read is recorded where
        nobody will find it."""
        if self.guard is None or self.guard.intact():
            return
        if self.lost is None:
            self.lost = (
                f"the database file {self.guard.path} was deleted or replaced while the "
                "service ran; restart the service on the right database"
            )
            self.drives.pause(True)
        raise ApiError(503, "Database lost", self.lost, {"Retry-After": "60"})

    # ---- the API's operations ------------------------------------------------

    def _own(self, client: str, request_id: str) -> Summary:
        s = self.store.summaries.get(request_id)
        if s is None or s.deleted:
            raise ApiError(404, "Not found", f"no stage request {quote(request_id)}")
        if s.client != client:
            raise ApiError(403, "Forbidden", f"stage request {request_id!r} is another client's")
        return s

    def _throttle(self, detail: str) -> ApiError:
        self.stats.throttled += 1
        self.stats.throttle_count.inc()
        return ApiError(429, "Too many requests", detail, {"Retry-After": str(self.retry_after_s)})

    def stage(
        self, client: str, paths: list[str], lifetimes: dict[str, float] | None = None
    ) -> str:
        """Accepts a stage request (paths already checked to be strings;
        ``lifetimes``: diskLifetime seconds by path, where asked); returns
        its id once it is committed."""
        self._acknowledge()
        wanted = list(dict.fromkeys(sanitise(p) for p in paths))
        if len(wanted) > self.max_files:
            raise self._throttle(
                f"{len(wanted):,} files in one request; at most {self.max_files:,} are accepted"
            )
        rid = str(uuid.uuid4())
        with self.store.wlock:
            if self.store.active_count(client) >= self.max_active:
                raise self._throttle(
                    f"client {client!r} has {self.max_active:,} active requests, the most allowed"
                )
            self.store.reserved[client] += 1
            first_id = self.store.take_ids(len(wanted))
        try:
            queue = self.intake.write(client, rid, wanted, first_id, lifetimes or {})
        finally:
            with self.store.wlock:
                self.store.reserved[client] -= 1
        self._arrive(rid, queue)
        return rid

    def _arrive(self, rid: str, queue: Queued) -> None:
        """Hands a request's files to the scheduler by column, a few hundred
        at a time (the drives take the same lock)."""
        for start in range(0, len(queue), ARRIVALS_CHUNK):
            part = queue.part(start, start + ARRIVALS_CHUNK)
            with self.sched.lock:
                self.sched.add_rows(part.rows, part.file_ids, rid, self.clock.now())
                self.drives.notify()

    def cached_status(self, client: str, request_id: str) -> bytes | None:
        """The status document if nothing in the request changed since it was
        last rendered (no database access), else None."""
        s = self._own(client, request_id)
        with self.cache_lock:
            hit = self.cache.get(request_id)
            if hit is None or hit[0] != s.version:
                return None
            self.cache.move_to_end(request_id)
        self.stats.poll()
        return hit[1]

    def _cache(self, request_id: str, version: int, body: bytes) -> None:
        """Keeps a status body for ``version`` of the request."""
        with self.cache_lock:
            old = self.cache.pop(request_id, None)
            self.cache_bytes += len(body) - (len(old[1]) if old else 0)
            self.cache[request_id] = (version, body)
            while self.cache_bytes > CACHE_BYTES and len(self.cache) > 1:
                self.cache_bytes -= len(self.cache.popitem(last=False)[1][1])

    def status(self, client: str, request_id: str) -> bytes:
        """The request's status document (JSON bytes), rendered from the
        database unless cached."""
        cached = self.cached_status(client, request_id)
        if cached is not None:
            return cached
        s = self._own(client, request_id)
        body = self._render(s)
        self.stats.poll()
        self._cache(request_id, s.version, body)
        return body

    def _render(self, s: Summary) -> bytes:
        f = db.files
        with self.engine.connect() as conn:
            result = conn.execute(
                sa.select(f.c.path, f.c.state, f.c.error, f.c.started_at, f.c.finished_at)
                .where(f.c.request_id == s.id)
                .order_by(f.c.id)
            )
            # Fetched in parts: one fetch of 100,000 rows held the
            # interpreter lock for 33 ms (a GIL probe in the server).
            rows = [row for part in result.partitions(CHUNK) for row in part]
        return status_document(s, rows)

    def cancel(self, client: str, request_id: str, paths: list[str] | None) -> None:
        """Cancels the given paths of a request (all when None); a path not in
        the request is a 400 and nothing changes."""
        s = self._own(client, request_id)
        wanted = None if paths is None else {sanitise(p) for p in paths}
        rows = self.store.request_files(request_id, wanted)
        if wanted is not None:
            missing = sorted(wanted - {r.path for r in rows})
            if missing:
                raise ApiError(
                    400,
                    "File missing from stage request",
                    f"The file {missing[0]} does not belong to the STAGE request "
                    f"{request_id}. No modification has been made to this request.",
                )
        self._acknowledge()
        live = [r for r in rows if r.state in (SUBMITTED, STARTED)]
        staged = [(r.id, r.path) for r in rows if r.state == COMPLETED and not r.released]
        for chunk in chunks(live):
            self._cancel_live(s.id, chunk)
        if staged:
            # The document lets the endpoint drop the disk copy of a cancelled
            # staged file, and a later RELEASE of it does nothing.
            self._unpin(staged)
        self._acknowledge()

    def _cancel_live(self, rid: str, rows: Sequence[Any]) -> None:
        """Cancels rows still waiting for their read: each one the scheduler
        still holds (a row whose read ended meanwhile is left as it ended)."""
        # Catalog rows looked up together, before any lock is taken.
        cat_rows = self.catalog.rows([r.path for r in rows]).tolist()
        with self.store.wlock:
            changes = []
            unqueued = []
            with self.sched.lock:
                for r, cat_row in zip(rows, cat_rows, strict=True):
                    state = self.sched.cancel_row(r.path, cat_row, r.id)
                    if state is None:
                        unqueued.append(r.id)
                    else:
                        changes.append((r.id, rid, state, CANCELLED, CANCELLED_ERROR))
            if unqueued and self.recovering:
                # Not queued again yet after a start: cancelled where they are.
                for fid, state in self.store.states(unqueued).items():
                    if state in (SUBMITTED, STARTED):
                        changes.append((fid, rid, state, CANCELLED, CANCELLED_ERROR))
            if changes:
                self.store.transition(changes, time.time())

    def _unpin(self, rows: Sequence[tuple[int, str]]) -> None:
        for path in self.store.release(rows, time.time()):
            self.drives.evict(path)

    def delete(self, client: str, request_id: str) -> None:
        """Cancels every file of the request, then forgets it (404 from now on)."""
        self.cancel(client, request_id, None)
        with self.store.wlock:
            s = self._own(client, request_id)
            s = replace(s, deleted=True, version=s.version + 1)
            with self.engine.begin() as conn:
                conn.execute(
                    db.requests.update().where(db.requests.c.id == request_id).values(deleted=True)
                )
            self.store.set_summary(s)
        with self.cache_lock:
            gone = self.cache.pop(request_id, None)
            self.cache_bytes -= len(gone[1]) if gone else 0
        self._acknowledge()

    def release(self, client: str, request_id: str, paths: list[str]) -> None:
        """Unpins the request's staged copies of ``paths``; a path not staged
        yet will not be pinned when it is (its pin-to-be is cancelled). An
        id that is no request of the client's (gfal2's evict sends a
        placeholder) releases the client's copies of ``paths`` in any of its
        requests; 404 when it has none."""
        self._acknowledge()
        wanted = {sanitise(p) for p in paths}
        s = self.store.summaries.get(request_id)
        if s is not None and not s.deleted and s.client != client:
            raise ApiError(403, "Forbidden", f"stage request {request_id!r} is another client's")
        with self.store.wlock:
            if s is None or s.deleted:
                rows = self.store.client_files(client, wanted) + self._client_waiting(
                    client, wanted
                )
                if not rows:
                    raise ApiError(
                        404,
                        "Not found",
                        f"no stage request {quote(request_id)}, and none of the paths is "
                        f"staged or being staged for {client!r}",
                    )
            else:
                rows = [r for r in self.store.request_files(request_id, wanted) if not r.released]
            staged = [(r.id, r.path) for r in rows if r.state == COMPLETED]
            pending = []
            waiting = [r for r in rows if r.state in (SUBMITTED, STARTED)]
            with self.sched.lock if waiting else contextlib.nullcontext():
                for r in waiting:
                    job = self.sched.live(r.path)
                    if job is not None and r.id in job.rows:
                        job.release([r.id])
                        pending.append(r.id)
                    elif self.recovering:
                        pending.append(r.id)  # not queued again yet: the flag goes with it
            if pending:
                self.store.mark_released(pending)
            if staged:
                self._unpin(staged)
        self._acknowledge()

    def _client_waiting(self, client: str, paths: Iterable[str]) -> list[Any]:
        """Rows (id, path, state, request id) of ``paths`` waiting for their
        read in the client's requests not deleted and not released: from the
        scheduler, or, while a start is still queueing files again, from the
        database. Caller holds the store's lock."""
        if self.recovering:
            return self.store.client_open_files(client, paths)
        out = []
        with self.sched.lock:
            for path in paths:
                job = self.sched.live(path)
                if job is None:
                    continue
                for fid, (rid, state) in job.rows.items():
                    s = self.store.summaries.get(rid)
                    if s is None or s.client != client or s.deleted:
                        continue
                    if not (job.released and fid in job.released):
                        out.append(OpenRow(fid, path, state, rid))
        return out

    def archiveinfo(self, paths: list[str]) -> list[dict[str, str]]:
        """Each path's locality (or an error for paths not in the catalog)."""
        out = []
        for raw in paths:
            path = sanitise(raw)
            entry = self.catalog.get(path)
            if entry is None:
                out.append({"path": raw, "error": NOT_IN_CATALOG})
            elif entry.size == 0:
                out.append({"path": raw, "locality": "NONE"})
            elif path in self.store.disk:
                out.append({"path": raw, "locality": "DISK_AND_TAPE"})
            elif entry.tape in self.unavailable:
                out.append({"path": raw, "locality": "UNAVAILABLE"})
            else:
                out.append({"path": raw, "locality": "TAPE"})
        return out

    # ---- pin lifetimes -----------------------------------------------------------

    def expire_pins(self, now: float | None = None) -> int:
        """Releases every staged copy whose diskLifetime has run out; returns
        how many."""
        n = 0
        while True:
            rows = self.store.expired(time.time() if now is None else now)
            if not rows:
                return n
            self._unpin(rows)
            n += len(rows)
            self.stats.expired.inc(len(rows))

    def _reap(self) -> None:
        while not self._stop.wait(PIN_CHECK_S):
            try:
                self.expire_pins()
            except (sa.exc.SQLAlchemyError, OSError):
                continue  # the database is failing: the status page says so
            except Exception:  # a bug: the reaper must outlive it
                log.exception("expiring pins")

    # ---- the status page --------------------------------------------------------

    def db_health(self) -> tuple[bool, float]:
        """Whether a trivial query works (and the database is the one
        opened), and how long it took (ms)."""
        t0 = time.perf_counter()
        try:
            with self.engine.connect() as conn:
                conn.execute(sa.text("SELECT 1"))
            ok = self.guard is None or self.guard.intact()
            return ok, (time.perf_counter() - t0) * 1000
        except sa.exc.SQLAlchemyError:
            return False, (time.perf_counter() - t0) * 1000

    def snapshot(self, plan_rows: int = 8) -> dict[str, Any]:
        """Everything the status page shows."""
        from seekplan.serve.snapshot import snapshot

        return snapshot(self, plan_rows)


def buffer_dir(db_arg: str, buffer: str | None) -> Path:
    """The buffer directory: as configured, else beside a SQLite database
    (``NAME.buffer``), else ``./seekplan-buffer``."""
    if buffer is not None:
        return Path(buffer)
    if "://" not in db_arg:
        return Path(f"{db_arg}.buffer")
    return Path("seekplan-buffer")
