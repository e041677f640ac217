"""`seekplan serve` on a bad day (issue 35): every fault the simulated
backend injects -- a media error, a drive failure, a hung read, a backend
exception of another type, an unmountable tape, a failing robot -- ends the
file FAILED with its reason (or COMPLETED after a retry), frees its slot,
and is counted; releases cancel pins to be and expire with diskLifetime; a
second service, a lost database file and a full disk are refused clearly."""

from __future__ import annotations

import contextlib
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from fastapi.testclient import TestClient
from serve_support import (
    free_port,
    make_service,
    reads,
    server,
    stderr_of,
    wait_done,
    write_catalog,
)

from seekplan.errors import SeekplanError

API = "/api/v1"

#: Fast rules for tests: back-offs of a few simulated seconds, a read
#: deadline of 50 simulated seconds past its estimate (2.5 ms at 20,000x).
FAST = {
    "retry": {
        "read": {"attempts": 2, "backoff_s": 5},
        "drive": {"attempts": 3, "backoff_s": 0},
        "mount": {"attempts": 2, "backoff_s": 5},
        "robot": {"attempts": 3, "backoff_s": 5},
    },
    "read_deadline": {"factor": 1.5, "floor_s": 50},
    "drive_repair_s": 30,
}


@pytest.fixture
def catalog(tmp_path):
    p = tmp_path / "catalog.csv"
    return p, write_catalog(p)


def make(tmp_path, db_url, catalog, **over):
    return make_service(tmp_path, db_url, catalog, **{**FAST, **over})


def by_path(doc):
    return {f["path"]: f for f in doc["files"]}


def refuse_moves(
    svc, move: str, error: Exception, every: bool = False, until: threading.Event | None = None
) -> list[str]:
    """Has ``svc``'s store refuse writes of a move to ``move`` with
    ``error``: the first, or ``every`` one, or every one until ``until`` is
    set; the list each refused move is appended to."""
    real = svc.store.transition
    refused: list[str] = []

    def transition(changes, now, pin=None, **kw):
        if until is not None:
            refuse = not until.is_set()
        else:
            refuse = every or not refused
        if changes[0][3] == move and refuse:
            refused.append(move)
            raise error
        return real(changes, now, pin, **kw)

    svc.store.transition = transition
    return refused


def wait_for_a_refused_write(svc, deadline: float) -> None:
    """Waits (until ``deadline``, monotonic) for ``svc``'s drives to count a
    database write that failed, and checks that one did."""
    while svc.stats.db_write_failures._value.get() < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert svc.stats.db_write_failures._value.get() >= 1


def failed_total(c) -> float:
    text = c.get("/metrics").text
    return float(re.search(r"^seekplan_stage_files_failed_total (\S+)$", text, re.M).group(1))


def test_every_injected_fault_ends_failed_with_its_reason(tmp_path, db_url, catalog):
    paths = catalog[1]
    t1 = [p for p in paths if "/T1/" in p]
    named = {
        paths[0]: "read_error",
        paths[1]: "crash",
        paths[2]: "hang",
        paths[5]: "drive_failure",
    }
    app, svc = make(
        tmp_path, db_url, catalog, inject={"files": named, "tapes": {"T3": "unmountable"}}
    )
    with TestClient(app) as c:
        body = {"files": [{"path": p} for p in paths] + [{"path": "/not/catalogued"}]}
        rid = c.post(f"{API}/stage", json=body).json()["requestId"]
        files = by_path(wait_done(c, rid))
        assert "media error" in files[paths[0]]["error"]
        assert "after 2 attempts" in files[paths[0]]["error"]
        assert files[paths[1]]["error"].startswith("RuntimeError: injected backend crash")
        assert "did not finish within" in files[paths[2]]["error"]
        assert "failed reading tape" in files[paths[5]]["error"]
        assert "after 3 attempts" in files[paths[5]]["error"]
        t3 = [p for p in paths if "/T3/" in p]
        assert all("cannot be mounted" in files[p]["error"] for p in t3)
        failed = {p for p, f in files.items() if f["state"] == "FAILED"}
        assert failed == {paths[0], paths[1], paths[2], paths[5], "/not/catalogued", *t3}
        assert all(f["state"] == "COMPLETED" for p, f in files.items() if p not in failed)
        assert set(t1) - failed <= {p for p, f in files.items() if f["state"] == "COMPLETED"}
        # Every slot is free, and every FAILED file is counted (the one
        # failed at submission too).
        with svc.sched.lock:
            assert svc.sched.in_system == 0 and svc.sched.waiting() == 0
            assert all(d.current is None for d in svc.sched.drives)
        assert failed_total(c) == len(failed)
        # Every time a drive was taken out is counted, retried or not: the
        # drive failure's three attempts and the hang's one.
        assert svc.stats.drive_failures._value.get() == 4
        page = c.get("/").text
        assert "Failed files" in page and "cannot be mounted" in page
        # A later request for a file that failed is not stuck behind it.
        rid2 = c.post(f"{API}/stage", json={"files": [{"path": paths[1]}]}).json()["requestId"]
        again = by_path(wait_done(c, rid2))[paths[1]]
        assert again["state"] == "FAILED" and "RuntimeError" in again["error"]
    # Nothing that failed was logged as read; everything completed was.
    done = set(reads(tmp_path / "buffer"))
    assert not done & failed
    assert done == set(paths) - failed


@pytest.mark.parametrize("call", ["mount", "unmount"])
def test_a_drive_that_fails_at_a_mount_or_unmount_leaves_the_work_to_the_others(
    tmp_path, catalog, call
):
    """The backend's mount or unmount raises DriveFailure once: that drive
    goes out of service, is counted, and every file is still read."""
    from seekplan.serve.backend import DriveFailure

    app, svc = make(tmp_path, str(tmp_path / "m.db"), catalog, drive_repair_s=1e6)
    real = getattr(svc.backend, call)
    broken: list[int] = []

    def fail_once(drive, tape):
        if not broken:
            broken.append(drive)
            raise DriveFailure(f"drive {drive} jammed at {call}")
        return real(drive, tape)

    setattr(svc.backend, call, fail_once)
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in catalog[1]]})
        files = by_path(wait_done(c, rid.json()["requestId"]))
        assert {f["state"] for f in files.values()} == {"COMPLETED"}
        assert broken and svc.stats.drive_failures._value.get() == 1
        dead = svc.snapshot()["drives"][broken[0]]
        assert dead["activity"] == f"failed: drive {broken[0]} jammed at {call}"


def test_a_mount_that_hangs_is_given_up_and_its_tape_fails_with_the_reason(tmp_path, catalog):
    """A tape's mount never returns: at the mount deadline the watchdog
    takes the drive out (its thread is still in the call) and counts a
    failed mount; once the ``mount`` rule's attempts are spent the tape's
    files FAIL saying why, and the other tapes are read on the drive left.
    A hung mount held its drive and tape for good before."""
    paths = catalog[1]
    app, svc = make(
        tmp_path,
        str(tmp_path / "m.db"),
        catalog,
        drives=3,
        mount_deadline_s=200,
        inject={"tapes": {"T1": "hang"}},
    )
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        files = by_path(wait_done(c, rid.json()["requestId"]))
        t1 = {p for p in paths if "/T1/" in p}
        assert all(files[p]["state"] == "FAILED" for p in t1)
        assert all("mount of tape T1 on drive" in files[p]["error"] for p in t1)
        assert all("did not finish within 200 s" in files[p]["error"] for p in t1)
        assert all(files[p]["state"] == "COMPLETED" for p in paths if p not in t1)
        assert svc.stats.mount_failures._value.get() == 2  # the rule's two attempts
        assert svc.stats.drive_failures._value.get() == 2
        with svc.sched.lock:
            assert svc.sched.in_system == 0 and svc.sched.waiting() == 0
            down = [dr for dr in svc.sched.drives if dr.down_until is not None]
            assert len(down) == 2 and all("did not finish" in dr.activity for dr in down)


def test_the_status_page_shows_how_long_a_mount_has_run(tmp_path, catalog):
    """A mount still running (an LTO-9 first load may take 2 hours) shows on
    the status page with its running time and when it will be given up."""
    paths = catalog[1][:1]
    # A clock at real speed: the 3-hour deadline stays far off.
    app, svc = make(
        tmp_path, str(tmp_path / "g.db"), catalog, time_scale=1.0, inject={"tapes": {"T0": "hang"}}
    )
    with TestClient(app) as c:
        c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        deadline = time.monotonic() + 10
        page = ""
        while "mounting for" not in page and time.monotonic() < deadline:
            time.sleep(0.01)
            page = c.get("/").text
        assert "mounting for" in page and "(given up at 3 h 0 min)" in page


@pytest.mark.parametrize("undo_fails", [False, True])
def test_a_mount_that_returns_after_its_deadline_is_undone_and_the_drive_comes_back(
    tmp_path, catalog, undo_fails, caplog
):
    """A mount returns after the watchdog gave up on it: the cartridge is
    unmounted again (the scheduler has the drive empty), the drive is back
    in service, and the tape's files are read by a drive that mounts it in
    time. An unmount that fails there (``undo_fails``) is logged, and the
    drive comes back all the same."""
    paths = catalog[1][:8]
    app, svc = make(tmp_path, str(tmp_path / "l.db"), catalog, mount_deadline_s=200)
    real_mount, real_unmount = svc.backend.mount, svc.backend.unmount
    late: list[int] = []
    unmounted: list[tuple[int, str]] = []

    def mount(drive: int, tape: str) -> None:
        if tape == "T1" and not late:
            late.append(drive)
            # Past the 200-s deadline until the watchdog gives up, then returns.
            until = time.monotonic() + 20
            while svc.drives.calls[drive] is not None and time.monotonic() < until:
                svc.clock.sleep(50)
        real_mount(drive, tape)

    def unmount(drive: int, tape: str) -> None:
        unmounted.append((drive, tape))
        # The late mount's undo is that drive's first unmount of T1.
        undo = bool(late) and (drive, tape) == (late[0], "T1")
        if undo_fails and undo and unmounted.count((drive, tape)) == 1:
            raise RuntimeError("the robot lost the cartridge")
        real_unmount(drive, tape)

    svc.backend.mount, svc.backend.unmount = mount, unmount
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        files = wait_done(c, rid.json()["requestId"])["files"]
        assert all(f["state"] == "COMPLETED" for f in files)
        assert svc.stats.mount_failures._value.get() == 1
        assert svc.stats.drive_failures._value.get() == 1
        deadline = time.monotonic() + 10
        while (late[0], "T1") not in unmounted and time.monotonic() < deadline:
            time.sleep(0.01)
        assert (late[0], "T1") in unmounted  # the late mount undone
        with svc.sched.lock:
            assert svc.sched.drives[late[0]].down_until is None
    assert ("after a late mount failed" in caplog.text) == undo_fails


def test_an_unmount_that_hangs_takes_only_its_drive_out(tmp_path, catalog):
    """The first unmount never returns: at the deadline its drive goes out
    of service, no tape counts a failed mount, and the other drive reads
    every file."""
    paths = catalog[1]
    app, svc = make(tmp_path, str(tmp_path / "u.db"), catalog, mount_deadline_s=200)
    real_unmount = svc.backend.unmount
    hung: list[int] = []

    def unmount(drive: int, tape: str) -> None:
        if not hung:
            hung.append(drive)
            with svc.clock.idle():
                svc.clock.stop.wait()
        real_unmount(drive, tape)

    svc.backend.unmount = unmount
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        files = wait_done(c, rid.json()["requestId"])["files"]
        assert hung and all(f["state"] == "COMPLETED" for f in files)
        assert svc.stats.drive_failures._value.get() == 1
        assert svc.stats.mount_failures._value.get() == 0
        assert "unmount of tape" in svc.sched.drives[hung[0]].activity


def test_an_ordering_that_fails_still_reads_the_batch(tmp_path, catalog):
    """The core's ordering raising (anything) falls back to block order."""
    app, svc = make(tmp_path, str(tmp_path / "o.db"), catalog)

    calls = []

    def broken(batch, head):
        calls.append(len(batch))
        raise RuntimeError("ordering exploded")

    svc.sched.order = broken
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in catalog[1]]})
        files = by_path(wait_done(c, rid.json()["requestId"]))
        assert {f["state"] for f in files.values()} == {"COMPLETED"}
        assert calls  # the ordering was asked, and failed


@contextlib.contextmanager
def _one_move_refused(tmp_path, db_url, catalog, move: str, error: Exception):
    """A service whose first file fails its read and whose database refuses
    the first write of a move to ``move`` with ``error``, after staging all
    of the first tape's files: the client, the service and the files by path,
    once the request is done (and that one move was refused)."""
    paths = catalog[1]
    app, svc = make(tmp_path, db_url, catalog, inject={"files": {paths[0]: "read_error"}})
    refused = refuse_moves(svc, move, error)
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        files = by_path(wait_done(c, rid.json()["requestId"]))
        assert refused == [move]
        yield c, svc, files


@pytest.mark.parametrize("move", ["STARTED", "COMPLETED", "FAILED"])
def test_a_database_failing_as_a_drive_records_a_move_is_tried_again(
    tmp_path, db_url, catalog, move
):
    """The database refuses the first write of each kind of move a drive
    makes (a file STARTED, COMPLETED, or FAILED by its read error): the
    drive tries again, counts it, and every file still ends in its own
    state -- none is left STARTED (a lost write once left a file STARTED
    for good, seen in CI under load)."""
    paths = catalog[1]
    lost = Exception("server closed the connection")
    error = sa.exc.OperationalError("UPDATE", {}, lost)
    with _one_move_refused(tmp_path, db_url, catalog, move, error) as (c, svc, files):
        assert svc.stats.db_write_failures._value.get() == 1
        assert files[paths[0]]["state"] == "FAILED" and "media error" in files[paths[0]]["error"]
        assert all(files[p]["state"] == "COMPLETED" for p in paths[1:])
        with svc.sched.lock:
            assert svc.sched.in_system == 0 and svc.sched.waiting() == 0
    assert set(reads(tmp_path / "buffer")) == set(paths[1:])


@pytest.mark.parametrize("move", ["STARTED", "COMPLETED", "FAILED"])
def test_a_database_refusing_a_drives_move_outright_still_ends_the_file(
    tmp_path, db_url, catalog, move
):
    """The database refuses the first write of each kind of move with an
    error that trying again cannot mend (a DataError, not an outage): that
    file ends FAILED with the database's reason, every other in its own
    state, and nothing is left SUBMITTED or STARTED (a refused STARTED move
    left the file SUBMITTED in the database and gone from memory)."""
    paths = catalog[1]
    bad = Exception("value out of range")
    error = sa.exc.DataError("UPDATE", {}, bad)
    with _one_move_refused(tmp_path, db_url, catalog, move, error) as (c, svc, files):
        states = {p: f["state"] for p, f in files.items()}
        assert set(states.values()) <= {"COMPLETED", "FAILED"}
        refused_files = [p for p, f in files.items() if "value out of range" in f.get("error", "")]
        # The file whose move was refused: FAILED saying so (a read not begun
        # under the ``other`` rule: one attempt by default).
        assert len(refused_files) == 1 and states[refused_files[0]] == "FAILED"
        assert "the database refused" in files[refused_files[0]]["error"]
        assert states[paths[0]] == "FAILED"
        assert all(states[p] == "COMPLETED" for p in paths if p not in (paths[0], *refused_files))
        assert svc.stats.db_write_failures._value.get() == 1
        assert failed_total(c) == sum(s == "FAILED" for s in states.values())
        with svc.sched.lock:
            assert svc.sched.in_system == 0 and svc.sched.waiting() == 0
            assert all(d.current is None for d in svc.sched.drives)


def test_a_database_refusing_every_failed_move_leaves_the_rest_working(tmp_path, catalog, caplog):
    """The database refuses to record any file FAILED, whatever its text:
    the refusal is logged naming the file, and every other file is read and
    recorded; no slot stays taken."""
    paths = catalog[1]
    app, svc = make(
        tmp_path, str(tmp_path / "r.db"), catalog, inject={"files": {paths[0]: "crash"}}
    )
    check = Exception("check constraint violated")
    refuse_moves(svc, "FAILED", sa.exc.IntegrityError("UPDATE", {}, check), every=True)
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        rid = rid.json()["requestId"]
        deadline = time.monotonic() + 30
        while svc.stats.staged._value.get() < len(paths) - 1 and time.monotonic() < deadline:
            time.sleep(0.01)
        files = by_path(c.get(f"{API}/stage/{rid}").json())
        assert all(files[p]["state"] == "COMPLETED" for p in paths[1:])
        assert files[paths[0]]["state"] == "STARTED"  # as the database has it
        with svc.sched.lock:
            assert svc.sched.in_system == 0 and svc.sched.waiting() == 0
    assert svc.stats.db_write_failures._value.get() == 2  # the text, then the refusal's
    assert "the database refused to record files [1] FAILED" in caplog.text


def test_a_backend_error_text_the_database_cannot_store_is_stored_cleaned(
    tmp_path, db_url, catalog
):
    """A backend's error text with a NUL byte (PostgreSQL's text refuses it)
    and a megabyte long: the file ends FAILED with the text escaped and cut."""
    from seekplan.serve.backend import BackendError

    paths = catalog[1][:4]
    app, svc = make(tmp_path, db_url, catalog)
    real = svc.backend.read

    def read(drive, job):
        if job.path == paths[1]:
            raise BackendError("bad\x00block " + "x" * 1_000_000)
        return real(drive, job)

    svc.backend.read = read
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        files = by_path(wait_done(c, rid.json()["requestId"]))
        error = files[paths[1]]["error"]
        assert files[paths[1]]["state"] == "FAILED" and error.startswith("bad\\x00block xxx")
        assert len(error) < 5_000 and "characters cut" in error
        assert all(files[p]["state"] == "COMPLETED" for p in paths if p != paths[1])


def test_a_stage_request_is_answered_while_a_drive_waits_for_the_database(tmp_path, catalog):
    """While a drive waits to try a refused write again it holds no lock a
    stage request needs: the request is answered at once, and both
    requests end with every file read."""
    paths = catalog[1]
    app, svc = make(tmp_path, str(tmp_path / "w.db"), catalog)
    answers = threading.Event()  # set when the database answers again
    locked = sa.exc.OperationalError("UPDATE", {}, Exception("database is locked"))
    refuse_moves(svc, "COMPLETED", locked, until=answers)
    with TestClient(app) as c:
        first = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths[:4]]})
        deadline = time.monotonic() + 30
        while svc.stats.db_write_failures._value.get() < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert svc.stats.db_write_failures._value.get() >= 2  # a drive is waiting
        # The database answers again after 3 s whatever happens, so that a
        # request stuck behind the drive shows as slow rather than hanging.
        threading.Timer(3.0, answers.set).start()
        t0 = time.monotonic()
        second = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths[4:8]]})
        assert second.status_code == 201 and time.monotonic() - t0 < 1.0
        for r in (first, second):
            files = wait_done(c, r.json()["requestId"])["files"]
            assert all(f["state"] == "COMPLETED" for f in files)


@pytest.mark.parametrize("move", ["STARTED", "COMPLETED", "FAILED"])
def test_a_move_the_database_applied_but_whose_answer_was_lost_is_counted_once(
    tmp_path, db_url, catalog, move
):
    """The connection is lost as a drive's move commits: the database has the
    move, the drive saw an error and tries again. The retry matches no row
    in the old state; it counts the rows it finds in the new one as moved,
    so the request still completes, its counts add up, and the copy is
    pinned once (the move was missed in memory, and the request never
    completed until a restart)."""
    paths = catalog[1][:4]
    app, svc = make(tmp_path, db_url, catalog, inject={"files": {paths[0]: "crash"}})
    real_transition, real_begin = svc.store.transition, svc.store.engine.begin
    armed: list[bool] = []
    lost: list[str] = []

    def transition(changes, now, pin=None, **kw):
        if changes[0][3] == move and not lost:
            armed.append(True)
        return real_transition(changes, now, pin, **kw)

    @contextlib.contextmanager
    def begin():
        with real_begin() as conn:
            yield conn
        if armed and not lost:
            lost.append(move)
            raise sa.exc.OperationalError("COMMIT", {}, Exception("server closed the connection"))

    svc.store.transition = transition
    svc.store.engine.begin = begin
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        doc = wait_done(c, rid.json()["requestId"])
        assert lost == [move]
        states = {f["path"]: f["state"] for f in doc["files"]}
        assert states == {p: "FAILED" if p == paths[0] else "COMPLETED" for p in paths}
        # The database has every file done as the commit lands; memory counts
        # the lost move once the drive tries again, 0.1 s later.
        deadline = time.monotonic() + 10
        while svc.store.summaries[doc["id"]].active and time.monotonic() < deadline:
            time.sleep(0.01)
        summary = svc.store.summaries[doc["id"]]
        assert {k: v for k, v in summary.counts.items() if v} == {"COMPLETED": 3, "FAILED": 1}
        with svc.sched.lock:
            assert svc.sched.in_system == 0
        assert {p: svc.store.disk.get(p, 0) for p in paths} == {
            p: int(p != paths[0]) for p in paths
        }
        with svc.store.engine.connect() as conn:
            pins = dict(conn.execute(sa.text("SELECT path, pins FROM disk")).all())
        assert pins == {p: 1 for p in paths[1:]}


def test_a_cancel_while_a_drive_waits_to_record_a_read_start_ends_the_file(tmp_path, catalog):
    """The database fails the drive's STARTED write; the client cancels the
    file meanwhile; the database answers again: the file ends CANCELLED and
    is not read (the cancel saw it STARTED in memory, moved nothing in the
    database, and the drive then read a file nobody held, left STARTED)."""
    paths = catalog[1][:1]
    app, svc = make(tmp_path, str(tmp_path / "c.db"), catalog)
    answers = threading.Event()  # set once the cancel is answered
    locked = sa.exc.OperationalError("UPDATE", {}, Exception("database is locked"))
    refuse_moves(svc, "STARTED", locked, until=answers)
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        rid = rid.json()["requestId"]
        deadline = time.monotonic() + 30
        wait_for_a_refused_write(svc, deadline)  # the drive is waiting
        assert c.post(f"{API}/stage/{rid}/cancel", json={"paths": paths}).status_code == 200
        answers.set()
        files = by_path(wait_done(c, rid))
        assert files[paths[0]]["state"] == "CANCELLED"
        while svc.sched.in_system and time.monotonic() < deadline:
            time.sleep(0.01)  # the drive's next try comes within 0.4 s
        with svc.sched.lock:
            assert svc.sched.in_system == 0 and svc.sched.waiting() == 0
            assert all(d.current is None for d in svc.sched.drives)
    assert reads(tmp_path / "buffer") == []


def test_a_service_stopping_while_a_drive_waits_for_the_database_reads_the_file_again(
    tmp_path, catalog
):
    """The database refuses every COMPLETED write: the service still stops
    promptly, the file is left STARTED, and a restart reads it again."""
    paths = catalog[1][:4]
    db = str(tmp_path / "s.db")
    app, svc = make(tmp_path, db, catalog)
    locked = Exception("database is locked")
    refuse_moves(svc, "COMPLETED", sa.exc.OperationalError("UPDATE", {}, locked), every=True)
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        rid = rid.json()["requestId"]
        wait_for_a_refused_write(svc, time.monotonic() + 30)
        t0 = time.monotonic()
    assert time.monotonic() - t0 < 10  # the stop did not wait for the database
    app, svc = make(tmp_path, db, catalog)
    with TestClient(app) as c:
        assert all(f["state"] == "COMPLETED" for f in wait_done(c, rid)["files"])


def test_the_watchdog_outlives_an_exception(tmp_path, catalog):
    """A bug in the watchdog's pass is logged and the next pass runs: a
    hung read still ends FAILED at its deadline."""
    paths = catalog[1][:4]
    app, svc = make(tmp_path, str(tmp_path / "d.db"), catalog, inject={"files": {paths[2]: "hang"}})
    real = svc.drives._end_overdue_reads
    raised: list[bool] = []

    def once():
        if not raised:
            raised.append(True)
            raise KeyError("a bug")
        return real()

    svc.drives._end_overdue_reads = once
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        files = by_path(wait_done(c, rid.json()["requestId"]))
        assert raised and "did not finish within" in files[paths[2]]["error"]
        assert all(files[p]["state"] == "COMPLETED" for p in paths if p != paths[2])


def test_a_drive_outlives_an_exception_choosing_its_next_step(tmp_path, catalog):
    """A bug in the scheduler as the only drive asks what to do next is
    logged and the drive asks again: every file is read (the thread ended
    there before, and nothing was read again)."""
    paths = catalog[1][:4]
    app, svc = make(tmp_path, str(tmp_path / "n.db"), catalog, drives=1)
    real = svc.sched.next_action
    raised: list[bool] = []

    def next_action(d, now):
        if not raised:
            raised.append(True)
            raise KeyError("a bug")
        return real(d, now)

    svc.sched.next_action = next_action
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        files = wait_done(c, rid.json()["requestId"])["files"]
        assert raised and all(f["state"] == "COMPLETED" for f in files)


def test_an_exception_escaping_a_read_fails_the_file_not_the_drive(tmp_path, catalog):
    """A bug after a read (here: recording the copy raises) fails that file
    with the exception's text and frees its slot; the drive reads on."""
    paths = catalog[1]
    app, svc = make(tmp_path, str(tmp_path / "b.db"), catalog)
    real = svc.drives._completed
    broken: list[str] = []

    def completed(d, job):
        if not broken:
            broken.append(job.path)
            raise KeyError("a bug")
        return real(d, job)

    svc.drives._completed = completed
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        files = by_path(wait_done(c, rid.json()["requestId"]))
        assert broken and files[broken[0]]["error"] == "KeyError: 'a bug'"
        assert all(f["state"] == "COMPLETED" for p, f in files.items() if p != broken[0])
        with svc.sched.lock:
            assert svc.sched.in_system == 0 and svc.sched.waiting() == 0
            assert all(d.current is None for d in svc.sched.drives)


def test_a_read_that_returns_after_the_watchdog_ended_it_leaves_the_drive_in_service(
    tmp_path, catalog
):
    """A read overruns its deadline and returns while the watchdog is yet to
    record its timeout, and the drive moves on: the late file still ends
    FAILED as a timeout, but the drive, whose call came back, is not taken
    out of service."""
    import threading

    paths = catalog[1][:8]
    app, svc = make(tmp_path, str(tmp_path / "w.db"), catalog, drives=1)
    slow, back = paths[1], threading.Event()
    real_read, real_failed = svc.backend.read, svc.drives._failed

    def read(drive, job):
        if job.path != slow:
            return real_read(drive, job)
        with svc.clock.idle():
            back.wait(30)

    def failed(d, job, failure):
        if failure.kind == "timeout":  # the watchdog, between giving up and recording
            back.set()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                with svc.sched.lock:
                    if svc.sched.drives[d].current is not job:
                        break
                time.sleep(0.001)
        return real_failed(d, job, failure)

    svc.backend.read, svc.drives._failed = read, failed
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        files = by_path(wait_done(c, rid.json()["requestId"]))
        assert back.is_set() and "did not finish within" in files[slow]["error"]
        assert all(files[p]["state"] == "COMPLETED" for p in paths if p != slow)
        assert svc.stats.drive_failures._value.get() == 0
        with svc.sched.lock:
            assert svc.sched.in_system == 0 and svc.sched.drives[0].down_until is None


def test_injected_rates_are_seeded_and_retries_recover_files(tmp_path, catalog):
    """Random read errors at 40 %: with two tries per file some files fail
    twice and end FAILED, others pass on their second try; the same seed
    gives the same outcome, another seed another."""

    def run(name, seed):
        app, svc = make(
            tmp_path / name,
            str(tmp_path / f"{name}.db"),
            catalog,
            buffer=str(tmp_path / name / "buffer"),
            inject={"seed": seed, "read_error_rate": 0.4},
        )
        with TestClient(app) as c:
            rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in catalog[1]]})
            files = by_path(wait_done(c, rid.json()["requestId"]))
            retried = svc.stats.retries._value.get()
        return {p for p, f in files.items() if f["state"] == "FAILED"}, retried

    first, retried = run("a", 7)
    assert 0 < len(first) < len(catalog[1]) and retried > len(first)
    assert run("b", 7)[0] == first
    assert run("c", 8)[0] != first


def test_failing_robot_moves_are_retried(tmp_path, catalog):
    app, svc = make(
        tmp_path, str(tmp_path / "r.db"), catalog, inject={"robot_failure_rate": 0.5, "seed": 3}
    )
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in catalog[1]]})
        files = by_path(wait_done(c, rid.json()["requestId"]))
        assert svc.stats.mount_failures._value.get() > 0
        for f in files.values():
            assert f["state"] == "COMPLETED" or "robot failed" in f["error"]


def test_a_read_that_hangs_is_listed_as_stuck_before_its_deadline(tmp_path, catalog):
    path = catalog[1][0]
    app, svc = make(
        tmp_path,
        str(tmp_path / "h.db"),
        catalog,
        inject={"files": {path: "hang"}},
        read_deadline={"factor": 1, "floor_s": 6e5, "stuck_factor": 2},
    )
    with TestClient(app) as c:
        c.post(f"{API}/stage", json={"files": [{"path": path}]})
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not svc.snapshot()["stuck"]:
            time.sleep(0.02)
        stuck = svc.snapshot()["stuck"]
        assert [s["path"] for s in stuck] == [path]
        assert "Reads that look stuck" in c.get("/").text


def test_release_before_staging_cancels_the_pin_and_lifetimes_expire(tmp_path, db_url, catalog):
    paths = catalog[1]
    app, svc = make(tmp_path, db_url, catalog)
    with TestClient(app) as c:
        svc.pause(True)
        body = {"files": [{"path": p, "diskLifetime": "PT10S"} for p in paths[:4]]}
        rid = c.post(f"{API}/stage", json=body).json()["requestId"]
        assert c.post(f"{API}/release/{rid}", json={"paths": paths[:2]}).status_code == 200
        svc.pause(False)
        wait_done(c, rid)
        local = c.post(f"{API}/archiveinfo", json={"paths": paths[:4]}).json()
        assert [x["locality"] for x in local] == ["TAPE"] * 2 + ["DISK_AND_TAPE"] * 2
        assert svc.expire_pins(now=time.time() + 5) == 0
        assert svc.expire_pins(now=time.time() + 11) == 2
        local = c.post(f"{API}/archiveinfo", json={"paths": paths[2:4]}).json()
        assert [x["locality"] for x in local] == ["TAPE"] * 2
        bad = c.post(f"{API}/stage", json={"files": [{"path": paths[5], "diskLifetime": "1h"}]})
        assert bad.status_code == 400 and "files[0].diskLifetime" in bad.json()["detail"]


def _alice_and_bob(tmp_path: Path, db_url: str, catalog: Any) -> tuple[Any, Any, dict, dict]:
    """A service whose tokens file names two clients; their auth headers."""
    tokens = tmp_path / "tokens"
    tokens.write_text("alice aaaaaaaaaaaaaaaaaaaa\nbob bbbbbbbbbbbbbbbbbbbb\n")
    app, svc = make(tmp_path, db_url, catalog, tokens=str(tokens))
    alice = {"Authorization": "Bearer aaaaaaaaaaaaaaaaaaaa"}
    return app, svc, alice, {"Authorization": "Bearer bbbbbbbbbbbbbbbbbbbb"}


def test_a_release_without_a_known_id_releases_the_clients_paths(tmp_path, db_url, catalog):
    """gfal-evict sends /release/gfal2-placeholder-id with the paths."""
    paths = catalog[1]
    app, svc, alice, bob = _alice_and_bob(tmp_path, db_url, catalog)
    with TestClient(app) as c:
        rid = c.post(f"{API}/stage", json={"files": [{"path": paths[0]}]}, headers=alice)
        rid = rid.json()["requestId"]
        while "completedAt" not in c.get(f"{API}/stage/{rid}", headers=alice).json():
            time.sleep(0.05)
        # Bob holds no pin on it: nothing to release; Alice's id is not his.
        evict = f"{API}/release/gfal2-placeholder-id"
        assert c.post(evict, json={"paths": [paths[0]]}, headers=bob).status_code == 404
        assert (
            c.post(f"{API}/release/{rid}", json={"paths": [paths[0]]}, headers=bob).status_code
            == 403
        )
        local = c.post(f"{API}/archiveinfo", json={"paths": [paths[0]]}, headers=alice).json()
        assert local[0]["locality"] == "DISK_AND_TAPE"
        assert c.post(evict, json={"paths": [paths[0]]}, headers=alice).status_code == 200
        local = c.post(f"{API}/archiveinfo", json={"paths": [paths[0]]}, headers=alice).json()
        assert local[0]["locality"] == "TAPE"


def test_a_release_without_a_known_id_cancels_the_pin_of_a_waiting_file(tmp_path, db_url, catalog):
    """The waiting file is found in the scheduler (the path index holds
    staged files only) and completes unpinned; the database's scan of open
    files, used while a start queues files again, finds the same row."""
    paths = catalog[1]
    app, svc, alice, bob = _alice_and_bob(tmp_path, db_url, catalog)
    evict = f"{API}/release/gfal2-placeholder-id"
    with TestClient(app) as c:
        svc.pause(True)
        rid = c.post(
            f"{API}/stage", json={"files": [{"path": p} for p in paths[:2]]}, headers=alice
        )
        rid = rid.json()["requestId"]
        assert c.post(evict, json={"paths": [paths[0]]}, headers=bob).status_code == 404
        scanned = svc.store.client_open_files("alice", [paths[0]])
        assert [(r.path, r.state, r.request_id) for r in scanned] == [(paths[0], "SUBMITTED", rid)]
        assert c.post(evict, json={"paths": [paths[0]]}, headers=alice).status_code == 200
        assert svc.store.client_open_files("alice", [paths[0]]) == []
        svc.pause(False)
        while "completedAt" not in c.get(f"{API}/stage/{rid}", headers=alice).json():
            time.sleep(0.05)
        local = c.post(f"{API}/archiveinfo", json={"paths": paths[:2]}, headers=alice).json()
        assert [x["locality"] for x in local] == ["TAPE", "DISK_AND_TAPE"]


def test_a_second_service_on_the_database_refuses_to_start(tmp_path, db_url, catalog):
    _, first = make(tmp_path, db_url, catalog)
    first.start()
    try:
        _, second = make(tmp_path, db_url, catalog)
        with pytest.raises(SeekplanError, match=r"in use by seekplan serve pid \d+"):
            second.start()
    finally:
        first.stop()
    _, third = make(tmp_path, db_url, catalog)
    third.start()  # the first's lock went with it
    third.stop()


def test_a_lock_whose_connection_was_lost_still_stops_and_frees_the_database(
    tmp_path, postgres, catalog
):
    """The server ends the guard's session (an administrator's
    pg_terminate_backend, a restarted cluster): stopping the service drops
    a lock that is already gone without an error, and a new service starts."""
    import psycopg

    url = postgres.fresh()
    _, first = make(tmp_path, url, catalog)
    first.start()
    try:
        with psycopg.connect(url) as admin:
            ended = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE application_name LIKE 'seekplan serve pid %' AND pid <> pg_backend_pid()"
            ).fetchall()
        assert ended and all(row[0] for row in ended)
    finally:
        first.stop()
    _, second = make(tmp_path, url, catalog)
    second.start()
    second.stop()


def test_a_deleted_database_file_is_never_acknowledged(tmp_path, catalog):
    db = tmp_path / "gone.db"
    app, svc = make(tmp_path, str(db), catalog)
    with TestClient(app) as c:
        ok = c.post(f"{API}/stage", json={"files": [{"path": catalog[1][0]}]})
        assert ok.status_code == 201
        db.unlink()
        r = c.post(f"{API}/stage", json={"files": [{"path": catalog[1][1]}]})
        assert r.status_code == 503
        assert r.headers["content-type"].startswith("application/problem+json")
        assert "deleted or replaced" in r.json()["detail"]
        assert svc.paused and "not acknowledging" in c.get("/").text.lower()


def test_a_full_disk_is_a_problem_document_not_a_traceback(tmp_path, catalog):
    app, svc = make(tmp_path, str(tmp_path / "full.db"), catalog)

    def tiny(dbapi_connection, _record):
        dbapi_connection.execute("PRAGMA max_page_count = 1")

    with TestClient(app, raise_server_exceptions=False) as c:
        svc.pause(True)
        sa.event.listen(svc.engine, "connect", tiny)
        svc.engine.dispose()
        r = c.post(f"{API}/stage", json={"files": [{"path": p} for p in catalog[1]]})
        assert r.status_code == 503, r.text
        assert r.headers["content-type"].startswith("application/problem+json")
        assert "full" in r.json()["detail"]
        sa.event.remove(svc.engine, "connect", tiny)
        svc.engine.dispose()
        assert c.post(f"{API}/stage", json={"files": [{"path": catalog[1][0]}]}).status_code == 201


def test_the_read_log_cannot_be_forged_by_a_path(tmp_path):
    from seekplan.serve.backend import ReadJob, SimulatedBackend
    from seekplan.serve.clock import Clock
    from seekplan.serve.config import StageConfig

    cfg = StageConfig(catalog="x")
    from seekplan.catalog import make_drive
    from seekplan.hardware import recall_hardware

    recall = cfg.recall()
    backend = SimulatedBackend(
        recall_hardware(recall),
        recall["library"]["read_model"],
        make_drive("lto9"),
        Clock(1e6),
        tmp_path,
        18_000_000_000_000,
    )
    forged = "/a\nread\t/b"
    backend.read(0, ReadJob(forged, "T", 0, 1, 0, 1))
    backend.close()
    assert backend.on_disk() == {forged}


def test_a_client_that_disconnects_mid_body_is_one_log_line(tmp_path, catalog):
    port = free_port()
    cfg = tmp_path / "stage.yaml"
    cfg.write_text(
        yaml.safe_dump(
            {
                "catalog": str(catalog[0]),
                "db": str(tmp_path / "d.db"),
                "port": port,
                "library": {"drives": 1},
            }
        )
    )
    with server(cfg, port):
        with socket.create_connection(("127.0.0.1", port)) as s:
            s.sendall(
                b"POST /api/v1/stage HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b'Content-Length: 1000\r\n\r\n{"files": ['
            )
        time.sleep(0.5)
    err = stderr_of(cfg).read_text()
    assert "disconnected before sending its whole body" in err
    assert "Traceback" not in err


def test_a_second_serve_on_one_database_exits_2_naming_the_first(tmp_path, catalog):
    port = free_port()
    cfg = tmp_path / "stage.yaml"
    cfg.write_text(
        yaml.safe_dump({"catalog": str(catalog[0]), "db": str(tmp_path / "d.db"), "port": port})
    )
    with server(cfg, port) as first:
        other = tmp_path / "other.yaml"
        other.write_text(cfg.read_text().replace(f"port: {port}", f"port: {free_port()}"))
        out = subprocess.run(
            [sys.executable, "-m", "seekplan", "serve", "--config", str(other)],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert out.returncode == 2, out.stderr
        assert f"in use by seekplan serve pid {first.pid}" in out.stderr


def test_a_restart_serves_before_its_queue_is_back(tmp_path, db_url, catalog):
    """After a restart the service answers while open files are still being
    queued again; a cancel or release of a file not queued yet holds."""
    import threading

    paths = catalog[1]
    app, svc = make(tmp_path, db_url, catalog)
    with TestClient(app) as c:
        svc.pause(True)
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths[:12]]})
        rid = rid.json()["requestId"]
    app, svc = make(tmp_path, db_url, catalog)
    gate = threading.Event()
    on_disk = svc.backend.on_disk

    def slow():
        gate.wait(30)  # what the backend holds is read before the first chunk
        return on_disk()

    svc.backend.on_disk = slow
    with TestClient(app) as c:
        assert svc.recovering
        first = [f["path"] for f in c.get(f"{API}/stage/{rid}").json()["files"]]
        later = first[8:]
        assert svc.recovered == 0
        assert c.post(f"{API}/stage/{rid}/cancel", json={"paths": later[:2]}).status_code == 200
        assert c.post(f"{API}/release/{rid}", json={"paths": later[2:]}).status_code == 200
        assert "Resuming after a start" in c.get("/").text
        gate.set()
        assert svc.wait_recovered(30) and svc.recovered == 10  # the 2 cancelled are not
        files = by_path(wait_done(c, rid))
        assert [files[p]["state"] for p in later] == ["CANCELLED"] * 2 + ["COMPLETED"] * 2
        local = c.post(f"{API}/archiveinfo", json={"paths": later}).json()
        assert [x["locality"] for x in local] == ["TAPE"] * 4
        assert all(files[p]["state"] == "COMPLETED" for p in first[:8])
    assert not set(reads(tmp_path / "buffer")) & set(later[:2])


def test_files_submitted_while_the_queue_comes_back_are_queued_once(tmp_path, db_url, catalog):
    """A request made while a start is still putting the open files back in
    the queue: the resume queues only what was open before the start. It
    queued the new request's files a second time, from the database's
    state: a file a drive had marked STARTED went back to SUBMITTED in
    memory, its COMPLETED move then matched no row, and it stayed STARTED
    (seen in CI on PostgreSQL as /data/T1/f0000 left STARTED)."""
    paths = catalog[1][:8]
    app, svc = make(tmp_path, db_url, catalog)
    gate = threading.Event()
    refresh = svc.store.refresh_statistics

    def slow() -> None:
        gate.wait(30)  # the resume's first step
        refresh()

    svc.store.refresh_statistics = slow
    with TestClient(app) as c:
        assert svc.recovering
        svc.pause(True)
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        gate.set()
        assert svc.wait_recovered(30)
        svc.pause(False)
        files = wait_done(c, rid.json()["requestId"])["files"]
        assert all(f["state"] == "COMPLETED" for f in files)
        assert svc.recovered == 0
    assert sorted(reads(tmp_path / "buffer")) == sorted(paths)


@pytest.mark.parametrize("fault", ["listing", "bug"])
def test_a_start_whose_resume_meets_a_fault_still_reads_the_open_files(tmp_path, catalog, fault):
    """At a restart the backend cannot list its copies (``listing``: every
    open file is read again), or the resume's first chunk meets a bug
    (``bug``: logged, shown, and tried again): either way the open files are
    queued and read. Either exception ended the resume's thread before, and
    the files waited for good."""
    import seekplan.serve.recovery as recovery_module

    paths = catalog[1][:4]
    db = str(tmp_path / "o.db")
    app, svc = make(tmp_path, db, catalog)
    with TestClient(app) as c:
        svc.pause(True)
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        rid = rid.json()["requestId"]
    app, svc = make(tmp_path, db, catalog)
    failed: list[str] = []
    if fault == "listing":

        def broken() -> set[str]:
            failed.append(fault)
            raise RuntimeError("the buffer's index is corrupt")

        svc.backend.on_disk = broken
    else:
        real = svc._requeue

        def requeue(rows, buffered):
            if not failed:
                failed.append(fault)
                raise KeyError("a bug")
            return real(rows, buffered)

        svc._requeue = requeue
    with pytest.MonkeyPatch.context() as m:
        m.setattr(recovery_module, "RESUME_RETRY_S", 0.05)
        with TestClient(app) as c:
            assert svc.wait_recovered(30) and svc.recovered == len(paths)
            assert failed == [fault]
            assert (svc.recover_error is None) == (fault == "listing")
            assert all(f["state"] == "COMPLETED" for f in wait_done(c, rid)["files"])


def test_a_backend_failing_to_drop_a_copy_fails_neither_the_release_nor_the_reaper(
    tmp_path, catalog
):
    """The backend raises as it drops a released copy: the release is still
    answered 200 and counted, the copy stays in the buffer (logged), and the
    next release and an expiry drop theirs (the exception was a 500, and in
    the pin reaper it ended the thread for good)."""
    paths = catalog[1][:3]
    app, svc = make(tmp_path, str(tmp_path / "e.db"), catalog)
    dropped: list[str] = []

    def evict(path: str) -> None:
        if not dropped:
            dropped.append("refused")
            raise RuntimeError("the buffer is read-only")
        dropped.append(path)

    svc.backend.evict = evict
    with TestClient(app) as c:
        body = {"files": [{"path": p, "diskLifetime": "PT1H"} for p in paths[:2]]}
        rid = c.post(f"{API}/stage", json=body).json()["requestId"]
        assert all(f["state"] == "COMPLETED" for f in wait_done(c, rid)["files"])
        assert c.post(f"{API}/release/{rid}", json={"paths": paths[:1]}).status_code == 200
        assert svc.stats.evict_failures._value.get() == 1
        assert c.post(f"{API}/release/{rid}", json={"paths": paths[1:2]}).status_code == 200
        assert dropped == ["refused", paths[1]]
        rid = c.post(f"{API}/stage", json={"files": [{"path": paths[2], "diskLifetime": "PT1S"}]})
        assert wait_done(c, rid.json()["requestId"])["files"][0]["state"] == "COMPLETED"
        assert svc.expire_pins(time.time() + 10) == 1 and dropped[-1] == paths[2]


def test_the_pin_reaper_outlives_an_exception(tmp_path, catalog, monkeypatch):
    """A bug in one pass of the pin reaper is logged and the next pass runs."""
    import seekplan.serve.service as service_module

    monkeypatch.setattr(service_module, "PIN_CHECK_S", 0.02)
    app, svc = make(tmp_path, str(tmp_path / "p.db"), catalog)
    passes: list[int] = []
    real = svc.expire_pins

    def expire_pins(now=None):
        passes.append(1)
        if len(passes) == 1:
            raise KeyError("a bug")
        return real(now)

    svc.expire_pins = expire_pins
    with TestClient(app):
        deadline = time.monotonic() + 10
        while len(passes) < 3 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert len(passes) >= 3


def test_an_unforeseen_exception_is_a_500_problem_document(tmp_path, catalog):
    app, svc = make(tmp_path, str(tmp_path / "x.db"), catalog)

    def boom(paths):
        raise RuntimeError("a bug")

    svc.archiveinfo = boom
    with TestClient(app, raise_server_exceptions=False) as c:
        r = c.post(f"{API}/archiveinfo", json={"paths": [catalog[1][0]]})
        assert r.status_code == 500
        assert r.headers["content-type"].startswith("application/problem+json")
        assert r.json()["detail"] == "RuntimeError: a bug"


def test_a_large_request_failing_half_way_leaves_nothing(tmp_path, db_url, catalog, monkeypatch):
    """A request past one chunk is written chunk by chunk; the disk failing
    at its second chunk is a 503 and no row of it stays, and one cut short
    by a crash (never accepted) is deleted at the next start."""
    import seekplan.serve.intake as intake

    monkeypatch.setattr(intake, "CHUNK", 8)
    app, svc = make(tmp_path, db_url, catalog)
    real = svc.intake.rows
    chunks_written = []

    def full_at_second(rid, wanted, found, errors, start, *rest):
        chunks_written.append(start)
        if start >= 8:
            raise OSError(28, "No space left on device")
        return real(rid, wanted, found, errors, start, *rest)

    svc.intake.rows = full_at_second
    with TestClient(app) as c:
        svc.pause(True)
        r = c.post(f"{API}/stage", json={"files": [{"path": p} for p in catalog[1][:20]]})
        assert r.status_code == 503 and "No space left on device" in r.json()["detail"]
        assert chunks_written == [0, 8]
        with svc.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM files")).scalar() == 0
            assert conn.execute(sa.text("SELECT count(*) FROM requests")).scalar() == 0
        # A crash between chunks leaves a request never accepted.
        with svc.engine.begin() as conn:
            conn.execute(
                sa.text(
                    "INSERT INTO requests (id, client, created_at, n_files, deleted, accepted, "
                    "n_submitted, n_started, n_cancelled, n_failed, n_completed) "
                    "VALUES ('cut-short', 'anonymous', 0, 1, false, false, 1, 0, 0, 0, 0)"
                )
            )
            conn.execute(
                sa.text(
                    "INSERT INTO files (id, request_id, path, state, released) "
                    "VALUES (999, 'cut-short', :p, 'SUBMITTED', false)"
                ),
                {"p": catalog[1][0]},
            )
    app, svc = make(tmp_path, db_url, catalog)
    with TestClient(app) as c:
        assert c.get(f"{API}/stage/cut-short").status_code == 404
        with svc.engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM files")).scalar() == 0


def test_a_database_failing_while_the_queue_comes_back_is_retried(tmp_path, catalog, monkeypatch):
    import seekplan.serve.recovery as recovery_module

    paths = catalog[1][:6]
    app, svc = make(tmp_path, str(tmp_path / "r.db"), catalog)
    with TestClient(app) as c:
        svc.pause(True)
        rid = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
        rid = rid.json()["requestId"]
    monkeypatch.setattr(recovery_module, "RESUME_RETRY_S", 0.05)
    app, svc = make(tmp_path, str(tmp_path / "r.db"), catalog)
    real = svc.store.open_files
    failures = []

    def flaky(after, before, limit=1000):
        if after > 0 and not failures:
            failures.append(after)
            raise sa.exc.OperationalError("SELECT", {}, Exception("disk I/O error"))
        return real(after, before, limit)

    svc.store.open_files = flaky
    with TestClient(app) as c:
        assert svc.wait_recovered(30)
        assert failures and "disk I/O error" in svc.recover_error
        assert all(f["state"] == "COMPLETED" for f in wait_done(c, rid)["files"])
