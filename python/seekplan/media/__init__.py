"""Mixed-media disk scheduling for a media server (Balafoutis et al.): configs,
parallel studies over algorithms and arrival rates, and their report."""

from seekplan.media.config import MediaStudy, load_config, load_study, parse_study
from seekplan.media.run import algorithms, cluster_gain, run_study, simulate, simulate_run

__all__ = [
    "MediaStudy",
    "algorithms",
    "cluster_gain",
    "load_config",
    "load_study",
    "parse_study",
    "run_study",
    "simulate",
    "simulate_run",
]
