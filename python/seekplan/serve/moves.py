"""A drive's writes of a file's move (STARTED, COMPLETED, FAILED) to the
database, on a bad day. A database that fails (an outage) is tried again
until it answers or the service stops, when the file stays STARTED and is
read again after the restart: the move was lost before, and the file stayed
STARTED with nothing left to finish it (seen once in CI under load). A
database that refuses a move outright (an error trying again cannot mend) is
a :class:`MoveRefused`, which the drive turns into the file's failure."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence

import sqlalchemy as sa

from seekplan.serve.clock import Clock
from seekplan.serve.failures import storable_text
from seekplan.serve.metrics import Stats
from seekplan.serve.problems import storage_detail
from seekplan.serve.scheduler import Scheduler
from seekplan.serve.store import Change, Store

#: Real seconds before a drive tries a failed database write again, the
#: first time and at most (doubling in between): an outage of a second is
#: written within 0.1 s of its end, a long one costs a try every 5 s.
DB_RETRY_FIRST_S = 0.1
DB_RETRY_MAX_S = 5.0
#: Database errors a write is tried again after: the server or file is
#: unreachable, busy or failing, or no pooled connection came free. Any
#: other error is a refusal (:class:`MoveRefused`): the file fails saying so.
TRANSIENT_DB_ERRORS = (sa.exc.OperationalError, sa.exc.InterfaceError, sa.exc.TimeoutError)

log = logging.getLogger("seekplan.serve")


class MoveRefused(Exception):
    """The database refused a drive's write with an error that trying again
    cannot mend; its text is the database's reason."""


class MoveWriter:
    """Writes the drives' moves through ``store``, trying again while the
    database fails; ``stopping`` says when the service is stopping."""

    def __init__(
        self,
        store: Store,
        sched: Scheduler,
        stats: Stats,
        clock: Clock,
        stopping: Callable[[], bool],
    ) -> None:
        self.store = store
        self.sched = sched
        self.stats = stats
        self.clock = clock
        self.stopping = stopping

    def commit(
        self, changes: Sequence[Change], d: int | None, pin: dict[int, str] | None = None
    ) -> None:
        """``store.transition(changes)``, tried again while the database
        fails (drive ``d``'s status says so meanwhile) until it answers or
        the service stops. The caller holds the store's lock once; it is
        let go while the drive waits to try again, so that a stage request
        meanwhile gets its own answer (its 503) rather than waiting for the
        database behind the drive. A retry is safe: a failed transaction
        moved nothing, or everything where only the commit's answer was lost
        (the retry counts the files it finds moved), and a move is made only
        where a file is still in its old state (a cancel that came first
        wins). Any other error is a refusal: logged, counted and raised as
        :class:`MoveRefused`."""
        wait = DB_RETRY_FIRST_S
        again = False
        while True:
            try:
                self.store.transition(changes, time.time(), pin, again=again)
                return
            except TRANSIENT_DB_ERRORS as e:
                if self.stopping():
                    raise
                problem = storage_detail(e)
                log.warning("database write failed (%s); trying again in %g s", problem, wait)
                self.stats.db_write_failures.inc()
                if d is not None:
                    with self.sched.lock:
                        self.sched.drives[d].activity = f"database failing: {problem}"
                self.store.wlock.release()
                try:
                    with self.clock.idle():
                        self.clock.stop.wait(wait)
                finally:
                    self.store.wlock.acquire()
                wait = min(2 * wait, DB_RETRY_MAX_S)
                again = True
            except Exception as e:
                log.exception("the database refused a move to %s", changes[0][3])
                self.stats.db_write_failures.inc()
                raise MoveRefused(storable_text(storage_detail(e))) from e
