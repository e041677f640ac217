"""Runs media simulations: one core call per run, independent runs in
parallel with ``seekplan.sweep.run_points``."""

from __future__ import annotations

import json
import statistics
import warnings
from typing import Any

from seekplan import _core
from seekplan.errors import SeekplanError, require_type
from seekplan.media.config import MediaStudy
from seekplan.sweep import Executor


def algorithms() -> list[str]:
    """Names of the mixed-media schedulers."""
    return list(_core.media_algorithms())


def simulate(
    config: MediaStudy | dict[str, Any],
    executor: Executor | str | None = None,
) -> dict[str, Any]:
    """Every point of a study (the shape of recall's and archive's
    ``simulate(config)``): ``{"config", "results": {algo: {lambda:
    aggregate}}, "glitches_total"}``; ``executor`` says where the points run.

    ``simulate(core_config_dict, algo)``, this function's old shape, still
    runs one run with a deprecation warning; it is :func:`simulate_run`."""
    if isinstance(config, dict):
        warnings.warn(
            "seekplan.media.simulate(config_dict, algo) is deprecated; use "
            "seekplan.media.simulate_run(config_dict, algo) for one run",
            DeprecationWarning,
            stacklevel=2,
        )
        if not isinstance(executor, str):
            raise SeekplanError("simulate_run needs an algorithm name")
        return simulate_run(config, executor)
    require_type(config, MediaStudy, "media.simulate: config", "seekplan.media.load_config")
    if isinstance(executor, str):
        raise SeekplanError("simulate: the second argument is an Executor, not an algorithm")
    per = run_study(config, executor)
    return {
        "config": config.to_dict(),
        "results": per,
        "glitches_total": sum(v["glitches"] for s in per.values() for v in s.values()),
    }


def simulate_run(config: dict[str, Any], algo: str) -> dict[str, Any]:
    """One run of ``algo`` with a core config (MediaConfig fields)."""
    try:
        return json.loads(_core.media_simulate(json.dumps(config), algo))
    except ValueError as e:
        raise SeekplanError(str(e)) from None


def cluster_gain(
    disk: dict[str, Any], k: int, width: int, samples: int, size: tuple[float, float], seed: int
) -> dict[str, float]:
    """Mean in-cluster response of OPT and SCAN orders (Figure 3) on ``disk``
    (DiskSpec fields; those left out take Table 1's figures)."""
    try:
        raw = _core.media_cluster_study(json.dumps(disk), k, width, samples, size[0], size[1], seed)
    except ValueError as e:
        raise SeekplanError(f"disk: {e}") from None
    return json.loads(raw)


def _point(args: tuple[dict[str, Any], str]) -> dict[str, Any]:
    return simulate_run(*args)


def _mean(xs: list[float | None]) -> float:
    """Mean over the runs that measured the metric (the core reports an
    unmeasurable one, e.g. no D-request served, as null)."""
    values = [x for x in xs if x is not None and x == x]
    return float(statistics.fmean(values)) if values else float("nan")


def _spread(xs: list[float | None]) -> float:
    """Sample standard deviation over the runs that measured the metric (NaN
    below two runs): the run-to-run noise a difference is judged against."""
    values = [x for x in xs if x is not None and x == x]
    return float(statistics.stdev(values)) if len(values) > 1 else float("nan")


def aggregate(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """The paper's final value of each metric: the mean over the runs; sums
    for counts; saturated if any run saturated. ``d_mean_response_sd_s`` is
    the mean response's spread over runs, ``d_served_per_round`` the
    D-requests served per round over all runs."""
    rounds = sum(int(r["rounds"]) for r in runs)
    served = sum(int(r["d_served"]) for r in runs)
    return {
        "d_mean_response_s": _mean([r["d_mean_response_s"] for r in runs]),
        "d_mean_response_sd_s": _spread([r["d_mean_response_s"] for r in runs]),
        "d_max_response_s": _mean([r["d_max_response_s"] for r in runs]),
        "fairness": _mean([r["fairness"] for r in runs]),
        "unserved_per_round": _mean([r["unserved_per_round"] for r in runs]),
        "c_busy_fraction": _mean([r["c_busy_fraction"] for r in runs]),
        "c_scan_fraction": _mean([r["c_scan_fraction"] for r in runs]),
        "glitches": sum(int(r["glitches"]) for r in runs),
        "d_served": served,
        "d_served_per_round": served / rounds if rounds else float("nan"),
        "rounds": rounds,
        "saturated": any(r["saturated"] for r in runs),
        "runs": len(runs),
    }


def run_study(
    study: MediaStudy,
    executor: Executor | None = None,
    label: str = "media",
    quiet: bool = False,
) -> dict[str, dict[str, dict[str, Any]]]:
    """Every (algorithm, lambda) point: ``{algo: {str(lambda): aggregate}}``."""
    points = [
        (study.core_config(lam, run), algo)
        for algo in study.algorithms
        for lam in study.lambdas
        for run in range(study.runs)
    ]
    results = (executor or Executor()).map(_point, points, label=label, quiet=quiet)
    grouped: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for (cfg, algo), res in zip(points, results, strict=True):
        grouped.setdefault(algo, {}).setdefault(str(cfg["lambda"]), []).append(res)
    return {a: {lam: aggregate(rs) for lam, rs in per.items()} for a, per in grouped.items()}
