"""`best` beside LKH-3 on symmetric matrices, LKH-3's own ground: random symmetric costs
(the lesser of two uniform integers 0-9,999 for each pair, so cheap edges are common) and
rounded Euclidean distances between uniform points in a 10,000 square. The tour starts and
ends at node 0. One row per matrix: `best`'s total and CPU with its defaults, why it
stopped, LKH-3's total and CPU (elkai, an optional non-commercial extra: pip install -e
'.[bench-lkh]'; left out without it, or above --lkh-max nodes) and their ratio.

    python benchmarks/bench_symmetric.py [--sizes 300,1000] [--seeds 1-1] [--lkh-max 1000]
"""

from __future__ import annotations

import argparse
import importlib.util

import numpy as np
from bench_atsp import _lkh

import seekplan
from seekplan.build import require_release_build

HIGHEST = 10_000
KINDS = ("random", "euclidean")


def symmetric_matrix(kind: str, n: int, seed: int) -> np.ndarray:
    """The n x n matrix of one instance (diagonal 0), seeded by kind, n and seed."""
    rng = np.random.default_rng([seed, n, KINDS.index(kind)])
    if kind == "random":
        r = rng.integers(0, HIGHEST, (n, n))
        m = np.minimum(r, r.T).astype(float)
    else:
        x, y = rng.uniform(0, HIGHEST, (2, n))
        m = np.rint(np.hypot(x[:, None] - x[None, :], y[:, None] - y[None, :]))
    np.fill_diagonal(m, 0.0)
    return m


def main() -> None:
    """Prints the table for the sizes and seeds asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="300,1000")
    parser.add_argument("--seeds", default="1-1", help="FIRST-LAST")
    parser.add_argument("--kinds", default=",".join(KINDS))
    parser.add_argument("--lkh-max", type=int, default=1000, help="largest n given to LKH-3")
    args = parser.parse_args()
    require_release_build()
    lkh = importlib.util.find_spec("elkai") is not None
    first, last = (int(x) for x in args.seeds.split("-"))
    print("| kind | n | seed | best | CPU s | stopped | LKH-3 | CPU s | best/LKH-3 |")
    print("| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
    for kind in args.kinds.split(","):
        for n in (int(s) for s in args.sizes.split(",")):
            for seed in range(first, last + 1):
                matrix = symmetric_matrix(kind, n, seed)
                r = seekplan.order_matrix(matrix, algo="best", start=0, end=0)
                row = f"| {kind} | {n} | {seed} | {r.total_s:.0f} | {r.cpu_s:.2f} | "
                row += f"{r.stopped_because} |"
                if lkh and n <= args.lkh_max:
                    total, cpu = _lkh(matrix)
                    row += f" {total:.0f} | {cpu:.2f} | {r.total_s / total:.5f} |"
                else:
                    row += " - | - | - |"
                print(row, flush=True)


if __name__ == "__main__":
    main()
