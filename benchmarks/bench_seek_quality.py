"""How far `best`'s defaults end from a time-limited `best` on seek matrices
(`seek_matrices.py`), the issue's quality target (within 0.01 %): for each matrix the
defaults leave unproven, the same call with `time_limit=T` beside it; a proven default
needs no reference. Prints one row per matrix and the count of misses.

    python benchmarks/bench_seek_quality.py [--files 100] [--drives lto9,lto10,ibm3590,lto5]
        [--patterns uniform,gaussian,half] [--seeds 4-9] [--limit 10]
"""

from __future__ import annotations

import argparse

from seek_matrices import seek_matrix

import seekplan
from seekplan.build import require_release_build

# The quality target: within this much (percent) of the reference.
TARGET_PCT = 0.01


def main() -> None:
    """Prints the table for the matrices asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=100, help="files per matrix")
    parser.add_argument("--drives", default="lto9,lto10,ibm3590,lto5")
    parser.add_argument("--patterns", default="uniform,gaussian,half")
    parser.add_argument("--seeds", default="4-9", help="FIRST-LAST")
    parser.add_argument("--limit", type=float, default=10.0, help="the reference's limit, s")
    args = parser.parse_args()
    require_release_build()
    first, last = (int(x) for x in args.seeds.split("-"))
    n = args.files
    print("| matrix | default total s, CPU s, stop | reference total s, CPU s, stop | above it % |")
    print("| --- | --- | --- | ---: |")
    counts = {"proven": 0, "matched": 0, "misses": 0}
    for drive in args.drives.split(","):
        for pattern in args.patterns.split(","):
            for seed in range(first, last + 1):
                matrix = seek_matrix(pattern, n, seed, drive)
                quick = seekplan.order_matrix(matrix, algo="best", start=n)
                row = f"| {drive} {pattern} {seed} | {quick.positioning_s:.4f}, "
                row += f"{quick.cpu_s:.3f}, {quick.stopped_because}"
                if quick.stopped_because == "optimal":
                    counts["proven"] += 1
                    print(f"{row} | - | - |", flush=True)
                    continue
                ref = seekplan.order_matrix(matrix, algo="best", start=n, time_limit=args.limit)
                above = (quick.positioning_s / ref.positioning_s - 1) * 100
                counts["misses" if above > TARGET_PCT else "matched"] += 1
                ref_cell = f"{ref.positioning_s:.4f}, {ref.cpu_s:.2f}, {ref.stopped_because}"
                print(f"{row} | {ref_cell} | {above:+.4f} |", flush=True)
    print(
        f"\n{counts['proven']} proven by default, {counts['matched']} within "
        f"{TARGET_PCT} % of the {args.limit:g}-s run, {counts['misses']} above it"
    )


if __name__ == "__main__":
    main()
