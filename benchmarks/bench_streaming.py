"""Streaming against locating on helical tapes whose locates always seek (the
drives as a seek measurement sees them, `measured_drive`: no reading through
short seeks). For the files of `seek_matrices.requests` (the seek-matrix
family's patterns), one row per drive, pattern and size: the positioning of
`best`'s schedule on the tape (which may stream forward through the files, as
READ does) beside `best` on the same batch's locate matrix (locate orders
only), their ratio, and READ's and SORT's positioning.

    python benchmarks/bench_streaming.py [--sizes 100,1000]
        [--drives sony-dtf,ampex-dst310,4mm-dat] [--patterns uniform,gaussian,half]
"""

from __future__ import annotations

import argparse

from seek_matrices import requests

import seekplan
from seekplan import _core
from seekplan.build import require_release_build
from seekplan.catalog import measured_drive


def main() -> None:
    """Prints the table for the drives, patterns and sizes asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,1000")
    parser.add_argument("--drives", default="sony-dtf,ampex-dst310,4mm-dat")
    parser.add_argument("--patterns", default="uniform,gaussian,half")
    args = parser.parse_args()
    require_release_build()
    print(
        "| drive | pattern | files | best s | moves | best locate order s | ratio "
        "| READ s | SORT s |"
    )
    print("| --- | --- | ---: | ---: | --- | ---: | ---: | ---: | ---: |")
    for name in args.drives.split(","):
        drive = measured_drive(name)
        for pattern in args.patterns.split(","):
            for n in (int(s) for s in args.sizes.split(",")):
                blocks, sizes, head = requests(pattern, n, 1, name)
                best = _core.order(drive, blocks, sizes, "best", start=head)
                matrix = _core.locate_matrix(drive, blocks, sizes, start=head)
                locating = seekplan.order_matrix(matrix, algo="best", start=n)
                read = _core.order(drive, blocks, sizes, "read", start=head)
                sort = _core.order(drive, blocks, sizes, "sort", start=head)
                ratio = best["position_s"] / locating.positioning_s
                print(
                    f"| {name} | {pattern} | {n} | {best['position_s']:.1f} | {best['moves']} "
                    f"| {locating.positioning_s:.1f} | {ratio:.3f} | {read['position_s']:.1f} "
                    f"| {sort['position_s']:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
