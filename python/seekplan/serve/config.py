"""`seekplan serve --config stage.yaml`: everything the command-line options do
not set. Checked like every other config: unknown or bad fields are one error
naming the file, the line, the field and the value. The ``library`` and ``policy``
sections are the recall simulator's (``seekplan schema recall``): the core
checks them and fills in its defaults (the dCache paper's T10000D library).
"""

from __future__ import annotations

import ipaddress
import json
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from seekplan import _core
from seekplan.config import lines_of, load_yaml, require_finite, settings, validate
from seekplan.errors import SeekplanError, quote
from seekplan.hardware import named_recall_robot
from seekplan.ordering import ALGORITHMS
from seekplan.serve.faults import FaultPlan, ReadDeadline, RetryPolicy

LOOPBACK = "127.0.0.1"
#: by-tapes' `tapes` value that adapts the number of tapes to the drives.
AUTO = "auto"
#: The core's strategy for `tapes: auto`: by-tapes starting at 1 tape; the
#: scheduler sets the number from the drives before it takes a file.
BY_TAPES_AUTO = {"name": "by-tapes", "tapes": 1}


class Limits(BaseModel):
    """Caps on what one client may ask for; past them the answer is 429 with
    Retry-After."""

    model_config = ConfigDict(extra="forbid")

    #: Files in one stage request.
    max_files_per_request: int = Field(default=200_000, ge=1)
    #: Requests of one client not yet completed (nor deleted). WLCG's agreed
    #: tape-challenge load is 5,000 requests of 200 files per VO (each VO one
    #: FTS client); twice that leaves room for a second FTS instance.
    max_active_requests_per_client: int = Field(default=10_000, ge=1)
    #: Seconds a refused client is told to wait.
    retry_after_s: int = Field(default=60, ge=1)
    #: Bytes of one request body; larger bodies get 413 before they are read
    #: whole (the default holds max_files_per_request paths of ~300 bytes).
    max_body_bytes: int = Field(default=64 * 1024 * 1024, ge=1024)


class StageConfig(BaseModel):
    """The service's settings; every field has a default except the catalog."""

    # Infinity passes gt=0 but is no time scale or capacity: it stopped the
    # clock's worker thread with the service still listening.
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    #: The endpoint's identifier in discovery (`sitename`).
    sitename: str = "seekplan-tape"
    #: Human-readable description in discovery.
    description: str = "seekplan tape-aware staging service"
    #: Catalog CSV (path,tape,block,size); or `ltfs_root` for LTFS volumes.
    catalog: str | None = None
    #: A directory of mounted LTFS volumes (one per tape) to catalog and read.
    ltfs_root: str | None = None
    #: SQLite file or postgresql:// URL.
    db: str = "seekplan-stage.db"
    #: fsync every SQLite commit (survives power loss, not only a crash).
    full_sync: bool = False
    #: Address to listen on: loopback unless told otherwise.
    host: str = LOOPBACK
    #: TCP port.
    port: int = Field(default=8080, ge=0, le=65535)
    #: Where staged files go (the simulated backend keeps its read log there).
    buffer: str | None = None
    #: A name of `seekplan.serve.backend.BACKENDS`: simulated (default:
    #: drives and robot of `library`) or ltfs.
    backend: str = "simulated"
    #: Simulated time runs this many times faster than real time; at most a
    #: million (a year of library time in 32 s): at 1e308 the clock reached
    #: infinity within a second and every drive worker died on it.
    time_scale: float = Field(default=1.0, gt=0, le=1e6)
    #: Catalogued drive whose locate model orders reads and times locates.
    drive: str = "lto9"
    #: Capacity of a tape in GB (1e9 bytes): what the session-fraction read
    #: model and the recall strategies count a tape's share by. Default: the
    #: catalogued drive's. Set it when the library's cartridges are not the
    #: ordering drive's (KIT's T10000D tapes hold 8,500 GB). At most 1e9 GB
    #: (an exabyte), so its bytes stay a 64-bit integer.
    tape_capacity_gb: float | None = Field(default=None, gt=0, le=1e9)
    #: Ordering algorithm for the reads on a mounted tape.
    order: str = "best"
    #: Which tape's files go to the drives next: `fifo` (arrival order, as
    #: dCache's bulk service) or a recall strategy of `seekplan schema recall`
    #: (e.g. {name: by-tapes, tapes: 2}). The default, by-tapes with `tapes:
    #: auto`, keeps each tape's files together but passes on as many tapes at
    #: a time as there are drives to read them (the drives less those still
    #: reading a tape passed on whole): a fixed 2 kept 2-4 of 12 drives
    #: reading on 50 tapes of 2,000 files, because the tape-system queue held
    #: files of 2 tapes only. A fixed number is the recall simulator's
    #: strategy, unchanged.
    policy: str | dict[str, Any] = Field(
        default_factory=lambda: {"name": "by-tapes", "tapes": AUTO}
    )
    #: The recall simulator's library section (drives, rates, robot, queue,
    #: read model); `robot` is its figures or a catalogued library's name
    #: (`seekplan drives`), e.g. {robot: ts4500}.
    library: dict[str, Any] = Field(default_factory=dict)
    #: Tapes out of service: their files' locality is UNAVAILABLE and stage
    #: requests for them fail at once.
    unavailable_tapes: list[str] = Field(default_factory=list)
    #: Bearer tokens file (`client token` per line); none: no authentication.
    tokens: str | None = None
    #: Caps per request and per client.
    limits: Limits = Field(default_factory=Limits)
    #: Retries per kind of failure (read, drive, mount, robot, timeout, other).
    retry: RetryPolicy = Field(default_factory=RetryPolicy)
    #: How long a read may run before it is given up (and when it looks stuck).
    read_deadline: ReadDeadline = Field(default_factory=ReadDeadline)
    #: Seconds (of the backend's clock) a failed drive stays out of service
    #: before it is tried again: an hour, the order of a site's call-out
    #: time; a hung drive comes back as soon as its call returns.
    drive_repair_s: float = Field(default=3600.0, gt=0, le=86_400 * 365)
    #: Seconds (of the backend's clock) a mount or unmount may take before
    #: it is given up: the drive goes out of service until the call returns,
    #: and a mount counts as a failed mount of its tape. Three hours: an
    #: LTO-9 cartridge's first load optimizes the media for 40 minutes on
    #: average and up to 2 hours (IBM TS4300 manual, "media optimization").
    mount_deadline_s: float = Field(default=10_800.0, gt=0, le=86_400 * 7)
    #: Pin lifetime of a staged copy whose request gives no diskLifetime
    #: (ISO 8601 duration). A day: long enough for FTS to transfer the file
    #: out of a busy queue, short enough that a client that never releases
    #: does not fill the buffer.
    default_disk_lifetime: str = "P1D"
    #: The longest diskLifetime granted; longer asks are cut to it.
    max_disk_lifetime: str = "P30D"
    #: Faults the simulated backend injects (tests, rehearsals); none by default.
    inject: FaultPlan | None = None

    #: PEM certificate (chain) to serve HTTPS with; needs `tls_key`.
    tls_cert: str | None = None
    #: PEM private key of `tls_cert` (unencrypted: the service starts unattended).
    tls_key: str | None = None
    #: One line per request (time, client, method, path, status, duration):
    #: true (stderr), false (none) or a file to append to.
    access_log: bool | str = True
    #: Addresses (or networks, or "*") whose X-Forwarded-For and
    #: X-Forwarded-Proto are believed: a TLS-terminating proxy's.
    forwarded_allow_ips: list[str] = Field(default_factory=lambda: [LOOPBACK])

    @field_validator("default_disk_lifetime", "max_disk_lifetime")
    @classmethod
    def _duration(cls, v: str) -> str:
        duration_s(v)
        return v

    @field_validator("forwarded_allow_ips", mode="before")
    @classmethod
    def _split_ips(cls, v: Any) -> Any:
        return [part.strip() for part in v.split(",")] if isinstance(v, str) else v

    @field_validator("forwarded_allow_ips")
    @classmethod
    def _known_ips(cls, v: list[str]) -> list[str]:
        for item in v:
            if item != "*":
                try:
                    ipaddress.ip_network(item, strict=False)
                except ValueError:
                    raise ValueError(
                        f"{item!r} is neither an IP address, a network nor '*'"
                    ) from None
        return v

    @field_validator("access_log")
    @classmethod
    def _log_path(cls, v: bool | str) -> bool | str:
        if isinstance(v, str) and not v.strip():
            raise ValueError("give true, false or a file to append to")
        return v

    @field_validator("order")
    @classmethod
    def _known_order(cls, v: str) -> str:
        if v not in ALGORITHMS:
            raise ValueError(f"unknown ordering algorithm; choose one of {', '.join(ALGORITHMS)}")
        return v

    def strategy(self) -> dict[str, Any]:
        """The recall strategy behind ``policy`` (`fifo` is by-dataset: requests
        passed on in arrival order); by-tapes' `tapes: auto` is
        :data:`BY_TAPES_AUTO`."""
        if self.policy == "fifo":
            return {"name": "by-dataset"}
        if self.auto_tapes():
            return {**(self.policy if isinstance(self.policy, dict) else {}), **BY_TAPES_AUTO}
        if isinstance(self.policy, str):
            return {"name": self.policy}
        if self.policy.get("name") == "by-tapes" and isinstance(self.policy.get("tapes"), str):
            raise SeekplanError(
                f"policy.tapes: {self.policy['tapes']!r}: give a number of tapes or {AUTO}"
            )
        return dict(self.policy)

    def auto_tapes(self) -> bool:
        """Whether the policy is by-tapes with `tapes: auto` (or by-tapes
        named alone): the scheduler adapts the number of tapes passed on to
        the drives."""
        if isinstance(self.policy, str):
            return self.policy == "by-tapes"
        return self.policy.get("name") == "by-tapes" and self.policy.get("tapes") == AUTO

    def recall(self) -> dict[str, Any]:
        """The recall config (library and strategy) as the core checked and
        completed it; `library.robot` may name a catalogued library, read as
        a recall config reads it."""
        data = named_recall_robot({"library": self.library}, "config")
        data["strategy"] = self.strategy()
        _check_integers(data["strategy"])
        require_finite(data)
        try:
            return json.loads(_core.recall_config(json.dumps(data)))
        except ValueError as e:
            raise SeekplanError(str(e).replace("strategy.", "policy.")) from None


def duration_s(text: str) -> float:
    """Seconds of an ISO 8601 duration (``PT1H``, ``P7D``, ``P1DT12H``);
    ValueError for anything else or a negative one."""
    from datetime import timedelta

    from pydantic import TypeAdapter, ValidationError

    if not isinstance(text, str) or not text.startswith("P"):
        raise ValueError(f"{text!r} is not an ISO 8601 duration (e.g. PT1H, P7D)")
    try:
        seconds = TypeAdapter(timedelta).validate_python(text).total_seconds()
    except ValidationError:
        raise ValueError(f"{text!r} is not an ISO 8601 duration (e.g. PT1H, P7D)") from None
    if seconds < 0:
        raise ValueError(f"{text!r} is negative")
    return seconds


#: Largest value of the core's unsigned integers (usize on 64-bit).
_MAX_UINT = 2**64 - 1


@cache
def _integer_knobs() -> dict[str, dict[str, int]]:
    """Each recall strategy's integer fields and their minimum, from the
    core's schema."""
    schema = json.loads(_core.schema("recall"))
    knobs: dict[str, dict[str, int]] = {}
    for variant in schema["$defs"]["Strategy"]["oneOf"]:
        props = variant.get("properties", {})
        knobs[str(props.get("name", {}).get("const"))] = {
            field: int(prop.get("minimum", 0))
            for field, prop in props.items()
            if "integer" in (t if isinstance(t := prop.get("type"), list) else [t])
        }
    return knobs


def _check_integers(strategy: dict[str, Any]) -> None:
    """The strategy's integer fields are whole numbers in range: the core
    refuses a negative or fractional one without naming the field (serde
    reads a tagged enum from a buffer, which loses the field's path), so
    they are named here."""
    name = strategy.get("name")
    knobs = _integer_knobs().get(name, {}) if isinstance(name, str) else {}
    for field, minimum in knobs.items():
        value = strategy.get(field)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, int):
            raise SeekplanError(f"policy.{field}: {quote(value)} is not a whole number")
        if not minimum <= value <= _MAX_UINT:
            raise SeekplanError(f"policy.{field}: {value} is out of range {minimum}..{_MAX_UINT}")


#: Most drives the service runs: it gives each drive a worker thread. An IBM
#: TS4500 has up to 18 frames with at most 16 drives each (IBM's TS4500
#: documentation, "TS4500 tape library frames" and "Components"), so this
#: leaves room for several large libraries behind one service.
MAX_DRIVES = 1024


def stage_config(data: Any, origin: str = "config") -> StageConfig:
    """A checked config; the library and policy sections are checked by the core."""
    cfg = validate(StageConfig, data, origin)
    try:
        drives = cfg.recall()["library"]["drives"]
    except SeekplanError as e:
        raise SeekplanError(f"{origin}: {e}") from None
    if drives > MAX_DRIVES:
        raise SeekplanError(
            f"{origin}: library.drives: {drives} drives; the service runs at most "
            f"{MAX_DRIVES} (a worker thread each)"
        )
    return cfg


def load_stage_config(path: str | Path | None, overrides: dict[str, Any]) -> StageConfig:
    """The config file (relative paths resolved against it) with the
    command-line ``overrides`` (None values are not given) applied on top;
    an error about a setting from the file names its line."""
    if path is None:
        return _stage_config(None, overrides)
    given = {key for key, value in overrides.items() if value is not None}
    if "drives" in given:
        # --drives sets library.drives: an error under `library` may be its.
        given.add("library")
    with lines_of(Path(path), skip=given):
        return _stage_config(path, overrides)


def _stage_config(path: str | Path | None, overrides: dict[str, Any]) -> StageConfig:
    """:func:`load_stage_config` without the lines."""
    data: dict[str, Any] = {}
    origin = "command line"
    if path is not None:
        p = Path(path)
        data = dict(settings(load_yaml(p), str(p)))
        for key in ("catalog", "ltfs_root", "buffer", "tokens", "db", "tls_cert", "tls_key",
                    "access_log"):  # fmt: skip
            value = data.get(key)
            if (
                isinstance(value, str)
                and value.strip()
                and "://" not in value
                and not Path(value).is_absolute()
            ):
                data[key] = str(p.parent / value)
        origin = str(p)
    for key, value in overrides.items():
        if value is not None and key != "drives":
            data[key] = value
    if overrides.get("drives") is not None:
        library = data.get("library")
        data["library"] = {
            **(library if isinstance(library, dict) else {}),
            "drives": overrides["drives"],
        }
    cfg = stage_config(data, origin)
    if cfg.catalog is None and cfg.ltfs_root is None:
        raise SeekplanError(f"{origin}: catalog: give a catalog CSV (--catalog) or ltfs_root")
    if cfg.catalog is not None and cfg.ltfs_root is not None:
        raise SeekplanError(
            f"{origin}: catalog and ltfs_root: give one (ltfs_root catalogs its volumes itself)"
        )
    if (cfg.tls_cert is None) != (cfg.tls_key is None):
        given, missing = ("tls_cert", "tls_key") if cfg.tls_key is None else ("tls_key", "tls_cert")
        raise SeekplanError(
            f"{origin}: {missing}: {given} is given without it; give both or neither"
        )
    from seekplan.serve.backend import BACKENDS

    kind = BACKENDS.get(cfg.backend)
    if kind is None:
        raise SeekplanError(
            f"{origin}: backend: unknown backend {cfg.backend!r}; choose one of "
            f"{', '.join(BACKENDS)}"
        )
    if kind.needs is not None and getattr(cfg, kind.needs) is None:
        raise SeekplanError(f"{origin}: backend: {cfg.backend!r} needs {kind.needs}")
    if cfg.inject is not None and not kind.simulated_clock:
        raise SeekplanError(
            f"{origin}: inject: faults are injected by the simulated backend, not {cfg.backend!r}"
        )
    return cfg
