"""`best` on a catalogued drive's batch beside `best` on the same batch's locate
matrix: the drive path (what `seekplan order --drive` runs) should find orders as
short as the matrix path finds for the same costs. The files of
`seek_matrices.requests` (the seek-matrix family's patterns), one row per drive,
pattern, size and seed: each path's positioning, CPU and stop reason, and their
ratio (above 1: the drive path's order is longer), then the sums.

    python benchmarks/bench_tape_vs_matrix.py [--sizes 100]
        [--drives lto9,lto10,ibm3590,dlt4000,mlr1,lto5,4mm-dat,sony-dtf,ampex-dst310]
        [--patterns uniform,gaussian,half] [--seeds 1-2]
"""

from __future__ import annotations

import argparse
import time

from seek_matrices import requests

import seekplan
from seekplan import _core
from seekplan.build import require_release_build

DRIVES = "lto9,lto10,ibm3590,dlt4000,mlr1,lto5,4mm-dat,sony-dtf,ampex-dst310"


def main() -> None:
    """Prints the table for the drives, patterns, sizes and seeds asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100")
    parser.add_argument("--drives", default=DRIVES)
    parser.add_argument("--patterns", default="uniform,gaussian,half")
    parser.add_argument("--seeds", default="1-2", help="FIRST-LAST")
    args = parser.parse_args()
    require_release_build()
    first, last = (int(x) for x in args.seeds.split("-"))
    print(
        "| drive | pattern | files | seed | drive path s | CPU s | stopped | matrix s | CPU s "
        "| ratio |"
    )
    print("| --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |")
    cpu = [0.0, 0.0]
    longer = 0
    for name in args.drives.split(","):
        drive = seekplan.make_drive(name)
        for pattern in args.patterns.split(","):
            for n in (int(s) for s in args.sizes.split(",")):
                for seed in range(first, last + 1):
                    blocks, sizes, head = requests(pattern, n, seed, name)
                    t = time.process_time()
                    tape = _core.order(drive, blocks, sizes, "best", start=head)
                    tape_cpu = time.process_time() - t
                    matrix = _core.locate_matrix(drive, blocks, sizes, start=head)
                    t = time.process_time()
                    by_matrix = seekplan.order_matrix(matrix, algo="best", start=n)
                    matrix_cpu = time.process_time() - t
                    ratio = tape["position_s"] / by_matrix.positioning_s
                    cpu[0] += tape_cpu
                    cpu[1] += matrix_cpu
                    longer += ratio > 1 + 1e-9
                    print(
                        f"| {name} | {pattern} | {n} | {seed} | {tape['position_s']:.2f} "
                        f"| {tape_cpu:.3f} | {tape['stopped_because']} "
                        f"| {by_matrix.positioning_s:.2f} | {matrix_cpu:.3f} | {ratio:.5f} |",
                        flush=True,
                    )
    print(f"\nCPU: drive path {cpu[0]:.2f} s, matrix path {cpu[1]:.2f} s")
    print(f"drive path longer on {longer}")


if __name__ == "__main__":
    main()
