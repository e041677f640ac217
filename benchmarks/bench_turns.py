"""Quality of Write-Turn on disturbed virtual MLR1 write logs: precision
and recall of the track starts found (block 0 not counted; a hit is within
8 blocks), per family of disturbance, over several seeded tapes. The
number of tracks is not given to the detector. Prints a table, writes JSON.

    .venv/bin/python benchmarks/bench_turns.py [--seeds 5] [--out bench_turns.json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

import seekplan.fit.turns as turns
from seekplan.build import require_release_build
from seekplan.fit.virtual import BlockTiming, random_layout, write_log

CAP = 396_728  # MLR1: 13 GB / 32 KB
BLOCK_S = 32768 / 1.5e6
#: family -> (timing, dropped-row runs per row)
FAMILIES = {
    "clean": (BlockTiming(BLOCK_S, 1.0), 0.0),
    "rare spikes 1e-4": (BlockTiming(BLOCK_S, 1.0, spike_rate=1e-4), 0.0),
    "spikes 1e-3": (BlockTiming(BLOCK_S, 1.0, spike_rate=1e-3), 0.0),
    "drops 1e-3": (BlockTiming(BLOCK_S, 1.0), 1e-3),
    "drift +-50 %": (BlockTiming(BLOCK_S, 1.0, drift=0.5), 0.0),
    "all three": (BlockTiming(BLOCK_S, 1.0, spike_rate=1e-3, drift=0.5), 1e-3),
    "retries 0.5-2 turns 2e-4": (BlockTiming(BLOCK_S, 1.0, hiccup_rate=2e-4), 0.0),
    "spikes 0.3-1.5 s 3e-4": (BlockTiming(BLOCK_S, 1.0, spike_rate=3e-4, spike_s=(0.3, 1.5)), 0.0),
}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--out", default="bench_turns.json")
    args = ap.parse_args()
    rows = []
    for name, (timing, drop_rate) in FAMILIES.items():
        prec, rec, cpu = [], [], []
        for seed in range(1, args.seeds + 1):
            truth = random_layout(72, CAP, 0.05, seed)
            blocks, secs = write_log(truth, CAP, timing, 100 + seed, drop_rate=drop_rate)
            t0 = time.perf_counter()
            fit = turns.find_track_starts(blocks, secs)
            cpu.append(time.perf_counter() - t0)
            score = turns.score_track_starts(fit.track_starts, truth)
            prec.append(score.precision)
            rec.append(score.recall)
        rows.append(
            {
                "family": name,
                "seeds": args.seeds,
                "precision_min": min(prec),
                "precision_mean": float(np.mean(prec)),
                "recall_min": min(rec),
                "recall_mean": float(np.mean(rec)),
                "cpu_s_median": float(np.median(cpu)),
            }
        )
    print(f"{'family':26} {'P min':>6} {'P mean':>7} {'R min':>6} {'R mean':>7} {'CPU s':>7}")
    for r in rows:
        print(
            f"{r['family']:26} {r['precision_min']:>6.3f} {r['precision_mean']:>7.3f} "
            f"{r['recall_min']:>6.3f} {r['recall_mean']:>7.3f} {r['cpu_s_median']:>7.3f}"
        )
    with open(args.out, "w") as fh:
        json.dump(rows, fh, indent=2)


if __name__ == "__main__":
    require_release_build()
    main()
