"""LTO tapes: the end-of-wrap list a drive reports (READ END OF WRAP POSITION)."""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from seekplan.catalog import drive_entry
from seekplan.errors import SeekplanError
from seekplan.io import check_header, csv_rows, dict_reader, int_field, read_lines


def parse_eowp(lines: Iterable[str], origin: str = "eowp") -> list[int]:
    """Last block of each wrap, from CSV with one column ``last_block`` and
    one row per wrap (wrap 0 first); names the first bad line."""
    try:
        reader = dict_reader(lines)
        check_header(reader.fieldnames or [], ("last_block",), origin)
        blocks: list[int] = []
        for where, row in csv_rows(reader, origin):
            block = int_field(row["last_block"], "last_block", where)
            if blocks and block <= blocks[-1]:
                raise SeekplanError(
                    f"{where}: column 'last_block': {block} is not after the previous "
                    f"wrap's {blocks[-1]} (the list must increase)"
                )
            blocks.append(block)
    except csv.Error as e:
        raise SeekplanError(f"{origin}: malformed CSV: {e}") from e
    if not blocks:
        raise SeekplanError(f"{origin}: no wraps listed")
    return blocks


def read_eowp(path: str | Path) -> list[int]:
    """The end-of-wrap list from a CSV file (see :func:`parse_eowp`)."""
    return parse_eowp(read_lines(path), str(path))


def check_lto_drive(drive: str, devices: str | Path | None = None) -> None:
    """Fails unless ``drive`` uses the LTO model (an end-of-wrap list needs one)."""
    entry = drive_entry(drive, devices)
    if entry.model != "lto":
        raise SeekplanError(
            f"--eowp needs an LTO drive (e.g. --drive lto9); {drive!r} uses the {entry.model} model"
        )
