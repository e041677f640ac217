"""The first thing a new user runs: order a batch on a catalogued drive,
replay the schedules on the drive model, and write a small report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from seekplan.catalog import make_drive
from seekplan.io import write_order
from seekplan.ordering import order
from seekplan.report import Report
from seekplan.workload import uniform_batch

DRIVE = "mlr1"
BATCH = 200
SEED = 2026
COMPARED = ["fifo", "sort", "scan", "sltf", "mpscan", "mpscan-star", "best"]


def _head_path(drive: Any, rows: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """(time, longitudinal position) of the head as it reaches each request."""
    times, lpos = [0.0], [0.0]
    for r in rows:
        phys = drive.physical(r["block"])
        times.append(r["start_s"] / 60)
        lpos.append(phys[2])
    return times, lpos


def run_demo(out: Path) -> Path:
    """Writes requests.csv, order.csv and report.html into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    drive = make_drive(DRIVE)
    batch = uniform_batch(drive.capacity, BATCH, 32 * 1024, SEED)
    (out / "requests.csv").write_text(
        "id,block,size\n" + "".join(f"{r.id},{r.block},{r.size}\n" for r in batch)
    )
    results = {algo: order(batch, drive=DRIVE, algo=algo) for algo in COMPARED}
    write_order(out / "order.csv", results["best"].rows)

    rep = Report(f"seekplan demo: {BATCH} random reads on a {DRIVE}", out)
    rep.text(
        f"{BATCH} requests of 32 KB at uniform random blocks (seed {SEED}) on a nominal "
        f"{DRIVE} tape, head at BOT. Each algorithm's schedule is replayed on the drive model; "
        "the totals are recomputed from the model, not reported by the algorithm."
    )
    rep.code(
        f"seekplan order {out / 'requests.csv'} --drive {DRIVE} --algo best "
        f"--out {out / 'order.csv'}"
    )
    fifo = results["fifo"].total_s
    rep.table(
        [
            {
                "algorithm": a,
                "total (min)": r.total_s / 60,
                "per request (s)": r.total_s / BATCH,
                "saved vs FIFO": f"{1 - r.total_s / fifo:.0%}",
                "CPU (ms)": r.cpu_s * 1000,
            }
            for a, r in results.items()
        ]
    )
    fig = Figure(figsize=(8, 4))
    ax = fig.add_subplot()
    for algo in ("fifo", "best"):
        t, x = _head_path(drive, results[algo].rows)
        ax.plot(t, x, marker=".", lw=0.6, label=f"{algo} ({results[algo].total_s / 60:.0f} min)")
    ax.set_xlabel("minutes")
    ax.set_ylabel("longitudinal position (0 = BOT, 1 = EOT)")
    ax.set_title("Where the head goes: FIFO wanders, best streams (cf. Figures 14-15)")
    ax.legend()
    rep.figure(fig, "head_path", "Head position at each request, FIFO vs best")
    return rep.write()
