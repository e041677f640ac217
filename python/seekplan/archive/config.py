"""The archive simulation config. Its schema, defaults (the Blue Waters
platform of the paper's sections 3.1 and 6.1) and checks live in the Rust
core (``archive::ArchiveConfig``; ``seekplan schema archive`` prints them):
Python reads the YAML, passes it to the core once as JSON, and keeps the
result with every default filled in."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from seekplan import _core
from seekplan.config import load_yaml
from seekplan.errors import SeekplanError


@dataclass(frozen=True)
class ArchiveConfig:
    """One archive simulation: the config with every default filled in by the core."""

    data: dict[str, Any]

    @property
    def policy(self) -> str:
        """rait, parallel, vertical or hetero."""
        return str(self.data["policy"])

    def to_json(self) -> str:
        """The config as the core takes it."""
        return json.dumps(self.data)


def parse_config(data: Any, origin: str = "config") -> ArchiveConfig:
    """A config checked by the core; errors name the field and the value."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SeekplanError(f"{origin}: expected a mapping of settings, got {type(data).__name__}")
    try:
        return ArchiveConfig(json.loads(_core.archive_config(json.dumps(data))))
    except ValueError as e:
        raise SeekplanError(f"{origin}: {e}") from None


def load_config(path: str | Path) -> ArchiveConfig:
    """Reads and checks a YAML config; errors name the file and the field."""
    return parse_config(load_yaml(Path(path)), str(path))
