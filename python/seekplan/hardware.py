"""A library's hardware, on the Python side: the one place where a config's
catalogued names (a drive, a library's robot) become figures, and the core's
resolved description (``library::Hardware``: drives, drive timing, robot)
that the staging service's simulated backend runs on.

The recall config (``library.robot: NAME``), the archive config
(``platform.drive``/``platform.library: NAME``) and the staging service's
library section all resolve names here; the core then fills in defaults and
checks every figure."""

from __future__ import annotations

import json
from typing import Any, TypedDict

from seekplan import _core
from seekplan.errors import SeekplanError


class DriveTiming(TypedDict):
    """What each step of a drive costs (seconds; rate in bytes per second)."""

    rate_bps: float
    load_s: float
    thread_s: float
    unload_s: float
    rewind_s: float


class RobotTiming(TypedDict):
    """The robot: identical arms and the seconds of a fetch and a return."""

    arms: int
    fetch_s: float
    return_s: float


class Hardware(TypedDict):
    """Drives and robot of a library, as the core describes them."""

    drives: int
    drive: DriveTiming
    robot: RobotTiming


def drive_figures(name: object, field: str, origin: str) -> dict[str, Any]:
    """The figures of the catalogued drive ``name`` (one with mechanics):
    capacity, rate, load, unload, rewind and, where known, the mean locate;
    errors name ``field``."""
    from seekplan.catalog import load_catalog

    drives = load_catalog()
    entry = drives.get(name) if isinstance(name, str) else None
    if entry is None or entry.mechanics is None:
        known = sorted(n for n, e in drives.items() if e.mechanics is not None)
        raise SeekplanError(
            f"{origin}: {field}: unknown drive {name!r}; catalogued with "
            f"mechanics: {', '.join(known)}"
        )
    m = entry.mechanics
    return {
        "capacity_bytes": m.capacity_bytes,
        "rate_bps": m.rate_bps,
        "load_s": m.load_s,
        "unload_s": m.unload_s,
        "rewind_s": m.rewind_s,
        "mean_locate_s": m.mean_locate_s(),
    }


def robot_figures(name: object, field: str, origin: str) -> RobotTiming:
    """The robot of the catalogued library ``name``: its arms (1 when
    unpublished) and mean fetch and return times; errors name ``field``."""
    from seekplan.catalog import load_robots

    robots = load_robots()
    robot = robots.get(name) if isinstance(name, str) else None
    if robot is None:
        raise SeekplanError(
            f"{origin}: {field}: unknown library {name!r}; catalogued: {', '.join(sorted(robots))}"
        )
    return {"arms": robot.arms or 1, "fetch_s": robot.fetch.mean_s, "return_s": robot.ret.mean_s}


def named_recall_robot(data: dict[str, Any], origin: str) -> dict[str, Any]:
    """A recall config (or a service's recall section) whose
    ``library.robot: NAME`` became that library's robot figures."""
    library = data.get("library")
    if not isinstance(library, dict) or not isinstance(library.get("robot"), str):
        return data
    robot = robot_figures(library["robot"], "library.robot", origin)
    return {**data, "library": {**library, "robot": dict(robot)}}


def recall_hardware(recall: dict[str, Any]) -> Hardware:
    """The hardware of a recall config (names resolved), as the core
    describes it: the figures the recall simulator itself runs on."""
    hardware: Hardware = json.loads(_core.recall_hardware(json.dumps(recall)))
    return hardware
