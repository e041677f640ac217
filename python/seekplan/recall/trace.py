"""Replaying a site's own recall trace (issue 12 item 4): a CSV of requests
``time,path,tape,block,size`` becomes a campaign whose arrivals are the
trace's, run through every requester strategy."""

from __future__ import annotations

import csv
import math
from pathlib import Path, PurePosixPath
from typing import Any

import numpy as np

from seekplan.errors import SeekplanError
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


def _number(value: str, column: str, where: str, integer: bool) -> float:
    text = (value or "").strip()
    try:
        x = int(text) if integer else float(text)
    except ValueError:
        kind = "an integer" if integer else "a number"
        raise SeekplanError(f"{where}: column {column!r}: {text!r} is not {kind}") from None
    if not math.isfinite(x) or x < 0:
        raise SeekplanError(f"{where}: column {column!r}: must be >= 0, got {text!r}")
    return x


def load_trace(path: str | Path, tape_capacity: int, block_bytes: int) -> Campaign:
    """A campaign from a trace CSV, in arrival order. A file's dataset is its
    directory; tapes get `tape_capacity` bytes, all used. Errors name the
    line and column."""
    p = Path(path)
    try:
        with p.open(newline="") as f:
            return _read(p, csv.DictReader(f), tape_capacity, block_bytes)
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise SeekplanError(f"cannot read trace: {e}") from e


def _read(p: Path, reader: csv.DictReader[str], capacity: int, block_bytes: int) -> Campaign:
    missing = [c for c in COLUMNS if c not in (reader.fieldnames or [])]
    if missing:
        raise SeekplanError(f"{p}: missing column(s) {', '.join(missing)}")
    tapes: dict[str, int] = {}
    datasets: dict[str, int] = {}
    cols: dict[str, list[float]] = {k: [] for k in ("t", "ds", "tape", "block", "size")}
    for row in reader:
        where = f"{p} line {reader.line_num}"
        t = _number(row["time"], "time", where, integer=False)
        block = int(_number(row["block"], "block", where, integer=True))
        size = int(_number(row["size"], "size", where, integer=True))
        if size == 0:
            raise SeekplanError(f"{where}: column 'size': must be at least 1")
        if block * block_bytes + size > capacity:
            raise SeekplanError(
                f"{where}: block {block} + {size} bytes runs past the tape's capacity "
                f"({capacity} bytes; see --tape-capacity)"
            )
        tape = (row["tape"] or "").strip()
        path = (row["path"] or "").strip()
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
