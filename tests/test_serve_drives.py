"""`seekplan serve` keeps every drive reading while work is queued (issue 35,
item 3): the default by-tapes `tapes: auto` passes on as many tapes as there
are drives, a free drive is not starved by a queue full of held tapes' files,
and the status page warns when drives idle while files wait."""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient
from serve_support import FifoRequester, write_catalog

from seekplan.catalog import make_drive
from seekplan.serve import build
from seekplan.serve.catalog import Catalog
from seekplan.serve.config import load_stage_config
from seekplan.serve.jobs import Job
from seekplan.serve.page import render_page
from seekplan.serve.queue_views import idle_warning
from seekplan.serve.scheduler import Scheduler

API = "/api/v1"
DRIVES = 12
TAPES = 50
PER_TAPE = 300
#: What a drive does when it has nothing to do.
IDLE = ("empty", "idle")


def make(tmp_path, catalog, **over):
    """An app and its service (not started: TestClient's lifespan starts it)."""
    settings = {
        "catalog": str(catalog),
        "db": str(tmp_path / "stage.db"),
        "buffer": str(tmp_path / "buffer"),
        "time_scale": 20_000.0,
        **over,
    }
    return build(load_stage_config(None, settings))


def wide_catalog(path) -> list[str]:
    """50 tapes of 300 1 GB files each, spread along an LTO-9 tape; the paths."""
    rows, paths = [], []
    step = 30_000_000 // PER_TAPE
    for t in range(TAPES):
        for i in range(PER_TAPE):
            p = f"/w/T{t:02d}/f{i:03d}"
            rows.append(f"{p},T{t:02d},{(i * 97 % PER_TAPE) * step + 11},1000000000")
            paths.append(p)
    path.write_text("path,tape,block,size\n" + "\n".join(rows) + "\n")
    return paths


def stage_all(c: TestClient, svc: Any, paths: list[str]) -> str:
    """One request for ``paths``, made while the drives are down; its id."""
    svc.pause(True)
    r = c.post(f"{API}/stage", json={"files": [{"path": p} for p in paths]})
    assert r.status_code == 201, r.text
    svc.pause(False)
    return str(r.json()["requestId"])


def busy_drives(svc: Any) -> tuple[int, int]:
    """Drives doing something (not empty nor idle), and files waiting."""
    with svc.sched.lock:
        busy = sum(d.activity not in IDLE for d in svc.sched.drives)
        return busy, svc.sched.waiting()


def test_every_drive_reads_while_a_tape_per_drive_is_queued(tmp_path):
    """The measured problem: by-tapes with 2 tapes read 50 tapes on 2 of 12
    drives (and at this catalog's 300 files a tape, 8 of 12 at the start:
    the 2,000-file queue held 7 tapes). With the default policy all 12 read
    while at least a tape's worth of files per drive waits."""
    paths = wide_catalog(tmp_path / "wide.csv")
    random.Random(35).shuffle(paths)
    # `sort` orders a batch at once; `best` would stop the modelled clock
    # for seconds on this machine while the drives plan.
    app, svc = make(tmp_path, tmp_path / "wide.csv", drives=DRIVES, order="sort")
    with TestClient(app) as c:
        stage_all(c, svc, paths)
        deadline = time.monotonic() + 5
        while svc.stats.bytes_read._value.get() == 0 and time.monotonic() < deadline:
            time.sleep(0.01)
        samples = []
        for _ in range(10):
            time.sleep(0.05)
            busy, waiting = busy_drives(svc)
            if waiting >= DRIVES * PER_TAPE:
                samples.append(busy)
        assert len(samples) >= 5, "the run ended before it was sampled"
        assert samples == [DRIVES] * len(samples)
        with svc.sched.lock:
            # no tape is passed on whole yet: one tape in flight per drive
            assert svc.sched.parallel_tapes == DRIVES
        assert svc.snapshot()["idle_warning"] is None


def test_the_page_warns_when_drives_idle_while_files_wait(tmp_path):
    """One tape at a time through a 6-file queue leaves 3 of 4 drives empty
    while the other tapes' files wait in the requester: the page says so,
    with the counts; once every file is read the warning is gone."""
    cat = tmp_path / "c.csv"
    paths = write_catalog(cat)
    app, svc = make(
        tmp_path,
        cat,
        drives=4,
        policy={"name": "by-tapes", "tapes": 1},
        library={"queue_size": 6},
    )
    with TestClient(app) as c:
        rid = stage_all(c, svc, paths)
        deadline = time.monotonic() + 10
        snap: dict[str, Any] = {"idle_warning": None}
        while snap["idle_warning"] is None and time.monotonic() < deadline:
            if svc.stats.bytes_read._value.get() > 0:
                snap = svc.snapshot()
            time.sleep(0.01)
        warning = snap["idle_warning"]
        assert warning is not None, "no warning while drives stood empty"
        assert warning["drives"] == 4 and 1 <= warning["idle"] <= 3
        assert 1 <= warning["tapes"] <= 3
        assert 0 < warning["in_requester"] + warning["in_queue"] < len(paths)
        page = render_page(snap, "test")
        assert "id='idle-warning'" in page
        assert f"{warning['idle']} of 4 drives idle while {warning['tapes']} tapes" in page
        done = time.monotonic() + 30
        while "completedAt" not in c.get(f"{API}/stage/{rid}").json():
            assert time.monotonic() < done, "the request did not complete"
            time.sleep(0.05)
        assert svc.snapshot()["idle_warning"] is None
        assert "idle-warning" not in c.get("/").text


def fifo_scheduler(tapes: list[int]) -> tuple[Scheduler, FifoRequester]:
    """Two drives, a queue of 2, `tapes: auto`; one file arrives per entry of
    ``tapes`` (its tape), in that order."""
    requester = FifoRequester()
    n = len(tapes)
    catalog = Catalog(
        [f"/f{i}" for i in range(n)],
        np.array(tapes, dtype=np.int64),
        np.arange(n, dtype=np.int64) * 1000,
        np.full(n, 1_000_000, dtype=np.int64),
        ["B", "C"],
    )
    sched = Scheduler(requester, catalog, make_drive("lto9"), "sort", 2, 2, auto_tapes=True)
    for i, t in enumerate(tapes):
        sched.arrive(Job(f"/f{i}", t, 1000 * i, 1_000_000, i), 0.0)
    return sched, requester


def test_a_free_drive_gets_a_new_tape_past_a_queue_full_of_held_tapes_files():
    """Tape B's files fill the 2-file queue; drive 0 takes B, and the queue
    admits files past its size until tape C has one for drive 1 -- at most
    one file per drive past it."""
    sched, requester = fifo_scheduler([0, 0, 0, 1])
    first = sched.next_action(0, 0.0)
    assert first is not None and first.kind == "switch" and first.tape == 0
    second = sched.next_action(1, 0.0)
    assert second is not None and second.kind == "switch" and second.tape == 1
    assert sched.in_system == 4
    # Nothing passed on at first: both drives' tapes; then B (after its
    # third file) and C are passed on whole: 1 (the floor).
    assert requester.parallel == [2, 1]
    assert sched.passed_whole == {0, 1}

    sched, _ = fifo_scheduler([0, 0, 0, 0, 0, 1])
    sched.next_action(0, 0.0)
    assert sched.next_action(1, 0.0) is None
    assert sched.in_system == 2 + 2, "one file per drive past the queue's size"
    assert sched.drives[1].activity == "empty"
    warning = idle_warning(sched)
    assert warning == {"idle": 1, "drives": 2, "tapes": 1, "in_requester": 1, "in_queue": 0}


def test_tapes_auto_is_the_default_and_by_tapes_alone_means_it():
    """The core gets by-tapes at 1 tape for `auto` (the scheduler sets the
    number); a fixed number stays the simulator's strategy; a word other
    than auto names the field."""
    from seekplan.errors import SeekplanError

    base = {"catalog": "/c.csv"}
    default = load_stage_config(None, base)
    assert default.auto_tapes() and default.recall()["strategy"] == {"name": "by-tapes", "tapes": 1}
    assert load_stage_config(None, {**base, "policy": "by-tapes"}).auto_tapes()
    fixed = load_stage_config(None, {**base, "policy": {"name": "by-tapes", "tapes": 3}})
    assert not fixed.auto_tapes() and fixed.recall()["strategy"]["tapes"] == 3
    assert not load_stage_config(None, {**base, "policy": "fifo"}).auto_tapes()
    with pytest.raises(SeekplanError, match="policy.tapes: 'two': give a number of tapes or auto"):
        load_stage_config(None, {**base, "policy": {"name": "by-tapes", "tapes": "two"}})


def test_the_drive_table_agrees_with_the_queues_and_shows_each_reads_rate(tmp_path):
    # issue 38: a drive "reading" showed 0 MB/s while an idle one showed its
    # last read's 38 MB/s, a mounting drive showed tape "-" though the queue
    # table already gave it the tape, and the models were not named.
    paths = wide_catalog(tmp_path / "wide.csv")
    app, svc = make(
        tmp_path, tmp_path / "wide.csv", drives=4, order="sort", time_scale=200.0,
        library={"drives": 4, "robot": "sl8500"},
    )  # fmt: skip
    seen: dict[str, int] = {"reading": 0, "mounting": 0}
    with TestClient(app) as c:
        stage_all(c, svc, paths[: 3 * PER_TAPE])
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and (seen["reading"] < 3 or seen["mounting"] < 1):
            snap = svc.snapshot()
            held = {t["tape"]: t["drive"] for t in snap["tapes"] if t["drive"] is not None}
            for d in snap["drives"]:
                if d["activity"] == "reading":
                    seen["reading"] += 1
                    assert d["rate_mb_s"] > 0 and d["file"], d
                else:
                    assert d["rate_mb_s"] == 0, d
                    assert (d["file"] is None) == (d["activity"] != "starting"), d
                if d["activity"] == "mounting":
                    seen["mounting"] += 1
                    assert d["tape"] is not None, d
                if d["tape"] is not None and d["tape"] in held:
                    assert held[d["tape"]] == d["drive"], (d, held)
            time.sleep(0.02)
        assert seen["reading"] >= 3 and seen["mounting"] >= 1, seen
        page = c.get("/").text
        assert "drive lto9 (LTO-9" in page and "library sl8500" in page
