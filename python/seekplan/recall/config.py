"""The recall simulation config. Its schema, defaults (the dCache paper's
T10000D library at KIT) and checks live in the Rust core
(``recall::RecallConfig``; ``seekplan schema recall`` prints them): Python
reads the YAML, passes it to the core once as JSON, and keeps the result."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seekplan import _core
from seekplan.config import CoreConfig, checked_by_core, load_config_file, settings
from seekplan.errors import SeekplanError, require_path
from seekplan.hardware import named_recall_robot


@dataclass(frozen=True)
class RecallConfig(CoreConfig):
    """One recall simulation: the config with every default filled in by the core."""

    @property
    def library(self) -> dict[str, Any]:
        """The library section (drives, rates, queue, robot)."""
        return dict(self.data["library"])

    @property
    def workload(self) -> dict[str, Any]:
        """Where the campaign comes from: ``kind`` kit (seed, scale) or files."""
        return dict(self.data["workload"])


def parse_config(data: Any, origin: str = "config") -> RecallConfig:
    """A config checked by the core; errors name the field and the value."""
    data = named_recall_robot(settings(data, origin), origin)
    return RecallConfig(checked_by_core(_core.recall_config, data, origin))


def _workload_paths_beside(data: Any, folder: Path, origin: str) -> Any:
    """``data`` with a files workload's relative CSV paths made relative to
    ``folder`` (the config's)."""
    workload = data.get("workload") if isinstance(data, dict) else None
    if not isinstance(workload, dict) or workload.get("kind") != "files":
        return data
    for key in ("files", "tapes"):
        value = workload.get(key)
        if isinstance(value, str):
            if not value.strip():
                raise SeekplanError(f"{origin}: workload.{key}: an empty path (give a CSV file)")
            workload[key] = str(folder / value)
    return data


def load_config(path: str | Path) -> RecallConfig:
    """Reads a YAML config; relative workload paths are relative to the file."""
    p = require_path(path, "config")
    return load_config_file(
        p, lambda data, origin: parse_config(_workload_paths_beside(data, p.parent, origin), origin)
    )
