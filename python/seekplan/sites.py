"""The files tape sites already keep, read as seekplan's inputs (issue 19):
Parquet request batches and orders, CTA's ``cta-admin --json tapefile ls``
listing of one tape, and dCache's tape-info files (the SRM tape-recall
scheduler's ``tapes`` and ``tapefiles``, CSV or JSON). Every reader names
the file and the line, row or entry that is wrong.

Field names come from the projects' own code:

- CTA: ``TapeFileLsItem`` in ``cta_admin.proto`` (``af.size``, ``df.path``,
  ``tf.vid``, ``tf.block_id``, ``tf.f_seq``), printed by ``cta-admin --json``
  through protobuf's JSON mapping (lowerCamelCase keys, 64-bit integers as
  strings); both spellings and both number forms are accepted.
- dCache: ``org.dcache.srm.taperecallscheduling.tapeinfoprovider`` —
  ``CsvFileTapeInfoProvider`` reads ``tapes.txt`` lines ``name,capacity,filled``
  and ``tapefiles.txt`` lines ``path,size,tapename`` (no header; dots are
  stripped from the numbers), ``JsonFileTapeInfoProvider`` reads
  ``{"NAME": {"capacity": C, "filled": F}}`` and
  ``{"PATH": {"size": S, "tapeid": "NAME"}}``. Sizes are in kB there.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from seekplan.errors import SeekplanError, quote

if TYPE_CHECKING:
    import numpy as np
from seekplan.io import (
    MAX_INT,
    Request,
    parse_json,
    read_lines,
    read_parquet,
    read_requests,
    read_text,
    requests_from_columns,
    write_atomic,
)

#: Request-batch formats `seekplan order --format` names.
REQUEST_FORMATS = ("csv", "parquet", "cta-tapefile")

#: Bytes in dCache's "kB" [choice: SI, 1,000; dCache's code says only "KB",
#: and 2.4 % either way does not change which tape or file comes first].
DCACHE_KB = 1_000

#: Bytes per logical block CTA writes [choice: 256 KiB, CTA's usual tape
#: block size; `--cta-block-bytes` for a site that writes others].
CTA_BLOCK_BYTES = 262_144
#: Largest block size `--cta-block-bytes` takes: a tape block is at most a few
#: MiB (LTFS writes 512 KiB); 1 GiB leaves room for any drive and refuses a
#: typo of a few more digits.
MAX_CTA_BLOCK_BYTES = 1 << 30


def request_format(path: Path, given: str = "auto") -> str:
    """The format of a request batch: `given`, or guessed from the name
    (.parquet: Parquet, .json: CTA's tapefile listing, else CSV)."""
    if given != "auto":
        if given not in REQUEST_FORMATS:
            raise SeekplanError(
                f"--format: unknown {given!r}; choose auto or one of {', '.join(REQUEST_FORMATS)}"
            )
        return given
    suffix = path.suffix.lower()
    return {".parquet": "parquet", ".pq": "parquet", ".json": "cta-tapefile"}.get(suffix, "csv")


def _parquet_columns(path: Path, columns: tuple[str, ...]) -> dict[str, Any]:
    """The named columns of a Parquet file (pyarrow arrays); errors name it."""
    table = read_parquet(path, f"cannot read {path} as Parquet")
    missing = [c for c in columns if c not in table.column_names]
    if missing:
        raise SeekplanError(f"{path}: missing column(s) {', '.join(missing)}")
    return {c: table.column(c) for c in columns}


def _whole_column(path: Path, name: str, column: Any, minimum: int) -> np.ndarray:
    """An integer column as int64, each value in [minimum, 2^63-1] (the
    first bad row named)."""
    import numpy as np
    import pyarrow as pa

    if column.null_count:
        row = int(np.flatnonzero(column.is_null().to_numpy(zero_copy_only=False))[0]) + 1
        raise SeekplanError(f"{path} row {row}: column {name!r} is empty")
    kind = column.type
    if not (pa.types.is_integer(kind) or pa.types.is_floating(kind)):
        raise SeekplanError(f"{path}: column {name!r} holds {kind}, not whole numbers")
    values = column.to_numpy()
    bad = values < minimum
    if values.dtype.kind == "f":
        bad |= ~np.isfinite(values) | (values != np.floor(values)) | (values >= 2.0**63)
    elif values.dtype.kind == "u":
        bad |= values > MAX_INT
    if bad.any():
        row = int(np.flatnonzero(bad)[0]) + 1
        raise SeekplanError(
            f"{path} row {row}: column {name!r}: {values[row - 1]} is not a whole number "
            f"between {minimum} and {MAX_INT}"
        )
    return values.astype(np.int64)


def _id_column(path: Path, column: Any) -> list[str]:
    """Request ids as text, trimmed; empty or repeated ids name their row."""
    import numpy as np
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        text = pc.utf8_trim_whitespace(column.cast(pa.string()))
    except pa.ArrowException as e:
        raise SeekplanError(f"{path}: column 'id' cannot be read as text ({e})") from None
    empty = pc.or_kleene(pc.is_null(text), pc.equal(pc.utf8_length(text), 0))
    if pc.any(empty).as_py():
        row = int(np.flatnonzero(empty.to_numpy(zero_copy_only=False))[0]) + 1
        raise SeekplanError(f"{path} row {row}: column 'id' is empty")
    ids = text.to_pylist()
    if len(set(ids)) != len(ids):
        first: dict[str, int] = {}
        for row, rid in enumerate(ids, start=1):
            if first.setdefault(rid, row) != row:
                raise SeekplanError(
                    f"{path} row {row}: duplicate id {rid!r} (first on row {first[rid]})"
                )
    return ids


def read_parquet_requests(path: str | Path) -> list[Request]:
    """A request batch from Parquet columns id (any type, shown as text),
    block and size (whole numbers); ids must be unique and non-empty."""
    p = Path(path)
    cols = _parquet_columns(p, ("id", "block", "size"))
    block = _whole_column(p, "block", cols["block"], 0)
    size = _whole_column(p, "size", cols["size"], 1)
    ids = _id_column(p, cols["id"])
    return requests_from_columns(ids, block.tolist(), size.tolist())


def write_parquet(path: str | Path, rows: list[dict[str, object]]) -> None:
    """Writes rows of one shape (e.g. an order) as a Parquet table, atomically."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    sink = pa.BufferOutputStream()
    pq.write_table(pa.Table.from_pylist(rows), sink)
    write_atomic(path, sink.getvalue().to_pybytes())


@dataclass(frozen=True)
class CtaFile:
    """One file of CTA's tape listing: where it sits and what it is."""

    fseq: int
    block_id: int
    size: int
    path: str
    vid: str


def _field(item: dict[str, Any], *names: str) -> Any:
    """The first of ``names`` (a protobuf field in either JSON spelling) present."""
    for name in names:
        if name in item:
            return item[name]
    return None


def _cta_number(value: Any, where: str, what: str, minimum: int) -> int:
    """A protobuf 64-bit number (JSON number or decimal string)."""
    if value is None:
        raise SeekplanError(f"{where}: {what} is missing")
    if isinstance(value, bool):
        raise SeekplanError(f"{where}: {what} {quote(value)} is not a whole number >= {minimum}")
    try:
        number = int(value) if isinstance(value, int | str) else math.nan
    except ValueError:
        number = math.nan
    if isinstance(value, float) and value.is_integer():
        number = int(value)
    if not isinstance(number, int) or not minimum <= number <= MAX_INT:
        raise SeekplanError(f"{where}: {what} {quote(value)} is not a whole number >= {minimum}")
    return number


def read_cta_tapefiles(path: str | Path) -> list[CtaFile]:
    """The files of ``cta-admin --json tapefile ls --vid V``: a JSON array of
    items (or one JSON item per line), each with ``af``, ``df`` and ``tf``."""
    p = Path(path)
    text = read_text(p, "CTA tapefile listing")
    try:
        data = parse_json(text, str(p))
        items = data if isinstance(data, list) else [data]
        lines = None
    except json.JSONDecodeError:
        lines = text.splitlines()
        items = []
        for n, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                items.append((n, parse_json(line, f"{p} line {n}")))
            except json.JSONDecodeError as e:
                raise SeekplanError(f"{p} line {n}: not JSON ({e.msg})") from None
    files = []
    for i, entry in enumerate(items, start=1):
        n, item = entry if lines is not None else (i, entry)
        where = f"{p} line {n}" if lines is not None else f"{p} item {n}"
        if not isinstance(item, dict):
            raise SeekplanError(f"{where}: expected an object with af, df and tf")
        af, df, tf = item.get("af"), item.get("df"), item.get("tf")
        if not (isinstance(af, dict) and isinstance(df, dict) and isinstance(tf, dict)):
            raise SeekplanError(f"{where}: expected objects 'af', 'df' and 'tf'")
        files.append(
            CtaFile(
                fseq=_cta_number(_field(tf, "fSeq", "f_seq"), where, "tf.fSeq", 1),
                block_id=_cta_number(_field(tf, "blockId", "block_id"), where, "tf.blockId", 0),
                size=_cta_number(af.get("size"), where, "af.size", 1),
                path=str(df.get("path") or ""),
                vid=str(tf.get("vid") or ""),
            )
        )
    if not files:
        raise SeekplanError(f"{p}: no files in the listing")
    vids = sorted({f.vid for f in files})
    if len(vids) > 1:
        raise SeekplanError(f"{p}: files of several tapes ({', '.join(vids)}); give one tape's")
    seqs: dict[int, int] = {}
    for i, f in enumerate(files, start=1):
        if seqs.setdefault(f.fseq, i) != i:
            raise SeekplanError(f"{p} item {i}: fSeq {f.fseq} twice (first: item {seqs[f.fseq]})")
    return files


def cta_requests(
    files: list[CtaFile], drive_block_bytes: int, cta_block_bytes: int = CTA_BLOCK_BYTES
) -> list[Request]:
    """CTA's files as requests on the drive model's blocks, in fSeq order,
    each named by its fSeq (a file starts at blockId CTA blocks)."""
    if cta_block_bytes < 1:
        raise SeekplanError(f"--cta-block-bytes: must be positive, got {cta_block_bytes}")
    ordered = sorted(files, key=lambda f: f.fseq)
    return [
        Request(str(f.fseq), f.block_id * cta_block_bytes // drive_block_bytes, f.size)
        for f in ordered
    ]


def read_request_batch(
    path: str | Path,
    fmt: str = "auto",
    drive_block_bytes: int | None = None,
    cta_block_bytes: int = CTA_BLOCK_BYTES,
) -> list[Request]:
    """A request batch in any of :data:`REQUEST_FORMATS` (CTA listings need
    the drive model's block size to place files)."""
    p = Path(path)
    kind = request_format(p, fmt)
    if kind == "parquet":
        return read_parquet_requests(p)
    if kind == "cta-tapefile":
        if drive_block_bytes is None:
            raise SeekplanError("a CTA tapefile listing needs the drive's block size")
        return cta_requests(read_cta_tapefiles(p), drive_block_bytes, cta_block_bytes)
    return read_requests(p)


@dataclass(frozen=True)
class DcacheFile:
    """One line of dCache's tapefiles: a file, its size in bytes and its tape."""

    path: str
    size: int
    tape: str


def _dcache_number(text: Any, where: str, what: str) -> int:
    """A dCache size in kB (JSON number, or CSV text with '.' separators
    stripped as dCache does) as bytes."""
    if isinstance(text, bool):
        raise SeekplanError(f"{where}: {what} {text!r} is not a number")
    if isinstance(text, int | float):
        value = float(text)
    else:
        try:
            value = float(str(text).strip().replace(".", ""))
        except ValueError:
            raise SeekplanError(f"{where}: {what} {quote(text)} is not a number") from None
    if not math.isfinite(value) or value < 0 or value * DCACHE_KB > MAX_INT:
        raise SeekplanError(f"{where}: {what} {quote(text)} is out of range")
    return int(value * DCACHE_KB)


def _dcache_entries(path: Path, keys: tuple[str, str]) -> list[tuple[str, str, Any, Any]]:
    """(where, name, first, second) per entry of a dCache tape-info file,
    CSV (.txt, .csv) or JSON."""
    out = []
    if path.suffix.lower() == ".json":
        try:
            data = parse_json(read_text(path, "dCache tape-info file"), str(path))
        except json.JSONDecodeError as e:
            raise SeekplanError(f"{path} line {e.lineno}: not JSON ({e.msg})") from None
        if not isinstance(data, dict):
            raise SeekplanError(f"{path}: expected an object keyed by name")
        for name, entry in data.items():
            where = f"{path} entry {name!r}"
            if not isinstance(entry, dict) or any(k not in entry for k in keys):
                raise SeekplanError(f"{where}: expected an object with {keys[0]!r} and {keys[1]!r}")
            out.append((where, name, entry[keys[0]], entry[keys[1]]))
        return out
    for n, line in enumerate(read_lines(path), start=1):
        if not line.strip():
            continue
        parts = line.strip().split(",")
        if len(parts) != 3:
            raise SeekplanError(f"{path} line {n}: expected 3 fields, got {len(parts)}")
        out.append((f"{path} line {n}", parts[0].strip(), parts[1], parts[2].strip()))
    return out


def read_dcache_tapes(path: str | Path) -> dict[str, tuple[int, int]]:
    """dCache's tapes file: tape name -> (capacity, filled) in bytes."""
    p = Path(path)
    tapes: dict[str, tuple[int, int]] = {}
    for where, name, capacity, filled in _dcache_entries(p, ("capacity", "filled")):
        if not name:
            raise SeekplanError(f"{where}: empty tape name")
        if name in tapes:
            raise SeekplanError(f"{where}: tape {name!r} listed twice")
        cap = _dcache_number(capacity, where, "capacity")
        used = _dcache_number(filled, where, "filled")
        if cap < 1 or used > cap:
            raise SeekplanError(f"{where}: filled {used} B must lie within capacity {cap} B (> 0)")
        tapes[name] = (cap, used)
    if not tapes:
        raise SeekplanError(f"{p}: no tapes")
    return tapes


def read_dcache_tapefiles(path: str | Path) -> list[DcacheFile]:
    """dCache's tapefiles file: each file's path, size (bytes) and tape."""
    p = Path(path)
    files = []
    seen: set[str] = set()
    for where, name, size, tape in _dcache_entries(p, ("size", "tapeid")):
        if not name or not str(tape).strip():
            raise SeekplanError(f"{where}: empty path or tape")
        if name in seen:
            raise SeekplanError(f"{where}: file {name!r} listed twice")
        seen.add(name)
        nbytes = _dcache_number(size, where, "size")
        if nbytes < 1:
            raise SeekplanError(f"{where}: size must be positive")
        files.append(DcacheFile(name, nbytes, str(tape).strip()))
    if not files:
        raise SeekplanError(f"{p}: no files")
    return files


def dcache_campaign(tapefiles: str | Path, tapes: str | Path, block_bytes: int) -> Any:
    """A recall campaign of every file in dCache's tapefiles on the tapes of
    its tapes file, all requested at once. dCache records no position, so a
    tape's files are laid out back to back in the order listed [choice: the
    order files were written is the best guess a listing gives]; a file's
    dataset is its directory."""
    import numpy as np

    from seekplan.recall.workload import Campaign

    info = read_dcache_tapes(tapes)
    files = read_dcache_tapefiles(tapefiles)
    names = list(info)
    index = {name: i for i, name in enumerate(names)}
    next_block = dict.fromkeys(names, 0)
    datasets: dict[str, int] = {}
    cols: dict[str, list[int]] = {"ds": [], "tape": [], "block": [], "size": []}
    for f in files:
        if f.tape not in index:
            raise SeekplanError(
                f"{tapefiles}: file {f.path!r} is on tape {f.tape!r}, which {tapes} does not list"
            )
        block = next_block[f.tape]
        next_block[f.tape] = block + -(-f.size // block_bytes)
        if next_block[f.tape] * block_bytes > info[f.tape][0]:
            raise SeekplanError(
                f"{tapefiles}: the files on tape {f.tape!r} exceed its capacity "
                f"({info[f.tape][0]} B in {tapes})"
            )
        cols["ds"].append(datasets.setdefault(str(PurePosixPath(f.path).parent), len(datasets)))
        cols["tape"].append(index[f.tape])
        cols["block"].append(block)
        cols["size"].append(f.size)
    n = len(files)
    return Campaign(
        dataset=np.array(cols["ds"], dtype=np.uint32),
        tape=np.array(cols["tape"], dtype=np.uint32),
        block=np.array(cols["block"], dtype=np.uint64),
        size=np.array(cols["size"], dtype=np.uint64),
        arrival_s=np.zeros(n),
        tapeinfo=np.ones(n, dtype=bool),
        capacity=np.array([info[t][0] for t in names], dtype=np.uint64),
        used=np.array([info[t][1] for t in names], dtype=np.uint64),
        tape_names=names,
    )
