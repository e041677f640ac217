"""The mount replay's config. Its schema, defaults and checks live in the
Rust core (``mounts::MountConfig``; ``seekplan schema mounts`` prints them):
Python resolves catalog names (``library: sl8500x4``, ``drive: t10000d``),
passes the config to the core once as JSON, and keeps the result with
every default filled in."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seekplan import _core
from seekplan.config import CoreConfig, checked_by_core, load_config_file, settings
from seekplan.errors import SeekplanError
from seekplan.hardware import drive_figures

#: Most library modules `NAMExN` may join (the SL8500 complex: 32 libraries,
#: 2,048 drives, per Oracle's SL8500 User's Guide).
MAX_MODULES = 32


@dataclass(frozen=True)
class MountConfig(CoreConfig):
    """One mount replay: the config with every default filled in by the core."""

    #: Where the config came from (its file), named by errors.
    origin: str = "config"

    @property
    def drives(self) -> int:
        """Drives in the library."""
        return int(self.data["drives"])

    @property
    def eviction(self) -> str:
        """The eviction policy's name."""
        return str(self.data["eviction"])

    def with_changes(self, **changes: Any) -> MountConfig:
        """The same config with top-level fields replaced, checked again."""
        data = checked_by_core(_core.mounts_config, {**self.data, **changes}, self.origin)
        return MountConfig(data, self.origin)


def library_model(name: object, field: str, origin: str) -> dict[str, Any]:
    """The core's ``library`` for catalogued library ``name``: its geometry
    where the catalog has one (``NAMExN``: N such libraries in a row joined
    by pass-through ports), else its arms and mean move times."""
    from seekplan.catalog import load_robots

    robots = load_robots()
    text = name if isinstance(name, str) else ""
    modules = 1
    match = re.fullmatch(r"(.+?)x(\d+)", text)
    if text not in robots and match and match.group(1) in robots:
        text, modules = match.group(1), int(match.group(2))
    robot = robots.get(text)
    if robot is None:
        known = ", ".join(sorted(robots))
        raise SeekplanError(f"{origin}: {field}: unknown library {name!r}; catalogued: {known}")
    if robot.geometry is None:
        if modules != 1:
            raise SeekplanError(
                f"{origin}: {field}: {text} has no geometry in the catalog, so it cannot be "
                f"joined x{modules}"
            )
        return {
            "kind": "constant",
            "arms": robot.arms or 1,
            "fetch_s": robot.fetch.mean_s,
            "return_s": robot.ret.mean_s,
        }
    if not 1 <= modules <= MAX_MODULES:
        raise SeekplanError(
            f"{origin}: {field}: {name!r} joins {modules} libraries; 1 to {MAX_MODULES}"
        )
    return {"kind": "geometry", **robot.geometry, "modules": modules}


def parse_config(data: Any, origin: str = "config") -> MountConfig:
    """A config checked by the core; errors name the field and the value.
    ``library: NAME`` and ``drive: NAME`` are read from the catalog; a
    figure the config sets itself wins over the drive's."""
    data = dict(settings(data, origin))
    library = data.get("library")
    if isinstance(library, str):
        data["library"] = library_model(library, "library", origin)
    drive = data.pop("drive", None)
    if drive is not None:
        figures = drive_figures(drive, "drive", origin)
        data = {"load_s": figures["load_s"], "unload_s": figures["unload_s"], **data}
    return MountConfig(checked_by_core(_core.mounts_config, data, origin), origin)


def load_config(path: str | Path) -> MountConfig:
    """Reads and checks a YAML config; errors name the file, the line and the field."""
    return load_config_file(path, parse_config)
