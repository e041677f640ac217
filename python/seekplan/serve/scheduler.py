"""Which file a drive reads next: the requester, the tape-system queue and the
per-tape read plans.

Three layers, as in the recall simulator (Morschel et al., Figure 3):

1. The **requester** (:mod:`seekplan.serve.requester`) holds the files
   clients asked for and decides which to pass on to the tape system, and
   when: one of the recall simulator's strategies, run live by the core
   (``_core.Requester``); `fifo` is its
   by-dataset strategy: arrival order, as dCache's bulk service. Files in
   it that nothing has touched wait by column (:mod:`seekplan.serve.pending`)
   and become :class:`Job` objects only when passed on or touched.
2. The **tape-system queue** holds at most ``queue_size`` files passed on,
   grouped per tape. A drive whose tape has no more queued files takes the
   unheld tape with the most queued bytes (ties: the oldest queued file), as
   the core's library does (``library/system.rs``).
3. A drive that takes a tape orders the tape's queued files once with the
   core's ordering (``best`` by default) from the head's position; files
   queued for its tape meanwhile are inserted into the plan where they add
   least locate time (cheapest insertion), or, when many arrived, the rest
   of the plan is ordered again.

With by-tapes' ``tapes: auto`` (the default policy) the scheduler keeps as
many tapes in flight as there are drives: the requester passes on the drives'
number of tapes in parallel, less the tapes already passed on whole that are
still queued or read (:meth:`Scheduler.adapt`), and while a drive has nothing
to do and no unheld tape has queued files, the tape-system queue admits up to
one file per drive past ``queue_size`` (:meth:`Scheduler.starving`), so that
files of held tapes filling it cannot starve a free drive.

Everything here runs under one lock held by the caller (:class:`Scheduler`
methods are called with ``Scheduler.lock`` held, except :meth:`Scheduler.order`,
which does the CPU work of ordering outside it).
"""

from __future__ import annotations

import heapq
import math
import threading
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from seekplan import _core
from seekplan.serve.catalog import Catalog
from seekplan.serve.db import SUBMITTED
from seekplan.serve.jobs import Action, DriveState, Job, TapeQueue
from seekplan.serve.pending import Pending
from seekplan.serve.requester import Requester

#: Past this many files queued for a tape whose plan is running (or a quarter
#: of the plan), the rest of the plan is ordered again instead of inserting
#: each file: cheapest insertion costs O(plan) locates per file.
INSERT_LIMIT = 200


class Scheduler:
    """The requester, the tape-system queue and the drives' plans."""

    def __init__(
        self,
        requester: Requester,
        catalog: Catalog,
        drive_model: Any,
        algo: str,
        queue_size: int,
        drives: int,
        auto_tapes: bool = False,
    ) -> None:
        self.lock = threading.Lock()
        self.wake = threading.Condition(self.lock)
        self.requester = requester
        self.catalog = catalog
        self.tape_names = catalog.tapes
        self.model = drive_model
        self.block_bytes = int(drive_model.block_bytes)
        self.algo = algo
        self.queue_size = queue_size
        self.tapes = [TapeQueue() for _ in catalog.tapes]
        self.drives = [DriveState(i) for i in range(drives)]
        #: Live jobs by path (requested, not yet read nor cancelled), but for
        #: the untouched files in the requester, which wait in ``pending``.
        self.jobs: dict[str, Job] = {}
        #: Files in the requester that nothing touched since they arrived.
        self.pending = Pending()
        #: Per catalog row, the arrival number of its live job (0: none).
        self.live_seq = np.zeros(len(catalog), dtype=np.int64)
        #: Jobs still in the requester that were touched (a second request,
        #: a release, a recovery), by key.
        self.in_requester: dict[int, Job] = {}
        #: Files passed on to the tape system and not yet read.
        self.in_system = 0
        self.seq = 0
        #: Failed reads waiting to be queued again: (virtual time, seq, job).
        self.retries: list[tuple[float, int, Job]] = []
        #: by-tapes' `tapes: auto`: the number of tapes passed on in parallel
        #: follows the drives (:meth:`adapt`).
        self.auto_tapes = auto_tapes
        #: Tapes passed on in parallel as last set (0: not set yet).
        self.parallel_tapes = 0
        #: Per tape: files in the requester, and files passed on and not yet read.
        self.pending_by_tape = [0] * len(catalog.tapes)
        self.system_by_tape = [0] * len(catalog.tapes)
        #: Tapes with nothing left in the requester and files still in the
        #: tape system (queued, planned or being read): in flight, but
        #: holding no place among the tapes the requester passes on.
        self.passed_whole: set[int] = set()

    # ---- arrivals and cancellations -------------------------------------

    def arrive(self, job: Job, now: float) -> None:
        """A new job (its path not live yet) enters the requester."""
        self.seq += 1
        job.seq = self.seq
        self.jobs[job.path] = job
        self.live_seq[job.row] = job.seq
        self.in_requester[job.seq] = job
        self._count(job.tape, pending=1)
        self.requester.arrive(job.seq, job.tape, job.block, job.size, now)

    def add(self, jobs: Iterable[Job], now: float) -> None:
        """New jobs enter the requester, or, for a path already live, join
        the live job (its rows and released rows)."""
        for job in jobs:
            live = self.live(job.path)
            if live is None:
                self.arrive(job, now)
                continue
            live.rows.update(job.rows)
            if job.released:
                live.release(job.released)

    def add_rows(
        self, rows: np.ndarray, file_ids: np.ndarray, rids: str | Sequence[str], now: float
    ) -> None:
        """Files (catalog ``rows`` with their request ``file_ids``, of request
        ``rids``: one for all, or one each) enter the requester, kept by
        column in :attr:`pending`; a path already live, or named twice,
        joins its job instead."""
        _, first = np.unique(rows, return_index=True)
        fresh = np.zeros(len(rows), dtype=bool)
        fresh[first] = True
        fresh &= self.live_seq[rows] == 0
        new_rows = rows[fresh]
        n = len(new_rows)
        if n:
            start = self.seq + 1
            self.seq += n
            self.live_seq[new_rows] = np.arange(start, start + n, dtype=np.int64)
            own = (
                rids
                if isinstance(rids, str)
                else [r for r, f in zip(rids, fresh, strict=True) if f]
            )
            self.pending.put(start, new_rows, file_ids[fresh], own)
            tapes = self.catalog.tape_of[new_rows]
            for tape, k in zip(*np.unique(tapes, return_counts=True), strict=True):
                self._count(int(tape), pending=int(k))
            arrive = self.requester.arrive
            for seq, tape, block, size in zip(
                range(start, start + n),
                tapes.tolist(),
                self.catalog.block[new_rows].tolist(),
                self.catalog.size[new_rows].tolist(),
                strict=True,
            ):
                arrive(seq, tape, block, size, now)
        for k in np.flatnonzero(~fresh).tolist():
            job = self.live(self.catalog.path(int(rows[k])))
            assert job is not None
            job.rows[int(file_ids[k])] = (rids if isinstance(rids, str) else rids[k], SUBMITTED)

    def _unpack(self, seq: int) -> Job | None:
        """The job of the untouched file of arrival number ``seq``, out of
        :attr:`pending` and live by path (None: no such file waits)."""
        entry = self.pending.pop(seq)
        if entry is None:
            return None
        row, file_id, rid = entry
        c = self.catalog
        job = Job(c.path(row), int(c.tape_of[row]), int(c.block[row]), int(c.size[row]), row)
        job.seq = seq
        job.rows[file_id] = (rid, SUBMITTED)
        self.jobs[job.path] = job
        return job

    def live(self, path: str) -> Job | None:
        """The live job of ``path`` (requested, not yet read nor
        cancelled), made an object if it was an untouched file."""
        job = self.jobs.get(path)
        if job is not None:
            return job
        row = self.catalog.row_of(path)
        if row is None or self.live_seq[row] == 0:
            return None
        job = self._unpack(int(self.live_seq[row]))
        if job is not None:
            self.in_requester[job.seq] = job
        return job

    def cancel_row(self, path: str, cat_row: int, file_id: int) -> str | None:
        """Takes request file ``file_id`` (of ``path``, catalog row
        ``cat_row``) off the file's live job, dropping the job when no row is
        left; the row's state, or None when no live job holds it. An
        untouched file leaves :attr:`pending` without becoming a job."""
        job = self.jobs.get(path)
        if job is not None:
            held = job.rows.pop(file_id, None)
            if held is not None and not job.rows:
                self.drop(path)
            return None if held is None else held[1]
        seq = int(self.live_seq[cat_row]) if cat_row >= 0 else 0
        if seq == 0 or not self.pending.holds(seq, file_id):
            return None
        self._drop_untouched(cat_row)
        return SUBMITTED

    def _drop_untouched(self, cat_row: int) -> None:
        """The untouched file of catalog row ``cat_row`` leaves :attr:`pending`
        (its requester key is skipped when taken)."""
        self.pending.pop(int(self.live_seq[cat_row]))
        self.live_seq[cat_row] = 0
        self._count(int(self.catalog.tape_of[cat_row]), pending=-1)

    def drop(self, path: str) -> None:
        """The job of ``path`` is no longer wanted (all its rows were cancelled)."""
        job = self.jobs.pop(path, None)
        if job is None:
            row = self.catalog.row_of(path)
            if row is not None and self.live_seq[row] != 0:
                self._drop_untouched(row)
            return
        self.live_seq[job.row] = 0
        if self.in_requester.pop(job.seq, None) is not None:
            self._count(job.tape, pending=-1)
            return  # the requester's key is skipped when taken
        if job.retry_at is not None:
            job.retry_at = None  # skipped when its time comes
            self.in_system -= 1
            self._count(job.tape, system=-1)
            return
        q = self.tapes[job.tape]
        if q.jobs.pop(path, None) is not None:
            q.bytes -= job.size
            self.in_system -= 1
            self._count(job.tape, system=-1)
            return
        for d in self.drives:
            if job in d.plan:
                d.plan.remove(job)
                self.in_system -= 1
                self._count(job.tape, system=-1)
                return
        # Being read: finished() finds it gone.

    # ---- the tape system ------------------------------------------------

    def refill(self, now: float) -> None:
        """Queues again the failed reads whose back-off has passed, then
        passes files from the requester to the tape-system queue while it
        has room (or, with `tapes: auto`, while a drive starves)."""
        while self.retries and self.retries[0][0] <= now:
            at, _, due = heapq.heappop(self.retries)
            if due.retry_at != at or self.jobs.get(due.path) is not due:
                continue  # cancelled meanwhile
            due.retry_at = None
            self._enqueue(due)
        while True:
            self.adapt()
            if self.in_system >= self.queue_size and not self.starving():
                return
            key = self.requester.take(now)
            if key is None:
                return
            job = self.in_requester.pop(key, None) or self._unpack(key)
            if job is None:
                continue  # cancelled while in the requester
            self._enqueue(job)
            self.in_system += 1
            self._count(job.tape, pending=-1, system=1)

    # ---- keeping the drives busy (`tapes: auto`) --------------------------

    def _count(self, tape: int, pending: int = 0, system: int = 0) -> None:
        """Moves ``tape``'s files in the requester and in the tape system by
        ``pending`` and ``system``, and whether it is passed on whole."""
        self.pending_by_tape[tape] += pending
        self.system_by_tape[tape] += system
        if self.pending_by_tape[tape] == 0 and self.system_by_tape[tape] > 0:
            self.passed_whole.add(tape)
        else:
            self.passed_whole.discard(tape)

    def adapt(self) -> None:
        """With `tapes: auto`, sets the tapes the requester passes on in
        parallel to the drives less the tapes passed on whole and not yet
        read: one tape in flight per drive, each tape's files still passed on
        together. At least 1, so that the queue never runs dry while tapes
        passed on whole wait; a tape the requester is passing on is never cut
        short when the number falls (the core drains it first)."""
        if not self.auto_tapes:
            return
        n = max(1, len(self.drives) - len(self.passed_whole))
        if n != self.parallel_tapes:
            self.requester.set_parallel_tapes(n)
            self.parallel_tapes = n

    def has_work(self, drive: DriveState) -> bool:
        """Whether ``drive`` reads, plans, or has files queued for its tape."""
        if drive.current is not None or drive.planning or drive.plan:
            return True
        return drive.held is not None and bool(self.tapes[drive.held].jobs)

    def starving(self) -> bool:
        """With `tapes: auto`, whether more drives have nothing to do than
        unheld tapes have queued files, with the queue less than one file
        per drive past ``queue_size``: then the full queue holds only files
        of tapes that drives already hold, and a free drive would wait for
        their reads to make room before a file of a new tape comes in."""
        if not self.auto_tapes or self.in_system >= self.queue_size + len(self.drives):
            return False
        free = sum(1 for d in self.drives if d.down_until is None and not self.has_work(d))
        if free == 0:
            return False
        ready = sum(1 for q in self.tapes if q.holder is None and q.jobs)
        return free > ready

    def _enqueue(self, job: Job) -> None:
        q = self.tapes[job.tape]
        q.jobs[job.path] = job
        q.bytes += job.size

    def retry(self, d: int, job: Job, at: float) -> None:
        """Drive ``d``'s read of ``job`` failed and is tried again from
        virtual time ``at`` (it stays in the tape system meanwhile)."""
        if self.drives[d].current is job:
            self.drives[d].current = None
        job.retry_at = at
        heapq.heappush(self.retries, (at, job.seq, job))

    def drive_failed(self, d: int, until: float) -> None:
        """Drive ``d`` is out of service until virtual time ``until``: its
        planned files go back to their tape's queue for the other drives,
        and its tape is free."""
        drive = self.drives[d]
        for job in drive.plan:
            self._enqueue(job)
        drive.plan = []
        drive.current = None
        if drive.held is not None:
            self.tapes[drive.held].holder = None
        drive.held = None
        drive.mounted = None
        drive.down_until = until

    def mount_failed(self, d: int, tape: int, kind: str, not_before: float) -> int:
        """Drive ``d`` could not mount ``tape``: the tape is free again, and
        no drive takes it before ``not_before``; returns the failures of
        this kind so far."""
        drive = self.drives[d]
        q = self.tapes[tape]
        q.holder = None
        q.not_before = not_before
        q.mount_failures[kind] = q.mount_failures.get(kind, 0) + 1
        drive.held = None
        drive.activity = "empty"
        return q.mount_failures[kind]

    def next_wake(self, now: float) -> float | None:
        """Virtual seconds from ``now`` after which a drive should look for
        work although nobody notified it: the requester's time rules, a
        retry's back-off, a failed drive's repair, a tape's mount back-off."""
        times = [self.requester.next_wake()]
        if self.retries:
            times.append(self.retries[0][0] - now)
        times += [d.down_until - now for d in self.drives if d.down_until is not None]
        times += [q.not_before - now for q in self.tapes if q.jobs and q.not_before > now]
        return min((t for t in times if t is not None), default=None)

    def _most_relevant(self, now: float) -> int | None:
        best: tuple[int, int] | None = None
        tape = None
        for t, q in enumerate(self.tapes):
            if q.holder is None and q.jobs and q.not_before <= now:
                key = (q.bytes, -q.oldest())
                if best is None or key > best:
                    best, tape = key, t
        return tape

    def end_block(self, job: Job) -> int:
        """The block after the file's last one."""
        return job.block + max(1, math.ceil(job.size / self.block_bytes))

    def next_action(self, d: int, now: float) -> Action | None:
        """What drive ``d`` does next, or None (nothing to do now)."""
        self.refill(now)
        drive = self.drives[d]
        if drive.down_until is not None:
            if now < drive.down_until:
                return None
            drive.down_until = None
            drive.activity = "empty"
        if drive.planning:
            return None
        if drive.held is not None:
            q = self.tapes[drive.held]
            if q.jobs and drive.plan and len(q.jobs) <= min(INSERT_LIMIT, len(drive.plan) // 4 + 1):
                for job in list(q.jobs.values()):
                    self._insert(drive, job)
                q.jobs.clear()
                q.bytes = 0
            elif q.jobs:
                batch = drive.plan + list(q.jobs.values())
                q.jobs.clear()
                q.bytes = 0
                drive.plan = []
                drive.planning = True
                drive.activity = "planning"
                return Action("plan", tape=drive.held, batch=batch)
            if drive.plan:
                job = drive.plan.pop(0)
                drive.current = job
                # "reading" once the read is timed (Drives.read): until
                # then the drive marks the file STARTED.
                drive.activity = "starting"
                return Action("read", job=job, tape=drive.held)
        t = self._most_relevant(now)
        if t is None:
            drive.activity = "idle" if drive.mounted is not None else "empty"
            return None
        if drive.held is not None:
            self.tapes[drive.held].holder = None
        self.tapes[t].holder = d
        drive.held = t
        if drive.mounted == t:
            return self.next_action(d, now)
        drive.activity = "mounting"
        return Action("switch", tape=t)

    def _insert(self, drive: DriveState, job: Job) -> None:
        loc = self.model.locate
        best_i, best_c = 0, math.inf
        prev = drive.head
        end = self.end_block(job)
        for i, nxt in enumerate(drive.plan):
            c = loc(prev, job.block) + loc(end, nxt.block) - loc(prev, nxt.block)
            if c < best_c:
                best_i, best_c = i, c
            prev = self.end_block(nxt)
        if loc(prev, job.block) < best_c:
            best_i = len(drive.plan)
        drive.plan.insert(best_i, job)

    def order(self, batch: list[Job], head: int) -> list[Job]:
        """``batch`` in the core's read order from block ``head`` (called
        without the lock: it is the CPU-heavy step)."""
        if len(batch) <= 1:
            return list(batch)
        out = _core.order(
            self.model,
            [j.block for j in batch],
            [j.size for j in batch],
            self.algo,
            start=head,
            bound=False,
        )
        return [batch[i] for i in out["order"]]

    def install(self, d: int, plan: list[Job]) -> None:
        """The ordered plan of drive ``d`` (files cancelled meanwhile left out)."""
        drive = self.drives[d]
        dropped = [j for j in plan if j.path not in self.jobs]
        self.in_system -= len(dropped)
        for j in dropped:
            self._count(j.tape, system=-1)
        drive.plan = [j for j in plan if j.path in self.jobs]
        drive.planning = False

    def mounted(self, d: int, tape: int) -> None:
        """Drive ``d`` has ``tape`` mounted, head at the beginning."""
        drive = self.drives[d]
        drive.mounted = tape
        drive.head = 0
        drive.mount_bytes = 0
        self.tapes[tape].mount_failures.clear()

    def unmounted(self, d: int) -> None:
        """Drive ``d`` is empty."""
        self.drives[d].mounted = None

    def finished(self, d: int, job: Job) -> bool:
        """Drive ``d`` finished reading ``job``; whether the job was still
        wanted (False: every row was cancelled while it was read). The
        drive's head and session move only while ``job`` is its current
        read: a read the watchdog ended late leaves a drive that moved on
        as it is."""
        drive = self.drives[d]
        if drive.current is job:
            drive.current = None
            drive.head = self.end_block(job)
            drive.mount_bytes += job.size
        self.in_system -= 1
        self._count(job.tape, system=-1)
        if self.jobs.get(job.path) is job:
            del self.jobs[job.path]
            self.live_seq[job.row] = 0
            return True
        return False

    def session_bytes(self, d: int, job: Job) -> int:
        """The volume of drive ``d``'s session as it starts reading ``job``:
        bytes read since the mount plus bytes queued for its tape (planned
        or not yet planned), ``job`` included -- what the recall simulator's
        session-fraction read model divides by the tape's capacity
        (``read_seconds`` in the core's ``library/system.rs``)."""
        drive = self.drives[d]
        queued = self.tapes[job.tape].bytes + sum(j.size for j in drive.plan)
        return drive.mount_bytes + job.size + queued

    def waiting(self) -> int:
        """Files requested and not yet read (in the requester or the tape system)."""
        return len(self.jobs) + len(self.pending)
