"""Single-tape ordering: CPU time and schedule quality.

Prints two tables and writes JSON:
1. CPU seconds per algorithm for n = 256..2048 (and 10,000 for the O(n^2)
   algorithms), beside the paper's Figure 9 (a 125 MHz HyperSparc).
2. Schedule quality: positioning time above the assignment-problem lower
   bound (scipy's linear_sum_assignment on the locate matrix, a certified
   bound for the asymmetric TSP), and our `best` against LKH-3 (elkai, an
   optional non-commercial extra: pip install -e '.[bench-lkh]').

    python benchmarks/bench_order.py [--lists 3] [--lkh-max 1024] [--json out.json]

With ``--family seek-matrix`` it runs the seek-matrix family instead
(``seek_matrices.py``: LTO-9 locate matrices, or another drive's with
``--drive``, four patterns of file positions) and compares, in one
process on each matrix, `best` with its defaults, `best --time-limit REF`
(the quality reference), `patch`, `sltf` and LKH-3 up to ``--lkh-max``
nodes: cost, gap to the bound, CPU and why `best` stopped.

    python benchmarks/bench_order.py --family seek-matrix \
        [--sizes 100,1000,5000,10000] [--reference-s 60] [--lkh-max 1000] [--drive lto9]
"""

from __future__ import annotations

import argparse
import json
import statistics

import numpy as np
from bench_atsp import _lkh
from scipy.optimize import linear_sum_assignment
from seek_matrices import DRIVE as SEEK_DRIVE
from seek_matrices import PATTERNS, seek_matrix

import seekplan
from seekplan import _core
from seekplan.build import require_release_build
from seekplan.workload import uniform_batch

DRIVE = "mlr1"
CPU_SIZES = [256, 512, 1024, 2048]
BIG = 10_000
QUADRATIC = ["read", "fifo", "sort", "scan", "sltf", "mpscan"]
ALGOS = ["read", "fifo", "sort", "scan", "sltf", "mpscan", "mpscan-star", "loss", "best"]
# Figure 9 caption of Sandstå & Midtstraum: LOSS CPU seconds on a SparcStation 20.
PAPER_FIG9 = {("loss", 1024): 63.0, ("loss", 1536): 119.0, ("loss", 2048): 227.0}
QUALITY_SIZES = [64, 256, 1024, 2048]
#: Seconds to LKH-3's integer costs: to the millisecond, as these matrices'
#: rows were always rounded for it.
LKH_SCALE = 1000.0


def _cpu_table(lists: int) -> list[dict]:
    rows = []
    drive = seekplan.make_drive(DRIVE)
    for n in CPU_SIZES + [BIG]:
        algos = QUADRATIC if n == BIG else ALGOS
        for algo in algos:
            times = []
            for k in range(1 if n == BIG else lists):
                batch = uniform_batch(drive.capacity, n, 32768, 7_000 + 31 * n + k)
                times.append(seekplan.order(batch, drive=DRIVE, algo=algo).cpu_s)
            paper = PAPER_FIG9.get((algo, n))
            cpu = statistics.fmean(times)
            rows.append(
                {
                    "n": n,
                    "algo": algo,
                    "cpu_s": cpu,
                    "paper_fig9_s": paper,
                    "paper_over_ours": (paper / cpu) if paper else None,
                }
            )
    return rows


def _lower_bound(matrix: np.ndarray) -> float:
    m = matrix.copy()
    np.fill_diagonal(m, 1e12)
    r, c = linear_sum_assignment(m)
    return float(m[r, c].sum())


def _quality_table(lkh_max: int) -> list[dict]:
    rows = []
    drive = seekplan.make_drive(DRIVE)
    try:
        import elkai  # noqa: F401

        have_lkh = True
    except ImportError:
        have_lkh = False
    for n in QUALITY_SIZES:
        batch = uniform_batch(drive.capacity, n, 32768, 99_000 + n)
        blocks = [r.block for r in batch]
        sizes = [r.size for r in batch]
        matrix = np.array(_core.locate_matrix(drive, blocks, sizes))
        bound = _lower_bound(matrix)
        row: dict = {"n": n, "ap_bound_s": bound}
        for algo in ("sltf", "mpscan-star", "loss", "best"):
            r = seekplan.order(batch, drive=DRIVE, algo=algo)
            row[f"{algo}_pct_over_bound"] = 100 * (r.positioning_s / bound - 1)
            row[f"{algo}_cpu_s"] = r.cpu_s
            if algo == "best":
                best_pos = r.positioning_s
        if have_lkh and n <= lkh_max:
            lkh, cpu = _lkh(matrix, LKH_SCALE)
            row["lkh_pct_over_bound"] = 100 * (lkh / bound - 1)
            row["lkh_cpu_s"] = cpu
            row["best_over_lkh"] = best_pos / lkh
        rows.append(row)
    return rows


def _solve(matrix: np.ndarray, algo: str, **tuning: float) -> dict:
    n = len(matrix) - 1
    r = seekplan.order_matrix(matrix, algo=algo, start=n, **tuning)
    out = {"cost": r.positioning_s, "cpu_s": r.cpu_s, "bound": r.lower_bound_s}
    # getattr: a build from before the stop rules (the "before" runs) has neither.
    out.update({k: getattr(r, k, None) for k in ("stopped_because", "time_to_best_s")})
    return out


def _seek_table(
    sizes: list[int], reference_s: float, lkh_max: int, seed: int, drive: str
) -> list[dict]:
    """The seek-matrix family on `drive`: every pattern at every size (a
    pattern whose files do not fit on the tape is left out, said so)."""
    rows = []
    for n in sizes:
        for pattern in PATTERNS:
            try:
                matrix = seek_matrix(pattern, n, seed, drive)
            except ValueError as e:
                print(f"\nseek-matrix {pattern} n={n}: skipped, {e}")
                continue
            best = _solve(matrix, "best")
            row: dict = {"pattern": pattern, "n": n, "bound": best["bound"]}
            runs = {"best": best, "patch": _solve(matrix, "patch"), "sltf": _solve(matrix, "sltf")}
            if reference_s > 0:
                runs["reference"] = _solve(matrix, "best", time_limit=reference_s)
            for name, run in runs.items():
                row[f"{name}_cost"] = run["cost"]
                row[f"{name}_cpu_s"] = run["cpu_s"]
            row["best_stopped_because"] = best.get("stopped_because")
            row["best_time_to_best_s"] = best.get("time_to_best_s")
            bound = max(run["bound"] or 0.0 for run in runs.values())
            row["bound"] = bound
            row["best_gap_pct"] = 100 * (best["cost"] / bound - 1) if bound > 0 else None
            if "reference" in runs:
                ref = runs["reference"]["cost"]
                row["best_over_reference_pct"] = 100 * (best["cost"] / ref - 1) if ref else 0.0
            if n <= lkh_max:
                lkh, cpu = _lkh(matrix, LKH_SCALE)
                row["lkh_cost"] = lkh
                row["lkh_cpu_s"] = cpu
            rows.append(row)
            _print([row], f"seek-matrix {pattern} n={n}")
    return rows


def _print(rows: list[dict], title: str) -> None:
    print(f"\n{title}")
    cols = list(dict.fromkeys(k for r in rows for k in r))
    print(" | ".join(cols))
    for r in rows:
        cells = []
        for c in cols:
            v = r.get(c)
            cells.append("-" if v is None else f"{v:.4g}" if isinstance(v, float) else str(v))
        print(" | ".join(cells))


def main() -> None:
    """Runs both tables and writes the JSON."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--lists", type=int, default=3, help="request lists per size (CPU table)")
    ap.add_argument("--lkh-max", type=int, default=256, help="largest n given to LKH-3 (slow)")
    ap.add_argument("--json", default=None, help="output (default by family)")
    ap.add_argument("--family", choices=("mlr1", "seek-matrix"), default="mlr1")
    ap.add_argument("--sizes", default="100,1000,5000,10000", help="seek-matrix sizes")
    ap.add_argument("--reference-s", type=float, default=60.0, help="time limit of the reference")
    ap.add_argument("--seed", type=int, default=1, help="seek-matrix instance seed")
    ap.add_argument("--drive", default=SEEK_DRIVE, help="seek-matrix drive (default %(default)s)")
    args = ap.parse_args()
    if args.family == "seek-matrix":
        sizes = [int(v) for v in args.sizes.split(",")]
        rows = _seek_table(sizes, args.reference_s, args.lkh_max, args.seed, args.drive)
        suffix = "" if args.drive == SEEK_DRIVE else f"_{args.drive}"
        path = args.json or f"benchmarks/bench_order_seek{suffix}.json"
        with open(path, "w") as f:
            json.dump({"drive": args.drive, "rows": rows}, f, indent=2)
        print(f"\nwrote {path}")
        return
    args.json = args.json or "benchmarks/bench_order.json"
    cpu = _cpu_table(args.lists)
    _print(cpu, "CPU seconds per schedule (this machine) beside the paper's Figure 9")
    quality = _quality_table(args.lkh_max)
    _print(quality, "Positioning time % above the assignment lower bound; best vs LKH-3")
    with open(args.json, "w") as f:
        json.dump({"drive": DRIVE, "cpu": cpu, "quality": quality}, f, indent=2)
    print(f"\nwrote {args.json}")


if __name__ == "__main__":
    require_release_build()
    main()
