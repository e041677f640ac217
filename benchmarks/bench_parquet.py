"""Reading a request batch of 1,000,000 rows from Parquet and from CSV, side
by side (issue 19: Parquet at least 5x faster). Both readers check every row
and return the same list of requests.

    python benchmarks/bench_parquet.py [--rows 1000000]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from seekplan.build import require_release_build
from seekplan.io import read_requests
from seekplan.sites import read_parquet_requests


def _best_of(fn, path: Path, repeats: int) -> tuple[float, list]:  # type: ignore[no-untyped-def]
    best, out = float("inf"), []
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn(path)
        best = min(best, time.perf_counter() - t)
    return best, out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    rng = np.random.default_rng(1)
    ids = [f"f{i:07d}" for i in range(args.rows)]
    block = rng.integers(0, 70_000_000, args.rows)
    size = rng.integers(1, 40_000_000_000, args.rows)
    with tempfile.TemporaryDirectory() as tmp:
        csv_path, pq_path = Path(tmp) / "batch.csv", Path(tmp) / "batch.parquet"
        with csv_path.open("w") as f:
            f.write("id,block,size\n")
            f.writelines(f"{i},{b},{s}\n" for i, b, s in zip(ids, block, size, strict=True))
        pq.write_table(pa.table({"id": ids, "block": block, "size": size}), pq_path)
        t_csv, from_csv = _best_of(read_requests, csv_path, args.repeats)
        t_pq, from_pq = _best_of(read_parquet_requests, pq_path, args.repeats)
        assert from_csv == from_pq
        mb = {p.suffix: p.stat().st_size / 1e6 for p in (csv_path, pq_path)}
    print(f"{args.rows:,} requests, best of {args.repeats} (wall seconds):")
    print(f"  CSV     {t_csv:6.2f} s  ({mb['.csv']:.0f} MB)")
    print(f"  Parquet {t_pq:6.2f} s  ({mb['.parquet']:.0f} MB)")
    print(f"  Parquet is {t_csv / t_pq:.1f}x faster")


if __name__ == "__main__":
    require_release_build()
    main()
