"""Where each stageable file lives: path -> tape, first block, size.

A site exports it from its tape system as CSV with the header
``path,tape,block,size`` (block: the file's first logical block on its tape;
size in bytes), or it is read from mounted LTFS volumes (one directory per
tape, each file's ``ltfs.startblock`` extended attribute). Errors name the
line and column; paths are sanitised as the API sanitises client paths, so a
catalog path and a requested one compare equal when they name the same file.
A path no client could ask for, or that would forge a line of a log (a
control character, a ``..`` segment), is refused; so are two files of one
tape whose extents overlap, once the drive's block size is known
(:func:`check_extents`).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from seekplan.errors import SeekplanError, quote
from seekplan.io import MAX_INT, capped_lines, check_header, strip_bom

COLUMNS = ("path", "tape", "block", "size")
_SLASHES = re.compile(r"/{2,}")
#: Characters no catalogued path may hold: C0 controls (NUL, tab, newline,
#: carriage return, ...) and DEL.
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def sanitise(path: str) -> str:
    """The path as the service keys it: duplicate slashes collapsed and a
    trailing slash dropped (the reference document's example of sanitising)."""
    p = _SLASHES.sub("/", path.strip())
    if len(p) > 1:
        p = p.rstrip("/")
    return p


@dataclass(frozen=True)
class Entry:
    """One catalogued file."""

    path: str
    tape: str
    block: int
    size: int


def path_problem(path: str) -> str | None:
    """Why a (sanitised) catalog path can never be requested or could forge a
    log line, or None: a control character or a ``..`` segment."""
    bad = _CONTROL.search(path)
    if bad is not None:
        return f"{quote(path)} contains a control character ({bad.group()!r})"
    if ".." in path.split("/"):
        return f"{quote(path)} contains a '..' segment"
    return None


class Catalog:
    """The catalog: entries by sanitised path, and the tapes in first-seen
    order; ``origin`` (its file) and ``lines`` (path -> 1-based line, for a
    CSV catalog) let later checks name where an entry came from."""

    def __init__(
        self, entries: Iterable[Entry], origin: str = "catalog", lines: dict[str, int] | None = None
    ) -> None:
        self.origin = origin
        self.lines: dict[str, int] = lines or {}
        self.by_path: dict[str, Entry] = {}
        self.tapes: list[str] = []
        self.tape_index: dict[str, int] = {}
        for e in entries:
            self.by_path[e.path] = e
            if e.tape not in self.tape_index:
                self.tape_index[e.tape] = len(self.tapes)
                self.tapes.append(e.tape)

    def __len__(self) -> int:
        return len(self.by_path)

    def get(self, path: str) -> Entry | None:
        """The entry of a (sanitised) path, or None."""
        return self.by_path.get(path)


def _field(row: dict[str, str], name: str, where: str) -> int:
    value = (row.get(name) or "").strip()
    try:
        number = int(value)
    except ValueError:
        raise SeekplanError(f"{where}: column {name!r}: {value!r} is not an integer") from None
    if number < 0 or number > MAX_INT:
        raise SeekplanError(f"{where}: column {name!r}: {number} is out of range 0..{MAX_INT}")
    return number


def parse_catalog(lines: Iterable[str], origin: str = "catalog") -> Catalog:
    """A catalog from CSV text; the first bad line is an error naming it."""
    reader = csv.DictReader(strip_bom(lines))
    try:
        check_header(reader.fieldnames or [], COLUMNS, origin)
        entries: dict[str, Entry] = {}
        line_of: dict[str, int] = {}
        for row in reader:
            where = f"{origin} line {reader.line_num}"
            if None in row:
                raise SeekplanError(f"{where}: more fields than the header has columns")
            raw_path = (row.get("path") or "").strip()
            if not raw_path.startswith("/"):
                raise SeekplanError(f"{where}: column 'path': {raw_path!r} is not an absolute path")
            path = sanitise(raw_path)
            problem = path_problem(path)
            if problem is not None:
                raise SeekplanError(f"{where}: column 'path': {problem}")
            tape = (row.get("tape") or "").strip()
            if not tape:
                raise SeekplanError(f"{where}: column 'tape' is empty")
            if path in entries:
                raise SeekplanError(f"{where}: path {path!r} appears twice")
            entries[path] = Entry(
                path, tape, _field(row, "block", where), _field(row, "size", where)
            )
            line_of[path] = reader.line_num
    except csv.Error as e:
        raise SeekplanError(f"{origin} line {reader.line_num}: malformed CSV: {e}") from None
    if not entries:
        raise SeekplanError(f"{origin}: no files (expected a header {','.join(COLUMNS)} and rows)")
    return Catalog(entries.values(), origin, line_of)


def load_catalog(path: str | Path) -> Catalog:
    """Reads a catalog CSV file."""
    p = Path(path)
    try:
        with p.open(newline="", encoding="utf-8") as f:
            return parse_catalog(capped_lines(f, str(p)), str(p))
    except (OSError, UnicodeDecodeError) as e:
        raise SeekplanError(f"{p}: cannot read ({e})") from None


def ltfs_catalog(root: str | Path, prefix: str = "/") -> Catalog:
    """A catalog of mounted LTFS volumes: each directory under ``root`` is one
    tape (named after the directory) and its files are catalogued as
    ``prefix/<tape>/<path in the volume>`` with their LTFS start block."""
    from seekplan.ltfs import DATA_PARTITION, scan

    base = Path(root)
    if not base.is_dir():
        raise SeekplanError(f"{base}: not a directory of mounted LTFS volumes")
    entries = []
    for volume in sorted(p for p in base.iterdir() if p.is_dir()):
        for f in scan(volume):
            if f.link is None and f.partition == DATA_PARTITION:
                path = sanitise(f"{prefix}/{volume.name}/{f.path}")
                problem = path_problem(path)
                if problem is not None:
                    raise SeekplanError(f"{volume / f.path}: {problem}")
                entries.append(Entry(path, volume.name, f.block, f.size))
    if not entries:
        raise SeekplanError(f"{base}: no files on any volume")
    return Catalog(entries, str(base))


def _where(catalog: Catalog, path: str, field: str) -> str:
    """The place an entry came from, as errors name it: the CSV's line and
    column, or an LTFS volume's file and attribute."""
    line = catalog.lines.get(path)
    if line is None:
        return f"{catalog.origin}: {path}: {field}"
    return f"{catalog.origin} line {line}: column {field!r}"


def check_extents(catalog: Catalog, block_bytes: int, capacity: int, drive: str) -> None:
    """Every file fits on a ``drive`` tape of ``capacity`` blocks of
    ``block_bytes``, and no two files of one tape overlap: a file occupies
    blocks [block, block + ceil(size / block_bytes)); an empty file none.
    Sorted per tape, O(n log n); the error names the later line."""
    field = "block" if catalog.lines else "ltfs.startblock"
    per_tape: dict[str, list[tuple[int, int, str]]] = {}
    for e in catalog.by_path.values():
        end = e.block + -(-e.size // block_bytes)
        if end > capacity:
            raise SeekplanError(
                f"{_where(catalog, e.path, field)}: {e.path}: block {e.block} + {e.size} bytes "
                f"ends past the end of a {drive} tape ({capacity:,} blocks of "
                f"{block_bytes:,} bytes)"
            )
        if end > e.block:
            per_tape.setdefault(e.tape, []).append((e.block, end, e.path))
    for tape, extents in per_tape.items():
        extents.sort()
        reach, holder = -1, ""
        for start, end, path in extents:
            if start < reach:
                _overlap(catalog, tape, path, holder, field)
            if end > reach:
                reach, holder = end, path


def _overlap(catalog: Catalog, tape: str, a: str, b: str, field: str) -> NoReturn:
    """Raises the overlap of ``a`` and ``b``, named at the later CSV line."""
    la, lb = catalog.lines.get(a, 0), catalog.lines.get(b, 0)
    if la < lb:
        a, b, la, lb = b, a, lb, la
    other = f"{b} (line {lb})" if catalog.lines else b
    raise SeekplanError(f"{_where(catalog, a, field)}: {a} overlaps {other} on tape {tape}")
