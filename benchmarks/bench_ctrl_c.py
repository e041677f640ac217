"""How soon `seekplan order` ends after Ctrl-C: the command runs `best` on a
large batch (`bench_large_batch.py`'s requests, seed 5, written as CSV), gets
SIGINT after each of the given delays, and the time from the signal to its
exit (130) is printed.

    python benchmarks/bench_ctrl_c.py [--drive lto9] [--n 100000] [--after 0.8,2,5]
"""

from __future__ import annotations

import argparse
import csv
import random
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import seekplan
from seekplan.build import require_release_build


def _write_requests(path: Path, drive: str, n: int) -> None:
    random.seed(5)
    capacity = seekplan.catalog.make_drive(drive).capacity
    with path.open("w", newline="") as f:
        out = csv.writer(f)
        out.writerow(["id", "block", "size"])
        out.writerows((f"r{i}", random.randrange(capacity - 64), 32768) for i in range(n))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drive", default="lto9")
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--after", default="0.8,2,5", help="seconds before SIGINT")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "requests.csv"
        _write_requests(path, args.drive, args.n)
        command = [sys.executable, "-m", "seekplan", "order", str(path), "--drive", args.drive]
        for delay in (float(a) for a in args.after.split(",")):
            child = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            time.sleep(delay)
            child.send_signal(signal.SIGINT)
            sent = time.monotonic()
            child.communicate()
            print(
                f"{args.drive} {args.n:,}: SIGINT after {delay} s, exit {child.returncode} "
                f"{time.monotonic() - sent:.2f} s later",
                flush=True,
            )


if __name__ == "__main__":
    require_release_build()
    main()
