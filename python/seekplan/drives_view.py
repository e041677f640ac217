"""What `seekplan drives` prints: a compact table of every drive and robot
that fits 80 columns, and one drive or robot in a readable layout with the
source of each figure, as the data files cite it.

A figure's source is the comment beside it in ``data/*.toml`` (or the
user's ``--devices`` file); its tag decides whether it is published
(``[S&M §2]``, ``[LTO]``...) or not (``[est]``, ``[choice]``, ``[cal]``:
an estimate, our choice, or solved to reproduce a published average),
which the table marks."""

from __future__ import annotations

import os
import re
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from seekplan.catalog import DriveEntry, RobotEntry, load_catalog, load_robots

#: Tags of figures that are not a published value.
UNPUBLISHED = ("est", "choice", "cal")
#: The mark beside such a figure in the table.
MARK = "~"

_SECTION = re.compile(r"^\s*\[([^\]]+)\]\s*(#.*)?$")
# key = value   # comment  (a '#' inside a value needs no space before it)
_FIGURE = re.compile(r"^\s*([A-Za-z0-9_]+)\s*=\s*(.*?)\s+#\s*(.*)$")


def figure_notes(text: str) -> dict[str, dict[str, str]]:
    """Per table (``drives.lto9.params``), each field's comment."""
    notes: dict[str, dict[str, str]] = {}
    section = ""
    for line in text.splitlines():
        if m := _SECTION.match(line):
            section = m.group(1).strip()
        elif (m := _FIGURE.match(line)) and section:
            notes.setdefault(section, {})[m.group(1)] = m.group(3).strip()
    return notes


@cache
def _shipped_notes() -> dict[str, dict[str, str]]:
    notes: dict[str, dict[str, str]] = {}
    data = resources.files("seekplan").joinpath("data")
    for f in sorted(data.iterdir(), key=lambda f: f.name):
        if f.name.endswith(".toml"):
            notes.update(figure_notes(f.read_text()))
    return notes


def notes_for(devices: str | Path | None) -> dict[str, dict[str, str]]:
    """The shipped files' notes, with those of the user's device file on top."""
    notes = dict(_shipped_notes())
    path = devices or os.environ.get("SEEKPLAN_DEVICES")
    if path and Path(path).is_file():
        notes.update(figure_notes(Path(path).read_text(errors="replace")))
    return notes


def unpublished(note: str | None) -> bool:
    """Whether a figure's note says it is not a published value."""
    tag = re.match(r"\[([^\]]+)\]", note or "")
    return tag is not None and tag.group(1).strip().lower() in UNPUBLISHED


def _mark(value: str, note: str | None) -> str:
    return f"{value}{MARK}" if unpublished(note) else value


def drives_table(devices: str | Path | None, notes: dict[str, dict[str, str]]) -> Table:
    """Every drive in one line: capacity, rate, load and mean locate."""
    table = Table(
        "drive", "model", "GB", "MB/s", "load s", "locate s", box=box.SIMPLE_HEAD, pad_edge=False
    )
    table.columns[0].no_wrap = True
    for col in table.columns[2:]:
        col.justify = "right"
    for key, entry in sorted(load_catalog(devices).items()):
        m = entry.mechanics
        mech = notes.get(f"drives.{key}.mechanics", {})
        if m is None:
            table.add_row(key, entry.model or "-", "-", "-", "-", "-")
            continue
        locate = m.mean_locate_s()
        locate_note = (
            mech.get("seek_full_s") if m.seek_full_s is not None else mech.get("avg_locate_s")
        )
        table.add_row(
            key,
            entry.model or "-",
            _mark(f"{m.capacity_bytes / 1e9:,.0f}", mech.get("capacity_bytes")),
            _mark(f"{m.rate_bps / 1e6:,.3g}", mech.get("rate_bps")),
            _mark(f"{m.load_s:g}", mech.get("load_s")),
            _mark(f"{locate:.1f}", locate_note) if locate else "-",
        )
    return table


def robots_table(devices: str | Path | None, notes: dict[str, dict[str, str]]) -> Table:
    """Every robot or library in one line: arms, slots, drive bays, move times."""
    table = Table(
        "robot",
        "arms",
        "slots",
        "drives",
        "fetch s",
        "return s",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
    )
    table.columns[0].no_wrap = True
    for col in table.columns[1:]:
        col.justify = "right"
    for key, r in sorted(load_robots(devices).items()):
        n = notes.get(f"robots.{key}", {})
        table.add_row(
            key,
            *(
                _mark(f"{v:,}", n.get(f)) if v else "-"
                for f, v in (("arms", r.arms), ("slots", r.slots), ("max_drives", r.max_drives))
            ),
            _mark(f"{r.fetch.mean_s:g}", n.get("fetch")),
            _mark(f"{r.ret.mean_s:g}", n.get("ret")),
        )
    return table


def print_catalog(console: Console, devices: str | Path | None) -> None:
    """The two tables and what their mark means."""
    notes = notes_for(devices)
    console.print(drives_table(devices, notes))
    console.print(robots_table(devices, notes))
    console.print(
        f"{MARK} not a published figure: estimated, our choice, or solved to reproduce a "
        "published average. `seekplan drives NAME` shows each figure with its source."
    )


def _shown(value: Any) -> str:
    """A figure for people: thousands separators, no trailing ``.0``."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and value >= 1e4):
        return f"{value:,.0f}"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_shown(v)}" for k, v in value.items())
    if isinstance(value, list):
        return ", ".join(_shown(v) for v in value)
    return str(value)


def _lines(fields: dict[str, Any], notes: dict[str, str]) -> Table:
    table = Table(box=None, show_header=False, pad_edge=False)
    table.add_column(no_wrap=True, style="bold")
    table.add_column(no_wrap=True)
    table.add_column(overflow="fold")
    for field, value in fields.items():
        if value is None:
            continue
        note = notes.get(field, "")
        table.add_row(field, escape(_mark(_shown(value), note)), escape(note))
    return table


def print_entry(console: Console, name: str, devices: str | Path | None) -> None:
    """One drive (or robot) with each figure and its source."""
    notes = notes_for(devices)
    drives = load_catalog(devices)
    if name in drives:
        entry: DriveEntry = drives[name]
        console.print(f"[bold]{name}[/bold]: {escape(entry.title)}")
        if entry.model is None:
            console.print(
                "locate model: none (mechanics only: library simulations use it; "
                "`seekplan order` needs a drive with a model)"
            )
        else:
            console.print(f"locate model: {entry.model}")
            console.print(_lines(entry.params, notes.get(f"drives.{name}.params", {})))
        if entry.mechanics is not None:
            console.print("mechanics:")
            fields = entry.mechanics.model_dump(exclude_defaults=True)
            console.print(_lines(fields, notes.get(f"drives.{name}.mechanics", {})))
        return
    robots = load_robots(devices)
    if name in robots:
        robot: RobotEntry = robots[name]
        console.print(f"[bold]{name}[/bold]: {escape(robot.title)}")
        if robot.source:
            console.print(f"source: {escape(robot.source)}")
        fields = robot.model_dump(exclude={"title", "source", "geometry"})
        console.print(_lines(fields, notes.get(f"robots.{name}", {})))
        if robot.geometry is not None:
            console.print("geometry (simulate mounts times each move from it):")
            console.print(_lines(robot.geometry, notes.get(f"robots.{name}.geometry", {})))
        return
    from seekplan.errors import SeekplanError

    raise SeekplanError(
        f"unknown drive or robot {name!r}; known: {', '.join(sorted(drives) + sorted(robots))}"
    )
