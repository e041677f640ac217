"""Counters behind the status page and ``/metrics`` (Prometheus)."""

from __future__ import annotations

import collections
import time
from dataclasses import dataclass, field

from prometheus_client import CollectorRegistry, Counter


@dataclass
class Stats:
    """The service's counters. Prometheus exposes each Counter ``NAME`` as
    ``NAME_total``."""

    registry: CollectorRegistry = field(default_factory=CollectorRegistry)
    polls: collections.deque[float] = field(
        default_factory=lambda: collections.deque(maxlen=20_000)
    )
    throttled: int = 0

    def __post_init__(self) -> None:
        def counter(name: str, text: str) -> Counter:
            return Counter(f"seekplan_stage_{name}", text, registry=self.registry)

        self.mounts = counter("mounts", "Tape mounts")
        self.staged = counter("files_staged", "Files read to the buffer")
        self.failed = counter("files_failed", "Files that ended FAILED (at submission or tape)")
        self.retries = counter("read_retries", "Failed reads queued again")
        self.drive_failures = counter("drive_failures", "Drives taken out of service")
        self.mount_failures = counter("mount_failures", "Mounts that failed")
        self.bytes_read = counter("bytes_read", "Bytes read from tape")
        self.requests = counter("requests", "Stage requests accepted")
        self.poll_count = counter("polls", "Stage status polls")
        self.throttle_count = counter("throttled", "Requests refused with 429")
        self.db_write_failures = counter(
            "db_write_failures",
            "Database writes of a file's move that failed (tried again, or refused outright)",
        )
        self.evict_failures = counter(
            "evict_failures", "Buffer copies the backend failed to drop (left in the buffer)"
        )
        self.expired = counter("pins_expired", "Pins dropped when their diskLifetime ran out")

    def poll(self) -> None:
        """Counts one status poll."""
        self.polls.append(time.monotonic())
        self.poll_count.inc()

    def poll_rate(self, window: float = 10.0) -> float:
        """Polls per second over the last ``window`` seconds."""
        now = time.monotonic()
        n = 0
        for t in reversed(self.polls):
            if now - t > window:
                break
            n += 1
        return n / window
