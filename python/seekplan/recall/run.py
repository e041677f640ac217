"""Runs a recall config in the Rust core and returns plain results."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from seekplan import _core
from seekplan.errors import SeekplanError, require_type
from seekplan.recall.config import RecallConfig
from seekplan.recall.workload import Campaign, generate_kit, load_campaign


def campaign_for(config: RecallConfig) -> Campaign:
    """The campaign a config names: its CSV files or a generated KIT campaign."""
    w = config.workload
    if w["kind"] == "files":
        return load_campaign(Path(w["files"]), Path(w["tapes"]))
    return generate_kit(w["seed"], w["scale"], config.library["block_bytes"], w["dataset_order"])


def simulate(config: RecallConfig, campaign: Campaign | None = None) -> dict[str, Any]:
    """One run: ``{"metrics": ..., "series": ..., "events": n}``. Errors from
    the core (e.g. a file past its tape's end) come back as SeekplanError."""
    require_type(config, RecallConfig, "recall.simulate: config", "seekplan.recall.load_config")
    if campaign is not None:
        require_type(
            campaign, Campaign, "recall.simulate: campaign", "seekplan.recall.load_campaign"
        )
    c = campaign if campaign is not None else campaign_for(config)
    try:
        return _core.simulate_recall(config.to_json(), c.core)
    except ValueError as e:
        raise SeekplanError(f"recall simulation: {e}") from None
