"""Writes the generated example files under examples/ (seeded: the same bytes
every run; tests/test_doc_commands.py checks that they still are).

    python examples/generate.py [OUT_DIR]

- ``costs.csv``, ``costs.npy``: a 13 x 13 locate matrix (seconds) of 12 files
  on an LTO-9 tape and the head (node 12), from the core's LTO model: what a
  site measures with its own drive, for ``seekplan order --matrix``.
- ``eowp.csv``: an end-of-wrap list of one LTO-9 tape (``last_block``, one
  row per wrap): each wrap holds the nominal share of blocks times a factor
  drawn uniform in [0.95, 1.05] (our choice: compression and rewritten
  blocks move where wraps end), for ``seekplan order --eowp``.
- ``trace.csv``: 400 recall requests (``time,path,tape,block,size``) over 6
  hours on 20 tapes, 40 datasets, for ``seekplan simulate recall --trace``.
- ``fit/seeks-helical.csv``, ``fit/seeks-dlt4000.csv``: 500 and 1,200 seeks
  (``from_block,to_block,seconds``) timed with 2 % noise on the catalog's
  measured Ampex DST 310 (helical: one line) and DLT4000 (Table 3's four
  regions of 64 tracks), for ``seekplan fit seeks``.
- ``fit/write-log.csv``, ``fit/read-log.csv``, ``fit/truth.json``: a short
  MLR1 tape (72 tracks of about 150 blocks; short so the log stays small) written and
  read block by block with the MLR1's block time and a 1-s turn, and its
  true track starts, for ``seekplan fit track-starts``.
- ``fit/requests.csv``: 30 reads on that short tape, for
  ``seekplan order --track-starts``.
- ``mounts-trace.csv``: 3,000 cartridge requests (``time,cartridge,busy_s``)
  for 600 cartridges over two days from ``seekplan.mounts.synthetic_trace``,
  and ``mounts-ecmwf.txt``: its first 500 in ECMWF's
  ``cartridge;YYYYmmddTHHMMSS;seconds`` format (made-up times from
  2026-01-05; not ECMWF data), for ``seekplan simulate mounts --trace``.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

import numpy as np

import seekplan
from seekplan import _core
from seekplan.catalog import measured_drive
from seekplan.fit.virtual import BlockTiming, random_layout, read_log, seek_log, write_log

HERE = Path(__file__).resolve().parent
SEED = 20261128
SHORT_TAPE_BLOCKS = 10_800
SHORT_TAPE_TRACKS = 72
MLR1_BLOCK_S = 32768 / 1.5e6


def _write_rows(path: Path, header: list[str], rows: list[list[object]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(header)
        w.writerows(rows)


def costs(out: Path, rng: np.random.Generator) -> None:
    drive = seekplan.make_drive("lto9")
    blocks = sorted(int(b) for b in rng.integers(0, drive.capacity - 40_000, 12))
    sizes = [int(s) for s in rng.integers(64 << 20, 1 << 30, 12)]
    head = int(rng.integers(0, drive.capacity))
    m = np.round(_core.locate_matrix(drive, blocks, sizes, start=head), 3)
    with (out / "costs.csv").open("w", newline="") as f:
        csv.writer(f, lineterminator="\n").writerows([[f"{v:.3f}" for v in row] for row in m])
    np.save(out / "costs.npy", m)


def eowp(out: Path, rng: np.random.Generator) -> None:
    drive = seekplan.make_drive("lto9")
    wraps = drive.physical(drive.capacity - 1)[0] + 1
    per_wrap = drive.capacity / wraps * rng.uniform(0.95, 1.05, wraps)
    last = np.cumsum(np.round(per_wrap).astype(np.int64)) - 1
    _write_rows(out / "eowp.csv", ["last_block"], [[int(b)] for b in last])


def trace(out: Path, rng: np.random.Generator) -> None:
    n, tapes, datasets = 400, 20, 40
    times = np.sort(rng.uniform(0, 6 * 3600, n))
    rows: list[list[object]] = []
    for i, t in enumerate(times):
        ds = int(rng.integers(0, datasets))
        rows.append(
            [
                f"{t:.1f}",
                f"/pnfs/example.org/data/ds{ds:02d}/f{i:04d}",
                f"VT{(ds * 7 + int(rng.integers(0, 3))) % tapes:04d}",
                int(rng.integers(0, 1_000_000)),
                int(rng.integers(100_000_000, 4_000_000_000)),
            ]
        )
    _write_rows(out / "trace.csv", ["time", "path", "tape", "block", "size"], rows)


def fit_logs(out: Path) -> None:
    for name, drive, n in (("helical", "ampex-dst310", 500), ("dlt4000", "dlt4000-t3", 1200)):
        froms, tos, secs = seek_log(measured_drive(drive), n, 0.02, SEED)
        _write_rows(
            out / "fit" / f"seeks-{name}.csv",
            ["from_block", "to_block", "seconds"],
            [[int(f), int(t), f"{s:.4f}"] for f, t, s in zip(froms, tos, secs, strict=True)],
        )
    starts = random_layout(SHORT_TAPE_TRACKS, SHORT_TAPE_BLOCKS, 0.02, SEED)
    timing = BlockTiming(MLR1_BLOCK_S, 1.0)
    for name, (blocks, seconds) in {
        "write-log.csv": write_log(starts, SHORT_TAPE_BLOCKS, timing, SEED),
        "read-log.csv": read_log(
            starts, SHORT_TAPE_BLOCKS, SHORT_TAPE_TRACKS, 20, timing, SEED + 1
        ),
    }.items():
        _write_rows(
            out / "fit" / name,
            ["block", "seconds"],
            [[int(b), f"{s:.5f}"] for b, s in zip(blocks, seconds, strict=True)],
        )
    truth = {"track_starts": starts, "capacity": SHORT_TAPE_BLOCKS}
    (out / "fit" / "truth.json").write_text(json.dumps(truth) + "\n")
    rng = np.random.default_rng(SEED)
    blocks = rng.integers(0, SHORT_TAPE_BLOCKS - 10, 30)
    _write_rows(
        out / "fit" / "requests.csv",
        ["id", "block", "size"],
        [[f"r{i:02d}", int(b), 32768] for i, b in enumerate(blocks)],
    )


def mount_traces(out: Path) -> None:
    from datetime import UTC, datetime

    from seekplan.mounts import synthetic_trace

    t = synthetic_trace(requests=3_000, cartridges=600, days=2.0, seed=SEED)
    rows = [
        [f"{t.time_s[i]:.3f}", t.names[t.cartridge[i]], f"{t.busy_s[i]:.1f}"] for i in range(len(t))
    ]
    _write_rows(out / "mounts-trace.csv", ["time", "cartridge", "busy_s"], rows)
    start = datetime(2026, 1, 5, tzinfo=UTC).timestamp()
    lines = []
    for i in range(500):
        stamp = datetime.fromtimestamp(start + float(t.time_s[i]), UTC).strftime("%Y%m%dT%H%M%S")
        lines.append(f"{t.names[t.cartridge[i]]};{stamp};{max(1, round(t.busy_s[i]))}\n")
    (out / "mounts-ecmwf.txt").write_text("".join(lines))


def main(out: Path = HERE) -> None:
    """Writes every generated example into ``out``."""
    rng = np.random.default_rng(SEED)
    costs(out, rng)
    eowp(out, rng)
    trace(out, rng)
    fit_logs(out)
    mount_traces(out)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else HERE)
