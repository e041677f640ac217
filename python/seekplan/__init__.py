"""seekplan: plan and simulate I/O on tape libraries and media-server disks.

The Python side holds the CLI, configs, reports and sweeps; the models,
schedulers and simulators live in the compiled core (``seekplan._core``).

The names below are imported on first use (PEP 562): `seekplan order` and
`seekplan --help` should not pay for the device catalog's pydantic models
or numpy before they need them.
"""

from __future__ import annotations

import importlib
import importlib.util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from seekplan.catalog import load_catalog, make_drive
    from seekplan.errors import SeekplanError
    from seekplan.io import Request, read_requests
    from seekplan.ordering import ALGORITHMS, OrderResult, order, order_matrix

# Where each public name lives.
_EXPORTS = {
    "ALGORITHMS": "seekplan.ordering",
    "OrderResult": "seekplan.ordering",
    "Request": "seekplan.io",
    "SeekplanError": "seekplan.errors",
    "load_catalog": "seekplan.catalog",
    "make_drive": "seekplan.catalog",
    "order": "seekplan.ordering",
    "order_matrix": "seekplan.ordering",
    "read_requests": "seekplan.io",
}

__all__ = [
    "ALGORITHMS",
    "OrderResult",
    "Request",
    "SeekplanError",
    "load_catalog",
    "make_drive",
    "order",
    "order_matrix",
    "read_requests",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is not None:
        value = getattr(importlib.import_module(module), name)
    elif importlib.util.find_spec(f"seekplan.{name}") is not None:
        # A submodule, as `import seekplan` once made `seekplan.catalog` work.
        value = importlib.import_module(f"seekplan.{name}")
    else:
        raise AttributeError(f"module 'seekplan' has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
