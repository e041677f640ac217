"""The service's clocks: what "now" is for the drives, and how they wait.

- :class:`Clock` is real time times ``scale``; backends that drive real
  hardware (LTFS) run on it at 1x.
- :class:`ModelledClock` is the simulated backend's: virtual time runs at
  ``scale`` times real time, but only while every drive worker is waiting
  (in a modelled step, for work, or for a robot arm). While a worker computes
  (orders a batch, commits to the database, waits for a lock) the clock
  stands still, so the service's own CPU time is never counted as drive time,
  and a modelled step ends exactly at its modelled time: a read of ``s``
  seconds started at ``t`` returns at ``t + s`` whatever the machine's load.

A drive worker runs inside :meth:`Clock.worker`; it waits with
:meth:`Clock.sleep` (a modelled step), :meth:`Clock.wait` (for another thread's
:meth:`Clock.notify_all` on a condition: new work, a free robot arm) or inside
:meth:`Clock.idle` (any other blocking wait). Threads that are not workers
(HTTP handlers) read :meth:`Clock.now` and notify.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager


class Clock:
    """Virtual seconds since start, running ``scale`` times real time."""

    def __init__(self, scale: float) -> None:
        #: Virtual seconds per real second.
        self.scale = scale
        #: Set when the service stops: waits return early.
        self.stop = threading.Event()
        self._t0 = time.monotonic()

    def now(self) -> float:
        """Virtual seconds since the clock started."""
        return (time.monotonic() - self._t0) * self.scale

    def sleep(self, seconds: float) -> None:
        """Waits ``seconds`` of virtual time (returns early when stopping)."""
        if seconds > 0:
            self.stop.wait(seconds / self.scale)

    @contextmanager
    def worker(self) -> Iterator[None]:
        """Runs the block as a drive worker (nothing to track in real time)."""
        yield

    @contextmanager
    def idle(self) -> Iterator[None]:
        """A worker's blocking wait that is not a modelled step (nothing to
        track in real time)."""
        yield

    def wait(self, cond: threading.Condition, timeout: float | None) -> None:
        """``cond.wait(timeout)`` (``cond``'s lock held) as a worker's wait
        for :meth:`notify_all`."""
        cond.wait(timeout)

    def notify_all(self, cond: threading.Condition) -> None:
        """``cond.notify_all()`` (``cond``'s lock held)."""
        cond.notify_all()

    def halt(self) -> None:
        """Stops: every wait returns."""
        self.stop.set()


class _Waiter:
    """A worker in :meth:`ModelledClock.wait`; ``woken`` once a notify has
    counted it as computing again."""

    __slots__ = ("woken",)

    def __init__(self) -> None:
        self.woken = False


class ModelledClock(Clock):
    """Virtual time that advances only while no drive worker computes.

    The clock runs at ``scale`` times real time while every registered worker
    waits, never past the earliest pending :meth:`sleep` deadline; the worker
    whose deadline it reaches holds it there until it waits again. A
    :meth:`notify_all` counts the workers it wakes as computing at once, so
    the clock stops at the notify, not when the woken threads get a CPU.
    Only a worker ending an :meth:`idle` wait, or a :meth:`wait` that times
    out, resumes the count when it runs: real time leaks in there, a thread's
    scheduling latency times ``scale``."""

    def __init__(self, scale: float) -> None:
        super().__init__(scale)
        self._cond = threading.Condition()
        self._busy = 0
        self._base_v = 0.0
        self._base_t = time.monotonic()
        self._deadlines: list[tuple[float, int]] = []
        self._ids = itertools.count()
        self._local = threading.local()
        self._waiters: dict[int, list[_Waiter]] = {}

    def _now(self) -> float:
        if self._busy > 0:
            return self._base_v
        v = self._base_v + (time.monotonic() - self._base_t) * self.scale
        return min(v, self._deadlines[0][0]) if self._deadlines else v

    def _set_busy(self, delta: int) -> None:
        """Changes the number of computing workers; the lock is held."""
        self._base_v = self._now()
        self._base_t = time.monotonic()
        self._busy += delta
        if self._busy == 0:
            self._cond.notify_all()

    def now(self) -> float:
        """Virtual seconds since the clock started."""
        with self._cond:
            return self._now()

    def sleep(self, seconds: float) -> None:
        """Waits until the clock reaches now + ``seconds`` (returns early when
        stopping); the clock then stands at exactly that time."""
        if seconds <= 0:
            return
        if not getattr(self._local, "worker", False):
            with self.worker():
                self.sleep(seconds)
            return
        with self._cond:
            key = (self._now() + seconds, next(self._ids))
            heapq.heappush(self._deadlines, key)
            self._set_busy(-1)
            try:
                while not self.stop.is_set():
                    v = self._now()
                    if v >= key[0] and self._deadlines[0] == key:
                        break
                    running = self._busy == 0
                    self._cond.wait((key[0] - v) / self.scale if running else None)
            finally:
                self._set_busy(+1)
                self._deadlines.remove(key)
                heapq.heapify(self._deadlines)
                self._cond.notify_all()

    @contextmanager
    def worker(self) -> Iterator[None]:
        """Counts the calling thread as a computing worker for the block (a
        thread that sleeps without being one is counted for its sleep)."""
        with self._cond:
            self._set_busy(+1)
        self._local.worker = True
        try:
            yield
        finally:
            self._local.worker = False
            with self._cond:
                self._set_busy(-1)

    @contextmanager
    def idle(self) -> Iterator[None]:
        """Lets the clock run while the worker waits in the block (nothing
        for a thread that is not a worker)."""
        if not getattr(self._local, "worker", False):
            yield
            return
        with self._cond:
            self._set_busy(-1)
        try:
            yield
        finally:
            with self._cond:
                self._set_busy(+1)

    def wait(self, cond: threading.Condition, timeout: float | None) -> None:
        """Waits on ``cond`` (its lock held) with the clock running; a
        :meth:`notify_all` on it stops the clock for this worker at once."""
        if not getattr(self._local, "worker", False):
            cond.wait(timeout)
            return
        me = _Waiter()
        with self._cond:
            self._waiters.setdefault(id(cond), []).append(me)
            self._set_busy(-1)
        cond.wait(timeout)
        with self._cond:
            if not me.woken:  # timed out: nobody counted it
                self._waiters[id(cond)].remove(me)
                self._set_busy(+1)

    def notify_all(self, cond: threading.Condition) -> None:
        """Wakes every worker waiting on ``cond`` (its lock held), counting
        them as computing from now."""
        with self._cond:
            woken = self._waiters.pop(id(cond), [])
            for w in woken:
                w.woken = True
            if woken:
                self._set_busy(len(woken))
        cond.notify_all()

    def halt(self) -> None:
        """Stops: every wait returns."""
        with self._cond:
            self.stop.set()
            self._cond.notify_all()
