"""Runs a recall config in the Rust core and returns plain results."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from seekplan import _core
from seekplan.errors import SeekplanError
from seekplan.recall.config import RecallConfig
from seekplan.recall.workload import Campaign, generate_kit, load_campaign


def campaign_for(config: RecallConfig) -> Campaign:
    """The campaign a config names: its CSV files or a generated KIT campaign."""
    w = config.workload
    if w["kind"] == "files":
        return load_campaign(Path(w["files"]), Path(w["tapes"]))
    return generate_kit(
        w["seed"], w["scale"], config.library["block_bytes"], w["dataset_order"]
    )


def simulate(config: RecallConfig, campaign: Campaign | None = None) -> dict[str, Any]:
    """One run: ``{"metrics": ..., "series": ..., "events": n}``. Errors from
    the core (e.g. a file past its tape's end) come back as SeekplanError."""
    c = campaign if campaign is not None else campaign_for(config)
    try:
        out = _core.simulate_recall(
            config.to_json(),
            np.ascontiguousarray(c.dataset, dtype=np.uint32),
            np.ascontiguousarray(c.tape, dtype=np.uint32),
            np.ascontiguousarray(c.block, dtype=np.uint64),
            np.ascontiguousarray(c.size, dtype=np.uint64),
            np.ascontiguousarray(c.arrival_s, dtype=np.float64),
            np.ascontiguousarray(c.tapeinfo, dtype=np.bool_),
            np.ascontiguousarray(c.capacity, dtype=np.uint64),
            np.ascontiguousarray(c.used, dtype=np.uint64),
        )
    except ValueError as e:
        raise SeekplanError(f"recall simulation: {e}") from None
    return json.loads(out)
