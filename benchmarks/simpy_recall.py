"""The recall library model written a second time with SimPy (the tool the
dCache paper used), for benchmarks/bench_recall.py only.

Same model as the Rust core: linear locate (wind_s x fraction crossed), scan
order from the head, re-ordered before each read when requests for the
tape arrived; a free drive takes the unheld tape with most queued bytes;
tapes stay mounted while they have work; requester strategies random and
by-tapes N (round-robin over the active tapes, tapes in first-seen order).
"""

from __future__ import annotations

from collections import deque
from typing import Any

import numpy as np
import simpy

from seekplan.recall.config import RecallConfig
from seekplan.recall.workload import Campaign


class Library:
    """The tape system, drives and requester as SimPy processes."""

    def __init__(self, config: RecallConfig, c: Campaign) -> None:
        lib = config.library
        self.env = simpy.Environment()
        self.lib = lib
        self.c = c
        self.size = c.size.tolist()
        self.block = c.block.tolist()
        self.tape = c.tape.tolist()
        self.cap_blocks = (c.capacity // lib.block_bytes).tolist()
        self.rate = lib.rate_mb_s * 1e6
        self.robot = simpy.Resource(self.env, capacity=lib.robot.arms)
        n_tapes = len(c.capacity)
        self.plan: list[list[int]] = [[] for _ in range(n_tapes)]
        self.fresh: list[list[int]] = [[] for _ in range(n_tapes)]
        self.qbytes = [0] * n_tapes
        self.oldest = [0] * n_tapes
        self.holder: list[int | None] = [None] * n_tapes
        self.seq = 0
        self.in_queue = 0
        self.enq = [0.0] * c.files
        self.wake = self.env.event()
        self.done_bytes = 0
        self.done_files = 0
        self.staging = 0.0
        self.mounts: list[tuple[int, float, int]] = []
        self.strategy = config.strategy
        self.rng = np.random.default_rng(config.seed)
        self.pending: list[int] = list(range(c.files))
        # by-tapes state
        self.by_tape: list[deque[int]] = [deque() for _ in range(n_tapes)]
        self.first_seen: deque[int] = deque()
        self.active: list[int] = []
        self.turn = 0
        if self.strategy.name == "by-tapes":
            for f in range(c.files):
                t = self.tape[f]
                if not self.by_tape[t]:
                    self.first_seen.append(t)
                self.by_tape[t].append(f)
        self.drives = [{"mounted": None, "head": 0} for _ in range(lib.drives)]

    def take(self) -> int | None:
        """The requester's next request."""
        if self.strategy.name == "random":
            if not self.pending:
                return None
            i = int(self.rng.integers(len(self.pending)))
            self.pending[i], self.pending[-1] = self.pending[-1], self.pending[i]
            return self.pending.pop()
        while len(self.active) < self.strategy.tapes and self.first_seen:
            self.active.append(self.first_seen.popleft())
        if not self.active:
            return None
        self.turn %= len(self.active)
        t = self.active[self.turn]
        f = self.by_tape[t].popleft()
        if not self.by_tape[t]:
            self.active.pop(self.turn)
        else:
            self.turn += 1
        return f

    def fill(self) -> None:
        while self.in_queue < self.lib.queue_size:
            f = self.take()
            if f is None:
                break
            t = self.tape[f]
            if not self.plan[t] and not self.fresh[t]:
                self.oldest[t] = self.seq
            self.seq += 1
            self.fresh[t].append(f)
            self.qbytes[t] += self.size[f]
            self.in_queue += 1
            self.enq[f] = self.env.now
            if not self.wake.triggered:
                self.wake.succeed()

    def next_request(self, t: int, head: int) -> int | None:
        if self.fresh[t]:
            files = self.plan[t] + self.fresh[t]
            self.fresh[t] = []
            files.sort(key=lambda f: (self.block[f] < head, self.block[f]))
            files.reverse()
            self.plan[t] = files
        return self.plan[t].pop() if self.plan[t] else None

    def most_relevant(self) -> int | None:
        best, key = None, None
        for t in range(len(self.plan)):
            if self.holder[t] is None and (self.plan[t] or self.fresh[t]):
                k = (self.qbytes[t], -self.oldest[t])
                if key is None or k > key:
                    best, key = t, k
        return best

    def drive(self, d: int) -> Any:
        env, lib, me = self.env, self.lib, self.drives[d]
        mount_start, mount_bytes = 0.0, 0
        while True:
            t = me["mounted"]
            f = self.next_request(t, me["head"]) if t is not None else None
            if f is not None:
                cap = self.cap_blocks[t]
                secs = lib.wind_s * abs(self.block[f] - me["head"]) / cap
                secs += self.size[f] / self.rate
                yield env.timeout(secs)
                me["head"] = self.block[f] + max(1, -(-self.size[f] // lib.block_bytes))
                self.qbytes[t] -= self.size[f]
                self.in_queue -= 1
                mount_bytes += self.size[f]
                self.done_bytes += self.size[f]
                self.done_files += 1
                self.staging += env.now - self.enq[f]
                self.fill()
                yield env.timeout(0)
                continue
            nxt = self.most_relevant()
            if nxt is None:
                if self.wake.triggered:
                    self.wake = env.event()
                yield self.wake
                continue
            self.holder[nxt] = d
            old = me["mounted"]
            if old is not None:
                yield env.timeout(lib.rewind_s)
                yield env.timeout(lib.unload_s)
                self.mounts.append((old, env.now - mount_start, mount_bytes))
                me["mounted"] = None
            with self.robot.request() as arm:
                yield arm
                yield env.timeout(
                    lib.robot.fetch_s + (lib.robot.return_s if old is not None else 0)
                )
            if old is not None:
                self.holder[old] = None
                if (self.plan[old] or self.fresh[old]) and not self.wake.triggered:
                    self.wake.succeed()
            yield env.timeout(lib.load_s)
            yield env.timeout(lib.thread_s)
            me["mounted"], me["head"] = nxt, 0
            mount_start, mount_bytes = env.now, 0

    def run(self, duration_s: float) -> dict[str, Any]:
        self.fill()
        for d in range(self.lib.drives):
            self.env.process(self.drive(d))
        self.env.run(until=duration_s)
        return {
            "throughput_mb_s": self.done_bytes / 1e6 / duration_s,
            "staging_min": self.staging / max(self.done_files, 1) / 60,
            "mounts": len(self.mounts) + sum(d["mounted"] is not None for d in self.drives),
        }


def simulate(config: RecallConfig, c: Campaign) -> dict[str, Any]:
    """Runs the SimPy model (strategies random and by-tapes only)."""
    return Library(config, c).run(config.duration_h * 3600)
