"""What the scheduler keeps per file, per tape and per drive: a file to read
(:class:`Job`), a tape's share of the tape-system queue (:class:`TapeQueue`),
a drive as the scheduler sees it (:class:`DriveState`) and what a drive
worker does next (:class:`Action`). Plain records; the rules that change them
are :class:`seekplan.serve.scheduler.Scheduler`'s."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field


@dataclass(slots=True)
class Job:
    """One tape file to read, wanted by one or more request files (rows).
    A million of them wait at WLCG's load, so the rarely used parts (failed
    attempts, released rows) exist only once used."""

    path: str
    tape: int
    block: int
    size: int
    #: The file's row in the catalog.
    row: int
    #: Request file rows waiting for this read: file id -> (request id, state).
    rows: dict[int, tuple[str, str]] = field(default_factory=dict)
    #: Arrival sequence number: the job's key in the requester (smaller is older).
    seq: int = 0
    #: Failed attempts so far, per failure kind (``retry:``'s rules), if any.
    failures: dict[str, int] | None = None
    #: Rows released before the file was staged (they complete unpinned), if any.
    released: set[int] | None = None
    #: Virtual time a failed read is queued again at (None: not waiting).
    retry_at: float | None = None

    def failed(self, kind: str) -> int:
        """Counts a failed attempt of ``kind``; the attempts of that kind so far."""
        if self.failures is None:
            self.failures = {}
        self.failures[kind] = self.failures.get(kind, 0) + 1
        return self.failures[kind]

    @property
    def attempts_failed(self) -> int:
        """Failed attempts of every kind."""
        return sum(self.failures.values()) if self.failures else 0

    def release(self, ids: Iterable[int]) -> None:
        """Rows ``ids`` will not pin the copy when it is staged."""
        if self.released is None:
            self.released = set()
        self.released.update(ids)

    def pins(self) -> list[int]:
        """The rows that pin the copy once staged (those not released)."""
        if not self.released:
            return list(self.rows)
        return [fid for fid in self.rows if fid not in self.released]


@dataclass
class TapeQueue:
    """Files of one tape in the tape-system queue."""

    jobs: dict[str, Job] = field(default_factory=dict)
    bytes: int = 0
    #: Drive holding the tape (reading it or about to), or None.
    holder: int | None = None
    #: After a failed mount, no drive takes the tape before this virtual time.
    not_before: float = 0.0
    #: Failed mounts since the last good one, per failure kind.
    mount_failures: dict[str, int] = field(default_factory=dict)

    def oldest(self) -> int:
        """Arrival sequence number of the oldest queued file."""
        return min(j.seq for j in self.jobs.values())


@dataclass
class DriveState:
    """What a drive is doing, as the scheduler sees it."""

    index: int
    #: Tape in the drive (mounted), or None.
    mounted: int | None = None
    #: Tape the drive holds: mounted or being mounted.
    held: int | None = None
    #: Block under the head.
    head: int = 0
    plan: list[Job] = field(default_factory=list)
    current: Job | None = None
    #: Short word for the status page: empty, mounting, starting, reading, idle,
    #: unmounting, planning.
    activity: str = "empty"
    planning: bool = False
    #: Bytes read since the tape was mounted (the session so far).
    mount_bytes: int = 0
    #: Out of service (failed) until this virtual time, or None.
    down_until: float | None = None
    #: Virtual time the current read started, and its estimated seconds.
    read_started: float = 0.0
    read_estimate_s: float = 0.0


@dataclass
class Action:
    """What a drive worker does next."""

    kind: str  # "read", "switch" (unmount if any, mount tape), "plan"
    job: Job | None = None
    tape: int | None = None
    batch: list[Job] | None = None
