"""A media study's config: the disk, the workload, the schedulers and the
arrival rates to compare. YAML in, validated by pydantic, errors that name
the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

from seekplan import _core
from seekplan.config import load_yaml, validate


class DiskParams(BaseModel):
    """The disk (Table 1 and eq. 1 of the paper; seek terms in seconds)."""

    model_config = ConfigDict(extra="forbid")
    cylinders: int = Field(6720, ge=2)
    rotation_s: float = Field(0.006, gt=0)
    rate_bps: float = Field(17.0e6, gt=0)
    short_a_s: float = Field(1.867e-3, gt=0)
    short_b_s: float = Field(1.315e-4, ge=0)
    long_a_s: float = Field(3.8635e-3, gt=0)
    long_b_s: float = Field(2.1e-6, ge=0)
    short_max: int = Field(1344, ge=0)


class ProjectionParams(BaseModel):
    """Yearly technology improvements applied to the disk and CPU (section 5)."""

    model_config = ConfigDict(extra="forbid")
    years: float = Field(0.0, ge=0)
    seek: float = Field(0.08, ge=0, lt=1)
    rotation: float = Field(0.20, gt=-1)
    transfer: float = Field(0.20, gt=-1)
    cpu: float = Field(0.50, gt=-1)


class MediaStudy(BaseModel):
    """Every algorithm in ``algorithms`` at every rate in ``lambdas``, each
    ``runs`` times with seeds ``seed``, ``seed + 1``, ..."""

    model_config = ConfigDict(extra="forbid")
    algorithms: list[str] = Field(default_factory=lambda: ["ci-opt", "clust-req", "sptf"])
    lambdas: list[float] = Field(default_factory=lambda: [10.0, 30.0, 50.0], min_length=1)
    runs: int = Field(2, ge=1)
    rounds: int = Field(4000, ge=1)
    seed: int = Field(1, ge=0)
    round_s: float = Field(1.0, gt=0)
    # At most 10,000 streams: far beyond what a round of any disk serves (the
    # paper's serves ~45); a billion exhausted memory in the workers.
    c_requests: int = Field(25, ge=0, le=10_000)
    c_size_mean: float = Field(200_000.0, gt=0)
    c_size_sd: float = Field(100_000.0, gt=0)
    d_size_mean: float = Field(70_000.0, gt=0)
    d_size_sd: float = Field(20_000.0, gt=0)
    cluster_max: int = Field(6, ge=1, le=12)
    cluster_cylinders: int = Field(1000, ge=1)
    gss_groups: int = Field(5, ge=1)
    d_deadline_s: float = Field(1.0, gt=0)
    opt6_cpu_s: float = Field(0.0004, ge=0)
    queue_limit: int = Field(1000, ge=1)
    disk: DiskParams = Field(default_factory=DiskParams)
    projection: ProjectionParams = Field(default_factory=ProjectionParams)

    @field_validator("algorithms")
    @classmethod
    def _known(cls, names: list[str]) -> list[str]:
        known = list(_core.media_algorithms())
        if not names:
            raise ValueError("list at least one algorithm")
        for n in names:
            if n not in known:
                raise ValueError(f"unknown algorithm {n!r}; choose from {', '.join(known)}")
        return names

    @field_validator("lambdas")
    @classmethod
    def _rates(cls, lams: list[float]) -> list[float]:
        for lam in lams:
            if not lam >= 0:
                raise ValueError(f"arrival rate {lam} must be >= 0")
        return lams

    def core_config(self, lam: float, run: int) -> dict[str, Any]:
        """The core's config for one run at rate ``lam``."""
        data = self.model_dump(exclude={"algorithms", "lambdas", "runs"})
        data["lambda"] = lam
        data["seed"] = self.seed + run
        return data


def parse_study(data: Any, origin: str = "config") -> MediaStudy:
    """Validates a mapping; the error names the field and the bad value."""
    return validate(MediaStudy, data, origin)


def load_study(path: str | Path) -> MediaStudy:
    """Reads and validates a YAML study config."""
    p = Path(path)
    return parse_study(load_yaml(p), str(p))
