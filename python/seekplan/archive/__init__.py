"""Archival write policies (RAIT, PARALLEL, VERTICAL, HETERO) simulated on a
Blue Waters-like tape platform."""

from __future__ import annotations

import json
from typing import Any

from seekplan import _core
from seekplan.archive.config import ArchiveConfig, load_config, parse_config
from seekplan.errors import SeekplanError, require_type

__all__ = ["ArchiveConfig", "load_config", "parse_config", "simulate"]


def simulate(config: ArchiveConfig) -> dict[str, Any]:
    """Runs one simulation; returns its metrics (see docs/archive.md)."""
    require_type(config, ArchiveConfig, "archive.simulate: config", "seekplan.archive.load_config")
    try:
        return json.loads(_core.archive_simulate(config.to_json()))
    except ValueError as e:
        raise SeekplanError(f"{config.origin}: {e}") from None
