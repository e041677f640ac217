"""The drives: one worker thread per drive driving the backend, and a
watchdog (:mod:`seekplan.serve.watchdog`) that ends reads, mounts and
unmounts past their deadline.

Whatever a backend call does -- returns, raises a :class:`BackendError`,
raises anything else, or never returns -- the file ends in a clear state:
COMPLETED, queued again under the ``retry:`` rule of its failure kind, or
FAILED with the error text, and its slot in the tape system is freed
(issue 35: a read error of another type left the file STARTED forever,
dCache #7744). A drive that fails goes out of service for
``drive_repair_s`` and its tape's files go to the other drives; a drive
whose call hangs is out of service until the call returns.

A file's moves are written through :class:`~seekplan.serve.moves.MoveWriter`
(tried again while the database fails). A database that refuses a move
outright fails the file with the database's reason instead: a read not yet
begun under its retry rule, a read done as FAILED saying it was read; a
failure whose text the database refuses is recorded with the refusal's
text. A file leaves memory only once its database row has moved (the
STARTED mark too), so a cancel during a drive's retry never sees the two
disagree. Error texts are stored as :mod:`~seekplan.serve.failures` says.
"""

from __future__ import annotations

import collections
import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Any

from seekplan.hardware import Hardware
from seekplan.serve.backend import Backend, ReadJob, positional_read_seconds
from seekplan.serve.clock import Clock
from seekplan.serve.db import COMPLETED, FAILED, STARTED, SUBMITTED
from seekplan.serve.failures import FailedFile, Failure, failure_of
from seekplan.serve.faults import ReadDeadline, RetryPolicy
from seekplan.serve.jobs import Job
from seekplan.serve.metrics import Stats
from seekplan.serve.moves import MoveRefused, MoveWriter
from seekplan.serve.scheduler import Scheduler
from seekplan.serve.store import Change, Store
from seekplan.serve.watchdog import Watchdog, WatchedCall

#: Failed files the status page lists (the most recent).
FAILED_SHOWN = 50

log = logging.getLogger("seekplan.serve")


class Drives(Watchdog):
    """The drive workers; the watchdog over their calls is :class:`Watchdog`'s."""

    def __init__(
        self,
        *,
        store: Store,
        backend: Backend,
        sched: Scheduler,
        clock: Clock,
        hardware: Hardware,
        stats: Stats,
        retry: RetryPolicy,
        deadline: ReadDeadline,
        drive_repair_s: float,
        mount_deadline_s: float = 10_800.0,
    ) -> None:
        self.store = store
        self.backend = backend
        self.sched = sched
        self.clock = clock
        self.hardware = hardware
        self.stats = stats
        self.retry = retry
        self.deadline = deadline
        self.drive_repair_s = drive_repair_s
        self.mount_deadline_s = mount_deadline_s
        #: The drives' writes of a file's move, tried again while the database fails.
        self.moves = MoveWriter(store, sched, stats, clock, lambda: self.stopping)
        self.paused = False
        self.stopping = False
        self.threads: list[threading.Thread] = []
        #: The most recent FAILED files, newest last.
        self.failed: collections.deque[FailedFile] = collections.deque(maxlen=FAILED_SHOWN)
        #: Per drive: the number of its current backend call, bumped when
        #: the watchdog gives up on it (a late return is then ignored).
        self.call_ids = [0] * len(sched.drives)
        #: Per drive: the read, mount or unmount it is in under the
        #: watchdog, if any.
        self.calls: list[WatchedCall | None] = [None] * len(sched.drives)

    # ---- threads ---------------------------------------------------------------

    def start(self) -> list[threading.Thread]:
        """Starts one worker per drive and the watchdog; returns the threads
        started (a thread the system refuses raises RuntimeError)."""
        targets: list[tuple[Callable[..., None], tuple[Any, ...], str]] = [
            (self._worker, (d,), f"drive-{d}") for d in range(len(self.sched.drives))
        ]
        targets.append((self._watchdog, (), "read-watchdog"))
        for fn, args, name in targets:
            t = threading.Thread(target=fn, args=args, name=name, daemon=True)
            t.start()
            self.threads.append(t)
        return self.threads

    def stop(self) -> None:
        """Stops the workers (a file being read stays STARTED; it is read
        again after a restart)."""
        self.stopping = True
        self.clock.halt()
        with self.sched.lock:
            self.clock.notify_all(self.sched.wake)
        for t in self.threads:
            t.join(timeout=10)

    def pause(self, paused: bool) -> None:
        """Takes the drives down (they finish the file in hand) or brings them back."""
        with self.sched.lock:
            self.paused = paused
            self.clock.notify_all(self.sched.wake)

    def notify(self) -> None:
        """Wakes idle drives (new work). Caller holds the scheduler's lock."""
        self.clock.notify_all(self.sched.wake)

    # ---- the worker loop ---------------------------------------------------------

    def _wait_s(self, now: float) -> float:
        wake = self.sched.next_wake(now)
        real = 1.0 if wake is None else max(0.001, wake / self.clock.scale)
        return min(real, 1.0)

    def _worker(self, d: int) -> None:
        with self.clock.worker():
            self._drive(d)

    def _drive(self, d: int) -> None:
        while not self.stopping:
            try:
                with self.sched.lock:
                    now = self.clock.now()
                    action = None if self.paused else self.sched.next_action(d, now)
                    if action is None:
                        self.clock.wait(self.sched.wake, self._wait_s(now))
                        continue
            except Exception as e:  # a bug in the scheduler: the drive looks again
                if self.stopping:
                    return
                log.exception("drive %d: choosing its next step failed", d)
                self._rest_after(d, e)
                continue
            try:
                if action.kind == "plan":
                    assert action.batch is not None
                    self._plan(d, action.batch)
                elif action.kind == "switch":
                    assert action.tape is not None
                    self._switch(d, action.tape)
                else:
                    assert action.job is not None
                    self._read(d, action.job)
            except Exception as e:  # a bug: never kill the drive silently
                if self.stopping:
                    return
                log.exception("drive %d: %s failed", d, action.kind)
                if action.job is not None:
                    self._read_broke(d, action.job, e)
                self._rest_after(d, e)

    def _rest_after(self, d: int, e: Exception) -> None:
        """Drive ``d`` shows the bug ``e`` and waits a second of real time
        before it looks for work again."""
        with self.sched.lock:
            self.sched.drives[d].activity = f"error: {e}"
        with self.clock.idle():
            self.clock.stop.wait(1.0)

    def _plan(self, d: int, batch: list[Job]) -> None:
        try:
            plan = self.sched.order(batch, self.sched.drives[d].head)
        except Exception:  # an ordering that fails must not strand the batch
            plan = sorted(batch, key=lambda j: j.block)
        with self.sched.lock:
            self.sched.install(d, plan)

    # ---- mounts ------------------------------------------------------------------

    def _switch(self, d: int, tape: int) -> None:
        drive = self.sched.drives[d]
        if drive.mounted is not None:
            drive.activity = "unmounting"
            old = drive.mounted
            try:
                if not self._robot_call(d, old, False):
                    return  # given up: the watchdog took the drive out
            except Exception as e:
                self._drive_failed(d, failure_of(e))
                return
            with self.sched.lock:
                self.sched.unmounted(d)
        if self.stopping:
            return
        drive.activity = "mounting"
        try:
            if not self._robot_call(d, tape, True):
                return
        except Exception as e:
            self._mount_failed(d, tape, failure_of(e))
            return
        self.stats.mounts.inc()
        with self.sched.lock:
            self.sched.mounted(d, tape)

    def _robot_call(self, d: int, tape: int, mount: bool) -> bool:
        """Drive ``d`` mounts (or unmounts) ``tape`` under the watchdog's
        deadline (:attr:`mount_deadline_s`); whether the call counts: False
        when it returned after the watchdog gave up on it, and then a late
        mount is undone, so that the drive is back empty, as the scheduler
        has it. Raises what the call raises, in time."""
        name = self.sched.tape_names[tape]
        with self.sched.lock:
            my_id = self.call_ids[d]
            now = self.clock.now()
            self.calls[d] = WatchedCall(now, now + self.mount_deadline_s, tape=tape, mount=mount)
        error: Exception | None = None
        try:
            (self.backend.mount if mount else self.backend.unmount)(d, name)
        except Exception as e:
            error = e
        with self.sched.lock:
            self.calls[d] = None
            given_up = self.call_ids[d] != my_id
        if not given_up:
            if error is not None:
                raise error
            return True
        if mount and error is None and not self.stopping:
            try:
                self.backend.unmount(d, name)  # the cartridge goes back to its slot
            except Exception:
                log.exception("drive %d: unmounting tape %s after a late mount failed", d, name)
        with self.sched.lock:
            self._back_in_service(d)
        return False

    def _back_in_service(self, d: int) -> None:
        """Drive ``d``'s call that the watchdog gave up on has returned: the
        drive is back, empty. Caller holds the scheduler's lock."""
        drive = self.sched.drives[d]
        drive.down_until = None
        drive.activity = "empty"
        self.notify()

    def _drive_failed(self, d: int, failure: Failure) -> None:
        with self.sched.lock:
            self._take_out(d, failure)

    def _take_out(self, d: int, failure: Failure) -> None:
        """Drive ``d`` out of service for ``drive_repair_s``, its tape and
        planned files to the others, counted. Caller holds the scheduler's lock."""
        self.sched.drive_failed(d, self.clock.now() + self.drive_repair_s)
        self.sched.drives[d].activity = f"failed: {failure.error}"
        self.stats.drive_failures.inc()
        self.notify()

    def _mount_failed(self, d: int, tape: int, failure: Failure) -> None:
        """A mount failed: the drive's own failure takes the drive out; any
        other is counted against the tape, which fails its files once the
        rule's attempts are spent."""
        if failure.kind == "drive":
            self._drive_failed(d, failure)
            return
        with self.sched.lock:
            spent = self._count_mount_failure(d, tape, failure.kind, self.clock.now())
            self.notify()
        if spent:
            self._fail_tape(tape, failure.error)

    def _count_mount_failure(self, d: int, tape: int, kind: str, now: float) -> bool:
        """Drive ``d`` failed to mount ``tape`` (a ``kind`` failure): the tape
        is free again after the rule's back-off, and the failure counted;
        whether the rule's attempts are spent (the caller then fails the
        tape's files, after letting go of the scheduler's lock, which it
        holds here)."""
        rule = self.retry.rule(kind)
        self.stats.mount_failures.inc()
        return self.sched.mount_failed(d, tape, kind, now + rule.backoff_s) >= rule.attempts

    def _fail_tape(self, tape: int, error: str) -> None:
        """The tape cannot be mounted: its queued files fail with ``error``."""
        with self.store.wlock:
            with self.sched.lock:
                q = self.sched.tapes[tape]
                jobs = list(q.jobs.values())
                for job in jobs:
                    self.sched.drop(job.path)
                q.mount_failures.clear()
                changes = [
                    (fid, rid, st, FAILED, error) for j in jobs for fid, (rid, st) in j.rows.items()
                ]
                for j in jobs:
                    j.rows.clear()
            self._record_failed(changes, jobs, error)

    def _record_failed(self, changes: Sequence[Change], jobs: list[Job], error: str) -> None:
        """Commits ``changes`` (each to FAILED) and lists ``jobs`` as failed
        with ``error``. Where the database refuses the text, the refusal's
        text is recorded instead; where it refuses that too, the rows stay
        as they are in the database (read again after a restart), logged."""
        if changes:
            try:
                self.moves.commit(changes, None)
            except MoveRefused as e:
                error = f"FAILED, but the database refused its error text: {e}"
                try:
                    self.moves.commit(
                        [(fid, rid, st, FAILED, error) for fid, rid, st, *_ in changes], None
                    )
                except MoveRefused:
                    log.error(
                        "the database refused to record files %s FAILED",
                        sorted(fid for fid, *_ in changes),
                    )
                    return
            self.stats.failed.inc(len(changes))
        now = time.time()
        for job in jobs:
            self.failed.append(FailedFile(job.path, self.sched.tape_names[job.tape], error, now))

    # ---- the database ----------------------------------------------------------------

    def evict(self, path: str) -> None:
        """Has the backend drop the buffer copy of ``path``; a backend that
        fails to is logged and counted, and the copy stays (no longer
        pinned): the failure was the caller's before, and ended a release
        request in a 500 or the pin reaper's thread for good."""
        try:
            self.backend.evict(path)
        except Exception:
            log.exception("dropping the buffer copy of %s failed; it stays in the buffer", path)
            self.stats.evict_failures.inc()

    # ---- reads -------------------------------------------------------------------

    def estimate_s(self, job: ReadJob) -> float:
        """Seconds the backend takes for ``job``: its own timing where it has
        one (the simulated backend's read model), else the drive's locate
        plus a transfer at the library's rate."""
        timed = getattr(self.backend, "read_seconds", None)
        if timed is not None:
            return float(timed(job))
        rate = float(self.hardware["drive"]["rate_bps"])
        return positional_read_seconds(self.sched.model, rate, job.head, job.block, job.size)

    def _read(self, d: int, job: Job) -> None:
        drive = self.sched.drives[d]
        # The rows move in memory once the database has them STARTED: a
        # cancel while the drive waits for the database (the store's lock let
        # go) sees them SUBMITTED in both.
        with self.store.wlock:
            with self.sched.lock:
                fresh = [(fid, rid) for fid, (rid, st) in job.rows.items() if st == SUBMITTED]
                read = ReadJob(
                    job.path,
                    self.sched.tape_names[job.tape],
                    job.block,
                    job.size,
                    drive.head,
                    self.sched.session_bytes(d, job),
                )
                my_id = self.call_ids[d]
            if fresh:
                try:
                    self.moves.commit(
                        [(fid, rid, SUBMITTED, STARTED, None) for fid, rid in fresh], d
                    )
                except MoveRefused as e:
                    self._fail_or_retry(
                        d, job, Failure("other", f"the database refused to record the read: {e}")
                    )
                    return
            with self.sched.lock:
                for fid, rid in fresh:
                    if job.rows.get(fid) == (rid, SUBMITTED):
                        job.rows[fid] = (rid, STARTED)
                if self.sched.jobs.get(job.path) is not job:
                    # Every row was cancelled before the read began (while the
                    # drive waited for the database, or for the store's lock).
                    self.sched.finished(d, job)
                    drive.activity = "idle"
                    self.notify()
                    return
        failure = None
        try:
            estimate = self.estimate_s(read)
            with self.sched.lock:
                t0 = self.clock.now()
                drive.read_started, drive.read_estimate_s = t0, estimate
                drive.activity = "reading"
                self.calls[d] = WatchedCall(t0, t0 + self.deadline.seconds(estimate), job=job)
            self.backend.read(d, read)
        except Exception as e:
            failure = failure_of(e)
        if self.stopping:
            return  # left STARTED: read again after the restart
        with self.sched.lock:
            given_up = self.call_ids[d] != my_id
            self.calls[d] = None
            if given_up:
                self._back_in_service(d)
        if given_up:
            if failure is None and job.path not in self.store.disk:
                self.evict(job.path)  # a late copy nobody counts on
            return
        if failure is None:
            self._completed(d, job)
        else:
            self._failed(d, job, failure)

    def _read_broke(self, d: int, job: Job, e: Exception) -> None:
        """An exception escaped drive ``d``'s read of ``job`` (a bug): unless
        its outcome was recorded first, the read failed with it, so that the
        file is not left STARTED with nothing to finish it."""
        with self.store.wlock:
            with self.sched.lock:
                if self.sched.drives[d].current is not job:
                    return
                self.calls[d] = None
            self._fail_or_retry(d, job, failure_of(e))

    def _completed(self, d: int, job: Job) -> None:
        """The read is whole: its rows are COMPLETED and pin the copy, but
        for rows released meanwhile. The store's lock is held from taking the
        rows to committing them, so a release sees a row either still in the
        job or committed with its pin, never in between."""
        with self.store.wlock:
            with self.sched.lock:
                self.sched.finished(d, job)
                rows = list(job.rows.items())
                pin = dict.fromkeys(job.pins(), job.path)
                job.rows.clear()
                self.notify()
            refused = None
            if rows:
                try:
                    self.moves.commit(
                        [(fid, rid, st, COMPLETED, None) for fid, (rid, st) in rows], d, pin
                    )
                except MoveRefused as e:
                    refused = f"read, but the database refused to record it COMPLETED: {e}"
                    self._record_failed(
                        [(fid, rid, st, FAILED, refused) for fid, (rid, st) in rows], [job], refused
                    )
            unwanted = job.path not in self.store.disk
        if unwanted:
            self.evict(job.path)  # nobody wants it any more
        self.stats.bytes_read.inc(job.size)
        if refused is None:
            self.stats.staged.inc(len(rows))

    def _failed(self, d: int, job: Job, failure: Failure) -> None:
        """A read failed: the drive goes out of service if it was the
        drive's fault (or a hang); the file is queued again while its rule
        allows, else its rows end FAILED."""
        with self.store.wlock:
            self._fail_or_retry(d, job, failure)

    def _fail_or_retry(self, d: int, job: Job, failure: Failure) -> None:
        rule = self.retry.rule(failure.kind)
        with self.sched.lock:
            now = self.clock.now()
            failures = job.failed(failure.kind)
            # A read the watchdog gave up on may have returned meanwhile and
            # the drive moved on: then the drive is fine and keeps its work.
            if failure.kind in ("drive", "timeout") and self.sched.drives[d].current is job:
                self._take_out(d, failure)
            wanted = self.sched.jobs.get(job.path) is job
            if wanted and failures < rule.attempts:
                self.sched.retry(d, job, now + rule.backoff_s)
                self.notify()
                self.stats.retries.inc()
                return
            self.sched.finished(d, job)
            rows = list(job.rows.items())
            job.rows.clear()
            self.notify()
        error = failure.error
        if job.attempts_failed > 1:
            error = f"{error} (after {job.attempts_failed} attempts)"
        changes = [(fid, rid, st, FAILED, error) for fid, (rid, st) in rows]
        self._record_failed(changes, [job], error)
