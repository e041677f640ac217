"""`best`, `bnb` and `patch` on the DIMACS ATSP challenge's instance families,
beside LKH-3 (elkai, optional: pip install -e '.[bench-lkh]') and the
assignment lower bound, in one run (issue 11).

For each family and size: percent above the certified assignment bound for
each solver, CPU seconds, and best/LKH-3 as a ratio of tour lengths.

    python benchmarks/bench_atsp.py [--sizes 100,316,1000] [--lkh-max 316]
                                    [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np
from atsp_families import FAMILIES, instance

import seekplan
from seekplan.build import require_release_build

ALGOS = ["patch", "bnb", "best"]


def _lkh(matrix: np.ndarray, scale: float = 1.0) -> tuple[float, float]:
    """LKH-3's tour (elkai) on ``matrix`` times ``scale`` rounded to integers,
    as LKH-3 takes them; its cost on ``matrix`` itself and LKH-3's CPU."""
    import elkai

    t0 = time.process_time()
    tour = elkai.DistanceMatrix(np.rint(matrix * scale).astype(int).tolist()).solve_tsp()
    cpu = time.process_time() - t0
    cycle = tour if tour[0] == tour[-1] else [*tour, tour[0]]
    return float(sum(matrix[a, b] for a, b in zip(cycle[:-1], cycle[1:], strict=True))), cpu


def _row(family: str, n: int, seed: int, lkh_max: int) -> dict:
    matrix = instance(family, n, seed)
    row: dict = {"family": family, "n": n, "seed": seed}
    for algo in ALGOS:
        r = seekplan.order_matrix(matrix, algo=algo, start=0, end=0)
        row[algo] = r.total_s
        row[f"{algo}_cpu_s"] = r.cpu_s
        if algo == "patch":
            # PATCH never proves its order optimal, so its bound is the
            # assignment bound (bnb and best report the optimum instead
            # when their search finishes).
            row["bound"] = r.lower_bound_s
    if n <= lkh_max:
        try:
            row["lkh"], row["lkh_cpu_s"] = _lkh(matrix)
        except ImportError:
            pass
    return row


def _pct(value: float, bound: float) -> str:
    return f"{100 * (value / bound - 1):.2f}" if bound > 0 else "-"


def _line(r: dict) -> str:
    """One markdown table row."""
    b, lkh = r["bound"], r.get("lkh")
    cells = [r["family"], str(r["n"]), *(_pct(r[a], b) for a in ALGOS)]
    cells += [_pct(lkh, b), f"{r['best'] / lkh:.4f}"] if lkh else ["-", "-"]
    cells += [f"{r['best_cpu_s']:.2f}", f"{r['lkh_cpu_s']:.2f}" if lkh else "-"]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--sizes", default="100,316,1000")
    ap.add_argument("--families", default=",".join(FAMILIES))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--lkh-max", type=int, default=316, help="largest n given to LKH-3")
    ap.add_argument("--json", help="write the rows here")
    args = ap.parse_args()
    rows = []
    print(
        "| family | n | patch % | bnb % | best % | LKH-3 % | best/LKH-3 "
        "| best CPU s | LKH-3 CPU s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
    for family in args.families.split(","):
        for n in (int(s) for s in args.sizes.split(",")):
            r = _row(family, n, args.seed, args.lkh_max)
            rows.append(r)
            print(_line(r), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    require_release_build()
    main()
