"""The Python API raises SeekplanError for any bad argument (issue 38): a
wrong type is an ArgumentError, which is also a TypeError; never a raw
AttributeError, OverflowError or a binding's conversion error."""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any

import pytest

import seekplan
from seekplan import archive, media, mounts, recall
from seekplan.errors import ArgumentError, SeekplanError

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HOSTILE: list[Any] = [None, "x", -1, 10**30, 1e308, float("nan"), [], {}, object(), True, [None]]
REQUESTS = [("a", 10, 100), ("b", 500, 100)]

#: function, its good positional arguments, its good keyword arguments
CALLS: dict[str, tuple[Any, list[Any], dict[str, Any]]] = {
    "order": (seekplan.order, [REQUESTS], {"drive": "mlr1"}),
    "order_matrix": (seekplan.order_matrix, [[[0, 1], [1, 0]]], {}),
    "make_drive": (seekplan.make_drive, ["mlr1"], {}),
    "read_requests": (seekplan.read_requests, [EXAMPLES / "requests.csv"], {}),
    "recall.load_config": (recall.load_config, [EXAMPLES / "recall.yaml"], {}),
    "archive.load_config": (archive.load_config, [EXAMPLES / "archive.yaml"], {}),
    "media.load_config": (media.load_config, [EXAMPLES / "study.yaml"], {}),
    "mounts.load_config": (mounts.load_config, [EXAMPLES / "mounts.yaml"], {}),
    "mounts.load_trace": (mounts.load_trace, [EXAMPLES / "mounts-ecmwf.txt"], {}),
    "mounts.synthetic_trace": (mounts.synthetic_trace, [200, 20, 1.0], {}),
    "mounts.untimed_loads": (mounts.untimed_loads, [mounts.synthetic_trace(200, 20, 1.0), 4], {}),
    "mounts.parse_config": (mounts.parse_config, [{"drives": 4}], {}),
}


def _variants(fn: Any, args: list[Any], kwargs: dict[str, Any]):
    """Every call with one argument (positional or keyword) made hostile."""
    names = [p.name for p in inspect.signature(fn).parameters.values()]
    for i in range(len(args)):
        for bad in HOSTILE:
            yield f"{names[i]}={bad!r:.20}", [*args[:i], bad, *args[i + 1 :]], kwargs
    for name in names[len(args) :]:
        for bad in HOSTILE:
            yield f"{name}={bad!r:.20}", args, {**kwargs, name: bad}


@pytest.mark.parametrize("name", list(CALLS))
def test_hostile_arguments_raise_seekplan_error(name):
    fn, args, kwargs = CALLS[name]
    fn(*args, **kwargs)  # the good call works
    for what, a, k in _variants(fn, args, kwargs):
        try:
            fn(*a, **k)
        except SeekplanError:
            pass
        except Exception as e:  # noqa: BLE001 - the point is which type escapes
            pytest.fail(f"{name}({what}): {type(e).__name__}: {e}")


def test_a_wrong_type_is_also_a_type_error():
    with pytest.raises(TypeError, match="drive: expected a drive's name"):
        seekplan.make_drive(3)  # type: ignore[arg-type]
    with pytest.raises(ArgumentError, match="config: expected a file path, got NoneType"):
        recall.load_config(None)  # type: ignore[arg-type]
