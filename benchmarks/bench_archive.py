"""Archive simulation speed at the Blue Waters scale (50 movers x 10 drives,
20 arms, 1 TB tapes, 10,000 archived files): simulated days per wall-clock
second, and the ratio to real time (simulated seconds per wall second).

The issue names no earlier simulator to compare with (the paper's SimGrid 3.5
code is not available); the baseline is real time, and the budget of the
whole quick reproduction ("a few minutes on 2 cores", timed separately with
`time seekplan reproduce bluewaters --quick`).

    python benchmarks/bench_archive.py [--requests 5000] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time

from seekplan.archive import simulate
from seekplan.build import require_release_build
from seekplan.experiments.bluewaters import GB, MB, TB, config

CASES = [
    ("small files, vertical, 800/h", "vertical", 800.0, 10 * MB, GB, 16 * MB),
    ("medium files, parallel, 95/h", "parallel", 95.0, GB, 100 * GB, 256 * MB),
    ("medium files, rait, 95/h", "rait", 95.0, GB, 100 * GB, 256 * MB),
    ("large files, parallel, 1/h", "parallel", 1.0, TB, 100 * TB, 8 * GB),
    ("mixed files, hetero, 1/h", "hetero", 1.0, 10 * MB, 10 * TB, 512 * MB),
]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--requests", type=int, default=5000)
    ap.add_argument("--json", default="benchmarks/bench_archive.json")
    args = ap.parse_args()
    rows = []
    for label, policy, rate, lo, hi, block in CASES:
        base = {"min_bytes": lo, "max_bytes": hi, "block_bytes": block}
        cfg = config(policy, "rate_per_hour", rate, base, args.requests, 1)
        t0 = time.perf_counter()
        m = simulate(cfg)
        wall = time.perf_counter() - t0
        days = m["makespan_s"] / 86_400
        rows.append(
            {
                "case": label,
                "requests": m["requests"],
                "events": m["events"],
                "simulated_days": days,
                "wall_s": wall,
                "days_per_wall_s": days / wall,
                "x_real_time": m["makespan_s"] / wall,
            }
        )
    head = f"{'case':32} {'requests':>8} {'events':>8} {'sim days':>9} {'wall s':>7} "
    print(head + f"{'days/s':>9} {'x real time':>12}")
    for r in rows:
        print(
            f"{r['case']:32} {r['requests']:8d} {r['events']:8d} {r['simulated_days']:9.1f} "
            f"{r['wall_s']:7.3f} {r['days_per_wall_s']:9.0f} {r['x_real_time']:12.3g}"
        )
    with open(args.json, "w") as f:
        json.dump({"requests": args.requests, "rows": rows}, f, indent=2)


if __name__ == "__main__":
    require_release_build()
    main()
