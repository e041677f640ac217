"""Running mount replays: one config on one trace, the untimed floor, and
a sweep of dismount delays × eviction policies on local processes or Dask."""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import numpy as np

from seekplan import _core
from seekplan.errors import ArgumentError, SeekplanError, require_type
from seekplan.mounts.config import MountConfig
from seekplan.mounts.trace import MountTrace
from seekplan.sweep import Executor

#: Every eviction policy, online ones first; belady is the offline reference.
POLICIES = ("lru", "lfu", "fifo", "random", "arc", "belady")
#: The dismount delays a sweep tries when none are given (seconds): Mäsker
#: et al.'s range (DD0 to DD1800) and an hour.
DELAYS_S = (0.0, 60.0, 300.0, 900.0, 1800.0, 3600.0)


def _columns(trace: MountTrace) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    return (
        np.ascontiguousarray(trace.time_s, dtype=np.float64),
        np.ascontiguousarray(trace.cartridge, dtype=np.uint32),
        np.ascontiguousarray(trace.busy_s, dtype=np.float64),
        len(trace.names),
    )


def _replay(config_json: str, columns: tuple[np.ndarray, np.ndarray, np.ndarray, int]) -> Any:
    return json.loads(_core.mounts_replay(config_json, *columns))


def simulate(config: MountConfig, trace: MountTrace) -> dict[str, Any]:
    """Replays ``trace`` under ``config``; its metrics (see docs/mounts.md)."""
    require_type(config, MountConfig, "mounts.simulate: config", "seekplan.mounts.load_config")
    require_type(trace, MountTrace, "mounts.simulate: trace", "seekplan.mounts.load_trace")
    try:
        result: dict[str, Any] = _replay(config.to_json(), _columns(trace))
    except ValueError as e:
        raise SeekplanError(f"{config.origin}: {e}") from None
    return result


def untimed_loads(trace: MountTrace, drives: int, policy: str = "belady", seed: int = 1) -> int:
    """Loads of ``policy`` in the untimed model (drives as cache slots,
    requests in trace order); ``belady`` gives the floor no policy beats."""
    require_type(trace, MountTrace, "mounts.untimed_loads: trace", "seekplan.mounts.load_trace")
    try:
        return int(
            _core.mounts_untimed_loads(
                np.ascontiguousarray(trace.cartridge, dtype=np.uint32),
                len(trace.names),
                drives,
                policy,
                seed,
            )
        )
    except TypeError as e:
        raise ArgumentError(f"mounts.untimed_loads: {e}") from None
    except (ValueError, OverflowError) as e:
        raise SeekplanError(f"mounts.untimed_loads: {e}") from None


def _point(
    columns: tuple[np.ndarray, np.ndarray, np.ndarray, int], point: tuple[str, str, float | None]
) -> dict[str, Any]:
    config_json, policy, delay = point
    return {"policy": policy, "dismount_delay_s": delay, **_replay(config_json, columns)}


def sweep(
    config: MountConfig,
    trace: MountTrace,
    policies: tuple[str, ...] | list[str] = POLICIES,
    delays_s: tuple[float, ...] | list[float] | None = DELAYS_S,
    executor: Executor | None = None,
    quiet: bool = False,
) -> dict[str, Any]:
    """Every eviction policy × dismount delay (fixed delays; ``None`` keeps
    the config's dismount rule) on ``trace``, with the untimed floor and
    each policy's untimed loads: ``{"floor_loads", "untimed_loads",
    "runs"}``, runs in policy-major order."""
    require_type(config, MountConfig, "mounts.sweep: config", "seekplan.mounts.load_config")
    require_type(trace, MountTrace, "mounts.sweep: trace", "seekplan.mounts.load_trace")
    if not isinstance(policies, list | tuple) or not all(isinstance(p, str) for p in policies):
        raise ArgumentError(f"mounts.sweep: policies must be a list of names, got {policies!r}")
    if delays_s is not None and (
        not isinstance(delays_s, list | tuple)
        or not all(isinstance(d, int | float) and not isinstance(d, bool) for d in delays_s)
    ):
        raise ArgumentError(f"mounts.sweep: delays_s must be a list of seconds, got {delays_s!r}")
    unknown = [p for p in policies if p not in POLICIES]
    if unknown or not policies:
        what = f"unknown {', '.join(map(repr, unknown))}" if unknown else "no policy given"
        raise SeekplanError(f"policy: {what}; choose from {', '.join(POLICIES)}")
    points = []
    for policy in policies:
        for delay in delays_s if delays_s is not None else [None]:
            changes: dict[str, Any] = {"eviction": policy}
            if delay is not None:
                changes["dismount"] = {"kind": "fixed", "delay_s": delay}
            cfg = config.with_changes(**changes)
            points.append((cfg.to_json(), policy, delay))
    columns = _columns(trace)
    executor = executor or Executor()
    try:
        runs = executor.map(partial(_point, columns), points, "replaying", quiet=quiet)
    except ValueError as e:
        raise SeekplanError(f"{config.origin}: {e}") from None
    seed = int(config.data["seed"])
    return {
        "floor_loads": untimed_loads(trace, config.drives, "belady", seed),
        "untimed_loads": {p: untimed_loads(trace, config.drives, p, seed) for p in POLICIES},
        "runs": runs,
    }
