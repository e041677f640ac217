"""A virtual drive: timing logs produced from a known model with seeded
noise, so fits can be checked against the parameters that made the log."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np


def random_layout(tracks: int, capacity: int, spread: float, seed: int) -> list[int]:
    """Track starts of one tape: equal tracks, each start moved by up to
    ``spread`` of a track length (tapes differ, S&M §3); the first is 0."""
    rng = np.random.default_rng(seed)
    length = capacity / tracks
    jitter = rng.uniform(-spread, spread, tracks) * length
    starts = np.round(np.arange(tracks) * length + jitter).astype(np.int64)
    starts[0] = 0
    return [int(s) for s in np.maximum.accumulate(starts)]


def seek_log(
    drive: Any, n: int, noise: float, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``n`` random seeks timed on ``drive`` (a core Drive), each time scaled
    by (1 + noise * N(0, 1)): (from blocks, to blocks, seconds)."""
    rng = np.random.default_rng(seed)
    cap = int(drive.capacity)
    froms = rng.integers(0, cap, n)
    tos = rng.integers(0, cap, n)
    exact = np.array([drive.locate(int(f), int(t)) for f, t in zip(froms, tos, strict=True)])
    return froms, tos, np.maximum(exact * (1 + noise * rng.standard_normal(n)), 0.0)


@dataclass(frozen=True)
class BlockTiming:
    """How long a block takes to write or read, and what a turn adds."""

    block_s: float
    turn_s: float
    noise: float = 0.05
    hiccup_rate: float = 0.0

    def times(self, blocks: np.ndarray, starts: list[int], seed: int) -> np.ndarray:
        """Seconds per block: the base time with relative noise, plus the turn
        at every track start but the first, plus random hiccups (retries)
        of up to two turns at ``hiccup_rate`` per block."""
        rng = np.random.default_rng(seed)
        t = self.block_s * (1 + self.noise * rng.standard_normal(blocks.size))
        t = np.maximum(t, 0.0)
        t[np.isin(blocks, starts[1:])] += self.turn_s
        hiccups = rng.random(blocks.size) < self.hiccup_rate
        t[hiccups] += rng.uniform(0.5, 2.0, int(hiccups.sum())) * self.turn_s
        return t


def write_log(
    starts: list[int], capacity: int, timing: BlockTiming, seed: int, upto: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """A Write-Turn log: every block from 0 (to ``upto``, a truncated log)."""
    blocks = np.arange(capacity if upto is None else upto)
    return blocks, timing.times(blocks, starts, seed)


def read_log(
    starts: list[int], capacity: int, tracks: int, half_width: int, timing: BlockTiming, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """A Read-Turn log: reads of ``half_width`` blocks either side of each
    nominal track start (where the turns must be, give or take the spread)."""
    length = capacity / tracks
    centres = (np.arange(1, tracks) * length).astype(np.int64)
    windows = [np.arange(max(c - half_width, 0), min(c + half_width, capacity)) for c in centres]
    blocks = np.unique(np.concatenate(windows))
    return blocks, timing.times(blocks, starts, seed)
