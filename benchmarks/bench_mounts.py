"""Issue 37's speed targets for the mount replay, measured on the whole
work a user waits for:

1. one replay of 1,000,000 mount requests per eviction policy (a seeded
   synthetic trace: 30,000 cartridges over a year, four SL8500s, 16
   drives, 300 s dismount delay: drives are busy about half the time, so
   idle cartridges are evicted): CPU seconds of the replay call and the
   process's peak RSS (target ≤ 2 s and ≤ 1 GB);
2. the command `seekplan simulate mounts --synthetic 250000 --sweep
   dismount_delay=0,60,300,900,1800,3600` (6 delays × 6 policies, two local
   workers) from start to exit (target ≤ 30 s on 2 cores).

    python benchmarks/bench_mounts.py [--json OUT.json]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from seekplan import mounts
from seekplan.build import require_release_build

SEEKPLAN = str(Path(sys.executable).parent / "seekplan")


def replay_per_policy() -> dict[str, float]:
    t0 = time.process_time()
    trace = mounts.synthetic_trace(1_000_000, 30_000, 365.0, seed=1)
    generate_s = time.process_time() - t0
    cfg = mounts.parse_config({"library": "sl8500x4", "drives": 16})
    out: dict[str, float] = {"generate_cpu_s": generate_s}
    for policy in mounts.POLICIES:
        run = cfg.with_changes(eviction=policy)
        t0 = time.process_time()
        m = mounts.simulate(run, trace)
        out[policy] = time.process_time() - t0
        print(f"{policy:>7}: {out[policy]:.2f} s CPU, {m['loads']:,} loads", flush=True)
    t0 = time.process_time()
    floor = mounts.untimed_loads(trace, 16)
    out["floor_cpu_s"] = time.process_time() - t0
    out["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(
        f"  floor: {floor:,} loads in {out['floor_cpu_s']:.2f} s; "
        f"peak RSS {out['peak_rss_mb']:.0f} MB",
        flush=True,
    )
    return out


def sweep_command() -> float:
    with tempfile.TemporaryDirectory() as d:
        cmd = [
            SEEKPLAN,
            "simulate",
            "mounts",
            "--synthetic",
            "250000",
            "--library",
            "sl8500x4",
            "--drives",
            "64",
            "--sweep",
            "dismount_delay=0,60,300,900,1800,3600",
            "--workers",
            "2",
            "--out",
            d,
        ]
        started = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        return time.perf_counter() - started


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()
    require_release_build()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    result = {"replay_1m": replay_per_policy()}
    result["sweep_6x6_250k_wall_s"] = sweep_command()
    print(f"6 x 6 sweep over 250,000 requests: {result['sweep_6x6_250k_wall_s']:.1f} s wall")
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
