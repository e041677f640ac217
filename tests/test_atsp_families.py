"""The benchmark's DIMACS-style instance generators (benchmarks/atsp_families.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

from atsp_families import FAMILIES, instance  # noqa: E402


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_instances_are_square_finite_and_seeded(family: str) -> None:
    m = instance(family, 30, 3)
    assert m.shape == (30, 30)
    assert np.isfinite(m).all() and (m >= 0).all()
    assert (np.diag(m) == 0).all()
    assert np.array_equal(m, instance(family, 30, 3))


@pytest.mark.parametrize("n", [2, 9, 50, 120])
def test_coin_costs_are_shortest_drives(n: int) -> None:
    """Shortest drives on a street network obey the triangle inequality, and
    the one-way streets make them asymmetric."""
    m = instance("coin", n, 7)
    via = (m[:, :, None] + m[None, :, :]).min(axis=1)
    assert (m <= via + 1e-9).all()
    if n > 2:
        assert (m != m.T).any()
