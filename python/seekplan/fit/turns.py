"""Track start addresses from per-block timings: Write-Turn (a write log of
every block) and Read-Turn (read timings of selected parts of the tape),
Sandstå & Midtstraum §3 after Hillyer & Silberschatz. A block whose time
stands far above the log's typical time is where the drive turned to a new
track: that block starts the track."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from seekplan.errors import SeekplanError

#: spikes must stand this many robust standard deviations above the median
SPIKE_SIGMAS = 8.0
#: spikes closer than this many blocks are one turn
MERGE_BLOCKS = 8


@dataclass
class TurnFit:
    """Track starts found in a log, the tape's capacity, and warnings."""

    track_starts: list[int]
    capacity: int
    warnings: list[str] = field(default_factory=list)

    def geometry(self) -> dict[str, object]:
        """The per-tape geometry file `seekplan order --track-starts` reads."""
        return {"track_starts": self.track_starts, "capacity": self.capacity}


def _spikes(blocks: np.ndarray, seconds: np.ndarray, tracks: int | None) -> np.ndarray:
    med = float(np.median(seconds))
    mad = 1.4826 * float(np.median(np.abs(seconds - med)))
    sigma = max(mad, 1e-3 * max(med, 1e-9))
    cand = np.nonzero(seconds > med + SPIKE_SIGMAS * sigma)[0]
    if cand.size == 0:
        return cand
    # one turn may slow a few neighbouring blocks: keep the slowest of a cluster
    groups = np.split(cand, np.nonzero(np.diff(blocks[cand]) > MERGE_BLOCKS)[0] + 1)
    peaks = np.array([g[np.argmax(seconds[g])] for g in groups])
    if tracks is not None and peaks.size > tracks - 1:
        peaks = np.sort(peaks[np.argsort(seconds[peaks])[::-1][: tracks - 1]])
    return peaks


def find_track_starts(
    blocks: np.ndarray,
    seconds: np.ndarray,
    read: bool = False,
    tracks: int | None = None,
    capacity: int | None = None,
) -> TurnFit:
    """Track starts (the first is 0) from a write log (Write-Turn) or, with
    ``read``, a log of selected reads (Read-Turn).

    ``tracks`` (if known) keeps the ``tracks - 1`` strongest turns;
    ``capacity`` (blocks) defaults to the last logged block + 1."""
    if blocks.size < 2:
        raise SeekplanError("track log: needs at least two blocks")
    last = int(blocks[-1]) + 1
    if capacity is None:
        capacity = last
    elif last > capacity:
        raise SeekplanError(f"track log: block {last - 1} lies beyond the capacity {capacity}")
    warnings: list[str] = []
    gaps = np.diff(blocks)
    if not read and np.any(gaps > 1):
        i = int(np.argmax(gaps > 1))
        warnings.append(
            f"write log skips blocks after block {blocks[i]} (next {blocks[i + 1]}): "
            "a turn there cannot be seen; use --read for logs of selected reads"
        )
    peaks = _spikes(blocks, seconds, tracks)
    starts = sorted({0, *(int(blocks[p]) for p in peaks)})
    if len(starts) == 1:
        warnings.append(
            "no track turn found: the log is too short (truncated) or too noisy "
            "for turns to stand out"
        )
        return TurnFit(starts, capacity, warnings)
    lengths = np.diff([*starts, capacity])
    typical = float(np.median(lengths))
    if tracks is not None and len(starts) != tracks:
        warnings.append(f"found {len(starts)} tracks, expected {tracks}: noisy or truncated log")
    if not read and int(blocks[-1]) + 1 < capacity:
        warnings.append(
            f"log ends at block {int(blocks[-1])} of {capacity}: truncated, "
            "later track starts are unknown"
        )
    if lengths[-1] < 0.5 * typical and capacity == last:
        warnings.append(
            f"last track has {int(lengths[-1])} blocks against a typical {typical:.0f}: "
            "the log looks truncated"
        )
    inner = lengths[:-1]
    if inner.size >= 2 and (inner.max() > 1.5 * typical or inner.min() < 0.5 * typical):
        warnings.append(
            f"track lengths range from {int(inner.min())} to {int(inner.max())} blocks: "
            "turns were missed or spurious spikes taken (noisy log?)"
        )
    return TurnFit(starts, capacity, warnings)
