"""The watchdog over the drives' backend calls: it gives up on a read, a
mount or an unmount that passes its deadline. The file of a read is retried
or FAILED as a ``timeout``; a mount counts as a failed mount of its tape;
either way the drive, whose thread is still in the call, is out of service
until the call returns (its late return is then ignored: the call's number
in ``call_ids`` has moved on). Split from :mod:`seekplan.serve.drives`,
whose :class:`~seekplan.serve.drives.Drives` it is a part of: the workers
there start each call under the watchdog (``calls``) and end it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Protocol

from seekplan.serve.clock import Clock
from seekplan.serve.failures import Failure
from seekplan.serve.faults import ReadDeadline
from seekplan.serve.jobs import Job
from seekplan.serve.scheduler import Scheduler

#: Longest real-time pause of the watchdog between two looks (seconds).
WATCHDOG_POLL_S = 0.25

log = logging.getLogger("seekplan.serve")


@dataclass(frozen=True)
class WatchedCall:
    """A backend call a drive is in, which the watchdog gives up on at
    ``due`` (virtual seconds): a read of ``job``, or else a mount (or an
    unmount, when not ``mount``) of ``tape``."""

    #: When the call began and when it is given up (virtual seconds).
    started: float
    due: float
    #: The job of a read; None for a mount or unmount.
    job: Job | None = None
    #: The tape a mount or unmount moves (unused for a read).
    tape: int = -1
    mount: bool = False


class _WatchedDrives(Protocol):
    """What the watchdog reads and calls of the drives it watches."""

    sched: Scheduler
    clock: Clock
    deadline: ReadDeadline
    mount_deadline_s: float
    stopping: bool
    call_ids: list[int]
    calls: list[WatchedCall | None]

    def _count_mount_failure(self, d: int, tape: int, kind: str, now: float) -> bool: ...

    def _take_out(self, d: int, failure: Failure) -> None: ...

    def _fail_tape(self, tape: int, error: str) -> None: ...

    def _failed(self, d: int, job: Job, failure: Failure) -> None: ...

    def _robot_timed_out(self, d: int, tape: int, mount: bool, now: float) -> str | None: ...

    def _end_overdue_reads(self) -> float | None: ...


class Watchdog:
    """The watchdog's part of :class:`~seekplan.serve.drives.Drives` (a
    mixin: its methods run on the drives' state, see :class:`_WatchedDrives`)."""

    def _robot_timed_out(
        self: _WatchedDrives, d: int, tape: int, mount: bool, now: float
    ) -> str | None:
        """A mount or unmount of ``tape`` on drive ``d`` passed its deadline:
        the drive, whose thread is still in the call, is out of service
        until it returns; a mount also counts as a failed mount of the tape.
        The error its files FAIL with once the ``mount`` rule's attempts are
        spent, else None. Caller holds the scheduler's lock (and records the
        tape's failure after letting it go: the store's lock comes first)."""
        what = "mount" if mount else "unmount"
        error = (
            f"{what} of tape {self.sched.tape_names[tape]} on drive {d} did not finish within "
            f"{self.mount_deadline_s:,.0f} s; drive {d} is out of service until the call returns"
        )
        log.error("%s", error)
        spent = mount and self._count_mount_failure(d, tape, "mount", now)
        self._take_out(d, Failure("mount", error))
        return error if spent else None

    def _watchdog(self: _WatchedDrives) -> None:
        """Ends every read that passes its deadline: the file is retried or
        FAILED as a ``timeout``, and the drive, whose thread is still stuck
        in the backend, is out of service until the call returns."""
        while not self.stopping:
            try:
                nearest = self._end_overdue_reads()
            except Exception:  # a bug: the watchdog must outlive it
                log.exception("read watchdog")
                nearest = None
            wait = WATCHDOG_POLL_S if nearest is None else nearest / self.clock.scale
            self.clock.stop.wait(min(WATCHDOG_POLL_S, max(0.001, wait)))

    def _end_overdue_reads(self: _WatchedDrives) -> float | None:
        """Fails (or retries) every read past its deadline, and gives up on
        every mount and unmount past its own; the virtual seconds to the
        nearest deadline left, if any."""
        overdue: list[tuple[int, Job, float]] = []
        unmountable: list[tuple[int, str]] = []
        with self.sched.lock:
            now = self.clock.now()
            nearest = None
            for d, call in enumerate(self.calls):
                if call is None:
                    continue
                if now < call.due:
                    if nearest is None or call.due - now < nearest:
                        nearest = call.due - now
                    continue
                self.call_ids[d] += 1
                self.calls[d] = None
                if call.job is not None:
                    overdue.append((d, call.job, call.due - call.started))
                    continue
                error = self._robot_timed_out(d, call.tape, call.mount, now)
                if error is not None:
                    unmountable.append((call.tape, error))
        for tape, error in unmountable:
            self._fail_tape(tape, error)
        for d, job, limit in overdue:
            self._failed(
                d,
                job,
                Failure(
                    "timeout",
                    f"read did not finish within {limit:,.0f} s (its deadline: "
                    f"{self.deadline.factor:g} x its estimate + {self.deadline.floor_s:g} s); "
                    f"drive {d} is out of service until the call returns",
                ),
            )
        return nearest
