"""Writing new stage requests to the database.

A request of up to :data:`~seekplan.serve.store.CHUNK` files (WLCG's are
200) is written in one transaction, and requests that arrive together share
it: whoever holds the store's lock writes every request waiting for it
(group commit). On SQLite a commit costs about as much as inserting 200 rows,
and only one writer runs at a time, so eight clients staging at once paid
eight commits for what one can carry. A larger request is written in
chunks, each its own transaction, and accepted by a last one: small
operations wait one chunk at most, and start-up deletes a request that was
never accepted.
"""

from __future__ import annotations

import collections
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sqlalchemy as sa

from seekplan.serve import db
from seekplan.serve.catalog import Catalog, Found
from seekplan.serve.db import COMPLETED, FAILED, SUBMITTED
from seekplan.serve.documents import status_document
from seekplan.serve.metrics import Stats
from seekplan.serve.store import CHUNK, Store, Summary, chunks

#: Error texts a client sees per file.
NOT_IN_CATALOG = "file does not exist or is not accessible to you (not in the tape catalog)"
NOT_ON_TAPE = "not a tape-stored file (0 bytes)"
#: The files table's columns in the order :meth:`Intake.rows` gives them.
FILE_COLUMNS = (
    "id", "request_id", "path", "tape", "block", "size", "state", "error", "started_at",
    "finished_at", "released", "lifetime_s", "pin_expires_at",
)  # fmt: skip

#: The requests table's columns in the order of :attr:`Intake.insert_head_sql`.
HEAD_COLUMNS = (
    "id", "client", "created_at", "started_at", "completed_at", "deleted", "n_files",
    "accepted", *db.COUNT_COLUMN.values(),
)  # fmt: skip


@dataclass(frozen=True)
class Queued:
    """A request's files to read, by column: file ids, paths and catalog
    rows. Not a tuple per file: a 100,000-file request's tuples lived
    through its whole stage, and every full collection of the garbage
    collector walked them, holding the interpreter lock (55-77 ms at a
    time) while a release waited."""

    file_ids: np.ndarray
    paths: list[str]
    rows: np.ndarray

    def __len__(self) -> int:
        return len(self.paths)

    def part(self, start: int, stop: int) -> Queued:
        """Files ``start`` to ``stop`` (as a slice)."""
        return Queued(self.file_ids[start:stop], self.paths[start:stop], self.rows[start:stop])

    def without(self, ids: set[int]) -> Queued:
        """The files but those of file ids ``ids``."""
        keep = ~np.isin(self.file_ids, np.fromiter(ids, dtype=np.int64, count=len(ids)))
        paths = [p for p, k in zip(self.paths, keep.tolist(), strict=True) if k]
        return Queued(self.file_ids[keep], paths, self.rows[keep])


@dataclass
class NewRequest:
    """A request on its way to the database, and what came of it."""

    client: str
    rid: str
    now: float
    n_files: int
    counts: dict[str, int]
    queue: Queued
    rows: list[tuple[Any, ...]]
    done: threading.Event = field(default_factory=threading.Event)
    result: Queued | None = None
    error: BaseException | None = None


class Intake:
    """Writes new requests; :meth:`write` returns once one is committed."""

    def __init__(
        self,
        catalog: Catalog,
        store: Store,
        stats: Stats,
        unavailable: set[str],
        max_lifetime_s: float,
        acknowledge: Callable[[], None],
        publish: Callable[[str, int, bytes], None],
    ) -> None:
        self.catalog = catalog
        self.store = store
        self.engine = store.engine
        self.stats = stats
        self.unavailable = unavailable
        self.max_lifetime_s = max_lifetime_s
        #: Raises unless the database may acknowledge (the service's check).
        self.acknowledge = acknowledge
        #: Keeps a request's first status document (id, version, body), so
        #: that its first polls need no database.
        self.publish = publish
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self.insert_sql, self.insert_head_sql = (
            f"INSERT INTO {table} ({', '.join(columns)}) "
            f"VALUES ({', '.join([mark] * len(columns))})"
            for table, columns in (("files", FILE_COLUMNS), ("requests", HEAD_COLUMNS))
        )
        self.copy_sql = f"COPY files ({', '.join(FILE_COLUMNS)}) FROM STDIN"
        self._waiting: list[NewRequest] = []
        self._waiting_lock = threading.Lock()

    def file_errors(self, found: Found) -> list[str | None]:
        """Why each looked-up file fails at once (not catalogued, empty, on a
        tape out of service), or None."""
        out: list[str | None] = []
        for tape, size in zip(found.tape, found.size, strict=True):
            if tape is None:
                out.append(NOT_IN_CATALOG)
            elif size == 0:
                out.append(NOT_ON_TAPE)
            elif tape in self.unavailable:
                out.append(f"tape {tape} is unavailable")
            else:
                out.append(None)
        return out

    def write(
        self,
        client: str,
        rid: str,
        wanted: Sequence[str],
        first_id: int,
        lifetimes: dict[str, float],
    ) -> Queued:
        """Writes and accepts request ``rid`` (files already on disk complete
        at once); returns the files to read."""
        now = time.time()
        found = self.catalog.lookup(wanted)
        errors = self.file_errors(found)
        ok = np.fromiter((e is None for e in errors), dtype=bool, count=len(errors))
        queue = Queued(
            (np.arange(len(wanted), dtype=np.int64) + first_id)[ok],
            [p for p, e in zip(wanted, errors, strict=True) if e is None],
            np.asarray(found.row, dtype=np.int64)[ok],
        )
        counts = dict.fromkeys(db.STATES, 0)
        counts[SUBMITTED] = len(queue)
        counts[FAILED] = len(wanted) - len(queue)
        try:
            if len(wanted) <= CHUNK:
                rows = self.rows(rid, wanted, found, errors, 0, first_id, lifetimes, now)
                return self._write_together(
                    NewRequest(client, rid, now, len(wanted), counts, queue, rows)
                )
            return self._write_in_chunks(
                NewRequest(client, rid, now, len(wanted), counts, queue, []),
                wanted,
                found,
                errors,
                first_id,
                lifetimes,
            )
        except BaseException:
            self._discard(rid)
            raise

    def _write_together(self, request: NewRequest) -> Queued:
        """Group commit: the first writer to get the lock writes every
        request waiting, in one transaction."""
        with self._waiting_lock:
            self._waiting.append(request)
        with self.store.wlock:
            if not request.done.is_set():
                with self._waiting_lock:
                    batch, self._waiting = self._waiting, []
                try:
                    self.acknowledge()
                    with self.engine.begin() as conn:
                        accepted = [self._write_accepted(conn, r) for r in batch]
                    self.acknowledge()
                    for r, (summary, pins, staged) in zip(batch, accepted, strict=True):
                        r.result = self._accepted(summary, pins, staged, r.queue, r.rows)
                except BaseException as e:
                    for r in batch:
                        r.error = e
                for r in batch:
                    r.done.set()
        if request.error is not None:
            raise request.error
        assert request.result is not None
        return request.result

    def _write_in_chunks(
        self,
        request: NewRequest,
        wanted: Sequence[str],
        found: Found,
        errors: Sequence[str | None],
        first_id: int,
        lifetimes: dict[str, float],
    ) -> Queued:
        with self.store.wlock, self.engine.begin() as conn:
            self._insert_head(conn, request)
        for start in range(0, len(wanted), CHUNK):
            rows = self.rows(
                request.rid, wanted, found, errors, start, first_id, lifetimes, request.now
            )
            with self.store.wlock, self.engine.begin() as conn:
                self._insert_files(conn, rows)
        with self.store.wlock:
            with self.engine.begin() as conn:
                summary, pins, staged = self._accept_rows(conn, request)
            self.acknowledge()
            return self._accepted(summary, pins, staged, request.queue)

    def rows(
        self,
        rid: str,
        wanted: Sequence[str],
        found: Found,
        errors: Sequence[str | None],
        start: int,
        first_id: int,
        lifetimes: dict[str, float],
        now: float,
    ) -> list[tuple[Any, ...]]:
        """The database rows (as :data:`FILE_COLUMNS` tuples, for the driver's
        own executemany: SQLAlchemy's per-row parameter handling took a third
        of a 200-file stage's time) of files ``start`` to ``start + CHUNK``."""
        out = []
        for i in range(start, min(start + CHUNK, len(wanted))):
            path, error, tape = wanted[i], errors[i], found.tape[i]
            lifetime = lifetimes.get(path)
            out.append(
                (
                    first_id + i, rid, path, tape,
                    None if tape is None else found.block[i],
                    None if tape is None else found.size[i],
                    FAILED if error else SUBMITTED, error,
                    now if error else None, now if error else None, False,
                    None if lifetime is None else min(lifetime, self.max_lifetime_s), None,
                )
            )  # fmt: skip
        return out

    def _insert_files(self, conn: sa.Connection, rows: Sequence[tuple[Any, ...]]) -> None:
        """Inserts file rows in the connection's transaction: PostgreSQL's
        COPY (an INSERT per row through psycopg's executemany held its
        acceptance to 13,400 files/s at WLCG's load), the driver's
        executemany elsewhere."""
        if self.engine.dialect.name != "postgresql":
            conn.exec_driver_sql(self.insert_sql, rows)
            return
        cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
        with cursor.copy(self.copy_sql) as copy:
            for row in rows:
                copy.write_row(row)

    def _insert_head(self, conn: sa.Connection, r: NewRequest) -> None:
        """The request's row, not accepted yet."""
        conn.execute(
            db.requests.insert().values(
                id=r.rid,
                client=r.client,
                created_at=r.now,
                n_files=r.n_files,
                accepted=False,
                **dict.fromkeys(db.COUNT_COLUMN.values(), 0),
            )
        )

    def _settle(self, r: NewRequest) -> tuple[Summary, collections.Counter[str], set[int]]:
        """What accepting ``r`` makes of it now (caller holds the store's
        lock): its summary, the pins its files already on disk add, and
        those files."""
        disk = self.store.disk
        on_disk = [(int(r.queue.file_ids[k]), p) for k, p in enumerate(r.queue.paths) if p in disk]
        counts = dict(r.counts)
        counts[SUBMITTED] -= len(on_disk)
        counts[COMPLETED] += len(on_disk)
        ended = r.now if counts[SUBMITTED] == 0 else None
        summary = Summary(r.rid, r.client, r.now, ended, ended, False, r.n_files, counts)
        return summary, collections.Counter(p for _, p in on_disk), {fid for fid, _ in on_disk}

    def _write_accepted(
        self, conn: sa.Connection, r: NewRequest
    ) -> tuple[Summary, collections.Counter[str], set[int]]:
        """A small request written whole and accepted at once: its row with
        its final counts, its files (those on disk already COMPLETED), its
        pins; in the driver's own statements (building SQLAlchemy
        constructs per request took a sixth of a 200-file stage's time)."""
        summary, pins, staged = self._settle(r)
        head = {"id": r.rid, "client": r.client, "created_at": r.now, "n_files": r.n_files,
                "accepted": True, **summary.row()}  # fmt: skip
        conn.exec_driver_sql(self.insert_head_sql, tuple(head[c] for c in HEAD_COLUMNS))
        rows = r.rows
        if staged:
            default = self.store.default_lifetime_s
            rows = [
                row[:6] + (COMPLETED, None, r.now, r.now) + row[10:12]
                + (r.now + (default if row[11] is None else row[11]),)
                if row[0] in staged else row
                for row in rows
            ]  # fmt: skip
        self._insert_files(conn, rows)
        self.store.pin(conn, pins, r.now)
        return summary, pins, staged

    def _accept_rows(
        self, conn: sa.Connection, r: NewRequest
    ) -> tuple[Summary, collections.Counter[str], set[int]]:
        """Completes the files already on disk and marks the request
        accepted (caller holds the store's lock and commits); the request's
        summary, the pins to add and the files completed."""
        f, req = db.files, db.requests
        self.acknowledge()
        summary, pins, staged = self._settle(r)
        on_disk = sorted(staged)
        expiry = r.now + sa.func.coalesce(f.c.lifetime_s, self.store.default_lifetime_s)
        for chunk in chunks(on_disk):
            conn.execute(
                f.update()
                .where(f.c.id.in_(chunk))
                .values(state=COMPLETED, started_at=r.now, finished_at=r.now, pin_expires_at=expiry)
            )
        self.store.pin(conn, pins, r.now)
        conn.execute(req.update().where(req.c.id == r.rid).values(accepted=True, **summary.row()))
        return summary, pins, staged

    def _accepted(
        self,
        summary: Summary,
        pins: collections.Counter[str],
        staged: set[int],
        queue: Queued,
        rows: Sequence[tuple[Any, ...]] = (),
    ) -> Queued:
        """Records an accepted request in memory (after its commit; caller
        holds the store's lock) with its first status document when its
        ``rows`` are at hand; returns the files left to read."""
        self.store.pinned(pins)
        self.store.set_summary(summary)
        self.stats.requests.inc()
        self.stats.failed.inc(summary.counts[FAILED])
        if rows:
            self.publish(summary.id, summary.version, status_document(summary, [
                (r[2], COMPLETED, None, summary.created_at, summary.created_at)
                if r[0] in staged else (r[2], r[6], r[7], r[8], r[9])
                for r in rows
            ]))  # fmt: skip
        if not staged:
            return queue
        return queue.without(staged)

    def _discard(self, rid: str) -> None:
        """Deletes what was written of a request that failed half way (best
        effort: start-up deletes what is left, as it was never accepted)."""
        r, f = db.requests, db.files
        try:
            with self.store.wlock, self.engine.begin() as conn:
                conn.execute(f.delete().where(f.c.request_id == rid))
                conn.execute(r.delete().where(r.c.id == rid))
        except sa.exc.SQLAlchemyError:
            pass
