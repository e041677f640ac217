"""Wall time of every `seekplan reproduce NAME` (with --quick, and without),
the figures `seekplan reproduce --help` quotes.

    python benchmarks/time_reproductions.py [--quick-only] [--names a,b] [--json OUT.json]

Each run is the whole command a user types (a fresh process, default
workers), timed from start to exit; the machine's load is printed beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from seekplan.build import require_release_build
from seekplan.experiments import EXPERIMENTS

SEEKPLAN = str(Path(sys.executable).parent / "seekplan")


def time_run(name: str, quick: bool) -> float:
    with tempfile.TemporaryDirectory() as out:
        cmd = [SEEKPLAN, "reproduce", name, "--out", out, *(["--quick"] if quick else [])]
        started = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick-only", action="store_true", help="skip the full runs")
    ap.add_argument("--names", help="comma-separated reproductions (default: all)")
    ap.add_argument("--json", type=Path, help="write the times here")
    args = ap.parse_args()
    rows = {}
    print("| name | --quick s | full s | load before |")
    print("| --- | ---: | ---: | ---: |")
    names = args.names.split(",") if args.names else list(EXPERIMENTS)
    for name in names:
        load = os.getloadavg()[0]
        quick = time_run(name, True)
        full = None if args.quick_only else time_run(name, False)
        rows[name] = {
            "quick_s": round(quick, 1),
            "full_s": None if full is None else round(full, 1),
        }
        shown = "-" if full is None else f"{full:.1f}"
        print(f"| {name} | {quick:.1f} | {shown} | {load:.2f} |", flush=True)
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")


if __name__ == "__main__":
    require_release_build()
    main()
