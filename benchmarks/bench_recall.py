"""Recall simulator speed: events per second of the Rust core, the wall time
of the whole `reproduce dcache`, and the same library model in SimPy (the
paper's tool) on the same workload, side by side.

    pip install -e '.[bench]'     # SimPy
    python benchmarks/bench_recall.py [--scale 0.25] [--json benchmarks/bench_recall.json]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import simpy_recall  # noqa: E402

from seekplan.experiments import dcache  # noqa: E402
from seekplan.recall import generate_kit, simulate  # noqa: E402
from seekplan.recall.config import parse_config  # noqa: E402


def _engine(events: int) -> dict:
    """The bare engine (crates/seekplan-core/examples/sim_events.rs), release build."""
    cmd = ["cargo", "run", "--release", "-q", "-p", "seekplan-core", "--example", "sim_events"]
    out = subprocess.run([*cmd, str(events)], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def _reproduce() -> float:
    with tempfile.TemporaryDirectory() as d:
        t = time.perf_counter()
        dcache.run(Path(d), quick=False, workers=2)
        return time.perf_counter() - t


def _events() -> list[dict]:
    rows = []
    campaign = generate_kit(1, 1.0)
    for key, config in dcache._configs(quick=False).items():
        t = time.perf_counter()
        out = simulate(config, campaign)
        dt = time.perf_counter() - t
        rows.append(
            {"run": key, "events": out["events"], "s": dt, "events_per_s": out["events"] / dt}
        )
    return rows


def _side_by_side(scale: float) -> list[dict]:
    campaign = generate_kit(1, scale)
    rows = []
    for name, strategy in (
        ("random", {"name": "random"}),
        ("by-12-tapes", {"name": "by-tapes", "tapes": 12}),
        ("by-2-tapes", {"name": "by-tapes", "tapes": 2}),
    ):
        config = parse_config(
            {
                "library": {"queue_size": round(2000 * scale)},
                "strategy": strategy,
                "duration_h": 60 * scale,
            }
        )
        t = time.perf_counter()
        ours = simulate(config, campaign)
        t_rust = time.perf_counter() - t
        t = time.perf_counter()
        theirs = simpy_recall.simulate(config, campaign)
        t_simpy = time.perf_counter() - t
        m = ours["metrics"]
        rows.append(
            {
                "strategy": name,
                "rust_mb_s": m["throughput_mb_s"],
                "simpy_mb_s": theirs["throughput_mb_s"],
                "rust_staging_min": m["staging_min"],
                "simpy_staging_min": theirs["staging_min"],
                "rust_mounts": m["mounts"],
                "simpy_mounts": theirs["mounts"],
                "rust_s": t_rust,
                "simpy_s": t_simpy,
                "speedup": t_simpy / t_rust,
            }
        )
    return rows


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=0.25, help="campaign scale for SimPy")
    ap.add_argument("--json", type=Path, default=Path(__file__).with_name("bench_recall.json"))
    args = ap.parse_args()

    engine = _engine(10_000_000)
    print(f"bare engine: {engine['events_per_s']:,.0f} events/s ({engine['events']:,} events)")
    wall = _reproduce()
    print(f"reproduce dcache (9 runs, 2 workers): {wall:.1f} s wall")
    events = _events()
    print(f"{'run':22} {'events':>9} {'s':>6} {'events/s':>11}")
    for r in events:
        print(f"{r['run']:22} {r['events']:9d} {r['s']:6.2f} {r['events_per_s']:11,.0f}")
    side = _side_by_side(args.scale)
    print(f"\nSimPy vs Rust, KIT campaign scale {args.scale}, queue {round(2000 * args.scale)}:")
    cols = list(side[0])
    print(" ".join(f"{c:>17}" for c in cols))
    for r in side:
        print(" ".join(f"{v:>17.4g}" if isinstance(v, float) else f"{v!s:>17}" for v in r.values()))
    args.json.write_text(
        json.dumps(
            {"engine": engine, "reproduce_wall_s": wall, "events": events, "simpy": side},
            indent=2,
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
