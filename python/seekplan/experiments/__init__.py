"""Reproductions of the seed papers' published results, one module each.

Each module has ``run(out_dir, quick, executor) -> dict`` that writes
``results.json``, ``report.html`` and plots into ``out_dir`` and returns the
results (always with a ``claims`` list); the ``seekplan.sweep.Executor``
says where its points run (local processes, or a Dask cluster).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any

from seekplan.errors import SeekplanError
from seekplan.text import duration

if TYPE_CHECKING:
    from seekplan.sweep import Executor


@dataclass(frozen=True)
class Reproduction:
    """One reproducible paper: its module under seekplan.experiments, what
    it is, and how long `seekplan reproduce` takes (wall seconds with the
    default workers on the project's 2-core machine)."""

    module: str
    paper: str
    quick_s: float
    full_s: float


# Times: `python benchmarks/time_reproductions.py` on 2026-11-28 (release
# build, load 0.4-1.9; sandsta, dcache and johnson-miller after sandsta's
# orders stopped computing a bound only best uses), except the full bluewaters and balafoutis runs,
# timed on 2026-11-25 (docs/archive.md: 5 seeds, ~6 min; docs/media.md: 18
# min 6 s with --workers 2).
#: name users type -> the paper behind it
EXPERIMENTS: dict[str, Reproduction] = {
    "sandsta": Reproduction(
        "sandsta", "Sandstå & Midtstraum 1999, serpentine tape scheduling", 12, 46
    ),
    "johnson-miller": Reproduction(
        "johnson_miller", "Johnson & Miller 1998, tertiary storage measurements", 3, 5
    ),
    "dcache": Reproduction("dcache", "Morschel et al., dCache tape recall at KIT", 2, 3),
    "bluewaters": Reproduction("bluewaters", "Blue Waters tape archival policies", 42, 360),
    "balafoutis": Reproduction(
        "balafoutis", "Balafoutis et al., mixed-media disk scheduling", 8, 1086
    ),
}


def listing() -> str:
    """One line per reproduction: name, paper, and its run times."""
    return "\n".join(
        f"{name}: {r.paper}; --quick ~{duration(r.quick_s)}, full ~{duration(r.full_s)}"
        for name, r in EXPERIMENTS.items()
    )


def runner(name: str) -> Callable[[Path, bool, Executor | None], dict[str, Any]]:
    """The ``run`` function of reproduction ``name``."""
    if name not in EXPERIMENTS:
        raise SeekplanError(
            f"unknown reproduction {name!r}; choose one of {', '.join(sorted(EXPERIMENTS))}"
        )
    return import_module(f"seekplan.experiments.{EXPERIMENTS[name].module}").run
