"""The benchmark's seek-matrix instances (benchmarks/seek_matrices.py) on every
catalogued drive that has a locate model: the serpentine, four-region and LTO
ones and the helical ones, whose tape has no wraps."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

import seekplan

sys.path.insert(0, str(Path(__file__).parent.parent / "benchmarks"))

from seek_matrices import PATTERNS, seek_matrix  # noqa: E402

HELICAL = ("4mm-dat", "ampex-dst310", "sony-dtf")


def _drives_with_locate_models() -> list[str]:
    return sorted(
        name for name, entry in seekplan.catalog.load_catalog().items() if entry.model is not None
    )


def test_every_helical_drive_is_among_the_drives_checked() -> None:
    assert set(HELICAL) <= set(_drives_with_locate_models())


@pytest.mark.parametrize("drive", _drives_with_locate_models())
@pytest.mark.parametrize("pattern", PATTERNS)
def test_instances_are_square_finite_and_seeded(drive: str, pattern: str) -> None:
    m = seek_matrix(pattern, 12, 2, drive)
    assert m.shape == (13, 13)
    assert np.isfinite(m).all() and (m >= 0).all()
    assert np.array_equal(m, seek_matrix(pattern, 12, 2, drive))
