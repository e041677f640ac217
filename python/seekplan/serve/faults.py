"""What goes wrong at the tape and what the service does about it.

* :class:`RetryPolicy` (``retry:`` in stage.yaml): how many times a file is
  tried again after each kind of failure, and how long it waits first.
* :class:`ReadDeadline` (``read_deadline:``): how long a read may take before
  the service gives up on it (a hung backend call ends FAILED, not STARTED
  forever) and when the status page calls a read stuck.
* :class:`FaultPlan` (``inject:``) and :class:`FaultInjector`: faults the
  simulated backend injects at configured rates or at named files and
  tapes, decided by a seeded hash so that a run is reproducible whatever the
  order the drive threads reach them in.
"""

from __future__ import annotations

import hashlib
import threading
from collections import Counter
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

#: The kinds of failure a retry rule is kept for (``BackendError.kind``; a
#: read that hangs past its deadline is ``timeout``, any other exception of
#: a backend ``other``).
FAILURE_KINDS = ("read", "drive", "mount", "robot", "timeout", "other")


class RetryRule(BaseModel):
    """How one kind of failure is retried."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    #: Tries in all, the first included (1: no retry). At most 100.
    attempts: int = Field(default=1, ge=1, le=100)
    #: Seconds (of the backend's clock) before the file is queued again.
    backoff_s: float = Field(default=0.0, ge=0, le=86_400 * 30)


class RetryPolicy(BaseModel):
    """A retry rule per kind of failure. The defaults: a media error is tried
    once more after a minute (soft read errors often pass on a second pass);
    a failed drive's file goes to another drive at once, up to three times;
    a failed mount or robot move is tried again after five minutes (an
    operator may free a stuck cartridge); a hung read and an unexpected
    backend exception (a bug, not the tape) fail at once."""

    model_config = ConfigDict(extra="forbid")

    read: RetryRule = Field(default_factory=lambda: RetryRule(attempts=2, backoff_s=60))
    drive: RetryRule = Field(default_factory=lambda: RetryRule(attempts=3, backoff_s=0))
    mount: RetryRule = Field(default_factory=lambda: RetryRule(attempts=2, backoff_s=300))
    robot: RetryRule = Field(default_factory=lambda: RetryRule(attempts=2, backoff_s=300))
    timeout: RetryRule = Field(default_factory=RetryRule)
    other: RetryRule = Field(default_factory=RetryRule)

    def rule(self, kind: str) -> RetryRule:
        """The rule of a failure kind (unknown kinds: ``other``)."""
        rule = getattr(self, kind if kind in FAILURE_KINDS else "other")
        assert isinstance(rule, RetryRule)
        return rule


class ReadDeadline(BaseModel):
    """How long a read may run. A read's deadline is ``factor`` times its
    estimate (the backend's read model, or the drive's locate plus a
    full-rate transfer) plus ``floor_s``: an LTO-9 locate end to end takes
    about 100 s and a drive's error recovery on one bad block can take
    minutes, so a deadline below ten minutes would fail healthy reads."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    factor: float = Field(default=4.0, ge=1, le=1000)
    floor_s: float = Field(default=600.0, gt=0, le=86_400 * 7)
    #: The status page lists a read as stuck once it has run this many
    #: times its estimate (and at least a minute).
    stuck_factor: float = Field(default=2.0, ge=1, le=1000)

    def seconds(self, estimate_s: float) -> float:
        """The deadline of a read estimated at ``estimate_s``."""
        return self.factor * max(0.0, estimate_s) + self.floor_s


#: What a named file's read does: a media error, a drive failure, a hang
#: (never returns), or an exception that is not a BackendError (a backend bug).
FileFault = Literal["read_error", "drive_failure", "hang", "crash"]
#: What happens at a named tape's mount: the tape cannot be mounted, the
#: robot fails to move it, or the mount hangs (never returns).
TapeFault = Literal["unmountable", "robot_failure", "hang"]


class FaultPlan(BaseModel):
    """Faults the simulated backend injects. Rates are per attempt (a read,
    a robot move, a mount); ``unmountable_rate`` is decided once per tape.
    Named files and tapes fail on every attempt."""

    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)

    seed: int = Field(default=0, ge=0, le=2**63 - 1)
    read_error_rate: float = Field(default=0.0, ge=0, le=1)
    drive_failure_rate: float = Field(default=0.0, ge=0, le=1)
    hang_rate: float = Field(default=0.0, ge=0, le=1)
    crash_rate: float = Field(default=0.0, ge=0, le=1)
    robot_failure_rate: float = Field(default=0.0, ge=0, le=1)
    unmountable_rate: float = Field(default=0.0, ge=0, le=1)
    files: dict[str, FileFault] = Field(default_factory=dict)
    tapes: dict[str, TapeFault] = Field(default_factory=dict)


class FaultInjector:
    """Decides, reproducibly, whether an attempt fails: a uniform number from
    a hash of (seed, what, key, the key's attempt number) against a rate."""

    def __init__(self, plan: FaultPlan) -> None:
        self.plan = plan
        self._attempts: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def _draw(self, what: str, key: str, attempt: int | None = None) -> float:
        if attempt is None:
            with self._lock:
                attempt = self._attempts[(what, key)]
                self._attempts[(what, key)] += 1
        text = f"{self.plan.seed}\0{what}\0{key}\0{attempt}".encode()
        digest = hashlib.blake2b(text, digest_size=8).digest()
        return int.from_bytes(digest, "big") / 2**64

    def read_fault(self, path: str) -> FileFault | None:
        """The fault of this read of ``path``, if any."""
        named = self.plan.files.get(path)
        if named is not None:
            return named
        p = self.plan
        u = self._draw("read", path)
        for fault, rate in (
            ("read_error", p.read_error_rate),
            ("drive_failure", p.drive_failure_rate),
            ("hang", p.hang_rate),
            ("crash", p.crash_rate),
        ):
            if u < rate:
                return fault  # type: ignore[return-value]
            u -= rate
        return None

    def mount_fault(self, tape: str) -> TapeFault | None:
        """The fault of this mount of ``tape``, if any."""
        named = self.plan.tapes.get(tape)
        if named is not None:
            return named
        if self._draw("unmountable", tape, attempt=0) < self.plan.unmountable_rate:
            return "unmountable"
        if self._draw("robot", tape) < self.plan.robot_failure_rate:
            return "robot_failure"
        return None
