"""Reproduction of Sandstå & Midtstraum (ICDE 1999), section 5 and Table 1:
uniform one-block (32 KB) requests from BOT on a Tandberg MLR1, every
scheduler, request lists of 1 to 2048 requests."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from seekplan.catalog import make_drive
from seekplan.experiments.base import publish
from seekplan.experiments.claims import claim
from seekplan.experiments.stats import Interval, ratio_ci
from seekplan.ordering import order
from seekplan.report import Report
from seekplan.sweep import Executor
from seekplan.text import duration
from seekplan.workload import uniform_batch

SIZES = [1, 2, 4, 8, 12, 16, 32, 64, 128, 256, 512, 1024, 2048]
ALGOS = ["read", "fifo", "sort", "scan", "opt", "loss", "sltf", "mpscan", "mpscan-star", "best"]
OPT_MAX = 12
REQUEST_BYTES = 32 * 1024

# Request lists per size. The paper used 100,000 lists up to 192 requests and
# 25,000 down to 500 from 256 to 2048; ours are fewer (CPU budget), so the
# standard error is reported beside each mean.
FULL_LISTS = {
    1: 2000,
    2: 1000,
    4: 600,
    8: 400,
    12: 300,
    16: 200,
    32: 120,
    64: 80,
    128: 48,
    256: 24,
    512: 12,
    1024: 6,
    2048: 4,
}
QUICK_LISTS = {
    1: 200,
    2: 100,
    4: 60,
    8: 40,
    12: 20,
    16: 16,
    32: 10,
    64: 6,
    128: 4,
    256: 2,
    512: 2,
    1024: 1,
    2048: 1,
}

# Table 1 of the paper: average access time per request (s) with MPScan*
# (MLR1, DLT2000) and LOSS (DLT4000, from Hillyer & Silberschatz).
TABLE1: dict[str, dict[int, float]] = {
    "mlr1": {1: 63.2, 2: 43.9, 4: 29.0, 16: 12.1, 64: 7.6, 256: 6.5, 1024: 5.4},
    "dlt2000": {1: 66.8, 2: 51.7, 4: 40.2, 16: 29.0, 64: 24.8, 256: 21.7, 1024: 11.0},
    "dlt4000": {1: 95, 2: 72, 4: 54, 16: 38, 64: 31, 256: 24, 1024: 13},
}
TABLE1_ALGO = {"mlr1": "mpscan-star", "dlt2000": "mpscan-star", "dlt4000": "loss"}
# LOSS against MPScan* above 1000 requests, paired on the same lists: the paper's
# margins (under 1 %, about 5 %) are small beside one list's spread, so this
# comparison gets its own lists (the first ones are those of the main sweep).
PAIRED_LISTS = {1024: 30, 2048: 16}
QUICK_PAIRED_LISTS = {1024: 2, 2048: 1}

# MLR1 Table 1 sizes the drive figures were calibrated on (docs/calibration.md):
# 1 request (63.2 s, with FIFO's 45 s) and 1024 requests (5.4 s, which fixes the
# per-locate cost), so they are not evidence for the table1-mlr1 finding.
CALIBRATED_SIZES = (1, 1024)

# Why a finding can fail in our model; the report prints the ones that did.
WHY_WE_DIFFER = {
    "small-overlap": (
        "Small lists: our SLTF and MPScan* sit a few percent above OPT (see the evidence) "
        "where the paper's curves overlap on a log scale. MPScan* folds scans as Figure 4's "
        "`while (N > 1)` does, counting the empty forward pass an MPScan from BOT can start "
        "with, so two requests on reverse tracks are no longer left in one reverse scan from "
        "the far end (that stopped it 7.3 % above OPT at 2 requests)."
    ),
    "loss-marginal-above-1000": (
        "LOSS vs MPScan* above 1000 requests: on the same lists, LOSS trails MPScan* at 1024 "
        "requests and leads at 2048 by about 1 % (the evidence gives each margin with its "
        "95 % interval; in the full run -1.0 % [-1.6, -0.4] over 30 lists and +0.9 % "
        "[+0.1, +1.6] over 16), where the paper has LOSS ahead by under 1 % at 1024 and by "
        "5 % at 2048. So in our model the two cross between 1024 and 2048 rather than near "
        "1000, and LOSS's lead at 2048 is a fifth of the paper's. Neither is near the "
        "optimum: `best` (the better seed polished by local search) is 3-4 % ahead of both, "
        "so which of two heuristics leads by 1 % depends on the details of their rules. Ours "
        "is the generic regret rule: the paper names LOSS in one sentence without its rule, "
        "and the 1978 paper it cites is not among our sources (docs/ordering.md), so the "
        "paper's LOSS cannot be rebuilt to test whether its rule is what moves the crossing."
    ),
    "read-wins-beyond-2100": (
        "READ crossover: extrapolated from the better of LOSS and MPScan* at 1024 and 2048 "
        "requests, it moves with the per-locate fixed cost, which is calibrated on Table 1's "
        "entry at 1024 (docs/calibration.md); with the earlier guess of 0.3 s it came out at "
        "2758 requests."
    ),
    "table1-mlr1": (
        "Table 1: sizes 1 and 1024 are calibration targets; the sizes between them are the "
        "evidence. The paper's schedules were computed with a model that was itself ±5 % off "
        "the drive (its Figure 11), and ours with one calibrated on three averages."
    ),
    "196-requests": (
        "196 requests: this size lies between Table 1's entries at 64 and 256, where the "
        "table1-mlr1 evidence shows how far our MPScan* per request is from the paper's."
    ),
}


def _point(args: tuple[str, int, int, tuple[str, ...]]) -> dict[str, tuple[float, float]]:
    """One request list ordered by each algorithm: {algo: (total_s, cpu_s)}."""
    drive, n, seed, algos = args
    capacity = make_drive(drive).capacity
    batch = uniform_batch(capacity, n, REQUEST_BYTES, seed)
    out = {}
    for algo in algos:
        if algo == "opt" and n > OPT_MAX:
            continue
        # Only best uses the lower bound (it stops at it); for the others
        # the bound's assignment problem would be counted in their
        # scheduling CPU (Figure 9) and cost the run seconds at 2048.
        r = order(batch, drive=drive, algo=algo, bound=algo == "best")
        out[algo] = (r.total_s, r.cpu_s)
    return out


def _sweep(
    drive: str,
    lists: dict[int, int],
    algos: tuple[str, ...],
    executor: Executor,
    label: str,
    sizes: list[int] | None = None,
    skip: dict[int, int] | None = None,
) -> dict[str, dict[int, list[tuple[float, float]]]]:
    """Orders ``lists[n]`` request lists of each size with each of ``algos``;
    the first ``skip[n]`` lists of a size are left out (another sweep ran
    them: list k of size n is the same list in every sweep)."""
    skip = skip or {}
    points = [
        (drive, n, 1_000_003 * n + k, algos)
        for n in (sizes or SIZES)
        for k in range(skip.get(n, 0), lists[n])
    ]
    results = executor.map(_point, points, label=label)
    runs: dict[str, dict[int, list[tuple[float, float]]]] = {a: {} for a in algos}
    for (_, n, _, _), res in zip(points, results, strict=True):
        for algo, v in res.items():
            runs[algo].setdefault(n, []).append(v)
    return runs


def _mean(xs: list[float]) -> float:
    return float(statistics.fmean(xs))


def _relative(lead: float, other: str) -> str:
    """A lead as people say it: "0.9 % ahead of X", "1.0 % behind X"."""
    if round(lead, 3) == 0:
        return f"level with {other}"
    return f"{abs(lead) * 100:.1f} % {'ahead of' if lead > 0 else 'behind'} {other}"


def _claims(
    per: dict[str, dict[int, float]],
    table1_ours: dict[str, dict[int, float]],
    at196: dict[str, float],
    loss_vs_star: dict[int, Interval],
    lists_at: dict[int, int],
) -> list[dict[str, Any]]:
    """The paper's findings judged on our runs; ``loss_vs_star`` holds the
    paired LOSS/MPScan* ratio of totals per size above 1000 requests, over
    ``lists_at`` lists each."""
    paper_algos = ["read", "fifo", "sort", "scan", "loss", "sltf", "mpscan", "mpscan-star"]
    out = []

    # "Less than 12 requests" (§4.1): 2 to 8 of our sizes, not 12 itself.
    small = [n for n in SIZES if 2 <= n < 12]
    gaps = {n: max(per[a][n] / per["opt"][n] - 1 for a in ("sltf", "mpscan-star")) for n in small}
    worst = max(gaps.values())
    out.append(
        claim(
            "small-overlap",
            "For schedules with less than 12 requests, OPT, SLTF and MPScan* overlap.",
            worst <= 0.05,
            f"largest gap of SLTF/MPScan* above OPT for 2..8 requests: {worst:.1%} "
            f"(per size: {', '.join(f'{n}: {g:.1%}' for n, g in gaps.items())}); holds if <= 5 %",
        )
    )

    mid = [n for n in SIZES if 16 <= n <= 512]
    losers = []
    for n in mid:
        rival = min((per[a][n], a) for a in paper_algos if a != "mpscan-star")
        if per["mpscan-star"][n] > rival[0] * 1.01:
            losers.append(f"{n}: {rival[1]} {rival[0]:.2f} s < {per['mpscan-star'][n]:.2f} s")
    out.append(
        claim(
            "mpscan-star-best-to-1000",
            "From 12 to about 1000 requests MPScan* produces the best schedules.",
            not losers,
            "MPScan* within 1 % of the best paper algorithm at every size 16..512"
            if not losers
            else "beaten at " + "; ".join(losers),
        )
    )

    margins = {n: 1 - ci.mean for n, ci in loss_vs_star.items()}
    out.append(
        claim(
            "loss-marginal-above-1000",
            "Above 1000 requests LOSS is marginally better than MPScan* "
            "(under 1 % at 1024, about 5 % at 2048).",
            all(0 < m <= 0.10 for m in margins.values()),
            "; ".join(
                f"{n}: LOSS is {_relative(m, 'MPScan*')} (its lead's 95 % interval "
                f"{1 - loss_vs_star[n].hi:+.1%} to {1 - loss_vs_star[n].lo:+.1%}, "
                f"{lists_at[n]} paired lists), best is "
                f"{_relative(1 - per['best'][n] / per['mpscan-star'][n], 'MPScan*')}"
                for n, m in margins.items()
            )
            + "; holds if LOSS is ahead by 0-10 % at each size",
        )
    )

    read_total = per["read"][2048] * 2048
    best_paper = min(("loss", "mpscan-star"), key=lambda a: per[a][2048])
    t1, t2 = per[best_paper][1024] * 1024, per[best_paper][2048] * 2048
    slope = (t2 - t1) / 1024
    cross = 2048 + (read_total - t2) / slope if slope > 0 else float("inf")
    out.append(
        claim(
            "read-wins-beyond-2100",
            "Beyond about 2100 requests, reading the whole tape (READ) is fastest.",
            abs(cross - 2100) <= 0.3 * 2100,
            f"READ takes {read_total:.0f} s; {best_paper} at 1024/2048: {t1:.0f}/{t2:.0f} s, "
            f"extrapolated crossover at {cross:.0f} requests; holds within ±30 % of 2100",
        )
    )

    ours = table1_ours["mlr1"]
    devs = {n: ours[n] / TABLE1["mlr1"][n] - 1 for n in TABLE1["mlr1"]}
    judged = [d for n, d in devs.items() if n not in CALIBRATED_SIZES]
    out.append(
        claim(
            "table1-mlr1",
            "MPScan* per-request access times on the MLR1 are those of Table 1.",
            all(abs(d) <= 0.25 for d in judged),
            ", ".join(
                f"{n}: {ours[n]:.1f} s vs {TABLE1['mlr1'][n]} ({d:+.0%})"
                + (" calibrated" if n in CALIBRATED_SIZES else "")
                for n, d in devs.items()
            )
            + "; holds if each size not calibrated on is within ±25 %",
        )
    )

    fifo_tail = [per["fifo"][n] for n in SIZES if n >= 64]
    out.append(
        claim(
            "fifo-45s",
            "Without scheduling (FIFO) the access time stabilises at about 45 s per request.",
            all(abs(v - 45) <= 3 for v in fifo_tail),
            f"FIFO per request for 64..2048: {min(fifo_tail):.1f}-{max(fifo_tail):.1f} s "
            "(calibrated target; holds within ±3 s)",
        )
    )

    tab = table1_ours
    slower = [n for n in TABLE1["dlt2000"] if n > 1 and tab["dlt2000"][n] <= tab["mlr1"][n]]
    out.append(
        claim(
            "dlt2000-similar-but-worse",
            "MPScan* on the DLT2000 gives similar but not quite as good results as on the MLR1 "
            "(fewer key points).",
            not slower,
            ", ".join(
                f"{n}: {tab['dlt2000'][n]:.1f} vs {tab['mlr1'][n]:.1f} s"
                for n in TABLE1["dlt2000"]
                if n > 1
            )
            + " (DLT2000 vs MLR1 per request); holds if the DLT2000 is slower at every size > 1",
        )
    )
    dlt4000_slower = [n for n in TABLE1["dlt4000"] if tab["dlt4000"][n] > tab["mlr1"][n]]
    out.append(
        claim(
            "mlr1-beats-dlt4000",
            "Despite similar specifications, the MLR1 (25 key points) performs random access "
            "much better than the DLT4000 (13 key points, slower between them).",
            len(dlt4000_slower) == len(TABLE1["dlt4000"]),
            f"DLT4000 (LOSS) slower than MLR1 (MPScan*) at {len(dlt4000_slower)} of "
            f"{len(TABLE1['dlt4000'])} sizes; at 256: {tab['dlt4000'][256]:.1f} vs "
            f"{tab['mlr1'][256]:.1f} s",
        )
    )

    fifo_read = min(at196["fifo"], at196["read"])
    out.append(
        claim(
            "196-requests",
            "A schedule of 196 requests (where FIFO and READ cost the same) runs in 20 min 47 s "
            "with MPScan*, against 2 h 27 min for the better of FIFO and READ.",
            abs(at196["mpscan-star"] / 60 - 20.8) <= 0.25 * 20.8
            and abs(fifo_read / 60 - 147) <= 0.15 * 147,
            f"MPScan* {at196['mpscan-star'] / 60:.1f} min, FIFO {at196['fifo'] / 60:.1f} min, "
            f"READ {at196['read'] / 60:.1f} min; holds if MPScan* within ±25 % of 20.8 min and "
            "the better of FIFO/READ within ±15 % of 147 min",
        )
    )

    cut = max(1 - per["mpscan-star"][n] / per["fifo"][n] for n in SIZES)
    out.append(
        claim(
            "up-to-85pct",
            "MPScan* gives up to 85 % reduction of the total access time versus FIFO.",
            0.75 <= cut <= 0.95,
            f"largest reduction vs FIFO: {cut:.0%}; holds within 75-95 %",
        )
    )
    return out


def _requests(n: int) -> str:
    return f"{n:,} request" + ("" if n == 1 else "s")


def _what_it_shows(
    name: str, per: dict[str, dict[int, float]], cpu: dict[str, dict[int, float]]
) -> str:
    """The paragraph above one figure, from the run's numbers (exact
    algorithms stop at smaller lists, so each size compares those run at it)."""
    sizes = sorted({n for series in per.values() for n in series})
    small, large = sizes[0], sizes[-1]
    at_large = [a for a in per if large in per[a]]
    at_small = [a for a in per if small in per[a]]
    if name == "fig9_cpu":
        timed = [a for a in cpu if large in cpu[a]]
        dearest = max(timed, key=lambda a: cpu[a][large])
        cheapest = min(timed, key=lambda a: cpu[a][large])
        return (
            f"CPU seconds this machine spent scheduling one list, on log axes. At {large:,} "
            f"requests {dearest} is the dearest ({cpu[dearest][large]:.3g} s) and {cheapest} "
            f"the cheapest ({cpu[cheapest][large]:.3g} s): the price of the schedules in "
            "Figures 7 and 8."
        )
    best = min(at_large, key=lambda a: per[a][large])
    base = "fifo" if "fifo" in at_large else max(at_large, key=lambda a: per[a][large])
    if name == "fig7_total":
        low = min(per[a][small] for a in at_small) * small
        high = max(per[a][small] for a in at_small) * small
        return (
            f"Total time to serve a list, on log axes. At {large:,} requests {best} needs "
            f"{duration(per[best][large] * large)} against {duration(per[base][large] * large)} "
            f"for {base}; with {_requests(small)} the algorithms take {low:,.0f}-{high:,.0f} s."
        )
    first = min(n for n in per[best])
    return (
        f"Mean access time per request, on log axes. Longer lists let a scheduler find "
        f"shorter hops: {best}'s falls from {per[best][first]:,.1f} s with {_requests(first)} "
        f"to {per[best][large]:,.1f} s at {large:,}, while {base} takes "
        f"{per[base][large]:,.1f} s at {large:,}."
    )


def _plots(
    report: Report, per: dict[str, dict[int, float]], cpu: dict[str, dict[int, float]]
) -> None:
    for name, data, ylabel, title, total in (
        ("fig7_total", per, "total time (s)", "Figure 7: total time per request list", True),
        (
            "fig8_per_request",
            per,
            "seconds per request",
            "Figure 8: access time per request",
            False,
        ),
        ("fig9_cpu", cpu, "CPU seconds (this machine)", "Figure 9: scheduling CPU time", False),
    ):
        fig = Figure(figsize=(7.5, 4.5))
        ax = fig.add_subplot()
        for algo, series in data.items():
            ns = sorted(series)
            ys = [series[n] * (n if total else 1) for n in ns]
            ax.plot(ns, ys, marker="o", ms=3, label=algo)
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("requests in list")
        ax.set_ylabel(ylabel)
        ax.set_title(title)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7, ncol=2)
        report.text(_what_it_shows(name, per, cpu))
        report.figure(fig, name, title)


def run(out_dir: Path, quick: bool = False, executor: Executor | None = None) -> dict[str, Any]:
    """Runs the reproduction and writes results.json, report.html and plots;
    ``executor`` says where the sweep's points run (local processes by default)."""
    executor = executor or Executor()
    lists = QUICK_LISTS if quick else FULL_LISTS
    runs = _sweep("mlr1", lists, tuple(ALGOS), executor, "sandsta mlr1")
    per = {a: {n: _mean([t for t, _ in v]) / n for n, v in s.items()} for a, s in runs.items()}
    sem = {
        a: {
            n: (
                float(np.std([t / n for t, _ in v], ddof=1) / np.sqrt(len(v)))
                if len(v) > 1
                else float("nan")
            )
            for n, v in s.items()
        }
        for a, s in runs.items()
    }
    cpu = {a: {n: _mean([c for _, c in v]) for n, v in s.items()} for a, s in runs.items()}

    table1_ours: dict[str, dict[int, float]] = {
        "mlr1": {n: per["mpscan-star"][n] for n in TABLE1["mlr1"]}
    }
    t1_lists = {n: max(1, lists[n] // 2) for n in SIZES}
    for drive in ("dlt2000", "dlt4000"):
        algo = TABLE1_ALGO[drive]
        extra = _sweep(drive, t1_lists, (algo,), executor, f"table 1 {drive}")
        table1_ours[drive] = {n: _mean([t for t, _ in extra[algo][n]]) / n for n in TABLE1[drive]}

    n196 = 196
    lists196 = {n196: max(1, lists[128])}
    runs196 = _sweep(
        "mlr1", lists196, ("read", "fifo", "mpscan-star"), executor, "196 requests", sizes=[n196]
    )
    at196 = {a: _mean([t for t, _ in v[n196]]) for a, v in runs196.items()}
    paired_lists = QUICK_PAIRED_LISTS if quick else PAIRED_LISTS
    # The main sweep's first lists are the same lists with the same two
    # algorithms: only the lists past them are ordered again (quick: LOSS
    # and MPScan* on 2,048 and 1,024 requests, ~2 s of its ~12 s).
    paired = _sweep(
        "mlr1",
        paired_lists,
        ("loss", "mpscan-star"),
        executor,
        "LOSS vs MPScan*",
        sizes=sorted(paired_lists),
        skip={n: min(lists[n], paired_lists[n]) for n in paired_lists},
    )
    for algo, by_size in paired.items():
        for n in paired_lists:
            by_size[n] = runs[algo][n][: paired_lists[n]] + by_size.get(n, [])
    loss_vs_star = {
        n: ratio_ci([t for t, _ in paired["loss"][n]], [t for t, _ in paired["mpscan-star"][n]])
        for n in paired_lists
    }
    claims = _claims(per, table1_ours, at196, loss_vs_star, paired_lists)
    results = {
        "paper": "sandsta",
        "quick": quick,
        "lists": {str(n): lists[n] for n in SIZES},
        "per_request_s": {a: {str(n): v for n, v in s.items()} for a, s in per.items()},
        "per_request_sem_s": {a: {str(n): v for n, v in s.items()} for a, s in sem.items()},
        "cpu_s": {a: {str(n): v for n, v in s.items()} for a, s in cpu.items()},
        "table1": {
            d: {str(n): {"ours": table1_ours[d][n], "paper": TABLE1[d][n]} for n in TABLE1[d]}
            for d in TABLE1
        },
        "at_196_s": at196,
        "loss_vs_mpscan_star": {
            str(n): {"ratio": ci.mean, "lo": ci.lo, "hi": ci.hi, "lists": paired_lists[n]}
            for n, ci in loss_vs_star.items()
        },
        "claims": claims,
    }
    _report(out_dir, results, per, cpu, quick)
    return results


def _report(
    out_dir: Path,
    results: dict[str, Any],
    per: dict[str, dict[int, float]],
    cpu: dict[str, dict[int, float]],
    quick: bool,
) -> None:
    rep = publish(
        out_dir,
        results,
        "Reproduction: Sandstå & Midtstraum, serpentine tape scheduling",
        f"seekplan reproduce sandsta --out {out_dir}" + (" --quick" if quick else ""),
        "Uniform one-block (32 KB) requests over a nominal Tandberg MLR1 tape, head at BOT, as "
        "in section 5 of the paper. Our drive model is the key-point model of section 3 with "
        "figures from devices.toml; the paper's own cost functions are unpublished, so ours were "
        "calibrated on three published figures (one request from BOT: 63.2 s; FIFO: about "
        "45 s per request; MPScan* at 1024 requests: 5.4 s per request, Table 1, the one "
        "that fixes the per-locate cost). Nothing else was tuned to the paper's results."
        + (" Quick mode: few request lists per size, so the means are noisy." if quick else ""),
    )
    rep.heading("Calibration")
    t1 = results["table1"]
    fifo_tail = [per["fifo"][n] for n in SIZES if n >= 64]
    rep.table(
        [
            {
                "figure": "MLR1, one request from BOT (s)",
                "target": 63.2,
                "measured here": t1["mlr1"]["1"]["ours"],
            },
            {
                "figure": "MLR1, FIFO per request, 64..2048 (s)",
                "target": 45.0,
                "measured here": statistics.fmean(fifo_tail),
            },
            {
                "figure": "MLR1, MPScan* per request at 1024 (s)",
                "target": 5.4,
                "measured here": t1["mlr1"]["1024"]["ours"],
            },
            {
                "figure": "DLT2000, one request from BOT (s)",
                "target": 66.8,
                "measured here": t1["dlt2000"]["1"]["ours"],
            },
        ]
    )
    rep.text(
        "The MLR1's wind time per track (115 s), reversal time (2.8 s) and fixed cost per "
        "locate (1.35 s) were solved together from the first three targets "
        "(python benchmarks/calibrate_mlr1.py); the DLT2000's wind time (116 s) from the "
        "fourth. Table 1's MLR1 entries at 1 and 1024 requests therefore agree by "
        "construction and are not counted as evidence. Everything else is a physical "
        "reading of the paper (see docs/calibration.md and devices.toml)."
    )
    failed = {c["id"] for c in results["claims"] if not c["holds"]}
    notes = [text for cid, text in WHY_WE_DIFFER.items() if cid in failed]
    if notes:
        rep.heading("Where we differ, and why")
        for text in notes:
            rep.text(text)
    rep.heading("Table 1: seconds per request, ours beside the paper's")
    rows = []
    for n in TABLE1["mlr1"]:
        row: dict[str, Any] = {"requests": n}
        for d in TABLE1:
            row[f"{d} ({TABLE1_ALGO[d]}) ours"] = results["table1"][d][str(n)]["ours"]
            row[f"{d} paper"] = TABLE1[d][n]
        rows.append(row)
    rep.table(rows)
    rep.text(
        "DLT2000 and DLT4000 differ more from the paper than the MLR1: the DLT2000 was "
        "calibrated only on its single-request mean, and the DLT4000 not at all (its figures "
        "come from the maximum seek and key-point count the paper quotes); its Table 1 column "
        "is Hillyer & Silberschatz's measurement with their far more detailed model."
    )
    rep.heading("Seconds per request by algorithm (Figure 8)")
    rep.table([{"requests": n, **{a: per[a].get(n, float("nan")) for a in ALGOS}} for n in SIZES])
    rep.heading("Scheduling CPU seconds on this machine (Figure 9)")
    rep.table([{"requests": n, **{a: cpu[a].get(n, float("nan")) for a in ALGOS}} for n in SIZES])
    _plots(rep, per, cpu)
    rep.write()
