"""The archive simulation config. Its schema, defaults (the Blue Waters
platform of the paper's sections 3.1 and 6.1) and checks live in the Rust
core (``archive::ArchiveConfig``; ``seekplan schema archive`` prints them):
Python reads the YAML, passes it to the core once as JSON, and keeps the
result with every default filled in."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seekplan import _core
from seekplan.config import CoreConfig, checked_by_core, load_config_file, settings
from seekplan.hardware import drive_figures, robot_figures


@dataclass(frozen=True)
class ArchiveConfig(CoreConfig):
    """One archive simulation: the config with every default filled in by the core."""

    #: Where the config came from (its file), named by errors found in a run.
    origin: str = "config"

    @property
    def policy(self) -> str:
        """rait, parallel, vertical or hetero."""
        return str(self.data["policy"])


def parse_config(data: Any, origin: str = "config") -> ArchiveConfig:
    """A config checked by the core; errors name the field and the value."""
    data = _named_hardware(settings(data, origin), origin)
    return ArchiveConfig(checked_by_core(_core.archive_config, data, origin), origin)


def _named_hardware(data: dict[str, Any], origin: str) -> dict[str, Any]:
    """`platform.drive: NAME` and `platform.library: NAME` (catalogued in
    `seekplan drives`) become the drive's capacity, rate, load, unload and
    locate figures and the library's arms and mean move time. A figure the
    config sets itself wins over the catalog's."""
    platform = data.get("platform")
    if not isinstance(platform, dict):
        return data
    figures: dict[str, Any] = {}
    drive = platform.get("drive")
    if drive is not None:
        d = drive_figures(drive, "platform.drive", origin)
        locate = d["mean_locate_s"]
        figures |= {
            "tape_capacity_bytes": d["capacity_bytes"],
            "drive_rate_bps": d["rate_bps"],
            "load_s": d["load_s"],
            "unload_s": d["unload_s"],
            # An average locate winds half the tape; the model takes the full wind.
            **({"full_locate_s": 2 * locate} if locate is not None else {}),
        }
    library = platform.get("library")
    if library is not None:
        robot = robot_figures(library, "platform.library", origin)
        figures |= {
            "robot_arms": robot["arms"],
            # One robot_s per move, mount or dismount: the mean of fetch and return.
            "robot_s": (robot["fetch_s"] + robot["return_s"]) / 2,
        }
    rest = {k: v for k, v in platform.items() if k not in ("drive", "library")}
    return {**data, "platform": {**figures, **rest}}


def load_config(path: str | Path) -> ArchiveConfig:
    """Reads and checks a YAML config; errors name the file, the line and the field."""
    return load_config_file(path, parse_config)
