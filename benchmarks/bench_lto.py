"""LTO-9 recall ordering: today's baselines against seekplan's `best`.

For batches of 10, 100, 1,000 and 4,000 files on an LTO-9 tape (positions
uniform over the tape or in a few clusters; files of 1 MiB, 64 MiB and
1 GiB), the total recall time from BOT (locates + reads, judged by our LTO
model, and again judged by CTA's own cost heuristic: `--cost cta`) of `linear`
(logical order, what most systems do), `cta-sltf` (CTA's software RAO) and
`best`, side by side as ratios, and the CPU each took.

    python benchmarks/bench_lto.py [--seeds 3] [--judges drive,cta] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import statistics
from pathlib import Path

import numpy as np

import seekplan
from seekplan.build import require_release_build
from seekplan.io import Request

DRIVE = "lto9"
SIZES = [10, 100, 1_000, 4_000]
FILE_BYTES = {"1MiB": 1 << 20, "64MiB": 64 << 20, "1GiB": 1 << 30}
ALGOS = ["linear", "cta-sltf", "best"]
CLUSTERS = 8
# A cluster spans about 0.5 % of the tape's blocks: files archived together.
CLUSTER_SPREAD = 0.005


def batch(capacity: int, n: int, size: int, layout: str, seed: int) -> list[Request]:
    """``n`` files of ``size`` bytes, uniform over the tape or in clusters."""
    rng = np.random.default_rng(seed)
    room = capacity - size // 524_288 - 2
    if layout == "uniform":
        blocks = rng.integers(0, room, n)
    else:
        centres = rng.integers(0, room, CLUSTERS)
        spread = rng.normal(0.0, CLUSTER_SPREAD * capacity, n)
        blocks = np.clip(centres[rng.integers(0, CLUSTERS, n)] + spread, 0, room).astype(int)
    return [Request(f"f{i}", int(b), size) for i, b in enumerate(blocks)]


def run(seeds: int, judge: str) -> list[dict]:
    capacity = seekplan.make_drive(DRIVE).capacity
    rows = []
    for n in SIZES:
        for layout in ("uniform", "clustered"):
            for label, size in FILE_BYTES.items():
                total = {a: [] for a in ALGOS}
                cpu = {a: [] for a in ALGOS}
                for k in range(seeds if n < 4_000 else max(1, seeds - 1)):
                    reqs = batch(capacity, n, size, layout, 1_000 * n + 17 * k + size % 97)
                    for algo in ALGOS:
                        r = seekplan.order(reqs, drive=DRIVE, algo=algo, cost=judge, bound=False)
                        total[algo].append(r.total_s)
                        cpu[algo].append(r.cpu_s)
                mean = {a: statistics.fmean(total[a]) for a in ALGOS}
                rows.append(
                    {
                        "judge": judge,
                        "n": n,
                        "layout": layout,
                        "file": label,
                        "runs": len(total["best"]),
                        **{f"{a}_s": mean[a] for a in ALGOS},
                        "best_over_linear": mean["best"] / mean["linear"],
                        "best_over_cta": mean["best"] / mean["cta-sltf"],
                        "cta_over_linear": mean["cta-sltf"] / mean["linear"],
                        **{f"{a}_cpu_s": max(cpu[a]) for a in ALGOS},
                    }
                )
                print(_line(rows[-1]), flush=True)
    return rows


HEADER = (
    "| n | positions | file | linear s | cta-sltf s | best s | best/linear | best/cta "
    "| cta/linear | CPU linear | CPU cta-sltf | CPU best |\n"
    "| ---: | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
)


def _line(r: dict) -> str:
    return (
        f"| {r['n']} | {r['layout']} | {r['file']} | {r['linear_s']:.0f} | "
        f"{r['cta-sltf_s']:.0f} | {r['best_s']:.0f} | {r['best_over_linear']:.3f} | "
        f"{r['best_over_cta']:.3f} | {r['cta_over_linear']:.3f} | "
        f"{r['linear_cpu_s'] * 1e3:.1f} ms | {r['cta-sltf_cpu_s'] * 1e3:.1f} ms | "
        f"{r['best_cpu_s'] * 1e3:.0f} ms |"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=3, help="batches per cell (4,000: one fewer)")
    ap.add_argument("--judges", default="drive,cta", help="drive (our LTO model), cta or both")
    ap.add_argument("--json", type=Path, default=Path(__file__).with_name("bench_lto.json"))
    args = ap.parse_args()
    rows = []
    for judge in args.judges.split(","):
        print(f"\njudged by {'our LTO model' if judge == 'drive' else 'CTA cost heuristic'}")
        print(HEADER)
        mine = run(args.seeds, judge)
        worst = max(r["best_over_cta"] for r in mine)
        cpu = max(r["best_cpu_s"] for r in mine)
        print(f"\n{judge}: best/cta-sltf at worst {worst:.3f}; best's CPU at most {cpu:.3f} s")
        rows += mine
    args.json.write_text(json.dumps({"drive": DRIVE, "rows": rows}, indent=1) + "\n")


if __name__ == "__main__":
    require_release_build()
    main()
