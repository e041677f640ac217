"""Recall campaigns: read from files.csv/tapes.csv, or generated like KIT's
ATLAS reprocessing campaign of 2020 (Morschel et al. §4.1)."""

from __future__ import annotations

import csv
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from seekplan import _core
from seekplan.errors import SeekplanError, quote
from seekplan.io import check_header, csv_rows, dict_reader, int_field, read_lines

TB = 10**12


@dataclass(frozen=True)
class Campaign:
    """Files in request order (parallel columns) and the tapes they are on.
    Frozen, and its columns become read-only once the core holds a copy
    (`core`), so the copy never goes stale."""

    dataset: np.ndarray  # uint32 dataset index per file
    tape: np.ndarray  # uint32 tape index per file
    block: np.ndarray  # uint64 first block per file
    size: np.ndarray  # uint64 bytes per file
    arrival_s: np.ndarray  # float64 arrival time per file
    tapeinfo: np.ndarray  # bool: does the requester know the tape?
    capacity: np.ndarray  # uint64 bytes per tape
    used: np.ndarray  # uint64 bytes written per tape
    tape_names: list[str]

    @cached_property
    def core(self) -> _core.RecallCampaign:
        """The campaign in the core, built on first use and shared by every
        run over it (a sweep copies the columns once, not once per run)."""
        columns = {
            "dataset": np.uint32,
            "tape": np.uint32,
            "block": np.uint64,
            "size": np.uint64,
            "arrival_s": np.float64,
            "tapeinfo": np.bool_,
            "capacity": np.uint64,
            "used": np.uint64,
        }
        arrays: list[np.ndarray] = [
            np.ascontiguousarray(getattr(self, k), dtype=t) for k, t in columns.items()
        ]
        handle = _core.RecallCampaign(*arrays)
        for k in columns:
            getattr(self, k).flags.writeable = False
        return handle

    @property
    def files(self) -> int:
        """Number of requested files."""
        return len(self.size)

    def summary(self) -> dict[str, float]:
        """The section 4.1 figures of this campaign, to compare with KIT's."""
        tapes = len(self.capacity)
        per_tape_files = np.bincount(self.tape, minlength=tapes)
        per_tape_bytes = np.bincount(self.tape, weights=self.size, minlength=tapes)
        pairs = np.unique(self.dataset.astype(np.int64) * tapes + self.tape)
        spread = np.bincount(pairs // tapes)
        parts = np.bincount(pairs % tapes, minlength=tapes)
        pct = 100 * per_tape_bytes / self.capacity
        return {
            "datasets": int(len(np.unique(self.dataset))),
            "files": self.files,
            "volume_pb": float(self.size.sum() / 1e15),
            "tapes": tapes,
            "files_per_tape_mean": float(per_tape_files.mean()),
            "pct_requested_per_tape_median": float(np.median(pct)),
            "tapes_under_60pct": float(np.mean(pct < 60)),
            "tapes_per_dataset_median": float(np.median(spread)),
            "tapes_per_dataset_max": int(spread.max()),
            "parts_per_tape_median": float(np.median(parts)),
            "parts_per_tape_max": int(parts.max()),
        }


def _rows(
    path: Path, required: tuple[str, ...]
) -> tuple[list[str], Iterator[tuple[str, dict[str, str]]]]:
    """The header of a CSV file (every ``required`` column there, each once)
    and its rows, each with where it is; a row with too few or too many
    fields is an error naming its line."""
    reader = dict_reader(read_lines(path))
    header = list(reader.fieldnames or [])
    check_header(header, required, str(path))
    return header, csv_rows(reader, str(path))


def load_campaign(files: str | Path, tapes: str | Path) -> Campaign:
    """A campaign from tapes.csv (tape,capacity,used in bytes) and files.csv
    (file,dataset,tape,block,size and optional arrival_s, tapeinfo 0/1), in
    request order. Errors name the file, line and column."""
    fp, tp = Path(files), Path(tapes)
    try:
        return _load(fp, tp)
    except csv.Error as e:
        raise SeekplanError(f"cannot read campaign: {e}") from e


def _load(fp: Path, tp: Path) -> Campaign:
    _, tape_rows = _rows(tp, ("tape", "capacity", "used"))
    names: dict[str, int] = {}
    capacity: list[int] = []
    used: list[int] = []
    for where, row in tape_rows:
        name = row["tape"].strip()
        if not name or name in names:
            raise SeekplanError(f"{where}: column 'tape': empty or duplicate name {name!r}")
        cap = int_field(row["capacity"], "capacity", where, 1)
        u = int_field(row["used"], "used", where, 0)
        if u > cap:
            raise SeekplanError(f"{where}: column 'used': {u} exceeds capacity {cap}")
        names[name] = len(capacity)
        capacity.append(cap)
        used.append(u)
    header, file_rows = _rows(fp, ("file", "dataset", "tape", "block", "size"))
    datasets: dict[str, int] = {}
    first_listed: dict[str, str] = {}
    cols: dict[str, list[float]] = {k: [] for k in ("ds", "tape", "block", "size", "t", "info")}
    for where, row in file_rows:
        # A file listed twice was two requests for one file, read twice.
        file_id = row["file"].strip()
        if not file_id:
            raise SeekplanError(f"{where}: column 'file': empty")
        first = first_listed.setdefault(file_id, where)
        if first != where:
            raise SeekplanError(f"{where}: column 'file': {quote(file_id)} twice (first: {first})")
        tape = row["tape"].strip()
        if tape not in names:
            raise SeekplanError(f"{where}: column 'tape': unknown tape {tape!r} (not in {tp})")
        size = int_field(row["size"], "size", where, 1)
        block = int_field(row["block"], "block", where, 0)
        t = names[tape]
        arrival = 0.0
        if "arrival_s" in header and row["arrival_s"].strip():
            try:
                arrival = float(row["arrival_s"])
            except ValueError:
                raise SeekplanError(
                    f"{where}: column 'arrival_s': {row['arrival_s']!r} is not a number"
                ) from None
            if not math.isfinite(arrival) or arrival < 0:
                raise SeekplanError(f"{where}: column 'arrival_s': must be >= 0")
        info = 1
        if "tapeinfo" in header and row["tapeinfo"].strip():
            info = int_field(row["tapeinfo"], "tapeinfo", where, 0)
            if info > 1:
                raise SeekplanError(f"{where}: column 'tapeinfo': {info} is not 0 or 1")
        cols["ds"].append(datasets.setdefault(row["dataset"].strip(), len(datasets)))
        cols["tape"].append(t)
        cols["block"].append(block)
        cols["size"].append(size)
        cols["t"].append(arrival)
        cols["info"].append(info != 0)
    if not cols["size"]:
        raise SeekplanError(f"{fp}: no files")
    return Campaign(
        dataset=np.array(cols["ds"], dtype=np.uint32),
        tape=np.array(cols["tape"], dtype=np.uint32),
        block=np.array(cols["block"], dtype=np.uint64),
        size=np.array(cols["size"], dtype=np.uint64),
        arrival_s=np.array(cols["t"], dtype=np.float64),
        tapeinfo=np.array(cols["info"], dtype=bool),
        capacity=np.array(capacity, dtype=np.uint64),
        used=np.array(used, dtype=np.uint64),
        tape_names=list(names),
    )


# Section 4.1: 35 datasets, 495,049 files, 1.1 PB, 332 tapes of 8.5 TB.
KIT_DATASETS = 35
KIT_FILES = 495_049
KIT_BYTES = 1.1e15
KIT_TAPES = 332
KIT_CAPACITY = int(8.5 * TB)


def _spreads(rng: np.random.Generator, datasets: int, tapes: int) -> np.ndarray:
    """Tapes per dataset: most 10-15, one in ten 20-40 (§4.1), scaled to the
    tape count so that each tape holds at most 6 parts."""
    k = rng.integers(10, 16, size=datasets)
    wide = rng.random(datasets) < 0.1
    k[wide] = rng.integers(20, 41, size=int(wide.sum()))
    target = int(np.clip(k.sum(), tapes, 6 * tapes))
    k = np.maximum(1, np.round(k * target / k.sum())).astype(np.int64)
    return np.minimum(k, tapes)


def _parts_per_tape(rng: np.random.Generator, tapes: int, total: int) -> np.ndarray:
    """Dataset parts per tape: at least 1, at most 6, mostly 1-3 (§4.1);
    extra parts go preferentially to tapes that already hold more."""
    m = np.ones(tapes, dtype=np.int64)
    for _ in range(max(0, total - tapes)):
        w = np.where(m < 6, m.astype(float) ** 1.5, 0.0)
        m[rng.choice(tapes, p=w / w.sum())] += 1
    return m


def _assign(rng: np.random.Generator, spread: np.ndarray, slots: np.ndarray) -> list[list[int]]:
    """Distinct tapes for each dataset, drawn by free slots; left-over slots
    go to datasets not yet on that tape. Returns the datasets of each tape."""
    free = slots.copy()
    on_tape: list[list[int]] = [[] for _ in range(len(slots))]
    for d in np.argsort(-spread, kind="stable"):
        avail = np.flatnonzero(free > 0)
        k = min(int(spread[d]), len(avail))
        if k == 0:
            break
        chosen = rng.choice(avail, size=k, replace=False, p=free[avail] / free[avail].sum())
        for t in chosen:
            on_tape[t].append(int(d))
            free[t] -= 1
    for t in np.flatnonzero(free > 0):
        others = [d for d in range(len(spread)) if d not in on_tape[t]]
        extra = rng.choice(others, size=min(int(free[t]), len(others)), replace=False)
        on_tape[t].extend(int(d) for d in extra)
    return on_tape


def generate_kit(
    seed: int = 1,
    scale: float = 1.0,
    block_bytes: int = 262_144,
    dataset_order: str = "spread",
) -> Campaign:
    """A seeded campaign shaped like KIT's (§4.1): ~1,500 requested files per
    tape, mostly under 60 % of each tape requested, datasets over 10-15 tapes
    (up to 40), tapes holding 1-3 dataset parts (up to 6). `scale` shrinks
    (or grows) tapes, files and datasets together. The datasets are requested
    one after the other; `dataset_order` orders a dataset's files: "spread"
    interleaves them across the dataset's tapes, "tape-by-tape" requests one
    tape's part after the other."""
    if dataset_order not in ("spread", "tape-by-tape"):
        raise SeekplanError(
            f"dataset_order: expected spread or tape-by-tape, got {dataset_order!r}"
        )
    rng = np.random.default_rng(seed)
    tapes = max(2, round(KIT_TAPES * scale))
    datasets = max(2, round(KIT_DATASETS * scale))
    n_files = max(tapes, round(KIT_FILES * scale))
    volume = KIT_BYTES * tapes / KIT_TAPES

    spread = _spreads(rng, datasets, tapes)
    slots = _parts_per_tape(rng, tapes, int(spread.sum()))
    on_tape = _assign(rng, spread, slots)

    # Requested fraction per tape: Beta(4, 6) has mean 0.4 and puts ~9 % of
    # tapes above 60 %; scaled to the campaign's volume, capped at 90 %.
    frac = rng.beta(4, 6, size=tapes)
    frac = np.minimum(frac * volume / (frac.sum() * KIT_CAPACITY), 0.9)
    tape_bytes = frac * KIT_CAPACITY
    weight = frac * rng.lognormal(0, 0.3, size=tapes)
    counts = np.maximum(1, np.floor(weight / weight.sum() * n_files)).astype(np.int64)
    counts[np.argsort(-weight)[: max(0, n_files - counts.sum())]] += 1

    ds, tp, blk, sz, progress, used = [], [], [], [], [], []
    for t in range(tapes):
        n = int(counts[t])
        sizes = rng.lognormal(0, 0.6, size=n)
        sizes = np.maximum(sizes / sizes.sum() * tape_bytes[t], 1e6).astype(np.uint64)
        # Split the tape's files among its dataset parts. The parts are
        # interleaved with each other and with unrequested data: §2.1 says the
        # write order of a dataset "is frequently lost" (flushed alongside
        # other data, several drives writing), so positions are uniform.
        parts = on_tape[t]
        share = rng.dirichlet(np.ones(len(parts)))
        part_of = rng.choice(len(parts), size=n, p=share)
        used_bytes = KIT_CAPACITY * rng.uniform(0.95, 1.0)
        used.append(max(used_bytes, float(sizes.sum())))
        gap_total = max(0.0, used_bytes - float(sizes.sum()))
        gaps = rng.dirichlet(np.ones(n + 1))[:n] * gap_total
        starts = np.cumsum(gaps) + np.concatenate(([0.0], np.cumsum(sizes[:-1], dtype=float)))
        blocks = (starts // block_bytes).astype(np.uint64)
        ds.append(np.array(parts, dtype=np.uint32)[part_of])
        tp.append(np.full(n, t, dtype=np.uint32))
        blk.append(blocks)
        sz.append(sizes)
        # Position of each file within its part: parts of one dataset were
        # written in parallel, so a dataset's files are requested interleaved.
        within = np.zeros(n)
        for p in range(len(parts)):
            idx = np.flatnonzero(part_of == p)
            within[idx] = (np.arange(len(idx)) + rng.random()) / max(len(idx), 1)
        progress.append(within)
    dataset = np.concatenate(ds)
    tape = np.concatenate(tp)
    within = np.concatenate(progress)
    if dataset_order == "spread":
        request = np.lexsort((within, dataset))
    else:
        request = np.lexsort((within, tape, dataset))
    capacity = np.full(tapes, KIT_CAPACITY, dtype=np.uint64)
    block = np.concatenate(blk)
    size = np.concatenate(sz)
    return Campaign(
        dataset=dataset[request],
        tape=tape[request],
        block=block[request],
        size=size[request],
        arrival_s=np.zeros(len(size)),
        tapeinfo=np.ones(len(size), dtype=bool),
        capacity=capacity,
        used=np.minimum(np.array(used), capacity).astype(np.uint64),
        tape_names=[f"K{t:05d}" for t in range(tapes)],
    )
