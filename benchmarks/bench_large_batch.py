"""One large batch ordered on a catalogued drive: wall time, total and peak
memory of one process (issue 11 item 6: 100,000 requests with `best` in <= 60 s
and <= 2 GB; 1,000,000 with a cheaper algorithm in <= 60 s).

    python benchmarks/bench_large_batch.py DRIVE N ALGO     # e.g. lto9 100000 best
"""

from __future__ import annotations

import random
import resource
import sys
import time

import seekplan
from seekplan.build import require_release_build


def main() -> None:
    drive, n, algo = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    random.seed(5)
    cap = seekplan.catalog.make_drive(drive).capacity
    reqs = [(f"r{i}", random.randrange(cap - 64), 32768) for i in range(n)]
    t, cpu = time.perf_counter(), time.process_time()
    r = seekplan.order(reqs, drive=drive, algo=algo, bound=False)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6
    phases = ", ".join(f"{k} {v:.2f}" for k, v in (r.phases_cpu_s or {}).items())
    print(
        f"{drive} {n} {algo}: wall {time.perf_counter() - t:.1f} s, "
        f"CPU {time.process_time() - cpu:.1f} s, total {r.total_s:.1f} s, "
        f"peak {peak:.2f} GB" + (f"; phases (CPU s): {phases}" if phases else "")
    )


if __name__ == "__main__":
    require_release_build()
    main()
