"""One service per database, and a database that is still the one opened.

Issue 35 found two ways to lose acknowledged work: two services started on
one database both ran (and read files twice), and a SQLite file deleted
while the service ran kept taking commits into the unlinked inode (gone
after a restart). :class:`DatabaseGuard` holds an exclusive lock for the
service's lifetime -- ``flock`` on ``DB.lock`` beside a SQLite file (the
kernel drops it when the process dies, even by kill -9), a session-level
advisory lock on PostgreSQL -- and, for SQLite, checks before every
acknowledgement that the path still names the file it opened.
"""

from __future__ import annotations

import fcntl
import os
import socket
import time
from pathlib import Path
from typing import IO, Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from seekplan.errors import SeekplanError

#: The advisory lock key on PostgreSQL (any constant the site does not use:
#: the bytes of "seekplan").
PG_LOCK_KEY = int.from_bytes(b"seekplan", "big") & 0x7FFF_FFFF_FFFF_FFFF


def _whoami() -> str:
    return f"seekplan serve pid {os.getpid()} on {socket.gethostname()}"


class DatabaseGuard:
    """The service's exclusive hold on its database."""

    def __init__(self, engine: Engine, label: str) -> None:
        self.engine = engine
        self.label = label
        self._file: IO[str] | None = None
        self._conn: Any = None
        self._identity: tuple[int, int] | None = None
        self.path: Path | None = None
        db = engine.url.database
        if engine.dialect.name == "sqlite" and db and db != ":memory:":
            self.path = Path(db)

    def acquire(self) -> None:
        """Takes the lock, or raises a SeekplanError naming the holder."""
        if self.path is not None:
            self._lock_file(self.path)
        elif self.engine.dialect.name == "postgresql":
            self._lock_postgres()

    def _lock_file(self, path: Path) -> None:
        lock = Path(f"{path}.lock")
        f = lock.open("a+", encoding="utf-8")
        try:
            fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.seek(0)
            holder = f.read().strip() or "another process"
            f.close()
            raise SeekplanError(
                f"database {self.label} is in use by {holder} (lock {lock}); stop it first, "
                "or give this service its own --db"
            ) from None
        f.seek(0)
        f.truncate()
        f.write(f"{_whoami()} since {time.strftime('%Y-%m-%d %H:%M:%S')}\n")
        f.flush()
        self._file = f
        st = path.stat()
        self._identity = (st.st_dev, st.st_ino)

    def _lock_postgres(self) -> None:
        conn = self.engine.raw_connection()
        cur = conn.cursor()
        cur.execute("SELECT set_config('application_name', %s, false)", (_whoami()[:63],))
        cur.execute("SELECT pg_try_advisory_lock(%s)", (PG_LOCK_KEY,))
        row = cur.fetchone()
        if not (row and row[0]):
            cur.execute(
                "SELECT a.application_name, a.client_addr, a.backend_start FROM pg_locks l "
                "JOIN pg_stat_activity a ON a.pid = l.pid WHERE l.locktype = 'advisory' "
                "AND l.granted AND l.objid = (%s::bigint & 4294967295)",
                (PG_LOCK_KEY,),
            )
            row = cur.fetchone()
            conn.close()  # type: ignore[no-untyped-call]
            holder = (
                f"{row[0] or 'a client'} (from {row[1] or 'a local socket'}, since {row[2]})"
                if row
                else "another service"
            )
            raise SeekplanError(f"database {self.label} is in use by {holder}; stop it first")
        conn.commit()
        self._conn = conn

    def intact(self) -> bool:
        """Whether the database is still the one opened (a SQLite file not
        deleted nor replaced since); PostgreSQL always is."""
        if self._identity is None or self.path is None:
            return True
        try:
            st = os.stat(self.path)
        except OSError:
            return False
        return (st.st_dev, st.st_ino) == self._identity

    def release(self) -> None:
        """Drops the lock."""
        if self._file is not None:
            self._file.close()
            self._file = None
        if self._conn is not None:
            # Unlocked before the connection closes: the server ends a closed
            # session (and drops its locks) a moment after the client has
            # gone, and a service started at once on the database found the
            # lock still held (a flaky test, 2026-11-28).
            try:
                cur = self._conn.cursor()
                cur.execute("SELECT pg_advisory_unlock(%s)", (PG_LOCK_KEY,))
                self._conn.commit()
            except self.engine.dialect.loaded_dbapi.Error:
                pass  # a lost connection holds no lock
            try:
                self._conn.invalidate()
            except sa.exc.SQLAlchemyError:
                pass
            self._conn = None
