"""The status page at ``/``: plain server-rendered HTML (no script), refreshed
by the browser every few seconds."""

from __future__ import annotations

import time
from html import escape
from typing import Any

from seekplan.serve.db import STATES
from seekplan.text import duration

REFRESH_S = 5

STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; margin-bottom: 0.2em; }
h2 { font-size: 1.1em; margin-top: 1.4em; border-bottom: 1px solid #ccc; }
table { border-collapse: collapse; margin: 0.4em 0; }
td, th { border: 1px solid #ccc; padding: 0.2em 0.6em; text-align: left; font-size: 0.9em; }
th { background: #eef; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.ok { color: #070; font-weight: bold; } .bad { color: #b00; font-weight: bold; }
.states span { display: inline-block; margin-right: 1.2em; font-size: 1.05em; }
.plan { color: #555; font-size: 0.85em; }
"""


def _size(n: float) -> str:
    for unit in ("B", "kB", "MB", "GB", "TB", "PB"):
        if abs(n) < 1000 or unit == "PB":
            return f"{n:,.0f} {unit}" if unit == "B" else f"{n:,.1f} {unit}"
        n /= 1000
    return f"{n:.1f}"


def _when(t: float | None) -> str:
    if t is None:
        return ""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t))


def idle_text(w: dict[str, int]) -> str:
    """The status page's warning from :func:`~seekplan.serve.queue_views.idle_warning`'s counts."""
    return (
        f"Warning: {w['idle']} of {w['drives']} drives idle while {w['tapes']:,} tapes no "
        f"drive holds have files waiting ({w['in_requester']:,} in the requester, "
        f"{w['in_queue']:,} in the tape-system queue)"
    )


def render_page(snap: dict[str, Any], sitename: str) -> str:
    """The HTML of the status page from :meth:`Service.snapshot`."""
    e = escape
    out = [
        "<!doctype html><html><head><meta charset='utf-8'>",
        f"<meta http-equiv='refresh' content='{REFRESH_S}'>",
        f"<title>seekplan serve: {e(sitename)}</title><style>{STYLE}</style></head><body>",
        f"<h1>seekplan staging service: {e(sitename)}</h1>",
        f"<p id='models'>{e(snap['models'])}</p>" if snap.get("models") else "",
        f"<p>backend <b>{e(snap['backend'])}</b>, drives "
        + ("<span class='bad'>down</span>" if snap["paused"] else "<span class='ok'>up</span>")
        + f"; simulated clock {duration(snap['virtual_s'])} at {snap['time_scale']:g}x"
        + f"; database <span class='{'ok' if snap['db_ok'] else 'bad'}'>"
        + f"{'ok' if snap['db_ok'] else 'failing'}</span> ({snap['db_ms']:.1f} ms, "
        + f"{e(snap['url'])})</p>",
        "<h2>Files by state</h2><p class='states'>",
    ]
    for state in STATES:
        out.append(f"<span>{state}: <b id='n-{state.lower()}'>{snap['totals'][state]:,}</b></span>")
    out.append(
        f"</p><p>{snap['waiting']:,} files waiting, {snap['in_system']:,} of them passed on "
        f"to the tape system; {snap['poll_rate']:.1f} polls/s (last 10 s); "
        f"{snap['throttled']:,} requests refused with 429.</p>"
    )
    if snap["recovering"]:
        error = f" (retrying: {e(snap['recover_error'])})" if snap["recover_error"] else ""
        out.append(
            f"<p class='bad' id='recovering'>Resuming after a start: {snap['recovered']:,} "
            f"open files queued again so far{error}.</p>"
        )
    if snap["lost"]:
        out.append(f"<p class='bad' id='lost'>Not acknowledging: {e(snap['lost'])}</p>")
    if snap["stuck"]:
        out.append(
            "<h2 class='bad'>Reads that look stuck</h2><table id='stuck'><tr><th>drive</th>"
            "<th>file</th><th>running</th><th>estimate</th></tr>"
        )
        for r in snap["stuck"]:
            out.append(
                f"<tr><td>{r['drive']}</td><td>{e(r['path'])}</td>"
                f"<td class='num'>{duration(r['running_s'])}</td>"
                f"<td class='num'>{duration(r['estimate_s'])}</td></tr>"
            )
        out.append("</table>")
    idle = snap["idle_warning"]
    if idle is not None:
        out.append(f"<p class='bad' id='idle-warning'>{e(idle_text(idle))}</p>")
    out.append(
        "<h2>Drives</h2><table><tr><th>drive</th><th>tape</th><th>activity</th>"
        "<th>file</th><th>MB/s</th></tr>"
    )
    for d in snap["drives"]:
        out.append(
            f"<tr><td>{d['drive']}</td><td>{e(d['tape'] or '-')}</td><td>{e(_activity(d))}</td>"
            f"<td>{e(d['file'] or '')}</td><td class='num'>{d['rate_mb_s']:.0f}</td></tr>"
        )
    out.append(
        "</table><h2>Tape queues</h2><table id='queues'><tr><th>tape</th><th>drive</th>"
        "<th>queued</th><th>planned</th><th>bytes</th><th>estimated read time</th>"
        "<th>planned order (next files: path @ block)</th></tr>"
    )
    if not snap["tapes"]:
        out.append("<tr><td colspan='7'>no files queued</td></tr>")
    for t in snap["tapes"]:
        plan = "<br>".join(f"{e(p)} @ {b:,}" for p, b, _ in t["next"])
        drive = "-" if t["drive"] is None else str(t["drive"])
        est = duration(t["estimate_s"]) if t["next"] else ""
        out.append(
            f"<tr><td>{e(t['tape'])}</td><td>{drive}</td><td class='num'>{t['queued']:,}</td>"
            f"<td class='num'>{t['planned']:,}</td><td class='num'>{_size(t['bytes'])}</td>"
            f"<td class='num'>{est}</td><td class='plan'>{plan}</td></tr>"
        )
    out.append(
        f"</table><h2>Failed files</h2><p>{snap['retrying']:,} failed reads waiting to be "
        "tried again (<code>retry:</code>).</p><table id='failed'><tr><th>file</th>"
        "<th>tape</th><th>error</th><th>at</th></tr>"
    )
    if not snap["failed"]:
        out.append("<tr><td colspan='4'>none</td></tr>")
    for f in snap["failed"]:
        out.append(
            f"<tr><td>{e(f.path)}</td><td>{e(f.tape)}</td><td>{e(f.error)}</td>"
            f"<td>{_when(f.at)}</td></tr>"
        )
    out.append(
        "</table><h2>Recent requests</h2><table><tr><th>request</th><th>client</th>"
        "<th>created</th><th>files</th>"
        + "".join(f"<th>{s.lower()}</th>" for s in STATES)
        + "<th>completed at</th></tr>"
    )
    for s in snap["recent"]:
        out.append(
            f"<tr><td>{e(s.id)}</td><td>{e(s.client)}</td><td>{_when(s.created_at)}</td>"
            f"<td class='num'>{s.n_files:,}</td>"
            + "".join(f"<td class='num'>{s.counts[st]:,}</td>" for st in STATES)
            + f"<td>{_when(s.completed_at)}</td></tr>"
        )
    out.append(
        "</table><p><a href='/metrics'>Prometheus metrics</a> · "
        "<a href='/openapi.yaml'>OpenAPI</a> · "
        "<a href='/.well-known/wlcg-tape-rest-api'>discovery</a></p></body></html>"
    )
    return "".join(out)


def _activity(drive: dict[str, Any]) -> str:
    """A drive's activity, with how long its mount or unmount has run of
    the most it may take."""
    if drive["robot_s"] is None:
        return str(drive["activity"])
    return (
        f"{drive['activity']} for {duration(drive['robot_s'])} "
        f"(given up at {duration(drive['robot_deadline_s'])})"
    )
