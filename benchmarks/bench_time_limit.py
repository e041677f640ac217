"""How well `best` keeps a caller's time limit: the wall time of one
`seekplan.order` / `seekplan.order_matrix` call with `time_limit=T`, beside the
same call with `fifo` (reading the requests in and the result out, no search
and no bound) and `sltf` (what `best` returns when its limit passes before its
search has a tour: never worse than SLTF). Drive batches use `bench_large_batch.py`'s
requests (seed 5); matrices the seek-matrix family (`seek_matrices.py`,
instance seed 1). With ``--cli`` the drive rows also time the whole command,
`seekplan order REQUESTS.csv --drive D --algo best --time-limit T --json`.

    python benchmarks/bench_time_limit.py [--cli] [--cases drive:lto9:100000:1,...]
"""

from __future__ import annotations

import argparse
import csv
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from seek_matrices import seek_matrix

import seekplan
from seekplan.build import require_release_build

# Each case: kind, drive or pattern, requests, time limit in seconds.
CASES = (
    "drive:lto9:4000:0.2",
    "drive:dlt7000:4000:0.2",
    "drive:lto9:20000:0.5",
    "drive:dlt7000:20000:0.5",
    "drive:mlr1:10000:1.5",
    "drive:mlr1:20000:3",
    "drive:lto9:100000:1",
    "drive:lto9:100000:5",
    "matrix:uniform:3000:0.3",
    "matrix:uniform:5000:0.3",
    "matrix:uniform:10000:0.5",
)


def _requests(drive: str, n: int) -> list[tuple[str, int, int]]:
    random.seed(5)
    cap = seekplan.catalog.make_drive(drive).capacity
    return [(f"r{i}", random.randrange(cap - 64), 32768) for i in range(n)]


def _wall(call: Callable[..., Any], *args: Any, **kw: Any) -> tuple[float, Any]:
    t = time.perf_counter()
    result = call(*args, **kw)
    return time.perf_counter() - t, result


def _cli_wall(drive: str, requests: list[tuple[str, int, int]], limit: float) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "requests.csv"
        with path.open("w", newline="") as f:
            out = csv.writer(f)
            out.writerow(["id", "block", "size"])
            out.writerows(requests)
        command = [sys.executable, "-m", "seekplan", "order", str(path), "--drive", drive]
        command += ["--algo", "best", "--time-limit", str(limit), "--json"]
        t = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        return time.perf_counter() - t


def _runner(kind: str, name: str, n: int) -> Callable[..., Any]:
    """One order call on the case's batch, by algorithm and options."""
    if kind == "drive":
        requests = _requests(name, n)
        return lambda algo, **kw: seekplan.order(requests, drive=name, algo=algo, **kw)
    matrix = seek_matrix(name, n, 1)
    return lambda algo, **kw: seekplan.order_matrix(matrix, start=n, algo=algo, **kw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", default=",".join(CASES), help="kind:name:n:limit,...")
    parser.add_argument("--cli", action="store_true", help="also time the whole command")
    args = parser.parse_args()
    print(
        "| case | limit s | best wall s | wall / limit | fifo wall s | sltf wall s | stopped | "
        "command wall s |"
    )
    print("| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: |")
    for case in args.cases.split(","):
        kind, name, size, limit_text = case.split(":")
        n, limit = int(size), float(limit_text)
        run = _runner(kind, name, n)
        command = "-"
        if kind == "drive" and args.cli:
            command = f"{_cli_wall(name, _requests(name, n), limit):.2f}"
        wall, result = _wall(run, "best", time_limit=limit)
        fifo, _ = _wall(run, "fifo", bound=False)
        sltf, _ = _wall(run, "sltf", bound=False)
        print(
            f"| {kind} {name} {n:,} | {limit} | {wall:.2f} | {wall / limit:.2f} | {fifo:.2f} | "
            f"{sltf:.2f} | {result.stopped_because} | {command} |",
            flush=True,
        )


if __name__ == "__main__":
    require_release_build()
    main()
