"""Recall simulator speed: the core's CPU per Table-1 configuration beside the
same model in SimPy (the paper's tool) on the same campaign, the ratio per
configuration, and a campaign ten times KIT's.

    pip install -e '.[bench]'     # SimPy
    python benchmarks/bench_recall.py [--scale 1.0] [--repeat 3] [--json FILE]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

from seekplan.build import require_release_build

sys.path.insert(0, str(Path(__file__).parent))

import simpy_recall  # noqa: E402

from seekplan.experiments import dcache  # noqa: E402
from seekplan.recall import generate_kit, simulate  # noqa: E402
from seekplan.recall.config import parse_config  # noqa: E402

# A campaign ten times KIT's: 5 M files on 3,320 tapes, 120 drives, queue
# 300,000, 60 virtual hours; run in a child process so its peak memory is
# its own.
TENFOLD = """
import json, resource, sys, time

def peak_gb():
    # The process's own high-water mark: ru_maxrss survives fork and exec,
    # so in a child of this bench it reported the parent's 1.05 GB.
    try:
        with open("/proc/self/status") as f:
            kb = next(int(line.split()[1]) for line in f if line.startswith("VmHWM:"))
    except (OSError, StopIteration):
        kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1e6

from seekplan.recall import generate_kit, simulate
from seekplan.recall.config import parse_config
t = time.process_time()
c = generate_kit(1, 10.0)
gen = time.process_time() - t
cfg = parse_config({{"library": {{"drives": 120, "queue_size": 300000}},
                     "strategy": {strategy}}})
t = time.process_time()
out = simulate(cfg, c)
print(json.dumps({{"files": c.files, "tapes": len(c.capacity), "generate_cpu_s": gen,
                  "simulate_cpu_s": time.process_time() - t, "events": out["events"],
                  "throughput_mb_s": out["metrics"]["throughput_mb_s"],
                  "peak_rss_gb": peak_gb()}}))
"""


def _cpu(fn, *args):  # type: ignore[no-untyped-def]
    t = time.process_time()
    out = fn(*args)
    return out, time.process_time() - t


def _side_by_side(scale: float, repeat: int) -> tuple[list[dict], float]:
    """Both simulators per Table-1 configuration, and the CPU seconds of
    handing the campaign to the core (once, shared by the runs). Each of
    `repeat` passes runs the eight core runs back to back, as a sweep would
    run them, then the SimPy twin's same eight; each side keeps its first
    pass (a cold, single shot) and its fastest."""
    campaign = generate_kit(1, scale)
    _, handover = _cpu(lambda: campaign.core)
    configs = {}
    for key in dcache.PAPER:
        data = dcache._configs(quick=False)["paper"][key].data
        data["library"]["queue_size"] = round(data["library"]["queue_size"] * scale)
        data["duration_h"] = 60 * scale
        configs[key] = parse_config(data)
    passes = []
    for _ in range(repeat):
        ours = {key: _cpu(simulate, c, campaign) for key, c in configs.items()}
        theirs = {key: _cpu(simpy_recall.simulate, c, campaign) for key, c in configs.items()}
        passes.append((ours, theirs))
    first_ours, first_theirs = passes[0]
    rows = []
    for key in configs:
        (o, first_rust), (t, first_simpy) = first_ours[key], first_theirs[key]
        t_rust = min(ours[key][1] for ours, _ in passes)
        t_simpy = min(theirs[key][1] for _, theirs in passes)
        m = o["metrics"]
        rows.append(
            {
                "run": key,
                "rust_mb_s": m["throughput_mb_s"],
                "simpy_mb_s": t["throughput_mb_s"],
                "rust_staging_min": m["staging_min"],
                "simpy_staging_min": t["staging_min"],
                "rust_mounts": m["mounts"],
                "simpy_mounts": t["mounts"],
                "rust_events": o["events"],
                "rust_cpu_s": t_rust,
                "simpy_cpu_s": t_simpy,
                "simpy_over_rust": t_simpy / t_rust,
                "first_pass_ratio": first_simpy / first_rust,
            }
        )
    return rows, handover


def _whole_campaign() -> list[dict]:
    """Each Table-1 configuration run until the last file is staged (a
    virtual duration long enough for the slowest, random at queue 2,000)."""
    campaign = generate_kit(1, 1.0)
    rows = []
    for key in dcache.PAPER:
        data = dcache._configs(quick=False)["paper"][key].data
        data["duration_h"] = 5000
        out, cpu = _cpu(simulate, parse_config(data), campaign)
        m = out["metrics"]
        if m["files_staged"] != m["files_requested"]:
            raise SystemExit(f"{key}: {m['files_staged']} of {m['files_requested']} staged")
        rows.append(
            {
                "run": key,
                "last_staged_h": m["last_staged_s"] / 3600,
                "cpu_s": cpu,
                "events": out["events"],
            }
        )
    return rows


def _tenfold(strategy: dict) -> dict:
    code = TENFOLD.format(strategy=json.dumps(strategy))
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0, help="campaign scale of the comparison")
    ap.add_argument("--json", type=Path, default=Path(__file__).with_name("bench_recall.json"))
    ap.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="passes over the eight runs (each side's fastest counts)",
    )
    args = ap.parse_args()

    side, handover = _side_by_side(args.scale, args.repeat)
    print(
        f"Rust core vs SimPy twin, KIT campaign scale {args.scale}, defaults "
        f"(CPU seconds, fastest of {args.repeat} passes; first_pass_ratio: the cold first pass):"
    )
    cols = list(side[0])
    print(" ".join(f"{c:>17}" for c in cols))
    for r in side:
        print(" ".join(f"{v:>17.4g}" if isinstance(v, float) else f"{v!s:>17}" for v in r.values()))
    rust = sum(r["rust_cpu_s"] for r in side)
    simpy = sum(r["simpy_cpu_s"] for r in side)
    print(f"8 Table-1 runs: Rust {rust:.3f} s, SimPy {simpy:.1f} s of CPU ({simpy / rust:.0f}x)")
    print(f"campaign handed to the core once (shared by the runs): {handover:.3f} s CPU")
    whole = _whole_campaign()
    for r in whole:
        print(
            f"whole campaign {r['run']}: last file at {r['last_staged_h']:.0f} h, "
            f"{r['cpu_s']:.3f} s CPU, {r['events']:,} events"
        )
    tenfold = {
        name: _tenfold(strategy)
        for name, strategy in (
            ("by-12-tapes", {"name": "by-tapes", "tapes": 120}),
            ("random", {"name": "random"}),
        )
    }
    for name, r in tenfold.items():
        print(
            f"10x KIT ({r['files']:,} files, {r['tapes']:,} tapes, 120 drives), {name}: "
            f"simulate {r['simulate_cpu_s']:.2f} s CPU, {r['events']:,} events, "
            f"generate {r['generate_cpu_s']:.1f} s, peak {r['peak_rss_gb']:.2f} GB"
        )
    args.json.write_text(
        json.dumps(
            {
                "scale": args.scale,
                "repeat": args.repeat,
                "side_by_side": side,
                "table1_rust_cpu_s": rust,
                "table1_simpy_cpu_s": simpy,
                "campaign_handover_cpu_s": handover,
                "whole_campaign": whole,
                "tenfold": tenfold,
                "bench_peak_rss_gb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1e6,
            },
            indent=2,
        )
        + "\n"
    )


if __name__ == "__main__":
    require_release_build()
    main()
