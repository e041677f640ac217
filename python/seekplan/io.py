"""Readers and writers for request lists, cost matrices and orders. Every
reader names the line and column of the first bad value."""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from seekplan.errors import SeekplanError


@dataclass(frozen=True)
class Request:
    """One read request: an id, its first logical block and its size in bytes."""

    id: str
    block: int
    size: int


def _int_field(value: str, name: str, where: str, minimum: int) -> int:
    try:
        number = int(value.strip())
    except ValueError:
        raise SeekplanError(f"{where}: column {name!r}: {value!r} is not an integer") from None
    if number < 0:
        raise SeekplanError(f"{where}: column {name!r}: {number} is negative")
    if number < minimum:
        raise SeekplanError(f"{where}: column {name!r}: {number} must be at least {minimum}")
    return number


def parse_requests(lines: Iterable[str], origin: str = "requests") -> list[Request]:
    """Requests from CSV text with columns id, block, size (bytes, > 0)."""
    try:
        return _parse_requests(csv.DictReader(lines), origin)
    except csv.Error as e:
        raise SeekplanError(f"{origin}: malformed CSV: {e}") from e


def _parse_requests(reader: csv.DictReader[str], origin: str) -> list[Request]:
    header = reader.fieldnames or []
    missing = [c for c in ("id", "block", "size") if c not in header]
    if missing:
        raise SeekplanError(
            f"{origin}: missing column(s) {', '.join(missing)}; expected header id,block,size"
        )
    seen: dict[str, int] = {}
    requests = []
    for row in reader:
        where = f"{origin} line {reader.line_num}"
        if None in row or any(row[c] is None for c in ("id", "block", "size")):
            raise SeekplanError(f"{where}: wrong number of fields")
        rid = row["id"].strip()
        if not rid:
            raise SeekplanError(f"{where}: column 'id' is empty")
        if rid in seen:
            raise SeekplanError(f"{where}: duplicate id {rid!r} (first on line {seen[rid]})")
        seen[rid] = reader.line_num
        block = _int_field(row["block"], "block", where, 0)
        size = _int_field(row["size"], "size", where, 1)
        requests.append(Request(rid, block, size))
    return requests


def read_lines(path: str | Path) -> list[str]:
    """A text file's lines with their endings (for csv); unreadable is an error."""
    p = Path(path)
    try:
        with p.open(newline="") as f:
            return f.readlines()
    except (OSError, UnicodeDecodeError) as e:
        raise SeekplanError(f"cannot read {p}: {e}") from e


def read_requests(path: str | Path) -> list[Request]:
    """Requests from a CSV file (see :func:`parse_requests`)."""
    return parse_requests(read_lines(path), str(path))


def parse_matrix(lines: Iterable[str], origin: str = "matrix") -> list[list[float]]:
    """A square matrix of seconds from CSV text without a header."""
    try:
        rows = _parse_rows(csv.reader(lines), origin)
    except csv.Error as e:
        raise SeekplanError(f"{origin}: malformed CSV: {e}") from e
    if not rows:
        raise SeekplanError(f"{origin}: is empty")
    for number, row in enumerate(rows, start=1):
        if len(row) != len(rows):
            raise SeekplanError(
                f"{origin}: not square: row {number} has {len(row)} entries, expected {len(rows)}"
            )
    return rows


def _parse_rows(reader: Iterable[list[str]], origin: str) -> list[list[float]]:
    rows = []
    for number, row in enumerate(reader, start=1):
        if not row or all(not c.strip() for c in row):
            continue
        values = []
        for col, cell in enumerate(row):
            try:
                v = float(cell)
            except ValueError:
                raise SeekplanError(
                    f"{origin} line {number} column {col}: {cell!r} is not a number"
                ) from None
            if not math.isfinite(v) or v < 0:
                raise SeekplanError(
                    f"{origin} line {number} column {col}: {v} must be a finite time >= 0"
                )
            values.append(v)
        rows.append(values)
    return rows


def read_matrix(path: str | Path) -> list[list[float]]:
    """A square cost matrix from a CSV file (see :func:`parse_matrix`)."""
    return parse_matrix(read_lines(path), str(path))


ORDER_COLUMNS = ("rank", "id", "block", "size", "start_s", "end_s")


def write_order(path: str | Path, rows: Sequence[dict[str, object]]) -> None:
    """Writes an order CSV (columns rank,id,block,size,start_s,end_s) atomically."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    with tmp.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=ORDER_COLUMNS, extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)
    tmp.replace(p)


def write_json(path: str | Path, data: object) -> None:
    """Writes JSON atomically, so an interrupted run never leaves half a file."""
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False) + "\n")
    tmp.replace(p)
