"""Seeded request batches for the ordering experiments and the demo."""

from __future__ import annotations

import numpy as np

from seekplan.io import Request


def uniform_batch(capacity: int, n: int, size: int, seed: int) -> list[Request]:
    """``n`` requests of ``size`` bytes at blocks uniform in [0, capacity - 1)."""
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, max(capacity - 1, 1), size=n)
    return [Request(str(i), int(b), size) for i, b in enumerate(blocks)]
