"""Reproduction of Morschel et al. (dCache tape recall scheduling), Table 1:
a KIT-like campaign on 12 T10000D drives for 60 virtual hours, queue sizes
2,000 and 30,000 times four requester strategies, plus dCache's own
clustering rules with their documented defaults. The default runs use the
paper's read-performance model (§3.2) and its batch dispatch (Figure 3);
variants beside them change one modelling choice each."""

from __future__ import annotations

import time
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from seekplan.experiments.base import publish
from seekplan.experiments.claims import claim, report_failing
from seekplan.recall.config import RecallConfig, parse_config
from seekplan.recall.report import METRICS, series_figure
from seekplan.recall.run import simulate
from seekplan.recall.workload import Campaign, generate_kit
from seekplan.sweep import Executor

QUEUES = (2000, 30000)
STRATEGIES: dict[str, dict[str, Any]] = {
    "random": {"name": "random"},
    "by-dataset": {"name": "by-dataset"},
    "by-2-tapes": {"name": "by-tapes", "tapes": 2},
    "by-12-tapes": {"name": "by-tapes", "tapes": 12},
}
# One modelling choice changed at a time; "paper" is the default config
# (session-fraction read model, next-batch arrivals, spread dataset order).
VARIANTS: dict[str, dict[str, Any]] = {
    "paper": {},
    "positional": {"library": {"read_model": {"kind": "positional"}}},
    "insert": {"library": {"arrivals": "insert"}},
    # A fit, not a default: random q30000's mounts in Table 1 (2.4 % of a
    # tape in 40 min) read at 85 MB/s = 0.34 of 252 MB/s.
    "floor-0.34": {"library": {"read_model": {"kind": "session-fraction", "floor": 0.34}}},
}
# The other dataset order, for the by-dataset runs only.
TAPE_BY_TAPE = {"workload": {"dataset_order": "tape-by-tape"}}
VARIANT_TEXT = {
    "paper": "session-fraction read model (floor 0.15, full rate at 80 %), next-batch "
    "arrivals, spread dataset order: the defaults",
    "positional": "positional read model: linear locate (97 s over the whole tape) + read at "
    "252 MB/s",
    "insert": "arrivals for a tape being read are inserted into its batch (cheapest insertion)",
    "floor-0.34": "session-fraction floor 0.34, FITTED to Table 1's random q30000 row (not a "
    "default; shown to see which findings depend on the floor)",
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


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in extra.items():
        out[k] = _merge(out[k], v) if isinstance(v, dict) and isinstance(out.get(k), dict) else v
    return out


def _configs(quick: bool) -> dict[str, dict[str, RecallConfig]]:
    """Configs by variant, then by run key (q2000/random ...)."""
    scale = QUICK_SCALE if quick else 1.0
    base = {
        "workload": {"kind": "kit", "seed": 1, "scale": scale},
        "duration_h": 60 * scale,
        "seed": 1,
    }
    runs: dict[str, dict[str, Any]] = {}
    for q in QUEUES:
        for key, strategy in STRATEGIES.items():
            runs[f"q{q}/{key}"] = {
                "library": {"queue_size": round(q * scale)},
                "strategy": strategy,
            }
    out: dict[str, dict[str, RecallConfig]] = {}
    for name, extra in VARIANTS.items():
        out[name] = {k: parse_config(_merge(_merge(base, r), extra)) for k, r in runs.items()}
    out["paper"]["q30000/dcache"] = parse_config(
        _merge(
            base, {"library": {"queue_size": round(30000 * scale)}, "strategy": {"name": "dcache"}}
        )
    )
    out["tape-by-tape"] = {
        k: parse_config(_merge(_merge(base, runs[k]), TAPE_BY_TAPE))
        for k in runs
        if k.endswith("/by-dataset")
    }
    return out


@lru_cache(maxsize=2)
def _campaign(seed: int, scale: float, block_bytes: int, order: str) -> Campaign:
    """The seeded campaign, generated once per worker process."""
    return generate_kit(seed, scale, block_bytes, order)


def _point(config: RecallConfig) -> dict[str, Any]:
    """One run and the CPU seconds of the simulation alone (the campaign is
    generated in the worker: seeded, so identical everywhere)."""
    w = config.workload
    c = _campaign(w["seed"], w["scale"], config.library["block_bytes"], w["dataset_order"])
    t = time.process_time()
    out = simulate(config, c)
    return {**out, "cpu_s": time.process_time() - t}


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


def run(out_dir: Path, quick: bool = False, executor: Executor | None = None) -> dict[str, Any]:
    """Runs every variant's simulations in parallel (on ``executor``: local
    processes by default) and writes results.json and report.html."""
    configs = _configs(quick)
    points = [(v, k, c) for v, runs in configs.items() for k, c in runs.items()]
    outcomes = (executor or Executor()).map(_point, [c for _, _, c in points], label="dcache runs")
    full: dict[str, dict[str, dict[str, Any]]] = {v: {} for v in configs}
    for (v, k, _), out in zip(points, outcomes, strict=True):
        full[v][k] = out
    metrics = {v: {k: o["metrics"] for k, o in runs.items()} for v, runs in full.items()}
    w = configs["paper"]["q2000/random"].workload
    campaign = generate_kit(w["seed"], w["scale"]).summary()
    results = {
        "paper": "dcache",
        "quick": quick,
        "campaign": campaign,
        "runs": metrics["paper"],
        "variants": {v: m for v, m in metrics.items() if v != "paper"},
        "paper_table1": PAPER,
        "events": {v: {k: o["events"] for k, o in runs.items()} for v, runs in full.items()},
        "cpu_s": {v: {k: o["cpu_s"] for k, o in runs.items()} for v, runs in full.items()},
        "claims": _claims(metrics["paper"]),
        "throughput_factor": {
            v: _factor(m) for v, m in metrics.items() if all(k in m for k in PAPER)
        },
        "claims_by_variant": {
            v: {c["id"]: c["holds"] for c in _claims(m)}
            for v, m in metrics.items()
            if all(k in m for k in PAPER)
        },
    }
    _report(out_dir, results, full["paper"], quick)
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


def _bars_text(runs: dict[str, dict[str, Any]]) -> str:
    """What Figure 4 shows, from the runs: per queue, the fastest strategy
    against the paper's figure, and the spread of remounts per tape."""
    parts = []
    for q in QUEUES:
        keys = [f"q{q}/{s}" for s in STRATEGIES]
        best = max(keys, key=lambda k: runs[k]["throughput_mb_s"])
        per_tape = [runs[k]["mounts"] / max(runs[k]["distinct_mounts"], 1) for k in keys]
        parts.append(
            f"With a queue of {q:,}, {best.split('/')[1]} is fastest at "
            f"{runs[best]['throughput_mb_s']:,.0f} MB/s (the paper: "
            f"{PAPER[best]['throughput_mb_s']:,.0f} MB/s), and tapes are mounted "
            f"{min(per_tape):.1f}-{max(per_tape):.1f} times each."
        )
    return "Bars are this run, black ticks the paper's Table 1. " + " ".join(parts)


def _series_text(runs: dict[str, dict[str, Any]]) -> str:
    """What a queue's time series shows: each strategy's mean busy drives."""
    busy = {
        name.split("/")[1]: float(np.mean(r["series"]["busy_drives"]))
        for name, r in runs.items()
        if r["series"]["busy_drives"]
    }
    if not busy:
        return ""
    most = max(busy, key=busy.__getitem__)
    least = min(busy, key=busy.__getitem__)
    return (
        f"Throughput (top) and drives reading (bottom) over the campaign. On average {most} "
        f"keeps {busy[most]:.1f} drives busy and {least} {busy[least]:.1f}: a strategy reads "
        "only the tapes whose files it has passed on to the tape system."
    )


def _factor(runs: dict[str, dict[str, Any]]) -> float:
    """How far our Table-1 throughputs are from the paper's: the geometric
    mean of max(ours / paper, paper / ours) over the eight runs."""
    logs = [abs(np.log(runs[k]["throughput_mb_s"] / PAPER[k]["throughput_mb_s"])) for k in PAPER]
    return float(np.exp(np.mean(logs)))


def _num(x: float) -> str:
    """A table figure: whole numbers from 100 up, three digits below."""
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def _cells(runs: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """Table 1 with "ours / paper" in every cell."""
    rows = []
    for key, ours in runs.items():
        paper = PAPER.get(key, {})
        row: dict[str, Any] = {"run": key}
        for metric in list(METRICS)[:6]:
            mine = _num(ours[metric])
            if metric == "mounts":
                mine += f" ({ours['distinct_mounts']})"
            theirs = f"{paper[metric]:g}" if metric in paper else "–"
            if metric == "mounts" and paper:
                theirs += f" ({paper['distinct_mounts']:g})"
            row[METRICS[metric]] = f"{mine} / {theirs}"
        rows.append(row)
    return rows


def _why(claim_id: str, results: dict[str, Any]) -> str:
    """Why a finding does not hold with the defaults, from the runs' own figures."""
    r = results["runs"]
    if claim_id == "random-mounts-most":
        m = r["q30000/random"]
        return (
            f"Random at queue 30,000 recalls {m['pct_recalled_per_mount']:.1f} % of a tape per "
            f"mount and keeps it {m['mount_min']:.0f} min (paper: 2.4 %, 40 min). With the "
            "session-fraction curve a session that small reads at little more than the floor "
            f"(0.15 of 252 MB/s), so a random mount lasts {m['mount_min'] / 40:.1f} times the "
            "paper's and random mounts less often in 60 h. The paper's own row implies 0.34 "
            "of the rate at 2.4 % (2.4 % of 8.5 TB in 40 min): its curve lies above ours at "
            "small shares. The floor-0.34 variant (a fit, labelled so) shows what that changes."
        )
    if claim_id == "q2000-dataset-like-random":
        bd, rnd = r["q2000/by-dataset"], r["q2000/random"]
        tbt = results["variants"]["tape-by-tape"]["q2000/by-dataset"]
        gain = tbt["throughput_mb_s"] / rnd["throughput_mb_s"] - 1
        return (
            f"By-dataset mounts recall {bd['pct_recalled_per_mount']:.1f} % of a tape "
            f"(paper 1.8 %) in {bd['mounts']} mounts of {bd['distinct_mounts']} tapes (paper "
            "1,221 of 77): the queue holds the current dataset's requests for its ~12 tapes, "
            "each drive holds one of them and, after each batch, finds no unheld tape that "
            "outranks its own, so it stays and its session grows. The paper's 16 mounts per "
            "tape suggest its drives unmount after every batch even when the same tape comes "
            "next (one more reading of Figure 3, not modelled). Random, meanwhile, is slowed "
            f"by the floor to {rnd['throughput_mb_s']:.0f} MB/s (paper 855), which widens "
            "the gap. Requesting each dataset tape by tape instead brings by-dataset to "
            f"{tbt['throughput_mb_s']:.0f} MB/s ({gain:+.0%} on random) but with "
            f"{tbt['mounts']} mounts of {tbt['distinct_mounts']} tapes, "
            "further still from the paper's mounts."
        )
    if claim_id == "q30000-by-2-tapes-best":
        return (
            "At queue 30,000 the clustered strategies all give sessions of 25-40 % of a tape; "
            "the curve separates them by their share per mount only, and 2T's advantage in "
            "the paper (its trickle of requests re-ordered into the mounted tape) is small "
            "here."
        )
    if claim_id == "q2000-by-12-tapes-best":
        return (
            "With queue 2,000, 12T and by-dataset both keep 12 tapes busy with requests of a "
            "few tapes each; which one is ahead depends on how the dataset order spreads "
            "requests."
        )
    if claim_id == "larger-queue-better":
        return "A strategy lost throughput with the larger queue; see the table."
    if claim_id == "random-queue-gain":
        return (
            "The mount reduction or the throughput change of random is off; with the "
            "session-fraction curve random's throughput follows its share per mount."
        )
    return ""


def _consistency() -> list[dict[str, Any]]:
    """Table 1's mount-minutes against the 12 drives x 60 h there are."""
    available = 12 * 60 * 60
    return [
        {
            "run": k,
            "mounts x avg mount min": round(p["mounts"] * p["mount_min"]),
            "share of 12 drives x 60 h": f"{p['mounts'] * p['mount_min'] / available:.0%}",
            "over": p["mounts"] * p["mount_min"] > 1.01 * available,
        }
        for k, p in PAPER.items()
    ]


def _report(
    out_dir: Path, results: dict[str, Any], full: dict[str, dict[str, Any]], quick: bool
) -> None:
    rep = publish(
        out_dir,
        results,
        "Reproduction: Morschel et al., dCache tape recall scheduling",
        f"seekplan reproduce dcache --out {out_dir}" + (" --quick" if quick else ""),
        "A seeded KIT-like campaign (section 4.1) recalled through 12 T10000D drives "
        "(252 MB/s, load 13 s, unload 23 s, rewind 97 s) for 60 virtual hours. Reads follow "
        "the paper's model (section 3.2): a drive reads at 252 MB/s times e(f), f the share "
        "of the tape's capacity recalled in the session (read since the mount plus queued "
        "for the tape), e(f) = 0.15 + 0.85 min(1, f / 0.8). The 80 % is the paper's; the "
        "floor 0.15 is inferred from its figures (a mean KIT file of 2.22 GB, 1.1 PB / "
        "495,049 files, is read in 8.8 s after the 50 s tape access of section 3.1: "
        "8.8 / 58.8); the straight line between them is our choice. Dispatch follows "
        "Figure 3: a drive takes its cartridge's queued requests as a batch, orders them once "
        "(on-tape order), reads them, and is then assigned the most relevant cartridge (most "
        "queued bytes; its own unless an unheld tape outranks it); requests arriving meanwhile "
        "wait for the next batch. A dataset's files are requested interleaved across its "
        "tapes (spread): the paper's 1,221 by-dataset mounts of 77 tapes at queue 2,000 (16 "
        "per tape) need a stream that keeps returning to each tape; tape-by-tape order is "
        "shown below. No parameter of the defaults was fitted to Table 1; the one fitted "
        "variant is labelled."
        + (" Quick mode: a tenth of the campaign, queue sizes and duration." if quick else "")
        + " The findings below are judged on the defaults.",
    )
    report_failing(rep, results, "Why these findings do not hold", lambda c: _why(c["id"], results))
    rep.heading("Findings under each variant")
    rep.text(
        "The last column is the geometric mean, over the eight Table-1 runs, of the factor "
        "between our throughput and the paper's (1 = every run matches)."
    )
    rep.table(
        [
            {"variant": v, "what changes": VARIANT_TEXT[v]}
            | {cid: ("holds" if ok else "no") for cid, ok in held.items()}
            | {"throughput off by (x)": round(results["throughput_factor"][v], 2)}
            for v, held in results["claims_by_variant"].items()
        ]
    )
    rep.heading("Table 1, ours / paper (defaults: session-fraction read model)")
    rep.table(_cells(results["runs"]))
    rep.heading("Table 1, ours / paper (positional read model: locate + read)")
    rep.table(_cells(results["variants"]["positional"]))
    rep.text(
        "With the positional model a locate across the whole tape costs one 97 s wind, so "
        "skipping data costs far less than reading it and every strategy that gives a mount "
        "a few hundred files runs near the 12 x 252 = 3,024 MB/s ceiling: the strategies "
        "separate much less than in the paper (issue 12's first observation), while random, "
        "whose sessions are tiny under either model, comes out close to the paper's random "
        "rows."
    )
    rep.heading("Dataset order (by-dataset runs)")
    rep.table(
        [
            {"run": k, "order": order}
            | {METRICS[m]: runs[k][m] for m in ("throughput_mb_s", "mounts", "distinct_mounts")}
            for order, runs in (
                ("spread", results["runs"]),
                ("tape-by-tape", results["variants"]["tape-by-tape"]),
            )
            for k in runs
            if k.endswith("/by-dataset")
        ]
    )
    rep.heading("Table 1's own arithmetic")
    rows = _consistency()
    over = [r["run"] for r in rows if r["over"]]
    rep.text(
        "Mounts times average mount duration should not exceed the 12 drives x 60 h the runs "
        f"had. It does for {', '.join(over) or 'no run'}: there the paper's mount duration "
        "must count something besides time in a drive (waiting for one, perhaps), and those "
        "cells cannot be matched by a model whose mounts occupy drives."
    )
    rep.table([{k: v for k, v in r.items() if k != "over"} for r in rows])
    rep.heading("Cost of the runs")
    cpu = results["cpu_s"]["paper"]
    table1 = sum(cpu[k] for k in PAPER)
    rep.text(
        f"The eight Table-1 runs took {table1:.2f} s of CPU together "
        f"({sum(results['events']['paper'][k] for k in PAPER):,} events); every run's "
        "cpu_s and events are in results.json."
    )
    rep.heading("Campaign (generated) against section 4.1")
    rep.table([{"figure": k, "value": v} for k, v in results["campaign"].items()])
    rep.text(_bars_text(results["runs"]))
    rep.figure(_bars(results["runs"]), "fig4", "throughput and remounts per tape")
    rep.heading("Throughput and busy drives over time")
    for q in QUEUES:
        sel = {k: v for k, v in full.items() if k.startswith(f"q{q}/")}
        rep.text(_series_text(sel))
        rep.figure(series_figure(sel), f"series_q{q}", f"queue {q}")
    rep.write()
