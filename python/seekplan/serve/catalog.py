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
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

import numpy as np
import pyarrow as pa

from seekplan.errors import SeekplanError, quote
from seekplan.io import MAX_INT, MAX_LINE_CHARS, capped_lines, check_header, dict_reader
from seekplan.serve.db import NAME_MAX, name_too_long
from seekplan.serve.path_index import PathIndex

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
    log line, or None: a control character, bytes that are not UTF-8, or a
    ``..`` segment."""
    bad = _CONTROL.search(path)
    if bad is not None:
        return f"{quote(path)} contains a control character ({bad.group()!r})"
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        # A file name of bytes that are not UTF-8 (read from a volume as
        # surrogate escapes): a request body is UTF-8 JSON, so no client can
        # name it, and the catalog's Arrow array cannot hold it.
        return f"{quote(path)} is not valid UTF-8"
    if ".." in path.split("/"):
        return f"{quote(path)} contains a '..' segment"
    return None


@dataclass(frozen=True)
class Found:
    """What :meth:`Catalog.lookup` found of each path: its catalog row, its
    tape's name and index, first block and size; -1, None, -1, any and -1
    for a path not catalogued."""

    row: list[int]
    tape: list[str | None]
    tape_index: list[int]
    block: list[int]
    size: list[int]


class Catalog:
    """The catalog, kept by column: the paths by row (a
    :class:`~seekplan.serve.path_index.PathIndex`), and per row the tape (its
    index in ``tapes``, first seen first), first block and size. ``origin``
    (its file) and :meth:`line` name where an entry came from."""

    def __init__(
        self,
        paths: pa.Array | pa.ChunkedArray | Sequence[str],
        tape_of: np.ndarray,
        block: np.ndarray,
        size: np.ndarray,
        tapes: list[str],
        origin: str = "catalog",
        lines: Callable[[], dict[str, int]] | None = None,
    ) -> None:
        self.origin = origin
        self.index = PathIndex(paths)
        #: Per row: the index of its tape in ``tapes``, first block, size.
        self.tape_of = tape_of
        self.block = block
        self.size = size
        self.tapes = tapes
        self.tape_index: dict[str, int] = {t: i for i, t in enumerate(tapes)}
        self._line_source = lines
        self._lines: dict[str, int] | None = None

    @classmethod
    def of(
        cls, entries: Iterable[Entry], origin: str = "catalog", lines: dict[str, int] | None = None
    ) -> Catalog:
        """A catalog of ``entries`` (paths unique), with their CSV lines if any."""
        paths: list[str] = []
        tape_index: dict[str, int] = {}
        tape_of: list[int] = []
        block: list[int] = []
        size: list[int] = []
        for e in entries:
            paths.append(e.path)
            tape_of.append(tape_index.setdefault(e.tape, len(tape_index)))
            block.append(e.block)
            size.append(e.size)
        return cls(
            paths,
            np.array(tape_of, dtype=np.int64),
            np.array(block, dtype=np.int64),
            np.array(size, dtype=np.int64),
            list(tape_index),
            origin,
            (lambda: lines) if lines is not None else None,
        )

    def __len__(self) -> int:
        return len(self.index)

    def path(self, row: int) -> str:
        """The path of catalog row ``row``."""
        return self.index.path(row)

    def all_paths(self) -> list[str]:
        """Every catalogued path, in row order."""
        return self.index.all_paths()

    def row_of(self, path: str) -> int | None:
        """The catalog row of a (sanitised) path, or None."""
        return self.index.row(path)

    def lookup(self, paths: Sequence[str]) -> Found:
        """Many paths' tapes, blocks and sizes at once, as Python values (one
        numpy gather per column: an element at a time cost a fifth of a
        stage request's time)."""
        rows = self.rows(paths)
        known = rows >= 0
        at = np.where(known, rows, 0)
        tape_index = np.where(known, self.tape_of[at], -1).tolist()
        return Found(
            rows.tolist(),
            [self.tapes[t] if t >= 0 else None for t in tape_index],
            tape_index,
            self.block[at].tolist(),
            np.where(known, self.size[at], -1).tolist(),
        )

    def rows(self, paths: Sequence[str]) -> np.ndarray:
        """The catalog rows of ``paths`` (-1 for a path not catalogued)."""
        return self.index.rows(paths)

    def get(self, path: str) -> Entry | None:
        """The entry of a (sanitised) path, or None."""
        i = self.row_of(path)
        if i is None:
            return None
        return Entry(path, self.tapes[self.tape_of[i]], int(self.block[i]), int(self.size[i]))

    @property
    def has_lines(self) -> bool:
        """Whether entries came from CSV lines (else from LTFS volumes)."""
        return self._line_source is not None

    def line_map(self) -> dict[str, int]:
        """Every path's CSV line (empty for a catalog of LTFS volumes)."""
        if self._lines is None:
            self._lines = self._line_source() if self._line_source is not None else {}
        return self._lines

    def line(self, path: str) -> int | None:
        """The CSV line ``path`` was read from (found again on the first
        call: only errors need it), or None for a catalog of LTFS volumes."""
        return self.line_map().get(path)


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
    reader = dict_reader(lines)
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
            if too_long := name_too_long(tape):
                raise SeekplanError(f"{where}: column 'tape': {too_long}")
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
    return Catalog.of(entries.values(), origin, line_of)


def load_catalog(path: str | Path) -> Catalog:
    """Reads a catalog CSV file: Arrow's CSV reader and checks by column
    (a million files in a second or two; issue 35 measured 47.5 s for 1.1
    million read line by line), or, for a file the fast path cannot vouch
    for, line by line, whose error names the line and column."""
    p = Path(path)
    fast = _fast_catalog(p)
    # Arrow's allocator (mimalloc) keeps the pages of the table it read once
    # it is gone: giving them back took a 1,000,000-file catalog's resident
    # set from 495 to 318 MB (the 1,000,000-file catalog bench_serve_wlcg.py
    # writes, RSS after load_catalog, 2026-11-28).
    _arrow_pool_release()
    if fast is not None:
        return fast
    return _slow_catalog(p)


def _arrow_pool_release() -> None:
    import pyarrow as pa

    pa.default_memory_pool().release_unused()


def _slow_catalog(p: Path) -> Catalog:
    try:
        with p.open(newline="", encoding="utf-8") as f:
            return parse_catalog(capped_lines(f, str(p)), str(p))
    except (OSError, UnicodeDecodeError) as e:
        raise SeekplanError(f"{p}: cannot read ({e})") from None


def _fast_catalog(p: Path) -> Catalog | None:
    """The catalog if Arrow reads ``p`` and every row passes every check
    by column, else None (the line-by-line reader then names the problem)."""
    import pyarrow as pa
    import pyarrow.compute as pc
    from pyarrow import csv as pacsv

    types = {"path": pa.string(), "tape": pa.string(), "block": pa.int64(), "size": pa.int64()}
    try:
        with p.open("rb") as f:
            head = f.readline(MAX_LINE_CHARS + 1)
        if head.startswith(b"\xef\xbb\xbf") or head.rstrip(b"\r\n").decode() != ",".join(COLUMNS):
            return None  # a BOM, other or more columns: the reader checks them
        table = pacsv.read_csv(
            p,
            parse_options=pacsv.ParseOptions(newlines_in_values=False),
            convert_options=pacsv.ConvertOptions(
                column_types=types, strings_can_be_null=False, quoted_strings_can_be_null=False
            ),
        )
    except (OSError, UnicodeDecodeError, pa.ArrowException):
        return None
    if table.num_rows == 0 or any(table.column(c).null_count for c in COLUMNS):
        return None
    path, tape = table.column("path"), table.column("tape")
    block, size = table.column("block"), table.column("size")
    bad = pc.or_(
        pc.invert(pc.starts_with(path, "/")),
        # A control character, a '..' segment, or anything sanitise() would
        # change (doubled or trailing slashes, surrounding blanks).
        pc.match_substring_regex(path, r"[\x00-\x1f\x7f]|//|(^|/)\.\.(/|$)|./$|\s$"),
    )
    bad = pc.or_(bad, pc.match_substring_regex(tape, r"^$|^\s|\s$"))
    bad = pc.or_(bad, pc.greater(pc.utf8_length(tape), NAME_MAX))
    bad = pc.or_(bad, pc.or_(pc.less(block, 0), pc.less(size, 0)))
    if pc.any(bad).as_py() or pc.count_distinct(path).as_py() != table.num_rows:
        return None
    names = pc.unique(tape)
    tape_of = pc.index_in(tape, value_set=names).to_numpy()
    # First-seen order, as the line-by-line reader numbers tapes.
    first = np.full(len(names), table.num_rows, dtype=np.int64)
    np.minimum.at(first, tape_of, np.arange(table.num_rows))
    order = np.argsort(first, kind="stable")
    renumber = np.empty_like(order)
    renumber[order] = np.arange(len(order))
    tapes = [names[int(i)].as_py() for i in order]
    return Catalog(
        path,
        renumber[tape_of].astype(np.int64),
        block.to_numpy().astype(np.int64),
        size.to_numpy().astype(np.int64),
        tapes,
        str(p),
        lambda: _slow_catalog(p).line_map(),
    )


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
        if too_long := name_too_long(volume.name):
            raise SeekplanError(f"{volume}: a volume name of {too_long}")
        for f in scan(volume):
            if f.link is None and f.partition == DATA_PARTITION:
                path = sanitise(f"{prefix}/{volume.name}/{f.path}")
                problem = path_problem(path)
                if problem is not None:
                    raise SeekplanError(f"{volume / f.path}: {problem}")
                entries.append(Entry(path, volume.name, f.block, f.size))
    if not entries:
        raise SeekplanError(f"{base}: no files on any volume")
    return Catalog.of(entries, str(base))


def _where(catalog: Catalog, path: str, field: str) -> str:
    """The place an entry came from, as errors name it: the CSV's line and
    column, or an LTFS volume's file and attribute."""
    line = catalog.line(path)
    if line is None:
        return f"{catalog.origin}: {path}: {field}"
    return f"{catalog.origin} line {line}: column {field!r}"


def check_extents(catalog: Catalog, block_bytes: int, capacity: int, drive: str) -> None:
    """Every file fits on a ``drive`` tape of ``capacity`` blocks of
    ``block_bytes``, and no two files of one tape overlap: a file occupies
    blocks [block, block + ceil(size / block_bytes)); an empty file none.
    By column, sorted per tape: O(n log n); the error names the later line."""
    field = "block" if catalog.has_lines else "ltfs.startblock"
    end = catalog.block + -(-catalog.size // block_bytes)
    past = np.flatnonzero(end > capacity)
    if past.size:
        i = int(past[0])
        e = catalog.path(i)
        raise SeekplanError(
            f"{_where(catalog, e, field)}: {e}: block {catalog.block[i]} + {catalog.size[i]} "
            f"bytes ends past the end of a {drive} tape ({capacity:,} blocks of "
            f"{block_bytes:,} bytes)"
        )
    rows = np.flatnonzero(end > catalog.block)
    if rows.size < 2:
        return
    tape = catalog.tape_of[rows]
    order = rows[np.lexsort((end[rows], catalog.block[rows], tape))]
    # Each tape's extents shifted past every earlier tape's: one running
    # maximum of the ends then serves all tapes at once.
    shift = catalog.tape_of[order] * (int(end.max()) + 1)
    start, stop = catalog.block[order] + shift, end[order] + shift
    reach = np.maximum.accumulate(stop)
    clash = np.flatnonzero(start[1:] < reach[:-1])
    if clash.size:
        k = int(clash[0]) + 1
        holder = int(np.argmax(stop[:k] == reach[k - 1]))
        a, b = catalog.path(int(order[k])), catalog.path(int(order[holder]))
        _overlap(catalog, catalog.tapes[catalog.tape_of[order[k]]], a, b, field)


def _overlap(catalog: Catalog, tape: str, a: str, b: str, field: str) -> NoReturn:
    """Raises the overlap of ``a`` and ``b``, named at the later CSV line."""
    la, lb = catalog.line(a) or 0, catalog.line(b) or 0
    if la < lb:
        a, b, la, lb = b, a, lb, la
    other = f"{b} (line {lb})" if catalog.has_lines else b
    raise SeekplanError(f"{_where(catalog, a, field)}: {a} overlaps {other} on tape {tape}")
