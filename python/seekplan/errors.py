"""The error users see: one message naming the field, line or value at fault;
and the interruption of a sweep, which keeps what finished."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

#: Longest rendering of a bad value quoted back in an error message.
MAX_QUOTED_CHARS = 200


def quote(value: Any) -> str:
    """``repr(value)``, cut to :data:`MAX_QUOTED_CHARS` so an error stays
    readable (a 5,000-digit "number" is named, not echoed whole)."""
    text = repr(value)
    if len(text) <= MAX_QUOTED_CHARS:
        return text
    return f"{text[:MAX_QUOTED_CHARS]}... ({len(text):,} characters)"


class SeekplanError(Exception):
    """Bad input or an impossible request; the CLI prints it and exits with 2."""


class ArgumentError(SeekplanError, TypeError):
    """A Python argument of the wrong type: a SeekplanError, as the API
    raises for all bad input, and a TypeError, as Python code expects."""


def require_type(value: Any, expected: type, what: str, hint: str) -> None:
    """Raises ArgumentError unless ``value`` is an ``expected``: a Python
    caller passing the wrong thing gets the argument named and how to make
    the right one (``hint``), not an AttributeError from deep inside."""
    if not isinstance(value, expected):
        raise ArgumentError(
            f"{what}: expected a {expected.__name__} ({hint}), got {type(value).__name__}"
        )


def require_path(value: Any, what: str) -> Path:
    """A file argument as a Path: a str or os.PathLike, else ArgumentError."""
    if isinstance(value, str | os.PathLike):
        return Path(value)
    raise ArgumentError(f"{what}: expected a file path, got {type(value).__name__}")


def require_bool(value: Any, what: str) -> bool:
    """A flag argument: True or False, else ArgumentError."""
    if isinstance(value, bool):
        return value
    raise ArgumentError(f"{what}: expected True or False, got {quote(value)}")


class Interrupted(Exception):
    """Ctrl-C during a sweep: what was asked and the points finished so far
    (by their index), so that the CLI can write them before it exits."""

    def __init__(self, label: str, points: list[Any], done: dict[int, Any]) -> None:
        super().__init__(f"interrupted: {len(done)} of {len(points)} points of {label} finished")
        self.label = label
        self.points = points
        self.done = done

    def partial(self) -> dict[str, Any]:
        """The finished points as a JSON-ready mapping (values JSON cannot
        hold are written as their repr)."""
        finished = [
            {"index": i, "point": self.points[i], "result": r} for i, r in sorted(self.done.items())
        ]
        data = {
            "interrupted": True,
            "label": self.label,
            "total": len(self.points),
            "finished": len(self.done),
            "points": finished,
        }
        return json.loads(json.dumps(data, default=repr))
