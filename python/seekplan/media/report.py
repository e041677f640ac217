"""Tables and plots of a media study: mean response and fairness by arrival
rate, one line per algorithm."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from seekplan.io import write_json
from seekplan.media.config import MediaStudy
from seekplan.report import Report

METRICS = {
    "d_mean_response_s": "mean D response (s)",
    "fairness": "fairness index (eq. 2)",
}


def plot(
    report: Report,
    per: dict[str, dict[str, dict[str, Any]]],
    metric: str,
    name: str,
    title: str,
    labels: dict[str, str] | None = None,
) -> None:
    """One line per algorithm of ``metric`` against lambda; saturated points
    are left out."""
    fig = Figure(figsize=(7.0, 4.2))
    ax = fig.add_subplot()
    for algo, series in per.items():
        pts = sorted((float(lam), v[metric]) for lam, v in series.items() if not v["saturated"])
        if pts:
            ax.plot(*zip(*pts, strict=True), marker="o", ms=3, label=(labels or {}).get(algo, algo))
    ax.set_xlabel("D-request arrivals per round (lambda)")
    ax.set_ylabel(METRICS.get(metric, metric))
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    report.figure(fig, name, title)


def what_it_shows(
    per: dict[str, dict[str, dict[str, Any]]], metric: str, lower_is_better: bool
) -> str:
    """A paragraph from the study's numbers: at the heaviest rate every
    algorithm reached, which one leads on ``metric`` and by how much, and
    where algorithms saturated."""
    label = METRICS.get(metric, metric)
    shared = set.intersection(
        *({float(lam) for lam, v in s.items() if not v["saturated"]} for s in per.values())
    )
    parts = []
    if shared:
        lam = max(shared)
        values = {a: s[next(k for k in s if float(k) == lam)][metric] for a, s in per.items()}
        ranked = sorted(values, key=values.__getitem__, reverse=not lower_is_better)
        best, worst = ranked[0], ranked[-1]
        parts.append(
            f"At lambda {lam:g}, the heaviest load no algorithm saturated at, {best} has the "
            f"{'lowest' if lower_is_better else 'highest'} {label}, {values[best]:.4g}, and "
            f"{worst} the {'highest' if lower_is_better else 'lowest'}, {values[worst]:.4g}."
        )
    saturated = sorted(
        {f"{a} from lambda {min(float(k) for k, v in s.items() if v['saturated']):g}"
         for a, s in per.items() if any(v["saturated"] for v in s.values())}
    )  # fmt: skip
    if saturated:
        parts.append(f"Saturated (left out of the plot): {'; '.join(saturated)}.")
    return " ".join(parts)


def table(
    report: Report, per: dict[str, dict[str, dict[str, Any]]], labels: dict[str, str] | None = None
) -> None:
    """One row per (algorithm, lambda) with every aggregated metric."""
    rows = []
    for algo, series in per.items():
        for lam, v in sorted(series.items(), key=lambda kv: float(kv[0])):
            rows.append(
                {
                    "algorithm": (labels or {}).get(algo, algo),
                    "lambda": float(lam),
                    "mean response s": v["d_mean_response_s"],
                    "fairness": v["fairness"],
                    "unserved/round": v["unserved_per_round"],
                    "C fraction": v["c_busy_fraction"],
                    "glitches": v["glitches"],
                    "saturated": "yes" if v["saturated"] else "",
                }
            )
    report.table(rows)


def glitch_warning(glitches: int) -> str:
    """Why a study has glitches: every algorithm admits a request only if the
    round's C-plan still ends in time, so a C-request misses its round only
    when the C-requests alone do not fit in it (docs/media.md)."""
    return (
        f"{glitches:,} C-requests missed their round: in those rounds the C-requests alone "
        "needed more than the round (too many streams, or streams too large, for this disk "
        "and round_s); no scheduler can avoid that. Lower c_requests or raise round_s."
    )


def write(out_dir: Path, study: MediaStudy, results: dict[str, Any], command: str) -> None:
    """Writes results.json and report.html for a study's ``simulate`` results."""
    per = results["results"]
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json(out_dir / "results.json", results)
    rep = Report("Mixed-media disk scheduling study", out_dir)
    rep.code(command)
    rep.text(
        f"{study.setting('c_requests')} C-requests per round of {study.setting('round_s')} s, "
        f"{study.runs} run(s) of {study.setting('rounds')} rounds per point. A point is "
        f"'saturated' when the D-queue outgrew {study.setting('queue_limit')} requests and the "
        "run stopped early."
    )
    if results["glitches_total"]:
        rep.text(glitch_warning(results["glitches_total"]))
    table(rep, per)
    rep.text(what_it_shows(per, "d_mean_response_s", lower_is_better=True))
    plot(rep, per, "d_mean_response_s", "response", "Mean D-request response time")
    rep.text(what_it_shows(per, "fairness", lower_is_better=False))
    plot(rep, per, "fairness", "fairness", "Fairness index of D-request response times")
    rep.write()
