"""results.json and report.html for one recall run."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from seekplan.io import write_json
from seekplan.report import Report

#: Table-1 metrics, in the paper's column order, with their labels.
METRICS = {
    "throughput_mb_s": "avg overall throughput (MB/s)",
    "staging_min": "avg staging time (min)",
    "mounts": "mounts",
    "distinct_mounts": "distinct tapes mounted",
    "pct_recalled_per_mount": "avg % of capacity recalled per mount",
    "mount_min": "avg mount duration (min)",
    "drive_utilisation": "drive utilisation",
}


def series_figure(runs: dict[str, dict[str, Any]]) -> Figure:
    """Throughput and busy drives over time, one line per run."""
    fig = Figure(figsize=(8, 5.5))
    top, bottom = fig.subplots(2, 1, sharex=True)
    for name, r in runs.items():
        hours = [t / 3600 for t in r["series"]["t_s"]]
        top.plot(hours, r["series"]["throughput_mb_s"], lw=1, label=name)
        bottom.step(hours, r["series"]["busy_drives"], lw=1, where="post", label=name)
    top.set_ylabel("throughput (MB/s)")
    bottom.set_ylabel("busy drives")
    bottom.set_xlabel("virtual time (h)")
    for ax in (top, bottom):
        ax.grid(alpha=0.3)
    top.legend(fontsize=7, ncol=3)
    return fig


def write_run(out_dir: Path, config: dict[str, Any], result: dict[str, Any]) -> Path:
    """Writes DIR/results.json (config, metrics, series) and DIR/report.html."""
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json(out_dir / "results.json", {"config": config, **result})
    rep = Report("Tape recall simulation", out_dir)
    rep.heading("Metrics")
    rep.table([{"metric": label, "value": result["metrics"][k]} for k, label in METRICS.items()])
    rep.text(
        f"{result['metrics']['files_staged']:,} of {result['metrics']['files_requested']:,} "
        f"files staged in {result['metrics']['duration_s'] / 3600:.1f} virtual hours; "
        f"{result['events']:,} events."
    )
    rep.heading("Throughput and busy drives over time")
    rep.figure(series_figure({"run": result}), "series", "sampled every interval")
    rep.heading("Config")
    rep.code("\n".join(f"{k}: {v}" for k, v in config.items()))
    return rep.write()
