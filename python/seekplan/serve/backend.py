"""Backends: what actually mounts tapes and copies files to the disk buffer.

The interface (:class:`Backend`) is five methods; the service calls them from
one worker thread per drive, so each call may block for as long as the
operation takes. A site adds its own backend by implementing them (e.g. a
command per file) -- see docs/serve.md.

:class:`SimulatedBackend` (the default) times every step by the library
hardware the recall simulator runs on (:mod:`seekplan.hardware`: load,
thread, unload, rewind, rate, robot) and a catalogued drive's locate model,
on a :class:`~seekplan.serve.clock.ModelledClock` that runs ``time_scale``
times real time and stands still while the service computes, so the service
and its demo run on any machine and measure the model, not the machine.
:class:`LtfsBackend` reads mounted LTFS volumes into a buffer directory,
each file as ``ltfs copy`` does (temporary file, fsync, rename).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from seekplan import _core
from seekplan.errors import SeekplanError
from seekplan.hardware import Hardware
from seekplan.serve.clock import Clock
from seekplan.serve.faults import FaultInjector


class BackendError(Exception):
    """A file could not be staged; the message is the file's `error`.
    ``kind`` names the retry rule that applies (``retry:`` in stage.yaml):
    ``read`` (the default: a media or copy error of this file)."""

    kind = "read"


class DriveFailure(BackendError):
    """The drive failed: it goes out of service for ``drive_repair_s`` and
    its tape's files go to the other drives."""

    kind = "drive"


class MountFailure(BackendError):
    """The tape cannot be mounted (damaged, missing, unreadable label)."""

    kind = "mount"


class RobotFailure(BackendError):
    """A robot move failed (the cartridge stayed where it was)."""

    kind = "robot"


@dataclass(frozen=True)
class ReadJob:
    """One file to copy to the buffer: where it is, and where the head is."""

    path: str
    tape: str
    block: int
    size: int
    #: Block under the head before the read.
    head: int
    #: The session's volume as the read starts: bytes read since the mount
    #: plus bytes queued for the tape, this file included.
    session_bytes: int


class Backend(Protocol):
    """What the service needs from a tape system."""

    name: str

    def mount(self, drive: int, tape: str) -> None:
        """Loads ``tape`` into ``drive`` (empty) and makes it ready to read."""

    def unmount(self, drive: int, tape: str) -> None:
        """Rewinds and unloads ``tape`` from ``drive`` and puts it back."""

    def read(self, drive: int, job: ReadJob) -> None:
        """Copies one file from the mounted tape to the buffer; returns once
        the copy is complete and durable; raises BackendError on failure."""

    def on_disk(self) -> set[str]:
        """Paths whose buffer copy is complete (asked once, at start-up, so
        that a file read before a crash is not read again)."""

    def evict(self, path: str) -> None:
        """The buffer copy of ``path`` is no longer needed (released)."""


def positional_read_seconds(
    drive_model: Any, rate_bps: float, head: int, block: int, size: int
) -> float:
    """A read timed positionally: the drive model's locate from ``head`` to
    ``block``, then ``size`` bytes at ``rate_bps``."""
    return float(drive_model.locate(head, block)) + size / rate_bps


def session_efficiency(read_model: dict[str, Any], fraction: float) -> float:
    """Share of the drive's nominal rate reached by a session that recalls
    ``fraction`` of the tape (1 for the positional model): the core's
    ``ReadModel::efficiency``, the same the recall simulator times reads by."""
    return _core.read_efficiency(json.dumps(read_model), fraction)


class SimulatedBackend:
    """A tape library in simulated time: the recall library's hardware
    (drive steps, rate, robot) and its read model (``library.read_model``):
    ``session-fraction`` (the recall default, the dCache paper's) times a
    read as size over the rate times the session's efficiency,
    ``positional`` as a catalogued drive's locate plus the transfer at the
    library's rate.

    The "buffer" is a read log (``reads.log`` in the buffer directory): one
    line per file read, appended and flushed once the read is complete, so a
    crashed service knows what it already has. Evictions are logged too."""

    name = "simulated"

    def __init__(
        self,
        hardware: Hardware,
        read_model: dict[str, Any],
        drive_model: Any,
        clock: Clock,
        buffer: Path,
        tape_capacity_bytes: int,
        faults: FaultInjector | None = None,
    ) -> None:
        self.drive = hardware["drive"]
        #: Faults to inject (None: a healthy library).
        self.faults = faults
        self.model = drive_model
        #: A tape's capacity, the session-fraction read model's denominator.
        self.capacity_bytes = tape_capacity_bytes
        self.clock = clock
        self.rate_bps = float(self.drive["rate_bps"])
        self.read_model: dict[str, Any] = dict(read_model)
        robot = hardware["robot"]
        #: Free robot arms, and the condition a worker waits on for one.
        self.free_arms = max(1, int(robot["arms"]))
        self._arm_free = threading.Condition()
        self.fetch_s = float(robot["fetch_s"])
        self.return_s = float(robot["return_s"])
        buffer.mkdir(parents=True, exist_ok=True)
        self.log_path = buffer / "reads.log"
        self._log_lock = threading.Lock()
        self._log = self.log_path.open("a", encoding="utf-8")

    def _robot(self, seconds: float) -> None:
        """One robot move of ``seconds``, on the first free arm."""
        with self._arm_free:
            while self.free_arms == 0 and not self.clock.stop.is_set():
                self.clock.wait(self._arm_free, None)
            self.free_arms -= 1
        try:
            self.clock.sleep(seconds)
        finally:
            with self._arm_free:
                self.free_arms += 1
                self.clock.notify_all(self._arm_free)

    def mount(self, drive: int, tape: str) -> None:
        """Robot fetch, load and thread times; an injected mount fault is
        raised after the robot's move, and a hung mount waits (holding no
        robot arm) until the service stops."""
        fault = self.faults.mount_fault(tape) if self.faults is not None else None
        if fault == "hang":
            with self.clock.idle():
                self.clock.stop.wait()
            raise BackendError("service stopping")
        self._robot(self.fetch_s)
        if fault == "robot_failure":
            raise RobotFailure(f"robot failed to move tape {tape} to drive {drive}")
        if fault == "unmountable":
            raise MountFailure(f"tape {tape} cannot be mounted (injected fault)")
        self.clock.sleep(float(self.drive["load_s"]) + float(self.drive["thread_s"]))

    def unmount(self, drive: int, tape: str) -> None:
        """Rewind and unload times, then the robot puts the cartridge back."""
        self.clock.sleep(float(self.drive["rewind_s"]) + float(self.drive["unload_s"]))
        self._robot(self.return_s)

    def read_seconds(self, job: ReadJob) -> float:
        """Seconds ``job`` takes. Session-fraction: ``size / (rate * e(f))``,
        ``f`` the session's bytes over the tape's capacity, locates inside
        ``e`` (as the recall simulator times it). Positional: the catalogued
        drive's locate from the head, then the transfer at the library's rate."""
        if self.read_model["kind"] == "session-fraction":
            fraction = job.session_bytes / self.capacity_bytes
            return job.size / (self.rate_bps * session_efficiency(self.read_model, fraction))
        return positional_read_seconds(self.model, self.rate_bps, job.head, job.block, job.size)

    def read(self, drive: int, job: ReadJob) -> None:
        """Waits the read's time (:meth:`read_seconds`), then logs one line
        (the path JSON-encoded: no path's bytes can forge a line). An
        injected fault fails the read half way, or hangs it until the
        service stops."""
        fault = self.faults.read_fault(job.path) if self.faults is not None else None
        seconds = self.read_seconds(job)
        if fault is None:
            self.clock.sleep(seconds)
        elif fault == "hang":
            with self.clock.idle():
                self.clock.stop.wait()
        else:
            self.clock.sleep(seconds / 2)
            if fault == "read_error":
                raise BackendError(f"media error reading {job.path} on tape {job.tape}")
            if fault == "drive_failure":
                raise DriveFailure(f"drive {drive} failed reading tape {job.tape}")
            raise RuntimeError(f"injected backend crash reading {job.path}")
        if self.clock.stop.is_set():
            raise BackendError("service stopping")
        self._write("read", job.path)

    def on_disk(self) -> set[str]:
        """Paths read and not evicted, from the log."""
        held: set[str] = set()
        with self.log_path.open(encoding="utf-8") as f:
            for line in f:
                what, _, raw = line.rstrip("\n").partition("\t")
                path = _log_path(raw)
                if path is None:
                    continue  # a line cut short by a crash
                if what == "read":
                    held.add(path)
                elif what == "evict":
                    held.discard(path)
        return held

    def evict(self, path: str) -> None:
        """Logs the eviction."""
        self._write("evict", path)

    def _write(self, what: str, path: str) -> None:
        with self._log_lock:
            self._log.write(f"{what}\t{json.dumps(path)}\n")
            self._log.flush()

    def close(self) -> None:
        """Closes the log."""
        with self._log_lock:
            self._log.close()


def _log_path(raw: str) -> str | None:
    """A read log line's path: JSON (since issue 35; a newline in a path
    cannot forge a line) or, in logs written before, the raw text."""
    if not raw.startswith('"'):
        return raw
    try:
        path = json.loads(raw)
    except ValueError:
        return None
    return path if isinstance(path, str) else None


class LtfsBackend:
    """Mounted LTFS volumes (``root/<tape>/...``, e.g. by a site's mount
    script or the library's LTFS LE) copied file by file into ``buffer``
    the way ``seekplan ltfs copy`` copies: to a temporary file, synced, then
    renamed, so a file in the buffer is always whole. The service's catalog
    for this backend comes from the volumes' LTFS attributes
    (:func:`seekplan.serve.catalog.ltfs_catalog`), so catalog paths are
    ``/<tape>/<path in the volume>``."""

    name = "ltfs"

    def __init__(self, root: Path, buffer: Path) -> None:
        self.root = root
        self.buffer = buffer
        buffer.mkdir(parents=True, exist_ok=True)

    def _dest(self, path: str) -> Path:
        return self.buffer / path.lstrip("/")

    def mount(self, drive: int, tape: str) -> None:
        """The volume must be mounted under the root."""
        if not (self.root / tape).is_dir():
            raise BackendError(f"LTFS volume {tape} is not mounted under {self.root}")

    def unmount(self, drive: int, tape: str) -> None:
        """Nothing: volumes stay mounted (the site's LTFS manages the drives)."""

    def read(self, drive: int, job: ReadJob) -> None:
        """Copies the file (temporary, fsync, rename)."""
        from seekplan.ltfs import STATE_DIR, copy_file

        try:
            copy_file(
                self.root / job.path.lstrip("/"), self._dest(job.path), self.buffer / STATE_DIR
            )
        except SeekplanError as e:
            raise BackendError(str(e)) from None

    def on_disk(self) -> set[str]:
        """Whole files in the buffer (temporaries live in the reserved directory)."""
        from seekplan.ltfs import STATE_DIR

        out = set()
        for p in self.buffer.rglob("*"):
            rel = p.relative_to(self.buffer)
            if p.is_file() and rel.parts[0] != STATE_DIR:
                out.add("/" + rel.as_posix())
        return out

    def evict(self, path: str) -> None:
        """Deletes the buffer copy."""
        self._dest(path).unlink(missing_ok=True)


@dataclass(frozen=True)
class BackendContext:
    """What a backend is built from: the service's settings it may need."""

    #: The library's drives and robot (the recall config's `library`).
    hardware: Hardware
    #: The library's read model (``library.read_model``).
    read_model: dict[str, Any]
    #: The catalogued drive's locate model.
    drive_model: Any
    #: The tape capacity in bytes the session-fraction read model divides by.
    tape_capacity_bytes: int
    #: The clock the drives run on.
    clock: Clock
    #: Where staged copies (or the simulated read log) go.
    buffer: Path
    #: The mounted LTFS volumes, if configured.
    ltfs_root: Path | None
    #: Faults the simulated backend injects (``inject:``), if any.
    faults: FaultInjector | None = None


@dataclass(frozen=True)
class BackendKind:
    """A backend users can name in `backend:`: how to build it, and whether
    it runs on the modelled clock or in real time."""

    #: Builds the backend.
    build: Callable[[BackendContext], Backend]
    #: Whether it runs on the modelled clock (``time_scale`` times real time,
    #: standing still while the service computes); real hardware runs on
    #: the wall clock at 1x.
    simulated_clock: bool
    #: The config field it cannot run without, if any.
    needs: str | None = None


def _simulated(ctx: BackendContext) -> Backend:
    return SimulatedBackend(
        ctx.hardware, ctx.read_model, ctx.drive_model, ctx.clock, ctx.buffer,
        ctx.tape_capacity_bytes, ctx.faults,
    )  # fmt: skip


def _ltfs(ctx: BackendContext) -> Backend:
    if ctx.ltfs_root is None:
        raise SeekplanError("backend: 'ltfs' needs ltfs_root (the mounted volumes)")
    return LtfsBackend(ctx.ltfs_root, ctx.buffer)


#: Every backend by the name `backend:` takes. A site's backend is a class
#: implementing :class:`Backend` and one row here.
BACKENDS: dict[str, BackendKind] = {
    "simulated": BackendKind(_simulated, simulated_clock=True),
    "ltfs": BackendKind(_ltfs, simulated_clock=False, needs="ltfs_root"),
}
