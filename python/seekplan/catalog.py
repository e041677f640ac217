"""The device catalog: drive figures as data, each with its source.

The shipped catalog is ``seekplan/data/devices.toml``; a user adds or
overrides drives with their own TOML file (``--devices FILE`` or the
``SEEKPLAN_DEVICES`` environment variable), in the same format.
"""

from __future__ import annotations

import json
import os
import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from seekplan import _core
from seekplan.errors import SeekplanError


class SerpentineParams(BaseModel):
    """Figures of the key-point serpentine model (Sandstå & Midtstraum §3)."""

    model_config = ConfigDict(extra="forbid")
    tracks: int = Field(gt=0)
    keypoints_per_track: int = Field(gt=0)
    capacity_bytes: int = Field(gt=0)
    block_bytes: int = Field(gt=0)
    read_rate_bps: float = Field(gt=0)
    traverse_s: float = Field(gt=0)
    keypoint_read_factor: float = Field(gt=0, le=1)
    reverse_s: float = Field(ge=0)
    track_change_s: float = Field(ge=0)
    locate_overhead_s: float = Field(ge=0)
    turn_s: float = Field(ge=0)


class DriveEntry(BaseModel):
    """One catalogued drive: what it is and the figures of its cost model."""

    model_config = ConfigDict(extra="forbid")
    title: str
    model: Literal["serpentine"]
    params: SerpentineParams


def _validation_message(where: str, err: ValidationError) -> str:
    first = err.errors()[0]
    field = ".".join(str(p) for p in first["loc"])
    return f"{where}: field {field!r}: {first['msg']}"


def _parse(text: str, origin: str) -> dict[str, DriveEntry]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SeekplanError(f"{origin}: not valid TOML: {e}") from e
    drives = doc.get("drives")
    if not isinstance(drives, dict):
        raise SeekplanError(f"{origin}: no [drives.NAME] tables")
    out: dict[str, DriveEntry] = {}
    for name, raw in drives.items():
        try:
            out[name] = DriveEntry.model_validate(raw)
        except ValidationError as e:
            raise SeekplanError(_validation_message(f"{origin}: drive {name!r}", e)) from e
    return out


@cache
def _shipped() -> dict[str, DriveEntry]:
    text = resources.files("seekplan").joinpath("data/devices.toml").read_text()
    return _parse(text, "devices.toml")


def load_catalog(extra: str | Path | None = None) -> dict[str, DriveEntry]:
    """Every drive: the shipped catalog, overridden by ``extra`` or $SEEKPLAN_DEVICES."""
    drives = dict(_shipped())
    path = extra or os.environ.get("SEEKPLAN_DEVICES")
    if path:
        p = Path(path)
        if not p.is_file():
            raise SeekplanError(f"device file {p} does not exist")
        drives.update(_parse(p.read_text(), str(p)))
    return drives


def drive_entry(name: str, devices: str | Path | None = None) -> DriveEntry:
    """The catalog entry of drive ``name``; a clear error lists the known names."""
    drives = load_catalog(devices)
    if name not in drives:
        raise SeekplanError(f"unknown drive {name!r}; known drives: {', '.join(sorted(drives))}")
    return drives[name]


def make_drive(
    name: str,
    track_starts: list[int] | None = None,
    capacity: int | None = None,
    devices: str | Path | None = None,
) -> Any:
    """A cost model for drive ``name`` with a nominal or a given tape layout."""
    entry = drive_entry(name, devices)
    spec = json.dumps(entry.params.model_dump())
    try:
        return _core.Drive.serpentine(spec, track_starts, capacity)
    except ValueError as e:
        raise SeekplanError(f"drive {name!r}: {e}") from e
