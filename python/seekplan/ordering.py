"""Ordering a batch of reads on one tape, or the nodes of a cost matrix."""

from __future__ import annotations

import math
import numbers
import re
import sys
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from seekplan import _core
from seekplan.errors import ArgumentError, SeekplanError, quote, require_bool
from seekplan.io import MAX_INT, Request, RequestBatch, as_matrix, check_costs, write_row

if TYPE_CHECKING:
    import numpy as np

ALGORITHMS: tuple[str, ...] = tuple(_core.algorithms())
DEFAULT_ALGO = "best"
# The core's limits (order/options.rs, where each is explained), checked
# here before the arguments are converted for the core: a negative count or
# 1e300 seconds would fail that conversion with a message naming neither.
MAX_ITERATIONS: int = _core.MAX_ITERATIONS
MAX_TIME_LIMIT_S: float = _core.MAX_TIME_LIMIT_S
MAX_GAP: float = _core.MAX_GAP

# Called now and then during a long `best` run with
# (phase, best_total_s, bound_s, elapsed_s).
ProgressCallback = Callable[[str, float | None, float | None, float], None]


@dataclass
class OrderResult:
    """A served order: per-request rows, the total time and the CPU it took."""

    algo: str
    n: int
    total_s: float
    cpu_s: float
    positioning_s: float
    moves: str
    rows: list[dict[str, Any]] = field(default_factory=list)
    nodes: list[int] | None = None
    # Certified lower bound on any order's total (None above the core's
    # BOUND_LIMIT requests or with bound=False), and total / bound - 1.
    lower_bound_s: float | None = None
    gap: float | None = None
    # `best` only: why it stopped (optimal, gap, time, budget, cancelled,
    # streaming: see docs/ordering.md), seconds
    # from its start to its best tour, and the CPU seconds of each phase.
    stopped_because: str | None = None
    time_to_best_s: float | None = None
    phases_cpu_s: dict[str, float] | None = None

    def summary(self) -> dict[str, Any]:
        """The JSON object `seekplan order --json` prints."""
        out: dict[str, Any] = {
            "algo": self.algo,
            "n": self.n,
            "total_s": self.total_s,
            "cpu_s": self.cpu_s,
            "positioning_s": self.positioning_s,
            "moves": self.moves,
            "lower_bound_s": self.lower_bound_s,
            "gap": self.gap,
        }
        if self.stopped_because is not None:
            out["stopped_because"] = self.stopped_because
            out["time_to_best_s"] = self.time_to_best_s
            out["phases_cpu_s"] = self.phases_cpu_s
        out["order"] = self.nodes if self.nodes is not None else [r["id"] for r in self.rows]
        return out

    def write_summary(self, path: str | Path) -> None:
        """Writes the summary without the order (and the per-phase CPU) as a
        one-row CSV."""
        skip = ("order", "phases_cpu_s")
        write_row(path, {k: v for k, v in self.summary().items() if k not in skip})


def _check_algo(algo: str) -> None:
    if algo not in ALGORITHMS:
        raise SeekplanError(f"unknown algorithm {algo!r}; choose one of {', '.join(ALGORITHMS)}")


def whole_number(value: Any, what: str, minimum: int = 0) -> int:
    """``value`` as an int in [minimum, 2^63-1]: an int, or a float with no
    fractional part; anything else (1.9, "7", None, True) is an error naming ``what``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SeekplanError(f"{what}: {value!r} is not a number")
    if isinstance(value, numbers.Integral):
        number = int(value)
    elif math.isfinite(value) and float(value).is_integer():
        number = int(float(value))
    else:
        raise SeekplanError(f"{what}: {value!r} is not a whole number")
    if number < minimum or number > MAX_INT:
        raise SeekplanError(f"{what}: {number} must lie between {minimum} and {MAX_INT}")
    return number


def _as_request(i: int, r: Any) -> Request:
    # The common cases, an (id, block, size) tuple or a Request (what the
    # CSV reader makes) of a string and two ints in range, are checked by
    # exact types; the general checks below go through the numbers ABCs,
    # 3.7 s for a million requests, 1.2 s this way (benchmarks/RESULTS.md,
    # `bench_large_batch.py lto9 1000000 sltf`); a CSV of 100,000 requests
    # took 0.26 s there, 0.08 s here.
    if (type(r) is tuple or type(r) is Request) and len(r) == 3:
        rid, block, size = r
        if (
            type(rid) is str
            and rid
            and type(block) is int
            and type(size) is int
            and 0 <= block <= MAX_INT
            and 1 <= size <= MAX_INT
        ):
            return Request(rid, block, size)
    if isinstance(r, Request):
        rid, block, size = r.id, r.block, r.size
    elif isinstance(r, Mapping):
        missing = [k for k in ("id", "block", "size") if k not in r]
        if missing:
            raise SeekplanError(f"request {i}: missing key(s) {', '.join(missing)}")
        rid, block, size = r["id"], r["block"], r["size"]
    elif isinstance(r, Sequence) and not isinstance(r, str | bytes) and len(r) == 3:
        rid, block, size = r
    else:
        raise SeekplanError(
            f"request {i}: {r!r} is neither a Request, a mapping with id, block and size, "
            "nor an (id, block, size) triple"
        )
    if not isinstance(rid, str | int) or isinstance(rid, bool) or str(rid) == "":
        raise SeekplanError(f"request {i}: id {rid!r} must be a non-empty string or an integer")
    return Request(
        str(rid),
        whole_number(block, f"request {i} ({rid}): block"),
        whole_number(size, f"request {i} ({rid}): size", minimum=1),
    )


_REQUEST_ERROR = re.compile(r"^(?:[^:]*: )?request (\d+): (.*)$", re.S)


def _locate_error(message: str, given: Any, reqs: list[Request]) -> str:
    """The core's error about request N, said where the request came from:
    its file and line when it was read from one, else its index and id."""
    m = _REQUEST_ERROR.match(message)
    if m is None:
        return message
    i, rest = int(m.group(1)), m.group(2)
    where = given.where(i) if isinstance(given, RequestBatch) else None
    if where is not None:
        return f"{where}: column 'block': {rest}"
    rid = reqs[i].id if 0 <= i < len(reqs) else "?"
    return f"request {i} (id {rid!r}): {rest}"


def _options(
    seed: int | None,
    iterations: int | None,
    time_limit: float | None,
    bound: bool,
    gap: float,
    progress: ProgressCallback | None,
) -> dict[str, Any]:
    """Keyword arguments of the core's order functions (its default seed and
    kick budget when None)."""
    if progress is not None and not callable(progress):
        raise ArgumentError(f"progress: expected a function or None, got {quote(progress)}")
    if time_limit is not None and (
        isinstance(time_limit, bool) or not isinstance(time_limit, numbers.Real)
    ):
        raise ArgumentError(f"time limit: expected seconds or None, got {quote(time_limit)}")
    out: dict[str, Any] = {
        "time_limit": time_limit,
        "bound": require_bool(bound, "bound"),
        "progress": progress,
    }
    if iterations is not None:
        real = isinstance(iterations, numbers.Real) and not isinstance(iterations, bool)
        if real and not 0 <= iterations <= MAX_ITERATIONS:
            raise SeekplanError(f"iterations: {iterations} is not between 0 and {MAX_ITERATIONS:,}")
        out["iterations"] = whole_number(iterations, "iterations")
    if seed is not None:
        out["seed"] = whole_number(seed, "seed")
    if time_limit is not None and not 0 < time_limit <= MAX_TIME_LIMIT_S:
        raise SeekplanError(
            f"time limit: {time_limit} s is not between 0 and {MAX_TIME_LIMIT_S:,.0f} s (a day)"
        )
    if isinstance(gap, bool) or not isinstance(gap, numbers.Real) or not 0 <= gap <= MAX_GAP:
        raise SeekplanError(f"gap: {gap!r} is not a fraction between 0 and {MAX_GAP:g}")
    out["gap"] = float(gap)
    return out


def _result(algo: str, n: int, s: dict[str, Any], cpu: float, **extra: Any) -> OrderResult:
    """The core's schedule dictionary as an :class:`OrderResult`."""
    return OrderResult(
        algo,
        n,
        s["total_s"],
        cpu,
        s["position_s"],
        s["moves"],
        lower_bound_s=s["lower_bound_s"],
        gap=s["gap"],
        stopped_because=s.get("stopped_because"),
        time_to_best_s=s.get("time_to_best_s"),
        phases_cpu_s=s.get("phases_cpu_s"),
        **extra,
    )


def _as_requests(requests: Iterable[Request | Mapping[str, Any] | Sequence[Any]]) -> list[Request]:
    if isinstance(requests, str | bytes | Mapping) or not isinstance(requests, Iterable):
        raise SeekplanError(f"requests: {type(requests).__name__} is not a list of requests")
    return [_as_request(i, r) for i, r in enumerate(requests)]


def _as_costs(costs: Any) -> list[list[float]]:
    if isinstance(costs, str | bytes) or not isinstance(costs, Sequence):
        raise SeekplanError(f"costs: {type(costs).__name__} is not a list of rows")
    rows = []
    for i, row in enumerate(costs, start=1):
        if isinstance(row, str | bytes) or not isinstance(row, Sequence):
            raise SeekplanError(f"costs row {i}: {row!r} is not a list of numbers")
        for j, v in enumerate(row, start=1):
            if isinstance(v, bool) or not isinstance(v, numbers.Real):
                raise SeekplanError(f"costs row {i} column {j}: {v!r} is not a number")
        rows.append([float(v) for v in row])
    check_costs(rows, "costs")
    return rows


def order(
    requests: Iterable[Request | Mapping[str, Any] | Sequence[Any]],
    drive: str = "mlr1",
    algo: str = DEFAULT_ALGO,
    start: int = 0,
    end: int | None = None,
    track_starts: list[int] | None = None,
    capacity: int | None = None,
    devices: str | Path | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    bound: bool = True,
    iterations: int | None = None,
    cost: str = "drive",
    gap: float = 0.0,
    progress: ProgressCallback | None = None,
) -> OrderResult:
    """Orders ``requests`` (id, block, size in bytes) on a catalogued drive.

    ``start`` is the head's block (BOT by default); ``end`` a block the head
    must return to (e.g. 0 to rewind before unload); ``track_starts`` the
    tape's measured track start addresses (nominal when omitted) and
    ``capacity`` its measured blocks (the drive's nominal when omitted). ``seed``,
    ``iterations`` (kicks, at most :data:`MAX_ITERATIONS`) and ``time_limit`` (seconds, at
    most a day) steer `best`'s local search; `best` stops once its order is within ``gap``
    (a fraction; 0: proven optimal) of its lower bound, and calls ``progress`` now and
    then with (phase, best total, bound, elapsed seconds). ``bound``
    computes the lower bound and gap (off to time an algorithm alone).
    ``cost="seek"`` times every locate as the drive's seek alone (host software
    that never reads through a short gap; on a helical drive `best`'s order is
    then exact along the tape). ``cost="cta"`` orders and times every move by
    CERN CTA's published cost heuristic instead of the drive's model (LTO drives).
    """
    from seekplan.catalog import make_drive

    _check_algo(algo)
    reqs = _as_requests(requests)
    start = whole_number(start, "start")
    end = None if end is None else whole_number(end, "end")
    model = make_drive(
        drive, track_starts=track_starts, capacity=capacity, devices=devices, cost=cost
    )
    t0 = time.process_time()
    try:
        s = _core.order(
            model,
            [r.block for r in reqs],
            [r.size for r in reqs],
            algo,
            start=start,
            end=end,
            **_options(seed, iterations, time_limit, bound, gap, progress),
        )
    except ValueError as e:
        raise SeekplanError(_locate_error(str(e), requests, reqs)) from e
    cpu = time.process_time() - t0
    rows = [
        {
            "rank": rank,
            "id": reqs[j].id,
            "block": reqs[j].block,
            "size": reqs[j].size,
            "start_s": round(a, 6),
            "end_s": round(b, 6),
        }
        for rank, (j, a, b) in enumerate(zip(s["order"], s["start_s"], s["end_s"], strict=True))
    ]
    return _result(algo, len(reqs), s, cpu, rows=rows)


def order_matrix(
    costs: Sequence[Sequence[float]] | np.ndarray,
    algo: str = DEFAULT_ALGO,
    start: int = 0,
    end: int | None = None,
    seed: int | None = None,
    time_limit: float | None = None,
    bound: bool = True,
    iterations: int | None = None,
    gap: float = 0.0,
    progress: ProgressCallback | None = None,
) -> OrderResult:
    """Orders the nodes of a square matrix of locate times (row i, column j:
    seconds from i to j), head at node ``start``, finishing at ``end``;
    ``seed``, ``iterations``, ``time_limit``, ``bound``, ``gap`` and ``progress`` as for
    :func:`order`. ``costs`` is
    a list of rows or a numpy array (float32 or float64, lent to the core
    without a copy when C-ordered, e.g. ``numpy.load(path, mmap_mode="r")``)."""
    _check_algo(algo)
    # Only an array if numpy was imported: a CSV order need not import it.
    numpy = sys.modules.get("numpy")
    is_array = numpy is not None and isinstance(costs, numpy.ndarray)
    rows = as_matrix(cast("np.ndarray", costs), "costs") if is_array else _as_costs(costs)
    start = whole_number(start, "start")
    end = None if end is None else whole_number(end, "end")
    t0 = time.process_time()
    try:
        s = _core.order_costs(
            rows,
            algo,
            start=start,
            end=end,
            **_options(seed, iterations, time_limit, bound, gap, progress),
        )
    except ValueError as e:
        raise SeekplanError(str(e)) from e
    cpu = time.process_time() - t0
    return _result(algo, len(s["order"]), s, cpu, nodes=s["nodes"])
