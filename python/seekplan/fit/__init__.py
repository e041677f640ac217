"""Drive characterization: turn measured timings into models (Johnson &
Miller seek fits; Write-Turn / Read-Turn track starts), and a virtual drive
that produces such logs from a known model."""

from seekplan.fit.logs import read_block_log, read_seek_log
from seekplan.fit.seeks import SeekFit, fit_seeks
from seekplan.fit.turns import TurnFit, TurnScore, find_track_starts, score_track_starts

__all__ = [
    "SeekFit",
    "TurnFit",
    "TurnScore",
    "find_track_starts",
    "fit_seeks",
    "read_block_log",
    "read_seek_log",
    "score_track_starts",
]
