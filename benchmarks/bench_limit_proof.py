"""What a time limit buys `best` on the batches its defaults leave unproven: for each
seek matrix (`seek_matrices.py`) on which `best` with its defaults stops by its budget,
the same call with `time_limit=T` beside it: why it stopped, its CPU, and its total
against the default's. Run it on two builds to compare them.

    python benchmarks/bench_limit_proof.py [--limit 10] [--files 100]
        [--cases lto9/uniform+gaussian+half/1-8,ibm3590/uniform/1-8]
"""

from __future__ import annotations

import argparse

from seek_matrices import seek_matrix

import seekplan
from seekplan.build import require_release_build

CASES = "lto9/uniform+gaussian+half/1-8,ibm3590/uniform/1-8"


def _cases(spec: str) -> list[tuple[str, str, int]]:
    """(drive, pattern, seed) for each DRIVE/PATTERN+.../FIRST-LAST in `spec`."""
    cases: list[tuple[str, str, int]] = []
    for group in spec.split(","):
        drive, patterns, seeds = group.split("/")
        first, last = (int(x) for x in seeds.split("-"))
        cases += [(drive, p, s) for p in patterns.split("+") for s in range(first, last + 1)]
    return cases


def main() -> None:
    """Prints the table for the cases asked."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=float, default=10.0, help="time limit, seconds")
    parser.add_argument("--files", type=int, default=100, help="files per matrix")
    parser.add_argument("--cases", default=CASES, help="DRIVE/PATTERN+.../FIRST-LAST,...")
    args = parser.parse_args()
    require_release_build()
    n = args.files
    limit = f"limit {args.limit:g} s: stopped, CPU s"
    print(f"| matrix | default total s | {limit} | total s (vs default) |")
    print("| --- | ---: | --- | ---: |")
    for drive, pattern, seed in _cases(args.cases):
        matrix = seek_matrix(pattern, n, seed, drive)
        quick = seekplan.order_matrix(matrix, algo="best", start=n)
        if quick.stopped_because == "optimal":
            continue
        limited = seekplan.order_matrix(matrix, algo="best", start=n, time_limit=args.limit)
        change = (limited.positioning_s / quick.positioning_s - 1) * 100
        print(
            f"| {drive} {pattern} {seed} | {quick.positioning_s:.3f} | "
            f"{limited.stopped_because}, {limited.cpu_s:.2f} | "
            f"{limited.positioning_s:.3f} ({change:+.4f} %) |",
            flush=True,
        )


if __name__ == "__main__":
    main()
