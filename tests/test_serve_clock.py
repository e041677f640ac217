"""The serve clocks: the modelled clock counts modelled steps only."""

from __future__ import annotations

import threading
import time

import pytest

from seekplan.serve.clock import Clock, ModelledClock

SCALE = 1000.0


def test_a_computing_worker_stops_the_clock() -> None:
    clock = ModelledClock(SCALE)
    with clock.worker():
        t0 = clock.now()
        time.sleep(0.05)  # 50 virtual seconds if the clock ran
        assert clock.now() == t0


def test_a_step_ends_exactly_at_its_modelled_time() -> None:
    clock = ModelledClock(SCALE)
    with clock.worker():
        t0 = clock.now()
        clock.sleep(20.0)
        t1 = clock.now()
        time.sleep(0.02)  # computing: no time passes
        clock.sleep(5.5)
        assert t1 == pytest.approx(t0 + 20.0, abs=1e-9)
        assert clock.now() == pytest.approx(t0 + 25.5, abs=1e-9)


def test_workers_wake_in_deadline_order_at_their_deadlines() -> None:
    clock = ModelledClock(SCALE)
    ends: dict[str, float] = {}
    lock = threading.Lock()
    registered = threading.Barrier(2)

    def run(name: str, steps: list[float], cpu_s: float) -> None:
        with clock.worker():
            registered.wait()  # both count before either steps
            t0 = clock.now()
            for s in steps:
                time.sleep(cpu_s)  # the service's own work between steps
                clock.sleep(s)
            with lock:
                ends[name] = clock.now() - t0

    threads = [
        threading.Thread(target=run, args=("a", [30.0, 30.0], 0.03)),
        threading.Thread(target=run, args=("b", [10.0, 10.0, 10.0], 0.0)),
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    # Each worker's end is the sum of its steps: computing never counts.
    assert ends["a"] == pytest.approx(60.0, abs=1e-6)
    assert ends["b"] == pytest.approx(30.0, abs=1e-6)


def test_an_idle_worker_lets_the_clock_run() -> None:
    clock = ModelledClock(SCALE)
    with clock.worker():
        t0 = clock.now()
        with clock.idle():
            time.sleep(0.02)
        assert clock.now() - t0 >= 0.02 * SCALE


def test_halt_ends_a_long_step() -> None:
    clock = ModelledClock(1.0)
    done = threading.Event()

    def run() -> None:
        with clock.worker():
            clock.sleep(3600.0)
        done.set()

    t = threading.Thread(target=run)
    t.start()
    time.sleep(0.05)
    clock.halt()
    assert done.wait(5)


def test_a_thread_that_is_not_a_worker_can_sleep() -> None:
    clock = ModelledClock(SCALE)
    clock.sleep(7.0)
    assert clock.now() >= 7.0
    with clock.idle():  # nothing to release for a non-worker
        pass


def test_the_wall_clock_runs_regardless() -> None:
    clock = Clock(SCALE)
    with clock.worker():
        t0 = clock.now()
        time.sleep(0.02)
        assert clock.now() - t0 >= 0.02 * SCALE


def test_a_notified_worker_starts_at_the_notify_whatever_its_wake_up_latency() -> None:
    """At 10^9x, a microsecond of thread wake-up would be 1,000 virtual
    seconds: the notify itself counts the woken worker as computing."""
    clock = ModelledClock(1e9)
    cond = threading.Condition()
    registered = threading.Barrier(2)
    woke_at: list[float] = []
    notified_at: list[float] = []

    def waiter() -> None:
        with clock.worker():
            with cond:
                registered.wait()
                clock.wait(cond, 10.0)
                woke_at.append(clock.now())

    def notifier() -> None:
        with clock.worker():
            registered.wait()
            with cond:  # the waiter is in its wait once this lock is free
                pass
            clock.sleep(50.0)
            with cond:
                notified_at.append(clock.now())
                clock.notify_all(cond)
            clock.sleep(1000.0)  # the clock must not run past the waiter's start

    threads = [threading.Thread(target=waiter), threading.Thread(target=notifier)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=10)
    assert woke_at == notified_at
