"""Speed of drive characterization: `fit seeks` and Write-Turn on logs of
growing size. Baseline: the tape time the log itself represents (S&M §3
call Write-Turn "virtually zero cost"), so the ratio is analysis seconds
per second of tape motion logged. Prints a table and writes JSON.

    .venv/bin/python benchmarks/bench_fit.py [--out bench_fit.json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from seekplan.build import require_release_build
from seekplan.catalog import measured_drive
from seekplan.fit import find_track_starts, fit_seeks
from seekplan.fit.virtual import BlockTiming, random_layout, seek_log, write_log


def _timed(fn, *args, **kwargs) -> float:
    t0 = time.perf_counter()
    fn(*args, **kwargs)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="bench_fit.json")
    args = ap.parse_args()
    rows = []
    drive = measured_drive("dlt4000-t3")
    for n in (1_000, 10_000, 100_000):
        f, t, s = seek_log(drive, n, 0.02, 1)
        cpu = _timed(fit_seeks, f, t, s, capacity=drive.capacity, tracks=64)
        rows.append(
            {
                "task": "fit seeks (4 regions)",
                "size": n,
                "cpu_s": cpu,
                "tape_s": float(np.sum(s)),
                "ratio": cpu / float(np.sum(s)),
            }
        )
    cap = 396_728
    starts = random_layout(72, cap, 0.05, 2)
    timing = BlockTiming(32768 / 1.5e6, 1.0)
    for n in (cap // 10, cap // 2, cap):
        blocks, secs = write_log(starts, cap, timing, 3, upto=n)
        cpu = _timed(find_track_starts, blocks, secs)
        rows.append(
            {
                "task": "Write-Turn",
                "size": int(n),
                "cpu_s": cpu,
                "tape_s": float(np.sum(secs)),
                "ratio": cpu / float(np.sum(secs)),
            }
        )
    # the same full tape with what real logs have: 0.1-0.4 s buffer-flush
    # spikes, runs of dropped rows and +-50 % drift of the block time
    noisy = BlockTiming(32768 / 1.5e6, 1.0, spike_rate=1e-3, drift=0.5)
    blocks, secs = write_log(starts, cap, noisy, 3, drop_rate=1e-3)
    cpu = _timed(find_track_starts, blocks, secs)
    rows.append(
        {
            "task": "Write-Turn, disturbed",
            "size": int(blocks.size),
            "cpu_s": cpu,
            "tape_s": float(np.sum(secs)),
            "ratio": cpu / float(np.sum(secs)),
        }
    )
    print(f"{'task':24} {'size':>9} {'cpu s':>9} {'tape s':>11} {'cpu/tape':>10}")
    for r in rows:
        print(
            f"{r['task']:24} {r['size']:>9} {r['cpu_s']:>9.4f} {r['tape_s']:>11.0f} "
            f"{r['ratio']:>10.2e}"
        )
    with open(args.out, "w") as fh:
        json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    require_release_build()
    main()
