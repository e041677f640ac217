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
import re
import tomllib
from collections.abc import Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from seekplan import _core
from seekplan.errors import ArgumentError, SeekplanError, quote, require_bool, require_path
from seekplan.io import MAX_INT, read_text

#: The largest count the core's model parameters hold (u32); byte figures
#: are bounded by MAX_INT. Past them the core refused the spec without the
#: field's name ("expected u32 at line 1 column 56").
U32_MAX = 2**32 - 1

#: Longest device file read: tomllib is pure Python (slow and large on tens
#: of MB); the shipped catalog is about 30 kB.
MAX_DEVICE_CHARS = 1 << 20

#: Every catalog table: unknown keys are typos, and TOML's inf and nan are no
#: drive figure (inf passed gt=0 and reached the core as JSON it cannot read,
#: refused there without the field's name).
STRICT = ConfigDict(extra="forbid", allow_inf_nan=False)


class SerpentineParams(BaseModel):
    """Figures of the key-point serpentine model (Sandstå & Midtstraum §3)."""

    model_config = STRICT
    tracks: int = Field(gt=0, le=U32_MAX)
    keypoints_per_track: int = Field(gt=0, le=U32_MAX)
    capacity_bytes: int = Field(gt=0, le=MAX_INT)
    block_bytes: int = Field(gt=0, le=MAX_INT)
    read_rate_bps: float = Field(gt=0)
    traverse_s: float = Field(gt=0)
    keypoint_read_factor: float = Field(gt=0, le=1)
    reverse_s: float = Field(ge=0)
    track_change_s: float = Field(ge=0)
    locate_overhead_s: float = Field(ge=0)
    turn_s: float = Field(ge=0)


class Line(BaseModel):
    """A seek line: ``startup_s + full_s * distance`` (distance in tape or
    track lengths)."""

    model_config = STRICT
    startup_s: float = Field(ge=0)
    full_s: float = Field(ge=0)


class HelicalParams(BaseModel):
    """Figures of a helical-scan drive (Johnson & Miller §5.4, Table 4)."""

    model_config = STRICT
    capacity_bytes: int = Field(gt=0, le=MAX_INT)
    block_bytes: int = Field(gt=0, le=MAX_INT)
    rate_bps: float = Field(gt=0)
    seek: Line
    short_seek: Line | None = None
    rewind: Line


class ShortSeekRegime(BaseModel):
    """Forward seeks within a track (J&M §5.4.3): reading up to
    ``transition_bytes``, then ``speedup`` times the read rate."""

    model_config = STRICT
    speedup: float = Field(ge=1)
    transition_bytes: int = Field(ge=0, le=MAX_INT)


class FourRegionParams(BaseModel):
    """Figures of a serpentine drive in Table 3's four-region form."""

    model_config = STRICT
    tracks: int = Field(gt=0, le=U32_MAX)
    capacity_bytes: int = Field(gt=0, le=MAX_INT)
    block_bytes: int = Field(gt=0, le=MAX_INT)
    rate_bps: float = Field(gt=0)
    regions: list[Line] = Field(min_length=4, max_length=4)
    rewind: Line
    short_seek: ShortSeekRegime | None = None


class LtoParams(BaseModel):
    """Figures of the LTO wrap/LPOS model (docs/lto.md)."""

    model_config = STRICT
    wraps: int = Field(gt=0, le=U32_MAX)
    bands: int = Field(gt=0, le=U32_MAX)
    lpos_min: int = Field(ge=0, le=U32_MAX)
    lpos_max: int = Field(gt=0, le=U32_MAX)
    lpos_m: float = Field(gt=0)
    capacity_bytes: int = Field(gt=0, le=MAX_INT)
    block_bytes: int = Field(gt=0, le=MAX_INT)
    rate_bps: float = Field(gt=0)
    locate_mps: float = Field(gt=0)
    accel_mps2: float = Field(gt=0)
    reversal_s: float = Field(ge=0)
    wrap_change_s: float = Field(ge=0)
    band_change_s: float = Field(ge=0)
    overhead_s: float = Field(ge=0)
    turn_s: float = Field(ge=0)


#: model name -> schema of its params; the core builds the drive from the
#: same name (``model::ModelSpec``), so a model is one row here and one there
MODELS: dict[str, type[BaseModel]] = {
    "serpentine": SerpentineParams,
    "helical": HelicalParams,
    "four_region": FourRegionParams,
    "lto": LtoParams,
}


class Unmount(BaseModel):
    """What the drive does before unloading a tape left mid-tape (J&M §5.3)."""

    model_config = STRICT
    kind: Literal["rewind", "landing_zones", "nearer_of_bot_or_eod"] = "rewind"
    spacing: float | None = Field(default=None, gt=0, le=1)

    @model_validator(mode="after")
    def _spacing(self) -> Unmount:
        if (self.kind == "landing_zones") != (self.spacing is not None):
            raise ValueError("'spacing' is required for landing_zones and only for it")
        return self


class ReadDelay(BaseModel):
    """Tolerance to host delays and the restart penalty (J&M §5.5)."""

    model_config = STRICT
    tolerance_s: float = Field(ge=0)
    cache_bytes: int = Field(default=0, ge=0)
    disengage_after_s: float | None = Field(default=None, ge=0)
    startup_penalty_s: float = Field(default=0.0, ge=0)


class Throughput(BaseModel):
    """``TH = 1/(a + b/C)`` MB/s, C the gzip ratio (J&M §5.6)."""

    model_config = STRICT
    a: float = Field(gt=0)
    b: float = Field(ge=0)


class Compression(BaseModel):
    """Drive compression ratio linear in the gzip ratio, and throughput lines."""

    model_config = STRICT
    ratio_intercept: float
    ratio_slope: float
    read: Throughput
    write: Throughput


class Mechanics(BaseModel):
    """Figures every drive has, whatever its locate model: what a library
    simulator and the Johnson-Miller tables need (seconds, bytes)."""

    model_config = STRICT
    capacity_bytes: int = Field(gt=0)
    rate_bps: float = Field(gt=0)
    load_s: float = Field(ge=0)
    unload_s: float = Field(ge=0)
    rewind_s: float = Field(ge=0)
    avg_locate_s: float | None = Field(default=None, ge=0)
    seek_startup_s: float | None = Field(default=None, ge=0)
    seek_full_s: float | None = Field(default=None, ge=0)
    min_seek_bytes: int | None = Field(default=None, gt=0)
    transfer_bytes: int | None = Field(default=None, gt=0)
    robot: str | None = None
    midtape_first_seek_s: float = Field(default=0.0, ge=0)
    unmount: Unmount = Unmount()
    read_delay: ReadDelay | None = None
    compression: Compression | None = None

    def mean_locate_s(self) -> float | None:
        """Seconds to seek to a random position from BOT: Table 4's startup
        plus half the full-tape seek (J&M §5.7), else ``avg_locate_s``."""
        if self.seek_startup_s is not None and self.seek_full_s is not None:
            return self.seek_startup_s + self.seek_full_s / 2
        return self.avg_locate_s

    def mount_spec(self) -> dict[str, Any]:
        """The core MountSpec of these figures (winds use the rewind line:
        startup = seek startup, full = rewind_s minus it)."""
        startup = min(self.seek_startup_s or 0.0, self.rewind_s)
        policy: dict[str, Any] = {"kind": self.unmount.kind}
        if self.unmount.spacing is not None:
            policy["spacing"] = self.unmount.spacing
        return {
            "load_s": self.load_s,
            "unload_s": self.unload_s,
            "wind_startup_s": startup,
            "wind_full_s": self.rewind_s - startup,
            "policy": policy,
            "midtape_first_seek_s": self.midtape_first_seek_s,
        }


class Spread(BaseModel):
    """Mean and standard deviation of a robot motion, seconds."""

    model_config = STRICT
    mean_s: float = Field(ge=0)
    sd_s: float = Field(ge=0)


class RobotEntry(BaseModel):
    """One catalogued robot or library: fetch and return times (J&M Table
    2 for the 1998 robots), and for today's libraries their arms, slots and
    drive bays where published."""

    model_config = STRICT
    title: str
    fetch: Spread
    ret: Spread
    #: Where the figures come from, in a line (each figure's own source is
    #: the comment beside it in the data file); `seekplan drives` lists it.
    source: str | None = None
    arms: int | None = Field(None, ge=1)
    slots: int | None = Field(None, ge=1)
    max_drives: int | None = Field(None, ge=1)
    #: Rails, handbots, elevators, ports and distances (the core's
    #: `mounts::Geometry`, checked there) where published; the mount replay
    #: times moves from it.
    geometry: dict[str, Any] | None = None

    def spec_json(self) -> str:
        """The core RobotSpec of this robot."""
        return json.dumps(self.model_dump(include={"fetch", "ret"}))


class DriveEntry(BaseModel):
    """One catalogued drive: what it is and the figures of its cost model."""

    model_config = STRICT
    title: str
    model: str | None = None
    params: dict[str, Any] = Field(default_factory=dict)
    mechanics: Mechanics | None = None

    @model_validator(mode="after")
    def _known_model(self) -> DriveEntry:
        if self.model is None:
            if self.mechanics is None:
                raise ValueError("a drive needs a 'model' with 'params', or 'mechanics', or both")
            return self
        if self.model not in MODELS:
            raise ValueError(f"unknown model {self.model!r}; known: {', '.join(sorted(MODELS))}")
        MODELS[self.model].model_validate(self.params)
        return self

    def typed_params(self) -> BaseModel:
        """The params validated by the drive's model schema."""
        if self.model is None:
            raise SeekplanError(f"drive {self.title!r} has mechanics only, no locate model")
        return MODELS[self.model].model_validate(self.params)


#: A TOML table header, ``[drives.lto9.params]`` (arrays of tables,
#: ``[[...]]``, are not used in device files).
_TABLE = re.compile(r"^\s*\[\s*([^\[\]]+?)\s*\]\s*(?:#.*)?$")


def _toml_line(text: str, table: tuple[str, ...], key: str) -> int | None:
    """The 1-based line where ``key`` is set in the TOML ``table`` or one of
    its sub-tables (``[drives.x]`` and ``[drives.x.params]``), else the line
    of the table's header (a key it lacks); None without that header.
    tomllib keeps no lines, so the text is scanned: enough for the tables
    and ``key = value`` lines device files are made of."""
    setting = re.compile(rf"""^\s*["']?{re.escape(key)}["']?\s*[.=]""")
    header = None
    inside = False
    for number, line in enumerate(text.splitlines(), start=1):
        m = _TABLE.match(line)
        if m:
            parts = tuple(p.strip().strip("\"'") for p in m.group(1).split("."))
            inside = parts[: len(table)] == table
            if parts == table:
                header = number
        elif inside and setting.match(line):
            return number
    return header


def _validation_message(where: str, err: ValidationError) -> tuple[str, str]:
    """The first problem's field (its first key) and the message naming it."""
    first = err.errors()[0]
    field = ".".join(str(p) for p in first["loc"])
    return str(first["loc"][0]) if first["loc"] else "", f"{where}: field {field!r}: {first['msg']}"


def _entries(
    doc: dict[str, Any], key: str, schema: type[Any], origin: str, text: str
) -> dict[str, Any]:
    tables = doc.get(key, {})
    if not isinstance(tables, dict):
        raise SeekplanError(f"{origin}: '{key}' must hold [{key}.NAME] tables")
    out: dict[str, Any] = {}
    for name, raw in tables.items():
        try:
            out[name] = schema.model_validate(raw)
        except ValidationError as e:
            field, message = _validation_message(f"{key.rstrip('s')} {name!r}", e)
            line = _toml_line(text, (key, str(name)), field)
            where = origin if line is None else f"{origin} line {line}"
            raise SeekplanError(f"{where}: {message}") from e
    return out


def _parse_all(text: str, origin: str) -> tuple[dict[str, DriveEntry], dict[str, RobotEntry]]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SeekplanError(f"{origin}: not valid TOML: {e}") from e
    if "drives" not in doc and "robots" not in doc:
        raise SeekplanError(f"{origin}: no [drives.NAME] or [robots.NAME] tables")
    return (
        _entries(doc, "drives", DriveEntry, origin, text),
        _entries(doc, "robots", RobotEntry, origin, text),
    )


def _parse(text: str, origin: str) -> dict[str, DriveEntry]:
    return _parse_all(text, origin)[0]


@cache
def _shipped() -> tuple[dict[str, DriveEntry], dict[str, RobotEntry]]:
    drives: dict[str, DriveEntry] = {}
    robots: dict[str, RobotEntry] = {}
    data = resources.files("seekplan").joinpath("data")
    for f in sorted(data.iterdir(), key=lambda f: f.name):
        if f.name.endswith(".toml"):
            d, r = _parse_all(f.read_text(), f.name)
            drives.update(d)
            robots.update(r)
    return drives, robots


def _load(
    extra: str | Path | None,
) -> tuple[dict[str, DriveEntry], dict[str, RobotEntry]]:
    shipped_drives, shipped_robots = _shipped()
    drives, robots = dict(shipped_drives), dict(shipped_robots)
    path = extra or os.environ.get("SEEKPLAN_DEVICES")
    if path:
        p = require_path(path, "devices")
        if not p.is_file():
            what = "is not a regular file" if p.exists() else "does not exist"
            raise SeekplanError(f"device file {p} {what}")
        d, r = _parse_all(read_text(p, "device file", MAX_DEVICE_CHARS), str(p))
        drives.update(d)
        robots.update(r)
    return drives, robots


def load_catalog(extra: str | Path | None = None) -> dict[str, DriveEntry]:
    """Every drive: the shipped catalog, overridden by ``extra`` or $SEEKPLAN_DEVICES."""
    return _load(extra)[0]


def load_robots(extra: str | Path | None = None) -> dict[str, RobotEntry]:
    """Every robot (Table 2 and the user's), from the same files as the drives."""
    return _load(extra)[1]


def drive_entry(name: str, devices: str | Path | None = None) -> DriveEntry:
    """The catalog entry of drive ``name``; a clear error lists the known names."""
    drives = load_catalog(devices)
    if name not in drives:
        raise SeekplanError(f"unknown drive {name!r}; known drives: {', '.join(sorted(drives))}")
    return drives[name]


#: Who times a locate: the drive's own model (reading through a short gap
#: where that is quicker than seeking past it), its seeks alone (host
#: software that never reads through, as a seek measurement times them), or
#: CERN CTA's published cost heuristic on the same LTO tape (so a CTA site
#: compares on CTA's terms).
COSTS = ("drive", "seek", "cta")


def _check_layout(track_starts: Any, capacity: Any) -> None:
    """make_drive's layout arguments as the core takes them, or a
    SeekplanError naming the argument (not an OverflowError from the
    binding's conversion)."""

    def whole(v: Any) -> bool:
        return isinstance(v, int) and not isinstance(v, bool)

    if track_starts is not None:
        if isinstance(track_starts, str | bytes) or not isinstance(track_starts, Sequence):
            raise SeekplanError(
                f"track_starts: expected a list of block numbers, got {type(track_starts).__name__}"
            )
        for i, block in enumerate(track_starts):
            if not whole(block) or not 0 <= block <= MAX_INT:
                raise SeekplanError(
                    f"track_starts[{i}]: {quote(block)} is not a block number between 0 and "
                    f"{MAX_INT}"
                )
    if capacity is not None and (not whole(capacity) or not 1 <= capacity <= MAX_INT):
        raise SeekplanError(
            f"capacity: {quote(capacity)} is not a number of blocks between 1 and {MAX_INT}"
        )


def make_drive(
    name: str,
    track_starts: list[int] | None = None,
    capacity: int | None = None,
    devices: str | Path | None = None,
    cost: str = "drive",
    read_through: bool = True,
) -> Any:
    """A cost model for drive ``name`` with a nominal or a given tape layout;
    ``cost="cta"`` times its locates by CTA's heuristic (LTO drives only);
    ``cost="seek"`` or ``read_through=False`` gives the drive as a seek
    measurement sees it."""
    if not isinstance(name, str):
        raise ArgumentError(f"drive: expected a drive's name, got {quote(name)}")
    require_bool(read_through, "read_through")
    entry = drive_entry(name, devices)
    _check_layout(track_starts, capacity)
    if entry.model is None:
        raise SeekplanError(
            f"drive {name!r} has mechanics only (load, unload, rate), no locate model; "
            "add a 'model' and 'params' to order requests on it"
        )
    if cost not in COSTS:
        raise SeekplanError(f"unknown cost {cost!r}; choose one of {', '.join(COSTS)}")
    if cost == "cta" and entry.model != "lto":
        raise SeekplanError(
            f"--cost cta needs an LTO drive (e.g. --drive lto9); {name!r} uses the "
            f"{entry.model} model"
        )
    try:
        if cost == "cta":
            return _core.cta_drive(json.dumps(entry.typed_params().model_dump()), track_starts)
        # An LTO tape's layout is its end-of-wrap list (passed where a
        # serpentine tape passes its track starts); its last entry fixes the capacity.
        spec = json.dumps({"model": entry.model, "params": entry.typed_params().model_dump()})
        return _core.Drive.catalog(spec, track_starts, capacity, read_through and cost != "seek")
    except ValueError as e:
        raise SeekplanError(f"drive {name!r}: {e}") from e


def measured_drive(name: str, devices: str | Path | None = None) -> Any:
    """Drive ``name`` as a seek measurement sees it: locates always seek
    (no reading through short distances); other models as :func:`make_drive`."""
    return make_drive(name, devices=devices, read_through=False)
