"""Files waiting in the requester kept by column (``serve.pending``) and
the scheduler's use of them: a file stays 16 bytes until the requester
passes it on or a cancel, release or second request touches it, and then
it is the same job it would have been as an object from the start."""

from __future__ import annotations

import numpy as np
from serve_support import FifoRequester

from seekplan.catalog import make_drive
from seekplan.serve.catalog import Catalog
from seekplan.serve.db import SUBMITTED
from seekplan.serve.pending import PAGE, Pending
from seekplan.serve.scheduler import Scheduler


def test_entries_across_a_page_boundary_come_back_and_pages_are_freed():
    p = Pending()
    first = PAGE - 3
    rows = np.arange(10, dtype=np.int64) + 100
    p.put(first, rows, rows * 7, "r1")
    assert len(p) == 10 and p.nbytes() == 2 * PAGE * 16
    assert p.pop(first + 4) == (104, 728, "r1")
    assert p.pop(first + 4) is None and p.pop(first + 10) is None
    for k in range(10):
        if k != 4:
            assert p.pop(first + k) == (100 + k, (100 + k) * 7, "r1")
    assert len(p) == 0 and p.nbytes() == 0


def test_request_ids_are_counted_and_their_slots_reused():
    p = Pending()
    p.put(1, np.array([5, 6]), np.array([50, 60]), "a")
    p.put(3, np.array([7]), np.array([70]), "b")
    assert p.pop(1) == (5, 50, "a") and p.pop(2) == (6, 60, "a")
    p.put(4, np.array([8]), np.array([80]), "c")  # takes a's freed slot
    assert p.pop(4) == (8, 80, "c") and p.pop(3) == (7, 70, "b")


def _scheduler(n: int, queue_size: int = 100) -> Scheduler:
    catalog = Catalog(
        [f"/f{i}" for i in range(n)],
        np.arange(n, dtype=np.int64) % 2,
        np.arange(n, dtype=np.int64) * 1000,
        np.full(n, 1_000_000, dtype=np.int64),
        ["A", "B"],
    )
    return Scheduler(FifoRequester(), catalog, make_drive("lto9"), "sort", queue_size, 1)


def test_untouched_files_become_jobs_when_passed_on_with_their_rows():
    s = _scheduler(6)
    s.add_rows(np.array([0, 1, 2, 3]), np.array([10, 11, 12, 13]), "r1", 0.0)
    assert s.waiting() == 4 and len(s.jobs) == 0 and len(s.pending) == 4
    assert s.pending_by_tape == [2, 2]
    s.refill(0.0)
    assert len(s.pending) == 0 and s.in_system == 4 and s.pending_by_tape == [0, 0]
    job = s.tapes[1].jobs["/f3"]
    assert (job.path, job.tape, job.block, job.size, job.row) == ("/f3", 1, 3000, 1_000_000, 3)
    assert job.rows == {13: ("r1", SUBMITTED)} and job.seq == 4
    assert s.waiting() == 4


def test_a_second_request_cancel_and_release_touch_a_waiting_file():
    s = _scheduler(6, queue_size=0)
    s.add_rows(np.array([0, 1, 2]), np.array([10, 11, 12]), "r1", 0.0)
    s.add_rows(np.array([1, 4]), np.array([21, 24]), "r2", 0.0)
    joined = s.jobs["/f1"]  # made an object to take the second row
    assert joined.rows == {11: ("r1", SUBMITTED), 21: ("r2", SUBMITTED)}
    assert s.waiting() == 4 and len(s.pending) == 3
    s.live("/f2").release([12])  # a release before staging
    assert s.jobs["/f2"].pins() == []
    s.drop("/f0")  # every row cancelled while waiting
    assert s.live("/f0") is None and s.waiting() == 3 and s.pending_by_tape == [2, 1]
    s.add_rows(np.array([0]), np.array([30]), "r3", 0.0)  # asked for again: a new job
    assert s.waiting() == 4
    s.queue_size = 10
    s.refill(0.0)
    got = {p: (j.seq, sorted(j.rows)) for q in s.tapes for p, j in q.jobs.items()}
    assert got == {
        "/f1": (2, [11, 21]),
        "/f2": (3, [12]),
        "/f4": (4, [24]),
        "/f0": (5, [30]),
    }


def test_recovered_rows_of_many_requests_naming_one_path_twice_make_one_job():
    s = _scheduler(6)
    s.add_rows(np.array([3, 5, 3]), np.array([1, 2, 3]), ["r1", "r2", "r3"], 0.0)
    assert s.waiting() == 2 and s.jobs["/f3"].rows == {1: ("r1", SUBMITTED), 3: ("r3", SUBMITTED)}
    s.refill(0.0)
    assert s.tapes[1].jobs["/f5"].rows == {2: ("r2", SUBMITTED)}
    assert sorted(s.tapes[1].jobs) == ["/f3", "/f5"] and s.in_system == 2


def test_a_cancelled_untouched_file_leaves_without_becoming_a_job():
    s = _scheduler(6)
    s.add_rows(np.array([0, 2, 4]), np.array([10, 12, 14]), "r1", 0.0)
    assert s.cancel_row("/f2", 2, 99) is None  # another request's file id
    assert s.cancel_row("/f2", 2, 12) == SUBMITTED
    assert s.cancel_row("/f2", 2, 12) is None and not s.jobs
    assert s.waiting() == 2 and s.pending_by_tape == [2, 0]
    s.add_rows(np.array([4]), np.array([24]), "r2", 0.0)  # a second row: a job
    assert s.cancel_row("/f4", 4, 14) == SUBMITTED and s.jobs["/f4"].rows == {24: ("r2", SUBMITTED)}
    s.refill(0.0)
    assert sorted(s.tapes[0].jobs) == ["/f0", "/f4"] and s.in_system == 2
