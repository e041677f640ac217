"""seekplan: plan and simulate I/O on tape libraries and media-server disks.

The Python side holds the CLI, configs, reports and sweeps; the models,
schedulers and simulators live in the compiled core (``seekplan._core``).
"""

from seekplan.catalog import load_catalog, make_drive
from seekplan.errors import SeekplanError
from seekplan.io import Request, read_requests
from seekplan.ordering import ALGORITHMS, OrderResult, order, order_matrix

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
