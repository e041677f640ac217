"""report.html for a mount replay or sweep: what it shows (the best online
policy against immediate dismount and against Belady, loads above the
untimed floor), loads and latency against the dismount delay, latency
CDFs, and every run's numbers."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from seekplan.report import Report
from seekplan.text import duration, number

Run = dict[str, Any]

#: The table's columns: key, heading.
COLUMNS = {
    "policy": "eviction",
    "dismount": "dismount delay",
    "loads": "loads",
    "above_floor": "loads / floor",
    "latency_mean_s": "latency mean (s)",
    "latency_p50_s": "p50 (s)",
    "latency_p95_s": "p95 (s)",
    "latency_p99_s": "p99 (s)",
    "drive_utilisation": "drives busy",
    "robot_utilisation": "robots busy",
    "handbot_wait_s": "handbot waits (s)",
}


def rule_label(dismount: dict[str, Any]) -> str:
    """A config's dismount rule in words: ``immediate``, ``300 s``,
    ``adaptive (at most 3600 s)``."""
    kind = dismount.get("kind")
    if kind == "fixed":
        return f"{dismount['delay_s']:g} s"
    if kind == "adaptive":
        return f"adaptive (at most {dismount['max_delay_s']:g} s)"
    return str(kind)


def delay_label(run: Run, rule: str) -> str:
    """A run's dismount: its swept delay, or the config's rule."""
    d = run.get("dismount_delay_s")
    return rule if d is None else f"{d:g} s"


def best_online(runs: Sequence[Run]) -> Run:
    """The online run (not Belady) with the lowest mean latency, then fewest loads."""
    online = [r for r in runs if r["policy"] != "belady"] or list(runs)
    return min(online, key=lambda r: (r["latency_mean_s"], r["loads"]))


def summary(study: dict[str, Any], drives: int, rule: str) -> str:
    """One paragraph from the study's numbers: the best online policy, how
    far its loads are above the floor, against immediate dismount and
    against Belady at the same delay."""
    runs, floor = study["runs"], study["floor_loads"]
    best = best_online(runs)
    text = (
        f"With {drives} drives the best online setting is {best['policy'].upper()} eviction "
        f"with a {delay_label(best, rule)} dismount delay: {best['loads']:,} loads, "
        f"{best['loads'] / max(floor, 1):.2f} times the untimed floor of {floor:,} "
        f"(Belady's minimum with drives as cache slots), and a mean load latency of "
        f"{duration(best['latency_mean_s'])} (p95 {duration(best['latency_p95_s'])})."
    )
    immediate = [r for r in runs if r.get("dismount_delay_s") == 0 and r["policy"] != "belady"]
    if immediate and best.get("dismount_delay_s") != 0:
        base = min(immediate, key=lambda r: r["latency_mean_s"])
        text += (
            f" Against dismounting at once ({base['loads']:,} loads, mean latency "
            f"{duration(base['latency_mean_s'])}) it makes "
            f"{base['loads'] / max(best['loads'], 1):.2f} times fewer loads and cuts the "
            f"latency {base['latency_mean_s'] / max(best['latency_mean_s'], 1e-9):.2f} times."
        )
    belady = [
        r
        for r in runs
        if r["policy"] == "belady" and r.get("dismount_delay_s") == best.get("dismount_delay_s")
    ]
    if belady:
        b = belady[0]
        text += (
            f" Belady's offline choice at the same delay makes {b['loads']:,} loads with a mean "
            f"latency of {duration(b['latency_mean_s'])}."
        )
    below = [r for r in runs if r["loads"] < floor]
    if below:
        text += (
            f" {len(below)} run(s) load less than the untimed floor: in the timed replay a "
            "request for a cartridge already in a drive joins its queue ahead of requests "
            "waiting for other cartridges, an order the untimed model does not allow."
        )
    return text


def _by_policy(runs: Sequence[Run]) -> dict[str, list[Run]]:
    out: dict[str, list[Run]] = {}
    for r in runs:
        out.setdefault(r["policy"], []).append(r)
    return out


def _against_delay(study: dict[str, Any], key: str, ylabel: str, floor: bool) -> Figure:
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    for policy, runs in _by_policy(study["runs"]).items():
        xs = [r["dismount_delay_s"] for r in runs]
        ax.plot(xs, [r[key] for r in runs], marker="o", label=policy)
    if floor:
        ax.axhline(study["floor_loads"], color="black", linestyle=":", label="untimed floor")
    ax.set_xscale("symlog", linthresh=60)
    ax.set_xlim(left=0)
    ax.set_xlabel("dismount delay (s)")
    ax.set_ylabel(ylabel)
    ax.legend(fontsize=8)
    return fig


def _cdf(runs: Sequence[Run], label: str) -> Figure:
    fig = Figure(figsize=(7, 4))
    ax = fig.subplots()
    qs = [k / 100 for k in range(101)]
    for r in runs:
        ax.plot(r["latency_quantiles_s"], qs, label=f"{r['policy']}{label}")
    ax.set_xscale("symlog", linthresh=10)
    ax.set_xlim(left=0)
    ax.set_xlabel("load latency, request to cartridge ready (s)")
    ax.set_ylabel("share of requests")
    ax.set_ylim(0, 1)
    ax.legend(fontsize=8)
    return fig


def write(
    out_dir: Path,
    config: dict[str, Any],
    trace_summary: dict[str, Any],
    study: dict[str, Any],
    command: str,
    rule: str,
) -> Path:
    """Writes DIR/report.html and returns its path."""
    rep = Report("Cartridge management: mount replay", out_dir)
    rep.code(command)
    rep.text(
        f"Trace {trace_summary['source']}: {trace_summary['requests']:,} requests for "
        f"{trace_summary['cartridges']:,} cartridges over {duration(trace_summary['span_s'])}."
    )
    rep.text(summary(study, int(config["drives"]), rule))
    runs = study["runs"]
    floor = study["floor_loads"]
    delays = sorted({r["dismount_delay_s"] for r in runs if r["dismount_delay_s"] is not None})
    if len(delays) > 1:
        rep.heading("Loads against the dismount delay")
        fewest = min(runs, key=lambda r: r["loads"])
        rep.text(
            f"Each line is one eviction policy; the dotted line is the untimed floor "
            f"({floor:,} loads). A longer delay keeps cartridges for their next request; the "
            f"fewest loads here are {fewest['loads']:,} ({fewest['policy']}, "
            f"{delay_label(fewest, rule)})."
        )
        rep.figure(_against_delay(study, "loads", "loads", True), "loads")
        rep.heading("Latency against the dismount delay")
        quickest = best_online(runs)
        rep.text(
            "Mean seconds from a request to its cartridge being ready for it. Too short a "
            "delay reloads cartridges that come back; too long a delay keeps drives from "
            f"waiting requests. The lowest online mean is {duration(quickest['latency_mean_s'])} "
            f"({quickest['policy']}, {delay_label(quickest, rule)})."
        )
        rep.figure(_against_delay(study, "latency_mean_s", "mean latency (s)", False), "latency")
    best = best_online(runs)
    at_best = [r for r in runs if r.get("dismount_delay_s") == best.get("dismount_delay_s")]
    rep.heading("Latency distribution")
    median = number(best["latency_p50_s"])
    rep.text(
        f"Share of requests served within a latency, one line per policy at the best "
        f"setting's dismount delay ({delay_label(best, rule)}). Requests whose cartridge was "
        f"already mounted wait nothing; {best['policy']}'s median is {median} s."
    )
    rep.figure(_cdf(at_best, ""), "latency_cdf")
    rep.heading("Every run")
    rows = [
        {**r, "dismount": delay_label(r, rule), "above_floor": r["loads"] / max(floor, 1)}
        for r in runs
    ]
    rep.table([{head: r[key] for key, head in COLUMNS.items()} for r in rows])
    rep.text(
        "Untimed loads of each policy (drives as cache slots, requests in trace order): "
        + ", ".join(f"{p} {n:,}" for p, n in study["untimed_loads"].items())
        + "."
    )
    rep.heading("Config")
    rep.code("\n".join(f"{k}: {v}" for k, v in config.items()))
    return rep.write()
