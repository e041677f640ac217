"""The device catalog: drive figures as data, each with its source.

The shipped catalog is every ``seekplan/data/*.toml`` file (read in name
order); a user adds or overrides drives with their own TOML file
(``--devices FILE`` or the ``SEEKPLAN_DEVICES`` environment variable), in the
same format. A drive names its cost model (``model``); the figures in its
``params`` table are validated by that model's schema in ``MODELS``.
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Callable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

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


def _serpentine(params: BaseModel, track_starts: list[int] | None, capacity: int | None) -> Any:
    spec = json.dumps(params.model_dump())
    return _core.Drive.serpentine(spec, track_starts, capacity)


#: model name -> (schema of its params, constructor of its core Drive)
MODELS: dict[str, tuple[type[BaseModel], Callable[..., Any]]] = {
    "serpentine": (SerpentineParams, _serpentine),
}


class Mechanics(BaseModel):
    """Figures every drive has, whatever its locate model: what a library
    simulator and the Johnson-Miller tables need (seconds, bytes)."""

    model_config = ConfigDict(extra="forbid")
    capacity_bytes: int = Field(gt=0)
    rate_bps: float = Field(gt=0)
    load_s: float = Field(ge=0)
    unload_s: float = Field(ge=0)
    rewind_s: float = Field(ge=0)
    avg_locate_s: float | None = Field(default=None, ge=0)


class DriveEntry(BaseModel):
    """One catalogued drive: what it is and the figures of its cost model."""

    model_config = ConfigDict(extra="forbid")
    title: str
    model: str
    params: dict[str, Any]
    mechanics: Mechanics | None = None

    @model_validator(mode="after")
    def _known_model(self) -> DriveEntry:
        if self.model not in MODELS:
            raise ValueError(f"unknown model {self.model!r}; known: {', '.join(sorted(MODELS))}")
        MODELS[self.model][0].model_validate(self.params)
        return self

    def typed_params(self) -> BaseModel:
        """The params validated by the drive's model schema."""
        return MODELS[self.model][0].model_validate(self.params)


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
    drives: dict[str, DriveEntry] = {}
    data = resources.files("seekplan").joinpath("data")
    for f in sorted(data.iterdir(), key=lambda f: f.name):
        if f.name.endswith(".toml"):
            drives.update(_parse(f.read_text(), f.name))
    return drives


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
    try:
        return MODELS[entry.model][1](entry.typed_params(), track_starts, capacity)
    except ValueError as e:
        raise SeekplanError(f"drive {name!r}: {e}") from e
