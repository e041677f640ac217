"""The requester: the first of the scheduler's three layers, which holds the
files clients asked for and decides which to pass on to the tape system, and
when. One of the recall simulator's strategies, run live by the core
(``_core.Requester``), behind the :class:`Requester` protocol."""

from __future__ import annotations

import json
from typing import Any, Protocol

import numpy as np

from seekplan import _core
from seekplan.serve.catalog import Catalog


class Requester(Protocol):
    """The requester: files arrive, and the strategy releases them to the tape system."""

    def arrive(self, key: int, tape: int, block: int, size: int, now: float) -> None:
        """A file is requested at ``now`` (virtual seconds) under ``key``."""

    def take(self, now: float) -> int | None:
        """The key (``seq``) of the next file to pass on, if the strategy releases one now."""

    def next_wake(self) -> float | None:
        """Virtual seconds after which to ask again although nothing happened."""

    def set_parallel_tapes(self, tapes: int) -> None:
        """by-tapes passes on ``tapes`` tapes in parallel from now on."""


class CoreRequester:
    """The core's live requester (``_core.Requester``): a recall strategy,
    the same code the recall simulations run."""

    def __init__(
        self, strategy: dict[str, Any], capacity: list[int], used: list[int], seed: int
    ) -> None:
        self.inner = _core.Requester(json.dumps(strategy), capacity, used, seed)

    def arrive(self, key: int, tape: int, block: int, size: int, now: float) -> None:
        """Hands the file to the strategy under its key."""
        self.inner.arrive(key, tape, block, size, now)

    def take(self, now: float) -> int | None:
        """The key of the file the strategy releases now, if any."""
        out = self.inner.take(now)
        return None if out is None else out[0]

    def next_wake(self) -> float | None:
        """When the strategy's time-based rules want to be asked again."""
        return self.inner.next_wake()

    def set_parallel_tapes(self, tapes: int) -> None:
        """by-tapes passes on ``tapes`` tapes in parallel from now on (the
        active ones are passed on to their end, whatever the number)."""
        self.inner.set_parallel_tapes(tapes)


def make_requester(
    strategy: dict[str, Any], catalog: Catalog, block_bytes: int, capacity: int, seed: int
) -> Requester:
    """The requester for a recall strategy (as the core checked it; `fifo`
    is by-dataset, arrival order). Tapes hold ``capacity`` bytes; a tape's
    used bytes are taken as the end of its last catalogued file (strategies
    that weigh requested volume against them use both)."""
    ends = np.zeros(len(catalog.tapes), dtype=np.int64)
    np.maximum.at(ends, catalog.tape_of, catalog.block * block_bytes + catalog.size)
    used = [int(u) for u in ends]
    return CoreRequester(strategy, [max(capacity, u) for u in used], used, seed)
