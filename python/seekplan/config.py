"""Config files: YAML in, a validated pydantic model out, and one clear error
naming the file, the field and the bad value when something is wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from seekplan.errors import SeekplanError

M = TypeVar("M", bound=BaseModel)


def explain(err: ValidationError, origin: str) -> SeekplanError:
    """The first validation problem as ``origin: field.path: message (got value)``."""
    first = err.errors()[0]
    field = ".".join(str(p) for p in first["loc"]) or "config"
    return SeekplanError(f"{origin}: {field}: {first['msg']} (got {first.get('input')!r})")


def validate(model: type[M], data: Any, origin: str = "config") -> M:
    """``data`` (parsed YAML/JSON; empty means all defaults) checked against ``model``."""
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise SeekplanError(f"{origin}: expected a mapping of settings, got {type(data).__name__}")
    try:
        return model.model_validate(data)
    except ValidationError as e:
        raise explain(e, origin) from None


def load_yaml(path: str | Path) -> Any:
    """The parsed content of a YAML file; unreadable files and bad YAML are errors."""
    p = Path(path)
    try:
        return yaml.safe_load(p.read_text())
    except (OSError, UnicodeDecodeError) as e:
        raise SeekplanError(f"{p}: cannot read ({e})") from None
    except yaml.YAMLError as e:
        raise SeekplanError(f"{p}: not valid YAML ({e})") from None
