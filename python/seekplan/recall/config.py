"""The recall simulation config: pydantic models with the dCache paper's
T10000D library as defaults, read from YAML with errors naming the field."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from seekplan.config import load_yaml, validate


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class RobotConfig(_Strict):
    """Robot arms moving cartridges between slots and drives."""

    arms: int = Field(1, ge=1)
    # The paper gives no robot figures: its mount cost is the drive's load
    # time alone, so arm moves cost nothing by default.
    fetch_s: float = Field(0.0, ge=0)
    return_s: float = Field(0.0, ge=0)


class LibraryConfig(_Strict):
    """Drives and tape-system queue; defaults are KIT's 12 T10000D drives."""

    drives: int = Field(12, ge=1)  # KIT, Morschel et al. §4.2
    rate_mb_s: float = Field(252.0, gt=0)  # T10000D nominal, uncompressed (§4.2, [17])
    load_s: float = Field(13.0, ge=0)  # T10000D tape load time (§4.2)
    # The 13 s load is "load and thread to ready" on the T10000D data sheet.
    thread_s: float = Field(0.0, ge=0)
    unload_s: float = Field(23.0, ge=0)  # T10000D unload (§4.2)
    rewind_s: float = Field(97.0, ge=0)  # T10000D average rewind (§4.2)
    # Linear locate model: crossing the whole tape costs one full wind. The
    # paper gives no locate figure; we take the rewind time (our choice).
    wind_s: float = Field(97.0, ge=0)
    locate_overhead_s: float = Field(0.0, ge=0)
    block_bytes: int = Field(262_144, ge=1)  # unit of `block` in files.csv
    queue_size: int = Field(2000, ge=1)  # KIT before 2020 (§4.2)
    order: str = "scan"  # per-tape ordering: fifo, sort, scan, sltf or mpscan
    robot: RobotConfig = RobotConfig()


class RandomStrategy(_Strict):
    """Requests in random order (the paper's benchmark)."""

    name: Literal["random"]


class ByDatasetStrategy(_Strict):
    """Requests in arrival order (datasets in the order requested)."""

    name: Literal["by-dataset"]


class ByTapesStrategy(_Strict):
    """Clustered by tape, requests for `tapes` tapes passed on in parallel."""

    name: Literal["by-tapes"]
    tapes: int = Field(ge=1)


class DcacheStrategy(_Strict):
    """dCache's bring-online clustering (§5.2). Defaults are the documented
    `srmmanager.boclustering.*` defaults of the dCache book."""

    name: Literal["dcache"]
    max_active_tapes: int = Field(1, ge=1)  # max-active-tapes = 1
    min_time_in_queue_s: float = Field(120.0, ge=0)  # min-time-in-queue = 2 MINUTES
    max_time_in_queue_s: float = Field(172_800.0, ge=0)  # max-time-in-queue = 2 DAYS
    min_tape_recall_pct: float = Field(60.0, ge=0)  # min-tape-recall-percentage = 60
    min_used_pct: float = Field(95.0, ge=0)  # "over 95 percent of the contained volume"
    min_request_count: int | None = Field(1000, ge=1)  # min-request-count-for-tape = 1000
    # time-in-queue-for-jobs-without-tapeinfo = 10 MINUTES
    tapeinfo_timeout_s: float | None = Field(600.0, ge=0)
    # How often the scheduler re-runs while nothing else happens (our choice).
    check_interval_s: float = Field(60.0, gt=0)


Strategy = Annotated[
    RandomStrategy | ByDatasetStrategy | ByTapesStrategy | DcacheStrategy,
    Field(discriminator="name"),
]


class KitWorkload(_Strict):
    """A seeded KIT-like campaign (§4.1); `scale` shrinks it for quick runs."""

    kind: Literal["kit"]
    seed: int = 1
    scale: float = Field(1.0, gt=0, le=1)


class FilesWorkload(_Strict):
    """A campaign from files.csv (file,dataset,tape,block,size[,arrival_s]
    [,tapeinfo]) and tapes.csv (tape,capacity,used); paths relative to the config."""

    kind: Literal["files"]
    files: Path
    tapes: Path


Workload = Annotated[KitWorkload | FilesWorkload, Field(discriminator="kind")]


class RecallConfig(_Strict):
    """One recall simulation."""

    library: LibraryConfig = LibraryConfig()
    strategy: Strategy = ByTapesStrategy(name="by-tapes", tapes=12)
    workload: Workload = KitWorkload(kind="kit")
    duration_h: float = Field(60.0, gt=0)  # virtual duration of each run (§4.2)
    sample_s: float = Field(600.0, gt=0)  # time-series interval
    seed: int = 1

    def core_spec(self) -> dict[str, Any]:
        """The spec the Rust core takes (SI units)."""
        lib = self.library
        strategy = self.strategy.model_dump()
        return {
            "library": {
                "drives": lib.drives,
                "rate_bps": lib.rate_mb_s * 1e6,
                "load_s": lib.load_s,
                "thread_s": lib.thread_s,
                "unload_s": lib.unload_s,
                "rewind_s": lib.rewind_s,
                "wind_s": lib.wind_s,
                "locate_overhead_s": lib.locate_overhead_s,
                "block_bytes": lib.block_bytes,
                "arms": lib.robot.arms,
                "fetch_s": lib.robot.fetch_s,
                "return_s": lib.robot.return_s,
                "queue_size": lib.queue_size,
                "order": lib.order,
            },
            "strategy": strategy,
            "duration_s": self.duration_h * 3600.0,
            "sample_s": self.sample_s,
            "seed": self.seed,
        }


def parse_config(data: Any, origin: str = "config") -> RecallConfig:
    """A validated config from parsed YAML/JSON data."""
    return validate(RecallConfig, data, origin)


def load_config(path: str | Path) -> RecallConfig:
    """Reads a YAML config; relative workload paths are relative to the file."""
    p = Path(path)
    config = parse_config(load_yaml(p), str(p))
    if isinstance(config.workload, FilesWorkload):
        w = config.workload
        config.workload = FilesWorkload(
            kind="files", files=p.parent / w.files, tapes=p.parent / w.tapes
        )
    return config
