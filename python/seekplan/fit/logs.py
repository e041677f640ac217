"""Readers for timing logs: seek logs (from_block,to_block,seconds) and
per-block write/read logs (block,seconds). Every error names line, column
and value."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from seekplan.errors import SeekplanError
from seekplan.io import check_header, dict_reader, int_field, read_lines

SEEK_COLUMNS = ("from_block", "to_block", "seconds")
BLOCK_COLUMNS = ("block", "seconds")


def _columns(lines: Iterable[str], origin: str, columns: tuple[str, ...]) -> list[np.ndarray]:
    """The named columns of a log: blocks as int64 (exact), seconds as float64."""
    out: list[list[float]] = []
    try:
        reader = dict_reader(lines)
        header = [h.strip() for h in reader.fieldnames or []]
        reader.fieldnames = header
        check_header(header, columns, origin)
        for row in reader:
            where = f"{origin} line {reader.line_num}"
            values = []
            # Cell by cell, so a short row's first cell is judged as a value
            # (a comment line is "not an integer", not "too few fields").
            for c in columns:
                cell = row.get(c)
                if cell is None:
                    raise SeekplanError(f"{where}: wrong number of fields")
                values.append(_number(cell, c, where))
            out.append(values)
    except csv.Error as e:
        raise SeekplanError(f"{origin}: malformed CSV: {e}") from e
    if not out:
        raise SeekplanError(f"{origin}: has no rows")
    return [
        np.array(values, dtype=np.float64 if c == "seconds" else np.int64)
        for c, values in zip(columns, zip(*out, strict=True), strict=True)
    ]


def _number(cell: str, column: str, where: str) -> float:
    """A cell as a time (float) or a block (int, at most the core's i64)."""
    text = cell.strip()
    if column != "seconds":
        return int_field(text, column, where)
    try:
        v = float(text)
    except ValueError:
        raise SeekplanError(f"{where}: column {column!r}: {cell!r} is not a number") from None
    if not math.isfinite(v):
        raise SeekplanError(f"{where}: column {column!r}: {cell!r} is not finite")
    if v < 0:
        raise SeekplanError(f"{where}: column {column!r}: negative time {text}")
    return v


def parse_seek_log(
    lines: Iterable[str], origin: str = "seek log"
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(from blocks, to blocks, seconds) of a seek log; any row order."""
    start, end, seconds = _columns(lines, origin, SEEK_COLUMNS)
    return start, end, seconds


def _plain_block_log(lines: list[str]) -> tuple[np.ndarray, np.ndarray] | None:
    """The usual form of a block log (header ``block,seconds``, two plain
    numbers a row, valid values) read by numpy's C parser: a whole tape's
    400,000 rows in ~0.1 s, not ~1 s. None for anything else, which the
    careful reader then parses or rejects with line and column."""
    if len(lines) < 2:
        return None
    header = [h.strip() for h in lines[0].removeprefix("\ufeff").split(",")]
    if header != list(BLOCK_COLUMNS):
        return None
    try:
        a = np.loadtxt(
            lines[1:],
            delimiter=",",
            dtype=[("block", np.int64), ("seconds", np.float64)],
            comments=None,
            ndmin=1,
        )
    except (ValueError, OverflowError, TypeError):
        return None
    blocks, seconds = a["block"], a["seconds"]
    if blocks.size == 0 or blocks.min() < 0 or not np.all(np.isfinite(seconds) & (seconds >= 0)):
        return None
    return blocks, seconds


def parse_block_log(
    lines: Iterable[str], origin: str = "block log"
) -> tuple[np.ndarray, np.ndarray]:
    """(blocks, seconds) of a write or read log; blocks strictly increasing."""
    text = list(lines)
    plain = _plain_block_log(text)
    if plain is not None:
        blocks, seconds = plain
    else:
        blocks, seconds = _columns(text, origin, BLOCK_COLUMNS)
    bad = np.nonzero(np.diff(blocks) <= 0)[0]
    if bad.size:
        i = int(bad[0]) + 1
        raise SeekplanError(
            f"{origin} line {i + 2}: blocks must be strictly increasing "
            f"(block {blocks[i]} after {blocks[i - 1]}); sort the log by block"
        )
    return blocks, seconds


def read_seek_log(path: str | Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A seek log from a CSV file (see :func:`parse_seek_log`)."""
    return parse_seek_log(read_lines(path), str(path))


def read_block_log(path: str | Path) -> tuple[np.ndarray, np.ndarray]:
    """A block log from a CSV file (see :func:`parse_block_log`)."""
    return parse_block_log(read_lines(path), str(path))
