"""The service's database: SQLite in WAL mode by default, PostgreSQL (psycopg 3)
as an option, through SQLAlchemy 2 Core; the schema is created and upgraded
by alembic migrations (``migrations/``) when the service starts.

Each request row keeps its files' counts per state, updated in the same
transaction as the files, so a status poll reads one row (and the files of
that request through an index) instead of counting a table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

from seekplan.errors import SeekplanError

metadata = sa.MetaData()

#: File states of the WLCG Tape REST API (v1 reference document, p. 15).
SUBMITTED, STARTED, CANCELLED, FAILED, COMPLETED = (
    "SUBMITTED",
    "STARTED",
    "CANCELLED",
    "FAILED",
    "COMPLETED",
)
STATES = (SUBMITTED, STARTED, CANCELLED, FAILED, COMPLETED)
TERMINAL = frozenset({CANCELLED, FAILED, COMPLETED})
#: The condition of the staged-path index, as literal SQL: a query meant to
#: use the index repeats it word for word.
STAGED_ROWS = sa.text(f"state = '{COMPLETED}'")
#: The request column that counts each state.
COUNT_COLUMN = {s: f"n_{s.lower()}" for s in STATES}
#: Longest client or tape name the tables hold (PostgreSQL refuses a longer
#: one, SQLite does not check): the tokens file and the catalog are checked
#: against it at start, since a longer name failed every request it was in.
NAME_MAX = 200


def name_too_long(name: str) -> str | None:
    """Why ``name`` cannot be a client or tape name (its length against
    :data:`NAME_MAX`), or None when it fits."""
    return f"{len(name)} characters, at most {NAME_MAX}" if len(name) > NAME_MAX else None


requests = sa.Table(
    "requests",
    metadata,
    sa.Column("id", sa.String(36), primary_key=True),
    sa.Column("client", sa.String(NAME_MAX), nullable=False, index=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("completed_at", sa.Float, nullable=True),
    sa.Column("deleted", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("n_files", sa.Integer, nullable=False),
    *(sa.Column(c, sa.Integer, nullable=False) for c in COUNT_COLUMN.values()),
    # False while a large request's files are being written in chunks: such
    # a request was never acknowledged, and start-up deletes it.
    sa.Column("accepted", sa.Boolean, nullable=False, server_default=sa.true()),
    sa.Index("requests_client", "client"),
)

files = sa.Table(
    "files",
    metadata,
    sa.Column("id", sa.BigInteger().with_variant(sa.Integer, "sqlite"), primary_key=True),
    sa.Column("request_id", sa.String(36), sa.ForeignKey("requests.id"), nullable=False),
    sa.Column("path", sa.Text, nullable=False),
    sa.Column("tape", sa.String(NAME_MAX), nullable=True),
    sa.Column("block", sa.BigInteger, nullable=True),
    sa.Column("size", sa.BigInteger, nullable=True),
    sa.Column("state", sa.String(12), nullable=False),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("started_at", sa.Float, nullable=True),
    sa.Column("finished_at", sa.Float, nullable=True),
    sa.Column("released", sa.Boolean, nullable=False, server_default=sa.false()),
    # The diskLifetime the client asked for (seconds), and when the pin of a
    # staged copy expires.
    sa.Column("lifetime_s", sa.Float, nullable=True),
    sa.Column("pin_expires_at", sa.Float, nullable=True),
    # Open files in id order (a restart queues them again a chunk at a
    # time): without the id, PostgreSQL without statistics read every open
    # file for each chunk of 1,000 and sorted them (0.25-0.35 s a chunk at
    # 1,000,000 open files). SQLite's index on the state alone held the id.
    sa.Index("files_state_id", "state", "id"),
    # A release or cancel of some paths of a request finds them through this
    # index (O(files named), not O(files of the request)); its prefix serves
    # every lookup by request.
    sa.Index("files_request_path", "request_id", "path"),
    # A release without a known request id finds the client's staged copies
    # by path (its waiting files are in the scheduler's memory). Only staged
    # rows are indexed: a plain index on the path took every insert of files
    # requested in random order to a page of its own (600,000 rows in
    # 200-row transactions: 22,000-25,000 rows/s with it, 82,000-96,000
    # without; issue 35's note, 2026-11-28).
    sa.Index("files_path_staged", "path", sqlite_where=STAGED_ROWS, postgresql_where=STAGED_ROWS),
    sa.Index("files_pin_expiry", "pin_expires_at"),
)

#: Files on the disk buffer, with how many unreleased staged files pin them.
disk = sa.Table(
    "disk",
    metadata,
    sa.Column("path", sa.Text, primary_key=True),
    sa.Column("pins", sa.Integer, nullable=False),
    sa.Column("staged_at", sa.Float, nullable=False),
)


def database_url(db: str) -> str:
    """A SQLAlchemy URL: ``postgresql://...`` (run through psycopg 3) as given,
    anything else is a SQLite file path."""
    if db.startswith(("postgresql://", "postgresql+psycopg://", "postgres://")):
        rest = db.split("://", 1)[1]
        return f"postgresql+psycopg://{rest}"
    if db.startswith("sqlite:"):
        return db
    return f"sqlite:///{Path(db).expanduser()}"


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    # WAL: readers (status polls) never wait for the writer. NORMAL sync in
    # WAL mode loses no committed transaction when the process dies (kill -9);
    # only a power loss can drop the last ones (set sync: full for that).
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


def _sqlite_full_sync(dbapi_connection: Any, _record: Any) -> None:
    cur = dbapi_connection.cursor()
    cur.execute("PRAGMA synchronous=FULL")
    cur.close()


def connect(db: str, full_sync: bool = False) -> Engine:
    """An engine for ``db`` (a SQLite path or a PostgreSQL URL), migrated to
    the newest schema."""
    url = database_url(db)
    try:
        if url.startswith("sqlite"):
            engine = sa.create_engine(
                url,
                connect_args={"check_same_thread": False},
                pool_size=8,
                max_overflow=8,
            )
            sa.event.listen(engine, "connect", _sqlite_pragmas)
            if full_sync:
                sa.event.listen(engine, "connect", _sqlite_full_sync)
        else:
            engine = sa.create_engine(url, pool_size=8, max_overflow=8, pool_pre_ping=True)
        migrate(engine)
    except sa.exc.SQLAlchemyError as e:
        raise SeekplanError(f"database {db}: {e.__class__.__name__}: {e.args[0]}") from None
    except ModuleNotFoundError as e:
        raise SeekplanError(f"database {db}: {e} (install seekplan[serve])") from None
    return engine


def migrate(engine: Engine) -> None:
    """Brings the schema to alembic's head revision (creates it on a new database)."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")
