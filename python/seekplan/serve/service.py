"""The staging service: requests in the database, files in the scheduler, one
worker thread per drive driving the backend.

Durability rules (issue 15, item 4):

* a stage request and all its files are committed before the 201 is sent;
* a file's COMPLETED is committed only after the backend says its buffer copy
  is whole, and at start-up files the backend already holds are completed
  without being read again (so nothing is read twice to the buffer);
* after a crash every file not in a terminal state goes back to the queue; a
  file that was being read keeps its STARTED state (the API has no way back
  to SUBMITTED) and is read again; terminal files are never touched.

Locks: ``self.wlock`` serialises every database write and every change to
whom a job's rows belong; the scheduler's lock is taken inside it, never
around it.
"""

from __future__ import annotations

import collections
import functools
import json
import threading
import time
import uuid
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from prometheus_client import CollectorRegistry, Counter, Gauge
from sqlalchemy.engine import Connection, Engine

from seekplan.errors import SeekplanError, quote
from seekplan.hardware import Hardware
from seekplan.serve import db
from seekplan.serve.backend import Backend, BackendError, ReadJob, positional_read_seconds
from seekplan.serve.catalog import Catalog, sanitise
from seekplan.serve.clock import Clock
from seekplan.serve.db import CANCELLED, COMPLETED, FAILED, STARTED, SUBMITTED, TERMINAL
from seekplan.serve.scheduler import Job, Scheduler

#: Error texts a client sees per file.
NOT_IN_CATALOG = "file does not exist or is not accessible to you (not in the tape catalog)"
NOT_ON_TAPE = "not a tape-stored file (0 bytes)"
CANCELLED_ERROR = "stage cancelled by the client"
#: Recent requests listed on the status page.
RECENT = 10
#: Status bodies kept, most recently used first.
CACHE_ENTRIES = 32
#: Rows per statement when a list of ids goes into an IN clause.
CHUNK = 5_000


class ApiError(Exception):
    """An RFC 7807 problem: HTTP status, title, detail, extra headers."""

    def __init__(
        self,
        status: int,
        title: str,
        detail: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail or title)
        self.status = status
        self.title = title
        self.detail = detail
        self.headers = headers or {}


@dataclass(frozen=True)
class Summary:
    """A request's row: who, when, and its kept counts per state."""

    id: str
    client: str
    created_at: float
    started_at: float | None
    completed_at: float | None
    deleted: bool
    n_files: int
    counts: dict[str, int]
    version: int = 0

    @property
    def active(self) -> bool:
        """Not completed and not deleted."""
        return not self.deleted and self.completed_at is None

    def moved(self, old: str, new: str, n: int, now: float) -> Summary:
        """The summary after ``n`` files went from ``old`` to ``new`` at ``now``."""
        counts = dict(self.counts)
        counts[old] -= n
        counts[new] += n
        started = self.started_at if self.started_at is not None or new == SUBMITTED else now
        done = counts[SUBMITTED] + counts[STARTED] == 0
        completed = self.completed_at if self.completed_at is not None else (now if done else None)
        return replace(
            self,
            counts=counts,
            started_at=started,
            completed_at=completed,
            version=self.version + 1,
        )

    def row(self) -> dict[str, Any]:
        """The request table's columns that change."""
        out: dict[str, Any] = {
            "started_at": self.started_at,
            "completed_at": self.completed_at,
            "deleted": self.deleted,
        }
        for state, col in db.COUNT_COLUMN.items():
            out[col] = self.counts[state]
        return out


@dataclass
class Stats:
    """Counters behind the status page and /metrics."""

    registry: CollectorRegistry = field(default_factory=CollectorRegistry)
    polls: collections.deque[float] = field(
        default_factory=lambda: collections.deque(maxlen=20_000)
    )
    throttled: int = 0

    def __post_init__(self) -> None:
        r = self.registry
        self.mounts = Counter("seekplan_stage_mounts", "Tape mounts", registry=r)
        self.staged = Counter("seekplan_stage_files_staged", "Files read to the buffer", registry=r)
        self.failed = Counter("seekplan_stage_files_failed", "Files that failed", registry=r)
        self.bytes_read = Counter("seekplan_stage_bytes_read", "Bytes read from tape", registry=r)
        self.requests = Counter("seekplan_stage_requests", "Stage requests accepted", registry=r)
        self.poll_count = Counter("seekplan_stage_polls", "Stage status polls", registry=r)
        self.throttle_count = Counter(
            "seekplan_stage_throttled", "Requests refused with 429", registry=r
        )

    def poll(self) -> None:
        """Counts one status poll."""
        self.polls.append(time.monotonic())
        self.poll_count.inc()

    def poll_rate(self, window: float = 10.0) -> float:
        """Polls per second over the last ``window`` seconds."""
        now = time.monotonic()
        n = 0
        for t in reversed(self.polls):
            if now - t > window:
                break
            n += 1
        return n / window


class Service:
    """The service: API operations, recovery, and the drive workers."""

    def __init__(
        self,
        *,
        catalog: Catalog,
        engine: Engine,
        backend: Backend,
        scheduler: Scheduler,
        clock: Clock,
        hardware: Hardware,
        max_files: int,
        max_active: int,
        retry_after_s: int,
        unavailable_tapes: Iterable[str] = (),
    ) -> None:
        self.catalog = catalog
        self.engine = engine
        self.backend = backend
        self.sched = scheduler
        self.clock = clock
        self.hardware = hardware
        self.max_files = max_files
        self.max_active = max_active
        self.retry_after_s = retry_after_s
        self.unavailable = set(unavailable_tapes)
        self.wlock = threading.RLock()
        self.summaries: dict[str, Summary] = {}
        self.active_by_client: dict[str, set[str]] = collections.defaultdict(set)
        #: Buffer paths with the number of unreleased staged files pinning them.
        self.disk: dict[str, int] = {}
        self.next_file_id = 1
        self.cache: collections.OrderedDict[str, tuple[int, bytes]] = collections.OrderedDict()
        self.cache_lock = threading.Lock()
        self.stats = Stats()
        self.totals = dict.fromkeys(db.STATES, 0)
        self.paused = False
        self.stopping = False
        self.threads: list[threading.Thread] = []
        self.started_wall = time.time()
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
            count = functools.partial(self.totals.__getitem__, state)
            files_gauge.labels(state).set_function(count)

    # ---- start, stop, recovery ---------------------------------------------

    def start(self) -> None:
        """Recovers from the database and starts one worker per drive; does
        nothing once started. A worker the system refuses to start (thread
        or memory limits) stops those started and is a SeekplanError."""
        if self.threads:
            return
        self.recover()
        for d in range(len(self.sched.drives)):
            t = threading.Thread(target=self._worker, args=(d,), name=f"drive-{d}", daemon=True)
            try:
                t.start()
            except RuntimeError as e:
                self.stop()
                raise SeekplanError(
                    f"cannot start the worker thread of drive {d + 1} of "
                    f"{len(self.sched.drives)} ({e}): lower library.drives or raise the "
                    "process's thread or memory limits"
                ) from None
            self.threads.append(t)

    def stop(self) -> None:
        """Stops the workers (a file being read stays STARTED; it is read
        again after a restart) and closes the database."""
        self.stopping = True
        self.clock.halt()
        with self.sched.lock:
            self.clock.notify_all(self.sched.wake)
        for t in self.threads:
            t.join(timeout=10)
        close = getattr(self.backend, "close", None)
        if close is not None:
            close()
        self.engine.dispose()

    def _set_summary(self, s: Summary) -> None:
        old = self.summaries.get(s.id)
        if old is not None:
            for state in db.STATES:
                self.totals[state] += s.counts[state] - old.counts[state]
        else:
            for state in db.STATES:
                self.totals[state] += s.counts[state]
        self.summaries[s.id] = s
        if s.active:
            self.active_by_client[s.client].add(s.id)
        else:
            self.active_by_client[s.client].discard(s.id)

    def recover(self) -> None:
        """Loads the requests, and puts every non-terminal file back in the queue."""
        r, f = db.requests, db.files
        with self.engine.connect() as conn:
            for row in conn.execute(sa.select(r)).mappings():
                counts = {s: row[c] for s, c in db.COUNT_COLUMN.items()}
                self._set_summary(
                    Summary(
                        row["id"],
                        row["client"],
                        row["created_at"],
                        row["started_at"],
                        row["completed_at"],
                        row["deleted"],
                        row["n_files"],
                        counts,
                    )
                )
            for disk_path, disk_pins in conn.execute(sa.select(db.disk.c.path, db.disk.c.pins)):
                self.disk[disk_path] = disk_pins
            top = conn.execute(sa.select(sa.func.max(f.c.id))).scalar()
            self.next_file_id = (top or 0) + 1
            open_rows = conn.execute(
                sa.select(f.c.id, f.c.request_id, f.c.path, f.c.state)
                .where(f.c.state.in_([SUBMITTED, STARTED]))
                .order_by(f.c.id)
            ).all()
        buffered = self.backend.on_disk() if open_rows else set()
        now = time.time()
        jobs: dict[str, Job] = {}
        done: list[tuple[int, str, str, str, str | None]] = []
        pins: collections.Counter[str] = collections.Counter()
        for fid, rid, path, state in open_rows:
            entry = self.catalog.get(path)
            if path in buffered or path in self.disk:
                done.append((fid, rid, state, COMPLETED, None))
                pins[path] += 1
            elif entry is None:
                done.append((fid, rid, state, FAILED, NOT_IN_CATALOG))
            else:
                job = jobs.get(path)
                if job is None:
                    tape = self.catalog.tape_index[entry.tape]
                    job = jobs[path] = Job(path, tape, entry.block, entry.size)
                job.rows[fid] = (rid, state)
        with self.wlock:
            if done:
                self._transition(done, now, pins)
            with self.sched.lock:
                vnow = self.clock.now()
                for job in jobs.values():
                    self.sched.arrive(job, vnow)

    # ---- state changes ------------------------------------------------------

    def _transition(
        self,
        changes: Sequence[tuple[int, str, str, str, str | None]],
        now: float,
        pins: collections.Counter[str] | None = None,
    ) -> None:
        """Moves files (id, request, old state, new state, error) and their
        requests' counts in one transaction, and pins the buffer ``pins``
        (paths just staged, with how many files completed on each). Caller
        holds ``wlock``."""
        f = db.files
        summaries: dict[str, Summary] = {}
        pins = pins or collections.Counter()
        with self.engine.begin() as conn:
            by_kind: dict[tuple[str, str, str | None], list[int]] = collections.defaultdict(list)
            for fid, rid, old, new, error in changes:
                by_kind[(old, new, error)].append(fid)
                s = summaries.get(rid) or self.summaries[rid]
                summaries[rid] = s.moved(old, new, 1, now)
            for (old, new, error), ids in by_kind.items():
                values: dict[str, Any] = {"state": new}
                if new != SUBMITTED:
                    values["started_at"] = sa.func.coalesce(f.c.started_at, now)
                if new in TERMINAL:
                    values["finished_at"] = now
                if error is not None:
                    values["error"] = error
                for i in range(0, len(ids), CHUNK):
                    chunk = ids[i : i + CHUNK]
                    conn.execute(
                        f.update().where(f.c.id.in_(chunk), f.c.state == old).values(**values)
                    )
            self._pin(conn, pins, now)
            for s in summaries.values():
                conn.execute(db.requests.update().where(db.requests.c.id == s.id).values(s.row()))
        for path, n in pins.items():
            self.disk[path] = self.disk.get(path, 0) + n
        for s in summaries.values():
            self._set_summary(s)

    def _pin(self, conn: Connection, pins: collections.Counter[str], now: float) -> None:
        d = db.disk
        for path, n in pins.items():
            if n == 0:
                continue
            have = self.disk.get(path, 0)
            if have + n <= 0:
                conn.execute(d.delete().where(d.c.path == path))
            elif path in self.disk:
                conn.execute(d.update().where(d.c.path == path).values(pins=have + n))
            else:
                conn.execute(d.insert().values(path=path, pins=n, staged_at=now))

    def _unpin(self, conn: Connection, paths: Iterable[str], now: float) -> list[str]:
        """Drops one pin per path; returns the paths no longer pinned."""
        counts = collections.Counter(paths)
        self._pin(conn, collections.Counter({p: -n for p, n in counts.items()}), now)
        gone = []
        for path, n in counts.items():
            left = self.disk.get(path, 0) - n
            if left <= 0:
                self.disk.pop(path, None)
                gone.append(path)
            else:
                self.disk[path] = left
        return gone

    # ---- the API's operations ------------------------------------------------

    def _own(self, client: str, request_id: str) -> Summary:
        s = self.summaries.get(request_id)
        if s is None or s.deleted:
            raise ApiError(404, "Not found", f"no stage request {quote(request_id)}")
        if s.client != client:
            raise ApiError(403, "Forbidden", f"stage request {request_id!r} is another client's")
        return s

    def _throttle(self, detail: str) -> ApiError:
        self.stats.throttled += 1
        self.stats.throttle_count.inc()
        return ApiError(429, "Too many requests", detail, {"Retry-After": str(self.retry_after_s)})

    def stage(self, client: str, paths: list[str]) -> str:
        """Accepts a stage request (paths already checked to be strings);
        returns its id once it is committed."""
        wanted = list(dict.fromkeys(sanitise(p) for p in paths))
        if len(wanted) > self.max_files:
            raise self._throttle(
                f"{len(wanted):,} files in one request; at most {self.max_files:,} are accepted"
            )
        rid = str(uuid.uuid4())
        now = time.time()
        with self.wlock:
            if len(self.active_by_client[client]) >= self.max_active:
                raise self._throttle(
                    f"client {client!r} has {self.max_active:,} active requests, the most allowed"
                )
            rows: list[dict[str, Any]] = []
            queue: list[tuple[int, str]] = []
            counts = dict.fromkeys(db.STATES, 0)
            fid = self.next_file_id
            pins: collections.Counter[str] = collections.Counter()
            for path in wanted:
                entry = self.catalog.get(path)
                row: dict[str, Any] = {
                    "id": fid,
                    "request_id": rid,
                    "path": path,
                    "tape": None,
                    "block": None,
                    "size": None,
                    "state": SUBMITTED,
                    "error": None,
                    "started_at": None,
                    "finished_at": None,
                    "released": False,
                }
                if entry is not None:
                    row.update(tape=entry.tape, block=entry.block, size=entry.size)
                error = (
                    NOT_IN_CATALOG
                    if entry is None
                    else NOT_ON_TAPE
                    if entry.size == 0
                    else f"tape {entry.tape} is unavailable"
                    if entry.tape in self.unavailable
                    else None
                )
                if error is not None:
                    row.update(state=FAILED, error=error, started_at=now, finished_at=now)
                elif path in self.disk:
                    # Already on disk: completed at once (the document: the
                    # server MUST NOT reject files that have a disk copy).
                    row.update(state=COMPLETED, started_at=now, finished_at=now)
                    pins[path] += 1
                else:
                    queue.append((fid, path))
                counts[row["state"]] += 1
                rows.append(row)
                fid += 1
            done = counts[SUBMITTED] == 0
            summary = Summary(
                rid,
                client,
                now,
                now if done else None,
                now if done else None,
                False,
                len(rows),
                counts,
            )
            with self.engine.begin() as conn:
                conn.execute(
                    db.requests.insert().values(
                        id=rid, client=client, created_at=now, n_files=len(rows), **summary.row()
                    )
                )
                for i in range(0, len(rows), 50_000):
                    conn.execute(db.files.insert(), rows[i : i + 50_000])
                self._pin(conn, pins, now)
            self.next_file_id = fid
            for path, n in pins.items():
                self.disk[path] = self.disk.get(path, 0) + n
            self._set_summary(summary)
            self.stats.requests.inc()
            with self.sched.lock:
                vnow = self.clock.now()
                for file_id, path in queue:
                    job = self.sched.jobs.get(path)
                    if job is not None:
                        job.rows[file_id] = (rid, SUBMITTED)
                        continue
                    entry = self.catalog.by_path[path]
                    job = Job(path, self.catalog.tape_index[entry.tape], entry.block, entry.size)
                    job.rows[file_id] = (rid, SUBMITTED)
                    self.sched.arrive(job, vnow)
                self.clock.notify_all(self.sched.wake)
        return rid

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

    def status(self, client: str, request_id: str) -> bytes:
        """The request's status document (JSON bytes), rendered from the
        database unless cached."""
        cached = self.cached_status(client, request_id)
        if cached is not None:
            return cached
        s = self._own(client, request_id)
        body = self._render(s)
        self.stats.poll()
        with self.cache_lock:
            self.cache[request_id] = (s.version, body)
            self.cache.move_to_end(request_id)
            while len(self.cache) > CACHE_ENTRIES:
                self.cache.popitem(last=False)
        return body

    def _render(self, s: Summary) -> bytes:
        f = db.files
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(f.c.path, f.c.state, f.c.error, f.c.started_at, f.c.finished_at)
                .where(f.c.request_id == s.id)
                .order_by(f.c.id)
            ).all()
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
        # The files were read after the summary was taken: a file may have
        # finished in between. completedAt follows the files shown, so the
        # document never says done while a file is not, or the reverse.
        if all(state in db.TERMINAL for _, state, *_ in rows):
            finished = [row[4] for row in rows if row[4] is not None]
            done_at = s.completed_at if s.completed_at is not None else max(finished, default=None)
            doc["completedAt"] = int(done_at if done_at is not None else time.time())
        doc["files"] = out
        return json.dumps(doc, separators=(",", ":")).encode()

    def _request_files(self, conn: Connection, rid: str) -> list[Any]:
        f = db.files
        return list(
            conn.execute(
                sa.select(f.c.id, f.c.path, f.c.state, f.c.released).where(f.c.request_id == rid)
            ).all()
        )

    def cancel(self, client: str, request_id: str, paths: list[str] | None) -> None:
        """Cancels the given paths of a request (all when None); a path not in
        the request is a 400 and nothing changes."""
        with self.wlock:
            s = self._own(client, request_id)
            now = time.time()
            with self.engine.connect() as conn:
                rows = self._request_files(conn, request_id)
            if paths is not None:
                wanted = {sanitise(p) for p in paths}
                present = {r.path for r in rows}
                missing = sorted(wanted - present)
                if missing:
                    raise ApiError(
                        400,
                        "File missing from stage request",
                        f"The file {missing[0]} does not belong to the STAGE request "
                        f"{request_id}. No modification has been made to this request.",
                    )
                rows = [r for r in rows if r.path in wanted]
            live = [r for r in rows if r.state in (SUBMITTED, STARTED)]
            staged = [r for r in rows if r.state == COMPLETED and not r.released]
            self._cancel_rows(s, live, staged, now)

    def _cancel_rows(self, s: Summary, live: list[Any], staged: list[Any], now: float) -> None:
        if live:
            self._transition([(r.id, s.id, r.state, CANCELLED, CANCELLED_ERROR) for r in live], now)
            with self.sched.lock:
                for r in live:
                    job = self.sched.jobs.get(r.path)
                    if job is not None and job.rows.pop(r.id, None) is not None and not job.rows:
                        self.sched.drop(r.path)
        if staged:
            # The document lets the endpoint drop the disk copy of a cancelled
            # staged file, and a later RELEASE of it does nothing.
            self._release_rows(staged, now)

    def _release_rows(self, rows: list[Any], now: float) -> None:
        f = db.files
        ids = [r.id for r in rows]
        with self.engine.begin() as conn:
            for i in range(0, len(ids), CHUNK):
                conn.execute(f.update().where(f.c.id.in_(ids[i : i + CHUNK])).values(released=True))
            gone = self._unpin(conn, (r.path for r in rows), now)
        for path in gone:
            self.backend.evict(path)

    def delete(self, client: str, request_id: str) -> None:
        """Cancels every file of the request, then forgets it (404 from now on)."""
        with self.wlock:
            self.cancel(client, request_id, None)
            s = replace(self.summaries[request_id], deleted=True)
            s = replace(s, version=s.version + 1)
            with self.engine.begin() as conn:
                conn.execute(
                    db.requests.update().where(db.requests.c.id == request_id).values(deleted=True)
                )
            self._set_summary(s)
            with self.cache_lock:
                self.cache.pop(request_id, None)

    def release(self, client: str, request_id: str, paths: list[str]) -> None:
        """Unpins the request's staged copies of ``paths`` (others are ignored)."""
        with self.wlock:
            self._own(client, request_id)
            wanted = {sanitise(p) for p in paths}
            with self.engine.connect() as conn:
                rows = [
                    r
                    for r in self._request_files(conn, request_id)
                    if r.path in wanted and r.state == COMPLETED and not r.released
                ]
            if rows:
                self._release_rows(rows, time.time())

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
            elif path in self.disk:
                out.append({"path": raw, "locality": "DISK_AND_TAPE"})
            elif entry.tape in self.unavailable:
                out.append({"path": raw, "locality": "UNAVAILABLE"})
            else:
                out.append({"path": raw, "locality": "TAPE"})
        return out

    # ---- drives ---------------------------------------------------------------

    def pause(self, paused: bool) -> None:
        """Takes the drives down (they finish the file in hand) or brings them back."""
        with self.sched.lock:
            self.paused = paused
            self.clock.notify_all(self.sched.wake)

    def _wait_s(self) -> float:
        wake = self.sched.requester.next_wake()
        real = 1.0 if wake is None else max(0.001, wake / self.clock.scale)
        return min(real, 1.0)

    def _worker(self, d: int) -> None:
        with self.clock.worker():
            self._drive(d)

    def _drive(self, d: int) -> None:
        drive = self.sched.drives[d]
        while not self.stopping:
            with self.sched.lock:
                action = None if self.paused else self.sched.next_action(d, self.clock.now())
                if action is None:
                    self.clock.wait(self.sched.wake, self._wait_s())
                    continue
            try:
                if action.kind == "plan":
                    assert action.batch is not None
                    try:
                        plan = self.sched.order(action.batch, drive.head)
                    except ValueError:
                        plan = sorted(action.batch, key=lambda j: j.block)
                    with self.sched.lock:
                        self.sched.install(d, plan)
                elif action.kind == "switch":
                    self._switch(d, action.tape)
                else:
                    assert action.job is not None
                    self._read(d, action.job)
            except Exception as e:  # a backend bug must not kill the drive silently
                if self.stopping:
                    return
                with self.sched.lock:
                    drive.activity = f"error: {e}"
                with self.clock.idle():
                    self.clock.stop.wait(1.0)

    def _switch(self, d: int, tape: int | None) -> None:
        assert tape is not None
        drive = self.sched.drives[d]
        if drive.mounted is not None:
            drive.activity = "unmounting"
            self.backend.unmount(d, self.sched.tape_names[drive.mounted])
            with self.sched.lock:
                self.sched.unmounted(d)
        if self.stopping:
            return
        drive.activity = "mounting"
        name = self.sched.tape_names[tape]
        try:
            self.backend.mount(d, name)
        except BackendError as e:
            self._fail_tape(d, tape, str(e))
            return
        self.stats.mounts.inc()
        with self.sched.lock:
            self.sched.mounted(d, tape)

    def _fail_tape(self, d: int, tape: int, error: str) -> None:
        """The tape cannot be mounted: its queued files fail with ``error``."""
        now = time.time()
        with self.wlock:
            with self.sched.lock:
                q = self.sched.tapes[tape]
                jobs = list(q.jobs.values())
                for job in jobs:
                    self.sched.drop(job.path)
                q.holder = None
                self.sched.drives[d].held = None
                changes = [
                    (fid, rid, st, FAILED, error) for j in jobs for fid, (rid, st) in j.rows.items()
                ]
            if changes:
                self._transition(changes, now)
                self.stats.failed.inc(len(changes))

    def _read(self, d: int, job: Job) -> None:
        drive = self.sched.drives[d]
        now = time.time()
        with self.wlock:
            with self.sched.lock:
                fresh = [(fid, rid) for fid, (rid, st) in job.rows.items() if st == SUBMITTED]
                for fid, rid in fresh:
                    job.rows[fid] = (rid, STARTED)
                session = self.sched.session_bytes(d, job)
            if fresh:
                self._transition([(fid, rid, SUBMITTED, STARTED, None) for fid, rid in fresh], now)
        t0 = self.clock.now()
        error = None
        name = self.sched.tape_names[job.tape]
        try:
            self.backend.read(d, ReadJob(job.path, name, job.block, job.size, drive.head, session))
        except BackendError as e:
            error = str(e)
        if self.stopping:
            return  # left STARTED: read again after the restart
        elapsed = self.clock.now() - t0
        now = time.time()
        with self.wlock:
            with self.sched.lock:
                self.sched.finished(d, job)
                rows = list(job.rows.items())
                job.rows.clear()
                drive.rate_mb_s = job.size / 1e6 / elapsed if elapsed > 0 else 0.0
                self.clock.notify_all(self.sched.wake)
            new = COMPLETED if error is None else FAILED
            if rows:
                self._transition(
                    [(fid, rid, st, new, error) for fid, (rid, st) in rows],
                    now,
                    collections.Counter({job.path: len(rows)}) if error is None else None,
                )
            elif error is None:
                self.backend.evict(job.path)  # nobody wants it any more
        if error is None:
            self.stats.staged.inc(len(rows))
            self.stats.bytes_read.inc(job.size)
        else:
            self.stats.failed.inc(len(rows))

    # ---- the status page --------------------------------------------------------

    def db_health(self) -> tuple[bool, float]:
        """Whether a trivial query works, and how long it took (ms)."""
        t0 = time.perf_counter()
        try:
            with self.engine.connect() as conn:
                conn.execute(sa.text("SELECT 1"))
            return True, (time.perf_counter() - t0) * 1000
        except sa.exc.SQLAlchemyError:
            return False, (time.perf_counter() - t0) * 1000

    def _read_s(self, tape: str, session_bytes: int) -> Callable[[Job, int], float]:
        """How long the backend takes to read a file of ``tape`` in a session
        of ``session_bytes``: its own timing where it has one (the simulated
        backend's read model), else the drive's locate plus a transfer at the
        library's rate."""
        timed = getattr(self.backend, "read_seconds", None)
        if timed is not None:
            return lambda job, head: float(
                timed(ReadJob(job.path, tape, job.block, job.size, head, session_bytes))
            )
        rate = float(self.hardware["drive"]["rate_bps"])
        model = self.sched.model
        return lambda job, head: positional_read_seconds(model, rate, head, job.block, job.size)

    def snapshot(self, plan_rows: int = 8) -> dict[str, Any]:
        """Everything the status page shows."""
        with self.sched.lock:
            tapes = []
            for v in self.sched.tape_views()[:50]:
                plan = v.pop("plan")
                read_s = self._read_s(v["tape"], v.pop("session"))
                v["estimate_s"] = self.sched.estimate_s(plan, v.pop("head"), read_s)
                v["next"] = [(j.path, j.block, j.size) for j in plan[:plan_rows]]
                tapes.append(v)
            drives = [
                {
                    "drive": dr.index,
                    "tape": self.sched.tape_names[dr.mounted] if dr.mounted is not None else None,
                    "activity": dr.activity,
                    "file": dr.current.path if dr.current is not None else None,
                    "rate_mb_s": dr.rate_mb_s,
                }
                for dr in self.sched.drives
            ]
            waiting = self.sched.waiting()
            in_system = self.sched.in_system
            idle_warning = self.sched.idle_warning()
        recent = sorted(
            (s for s in self.summaries.values() if not s.deleted),
            key=lambda s: s.created_at,
            reverse=True,
        )[:RECENT]
        ok, ms = self.db_health()
        return {
            "totals": dict(self.totals),
            "tapes": tapes,
            "drives": drives,
            "waiting": waiting,
            "in_system": in_system,
            "idle_warning": idle_warning,
            "recent": recent,
            "poll_rate": self.stats.poll_rate(),
            "throttled": self.stats.throttled,
            "backend": self.backend.name,
            "paused": self.paused,
            "db_ok": ok,
            "db_ms": ms,
            "url": self.engine.url.render_as_string(hide_password=True),
            "virtual_s": self.clock.now(),
            "time_scale": self.clock.scale,
        }


def buffer_dir(db_arg: str, buffer: str | None) -> Path:
    """The buffer directory: as configured, else beside a SQLite database
    (``NAME.buffer``), else ``./seekplan-buffer``."""
    if buffer is not None:
        return Path(buffer)
    if "://" not in db_arg:
        return Path(f"{db_arg}.buffer")
    return Path("seekplan-buffer")
