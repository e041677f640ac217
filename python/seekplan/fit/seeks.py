"""Fits seek-time models to measured seeks (Johnson & Miller §5.4): one line
for helical-scan drives, Table 3's four lines for serpentine drives. Least
squares by numpy; each line reports R² and the warnings a user must see
(too few seeks, a noisy fit, a log that does not cover the tape)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from seekplan import _core
from seekplan.errors import SeekplanError

#: Table 3's conditions, by region number (T' and p' the destination).
REGION_TEXT = {
    1: "T'+T0 even, p' > p0",
    2: "T'+T0 odd, p' <= 1-p0",
    3: "T'+T0 odd, p' > 1-p0",
    4: "T'+T0 even, p' <= p0",
}
MIN_POINTS = 20
MIN_R2 = 0.9
MAX_REL_RMSE = 0.10
MIN_COVERAGE = 0.9


@dataclass(frozen=True)
class LineFit:
    """One fitted line: seconds = startup_s + full_s * distance."""

    region: int
    startup_s: float
    full_s: float
    r2: float
    n: int
    rel_rmse: float


@dataclass
class SeekFit:
    """The fitted model: its kind, lines, and warnings about the log."""

    model: str
    capacity: int
    tracks: int | None
    lines: list[LineFit]
    warnings: list[str] = field(default_factory=list)

    def params(self) -> dict[str, Any]:
        """The seek part of catalog params (helical ``seek`` or four-region ``regions``)."""
        as_line = [{"startup_s": ln.startup_s, "full_s": ln.full_s} for ln in self.lines]
        if self.model == "helical":
            return {"seek": as_line[0]}
        return {"tracks": self.tracks, "regions": as_line}

    def to_dict(self) -> dict[str, Any]:
        """Everything, JSON-ready."""
        return {
            "model": self.model,
            "capacity": self.capacity,
            "tracks": self.tracks,
            "lines": [ln.__dict__ for ln in self.lines],
            "params": self.params(),
            "warnings": self.warnings,
        }


def _line(region: int, x: np.ndarray, y: np.ndarray, warnings: list[str], what: str) -> LineFit:
    if x.size < 3 or np.ptp(x) == 0:
        raise SeekplanError(
            f"{what}: {x.size} seek(s) over one distance cannot fit a line; "
            "the log is too short or does not reach this region"
        )
    design = np.column_stack([np.ones_like(x), x])
    with np.errstate(over="ignore", invalid="ignore"):  # overflow is checked below
        coef, *_ = np.linalg.lstsq(design, y, rcond=None)
        resid = y - design @ coef
        total = float(np.sum((y - y.mean()) ** 2))
        r2 = 1.0 - float(np.sum(resid**2)) / total if total > 0 else 1.0
        rel = float(np.sqrt(np.mean(resid**2)) / max(float(np.mean(y)), 1e-12))
    if not (np.all(np.isfinite(coef)) and math.isfinite(r2) and math.isfinite(rel)):
        # An error, not a warning: a model whose quality cannot be measured
        # must not be used, and a script must see the failure in the exit code.
        raise SeekplanError(
            f"{what}: the fit is not a number (R² {r2}); the times or distances are too "
            "large for double-precision sums: rescale the log"
        )
    if x.size < MIN_POINTS:
        warnings.append(
            f"{what}: only {x.size} seeks (want >= {MIN_POINTS}): coefficients are rough"
        )
    if r2 < MIN_R2 or rel > MAX_REL_RMSE:
        warnings.append(
            f"{what}: noisy fit (R² {r2:.3f}, residual {rel:.0%} of the mean seek): "
            "check the log or the model choice"
        )
    return LineFit(region, float(coef[0]), float(coef[1]), r2, int(x.size), rel)


def fit_seeks(
    froms: np.ndarray,
    tos: np.ndarray,
    seconds: np.ndarray,
    capacity: int | None = None,
    tracks: int | None = None,
) -> SeekFit:
    """Fits a helical line (``tracks`` None) or Table 3's four regions.

    ``capacity`` (blocks) defaults to the highest block in the log + 1; a log
    that stays far from a given capacity is flagged as truncated."""
    moved = froms != tos
    froms, tos, seconds = froms[moved], tos[moved], seconds[moved]
    if froms.size == 0:
        raise SeekplanError("seek log: every row seeks to where it already is")
    top = int(max(froms.max(), tos.max())) + 1
    warnings: list[str] = []
    if capacity is None:
        capacity = top
    elif top > capacity:
        raise SeekplanError(f"seek log: block {top - 1} lies beyond the capacity {capacity}")
    elif top < MIN_COVERAGE * capacity:
        warnings.append(
            f"log reaches only block {top - 1} of {capacity} ({top / capacity:.0%}): "
            "truncated? the fit describes only that part of the tape"
        )
    if tracks is None:
        x = np.abs(tos - froms) / capacity
        lines = [_line(1, x, seconds, warnings, "linear seek")]
        return SeekFit("helical", capacity, None, lines, warnings)
    if tracks < 1 or tracks > capacity:
        raise SeekplanError(f"--tracks {tracks}: must be between 1 and the capacity {capacity}")
    raw_regions, raw_dist = _core.four_region_features(
        tracks, capacity, froms.tolist(), tos.tolist()
    )
    regions, dist = np.array(list(raw_regions)), np.asarray(raw_dist)
    lines = []
    for r in (1, 2, 3, 4):
        sel = regions == r
        lines.append(_line(r, dist[sel], seconds[sel], warnings, f"region {r}"))
    return SeekFit("four_region", capacity, tracks, lines, warnings)
