"""The archive simulation's config: typed, validated, read from YAML.

Every field left out takes the core's default (Blue Waters, section 6.1 of
the paper; see docs/archive.md for the list)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from seekplan.config import load_yaml, validate


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PlatformConfig(_Strict):
    """Library, movers, drives and tapes (None: the core's default)."""

    movers: int | None = Field(None, ge=1)
    drives_per_mover: int | None = Field(None, ge=1)
    robot_arms: int | None = Field(None, ge=1)
    mover_ram_bytes: int | None = Field(None, ge=0)
    mover_disk_bytes: int | None = Field(None, ge=0)
    tapes: int | None = Field(None, ge=1)
    tape_capacity_bytes: int | None = Field(None, ge=1)
    drive_rate_bps: float | None = None
    load_s: float | None = None
    unload_s: float | None = None
    robot_s: float | None = None
    full_locate_s: float | None = None


class SchedulerConfig(_Strict):
    """Main-Scheduler and Load-Balancer parameters (section 5)."""

    max_light_load: int | None = Field(None, ge=0)
    # At least a minute: the paper sweeps 1 to 48 days, and each run of the
    # Load-Balancer is an event (a nanosecond interval hung the simulator).
    min_lb_interval_s: float | None = Field(None, ge=60.0, allow_inf_nan=False)
    max_waiting_time_s: float | None = Field(None, ge=0.0, allow_inf_nan=False)
    max_req_count: int | None = Field(None, ge=0)
    max_imbalance: float | None = None


class SchemeShare(_Strict):
    """A resiliency scheme X+Y and its probability (Table 1)."""

    x: int = Field(ge=1)
    y: int = Field(ge=0)
    p: float = Field(ge=0)


class WorkloadConfig(_Strict):
    """The request stream (section 6.1)."""

    rate_per_hour: float | None = None
    requests: int | None = Field(None, ge=1)
    min_bytes: int | None = Field(None, ge=1)
    max_bytes: int | None = Field(None, ge=1)
    read_fraction: float | None = None
    create_fraction: float | None = None
    initial_files: int | None = Field(None, ge=0)
    schemes: list[SchemeShare] | None = None
    data_compression: float | None = None
    ec_compression: float | None = None


class ArchiveConfig(_Strict):
    """One archive simulation."""

    policy: Literal["rait", "parallel", "vertical", "hetero"] = "parallel"
    block_bytes: int | None = Field(None, ge=1)
    hetero_threshold_bytes: int | None = Field(None, ge=1)
    platform: PlatformConfig = PlatformConfig()
    scheduler: SchedulerConfig = SchedulerConfig()
    workload: WorkloadConfig = WorkloadConfig()
    seed: int = Field(1, ge=0)

    def core_json(self) -> str:
        """The JSON the core reads (fields left out take its defaults)."""
        return self.model_dump_json(exclude_none=True)


def load_config(path: Path) -> ArchiveConfig:
    """Reads and validates a YAML config; errors name the file and field."""
    return validate(ArchiveConfig, load_yaml(path), str(path))
