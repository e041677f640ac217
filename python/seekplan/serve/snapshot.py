"""The status page's figures, taken from the service in one pass."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from seekplan.serve.backend import ReadJob
from seekplan.serve.queue_views import idle_warning, plan_estimate_s, tape_views

if TYPE_CHECKING:
    from seekplan.serve.service import Service

#: Recent requests listed on the status page.
RECENT = 10
#: Tapes listed on the status page (the busiest first).
TAPES_SHOWN = 50
#: A read is called stuck only once it has run at least this long (seconds),
#: whatever its estimate: a small file's estimate is well under a second.
STUCK_MIN_S = 60.0


def snapshot(service: Service, plan_rows: int = 8) -> dict[str, Any]:
    """Everything the status page shows: totals, drives (with reads that
    look stuck), tape queues with their planned order and estimate, failed
    files, recent requests, health."""
    sched, drives = service.sched, service.drives
    stuck_factor = drives.deadline.stuck_factor
    with sched.lock:
        now = service.clock.now()
        tapes = []
        for v in tape_views(sched)[:TAPES_SHOWN]:
            plan = v.pop("plan")
            tape, session = v["tape"], v.pop("session")

            def read_s(job: Any, head: int, tape: str = tape, session: int = session) -> float:
                return drives.estimate_s(
                    ReadJob(job.path, tape, job.block, job.size, head, session)
                )

            v["estimate_s"] = plan_estimate_s(sched, plan, v.pop("head"), read_s)
            v["next"] = [(j.path, j.block, j.size) for j in plan[:plan_rows]]
            tapes.append(v)
        rows = []
        stuck = []
        for dr in sched.drives:
            # The tape a drive holds (being mounted too, as the queue table
            # says), and the rate of the read in progress (its size over the
            # read's estimate: locate and transfer); 0 when not reading.
            tape = dr.held if dr.held is not None else dr.mounted
            reading = dr.current if dr.activity == "reading" else None
            rate = (
                reading.size / 1e6 / dr.read_estimate_s
                if reading is not None and dr.read_estimate_s > 0
                else 0.0
            )
            call = drives.calls[dr.index]
            robot = call if call is not None and call.job is None else None
            rows.append(
                {
                    "drive": dr.index,
                    "tape": sched.tape_names[tape] if tape is not None else None,
                    "activity": dr.activity,
                    "file": dr.current.path if dr.current is not None else None,
                    "rate_mb_s": rate,
                    # How long its mount or unmount has run (an LTO-9 first
                    # load calibrates for up to 2 hours), and its deadline.
                    "robot_s": None if robot is None else now - robot.started,
                    "robot_deadline_s": drives.mount_deadline_s,
                }
            )
            if dr.current is not None and call is not None and call.job is not None:
                running = now - dr.read_started
                if running > max(STUCK_MIN_S, stuck_factor * dr.read_estimate_s):
                    stuck.append(
                        {
                            "drive": dr.index,
                            "path": dr.current.path,
                            "running_s": running,
                            "estimate_s": dr.read_estimate_s,
                        }
                    )
        waiting = sched.waiting()
        in_system = sched.in_system
        retrying = len(sched.retries)
        idle = idle_warning(sched)
    recent = sorted(
        (s for s in service.store.summaries.values() if not s.deleted),
        key=lambda s: s.created_at,
        reverse=True,
    )[:RECENT]
    ok, ms = service.db_health()
    return {
        "totals": dict(service.totals),
        "tapes": tapes,
        "drives": rows,
        "stuck": stuck,
        "failed": list(reversed(drives.failed)),
        "retrying": retrying,
        "waiting": waiting,
        "in_system": in_system,
        "idle_warning": idle,
        "recent": recent,
        "poll_rate": service.stats.poll_rate(),
        "throttled": service.stats.throttled,
        "backend": service.backend.name,
        "models": service.models,
        "paused": service.paused,
        "lost": service.lost,
        "recovering": service.recovering,
        "recovered": service.recovered,
        "recover_error": service.recover_error,
        "db_ok": ok,
        "db_ms": ms,
        "url": service.engine.url.render_as_string(hide_password=True),
        "virtual_s": service.clock.now(),
        "time_scale": service.clock.scale,
    }
