"""Reproduction of Johnson & Miller (VLDB 1998): Table 4's derived figures
and Table 5 from the catalog, seek-from-BOT curves (Figures 2-5), the
short-seek crossover (§5.4.3), robots (Table 2), the Ampex unmount choice
(§5.3), and checks that `seekplan fit` recovers known models from a
virtual drive's logs. Every catalogued drive with the figures is included
(current drives such as lto7/lto8/lto9/ts1160 appear beside the paper's)."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from seekplan import _core
from seekplan.catalog import (
    DriveEntry,
    ShortSeekRegime,
    load_catalog,
    load_robots,
    measured_drive,
)
from seekplan.drive_summary import table5
from seekplan.experiments.base import publish
from seekplan.experiments.claims import claim
from seekplan.fit import find_track_starts, fit_seeks, score_track_starts
from seekplan.fit.virtual import BlockTiming, random_layout, seek_log, write_log
from seekplan.sweep import Executor

#: [J&M Table 5] overhead s, transfer MB/s, minimum file MB, % of tape
PAPER_TABLE5 = {
    "4mm-dat": (128, 0.325, 42, 2.6),
    "ampex-dst310": (35.7, 14.2, 507, 1.2),
    "sony-dtf": (143, 12.0, 1720, 4.2),
    "dlt4000": (145, 1.27, 184, 1.0),
    "dlt7000": (121, 4.3, 520, 1.5),
    "ibm3590": (61, 8.9, 543, 5.3),
}
#: [J&M Table 4] min. seek in MB
PAPER_MIN_SEEK_MB = {
    "4mm-dat": 1.6,
    "ampex-dst310": 110,
    "sony-dtf": 100,
    "dlt4000": 43,
    "dlt7000": 150,
    "ibm3590": 100,
}
#: [J&M Table 4] max. compressed read / write MB/s
PAPER_MAX_COMPRESSED = {"sony-dtf": (19.0, 16.9), "dlt4000": (2.7, 5.2)}
#: Seek models of the paper's drives: the DLT4000 entry used by Sandstå's
#: reproduction is a key-point model; Table 3's own model is dlt4000-t3.
SEEK_MODEL = {"dlt4000": "dlt4000-t3"}
#: [J&M §5.3] Ampex fetch/return cycle: 71 s rewound, 85 s without rewind
PAPER_AMPEX_CYCLE = (71.0, 85.0)
TOLERANCE = 0.05


def _seek_drives(catalog: dict[str, DriveEntry]) -> list[str]:
    """Drives with a locate model, excluding those standing in for another."""
    stand_ins = set(SEEK_MODEL.values())
    return [n for n, e in sorted(catalog.items()) if e.model is not None and n not in stand_ins]


def _model_name(name: str) -> str:
    return SEEK_MODEL.get(name, name)


#: The short-seek experiment (§5.4.3) tries every distance up to this many
#: times the paper's crossover [choice]: Figures 10-13, which show the
#: distances J&M used, are missing from the text, and twice the crossover
#: shows both sides of it.
SWEEP_OVER_PAPER = 2


def _short_seek_start(entry: DriveEntry, capacity: int) -> int:
    """Where §5.4.3's experiment starts: "from the middle of the tape"; on a
    serpentine drive the middle of the middle track, so forward seeks stay on
    the start's track for half a track."""
    tracks = entry.params.get("tracks")
    if tracks is None:
        return capacity // 2
    return int((tracks // 2 + 0.5) * capacity / tracks)


def _short_seek(name: str, catalog: dict[str, DriveEntry]) -> dict[str, Any]:
    """§5.4.3 from mid-tape (mid-track): read K blocks, or seek past K-1 and
    read one, for every K up to SWEEP_OVER_PAPER x the paper's crossover."""
    entry = catalog[_model_name(name)]
    drive = measured_drive(_model_name(name))
    start = _short_seek_start(entry, drive.capacity)
    paper_mb = PAPER_MIN_SEEK_MB[name]
    within = int(SWEEP_OVER_PAPER * paper_mb * 1e6 / drive.block_bytes)
    found = _core.crossover(drive, start, within)
    mb = drive.block_bytes / 1e6
    # a regime that reads through up to the paper's figure puts the crossover
    # at the first block past it: agreement by construction, not evidence
    regime = getattr(entry.typed_params(), "short_seek", None)
    first_past = (
        regime.transition_bytes // drive.block_bytes + 1
        if isinstance(regime, ShortSeekRegime)
        else None
    )
    return {
        "crossover_mb": None if found is None else found[0] * mb,
        "seek_wins_to_mb": None if found is None else found[1] * mb,
        "sweep_to_mb": within * mb,
        "start_block": start,
        "by_construction": found is not None and found[0] == first_past,
    }


def _table4(catalog: dict[str, DriveEntry]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for name, entry in sorted(catalog.items()):
        m = entry.mechanics
        if m is None:
            continue
        row: dict[str, Any] = {}
        if m.seek_startup_s is not None and m.seek_full_s:
            row["startup_pct_of_full"] = 100 * m.seek_startup_s / m.seek_full_s
        if name in PAPER_MIN_SEEK_MB and catalog.get(_model_name(name)) is not None:
            row.update(_short_seek(name, catalog))
        if m.min_seek_bytes is not None:
            row["paper_min_seek_mb"] = m.min_seek_bytes / 1e6
        if m.compression is not None:
            spec = json.dumps(m.compression.model_dump())
            _, read_bps, write_bps = _core.compression_at(spec, 1e12)
            row["max_compressed_read_mb_s"] = read_bps / 1e6
            row["max_compressed_write_mb_s"] = write_bps / 1e6
        if row:
            out[name] = row
    return out


#: serpentine curves show the first tracks only, like Figures 3-5
PLOT_TRACKS = 4


def _first_tracks_end(drive: Any) -> int:
    """Last block of the first PLOT_TRACKS tracks (the whole tape for
    drives without tracks)."""
    probe = np.linspace(1, drive.capacity - 1, 4000).astype(np.int64)
    for b in probe:
        phys = drive.physical(int(b))
        if phys is not None and phys[0] >= PLOT_TRACKS:
            return int(b)
    return drive.capacity - 1


def _seek_figure(catalog: dict[str, DriveEntry], names: list[str]) -> Figure:
    cols = 3
    rows = math.ceil(len(names) / cols)
    fig = Figure(figsize=(11, 2.8 * rows))
    for i, name in enumerate(names):
        ax = fig.add_subplot(rows, cols, i + 1)
        drive = measured_drive(_model_name(name))
        blocks = np.linspace(1, _first_tracks_end(drive), 1500).astype(np.int64)
        secs = [drive.locate(0, int(b)) for b in blocks]
        ax.plot(blocks * drive.block_bytes / 1e9, secs, ".", ms=1.5)
        ax.set_title(f"{name} ({catalog[_model_name(name)].model})", fontsize=9)
        ax.set_xlabel("position (GB)", fontsize=8)
        ax.set_ylabel("seek from BOT (s)", fontsize=8)
    fig.tight_layout()
    return fig


def _seek_text(names: list[str]) -> str:
    """What the seek-from-BOT panels show: each drive's longest seek to the
    end of the plotted span, from its model."""
    longest = {}
    for name in names:
        drive = measured_drive(_model_name(name))
        longest[name] = drive.locate(0, int(_first_tracks_end(drive)))
    slow = max(longest, key=longest.__getitem__)
    fast = min(longest, key=longest.__getitem__)
    return (
        "Each panel is one drive's modelled seek time from the beginning of the tape to "
        "every position over its first tracks (the span of the paper's Figures 2-5). A "
        "helical drive's seek grows with the distance; a serpentine drive's rises and falls "
        f"with each track. The seek to the end of the span ranges from {longest[fast]:.0f} s "
        f"({fast}) to {longest[slow]:.0f} s ({slow})."
    )


def _crossover_text(table4: dict[str, dict[str, Any]]) -> str:
    """What the short-seek panels show: where reading through stops being
    cheaper than seeking, ours against the paper's minimum seek."""
    pairs = [
        f"{n} {r['crossover_mb']:,.0f} MB (paper {r['paper_min_seek_mb']:,.0f} MB)"
        for n, r in table4.items()
        if r.get("crossover_mb") is not None and r.get("paper_min_seek_mb") is not None
    ]
    return (
        "From mid-tape, the time to seek a distance against the time to read through it. "
        "Below the crossover, reading through is faster; the dashed line is the paper's "
        "minimum seek. Crossovers: " + "; ".join(pairs) + "."
    )


def _crossover_figure(names: list[str], table4: dict[str, dict[str, Any]]) -> Figure:
    cols = 3
    rows = math.ceil(len(names) / cols)
    fig = Figure(figsize=(11, 2.8 * rows))
    for i, name in enumerate(names):
        ax = fig.add_subplot(rows, cols, i + 1)
        drive = measured_drive(_model_name(name))
        row = table4[name]
        start = row["start_block"]
        span = int(row["sweep_to_mb"] * 1e6 / drive.block_bytes)
        d = np.linspace(1, span, 300).astype(np.int64)
        mb = d * drive.block_bytes / 1e6
        ax.plot(mb, [drive.locate(start, start + int(x)) for x in d], label="seek")
        ax.plot(
            mb, [drive.read(start, int(x) * drive.block_bytes) for x in d], label="read through"
        )
        ax.axvline(PAPER_MIN_SEEK_MB[name], color="grey", ls="--", lw=1, label="J&M min. seek")
        ax.set_title(name, fontsize=9)
        ax.set_xlabel("distance from mid-tape (MB)", fontsize=8)
        ax.set_ylabel("seconds", fontsize=8)
        ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def _within(ours: float, paper: float, tol: float = TOLERANCE) -> bool:
    return abs(ours - paper) <= tol * abs(paper)


def _spearman(x: list[float], y: list[float]) -> float:
    rx = np.argsort(np.argsort(x)).astype(float)
    ry = np.argsort(np.argsort(y)).astype(float)
    return float(np.corrcoef(rx, ry)[0, 1])


def _ampex_cycle(
    catalog: dict[str, DriveEntry], robots: Any, n: int, seed: int
) -> tuple[float, float]:
    """Mean fetch/mount/seek/read/unmount/return cycle of §5.3 with and
    without a rewind before unmount, from the catalog models."""
    entry = catalog["ampex-dst310"]
    m = entry.mechanics
    assert m is not None and m.robot is not None
    drive = measured_drive("ampex-dst310")
    mount = json.dumps(m.mount_spec())
    arm = robots[m.robot].spec_json()
    rng = np.random.default_rng(seed)
    cap = drive.capacity
    arms = _core.robot_draws(arm, 2 * n, seed)
    totals: dict[bool, list[float]] = {True: [], False: []}
    for rewind in (True, False):
        rest = 0.0
        for k in range(n):
            target = int(rng.integers(1, cap))
            fetch, ret = arms[k + (0 if rewind else n)]
            seek = drive.locate(int(rest * (cap - 1)), target)
            penalty = m.midtape_first_seek_s if rest > 0 else 0.0
            lpos = target / cap
            if rewind:
                unmount = drive.locate(target, 0) + m.unload_s
                rest = 0.0
            else:
                unmount, rest = _core.unmount_s(mount, lpos, 1.0)
            read = drive.read(target, drive.block_bytes)
            totals[rewind].append(fetch + m.load_s + penalty + seek + read + unmount + ret)
    return float(np.mean(totals[True])), float(np.mean(totals[False]))


def _fit_checks(quick: bool) -> dict[str, Any]:
    """Fits of virtual-drive logs against the parameters that made them."""
    truth = load_catalog()["dlt4000-t3"].typed_params().model_dump()
    drive = measured_drive("dlt4000-t3")
    n = 400 if quick else 4000
    fit = fit_seeks(*seek_log(drive, n, 0.02, 7), capacity=drive.capacity, tracks=truth["tracks"])
    errs = []
    for line, true in zip(fit.lines, truth["regions"], strict=True):
        errs.append(abs(line.startup_s / true["startup_s"] - 1))
        errs.append(abs(line.full_s / true["full_s"] - 1))
    mlr1 = load_catalog()["mlr1"].typed_params().model_dump()
    cap = mlr1["capacity_bytes"] // mlr1["block_bytes"]
    starts = random_layout(mlr1["tracks"], cap, 0.05, 11)
    timing = BlockTiming(mlr1["block_bytes"] / mlr1["read_rate_bps"], mlr1["turn_s"])
    turns = find_track_starts(*write_log(starts, cap, timing, 12))
    # the same tape as a real log comes: 0.1-0.4 s buffer-flush spikes, runs
    # of dropped rows and +-50 % drift of the block time (docs/fit.md)
    disturbed = BlockTiming(timing.block_s, timing.turn_s, spike_rate=1e-3, drift=0.5)
    noisy = find_track_starts(*write_log(starts, cap, disturbed, 13, drop_rate=1e-3))
    noisy_score = score_track_starts(noisy.track_starts, starts)
    off = (
        max(abs(a - b) for a, b in zip(turns.track_starts, starts, strict=True))
        if len(turns.track_starts) == len(starts)
        else None
    )
    return {
        "seek_fit": fit.to_dict(),
        "seek_fit_max_rel_error": max(errs),
        "seek_log_size": n,
        "write_turn_tracks_found": len(turns.track_starts),
        "write_turn_tracks_true": len(starts),
        "write_turn_max_offset_blocks": off,
        "write_turn_disturbed_score": noisy_score.to_dict(),
    }


def _claims(
    t5: dict[str, Any],
    t4: dict[str, Any],
    robots: Any,
    cycle: tuple[float, float],
    fits: dict[str, Any],
) -> list[dict[str, Any]]:
    out = []
    for key, idx, label in (
        ("overhead_s", 0, "file location overhead"),
        ("min_file_mb", 2, "minimum file size"),
    ):
        diffs = {n: t5[n][key] / PAPER_TABLE5[n][idx] - 1 for n in PAPER_TABLE5 if n in t5}
        out.append(
            claim(
                f"table5-{key}",
                f"Table 5's {label} follows from Table 4 (fetch 10 s, Ampex 2.9 s; "
                "seek = startup + half the full tape).",
                len(diffs) == len(PAPER_TABLE5)
                and all(abs(d) <= TOLERANCE for d in diffs.values()),
                ", ".join(f"{n}: {d:+.1%}" for n, d in diffs.items())
                + f"; holds if all within {TOLERANCE:.0%}",
            )
        )
    pct = {n: t5[n]["pct_of_tape"] / PAPER_TABLE5[n][3] - 1 for n in PAPER_TABLE5 if n in t5}
    out.append(
        claim(
            "table5-pct_of_tape",
            "Table 5's minimum file size as % of the tape "
            "(capacities are [choice] where J&M print none).",
            all(abs(d) <= 0.10 for d in pct.values()),
            ", ".join(f"{n}: {d:+.1%}" for n, d in pct.items()) + "; holds if all within 10 %",
        )
    )
    names = sorted(t5)
    rho = _spearman([t5[n]["rate_mb_s"] for n in names], [t5[n]["min_file_mb"] for n in names])
    out.append(
        claim(
            "fast-drives-read-more",
            "High-throughput drives need to read large amounts of data per tape to be effective.",
            rho >= 0.8,
            f"Spearman rank correlation of transfer rate and minimum file size over {len(names)} "
            f"catalogued drives ({', '.join(names)}): {rho:.2f}; holds if >= 0.8",
        )
    )
    amp = t4.get("ampex-dst310", {}).get("startup_pct_of_full", float("nan"))
    sony = t4.get("sony-dtf", {}).get("startup_pct_of_full", float("nan"))
    out.append(
        claim(
            "placement-ampex-vs-sony",
            "Ampex seek startup is ~40 % of a full-tape seek (placement unimportant); "
            "Sony DTF's only ~7 %.",
            30 <= amp <= 45 and sony <= 10,
            f"Ampex {amp:.1f} %, Sony DTF {sony:.1f} %; holds if Ampex in 30-45 % and Sony <= 10 %",
        )
    )
    ratios = {
        n: t4[n]["crossover_mb"] / PAPER_MIN_SEEK_MB[n]
        for n in PAPER_MIN_SEEK_MB
        if t4.get(n, {}).get("crossover_mb")
    }

    def note(n: str) -> str:
        row = t4[n]
        notes = [" (by construction)"] if row["by_construction"] else []
        if row["seek_wins_to_mb"] < row["sweep_to_mb"]:
            notes.append(
                f" (seek wins only to {row['seek_wins_to_mb']:.0f} of the "
                f"{row['sweep_to_mb']:.0f} MB swept)"
            )
        return "".join(notes)

    out.append(
        claim(
            "short-seek-crossover",
            "Reading through beats seeking up to Table 4's min. seek "
            "(1.6 MB 4mm ... 150 MB DLT7000), measured from mid-tape (§5.4.3).",
            len(ratios) == len(PAPER_MIN_SEEK_MB) and all(0.5 <= r <= 2 for r in ratios.values()),
            "model crossover / paper: "
            + ", ".join(f"{n}: {r:.2f}x{note(n)}" for n, r in ratios.items())
            + "; holds if every drive within a factor 2. By construction: the drive's "
            "short-seek regime reads through up to the paper's figure, and the crossover "
            "is the first block past it",
        )
    )
    rates = {}
    for n, (r, w) in PAPER_MAX_COMPRESSED.items():
        row = t4.get(n, {})
        rates[n] = (
            row.get("max_compressed_read_mb_s", 0) / r - 1,
            row.get("max_compressed_write_mb_s", 0) / w - 1,
        )
    out.append(
        claim(
            "compression-asymptote",
            "TH = 1/(a + b/C) approaches 1/a: Table 4's max. compressed rates "
            "(DTF 19.0/16.9, DLT4000 2.7/5.2 MB/s).",
            all(abs(x) <= 0.02 for pair in rates.values() for x in pair),
            ", ".join(f"{n}: read {r:+.1%}, write {w:+.1%}" for n, (r, w) in rates.items())
            + "; holds if within 2 %",
        )
    )
    cvs = {
        n: max(r["fetch_sd"] / r["fetch_mean"], r["ret_sd"] / r["ret_mean"])
        for n, r in robots.items()
    }
    out.append(
        claim(
            "robots-nearly-deterministic",
            "Robot fetch and return times are small and nearly deterministic (Table 2).",
            all(cv <= 0.2 for cv in cvs.values()),
            "largest sampled coefficient of variation: "
            + ", ".join(f"{n}: {cv:.2f}" for n, cv in cvs.items())
            + "; holds if all <= 0.2",
        )
    )
    rew, norew = cycle
    out.append(
        claim(
            "ampex-rewind-before-unmount",
            "On the Ampex, rewinding before unmount gives faster fetch/return cycles "
            "on average (71 s vs 85 s).",
            rew < norew,
            f"model: {rew:.1f} s rewound vs {norew:.1f} s unmounted mid-tape "
            f"(paper {PAPER_AMPEX_CYCLE[0]:g} vs {PAPER_AMPEX_CYCLE[1]:g} s; "
            "the paper's include host overheads)",
        )
    )
    err = fits["seek_fit_max_rel_error"]
    out.append(
        claim(
            "fit-recovers-table3",
            "`seekplan fit seeks` recovers Table 3's coefficients from a noisy (2 %) "
            "virtual DLT4000 log.",
            err <= TOLERANCE,
            f"largest relative error of the 8 coefficients over {fits['seek_log_size']} seeks: "
            f"{err:.1%}; holds if <= 5 %",
        )
    )
    off = fits["write_turn_max_offset_blocks"]
    noisy = fits["write_turn_disturbed_score"]
    out.append(
        claim(
            "write-turn-recovers-starts",
            "Write-Turn finds every track start of a virtual MLR1 tape (S&M §3), "
            "also from a log with spikes, dropped rows and drift.",
            off is not None and off <= 2 and noisy["recall"] == 1 and noisy["precision"] >= 0.97,
            f"{fits['write_turn_tracks_found']} of {fits['write_turn_tracks_true']} tracks found; "
            f"largest offset {off} blocks; disturbed log: precision {noisy['precision']:.3f}, "
            f"recall {noisy['recall']:.3f}; holds if all found within 2 blocks, and recall 1 "
            "and precision >= 0.97 on the disturbed log",
        )
    )
    return out


#: host delays (s) between one-block reads, the x axis of Figures 14-15
DELAYS_S = (0.0, 0.002, 0.006, 0.010, 0.020, 0.050, 0.100)


def _read_delays(catalog: dict[str, DriveEntry]) -> dict[str, dict[str, float]]:
    """Throughput (MB/s) of a read-one-block-then-wait loop per delay, for
    drives with a read-delay model (§5.5)."""
    out = {}
    for name, entry in sorted(catalog.items()):
        m = entry.mechanics
        if m is None or m.read_delay is None:
            continue
        spec = json.dumps(m.read_delay.model_dump())
        block = m.transfer_bytes or 32_768
        out[name] = {
            f"{d * 1000:g} ms": _core.read_delay_throughput(spec, block, m.rate_bps, d) / 1e6
            for d in DELAYS_S
        }
    return out


def _robot_rows(robots: Any, n: int) -> dict[str, dict[str, float]]:
    out = {}
    for name, r in sorted(robots.items()):
        draws = np.array(_core.robot_draws(r.spec_json(), n, 5))
        out[name] = {
            "fetch_mean": float(draws[:, 0].mean()),
            "fetch_sd": float(draws[:, 0].std()),
            "ret_mean": float(draws[:, 1].mean()),
            "ret_sd": float(draws[:, 1].std()),
            "paper_fetch": r.fetch.mean_s,
            "paper_ret": r.ret.mean_s,
        }
    return out


def run(out_dir: Path, quick: bool = False, executor: Executor | None = None) -> dict[str, Any]:
    """Runs the reproduction and writes results.json, report.html and plots
    (``executor`` is unused: every figure here is computed in well under a second)."""
    out_dir = Path(out_dir)
    catalog, robots = load_catalog(), load_robots()
    t5 = table5(catalog, robots)
    t4 = _table4(catalog)
    robot_rows = _robot_rows(robots, 300 if quick else 5000)
    cycle = _ampex_cycle(catalog, robots, 60 if quick else 2000, 3)
    fits = _fit_checks(quick)
    claims = _claims(t5, t4, robot_rows, cycle, fits)
    delays = _read_delays(catalog)
    results = {
        "table5": {
            n: {k: row[k] for k in ("overhead_s", "min_file_mb", "pct_of_tape")}
            for n, row in t5.items()
        },
        "table5_detail": t5,
        "table4": t4,
        "robots": robot_rows,
        "ampex_cycle_s": {"rewound": cycle[0], "midtape": cycle[1]},
        "read_delay_mb_s": delays,
        "fits": fits,
        "claims": claims,
    }
    _report(out_dir, results, catalog, t5, t4, robot_rows, delays)
    return results


def _report(
    out_dir: Path,
    results: dict[str, Any],
    catalog: dict[str, DriveEntry],
    t5: dict[str, Any],
    t4: dict[str, Any],
    robots: dict[str, Any],
    delays: dict[str, dict[str, float]],
) -> None:
    rep = publish(
        out_dir,
        results,
        "Johnson & Miller (VLDB 1998): tertiary storage measurements",
        f"seekplan reproduce johnson-miller --out {out_dir}",
    )
    rep.heading("Table 5: performance of file fetches (ours | paper)")
    rows = []
    for n, r in t5.items():
        p = PAPER_TABLE5.get(n)
        rows.append(
            {
                "drive": n,
                "overhead s": r["overhead_s"],
                "paper": p[0] if p else "",
                "MB/s": r["rate_mb_s"],
                "min file MB": r["min_file_mb"],
                "paper ": p[2] if p else "",
                "% of tape": r["pct_of_tape"],
                "paper  ": p[3] if p else "",
            }
        )
    rep.table(rows)
    rep.heading("Table 4: derived figures")
    rep.table(
        [
            {"drive": n, **{k: ("" if v is None else v) for k, v in r.items()}}
            for n, r in t4.items()
        ],
        [
            "drive",
            "startup_pct_of_full",
            "crossover_mb",
            "seek_wins_to_mb",
            "sweep_to_mb",
            "by_construction",
            "paper_min_seek_mb",
            "max_compressed_read_mb_s",
            "max_compressed_write_mb_s",
        ],
    )
    rep.heading("Table 2: robots (sampled | paper means)")
    rep.table([{"robot": n, **r} for n, r in robots.items()])
    rep.heading("Read throughput (MB/s) versus host delay between one-block reads (§5.5)")
    rep.table([{"drive": n, **r} for n, r in delays.items()])
    names = _seek_drives(catalog)
    rep.heading("Seek from BOT (the shapes of Figures 2-5)")
    rep.text(_seek_text(names))
    rep.figure(_seek_figure(catalog, names), "seek_from_bot", "seek time from BOT to each position")
    rep.heading("Short seeks: seek versus reading through (Figures 10-13)")
    rep.text(_crossover_text({n: t4[n] for n in PAPER_MIN_SEEK_MB}))
    rep.figure(
        _crossover_figure(list(PAPER_MIN_SEEK_MB), t4),
        "short_seek_crossover",
        "from mid-tape (serpentine: mid-track)",
    )
    rep.write()
