"""Issue 37's speed targets for the mount replay, measured on the whole
work a user waits for:

1. one replay of 1,000,000 mount requests per eviction policy (a seeded
   synthetic trace: 30,000 cartridges over a year, four SL8500s, 16
   drives, 300 s dismount delay: drives are busy about half the time, so
   idle cartridges are evicted): CPU seconds of the replay call and the
   process's peak RSS (target ≤ 2 s and ≤ 1 GB);
2. the command `seekplan simulate mounts --synthetic 250000 --sweep
   dismount_delay=0,60,300,900,1800,3600` (6 delays × 6 policies, two local
   workers) from start to exit (target ≤ 30 s on 2 cores);
3. `load_trace` of 1,000,000 ECMWF lines, plain and bz2, through pyarrow's
   reader and through the line reader;
4. demount-mount cycles an hour of the catalogued TS4500 geometry with one
   and two accessors on a robot-bound trace (4,000 distinct cartridges at
   once, immediate dismount, no drive times), beside IBM's published 180
   and 550 (devices.toml, [IBM-TS4500-MP]).

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


def read_times() -> dict[str, float]:
    import bz2
    from datetime import UTC, datetime

    from seekplan.io import capped_lines
    from seekplan.mounts import columnar
    from seekplan.mounts.trace import _from_ecmwf, _open_text

    trace = mounts.synthetic_trace(1_000_000, 30_000, 365.0, seed=1)
    t0 = datetime(2011, 8, 19, tzinfo=UTC).timestamp()
    text = "".join(
        f"{trace.names[c]};{datetime.fromtimestamp(t0 + float(s), UTC):%Y%m%dT%H%M%S};"
        f"{max(1, round(float(b)))}\n"
        for s, c, b in zip(trace.time_s, trace.cartridge, trace.busy_s, strict=True)
    )
    out = {}
    with tempfile.TemporaryDirectory() as d:
        plain, packed = Path(d) / "io_events.csv", Path(d) / "io_events.csv.bz2"
        plain.write_text(text)
        packed.write_bytes(bz2.compress(text.encode()))
        for name, path in (("plain", plain), ("bz2", packed)):
            started = time.perf_counter()
            assert columnar.read_ecmwf_columns(path) is not None
            out[f"{name}_columnar_s"] = time.perf_counter() - started
            # The line reader as load_trace falls back to it.
            started = time.perf_counter()
            with _open_text(path) as f:
                lines = capped_lines(f, str(path))
                _from_ecmwf(path, next(lines), lines)
            out[f"{name}_line_reader_s"] = time.perf_counter() - started
    print("reading 1,000,000 ECMWF lines: " + ", ".join(f"{k} {v:.2f}" for k, v in out.items()))
    return out


def ts4500_cycles() -> dict[str, float]:
    import numpy as np

    n = 4_000
    trace = mounts.from_columns(np.zeros(n), [f"c{i}" for i in range(n)], np.zeros(n))
    out = {}
    for bots in (1, 2):
        cfg = mounts.parse_config(
            {
                "library": "ts4500",
                "drives": 64,
                "dismount": {"kind": "immediate"},
                "load_s": 0,
                "unload_s": 0,
            }
        )
        geometry = {**cfg.data["library"], "handbots_per_rail": bots}
        m = mounts.simulate(cfg.with_changes(library=geometry), trace)
        out[f"accessors_{bots}"] = m["loads"] / m["span_s"] * 3600
    print(
        f"TS4500 geometry, cycles an hour: one accessor {out['accessors_1']:.0f}, "
        f"two {out['accessors_2']:.0f} (IBM: 180 and 550)"
    )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", type=Path, help="write the figures here")
    args = ap.parse_args()
    require_release_build()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores", flush=True)
    result = {"replay_1m": replay_per_policy()}
    result["sweep_6x6_250k_wall_s"] = sweep_command()
    print(f"6 x 6 sweep over 250,000 requests: {result['sweep_6x6_250k_wall_s']:.1f} s wall")
    result["read_1m_ecmwf"] = read_times()
    result["ts4500_cycles_per_hour"] = ts4500_cycles()
    if args.json:
        args.json.write_text(json.dumps(result, indent=2) + "\n")


if __name__ == "__main__":
    main()
