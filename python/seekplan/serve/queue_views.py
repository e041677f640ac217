"""What the status page shows of the scheduler's queues: each tape's queued
and planned files with the plan's read-time estimate, and the warning when
drives idle while files wait on tapes no drive holds. Read-only views of a
:class:`~seekplan.serve.scheduler.Scheduler`, taken with its lock held."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from seekplan.serve.jobs import Job
from seekplan.serve.scheduler import Scheduler


def tape_views(sched: Scheduler) -> list[dict[str, Any]]:
    """Per-tape queues for the status page: queued files, bytes, holder,
    and for the plan's read-time estimate the block its first read starts
    from and the session's volume (as :meth:`session_bytes` will count it)."""
    out: list[dict[str, Any]] = []
    for t, q in enumerate(sched.tapes):
        holder = q.holder
        drive = sched.drives[holder] if holder is not None else None
        planned = drive.plan if drive is not None else []
        if not q.jobs and not planned:
            continue
        head, session = 0, 0
        if drive is not None:
            head, session = drive.head, drive.mount_bytes
            if drive.current is not None:
                head = sched.end_block(drive.current)
                session += drive.current.size
        out.append(
            {
                "tape": sched.tape_names[t],
                "queued": len(q.jobs),
                "planned": len(planned),
                "bytes": q.bytes + sum(j.size for j in planned),
                "drive": holder,
                "plan": planned,
                "head": head,
                "session": session + q.bytes + sum(j.size for j in planned),
            }
        )
    out.sort(key=lambda v: (v["drive"] is None, -v["bytes"]))
    return out


def plan_estimate_s(
    sched: Scheduler, plan: Iterable[Job], head: int, read_s: Callable[[Job, int], float]
) -> float:
    """Seconds to read ``plan`` in order from ``head``, each read timed by
    ``read_s(job, head)``."""
    total = 0.0
    for job in plan:
        total += read_s(job, head)
        head = sched.end_block(job)
    return total


def idle_warning(sched: Scheduler) -> dict[str, int] | None:
    """Drives with nothing to do (empty or idle) while files wait on tapes
    no drive holds (in the requester or the tape-system queue), with the
    counts; None when no drive idles or no such file waits. Files of a
    held tape are not counted: only the drive holding it reads them."""
    idle = sum(1 for d in sched.drives if d.activity in ("empty", "idle"))
    if idle == 0:
        return None
    tapes = in_requester = in_queue = 0
    for t, q in enumerate(sched.tapes):
        if q.holder is None and (sched.pending_by_tape[t] or q.jobs):
            tapes += 1
            in_requester += sched.pending_by_tape[t]
            in_queue += len(q.jobs)
    if tapes == 0:
        return None
    return {
        "idle": idle,
        "drives": len(sched.drives),
        "tapes": tapes,
        "in_requester": in_requester,
        "in_queue": in_queue,
    }
