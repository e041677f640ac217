"""Ordering a batch of reads on one tape, or the nodes of a cost matrix."""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from seekplan import _core
from seekplan.catalog import make_drive
from seekplan.errors import SeekplanError
from seekplan.io import Request

ALGORITHMS: tuple[str, ...] = tuple(_core.algorithms())
DEFAULT_ALGO = "best"


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

    def summary(self) -> dict[str, Any]:
        """The JSON object `seekplan order --json` prints."""
        out: dict[str, Any] = {
            "algo": self.algo,
            "n": self.n,
            "total_s": self.total_s,
            "cpu_s": self.cpu_s,
            "positioning_s": self.positioning_s,
            "moves": self.moves,
        }
        out["order"] = self.nodes if self.nodes is not None else [r["id"] for r in self.rows]
        return out


def _check_algo(algo: str) -> None:
    if algo not in ALGORITHMS:
        raise SeekplanError(f"unknown algorithm {algo!r}; choose one of {', '.join(ALGORITHMS)}")


def _as_requests(requests: Iterable[Request | Mapping[str, Any] | Sequence[Any]]) -> list[Request]:
    out = []
    for i, r in enumerate(requests):
        if isinstance(r, Request):
            out.append(r)
        elif isinstance(r, Mapping):
            out.append(Request(str(r["id"]), int(r["block"]), int(r["size"])))
        else:
            rid, block, size = r
            out.append(Request(str(rid), int(block), int(size)))
        if out[-1].block < 0 or out[-1].size <= 0:
            raise SeekplanError(f"request {i} ({out[-1].id}): block must be >= 0 and size > 0")
    return out


def order(
    requests: Iterable[Request | Mapping[str, Any] | Sequence[Any]],
    drive: str = "mlr1",
    algo: str = DEFAULT_ALGO,
    start: int = 0,
    end: int | None = None,
    track_starts: list[int] | None = None,
    devices: str | Path | None = None,
) -> OrderResult:
    """Orders ``requests`` (id, block, size in bytes) on a catalogued drive.

    ``start`` is the head's block (BOT by default); ``end`` a block the head
    must return to (e.g. 0 to rewind before unload); ``track_starts`` the
    tape's measured track start addresses (nominal when omitted).
    """
    _check_algo(algo)
    reqs = _as_requests(requests)
    model = make_drive(drive, track_starts=track_starts, devices=devices)
    t0 = time.process_time()
    try:
        s = _core.order(
            model, [r.block for r in reqs], [r.size for r in reqs], algo, start=start, end=end
        )
    except ValueError as e:
        raise SeekplanError(str(e)) from e
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
    return OrderResult(algo, len(reqs), s["total_s"], cpu, s["position_s"], s["moves"], rows)


def order_matrix(
    costs: Sequence[Sequence[float]],
    algo: str = DEFAULT_ALGO,
    start: int = 0,
    end: int | None = None,
) -> OrderResult:
    """Orders the nodes of a square matrix of locate times (row i, column j:
    seconds from i to j), head at node ``start``, finishing at ``end``."""
    _check_algo(algo)
    t0 = time.process_time()
    try:
        s = _core.order_costs([list(map(float, row)) for row in costs], algo, start=start, end=end)
    except ValueError as e:
        raise SeekplanError(str(e)) from e
    cpu = time.process_time() - t0
    return OrderResult(
        algo, len(s["order"]), s["total_s"], cpu, s["position_s"], s["moves"], nodes=s["nodes"]
    )
