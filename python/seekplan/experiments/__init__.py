"""Reproductions of the seed papers' published results, one module each.

Each module has ``run(out_dir, quick, executor) -> dict`` that writes
``results.json``, ``report.html`` and plots into ``out_dir`` and returns the
results (always with a ``claims`` list); the ``seekplan.sweep.Executor``
says where its points run (local processes, or a Dask cluster).
"""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from pathlib import Path
from typing import Any

from seekplan.errors import SeekplanError
from seekplan.sweep import Executor

#: name users type -> module under seekplan.experiments
EXPERIMENTS: dict[str, str] = {
    "sandsta": "sandsta",
    "johnson-miller": "johnson_miller",
    "dcache": "dcache",
    "bluewaters": "bluewaters",
    "balafoutis": "balafoutis",
}


def runner(name: str) -> Callable[[Path, bool, Executor | None], dict[str, Any]]:
    """The ``run`` function of reproduction ``name``."""
    if name not in EXPERIMENTS:
        raise SeekplanError(
            f"unknown reproduction {name!r}; choose one of {', '.join(sorted(EXPERIMENTS))}"
        )
    return import_module(f"seekplan.experiments.{EXPERIMENTS[name]}").run
