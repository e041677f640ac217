"""The service's record of requests and pins: the database and the copy of
its request rows, totals and pins the service keeps in memory.

Locking: :attr:`Store.wlock` is held for one database write transaction and
the change it makes to the in-memory copy, never longer: bulk work (a stage
request of 100,000 files, a DELETE of one) is written in chunks of
:data:`CHUNK` rows, each its own transaction, so a release, cancel or poll
waits for one chunk at most (issue 35: releases waited seconds behind a bulk
stage under one global lock). The scheduler's lock is never held around it.
"""

from __future__ import annotations

import collections
import heapq
import threading
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from seekplan.serve import db
from seekplan.serve.db import STARTED, SUBMITTED, TERMINAL

#: Rows per transaction (and per IN clause) of bulk work: what a small
#: operation waits for at most. One transaction of 1,000 file rows took
#: 10.4 ms (median of 8, at most 11.8) on SQLite here, 5,000 rows 51 ms (at
#: most 71), past the 50 ms a release may wait (2026-11-27, a 1,000,000-file
#: catalog's rows through Intake.insert_sql).
CHUNK = 1_000

#: A file's move: (file id, request id, old state, new state, error).
Change = tuple[int, str, str, str, "str | None"]


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


class Store:
    """The database and the in-memory copy of request rows and pins."""

    def __init__(self, engine: Engine, default_lifetime_s: float) -> None:
        self.engine = engine
        #: Pin lifetime of a staged copy whose request named none (seconds).
        self.default_lifetime_s = default_lifetime_s
        self.wlock = threading.RLock()
        self.summaries: dict[str, Summary] = {}
        self.active_by_client: dict[str, set[str]] = collections.defaultdict(set)
        #: Requests being written, per client (they count against its cap).
        self.reserved: collections.Counter[str] = collections.Counter()
        #: Buffer paths with the number of unreleased staged files pinning them.
        self.disk: dict[str, int] = {}
        self.totals = dict.fromkeys(db.STATES, 0)
        self.next_file_id = 1

    # ---- the in-memory copy ---------------------------------------------------

    def set_summary(self, s: Summary) -> None:
        """Records a request's new summary (totals and the client's active set)."""
        old = self.summaries.get(s.id)
        for state in db.STATES:
            self.totals[state] += s.counts[state] - (old.counts[state] if old else 0)
        self.summaries[s.id] = s
        if s.active:
            self.active_by_client[s.client].add(s.id)
        else:
            self.active_by_client[s.client].discard(s.id)

    def active_count(self, client: str) -> int:
        """Requests of ``client`` not completed nor deleted, or being written."""
        return len(self.active_by_client[client]) + self.reserved[client]

    def take_ids(self, n: int) -> int:
        """Reserves ``n`` file ids; the first. Caller holds ``wlock``."""
        first = self.next_file_id
        self.next_file_id += n
        return first

    # ---- start-up -------------------------------------------------------------

    def load(self) -> None:
        """Deletes requests never acknowledged (written in part when the
        service stopped) and loads the request rows and pins: what the API
        needs to answer. The open files are read afterwards, in chunks
        (:meth:`open_files`), while the service already serves."""
        r, f = db.requests, db.files
        with self.engine.begin() as conn:
            stale = [row[0] for row in conn.execute(sa.select(r.c.id).where(~r.c.accepted))]
            for rid in stale:
                conn.execute(f.delete().where(f.c.request_id == rid))
                conn.execute(r.delete().where(r.c.id == rid))
        with self.engine.connect() as conn:
            for row in conn.execute(sa.select(r)).mappings():
                counts = {s: row[c] for s, c in db.COUNT_COLUMN.items()}
                self.set_summary(
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

    def refresh_statistics(self) -> None:
        """Has PostgreSQL sample the files table: without statistics (files
        added by COPY since the last autovacuum) its planner read every open
        file and sorted them for each chunk a restart queues again, 0.2-0.4 s
        a chunk at 1,000,000 open files, against 4-7 ms after ANALYZE (0.2 s)."""
        if self.engine.dialect.name == "postgresql":
            with self.engine.begin() as conn:
                conn.exec_driver_sql("ANALYZE files")

    def open_files(self, after: int, before: int, limit: int = CHUNK) -> list[Any]:
        """Up to ``limit`` files not in a terminal state with ids past
        ``after`` and below ``before``, in id order: (id, request, path,
        state, released). One query per open state, each a range of the
        (state, id) index, merged."""
        f = db.files
        cols = sa.select(f.c.id, f.c.request_id, f.c.path, f.c.state, f.c.released)
        with self.engine.connect() as conn:
            parts = [
                list(
                    conn.execute(
                        cols.where(f.c.state == state, f.c.id > after, f.c.id < before)
                        .order_by(f.c.id)
                        .limit(limit)
                    )
                )
                for state in (SUBMITTED, STARTED)
            ]
        return list(heapq.merge(*parts, key=lambda row: row.id))[:limit]

    def states(self, ids: Sequence[int]) -> dict[int, str]:
        """The current state of each file id."""
        f = db.files
        out: dict[int, str] = {}
        with self.engine.connect() as conn:
            for chunk in chunks(list(ids)):
                rows = conn.execute(sa.select(f.c.id, f.c.state).where(f.c.id.in_(chunk)))
                out.update((fid, state) for fid, state in rows)
        return out

    # ---- writes ---------------------------------------------------------------

    def transition(
        self,
        changes: Sequence[Change],
        now: float,
        pin: Mapping[int, str] | None = None,
        *,
        again: bool = False,
    ) -> None:
        """Moves files (id, request, old state, new state, error) and their
        requests' counts in one transaction; each file moved that ``pin``
        names (file id -> buffer path just staged) pins that copy and starts
        its pin lifetime. A file another caller moved first matches no row:
        it is neither counted nor pinned. ``again``: these changes were tried
        and failed, maybe at the commit with the database having them (a
        connection lost then): a file found in its new state counts as moved
        now, since memory never counted that commit. Only the caller that
        makes a move of that kind may say so (a drive for its own read); the
        counts and pins are written as absolute values, so writing them
        again is harmless."""
        f = db.files
        pin = pin or {}
        pins: collections.Counter[str] = collections.Counter()
        pinned: list[int] = []
        with self.wlock:
            by_kind: dict[tuple[str, str, str | None], list[int]] = collections.defaultdict(list)
            request_of: dict[int, str] = {}
            for fid, rid, old, new, error in changes:
                by_kind[(old, new, error)].append(fid)
                request_of[fid] = rid
            # Counted from the rows the database moved (RETURNING), not from
            # ``changes``: a file another caller moved first matches no row,
            # and counting it anyway drove a request's total below zero
            # (seen once in CI, test_lifecycle_state_machine[postgresql]).
            # Counted per request and move: a Summary per file moved
            # (dataclasses.replace) took 0.7 s of a 100,000-file DELETE, all
            # under this lock.
            moves: collections.Counter[tuple[str, str, str]] = collections.Counter()
            with self.engine.begin() as conn:
                for (old, new, error), ids in by_kind.items():
                    values: dict[str, Any] = {"state": new}
                    if new != SUBMITTED:
                        values["started_at"] = sa.func.coalesce(f.c.started_at, now)
                    if new in TERMINAL:
                        values["finished_at"] = now
                    if error is not None:
                        values["error"] = error
                    for chunk in chunks(ids):
                        moved = conn.execute(
                            f.update()
                            .where(f.c.id.in_(chunk), f.c.state == old)
                            .values(**values)
                            .returning(f.c.id)
                        ).scalars()
                        found = list(moved)
                        if again:
                            found += self._already_moved(conn, set(chunk) - set(found), new)
                        for fid in found:
                            moves[(request_of[fid], old, new)] += 1
                            if fid in pin:
                                pins[pin[fid]] += 1
                                pinned.append(fid)
                summaries: dict[str, Summary] = {}
                for (rid, old, new), n in moves.items():
                    s = summaries.get(rid) or self.summaries[rid]
                    summaries[rid] = s.moved(old, new, n, now)
                expiry = now + sa.func.coalesce(f.c.lifetime_s, self.default_lifetime_s)
                for chunk in chunks(pinned):
                    conn.execute(f.update().where(f.c.id.in_(chunk)).values(pin_expires_at=expiry))
                self.pin(conn, pins, now, again)
                for s in summaries.values():
                    conn.execute(
                        db.requests.update().where(db.requests.c.id == s.id).values(s.row())
                    )
            self.pinned(pins)
            for s in summaries.values():
                self.set_summary(s)

    @staticmethod
    def _already_moved(conn: Connection, ids: set[int], new: str) -> list[int]:
        """Those of ``ids`` in state ``new`` (moved by a commit whose answer
        was lost)."""
        if not ids:
            return []
        f = db.files
        rows = conn.execute(sa.select(f.c.id).where(f.c.id.in_(ids), f.c.state == new))
        return list(rows.scalars())

    def pin(
        self, conn: Connection, pins: collections.Counter[str], now: float, again: bool = False
    ) -> None:
        """Writes ``pins`` (path -> pins added, negative: dropped) to the disk
        table as absolute counts from memory's; :meth:`pinned` then records
        them in memory. ``again``: a write whose commit may have been lost
        is made again, so a path memory does not hold may have its row."""
        d = db.disk
        for path, n in pins.items():
            if n == 0:
                continue
            have = self.disk.get(path, 0)
            if have + n <= 0:
                conn.execute(d.delete().where(d.c.path == path))
            elif path not in self.disk and not again:
                conn.execute(d.insert().values(path=path, pins=n, staged_at=now))
            else:
                # A path memory does not hold may have its row when ``again``.
                changed = conn.execute(d.update().where(d.c.path == path).values(pins=have + n))
                if changed.rowcount == 0:
                    conn.execute(d.insert().values(path=path, pins=have + n, staged_at=now))

    def pinned(self, pins: collections.Counter[str]) -> list[str]:
        """Records committed ``pins`` in memory; returns the paths no longer pinned."""
        gone = []
        for path, n in pins.items():
            left = self.disk.get(path, 0) + n
            if left <= 0:
                if self.disk.pop(path, None) is not None:
                    gone.append(path)
            else:
                self.disk[path] = left
        return gone

    def release(self, rows: Sequence[tuple[int, str]], now: float) -> list[str]:
        """Marks staged files (id, path) released and drops their pins, in
        chunks; returns the buffer paths no longer pinned by anyone."""
        f = db.files
        gone: list[str] = []
        for chunk in chunks(list(rows)):
            drop: collections.Counter[str] = collections.Counter()
            drop.subtract(path for _, path in chunk)
            with self.wlock:
                with self.engine.begin() as conn:
                    conn.execute(
                        f.update().where(f.c.id.in_([i for i, _ in chunk])).values(released=True)
                    )
                    self.pin(conn, drop, now)
                gone += self.pinned(drop)
        return gone

    def mark_released(self, ids: Sequence[int]) -> None:
        """Marks files not yet staged released: they will not be pinned."""
        f = db.files
        for chunk in chunks(list(ids)):
            with self.wlock, self.engine.begin() as conn:
                conn.execute(f.update().where(f.c.id.in_(chunk)).values(released=True))

    def expired(self, now: float, limit: int = CHUNK) -> list[tuple[int, str]]:
        """Staged, unreleased files whose pin lifetime has passed (id, path)."""
        f = db.files
        with self.engine.connect() as conn:
            return [
                (i, p)
                for i, p in conn.execute(
                    sa.select(f.c.id, f.c.path)
                    .where(
                        f.c.pin_expires_at < now,
                        f.c.state == db.COMPLETED,
                        ~f.c.released,
                    )
                    .limit(limit)
                )
            ]

    def request_files(self, rid: str, paths: Iterable[str] | None = None) -> list[Any]:
        """Rows (id, path, state, released) of request ``rid``: all of them,
        or those of ``paths`` through the (request, path) index."""
        f = db.files
        cols = sa.select(f.c.id, f.c.path, f.c.state, f.c.released)
        with self.engine.connect() as conn:
            if paths is None:
                # Fetched in parts, so that a large request's rows do not
                # hold the interpreter lock in one call (15 ms for 100,000
                # rows in a GIL probe), which a release would wait for.
                result = conn.execute(cols.where(f.c.request_id == rid).order_by(f.c.id))
                return [row for part in result.partitions(CHUNK) for row in part]
            out: list[Any] = []
            for chunk in chunks(sorted(set(paths))):
                out += conn.execute(cols.where(f.c.request_id == rid, f.c.path.in_(chunk)))
            return out

    def client_files(self, client: str, paths: Iterable[str]) -> list[Any]:
        """Staged, unreleased rows (id, path, state, request id) of ``paths``
        in the client's requests not deleted, found through the index of
        staged paths."""
        out: list[Any] = []
        with self.engine.connect() as conn:
            query = _client_staged_sql(conn.dialect.name)
            for chunk in chunks(sorted(set(paths))):
                out += conn.execute(query, {"client": client, "paths": list(chunk)})
        return out

    def client_open_files(self, client: str, paths: Iterable[str]) -> list[Any]:
        """Unreleased rows (id, path, state, request id) of ``paths`` waiting
        for their read in the client's requests not deleted: a scan of the
        open files, for the time after a start when they are not all back
        in the scheduler."""
        f, r = db.files, db.requests
        out: list[Any] = []
        with self.engine.connect() as conn:
            for chunk in chunks(sorted(set(paths))):
                out += conn.execute(
                    sa.select(f.c.id, f.c.path, f.c.state, f.c.request_id)
                    .join(r, r.c.id == f.c.request_id)
                    .where(f.c.state.in_([SUBMITTED, STARTED]), f.c.path.in_(chunk))
                    .where(~f.c.released, r.c.client == client, ~r.c.deleted)
                )
        return out


def _client_staged_sql(dialect: str) -> sa.TextClause:
    """The query of :meth:`Store.client_files`: it repeats the staged-path
    index's condition word for word, so that the planner sees the query
    implies it, and names the index to SQLite, whose planner without
    statistics takes the index on the state instead (every staged file)."""
    hint = " INDEXED BY files_path_staged" if dialect == "sqlite" else ""
    return sa.text(
        f"SELECT files.id, files.path, files.state, files.request_id FROM files{hint} "
        "JOIN requests ON requests.id = files.request_id "
        f"WHERE {db.STAGED_ROWS.text} AND files.path IN :paths AND NOT files.released "
        "AND requests.client = :client AND NOT requests.deleted"
    ).bindparams(sa.bindparam("paths", expanding=True))


def chunks(items: Sequence[Any], size: int = CHUNK) -> Iterable[Sequence[Any]]:
    """``items`` in slices of at most ``size``."""
    for i in range(0, len(items), size):
        yield items[i : i + size]
