"""How far `patch` and `best` end from the certified lower bound every schedule
carries (`lower_bound_s`), on uniform batches of catalogued drives.

    python benchmarks/bench_gap.py [--drives mlr1,dlt4000,lto9] [--sizes 100,1000,2000]
"""

from __future__ import annotations

import argparse
import time

import seekplan
from seekplan.build import require_release_build
from seekplan.workload import uniform_batch


def main() -> None:
    """Prints one line per drive and batch size."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--drives", default="mlr1,dlt4000,lto9")
    ap.add_argument("--sizes", default="100,1000,2000")
    args = ap.parse_args()
    print("drive | n | bound s | patch gap % | patch CPU s | best gap % | best CPU s")
    for drive in args.drives.split(","):
        capacity = seekplan.make_drive(drive).capacity
        for n in (int(x) for x in args.sizes.split(",")):
            batch = uniform_batch(capacity, n, 32768, 7_000 + 31 * n)
            cells = []
            for algo in ("patch", "best"):
                t = time.process_time()
                r = seekplan.order(batch, drive=drive, algo=algo)
                cells += [f"{100 * r.gap:.3f}", f"{time.process_time() - t:.2f}"]
            print(f"{drive} | {n} | {r.lower_bound_s:.1f} | " + " | ".join(cells), flush=True)


if __name__ == "__main__":
    require_release_build()
    main()
