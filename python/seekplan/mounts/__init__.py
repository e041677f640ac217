"""Cartridge management on a site's mount log (issue 37): dismount,
eviction and placement policies replayed on a library, with Belady's
untimed floor beside them. Same shape as recall, archive and media:
``load_config(path)`` → config, ``simulate(config, trace)`` → metrics."""

from __future__ import annotations

from seekplan.mounts.config import MountConfig, load_config, parse_config
from seekplan.mounts.run import DELAYS_S, POLICIES, simulate, sweep, untimed_loads
from seekplan.mounts.synth import synthetic_trace
from seekplan.mounts.trace import MountTrace, from_columns, load_trace

__all__ = [
    "DELAYS_S",
    "POLICIES",
    "MountConfig",
    "MountTrace",
    "from_columns",
    "load_config",
    "load_trace",
    "parse_config",
    "simulate",
    "sweep",
    "synthetic_trace",
    "untimed_loads",
]
