"""`best` with its defaults over many seek matrices (`seek_matrices.py`): drives x
patterns x sizes x seeds, one row each (total, CPU, why it stopped), and the sums. To
compare two builds, run it on the first with ``--json before.json`` and on the second
with ``--against before.json``: it then prints only the matrices whose total, stop
reason or CPU (by more than 10 ms) changed, and both sums. ``--dimacs`` runs the DIMACS
ATSP families of `atsp_families.py` instead (every family x sizes x seeds, a closed tour
from node 0), the check that a change to `best` keeps their tours. ``--drive-model``
orders the same instances as a drive's batch (`seekplan.order` on the requests, the head
at its block), where `best` also weighs streaming through the batch and times costs
from the drive's model.

    python benchmarks/bench_seek_sweep.py [--drives lto9,ibm3590] [--sizes 316,1000]
        [--patterns uniform,gaussian,half] [--seeds 1-3] [--dimacs] [--drive-model]
        [--json OUT] [--against OLD]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from atsp_families import FAMILIES, instance
from seek_matrices import requests, seek_matrix

import seekplan
from seekplan.build import require_release_build

DRIVES = "lto9,ibm3590,lto10,dlt4000,mlr1,lto5"
CPU_NOISE_S = 0.01


def _best(drive: str, pattern: str, n: int, seed: int, model: bool) -> seekplan.OrderResult:
    """`best` on one instance: its matrix, or as a drive's batch where `model`."""
    if not model:
        return seekplan.order_matrix(seek_matrix(pattern, n, seed, drive), algo="best", start=n)
    blocks, sizes, head = requests(pattern, n, seed, drive)
    batch = [(f"f{i}", b, s) for i, (b, s) in enumerate(zip(blocks, sizes, strict=True))]
    return seekplan.order(batch, drive=drive, algo="best", start=head)


def _runs(
    drives: list[str], patterns: list[str], sizes: list[int], seeds: range, model: bool
) -> dict:
    """Total, CPU and stop reason of `best` on each matrix (each drive batch
    where `model`), keyed by its name."""
    rows = {}
    for n in sizes:
        for drive in drives:
            for pattern in patterns:
                for seed in seeds:
                    key = f"{drive} {pattern} {n} {seed}"
                    rows[key] = _row(key, _best(drive, pattern, n, seed, model))
    return rows


def _row(key: str, r: seekplan.OrderResult) -> dict:
    """One matrix's row (printed as it comes): total, CPU and stop reason."""
    print(f"{key}: {r.positioning_s:.6f} s, {r.cpu_s:.3f} s CPU, {r.stopped_because}", flush=True)
    return {"total": r.positioning_s, "cpu": r.cpu_s, "stop": r.stopped_because}


def _dimacs_runs(sizes: list[int], seeds: range) -> dict:
    """Total, CPU and stop reason of `best` on each DIMACS instance (a closed
    tour from node 0), keyed by its name."""
    rows = {}
    for n in sizes:
        for family in FAMILIES:
            for seed in seeds:
                r = seekplan.order_matrix(instance(family, n, seed), algo="best", start=0, end=0)
                key = f"{family} {n} {seed}"
                rows[key] = _row(key, r)
    return rows


def _sums(rows: dict) -> str:
    proven = sum(r["stop"] == "optimal" for r in rows.values())
    cpu = sum(r["cpu"] for r in rows.values())
    return f"{len(rows)} matrices, {proven} proven optimal, {cpu:.2f} s CPU"


def _compare(old: dict, new: dict) -> None:
    """Prints the matrices whose result changed between `old` and `new`, and both sums."""
    print("| matrix | before: total s, CPU s, stop | now | total change |")
    print("| --- | --- | --- | ---: |")
    for key, b in new.items():
        a = old.get(key)
        if a is None:
            continue
        same = abs(a["total"] - b["total"]) <= 1e-9 * abs(a["total"])
        if same and a["stop"] == b["stop"] and abs(a["cpu"] - b["cpu"]) <= CPU_NOISE_S:
            continue
        change = (b["total"] / a["total"] - 1) * 100
        print(
            f"| {key} | {a['total']:.3f}, {a['cpu']:.3f}, {a['stop']} | "
            f"{b['total']:.3f}, {b['cpu']:.3f}, {b['stop']} | {change:+.4f} % |"
        )
    common = {k: v for k, v in old.items() if k in new}
    print(f"before: {_sums(common)}")
    print(f"now:    {_sums({k: new[k] for k in common})}")


def main() -> None:
    """Runs the sweep asked for; writes or compares the rows."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--drives", default=DRIVES)
    parser.add_argument("--patterns", default="uniform,gaussian,half")
    parser.add_argument("--sizes", default="316,1000")
    parser.add_argument("--seeds", default="1-3", help="FIRST-LAST")
    parser.add_argument("--dimacs", action="store_true", help="the DIMACS families instead")
    parser.add_argument(
        "--drive-model", action="store_true", help="each instance as a drive's batch"
    )
    parser.add_argument("--json", help="write the rows here")
    parser.add_argument("--against", help="rows of an earlier run to compare with")
    args = parser.parse_args()
    require_release_build()
    first, last = (int(x) for x in args.seeds.split("-"))
    sizes, seeds = [int(n) for n in args.sizes.split(",")], range(first, last + 1)
    if args.dimacs:
        rows = _dimacs_runs(sizes, seeds)
    else:
        drives, patterns = args.drives.split(","), args.patterns.split(",")
        rows = _runs(drives, patterns, sizes, seeds, args.drive_model)
    print(_sums(rows))
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    if args.against:
        _compare(json.loads(Path(args.against).read_text()), rows)


if __name__ == "__main__":
    main()
