"""Rounds per second of every mixed-media scheduler (one core call per run,
single process), as ratios to TPS SCAN/SCAN, the simplest algorithm.

    .venv/bin/python benchmarks/bench_media.py [--rounds 4000] [--out media.json]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

from seekplan.build import require_release_build
from seekplan.media import MediaStudy, algorithms, simulate_run

BASELINE = "tps-scan-scan"
LAMBDAS = [20.0, 50.0]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--rounds", type=int, default=4000)
    ap.add_argument("--out", type=Path, default=Path("benchmarks/media.json"))
    args = ap.parse_args()
    rows: dict[str, dict[str, float | None]] = {}
    for algo in algorithms():
        rows[algo] = {}
        for lam in LAMBDAS:
            cfg = MediaStudy(rounds=args.rounds).core_config(lam, 0)
            t = time.perf_counter()
            r = simulate_run(cfg, algo)
            dt = time.perf_counter() - t
            rows[algo][str(lam)] = None if r["saturated"] else r["rounds"] / dt
    table = Table("algorithm", *(f"rounds/s λ={lam:g}" for lam in LAMBDAS), "x baseline")
    base = rows[BASELINE][str(LAMBDAS[-1])]
    for algo, v in rows.items():
        cells = [f"{x:,.0f}" if x else "saturated" for x in (v[str(lam)] for lam in LAMBDAS)]
        last = v[str(LAMBDAS[-1])]
        table.add_row(algo, *cells, f"{last / base:.2f}" if last and base else "-")
    Console().print(table)
    Console().print("(saturated: the D-queue outgrew its limit, so no steady-state speed)")
    args.out.write_text(
        json.dumps({"rounds": args.rounds, "baseline": BASELINE, "rounds_per_s": rows}, indent=1)
    )


if __name__ == "__main__":
    require_release_build()
    main()
