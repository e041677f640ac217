"""Readers and writers for request lists, cost matrices and orders. Every
reader names the line and column of the first bad value."""

from __future__ import annotations

import csv
import gc
import io
import json
import math
import os
import re
import tempfile
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import chain, repeat
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TextIO

from seekplan.errors import SeekplanError, quote, require_path

if TYPE_CHECKING:
    import numpy as np


class Request(NamedTuple):
    """One read request: an id, its first logical block and its size in bytes.
    A named tuple rather than a dataclass: a million-row batch is built in a
    fifth of the time."""

    id: str
    block: int
    size: int


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pauses Python's cyclic garbage collector while a reader builds a
    million small objects that hold no cycles: each collection would walk all
    of them again (it tripled the time of a million-row batch)."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def requests_from_columns(
    ids: Iterable[str], blocks: Iterable[int], sizes: Iterable[int]
) -> list[Request]:
    """Requests from checked columns, built in bulk: the tuples are made
    directly (skipping the named tuple's Python-level constructor) with the
    collector paused, a third of the time of ``map(Request, ...)``."""
    with collector_paused():
        return list(map(tuple.__new__, repeat(Request), zip(ids, blocks, sizes, strict=True)))


#: The largest block or size the core's integer types hold (i64).
MAX_INT = 2**63 - 1
BOM = "\ufeff"


#: An integer cell: an optional sign and ASCII digits.
INTEGER = re.compile(r"[+-]?[0-9]+")


def int_field(value: str, name: str, where: str, minimum: int = 0) -> int:
    """Cell `value` of column `name` as an integer from `minimum` to
    :data:`MAX_INT`; errors say `where` (file and line) and the column."""
    text = value.strip()
    # ASCII digits only: Python's int() also takes "1_000" and other
    # scripts' digits, which no site's export means as a number.
    try:
        if not INTEGER.fullmatch(text):
            raise ValueError(text)
        number = int(text)  # more than 4,300 digits: ValueError
    except ValueError:
        raise SeekplanError(f"{where}: column {name!r}: {quote(value)} is not an integer") from None
    if number < 0:
        raise SeekplanError(f"{where}: column {name!r}: {number} is negative")
    if number < minimum:
        raise SeekplanError(f"{where}: column {name!r}: {number} must be at least {minimum}")
    if number > MAX_INT:
        raise SeekplanError(f"{where}: column {name!r}: {quote(number)} is larger than {MAX_INT}")
    return number


def strip_bom(lines: Iterable[str]) -> Iterator[str]:
    """``lines`` without a UTF-8 byte-order mark at the start of the first."""
    for i, line in enumerate(lines):
        yield line.removeprefix(BOM) if i == 0 else line


def check_header(header: Sequence[str], required: Sequence[str], origin: str) -> None:
    """Fails, naming line 1, on a header with a column twice or without a
    ``required`` column (csv.DictReader would silently keep the last twin)."""
    seen: set[str] = set()
    for name in header:
        if name in seen:
            raise SeekplanError(f"{origin} line 1: column {name!r} appears twice in the header")
        seen.add(name)
    missing = [c for c in required if c not in seen]
    if len(required) == 1 and missing:
        raise SeekplanError(f"{origin} line 1: missing column {required[0]!r}")
    if missing:
        raise SeekplanError(
            f"{origin} line 1: missing column(s) {', '.join(missing)}; "
            f"expected header {','.join(required)}"
        )


#: Column separators a CSV input may use: a comma, or (spreadsheets in
#: many locales write them) a semicolon or a tab.
DELIMITERS = (",", ";", "\t")


def dict_reader(lines: Iterable[str]) -> csv.DictReader[str]:
    """A CSV reader over ``lines`` (a UTF-8 BOM stripped) whose separator is
    the header's: a comma, else a semicolon or tab if the header has one and
    no comma (a semicolon-separated file read with commas is one column)."""
    it = strip_bom(lines)
    first = next(it, None)
    if first is None:
        return csv.DictReader(iter(()))
    delimiter = next((d for d in DELIMITERS if d in first), ",")
    return csv.DictReader(chain([first], it), delimiter=delimiter)


class RequestBatch(list[Request]):
    """Requests read from a file, each with the line it came from, so an
    error the core finds later (a block past the tape's end) names it."""

    def __init__(self, requests: Iterable[Request], origin: str, lines: list[int]) -> None:
        super().__init__(requests)
        self.origin = origin
        self.lines = lines

    def where(self, index: int) -> str | None:
        """``FILE line N`` of request ``index`` (0-based), if known."""
        if 0 <= index < len(self.lines):
            return f"{self.origin} line {self.lines[index]}"
        return None


def parse_requests(lines: Iterable[str], origin: str = "requests") -> RequestBatch:
    """Requests from CSV text with columns id, block, size (bytes, > 0)."""
    try:
        with collector_paused():
            return _parse_requests(dict_reader(lines), origin)
    except csv.Error as e:
        raise SeekplanError(f"{origin}: malformed CSV: {e}") from e


def csv_rows(reader: csv.DictReader[str], origin: str) -> Iterator[tuple[str, dict[str, str]]]:
    """The rows of a CSV file, each with where it is (``origin line N``); a
    row with too few or too many fields is an error naming its line (the
    reader would drop an extra field and leave a missing one None)."""
    for row in reader:
        where = f"{origin} line {reader.line_num}"
        if None in row or None in row.values():
            raise SeekplanError(f"{where}: wrong number of fields")
        yield where, row


def _parse_requests(reader: csv.DictReader[str], origin: str) -> RequestBatch:
    check_header(reader.fieldnames or [], ("id", "block", "size"), origin)
    seen: dict[str, int] = {}
    requests = []
    lines = []
    for where, row in csv_rows(reader, origin):
        rid = row["id"].strip()
        if not rid:
            raise SeekplanError(f"{where}: column 'id' is empty")
        if rid in seen:
            raise SeekplanError(f"{where}: duplicate id {rid!r} (first on line {seen[rid]})")
        seen[rid] = reader.line_num
        block = int_field(row["block"], "block", where)
        size = int_field(row["size"], "size", where, 1)
        requests.append(Request(rid, block, size))
        lines.append(reader.line_num)
    return RequestBatch(requests, origin, lines)


# Longest line a CSV input may have: a request or log row is tens of bytes, so
# a longer one is not a CSV (e.g. /dev/zero) and is refused before it fills memory.
MAX_LINE_CHARS = 1 << 20

# Largest whole-file text input (configs, JSON, device files): far above any
# real one, far below what would exhaust memory.
MAX_TEXT_CHARS = 64 << 20


def capped_lines(f: TextIO, origin: str) -> Iterator[str]:
    """The lines of an open text file, each read at most
    :data:`MAX_LINE_CHARS` + 1 characters at a time: a longer one is an
    error naming it, before it fills memory (iterating the file itself
    reads a line whole, and ``/dev/zero`` has no line break)."""
    for n, line in enumerate(iter(lambda: f.readline(MAX_LINE_CHARS + 1), ""), start=1):
        if len(line) > MAX_LINE_CHARS:
            raise SeekplanError(
                f"{origin} line {n}: longer than {MAX_LINE_CHARS:,} characters (not a CSV file?)"
            )
        yield line


def read_lines(path: str | Path) -> list[str]:
    """A text file's lines with their endings (for csv); unreadable, or a
    line longer than :data:`MAX_LINE_CHARS`, is an error naming the line."""
    p = require_path(path, "file")
    try:
        with p.open(newline="", encoding="utf-8-sig") as f:
            return list(capped_lines(f, str(p)))
    except (OSError, UnicodeDecodeError) as e:
        raise SeekplanError(f"cannot read {p}: {e}") from e


def read_text(path: str | Path, what: str = "file", limit: int = MAX_TEXT_CHARS) -> str:
    """A whole text file of at most ``limit`` characters; unreadable or
    larger is an error naming the file (OSError and UnicodeDecodeError
    become SeekplanError)."""
    p = require_path(path, what)
    try:
        with p.open(encoding="utf-8") as f:
            text = f.read(limit + 1)
    except (OSError, UnicodeDecodeError) as e:
        raise SeekplanError(f"{p}: cannot read the {what} ({e})") from e
    if len(text) > limit:
        raise SeekplanError(f"{p}: larger than {limit:,} characters; not a {what}")
    return text


def parse_json(text: str, origin: str) -> Any:
    """``json.loads(text)``; what it raises besides a syntax error (a
    document nested past the recursion limit, an integer past Python's digit
    limit) becomes a SeekplanError naming ``origin``, and so does a key
    given twice in one object (json.loads keeps the last and drops the
    first: a tape or file listed twice in dCache's JSON went unnoticed). A
    syntax error (JSONDecodeError) passes through, for callers that name its
    line or read the text another way."""

    def unique(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        data = dict(pairs)
        if len(data) != len(pairs):
            seen: set[str] = set()
            for key, _ in pairs:
                if key in seen:
                    raise SeekplanError(f"{origin}: key {quote(key)} appears twice in one object")
                seen.add(key)
        return data

    try:
        return json.loads(text, object_pairs_hook=unique)
    except json.JSONDecodeError:
        raise
    except RecursionError:
        raise SeekplanError(f"{origin}: nested too deeply to be JSON input") from None
    except ValueError as e:
        raise SeekplanError(f"{origin}: not valid JSON ({e})") from None


#: Most rows read from a Parquet file: ten times the largest batch the
#: project times (a million requests). Parquet stores a column of zeros in
#: almost nothing, so a 4 MB file declared 300 million rows, which reading
#: would have made 7 GB of columns (and more as Python values).
MAX_PARQUET_ROWS = 10_000_000


def read_parquet(path: Path, failure: str) -> Any:
    """A Parquet file's table (pyarrow), its row count checked against
    :data:`MAX_PARQUET_ROWS` and its columns for twins before any column
    is read; a file pyarrow cannot read is a SeekplanError starting with
    ``failure``."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        parquet = pq.ParquetFile(path)
        names = parquet.schema_arrow.names
        twice = next((n for i, n in enumerate(names) if n in names[:i]), None)
        if twice is not None:
            # pyarrow's own error lists the whole schema on many lines.
            raise SeekplanError(f"{path}: column {twice!r} appears twice")
        rows = parquet.metadata.num_rows
        if rows > MAX_PARQUET_ROWS:
            raise SeekplanError(
                f"{path}: declares {rows:,} rows, more than {MAX_PARQUET_ROWS:,}; split it"
            )
        return pq.read_table(path)
    except (OSError, pa.ArrowException) as e:
        raise SeekplanError(f"{failure}: {e}") from e


def parquet_rows(
    table: Any, columns: Sequence[str], origin: str
) -> Iterator[tuple[str, dict[str, Any]]]:
    """The rows of a Parquet table's ``columns`` as dicts, each with where
    it is (``origin row N``, 1-based); a value Python cannot hold (a
    timestamp past year 9999) is an error naming ``origin``."""
    import pyarrow as pa

    n = 0
    for batch in table.select(list(columns)).to_batches():
        try:
            rows = batch.to_pylist()
        except (OverflowError, ValueError, pa.ArrowException) as e:
            raise SeekplanError(f"{origin}: a value cannot be read ({e})") from None
        for row in rows:
            n += 1
            yield f"{origin} row {n}", row


def read_requests(path: str | Path) -> RequestBatch:
    """Requests from a CSV file (see :func:`parse_requests`)."""
    return parse_requests(read_lines(path), str(path))


# Bytes of a CSV matrix handed to the core at a time: the file is parsed
# as it is read, so it never sits in memory beside the matrix.
MATRIX_CHUNK = 8 << 20
MATRIX_DTYPES = ("float64", "float32")


# CSV matrices up to this size come back as lists of rows: numpy's import
# (50-90 ms) would cost more than the whole order of a small matrix.
SMALL_MATRIX_BYTES = 1 << 20


def _parse_csv(chunks: Iterable[bytes], origin: str, rows: bool) -> Any:
    """The matrix the core parses from CSV ``chunks``: lists of rows when
    ``rows``, else a float64 array."""
    from seekplan import _core

    reader = _core.MatrixReader()
    try:
        for chunk in chunks:
            reader.feed(chunk)
        return reader.finish_rows() if rows else reader.finish()
    except ValueError as e:
        raise SeekplanError(f"{origin}: {e}") from None


def parse_matrix(lines: Iterable[str], origin: str = "matrix") -> list[list[float]]:
    """A square matrix of seconds from CSV text without a header."""
    rows: list[list[float]] = _parse_csv((line.encode() for line in lines), origin, rows=True)
    return rows


def as_matrix(array: np.ndarray, origin: str = "matrix") -> np.ndarray:
    """``array`` checked as a square float32/float64 cost matrix, C-ordered
    (a Fortran-ordered or strided array is copied once; any other is lent
    to the core as it is)."""
    if array.dtype.name not in MATRIX_DTYPES:
        raise SeekplanError(
            f"{origin}: dtype {array.dtype} is not a float32 or float64 matrix "
            "(convert it with .astype(numpy.float64))"
        )
    if array.ndim != 2 or array.shape[0] != array.shape[1]:
        raise SeekplanError(f"{origin}: shape {array.shape} is not a square matrix")
    if array.shape[0] == 0:
        raise SeekplanError(f"{origin}: is empty")
    import numpy as np

    return np.ascontiguousarray(array)


def read_matrix(path: str | Path) -> np.ndarray | list[list[float]]:
    """A square cost matrix from ``.npy`` (float32/float64, memory-mapped, not
    copied) or CSV without a header (parsed by the core as it is read; a
    small one as lists of rows, see :data:`SMALL_MATRIX_BYTES`)."""
    p = Path(path)
    try:
        if p.suffix.lower() == ".npy":
            import numpy as np

            try:
                array = np.load(p, mmap_mode="r", allow_pickle=False)
            except (ValueError, EOFError) as e:
                # EOFError: an empty or cut-short file.
                raise SeekplanError(f"{p}: not a numeric .npy matrix ({e})") from None
            return as_matrix(array, str(p))
        with p.open("rb") as f:
            small = os.fstat(f.fileno()).st_size <= SMALL_MATRIX_BYTES
            matrix: np.ndarray | list[list[float]] = _parse_csv(
                iter(lambda: f.read(MATRIX_CHUNK), b""), str(p), rows=small
            )
            return matrix
    except OSError as e:
        raise SeekplanError(f"cannot read {p}: {e}") from e


def check_costs(costs: Sequence[Sequence[float]], origin: str = "matrix") -> None:
    """Fails unless every cost is a finite time >= 0 (naming row and column)
    and a path through all nodes stays finite: the sum of the row maxima
    bounds every order's total, so it must not overflow to infinity."""
    for i, row in enumerate(costs, start=1):
        for j, v in enumerate(row, start=1):
            if not math.isfinite(v) or v < 0:
                raise SeekplanError(f"{origin} row {i} column {j}: {v} must be a finite time >= 0")
    if not math.isfinite(sum(max(row, default=0.0) for row in costs)):
        raise SeekplanError(
            f"{origin}: costs too large: a total over them overflows to infinity; rescale them"
        )


ORDER_COLUMNS = ("rank", "id", "block", "size", "start_s", "end_s")


def _probe(directory: Path, shown: str) -> None:
    try:
        with tempfile.TemporaryFile(dir=directory):
            pass
    except OSError as e:
        raise SeekplanError(f"{shown}: cannot write in {directory}: {e.strerror or e}") from e


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` name one file (through links too), existing or not."""
    if a.resolve() == b.resolve():
        return True
    try:
        return a.samefile(b)
    except OSError:
        return False


def output_file(
    path: str | Path, option: str = "--out", inputs: Iterable[str | Path | None] = ()
) -> Path:
    """Checks, before any work, that ``path`` can be written as a file: not a
    directory, device, FIFO or socket, not one of the command's ``inputs``
    (writing the result over the requests it was computed from would lose
    them; an earlier output counts as an input), its directory creatable
    and writable. Names ``option``."""
    p = Path(path)
    shown = f"{option} {p}"
    if p.is_dir():
        raise SeekplanError(f"{shown}: is a directory; expected a file name")
    if p.exists() and not p.is_file():
        # The result is renamed into place: that would replace a device,
        # FIFO or socket (as root, /dev/full or /dev/stdout) with a file.
        raise SeekplanError(
            f"{shown}: is not a regular file (a device, FIFO or socket); "
            "expected a file name to write"
        )
    for given in inputs:
        if given is not None and _same_file(p, Path(given)):
            raise SeekplanError(f"{shown}: is also {given}; writing it would overwrite that")
    parent = p.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SeekplanError(f"{shown}: cannot create {parent}: {e.strerror or e}") from e
    _probe(parent, shown)
    return p


def output_dir(path: str | Path, option: str = "--out") -> Path:
    """Checks, before any work, that ``path`` is (or can be made) a writable
    directory. Names ``option``."""
    p = Path(path)
    shown = f"{option} {p}"
    if p.exists() and not p.is_dir():
        raise SeekplanError(f"{shown}: is a file; expected a directory")
    try:
        p.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise SeekplanError(f"{shown}: cannot create the directory: {e.strerror or e}") from e
    _probe(p, shown)
    return p


def non_finite_field(data: object, where: str = "") -> str | None:
    """The key path of the first NaN or infinity in ``data``, if any."""
    if isinstance(data, float) and not math.isfinite(data):
        return where or "value"
    if isinstance(data, dict):
        items: Iterable[tuple[object, object]] = data.items()
    elif isinstance(data, list | tuple):
        items = enumerate(data)
    else:
        return None
    for key, value in items:
        found = non_finite_field(value, f"{where}.{key}" if where else str(key))
        if found:
            return found
    return None


def _nan_to_null(data: object) -> object:
    if isinstance(data, float) and math.isnan(data):
        return None
    if isinstance(data, dict):
        return {k: _nan_to_null(v) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [_nan_to_null(v) for v in data]
    return data


def to_json(data: object, indent: int | None = None, nan_as_null: bool = False) -> str:
    """JSON text of ``data``. Infinity (not JSON; an overflow, never a result)
    is an error naming the field, never written as ``Infinity``; so is NaN,
    unless ``nan_as_null`` writes it as ``null`` (a statistic that is
    undefined, such as the spread of a single run)."""
    if nan_as_null:
        data = _nan_to_null(data)
    try:
        return json.dumps(data, indent=indent, allow_nan=False)
    except ValueError as e:
        field = non_finite_field(data)
        if field is None:
            raise
        raise SeekplanError(
            f"result field {field!r} is not a finite number; refusing to write invalid JSON"
        ) from e


def write_atomic(path: str | Path, text: str | bytes) -> None:
    """Writes ``text`` (or bytes) to ``path`` through a temporary in the same
    directory and a rename, so an interrupted run never leaves half a file; on
    failure the temporary is removed and a SeekplanError names ``path``."""
    p = Path(path)
    tmp: Path | None = p.with_name(f".{p.name}.{os.getpid()}.tmp")
    try:
        if isinstance(text, bytes):
            tmp.write_bytes(text)  # type: ignore[union-attr]
        else:
            with tmp.open("w", newline="") as f:  # type: ignore[union-attr]
                f.write(text)
        os.replace(tmp, p)  # type: ignore[arg-type]
        tmp = None
    except OSError as e:
        raise SeekplanError(f"cannot write {p}: {e.strerror or e}") from e
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)


def write_order(path: str | Path, rows: Sequence[dict[str, object]]) -> None:
    """Writes an order CSV (columns rank,id,block,size,start_s,end_s) atomically."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=ORDER_COLUMNS, extrasaction="ignore")
    w.writeheader()
    w.writerows(rows)
    write_atomic(path, buf.getvalue())


def write_row(path: str | Path, row: dict[str, object]) -> None:
    """Writes one record as a CSV with a header row, atomically; ``None`` is
    written as an empty cell."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=list(row))
    w.writeheader()
    w.writerow({k: "" if v is None else v for k, v in row.items()})
    write_atomic(path, buf.getvalue())


def write_json(path: str | Path, data: object) -> None:
    """Writes JSON atomically (see :func:`write_atomic`): NaN, which result
    files use for an undefined statistic, as ``null``; infinity is an error
    (see :func:`to_json`)."""
    write_atomic(path, to_json(data, indent=2, nan_as_null=True) + "\n")
