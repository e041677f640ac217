"""The seek-matrix family: asymmetric TSP instances built from seekplan's own
LTO wrap/LPOS model, for `bench_order.py --family seek-matrix`.

An instance is a head position and n files on an LTO-9 tape. Cost i -> j is
the locate from the end of file i to the start of file j; node n is the head
(row n: locates from it; column n: 0, the path ends anywhere). Four patterns
of where the files start:

- ``uniform``: anywhere on the tape.
- ``gaussian``: on a uniform wrap, at a longitudinal position drawn from a
  normal distribution centred mid-tape (sd 1/6 of the length, clipped): the
  files crowd one stretch of every wrap, so many locates are short and
  cross wraps.
- ``half``: half uniform, half gaussian.
- ``sequential``: back to back along the serpentine from a random block, as a
  run of files written together and recalled together.

File sizes are uniform between 64 MiB and 1 GiB (our choice, not taken from
a site's data: the size only moves where a file ends, and 10,000 such files
written back to back still fit on one LTO-9 tape). Other drives (``drive``,
any catalogued one with a locate model) keep n files on one tape: the
largest size is at most the capacity over n, the least a tenth of that
(LTO-9 instances of up to 10,000 files are as before).
Seeded: the same pattern, n and seed give the same matrix.
"""

from __future__ import annotations

import numpy as np

import seekplan
from seekplan import _core

PATTERNS = ("uniform", "gaussian", "half", "sequential")
DRIVE = "lto9"
MIN_FILE_BYTES = 64 << 20
MAX_FILE_BYTES = 1 << 30
# Standard deviation of the gaussian pattern's longitudinal position, as a
# fraction of the tape's length.
GAUSSIAN_SD = 1 / 6


def _gaussian_blocks(rng: np.random.Generator, k: int, capacity: int, wraps: int) -> np.ndarray:
    per_wrap = capacity / wraps
    wrap = rng.integers(0, wraps, k)
    along = np.clip(rng.normal(0.5, GAUSSIAN_SD, k), 0.0, 1.0 - 1e-9)
    # Even wraps run forward from the tape's start, odd ones back from its end.
    within = np.where(wrap % 2 == 0, along, 1.0 - along)
    return (wrap * per_wrap + within * per_wrap).astype(np.int64)


def _size_range(capacity_bytes: int, n: int) -> tuple[int, int]:
    """Least and largest file size of an instance of n files."""
    largest = min(MAX_FILE_BYTES, capacity_bytes // n)
    return min(MIN_FILE_BYTES, max(1, largest // 10)), largest


def requests(
    pattern: str, n: int, seed: int, drive_name: str = DRIVE
) -> tuple[list[int], list[int], int]:
    """Start blocks, sizes in bytes and the head's block of one instance."""
    if pattern not in PATTERNS:
        raise ValueError(f"unknown pattern {pattern!r}; choose one of {', '.join(PATTERNS)}")
    drive = seekplan.make_drive(drive_name)
    capacity, block_bytes = drive.capacity, drive.block_bytes
    # A helical drive has no wraps: its whole tape is one pass.
    last = drive.physical(capacity - 1)
    wraps = last[0] + 1 if last is not None else 1
    rng = np.random.default_rng([seed, n, PATTERNS.index(pattern)])
    least, largest = _size_range(capacity * block_bytes, n)
    sizes = rng.integers(least, largest + 1, n)
    size_blocks = -(-sizes // block_bytes)
    if pattern == "sequential":
        offsets = np.concatenate(([0], np.cumsum(size_blocks)[:-1]))
        total = int(size_blocks.sum())
        if total >= capacity:
            raise ValueError(f"{n} files of the sequential pattern do not fit on one tape")
        blocks = int(rng.integers(0, capacity - total)) + offsets
    else:
        uniform = rng.integers(0, capacity, n)
        gaussian = _gaussian_blocks(rng, n, capacity, wraps)
        blocks = {"uniform": uniform, "gaussian": gaussian}.get(
            pattern, np.where(np.arange(n) < n // 2, uniform, gaussian)
        )
        blocks = np.minimum(blocks, capacity - size_blocks)
    head = int(rng.integers(0, capacity))
    return [int(b) for b in blocks], [int(s) for s in sizes], head


def seek_matrix(pattern: str, n: int, seed: int = 1, drive_name: str = DRIVE) -> np.ndarray:
    """The (n + 1)² locate matrix of one instance on `drive_name`; node n
    is the head."""
    blocks, sizes, head = requests(pattern, n, seed, drive_name)
    drive = seekplan.make_drive(drive_name)
    return _core.locate_matrix(drive, blocks, sizes, start=head)
