"""Matrix input at scale: `seekplan order --matrix` end to end on an n x n
random asymmetric matrix given as .npy (float32, float64) and as CSV.

Each run is a fresh `seekplan` process; wall time and its peak resident
memory (getrusage of the child) are printed side by side.

    python benchmarks/bench_matrix_input.py [--n 10000] [--algos sltf,best]
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

import numpy as np

from seekplan.build import require_release_build

SEEKPLAN = str(Path(sys.executable).with_name("seekplan"))


def _paths(folder: Path) -> dict[str, Path]:
    return {
        "npy float64": folder / "m64.npy",
        "npy float32": folder / "m32.npy",
        "csv": folder / "m.csv",
    }


def _write_inputs(n: int, folder: Path) -> None:
    """Writes the three inputs (run in its own process: a child inherits its
    parent's peak memory, which would hide the runs' own)."""
    m = np.random.default_rng(7).uniform(0, 100, (n, n))
    np.fill_diagonal(m, 0)
    paths = _paths(folder)
    np.save(paths["npy float64"], m)
    np.save(paths["npy float32"], m.astype(np.float32))
    np.savetxt(paths["csv"], m, delimiter=",", fmt="%.6f")
    return paths


def _run(path: Path, algo: str) -> dict:
    """One `seekplan order` process: its wall time, peak RSS and result."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [SEEKPLAN, "order", "--matrix", str(path), "--algo", algo, "--json"],
        stdout=subprocess.PIPE,
        text=True,
    )
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        raise SystemExit(f"seekplan failed on {path} ({algo})")
    # ru_maxrss is in kilobytes on Linux.
    return {"wall_s": wall, "peak_gb": usage.ru_maxrss / 1e6, "total_s": json.loads(out)["total_s"]}


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=10_000)
    ap.add_argument("--algos", default="sltf")
    ap.add_argument("--write", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.write:
        _write_inputs(args.n, args.write)
        return
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.executable, __file__, "--n", str(args.n), "--write", tmp], check=True)
        paths = _paths(Path(tmp))
        print(f"n = {args.n}")
        print(f"{'input':<12} {'algo':<6} {'wall s':>8} {'peak GB':>8} {'total_s':>12}")
        for label, path in paths.items():
            for algo in args.algos.split(","):
                r = _run(path, algo)
                print(
                    f"{label:<12} {algo:<6} {r['wall_s']:8.2f} {r['peak_gb']:8.2f} "
                    f"{r['total_s']:12.3f}"
                )


if __name__ == "__main__":
    require_release_build()
    main()
