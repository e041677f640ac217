"""The recall simulation config. Its schema, defaults (the dCache paper's
T10000D library at KIT) and checks live in the Rust core
(``recall::RecallConfig``; ``seekplan schema recall`` prints them): Python
reads the YAML, passes it to the core once as JSON, and keeps the result."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seekplan import _core
from seekplan.config import checked_by_core, load_yaml, settings
from seekplan.errors import SeekplanError


@dataclass(frozen=True)
class RecallConfig:
    """One recall simulation: the config with every default filled in by the core."""

    data: dict[str, Any]

    @property
    def library(self) -> dict[str, Any]:
        """The library section (drives, rates, queue, robot)."""
        return dict(self.data["library"])

    @property
    def workload(self) -> dict[str, Any]:
        """Where the campaign comes from: ``kind`` kit (seed, scale) or files."""
        return dict(self.data["workload"])

    def to_json(self) -> str:
        """The config as the core takes it."""
        return json.dumps(self.data)


def parse_config(data: Any, origin: str = "config") -> RecallConfig:
    """A config checked by the core; errors name the field and the value."""
    data = settings(data, origin)
    try:
        data = named_robot(data)
    except SeekplanError as e:
        raise SeekplanError(f"{origin}: {e}") from None
    return RecallConfig(checked_by_core(_core.recall_config, data, origin))


def named_robot(data: dict[str, Any]) -> dict[str, Any]:
    """`library.robot: NAME` (a catalogued library, `seekplan drives`)
    becomes that library's arms and mean fetch and return times; an unknown
    name is an error listing the catalogued ones. The service config's
    library section goes through here too (`seekplan.serve.config`)."""
    library = data.get("library")
    if not isinstance(library, dict) or not isinstance(library.get("robot"), str):
        return data
    from seekplan.catalog import load_robots

    name = library["robot"]
    robots = load_robots()
    if name not in robots:
        raise SeekplanError(
            f"library.robot: unknown library {name!r}; catalogued: {', '.join(sorted(robots))}"
        )
    return {**data, "library": {**library, "robot": robots[name].recall_robot()}}


def load_config(path: str | Path) -> RecallConfig:
    """Reads a YAML config; relative workload paths are relative to the file."""
    p = Path(path)
    data = load_yaml(p)
    workload = data.get("workload") if isinstance(data, dict) else None
    if isinstance(workload, dict) and workload.get("kind") == "files":
        for key in ("files", "tapes"):
            if isinstance(workload.get(key), str):
                workload[key] = str(p.parent / workload[key])
    return parse_config(data, str(p))
