"""Replaying a site's own recall trace (issue 12 item 4): a CSV or Parquet
file of requests ``time,path,tape,block,size`` becomes a campaign whose
arrivals are the trace's, run through every requester strategy."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np

from seekplan.errors import SeekplanError, quote
from seekplan.io import (
    capped_lines,
    check_header,
    csv_rows,
    dict_reader,
    parquet_rows,
    read_parquet,
)
from seekplan.recall.config import RecallConfig, parse_config
from seekplan.recall.workload import Campaign

COLUMNS = ("time", "path", "tape", "block", "size")


def strategies(drives: int) -> dict[str, dict[str, Any]]:
    """Every strategy of the core's registry with its default knobs; by-tapes
    passes on requests for as many tapes as there are drives."""
    return {
        "random": {"name": "random"},
        "by-dataset": {"name": "by-dataset"},
        f"by-{drives}-tapes": {"name": "by-tapes", "tapes": drives},
        "dcache": {"name": "dcache"},
    }


def nonnegative(value: Any, column: str, where: str, integer: bool) -> float:
    """A non-negative number from a CSV string or a Parquet value."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        if integer and not float(value).is_integer():
            raise SeekplanError(f"{where}: column {column!r}: {quote(value)} is not an integer")
        x = int(value) if integer else float(value)
    else:
        text = str(value if value is not None else "").strip()
        try:
            x = int(text) if integer else float(text)
        except ValueError:
            kind = "an integer" if integer else "a number"
            raise SeekplanError(
                f"{where}: column {column!r}: {quote(text)} is not {kind}"
            ) from None
    if not math.isfinite(x) or x < 0:
        raise SeekplanError(f"{where}: column {column!r}: must be >= 0, got {quote(value)}")
    return x


def seconds_of(value: Any, where: str) -> float:
    """A request time: seconds (any origin), or a timestamp (ISO 8601 text,
    or a Parquet timestamp), taken as seconds since the epoch."""
    if isinstance(value, datetime):
        return _as_utc(value).timestamp()
    if isinstance(value, str):
        try:
            return nonnegative(value, "time", where, integer=False)
        except SeekplanError:
            try:
                return _as_utc(datetime.fromisoformat(value.strip())).timestamp()
            except ValueError:
                pass
            raise SeekplanError(
                f"{where}: column 'time': {quote(value.strip())} is neither seconds nor an "
                "ISO 8601 timestamp"
            ) from None
    return nonnegative(value, "time", where, integer=False)


def _as_utc(t: datetime) -> datetime:
    """Naive timestamps are read as UTC (traces rarely say otherwise)."""
    return t if t.tzinfo is not None else t.replace(tzinfo=UTC)


def load_trace(path: str | Path, tape_capacity: int, block_bytes: int) -> Campaign:
    """A campaign from a trace (CSV, or Parquet when the name ends in
    .parquet), in arrival order. A file's dataset is its directory; tapes
    get `tape_capacity` bytes, all used. Errors name the line (CSV) or row
    (Parquet) and the column."""
    p = Path(path)
    if p.suffix.lower() in (".parquet", ".pq"):
        return _read(p, _parquet_rows(p), tape_capacity, block_bytes)
    try:
        # utf-8-sig: a byte-order mark (spreadsheets write one) is not part
        # of the first column's name.
        with p.open(newline="", encoding="utf-8-sig") as f:
            reader = dict_reader(capped_lines(f, str(p)))
            _check_columns(p, reader.fieldnames)
            return _read(p, csv_rows(reader, str(p)), tape_capacity, block_bytes)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise SeekplanError(f"cannot read trace: {e}") from e


def _check_columns(p: Path, names: Sequence[str] | None) -> None:
    """Fails unless every column is there, each once (a twin would be
    silently dropped)."""
    check_header(names or [], COLUMNS, str(p))


def _parquet_rows(p: Path) -> Iterator[tuple[str, dict[str, Any]]]:
    """The rows of a Parquet trace, each with where it is (row 1 first)."""
    table = read_parquet(p, f"cannot read trace {p}")
    _check_columns(p, table.column_names)
    return parquet_rows(table, COLUMNS, str(p))


def _read(
    p: Path, rows: Iterable[tuple[str, dict[str, Any]]], capacity: int, block_bytes: int
) -> Campaign:
    tapes: dict[str, int] = {}
    datasets: dict[str, int] = {}
    cols: dict[str, list[float]] = {k: [] for k in ("t", "ds", "tape", "block", "size")}
    for n, (where, row) in enumerate(rows, start=1):
        where = where or f"{p} row {n}"
        t = seconds_of(row["time"], where)
        block = int(nonnegative(row["block"], "block", where, integer=True))
        size = int(nonnegative(row["size"], "size", where, integer=True))
        if size == 0:
            raise SeekplanError(f"{where}: column 'size': must be at least 1")
        if block * block_bytes + size > capacity:
            raise SeekplanError(
                f"{where}: block {block} + {size} bytes runs past the tape's capacity "
                f"({capacity} bytes; see --tape-capacity)"
            )
        tape = str(row["tape"] if row["tape"] is not None else "").strip()
        path = str(row["path"] if row["path"] is not None else "").strip()
        if not tape or not path:
            raise SeekplanError(f"{where}: columns 'tape' and 'path' must not be empty")
        cols["t"].append(t)
        cols["ds"].append(datasets.setdefault(str(PurePosixPath(path).parent), len(datasets)))
        cols["tape"].append(tapes.setdefault(tape, len(tapes)))
        cols["block"].append(block)
        cols["size"].append(size)
    if not cols["size"]:
        raise SeekplanError(f"{p}: no requests")
    arrival = np.array(cols["t"], dtype=np.float64)
    order = np.argsort(arrival, kind="stable")
    n = len(tapes)
    return Campaign(
        dataset=np.array(cols["ds"], dtype=np.uint32)[order],
        tape=np.array(cols["tape"], dtype=np.uint32)[order],
        block=np.array(cols["block"], dtype=np.uint64)[order],
        size=np.array(cols["size"], dtype=np.uint64)[order],
        arrival_s=(arrival - arrival.min())[order],
        tapeinfo=np.ones(len(arrival), dtype=bool),
        capacity=np.full(n, capacity, dtype=np.uint64),
        used=np.full(n, capacity, dtype=np.uint64),
        tape_names=list(tapes),
    )


def configs(config: RecallConfig) -> dict[str, RecallConfig]:
    """The user's config once per strategy."""
    drives = int(config.library["drives"])
    return {
        name: parse_config({**config.data, "strategy": strategy})
        for name, strategy in strategies(drives).items()
    }
