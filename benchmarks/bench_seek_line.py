"""`best` on drives whose locates lie on a line (a startup plus a price per block,
either way: the helical drives as a seek measurement times them, no reading through
short distances), beside LKH-3 on the same locate matrix. `best` orders from the drive
model, where it finds the exact locate order along the line first; LKH-3 gets the
(n + 1)² locate matrix in whole milliseconds (node n the head, column n free: the path
ends anywhere) and its tour is timed on the exact matrix. One row per batch: `best`'s
locate positioning, CPU, stop reason and gap, whether its schedule streams (a
read-through schedule can position for less than any locate order); LKH-3's
positioning and CPU (elkai, an optional non-commercial extra: pip install -e
'.[bench-lkh]'; left out without it, and above --lkh-max requests, 100 by default:
LKH-3 took 269 s of CPU on one 1,000-file matrix).

    python benchmarks/bench_seek_line.py [--drives sony-dtf,ampex-dst310]
        [--sizes 100,1000] [--patterns uniform,gaussian,half,sequential] [--seeds 1-3]
"""

from __future__ import annotations

import argparse
import importlib.util
import time

import numpy as np
from bench_atsp import _lkh
from seek_matrices import PATTERNS, requests

from seekplan import _core
from seekplan.build import require_release_build
from seekplan.catalog import measured_drive


def main() -> None:
    """Prints the table for the drives, sizes, patterns and seeds asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drives", default="sony-dtf,ampex-dst310")
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--patterns", default=",".join(PATTERNS))
    parser.add_argument("--seeds", default="1-3", help="FIRST-LAST")
    parser.add_argument("--lkh-max", type=int, default=100)
    args = parser.parse_args()
    require_release_build()
    first, last = (int(x) for x in args.seeds.split("-"))
    have_lkh = importlib.util.find_spec("elkai") is not None
    print(
        "| drive | pattern | files | seed | best s | CPU s | stopped | gap % | moves "
        "| LKH-3 s | CPU s | best/LKH-3 |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: |")
    totals = {"best": 0.0, "lkh": 0.0}
    for drive_name in args.drives.split(","):
        drive = measured_drive(drive_name)
        for n in (int(s) for s in args.sizes.split(",")):
            for pattern in args.patterns.split(","):
                for seed in range(first, last + 1):
                    blocks, sizes, head = requests(pattern, n, seed, drive_name)
                    t0 = time.process_time()
                    s = _core.order(drive, blocks, sizes, "best", start=head)
                    cpu = time.process_time() - t0
                    totals["best"] += cpu
                    gap = "-" if s["gap"] is None else f"{100 * s['gap']:.3f}"
                    row = f"| {drive_name} | {pattern} | {n} | {seed} | {s['position_s']:.3f} "
                    row += f"| {cpu:.3f} | {s['stopped_because']} | {gap} | {s['moves']} |"
                    if have_lkh and n <= args.lkh_max:
                        matrix = np.asarray(_core.locate_matrix(drive, blocks, sizes, start=head))
                        lkh, lkh_cpu = _lkh(matrix, scale=1000.0)  # milliseconds
                        totals["lkh"] += lkh_cpu
                        row += f" {lkh:.3f} | {lkh_cpu:.2f} | {s['position_s'] / lkh:.5f} |"
                    else:
                        row += " - | - | - |"
                    print(row, flush=True)
    print(f"\nCPU in all: best {totals['best']:.2f} s, LKH-3 {totals['lkh']:.2f} s")


if __name__ == "__main__":
    main()
