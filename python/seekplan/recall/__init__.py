"""Tape recall campaigns (Morschel et al., dCache / KIT): a requester strategy
in front of a simulated tape library, run in the Rust core."""

from seekplan.recall.config import RecallConfig, load_config
from seekplan.recall.run import simulate
from seekplan.recall.workload import Campaign, generate_kit, load_campaign

__all__ = [
    "Campaign",
    "RecallConfig",
    "generate_kit",
    "load_campaign",
    "load_config",
    "simulate",
]
