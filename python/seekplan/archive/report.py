"""report.html for one archive run: what the run shows, its metrics with
units, and its config."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from seekplan.report import Report

#: Metrics shown, in order, with their labels and units.
METRICS = {
    "requests": "archive requests measured (after the warm-up)",
    "mean_response_s": "mean response (s)",
    "mean_stretch": "mean stretch (response / time alone)",
    "weighted_response_s_per_gb": "size-weighted response (s per GB)",
    "throughput_bps": "throughput (bytes/s)",
    "drive_utilisation": "drive utilisation",
    "mover_utilisation": "mover utilisation",
    "mover_disk_utilisation": "mover disk utilisation",
    "arm_utilisation": "robot arm utilisation",
    "mean_wait_s": "mean wait for a drive or mover (s)",
    "mounts": "mounts",
    "tapes_used": "tapes written",
    "backlog_end": "requests waiting at the end",
}


def summary(policy: str, m: dict[str, Any]) -> str:
    """One paragraph saying what the run shows, from its numbers."""
    text = (
        f"{m['requests']:,} archive requests (of {m['arrivals']:,} arrivals) written with "
        f"{policy.upper()}: on average each took {m['mean_response_s']:,.1f} s, "
        f"{m['mean_stretch']:.1f} times as long as it would alone, at "
        f"{m['throughput_bps'] / 1e6:,.1f} MB/s overall. Drives were busy "
        f"{100 * m['drive_utilisation']:.1f} % of the time and movers "
        f"{100 * m['mover_utilisation']:.1f} %; {m['mounts']:,} mounts on "
        f"{m['tapes_used']:,} tapes."
    )
    if m.get("saturated"):
        text += (
            " The platform saturated: requests arrived faster than it could write them, so "
            "the response times grow with the run's length."
        )
    elif m.get("backlog_end", 0) > m.get("backlog_half", 0) * 2 + 10:
        text += " The backlog grew over the run: the platform is near saturation."
    return text


def write_run(out_dir: Path, config: dict[str, Any], metrics: dict[str, Any], command: str) -> Path:
    """Writes DIR/report.html for one archive run and returns its path."""
    rep = Report("Archive simulation", out_dir)
    rep.code(command)
    rep.text(summary(str(config.get("policy", "?")), metrics))
    rep.heading("Metrics")
    rep.table(
        [{"metric": label, "value": metrics[k]} for k, label in METRICS.items() if k in metrics]
    )
    rep.heading("Config")
    rep.code("\n".join(f"{k}: {v}" for k, v in config.items()))
    return rep.write()
