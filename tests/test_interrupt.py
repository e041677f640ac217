"""Ctrl-C during a sweep keeps what finished: run_points raises Interrupted
with the finished points, and the CLI writes them and exits 130."""

from __future__ import annotations

import json
import os
import signal
import threading
import time
from collections.abc import Callable
from functools import partial

import pytest

from seekplan import experiments
from seekplan.errors import Interrupted
from seekplan.sweep import run_points


def _third_is_interrupted(i: int) -> int:
    if i == 2:
        raise KeyboardInterrupt
    return i * i


def _slow_square(i: int) -> int:
    time.sleep(0.2)
    return i * i


def test_ctrl_c_in_process_keeps_the_points_before_it():
    with pytest.raises(Interrupted) as e:
        run_points(_third_is_interrupted, list(range(5)), label="squares", workers=1, quiet=True)
    assert e.value.done == {0: 0, 1: 1}
    assert e.value.partial()["finished"] == 2 and e.value.partial()["total"] == 5


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt, as at a terminal, even when the test
    run started with SIGINT ignored (a shell's background job does; Python
    then leaves it ignored)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_ctrl_c_on_a_process_pool_stops_soon_and_keeps_finished_points(ctrl_c_raises):
    timer = threading.Timer(0.9, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    try:
        with pytest.raises(Interrupted) as e:
            run_points(_slow_square, list(range(60)), label="slow", workers=2, quiet=True)
    finally:
        timer.cancel()
    # 60 points of 0.2 s on 2 workers take 6 s; cancelled, it stops well before.
    assert time.monotonic() - start < 4
    done = e.value.done
    assert 0 < len(done) < 60
    assert all(r == i * i for i, r in done.items())


def test_the_cli_writes_partial_results_and_exits_130(cli, tmp_path, monkeypatch):
    def interrupted(*_args: object) -> dict:
        raise Interrupted("sandsta mlr1", [("mlr1", 8), ("mlr1", 16)], {0: {"fifo": 1.5}})

    monkeypatch.setattr(experiments, "runner", lambda name: interrupted)
    r = cli("reproduce", "sandsta", "--out", tmp_path / "out")
    assert r.exit_code == 130
    saved = json.loads((tmp_path / "out" / "partial.json").read_text())
    assert saved["interrupted"] and saved["finished"] == 1 and saved["total"] == 2
    assert saved["points"] == [{"index": 0, "point": ["mlr1", 8], "result": {"fifo": 1.5}}]


def _stops_after_ctrl_c(run: Callable[[], object], after: float = 1.0) -> float:
    """Seconds `run` took to raise KeyboardInterrupt after a Ctrl-C sent
    `after` seconds into it."""
    sent: list[float] = []

    def ctrl_c() -> None:
        sent.append(time.monotonic())
        os.kill(os.getpid(), signal.SIGINT)

    timer = threading.Timer(after, ctrl_c)
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            run()
    finally:
        timer.cancel()
    assert sent, "the run ended before the Ctrl-C"
    return time.monotonic() - sent[0]


def test_ctrl_c_stops_a_long_order_at_once_without_a_progress_callback(ctrl_c_raises):
    """`best` on 100,000 LTO-9 requests runs for seconds (8 s in a release
    build); its long steps ask Python now and then whether a Ctrl-C is
    pending, so it ends within a fraction of a second of it rather than at
    the end of the step it is in (6.5 s later before)."""
    import random

    import seekplan

    rng = random.Random(5)
    capacity = seekplan.catalog.make_drive("lto9").capacity
    requests = [(f"r{i}", rng.randrange(capacity - 64), 32768) for i in range(100_000)]
    run = partial(seekplan.order, requests, drive="lto9", algo="best", bound=False)
    assert _stops_after_ctrl_c(run) < 1.5


def test_ctrl_c_stops_branch_and_bound_given_a_time_limit(ctrl_c_raises):
    """`bnb` given a time limit searches until it proves its tour or the limit
    passes (a minute here, on 60 random points it cannot prove in seconds);
    Ctrl-C still ends it within a fraction of a second."""
    import numpy as np

    import seekplan

    points = np.random.default_rng(1).integers(0, 1000, size=(60, 2))
    apart = points[:, None, :] - points[None, :, :]
    matrix = np.rint(np.hypot(apart[..., 0], apart[..., 1]))
    run = partial(seekplan.order_matrix, matrix, algo="bnb", time_limit=60)
    assert _stops_after_ctrl_c(run) < 1.5
