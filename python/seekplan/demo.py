"""The first thing a new user runs: order a batch on a catalogued drive,
replay the schedules on the drive model, and write a small report."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from seekplan.catalog import make_drive
from seekplan.io import write_order
from seekplan.ordering import order
from seekplan.recall.config import parse_config
from seekplan.recall.report import series_figure
from seekplan.recall.run import simulate
from seekplan.report import Report
from seekplan.workload import uniform_batch

DRIVE = "mlr1"
BATCH = 200
SEED = 2026
COMPARED = ["fifo", "sort", "scan", "sltf", "mpscan", "mpscan-star", "best"]
# A small recall campaign: 2 % of the KIT campaign (about 10,000 files on 7
# tapes) on 4 T10000D drives, 4 virtual hours, two requester strategies.
RECALL = {
    "workload": {"kind": "kit", "scale": 0.02},
    "duration_h": 4,
    "library": {"drives": 4, "queue_size": 500},
}
STRATEGIES = {"random": {"name": "random"}, "by 4 tapes": {"name": "by-tapes", "tapes": 4}}


def _head_path(drive: Any, rows: list[dict[str, Any]]) -> tuple[list[float], list[float]]:
    """(time, longitudinal position) of the head as it reaches each request."""
    times, lpos = [0.0], [0.0]
    for r in rows:
        phys = drive.physical(r["block"])
        times.append(r["start_s"] / 60)
        lpos.append(phys[2])
    return times, lpos


@dataclass(frozen=True)
class DemoResult:
    """Where the demo's report is, and the headline figures it measured."""

    report: Path
    headlines: list[str]


def run_demo(out: Path) -> DemoResult:
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
    rep.text(
        f"Where the head is along the tape at each request. FIFO serves the requests in "
        f"their listed order and ends after {fifo / 60:.0f} min; best orders them and ends "
        f"after {results['best'].total_s / 60:.0f} min, {fifo / results['best'].total_s:.1f} "
        "times sooner."
    )
    rep.figure(fig, "head_path", "Head position at each request, FIFO vs best")
    recall = _recall_section(rep)
    best = results["best"].total_s
    headlines = [
        f"{BATCH} reads on a {DRIVE}: best {best / 60:.1f} min, FIFO {fifo / 60:.1f} min "
        f"({fifo / best:.1f}x faster)",
        "recall of ~10,000 files on 4 drives: by 4 tapes "
        f"{recall['by 4 tapes']:.0f} MB/s, random {recall['random']:.0f} MB/s",
    ]
    return DemoResult(rep.write(), headlines)


def _recall_section(rep: Report) -> dict[str, float]:
    """Simulates a small recall campaign under two requester strategies;
    returns each strategy's throughput in MB/s."""
    runs = {
        label: simulate(parse_config({**RECALL, "strategy": strategy}))
        for label, strategy in STRATEGIES.items()
    }
    rep.heading("A small library simulation: recalling a campaign")
    rep.text(
        "About 10,000 files (2 % of the KIT-like campaign) recalled through 4 T10000D drives "
        "for 4 virtual hours. Passing the tape system requests for a few tapes at a time "
        "instead of in random order mounts each tape fewer times and reads more per mount."
    )
    rep.code("seekplan simulate recall CONFIG.yaml --out DIR   # see docs/recall.md")
    rep.table(
        [
            {
                "strategy": label,
                "throughput (MB/s)": r["metrics"]["throughput_mb_s"],
                "mounts": r["metrics"]["mounts"],
                "staging (min)": r["metrics"]["staging_min"],
                "% of tape per mount": r["metrics"]["pct_recalled_per_mount"],
                "files staged": r["metrics"]["files_staged"],
            }
            for label, r in runs.items()
        ]
    )
    busy = {label: sum(r["series"]["busy_drives"]) / max(len(r["series"]["busy_drives"]), 1)
            for label, r in runs.items()}  # fmt: skip
    rep.text(
        "Throughput (top) and drives reading (bottom) over the four hours. On average "
        + ", ".join(f"{label} keeps {b:.1f} of 4 drives busy" for label, b in busy.items())
        + ": a strategy reads only the tapes whose files it has passed on to the tape system."
    )
    rep.figure(series_figure(runs), "recall_series", "Throughput and busy drives over time")
    return {label: r["metrics"]["throughput_mb_s"] for label, r in runs.items()}
