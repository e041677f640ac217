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
    if len(runs) > 1:
        top.legend(fontsize=7, ncol=3)
        bottom.legend(fontsize=7, ncol=3)
        for ax, key in ((top, "throughput_mb_s"), (bottom, "busy_drives")):
            if len({tuple(r["series"][key]) for r in runs.values()}) == 1:
                # One line hides the others: say so rather than leave a reader
                # looking for the missing series.
                ax.text(0.01, 0.04, "the same for every run: the lines lie on each other",
                        transform=ax.transAxes, fontsize=8)  # fmt: skip
    else:
        top.set_title(next(iter(runs)), fontsize=9)
    return fig


def idle_drives_text(config: dict[str, Any], result: dict[str, Any]) -> str:
    """Why fewer drives read than the library has, when they do: a drive
    reads only a tape whose files the requester has passed on to the tape
    system, so the strategy's tapes in flight and the queue bound them."""
    drives = int(config["library"]["drives"])
    busy = result["series"]["busy_drives"]
    mean = sum(busy) / len(busy) if busy else 0.0
    text = f"On average {mean:.1f} of {drives} drives were busy (peak {max(busy, default=0)})."
    if mean >= drives / 2:
        return text
    strategy = config["strategy"]
    knob = next((k for k in ("tapes", "max_active_tapes") if k in strategy), None)
    cap = f" (strategy.{knob} = {strategy[knob]} here)" if knob else ""
    return text + (
        " A drive reads only a tape whose files the requester has passed on to the tape "
        f"system: the tapes the {strategy['name']} strategy keeps in flight{cap} and the "
        f"tape system's queue (library.queue_size = {config['library']['queue_size']:,}) "
        "bound how many drives have work. Raise them, or compare strategies with "
        "--trace, to keep more drives reading."
    )


def write_run(out_dir: Path, config: dict[str, Any], result: dict[str, Any]) -> Path:
    """Writes DIR/results.json (config, metrics, series) and DIR/report.html."""
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json(out_dir / "results.json", {"config": config, **result})
    rep = Report("Tape recall simulation", out_dir)
    rep.heading("Metrics")
    rep.table([{"metric": label, "value": result["metrics"][k]} for k, label in METRICS.items()])
    m = result["metrics"]
    last = m["last_staged_s"]
    rep.text(
        f"{m['files_staged']:,} of {m['files_requested']:,} files staged in "
        f"{m['duration_s'] / 3600:.1f} virtual hours"
        + (f", the last at {last / 3600:.1f} h" if last is not None else "")
        + f"; {result['events']:,} events."
    )
    rep.heading("Throughput and busy drives over time")
    rep.text(idle_drives_text(config, result))
    rep.figure(
        series_figure({config["strategy"]["name"]: result}),
        "series",
        f"sampled every {config.get('sample_s', 600):g} s of virtual time",
    )
    rep.heading("Config")
    rep.code("\n".join(f"{k}: {v}" for k, v in config.items()))
    return rep.write()


def staging_figure(runs: dict[str, dict[str, Any]]) -> Figure:
    """Staging-time quantiles (median, 90th, 99th percentile) per run."""
    fig = Figure(figsize=(8, 3.5))
    ax = fig.subplots()
    names = list(runs)
    for i, (key, label) in enumerate(
        (("staging_p50_min", "median"), ("staging_p90_min", "p90"), ("staging_p99_min", "p99"))
    ):
        values = [runs[n]["metrics"][key] or 0.0 for n in names]
        ax.bar([x + (i - 1) * 0.27 for x in range(len(names))], values, 0.25, label=label)
    ax.set_xticks(range(len(names)), names, fontsize=8)
    ax.set_ylabel("staging time (min)")
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7)
    return fig


def strategies_compared(runs: dict[str, dict[str, Any]]) -> str:
    """What the comparison shows, from its numbers: the strategy with the
    shortest median staging time against the longest, with their mounts;
    the strategies that staged nothing are named."""
    staged = {n: r["metrics"] for n, r in runs.items() if r["metrics"]["files_staged"] > 0}
    idle = [n for n in runs if n not in staged]
    parts = []
    if staged:
        by_median = sorted(staged, key=lambda n: staged[n]["staging_p50_min"])
        first, last = by_median[0], by_median[-1]

        def said(n: str) -> str:
            m = staged[n]
            return f"median {m['staging_p50_min']:,.1f} min, {m['mounts']:,} mounts"

        if said(first) == said(last):
            parts.append(f"{', '.join(by_median)}: the same staging ({said(first)}).")
        else:
            parts.append(
                f"{first} staged files soonest ({said(first)}); {last} latest ({said(last)})."
            )
    if idle:
        parts.append(f"Nothing staged with: {', '.join(idle)}.")
    return " ".join(parts)


def why_nothing_staged(strategy: dict[str, Any]) -> str:
    """Why a trace replay staged nothing: dCache's rules hold every tape
    until one of their thresholds is reached."""
    if strategy.get("name") != "dcache":
        return ""
    count = strategy.get("min_request_count")
    return (
        f" (dCache's rules pass a tape on only once a request on it is "
        f"{strategy['max_time_in_queue_s'] / 3600:g} h old, its requests reach "
        f"{strategy['min_tape_recall_pct']:g} % of its capacity or {strategy['min_used_pct']:g} % "
        "of its used space"
        + (f", or it has {count:,} requests" if count is not None else "")
        + "; none was reached: lower them under strategy: or run longer with duration_h)"
    )


def write_trace_runs(
    out_dir: Path, config: dict[str, Any], trace: dict[str, Any], runs: dict[str, dict[str, Any]]
) -> Path:
    """Writes DIR/results.json (config, trace summary, one result per
    strategy) and DIR/report.html for a replayed trace."""
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json(out_dir / "results.json", {"config": config, "trace": trace, "strategies": runs})
    rep = Report("Tape recall: a trace replayed through every strategy", out_dir)
    rep.text(
        f"{trace['requests']:,} requests for {trace['tapes']:,} tapes from {trace['path']}, "
        f"arriving over {trace['span_h']:.1f} h, replayed for "
        f"{config['duration_h']:g} virtual hours through each requester strategy."
    )
    rows = []
    for name, r in runs.items():
        m = r["metrics"]
        last = m["last_staged_s"]
        rows.append(
            {
                "strategy": name,
                "throughput (MB/s)": m["throughput_mb_s"],
                "mounts (distinct)": f"{m['mounts']} ({m['distinct_mounts']})",
                "files staged": m["files_staged"],
                "last staged (h)": None if last is None else last / 3600,
                "staging mean (min)": m["staging_min"],
                "median": m["staging_p50_min"],
                "p90": m["staging_p90_min"],
                "p99": m["staging_p99_min"],
            }
        )
    rep.table(rows)
    rep.text(strategies_compared(runs))
    rep.figure(staging_figure(runs), "staging", "staging-time quantiles per strategy")
    rep.heading("Throughput and busy drives over time")
    rep.figure(
        series_figure(runs),
        "series",
        f"sampled every {config.get('sample_s', 600):g} s of virtual time",
    )
    rep.heading("Config")
    rep.code("\n".join(f"{k}: {v}" for k, v in config.items() if k != "strategy"))
    return rep.write()
