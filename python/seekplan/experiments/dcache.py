"""Reproduction of Morschel et al. (dCache tape recall scheduling), Table 1:
a KIT-like campaign on 12 T10000D drives for 60 virtual hours, queue sizes
2,000 and 30,000 times four requester strategies, plus dCache's own
clustering rules with their documented defaults."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from seekplan.experiments.claims import claim
from seekplan.io import write_json
from seekplan.recall.config import RecallConfig, parse_config
from seekplan.recall.report import METRICS, series_figure
from seekplan.recall.run import simulate
from seekplan.recall.workload import generate_kit
from seekplan.report import Report
from seekplan.sweep import run_points

QUEUES = (2000, 30000)
STRATEGIES: dict[str, dict[str, Any]] = {
    "random": {"name": "random"},
    "by-dataset": {"name": "by-dataset"},
    "by-2-tapes": {"name": "by-tapes", "tapes": 2},
    "by-12-tapes": {"name": "by-tapes", "tapes": 12},
}
QUICK_SCALE = 0.1  # quick mode: a tenth of the campaign, queues and duration
# A "best" strategy must lead the runner-up by more than this to count as a
# practical win (the paper's leads are 32 % at queue 2,000 and 16 % at 30,000).
# Across campaign seeds 1-3 our queue-30,000 ranking 2T > 12T > by-dataset was
# stable but every lead was under 0.1 % (docs/recall.md), so it does not count.
MIN_LEAD = 0.01

# Table 1 of the paper: throughput MB/s, staging min, mounts, distinct,
# % recalled per mount, mount min.
PAPER: dict[str, dict[str, float]] = {
    "q2000/random": dict(zip(METRICS, (855, 88, 6585, 329, 0.3, 11), strict=False)),
    "q2000/by-dataset": dict(zip(METRICS, (836, 78, 1221, 77, 1.8, 45), strict=False)),
    "q2000/by-2-tapes": dict(zip(METRICS, (393, 178, 27, 27, 38.0, 611), strict=False)),
    "q2000/by-12-tapes": dict(zip(METRICS, (1104, 76, 269, 71, 8.5, 153), strict=False)),
    "q30000/random": dict(zip(METRICS, (1090, 783, 1004, 330, 2.4, 40), strict=False)),
    "q30000/by-dataset": dict(zip(METRICS, (1779, 536, 192, 133, 22.0, 225), strict=False)),
    "q30000/by-2-tapes": dict(zip(METRICS, (2263, 509, 146, 144, 33.0, 280), strict=False)),
    "q30000/by-12-tapes": dict(zip(METRICS, (1958, 518, 168, 135, 26.0, 244), strict=False)),
}


def _configs(quick: bool) -> dict[str, RecallConfig]:
    scale = QUICK_SCALE if quick else 1.0
    base = {
        "workload": {"kind": "kit", "seed": 1, "scale": scale},
        "duration_h": 60 * scale,
        "seed": 1,
    }
    out = {}
    for q in QUEUES:
        for key, strategy in STRATEGIES.items():
            out[f"q{q}/{key}"] = parse_config(
                {**base, "library": {"queue_size": round(q * scale)}, "strategy": strategy}
            )
    out["q30000/dcache"] = parse_config(
        {**base, "library": {"queue_size": round(30000 * scale)}, "strategy": {"name": "dcache"}}
    )
    return out


def _point(config: RecallConfig) -> dict[str, Any]:
    """One run, its campaign generated in the worker (seeded, so identical)."""
    w = config.workload
    return simulate(config, generate_kit(w["seed"], w["scale"], config.library["block_bytes"]))


def _claims(m: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    def thr(k: str) -> float:
        return float(m[k]["throughput_mb_s"])

    out = []
    pairs = {s: (thr(f"q2000/{s}"), thr(f"q30000/{s}")) for s in STRATEGIES}
    out.append(
        claim(
            "larger-queue-better",
            "A larger tape-system queue is beneficial independent of the request pattern.",
            all(b > a for a, b in pairs.values()),
            "; ".join(f"{s}: {a:.0f} -> {b:.0f} MB/s" for s, (a, b) in pairs.items())
            + " (queue 2,000 -> 30,000); holds if every strategy gains",
        )
    )
    for q, best, text in (
        (2000, "by-12-tapes", "With queue 2,000, requests for as many tapes as drives (12T)"),
        (30000, "by-2-tapes", "With queue 30,000, requests for two tapes in parallel (2T)"),
    ):
        ranked = sorted(STRATEGIES, key=lambda s: -thr(f"q{q}/{s}"))
        top, second = ranked[0], ranked[1]
        margin = thr(f"q{q}/{top}") / thr(f"q{q}/{second}") - 1
        out.append(
            claim(
                f"q{q}-{best}-best",
                f"{text} gives the highest throughput.",
                top == best and margin > MIN_LEAD,
                ", ".join(f"{s} {thr(f'q{q}/{s}'):.0f}" for s in ranked)
                + f" MB/s; the first leads the next by {margin:.1%}; holds if {best} is first "
                f"by more than {MIN_LEAD:.0%}",
            )
        )
    ratios = {
        q: min(
            m[f"q{q}/random"]["mounts"] / max(m[f"q{q}/{s}"]["mounts"], 1)
            for s in STRATEGIES
            if s != "random"
        )
        for q in QUEUES
    }
    out.append(
        claim(
            "random-mounts-most",
            "Random request selection mounts far more often than any clustered pattern.",
            all(r >= 3 for r in ratios.values()),
            ", ".join(f"queue {q}: random mounts >= {r:.1f}x any other" for q, r in ratios.items())
            + " (paper: >= 5.4x); holds if >= 3x at both queue sizes",
        )
    )
    r0, r1 = m["q2000/random"], m["q30000/random"]
    gain = r1["throughput_mb_s"] / r0["throughput_mb_s"] - 1
    cut = 1 - r1["mounts"] / max(r0["mounts"], 1)
    out.append(
        claim(
            "random-queue-gain",
            "With random selection the larger queue improved throughput by 27 % and reduced "
            "remounts by 89 %.",
            gain > 0 and abs(cut - 0.89) <= 0.10,
            f"throughput {gain:+.0%}, mounts {-cut:+.0%}; holds if throughput rises and the "
            "mount reduction is within 10 points of 89 %",
        )
    )
    bd, rnd = thr("q2000/by-dataset"), thr("q2000/random")
    out.append(
        claim(
            "q2000-dataset-like-random",
            "With queue 2,000, by-dataset performs similarly to random (seeking dominates).",
            abs(bd / rnd - 1) <= 0.15,
            f"by-dataset {bd:.0f} vs random {rnd:.0f} MB/s ({bd / rnd - 1:+.0%}); holds "
            "within ±15 %",
        )
    )
    return out


def run(out_dir: Path, quick: bool = False, workers: int | None = None) -> dict[str, Any]:
    """Runs the 9 simulations in parallel and writes results.json and report.html."""
    configs = _configs(quick)
    outcomes = run_points(_point, list(configs.values()), label="dcache runs", workers=workers)
    full = dict(zip(configs, outcomes, strict=True))
    runs = {k: v["metrics"] for k, v in full.items()}
    w = next(iter(configs.values())).workload
    campaign = generate_kit(w["seed"], w["scale"]).summary()
    results = {
        "paper": "dcache",
        "quick": quick,
        "campaign": campaign,
        "runs": runs,
        "paper_table1": PAPER,
        "events": {k: v["events"] for k, v in full.items()},
        "claims": _claims(runs),
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json(out_dir / "results.json", results)
    _report(out_dir, results, full, quick)
    return results


def _bars(runs: dict[str, dict[str, Any]]) -> Figure:
    fig = Figure(figsize=(9, 4))
    left, right = fig.subplots(1, 2)
    x = np.arange(len(STRATEGIES))
    for i, q in enumerate(QUEUES):
        keys = [f"q{q}/{s}" for s in STRATEGIES]
        off = (i - 0.5) * 0.38
        left.bar(x + off, [runs[k]["throughput_mb_s"] for k in keys], 0.36, label=f"ours {q}")
        left.scatter(x + off, [PAPER[k]["throughput_mb_s"] for k in keys], c="k", marker="_", s=200)
        per_tape = [runs[k]["mounts"] / max(runs[k]["distinct_mounts"], 1) for k in keys]
        right.bar(x + off, per_tape, 0.36, label=f"ours {q}")
        right.scatter(
            x + off,
            [PAPER[k]["mounts"] / PAPER[k]["distinct_mounts"] for k in keys],
            c="k",
            marker="_",
            s=200,
        )
    for ax, label in ((left, "avg throughput (MB/s)"), (right, "mounts per distinct tape")):
        ax.set_xticks(x, list(STRATEGIES), fontsize=8)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=7)
    fig.suptitle("Figure 4: ours (bars) and the paper's (black ticks)")
    return fig


def _report(
    out_dir: Path, results: dict[str, Any], full: dict[str, dict[str, Any]], quick: bool
) -> None:
    rep = Report("Reproduction: Morschel et al., dCache tape recall scheduling", out_dir)
    rep.text(
        "A seeded KIT-like campaign (section 4.1) recalled through 12 T10000D drives "
        "(252 MB/s, load 13 s, unload 23 s, rewind 97 s) for 60 virtual hours; each tape's "
        "queued requests are read in on-tape order (scan) and re-ordered when requests for a "
        "mounted tape arrive. Nothing was tuned to the paper's numbers."
        + (" Quick mode: a tenth of the campaign, queue sizes and duration." if quick else "")
    )
    rep.code(f"seekplan reproduce dcache --out {out_dir}" + (" --quick" if quick else ""))
    rep.heading("The paper's findings")
    rep.claims(results["claims"])
    rep.heading("Table 1: ours beside the paper's")
    rows = []
    for key, ours in results["runs"].items():
        paper = PAPER.get(key, {})
        row: dict[str, Any] = {"run": key}
        for metric in list(METRICS)[:6]:
            row[metric] = ours[metric]
            row[f"{metric} paper"] = paper.get(metric, "")
        rows.append(row)
    rep.table(rows)
    rep.heading("Why our numbers differ")
    rep.text(
        "Our drives lose far less time seeking than the paper's. Its simulator's locate cost "
        "is not published; ours is the simplest model its figures support: a locate costs the "
        "rewind time (97 s) times the fraction of the tape crossed, so reading a tape's queued "
        "files in on-tape order costs at most one wind. Consequently every run that keeps the "
        "drives busy with a few hundred files per mount approaches the 12 x 252 = 3,024 MB/s "
        "ceiling, the queue-30,000 strategies end up within a few percent of each other (the "
        "paper separates them by up to 27 %), and by-dataset with queue 2,000 is far better "
        "than random (the paper found them similar because its seeks dominated). The KIT "
        "campaign itself is generated from the section 4.1 summary (files per tape, percent "
        "requested, dataset spread), not from KIT's file list, and file positions are uniform "
        "over each tape's used space because section 2.1 says write order is frequently lost. "
        "Mount durations include time a tape stays mounted idle, as in the paper's long 2T "
        "mounts. Staging time counts from entering the tape-system queue, as in the paper."
    )
    rep.heading("Campaign (generated) against section 4.1")
    rep.table([{"figure": k, "value": v} for k, v in results["campaign"].items()])
    rep.figure(_bars(results["runs"]), "fig4", "throughput and remounts per tape")
    rep.heading("Throughput and busy drives over time")
    for q in QUEUES:
        sel = {k: v for k, v in full.items() if k.startswith(f"q{q}/")}
        rep.figure(series_figure(sel), f"series_q{q}", f"queue {q}")
    rep.write()
