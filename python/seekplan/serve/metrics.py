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
        r = self.registry
        self.mounts = Counter("seekplan_stage_mounts", "Tape mounts", registry=r)
        self.staged = Counter("seekplan_stage_files_staged", "Files read to the buffer", registry=r)
        self.failed = Counter(
            "seekplan_stage_files_failed",
            "Files that ended FAILED (at submission or at the tape)",
            registry=r,
        )
        self.retries = Counter(
            "seekplan_stage_read_retries", "Failed reads queued again", registry=r
        )
        self.drive_failures = Counter(
            "seekplan_stage_drive_failures",
            "Drives taken out of service (failed or hung)",
            registry=r,
        )
        self.mount_failures = Counter(
            "seekplan_stage_mount_failures", "Mounts that failed", registry=r
        )
        self.bytes_read = Counter("seekplan_stage_bytes_read", "Bytes read from tape", registry=r)
        self.requests = Counter("seekplan_stage_requests", "Stage requests accepted", registry=r)
        self.poll_count = Counter("seekplan_stage_polls", "Stage status polls", registry=r)
        self.throttle_count = Counter(
            "seekplan_stage_throttled", "Requests refused with 429", registry=r
        )
        self.expired = Counter(
            "seekplan_stage_pins_expired",
            "Pins dropped when their diskLifetime ran out",
            registry=r,
        )

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
