"""The recall library model written a second time with SimPy (the tool the
dCache paper used), for benchmarks/bench_recall.py only.

Same model as the Rust core's defaults: the session-fraction read model (a
read of `size` bytes takes size / (rate * e(f)), f = bytes read since the
mount plus bytes queued for the tape, over the capacity); batch dispatch
with next-batch arrivals (a drive orders its tape's queued requests once, in
scan order from the head, reads them, and is then assigned the most relevant
cartridge: its own unless an unheld tape has more queued bytes); a free
drive takes the unheld tape with most queued bytes; requester strategies
random, by-dataset and by-tapes N (round-robin over the active tapes, tapes
in first-seen order). The random strategy draws from numpy, not ChaCha, so
its runs agree with the core's statistically, not to the byte.
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
        model = lib["read_model"]
        if model["kind"] != "session-fraction" or lib["arrivals"] != "next-batch":
            raise ValueError("the SimPy twin models session-fraction reads, next-batch only")
        self.floor, self.full_at = model["floor"], model["full_at"]
        self.exponent = model["exponent"]
        self.env = simpy.Environment()
        self.lib = lib
        self.size = c.size.tolist()
        self.block = c.block.tolist()
        self.tape = c.tape.tolist()
        self.capacity = c.capacity.tolist()
        self.per_full_volume = [1.0 / (cap * self.full_at) for cap in self.capacity]
        self.rate = lib["rate_mb_s"] * 1e6
        self.robot = simpy.Resource(self.env, capacity=lib["robot"]["arms"])
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
        self.mounts = 0
        self.strategy = config.data["strategy"]
        self.rng = np.random.default_rng(config.data["seed"])
        self.pending: list[int] = list(range(c.files))
        self.fifo: deque[int] = deque(range(c.files))
        self.by_tape: list[deque[int]] = [deque() for _ in range(n_tapes)]
        self.first_seen: deque[int] = deque()
        self.active: list[int] = []
        self.turn = 0
        if self.strategy["name"] == "by-tapes":
            for f in range(c.files):
                t = self.tape[f]
                if not self.by_tape[t]:
                    self.first_seen.append(t)
                self.by_tape[t].append(f)
        self.drives = [{"mounted": None, "head": 0, "bytes": 0} for _ in range(lib["drives"])]

    def take(self) -> int | None:
        """The requester's next request."""
        name = self.strategy["name"]
        if name == "random":
            if not self.pending:
                return None
            i = int(self.rng.integers(len(self.pending)))
            self.pending[i], self.pending[-1] = self.pending[-1], self.pending[i]
            return self.pending.pop()
        if name == "by-dataset":
            return self.fifo.popleft() if self.fifo else None
        while len(self.active) < self.strategy["tapes"] and self.first_seen:
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
        while self.in_queue < self.lib["queue_size"]:
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

    def rank(self, t: int) -> tuple[int, int]:
        return (self.qbytes[t], -self.oldest[t])

    def most_relevant(self) -> int | None:
        best, key = None, None
        for t in range(len(self.plan)):
            if self.holder[t] is None and (self.plan[t] or self.fresh[t]):
                k = self.rank(t)
                if key is None or k > key:
                    best, key = t, k
        return best

    def efficiency(self, share: float) -> float:
        """The core's ``efficiency_of_full``: ``share`` of the volume read at
        full rate, worked out as the core does (one multiplication by
        ``1 / (capacity * full_at)``), so both give the same bits."""
        x = min(1.0, share)
        return self.floor + (1 - self.floor) * x**self.exponent

    def drive(self, d: int) -> Any:
        env, lib, me = self.env, self.lib, self.drives[d]
        while True:
            t = me["mounted"]
            nxt = None
            if t is not None and not self.plan[t] and self.fresh[t]:
                other = self.most_relevant()
                if other is not None and self.rank(other) > self.rank(t):
                    nxt = other
                else:
                    head, block = me["head"], self.block
                    batch = sorted(self.fresh[t], key=lambda f: (block[f] < head, block[f]))
                    batch.reverse()
                    self.plan[t], self.fresh[t] = batch, []
            if nxt is None and t is not None and self.plan[t]:
                f = self.plan[t].pop()
                share = (me["bytes"] + self.qbytes[t]) * self.per_full_volume[t]
                me["head"] = self.block[f] + max(1, -(-self.size[f] // lib["block_bytes"]))
                yield env.timeout(self.size[f] / (self.rate * self.efficiency(share)))
                self.qbytes[t] -= self.size[f]
                self.in_queue -= 1
                me["bytes"] += self.size[f]
                self.done_bytes += self.size[f]
                self.done_files += 1
                self.staging += env.now - self.enq[f]
                self.fill()
                continue
            if nxt is None:
                nxt = self.most_relevant()
            if nxt is None:
                if self.wake.triggered:
                    self.wake = env.event()
                yield self.wake
                continue
            self.holder[nxt] = d
            old = me["mounted"]
            if old is not None:
                yield env.timeout(lib["rewind_s"])
                yield env.timeout(lib["unload_s"])
                me["mounted"] = None
            with self.robot.request() as arm:
                yield arm
                yield env.timeout(
                    lib["robot"]["fetch_s"] + (lib["robot"]["return_s"] if old is not None else 0)
                )
            if old is not None:
                self.holder[old] = None
                if (self.plan[old] or self.fresh[old]) and not self.wake.triggered:
                    self.wake.succeed()
            yield env.timeout(lib["load_s"])
            yield env.timeout(lib["thread_s"])
            me["mounted"], me["head"], me["bytes"] = nxt, 0, 0
            self.mounts += 1

    def run(self, duration_s: float) -> dict[str, Any]:
        self.fill()
        for d in range(self.lib["drives"]):
            self.env.process(self.drive(d))
        self.env.run(until=duration_s)
        return {
            "throughput_mb_s": self.done_bytes / 1e6 / duration_s,
            "staging_min": self.staging / max(self.done_files, 1) / 60,
            "mounts": self.mounts,
        }


def simulate(config: RecallConfig, c: Campaign) -> dict[str, Any]:
    """Runs the SimPy model (session-fraction reads, next-batch arrivals)."""
    return Library(config, c).run(config.data["duration_h"] * 3600)
