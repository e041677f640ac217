"""`best` beside LKH-3 on the plainest seek model: a tape as a line, every locate a
startup plus the distance, cost(i -> j) = STARTUP_S + |start of j - end of i|. Files
start uniformly on [0, LENGTH] and are 0.1 to LENGTH / n long; node n is the head, at a
uniform position; the path ends anywhere (column n is 0). Costs are rounded to
milliseconds (integers, as LKH-3 takes them); with ``--unrounded`` they are left as
the model gives them (milliseconds, not whole), and LKH-3 is not run. One row per
instance: `best`'s total, CPU, stop reason and gap to its bound, LKH-3's total and
time (elkai, an optional non-commercial extra: pip install -e '.[bench-lkh]'; left
out without it).

    python benchmarks/bench_linear_seek.py [--sizes 100,300] [--seeds 1-3] [--time-limit S]
        [--unrounded]
"""

from __future__ import annotations

import argparse
import importlib.util

import numpy as np
from bench_atsp import _lkh

import seekplan
from seekplan.build import require_release_build

# Our choice: a startup a few times a typical hop between neighbouring files.
STARTUP_S = 5.0
LENGTH = 1000.0


def linear_matrix(n: int, seed: int, rounded: bool = True) -> np.ndarray:
    """The (n + 1)² matrix of one instance, in milliseconds (whole if `rounded`)."""
    rng = np.random.default_rng([seed, n])
    start = rng.uniform(0, LENGTH, n)
    end = start + rng.uniform(0.1, LENGTH / n, n)
    head = rng.uniform(0, LENGTH)
    ends = np.append(end, head)
    starts = np.append(start, 0.0)
    m = STARTUP_S + np.abs(starts[None, :] - ends[:, None])
    m[:, n] = 0.0
    np.fill_diagonal(m, 0.0)
    return np.rint(m * 1000.0) if rounded else m * 1000.0


def main() -> None:
    """Prints the table for the sizes and seeds asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,300")
    parser.add_argument("--seeds", default="1-3", help="FIRST-LAST")
    parser.add_argument("--time-limit", type=float, help="`best`'s time limit, s (none: defaults)")
    parser.add_argument(
        "--unrounded", action="store_true", help="costs as the model gives them; no LKH-3"
    )
    args = parser.parse_args()
    require_release_build()
    first, last = (int(x) for x in args.seeds.split("-"))
    print("| files | seed | best ms | CPU s | stopped | gap % | LKH-3 ms | CPU s | best/LKH-3 |")
    print("| ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for n in (int(s) for s in args.sizes.split(",")):
        for seed in range(first, last + 1):
            matrix = linear_matrix(n, seed, rounded=not args.unrounded)
            r = seekplan.order_matrix(matrix, algo="best", start=n, time_limit=args.time_limit)
            gap = 100 * (r.gap or 0.0)
            row = f"| {n} | {seed} | {r.positioning_s:.0f} | {r.cpu_s:.2f} | "
            row += f"{r.stopped_because} | {gap:.4f} |"
            if args.unrounded or importlib.util.find_spec("elkai") is None:
                row += " - | - | - |"
            else:
                lkh = _lkh(matrix)
                row += f" {lkh[0]:.0f} | {lkh[1]:.2f} | {r.positioning_s / lkh[0]:.5f} |"
            print(row, flush=True)


if __name__ == "__main__":
    main()
