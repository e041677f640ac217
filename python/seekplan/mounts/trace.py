"""Reading a site's mount log (issue 37 item 1) into a :class:`MountTrace`:

- CSV (comma, semicolon or tab) or Parquet with named columns
  ``time,cartridge,busy_s``: one row per cartridge request, ``busy_s`` the
  seconds the cartridge keeps a drive busy once it is in. A log without
  ``busy_s`` but with ``bytes`` is timed like a recall trace (the drive's
  mean locate plus the bytes at its rate); other columns (``drive``) are
  read past;
- ECMWF's published data-handling trace as Mäsker et al.'s simulator
  reads it: ``cartridge;YYYYmmddTHHMMSS;seconds`` per line, plain, bz2 or
  gzip, an optional closing ``Bye;...;0`` line;
- a file-level recall trace (``time,path,tape,block,size``), each file one
  request whose busy time is the drive's mean locate plus its transfer.

Times are seconds or ISO 8601 timestamps; rows out of time order are
sorted (stable). Errors name the file, the 1-based line and the column."""

from __future__ import annotations

import bz2
import csv
import gzip
import io
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import numpy as np

from seekplan.errors import SeekplanError, quote, require_path
from seekplan.io import (
    capped_lines,
    check_header,
    csv_rows,
    dict_reader,
    parquet_rows,
    read_parquet,
)
from seekplan.recall.trace import nonnegative, seconds_of

#: The columns of a mount-level trace.
COLUMNS = ("time", "cartridge", "busy_s")
#: The columns of a file-level recall trace, converted through the read model.
RECALL_COLUMNS = ("time", "path", "tape", "block", "size")
#: Longest busy time of one request, seconds (a year, the core's bound):
#: ECMWF's sample's longest is 225,119 s, 2.6 days.
MAX_BUSY_S = 365 * 86_400.0
#: Longest span of a trace's arrivals, seconds (a century, the core's bound).
MAX_SPAN_S = 100 * 365 * 86_400.0
#: [choice] The drive whose figures turn a recall trace's files into busy
#: seconds when none is named: the recall simulator's default (KIT's T10000D).
DEFAULT_DRIVE = "t10000d"


@dataclass(frozen=True)
class MountTrace:
    """Cartridge requests in arrival order: seconds since the first request,
    the cartridge's number (an index into ``names``), busy seconds."""

    time_s: np.ndarray
    cartridge: np.ndarray
    busy_s: np.ndarray
    #: Cartridge labels, by number.
    names: list[str]
    #: Where the trace came from.
    source: str
    #: Rows that came out of time order and were sorted.
    resorted: int = 0

    def __len__(self) -> int:
        return len(self.time_s)

    @property
    def span_s(self) -> float:
        """Seconds from the first request to the last."""
        return float(self.time_s[-1]) if len(self.time_s) else 0.0


def from_columns(
    time_s: Any, cartridges: Sequence[str], busy_s: Any, source: str = "trace"
) -> MountTrace:
    """A trace from parallel columns (times, cartridge labels, busy
    seconds), sorted by time and numbered by first appearance."""
    numbers: dict[str, int] = {}
    codes = np.fromiter(
        (numbers.setdefault(c, len(numbers)) for c in cartridges),
        dtype=np.int64,
        count=len(cartridges),
    )
    return from_codes(time_s, codes, list(numbers), busy_s, source)


def from_codes(
    time_s: Any, codes: np.ndarray, labels: Sequence[str], busy_s: Any, source: str = "trace"
) -> MountTrace:
    """A trace from times, cartridge codes (indices into ``labels``) and busy
    seconds: sorted by time (stable), cartridges renumbered by first
    appearance, times counted from the first request."""
    times = np.asarray(time_s, dtype=np.float64)
    busy = np.asarray(busy_s, dtype=np.float64)
    if not len(times):
        raise SeekplanError(f"{source}: no requests")
    if len(times) != len(codes) or len(times) != len(busy):
        raise SeekplanError(f"{source}: the columns differ in length")
    order = np.argsort(times, kind="stable")
    resorted = int(np.count_nonzero(order != np.arange(len(order))))
    ordered = np.asarray(codes)[order]
    seen, first = np.unique(ordered, return_index=True)
    by_appearance = seen[np.argsort(first)]
    number = np.empty(int(seen[-1]) + 1, dtype=np.uint32)
    number[by_appearance] = np.arange(len(by_appearance), dtype=np.uint32)
    t = times[order]
    if t[-1] - t[0] > MAX_SPAN_S:
        raise SeekplanError(
            f"{source}: the requests span {(t[-1] - t[0]) / 3.156e7:.3g} years; at most a century"
        )
    return MountTrace(
        t - t[0],
        number[ordered],
        busy[order],
        [labels[int(c)] for c in by_appearance],
        source,
        resorted,
    )


def compression(p: Path) -> str | None:
    """``bz2`` or ``gzip`` when the file starts with that format's magic."""
    with p.open("rb") as f:
        magic = f.read(3)
    if magic == b"BZh":
        return "bz2"
    if magic[:2] == b"\x1f\x8b":
        return "gzip"
    return None


def _open_text(p: Path) -> TextIO:
    """The file as text, decompressed when it starts with bz2's or gzip's magic."""
    packed = compression(p)
    raw: bz2.BZ2File | gzip.GzipFile | BinaryIO
    if packed == "bz2":
        raw = bz2.BZ2File(p, "rb")
    elif packed == "gzip":
        raw = gzip.GzipFile(p, "rb")
    else:
        raw = p.open("rb")
    return io.TextIOWrapper(raw, encoding="utf-8-sig", newline="")


def load_trace(path: str | Path, drive: str = DEFAULT_DRIVE) -> MountTrace:
    """A mount trace from a CSV, Parquet, ECMWF or recall-trace file (see
    the module's doc); ``drive`` names the catalogued drive that times a
    recall trace's files."""
    from seekplan.mounts.columnar import read_csv_columns, read_ecmwf_columns

    p = require_path(path, "trace")
    try:
        if p.suffix.lower() in (".parquet", ".pq"):
            return _from_parquet(p, drive)
        with _open_text(p) as f:
            lines = capped_lines(f, str(p))
            first = next(lines, None)
            while first is not None and not first.strip():
                first = next(lines, None)
            if first is None:
                raise SeekplanError(f"{p}: no requests (the file is empty)")
            if _is_ecmwf(first):
                return read_ecmwf_columns(p) or _from_ecmwf(p, first, lines)
            reader = dict_reader(_chain(first, lines))
            header = reader.fieldnames or []
            if set(RECALL_COLUMNS) <= set(header) and "cartridge" not in header:
                return _from_recall(p, drive)
            busy = _busy_column(header, p)
            trace = read_csv_columns(p, first, busy) or _from_rows(
                p, csv_rows(reader, str(p)), busy
            )
            return trace if busy == "busy_s" else _timed_by_drive(trace, drive)
    except (OSError, EOFError, UnicodeDecodeError, csv.Error) as e:
        raise SeekplanError(f"cannot read trace {p}: {e}") from None


def _busy_column(header: Sequence[str], p: Path) -> str:
    """``busy_s``, else ``bytes`` (timed by the drive), once each with
    ``time`` and ``cartridge``; else an error naming line 1."""
    busy = "busy_s" if "busy_s" in header or "bytes" not in header else "bytes"
    try:
        check_header(header, (*COLUMNS[:2], busy), str(p))
    except SeekplanError as e:
        raise SeekplanError(
            f"{e} (a log without busy_s may give bytes, timed by the drive's figures)"
        ) from None
    return busy


def _timed_by_drive(trace: MountTrace, drive: str) -> MountTrace:
    """A trace read with bytes in ``busy_s``, busy for the drive's mean
    locate plus those bytes at its rate (as a recall trace's files are)."""
    from seekplan.hardware import drive_figures

    figures = drive_figures(drive, "--drive", trace.source)
    seconds = (figures["mean_locate_s"] or 0.0) + trace.busy_s / float(figures["rate_bps"])
    return replace(trace, busy_s=seconds)


def _chain(first: str, rest: Iterator[str]) -> Iterator[str]:
    yield first
    yield from rest


def _is_ecmwf(line: str) -> bool:
    """``cartridge;YYYYmmddTHHMMSS;seconds``: three fields, the second a
    compact timestamp."""
    parts = line.strip().split(";")
    return len(parts) == 3 and len(parts[1]) == 15 and parts[1][8] == "T"


def _ecmwf_seconds(stamp: str, days: dict[str, float], where: str) -> float:
    """Seconds since the epoch of ``YYYYmmddTHHMMSS``, read as UTC: the
    trace's local times are kept as they are, so the file's own order (it
    is sorted by these strings) is kept through daylight-saving changes."""
    day = days.get(stamp[:8])
    try:
        if day is None:
            day = datetime.strptime(stamp[:8], "%Y%m%d").replace(tzinfo=UTC).timestamp()
            days[stamp[:8]] = day
        h, m, s = int(stamp[9:11]), int(stamp[11:13]), int(stamp[13:15])
        if stamp[8] != "T" or len(stamp) != 15 or h > 23 or m > 59 or s > 60:
            raise ValueError(stamp)
    except ValueError:
        raise SeekplanError(
            f"{where}: field 2 (time): {quote(stamp)} is not YYYYmmddTHHMMSS"
        ) from None
    return day + 3600 * h + 60 * m + s


def _from_ecmwf(p: Path, first: str, rest: Iterator[str]) -> MountTrace:
    times: list[float] = []
    carts: list[str] = []
    busy: list[float] = []
    days: dict[str, float] = {}
    for n, line in enumerate(_chain(first, rest), start=1):
        text = line.strip()
        if not text:
            continue
        where = f"{p} line {n}"
        parts = text.split(";")
        if len(parts) != 3:
            raise SeekplanError(
                f"{where}: expected cartridge;YYYYmmddTHHMMSS;seconds, got {len(parts)} fields"
            )
        cart, stamp, seconds = parts
        if cart == "Bye":
            # Mäsker's parser closes its output with this sentinel.
            continue
        if not cart:
            raise SeekplanError(f"{where}: field 1 (cartridge) is empty")
        times.append(_ecmwf_seconds(stamp, days, where))
        carts.append(cart)
        busy.append(_busy(seconds, "seconds", where))
    return from_columns(times, carts, busy, str(p))


def _busy(value: Any, column: str, where: str) -> float:
    """A request's busy seconds: a number in 0..MAX_BUSY_S."""
    seconds = nonnegative(value, column, where, integer=False)
    if seconds > MAX_BUSY_S:
        raise SeekplanError(
            f"{where}: column {column!r}: {seconds:g} s is more than a year ({MAX_BUSY_S:g} s)"
        )
    return seconds


def _from_rows(
    p: Path, rows: Iterator[tuple[str, dict[str, Any]]], busy_column: str = "busy_s"
) -> MountTrace:
    times: list[float] = []
    carts: list[str] = []
    busy: list[float] = []
    for n, (where, row) in enumerate(rows, start=1):
        where = where or f"{p} row {n}"
        cart = str(row["cartridge"] if row["cartridge"] is not None else "").strip()
        if not cart:
            raise SeekplanError(f"{where}: column 'cartridge' is empty")
        times.append(seconds_of(row["time"], where))
        carts.append(cart)
        value = row[busy_column]
        busy.append(
            _busy(value, busy_column, where)
            if busy_column == "busy_s"
            else nonnegative(value, busy_column, where, integer=False)
        )
    if not times:
        raise SeekplanError(f"{p}: no requests (a header and no rows)")
    return from_columns(times, carts, busy, str(p))


def _from_parquet(p: Path, drive: str) -> MountTrace:
    table = read_parquet(p, f"cannot read trace {p}")
    names = table.column_names
    if set(RECALL_COLUMNS) <= set(names) and "cartridge" not in names:
        return _from_recall(p, drive)
    busy = _busy_column(names, p)
    trace = _from_rows(p, parquet_rows(table, (*COLUMNS[:2], busy), str(p)), busy)
    return trace if busy == "busy_s" else _timed_by_drive(trace, drive)


def _from_recall(p: Path, drive: str) -> MountTrace:
    """Each file of a recall trace becomes a request for its tape, timed by
    the drive as a log's bytes are (:func:`_timed_by_drive`)."""
    from seekplan.hardware import drive_figures
    from seekplan.recall.trace import load_trace as load_recall_trace

    capacity = int(drive_figures(drive, "--drive", str(p))["capacity_bytes"])
    campaign = load_recall_trace(p, capacity, 1)
    names = [campaign.tape_names[t] for t in campaign.tape]
    sizes = campaign.size.astype(np.float64)
    return _timed_by_drive(from_columns(campaign.arrival_s, names, sizes, str(p)), drive)
