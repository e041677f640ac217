"""A media study's config: the disk, the workload, the schedulers and the
arrival rates to compare. Its schema, defaults and checks live in the Rust
core (``media::StudyAxes`` and ``media::MediaConfig``; ``seekplan schema
media`` prints them): Python splits the mapping into the axes and the base
config, passes both to the core once, and keeps what comes back."""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

from seekplan import _core
from seekplan.config import load_config_file, require_finite, settings
from seekplan.errors import SeekplanError


class MediaStudy:
    """Every algorithm in ``algorithms`` at every rate in ``lambdas``, each
    ``runs`` times with seeds ``seed``, ``seed + 1``, ...; any other setting
    (``rounds``, ``c_requests``, ``disk``, ``projection``, ...) is every
    run's. ``MediaStudy(rounds=150)`` takes the core's defaults for the rest."""

    __slots__ = ("_axes", "_base")
    _axes: dict[str, Any]
    _base: dict[str, Any]

    def __init__(self, **settings: Any) -> None:
        keys = set(_core.media_study_keys())
        if "lambda" in settings:
            raise SeekplanError("lambda: a study sets each run's lambda from `lambdas`")
        require_finite(settings)
        axes = {k: v for k, v in settings.items() if k in keys}
        base = {k: v for k, v in settings.items() if k not in keys}
        try:
            a, b = _core.media_study(json.dumps(axes), json.dumps(base))
        except (ValueError, TypeError) as e:
            raise SeekplanError(str(e)) from None
        object.__setattr__(self, "_axes", json.loads(a))
        object.__setattr__(self, "_base", json.loads(b))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a MediaStudy is immutable")

    @property
    def algorithms(self) -> list[str]:
        """Algorithms compared."""
        return list(self._axes["algorithms"])

    @property
    def lambdas(self) -> list[float]:
        """D-request arrival rates per round."""
        return list(self._axes["lambdas"])

    @property
    def runs(self) -> int:
        """Runs per (algorithm, rate)."""
        return int(self._axes["runs"])

    def setting(self, name: str) -> Any:
        """A base setting every run shares (``rounds``, ``c_requests``, ...)."""
        return self._base[name]

    def core_config(self, lam: float, run: int) -> dict[str, Any]:
        """The core's config for one run at rate ``lam``."""
        return {**self._base, "lambda": lam, "seed": self._base["seed"] + run}

    def to_dict(self) -> dict[str, Any]:
        """The whole study, every default filled in, as a study file holds it."""
        return {**self._axes, **{k: v for k, v in self._base.items() if k != "lambda"}}


def parse_study(data: Any, origin: str = "config") -> MediaStudy:
    """A study checked by the core; the error names the field and the value."""
    fields = {str(k): v for k, v in settings(data, origin).items()}
    try:
        return MediaStudy(**fields)
    except SeekplanError as e:
        raise SeekplanError(f"{origin}: {e}") from None


def load_config(path: str | Path) -> MediaStudy:
    """Reads and checks a YAML study config (the shape of recall's and
    archive's ``load_config``)."""
    return load_config_file(path, parse_study)


def load_study(path: str | Path) -> MediaStudy:
    """Deprecated name of :func:`load_config`, kept for one release."""
    warnings.warn(
        "seekplan.media.load_study is deprecated; use seekplan.media.load_config",
        DeprecationWarning,
        stacklevel=2,
    )
    return load_config(path)
