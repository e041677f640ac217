"""The fast path of the mount-trace reader: pyarrow's multi-threaded CSV
reader parses a whole ECMWF or ``time,cartridge,busy_s`` file into columns
(benchmarks/bench_mounts.py times ``load_trace`` on 1,000,000 ECMWF lines
both ways; RESULTS.md, "Mount replay"). It returns
None on anything it cannot take whole (a bad value, an odd line), and the
line-by-line reader then reads the file again and names the bad line."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from seekplan.io import DELIMITERS

if TYPE_CHECKING:
    from seekplan.mounts.trace import MountTrace


def _table(p: Path, read: Any, parse: Any, convert: Any) -> Any:
    """The file's table, or None when pyarrow refuses it."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    from seekplan.mounts.trace import compression

    try:
        with pa.input_stream(str(p), compression=compression(p)) as f:
            return pcsv.read_csv(f, read_options=read, parse_options=parse, convert_options=convert)
    except (pa.ArrowException, OSError, ValueError):
        return None


def _seconds(column: Any) -> np.ndarray | None:
    """Seconds since the epoch of a numeric or timestamp column (naive
    timestamps read as UTC, as the line reader does), or None."""
    import pyarrow as pa

    if pa.types.is_timestamp(column.type):
        ns = column.cast(pa.timestamp("ns", tz=column.type.tz)).cast(pa.int64())
        return np.asarray(ns.to_numpy(zero_copy_only=False), dtype=np.float64) / 1e9
    if pa.types.is_integer(column.type) or pa.types.is_floating(column.type):
        return np.asarray(column.to_numpy(zero_copy_only=False), dtype=np.float64)
    return None


def _trace(
    p: Path, table: Any, seconds: np.ndarray | None, busy_column: str = "busy_s"
) -> MountTrace | None:
    """The trace of a table with cartridge and busy_s columns, or None when
    a value is missing, empty, negative or not finite."""
    import pyarrow as pa
    import pyarrow.compute as pc

    from seekplan.mounts.trace import from_codes

    cart = table.column("cartridge")
    busy_col = table.column(busy_column)
    if (
        seconds is None
        or table.num_rows == 0
        or cart.null_count
        or busy_col.null_count
        or not pa.types.is_string(cart.type)
    ):
        return None
    busy = np.asarray(busy_col.to_numpy(zero_copy_only=False), dtype=np.float64)
    from seekplan.mounts.trace import MAX_BUSY_S

    if busy_column == "busy_s" and (busy > MAX_BUSY_S).any():
        return None
    if not (
        np.isfinite(seconds).all()
        and np.isfinite(busy).all()
        and (busy >= 0).all()
        and (seconds >= 0).all()
    ):
        return None
    labels = pc.utf8_trim_whitespace(cart.combine_chunks())
    if pc.any(pc.equal(labels, "")).as_py():
        return None
    encoded = labels.dictionary_encode()
    codes = np.asarray(encoded.indices.to_numpy(zero_copy_only=False), dtype=np.int64)
    return from_codes(seconds, codes, encoded.dictionary.to_pylist(), busy, str(p))


def read_ecmwf_columns(p: Path) -> MountTrace | None:
    """An ECMWF ``cartridge;YYYYmmddTHHMMSS;seconds`` file, its ``Bye``
    sentinel dropped, or None."""
    import pyarrow as pa
    import pyarrow.compute as pc
    import pyarrow.csv as pcsv

    names = ["cartridge", "time", "busy_s"]
    table = _table(
        p,
        pcsv.ReadOptions(column_names=names),
        pcsv.ParseOptions(delimiter=";"),
        pcsv.ConvertOptions(
            column_types={
                "cartridge": pa.string(),
                "time": pa.timestamp("s"),
                "busy_s": pa.float64(),
            },
            timestamp_parsers=["%Y%m%dT%H%M%S"],
        ),
    )
    if table is None:
        return None
    table = table.filter(pc.not_equal(table.column("cartridge"), "Bye"))
    return _trace(p, table, _seconds(table.column("time")))


def read_csv_columns(p: Path, header: str, busy_column: str = "busy_s") -> MountTrace | None:
    """A CSV with ``time``, ``cartridge`` and ``busy_column`` columns
    (others ignored), its delimiter the header's, or None."""
    import pyarrow as pa
    import pyarrow.csv as pcsv

    delimiter = next((d for d in DELIMITERS if d in header), ",")
    table = _table(
        p,
        pcsv.ReadOptions(),
        pcsv.ParseOptions(delimiter=delimiter),
        pcsv.ConvertOptions(
            include_columns=["time", "cartridge", busy_column],
            column_types={"cartridge": pa.string(), busy_column: pa.float64()},
        ),
    )
    if table is None:
        return None
    return _trace(p, table, _seconds(table.column("time")), busy_column)
