"""Mixed-media disk scheduling for a media server (Balafoutis et al.): configs,
parallel studies over algorithms and arrival rates, and their report."""

from seekplan.media.config import DiskParams, MediaStudy, ProjectionParams, load_study
from seekplan.media.run import algorithms, cluster_gain, run_study, simulate

__all__ = [
    "DiskParams",
    "MediaStudy",
    "ProjectionParams",
    "algorithms",
    "cluster_gain",
    "load_study",
    "run_study",
    "simulate",
]
