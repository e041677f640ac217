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
    """How long a block takes to write or read, what a turn adds, and the
    disturbances of a real log: noise, retries (``hiccup_rate``, up to two
    turns long), buffer-flush spikes (``spike_rate``, ``spike_s`` seconds)
    and slow drift of the block time (``drift``: relative amplitude of a
    sine of ``drift_blocks`` blocks' period, e.g. tape speed or host load)."""

    block_s: float
    turn_s: float
    noise: float = 0.05
    hiccup_rate: float = 0.0
    spike_rate: float = 0.0
    spike_s: tuple[float, float] = (0.1, 0.4)
    drift: float = 0.0
    drift_blocks: int = 30_000

    def times(self, blocks: np.ndarray, starts: list[int], seed: int) -> np.ndarray:
        """Seconds per block: the (drifting) base time with relative noise,
        plus the turn at every track start but the first, plus random
        hiccups and spikes at their rates per block."""
        rng = np.random.default_rng(seed)
        phase = rng.uniform(0, 2 * np.pi)
        base = self.block_s * (
            1 + self.drift * np.sin(2 * np.pi * blocks / self.drift_blocks + phase)
        )
        t = np.maximum(base * (1 + self.noise * rng.standard_normal(blocks.size)), 0.0)
        t[np.isin(blocks, starts[1:])] += self.turn_s
        hiccups = rng.random(blocks.size) < self.hiccup_rate
        t[hiccups] += rng.uniform(0.5, 2.0, int(hiccups.sum())) * self.turn_s
        spikes = rng.random(blocks.size) < self.spike_rate
        t[spikes] += rng.uniform(*self.spike_s, int(spikes.sum()))
        return t


def drop_rows(
    blocks: np.ndarray, seconds: np.ndarray, rate: float, seed: int, longest: int = 5
) -> tuple[np.ndarray, np.ndarray]:
    """A logger that lost rows: runs of 1..``longest`` rows start at ``rate``
    per row and vanish; the next kept row's seconds covers them (its time
    is measured from the previous kept row). The first and last rows stay."""
    rng = np.random.default_rng(seed)
    keep = np.ones(blocks.size, dtype=bool)
    for i in np.nonzero(rng.random(blocks.size) < rate)[0]:
        keep[i : i + int(rng.integers(1, longest + 1))] = False
    keep[[0, -1]] = True
    total = np.cumsum(seconds)[keep]
    return blocks[keep], np.diff(total, prepend=0.0)


def write_log(
    starts: list[int],
    capacity: int,
    timing: BlockTiming,
    seed: int,
    upto: int | None = None,
    drop_rate: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """A Write-Turn log: every block from 0 (to ``upto``, a truncated log),
    less rows dropped at ``drop_rate`` (see :func:`drop_rows`)."""
    blocks = np.arange(capacity if upto is None else upto)
    seconds = timing.times(blocks, starts, seed)
    if drop_rate > 0:
        return drop_rows(blocks, seconds, drop_rate, seed + 1)
    return blocks, seconds


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
