"""`seekplan serve --config stage.yaml`: everything the command-line options do
not set. Checked like every other config: unknown or bad fields are one error
naming the file, the field and the value. The ``library`` and ``policy``
sections are the recall simulator's (``seekplan schema recall``): the core
checks them and fills in its defaults (the dCache paper's T10000D library).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from seekplan import _core
from seekplan.config import load_yaml, require_finite, validate
from seekplan.errors import SeekplanError
from seekplan.hardware import named_recall_robot
from seekplan.ordering import ALGORITHMS

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
    #: Requests of one client not yet completed (nor deleted).
    max_active_requests_per_client: int = Field(default=1_000, ge=1)
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
        require_finite(data)
        try:
            return json.loads(_core.recall_config(json.dumps(data)))
        except ValueError as e:
            raise SeekplanError(str(e).replace("strategy.", "policy.")) from None


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
    command-line ``overrides`` (None values are not given) applied on top."""
    data: dict[str, Any] = {}
    origin = "command line"
    if path is not None:
        p = Path(path)
        raw = load_yaml(p)
        if raw is not None and not isinstance(raw, dict):
            raise SeekplanError(f"{p}: expected a mapping of settings, got {type(raw).__name__}")
        data = dict(raw or {})
        for key in ("catalog", "ltfs_root", "buffer", "tokens", "db"):
            value = data.get(key)
            if isinstance(value, str) and "://" not in value and not Path(value).is_absolute():
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
    from seekplan.serve.backend import BACKENDS

    kind = BACKENDS.get(cfg.backend)
    if kind is None:
        raise SeekplanError(
            f"{origin}: backend: unknown backend {cfg.backend!r}; choose one of "
            f"{', '.join(BACKENDS)}"
        )
    if kind.needs is not None and getattr(cfg, kind.needs) is None:
        raise SeekplanError(f"{origin}: backend: {cfg.backend!r} needs {kind.needs}")
    return cfg
