"""Reading an LTFS volume in tape order.

LTFS exposes where each file starts on tape as extended attributes
(``ltfs.startblock``, ``ltfs.partition``; ``user.``-prefixed on Linux). Files
read in directory order make the drive locate back and forth; ordered by
seekplan they stream. :func:`plan` computes the order; :func:`copy` copies
in that order, resumably: each file goes to a temporary name, is synced and
renamed, and only then recorded in a journal in the destination, so an
interrupted copy never loses a file nor copies a recorded one again.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from seekplan.errors import SeekplanError
from seekplan.io import Request
from seekplan.ordering import order

#: Journal of finished files, one JSON object per line, inside DEST.
JOURNAL = ".seekplan-ltfs-journal"
#: LTFS's index partition (small files may live there) and data partition.
INDEX_PARTITION, DATA_PARTITION = "a", "b"
CHUNK = 8 << 20


@dataclass(frozen=True)
class TapeFile:
    """A file on the volume: its path relative to the root, where it starts."""

    path: str
    partition: str
    block: int
    size: int


@dataclass
class Plan:
    """Files in read order, with the estimated tape time of this order and of
    directory order (seconds, by the drive model)."""

    files: list[TapeFile]
    total_s: float
    directory_order_s: float
    algo: str


def _xattr(path: Path, name: str) -> str | None:
    for key in (f"user.{name}", name):
        try:
            return os.getxattr(path, key).decode().strip()
        except OSError:
            continue
    return None


def scan(root: Path) -> list[TapeFile]:
    """Every regular file under ``root`` in directory order, with its LTFS
    start block and partition; a clear error names a file without them."""
    if not root.is_dir():
        raise SeekplanError(f"{root} is not a directory")
    files = []
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            p = Path(dirpath) / name
            if not p.is_file() or p.is_symlink():
                continue
            rel = p.relative_to(root).as_posix()
            size = p.stat().st_size
            raw_block = _xattr(p, "ltfs.startblock")
            partition = (_xattr(p, "ltfs.partition") or DATA_PARTITION).lower()
            if raw_block is None:
                if size == 0:
                    raw_block = "0"  # empty files have no extent on tape
                else:
                    raise SeekplanError(
                        f"{rel}: no ltfs.startblock attribute (is {root} an LTFS volume?)"
                    )
            try:
                block = int(raw_block)
            except ValueError:
                raise SeekplanError(
                    f"{rel}: ltfs.startblock {raw_block!r} is not a block number"
                ) from None
            if block < 0:
                raise SeekplanError(f"{rel}: ltfs.startblock {block} is negative")
            if partition not in (INDEX_PARTITION, DATA_PARTITION):
                raise SeekplanError(
                    f"{rel}: ltfs.partition {partition!r} is neither 'a' (index) nor 'b' (data)"
                )
            files.append(TapeFile(rel, partition, block, size))
    return files


def plan(
    root: Path,
    drive: str = "lto9",
    algo: str = "best",
    eowp: list[int] | None = None,
    devices: str | Path | None = None,
) -> Plan:
    """The read order of every file under ``root``: empty files and the index
    partition's first (by block), then the data partition as ``algo`` orders it."""
    files = scan(root)
    first = sorted(
        (f for f in files if f.size == 0 or f.partition == INDEX_PARTITION),
        key=lambda f: (f.block, f.path),
    )
    data = [f for f in files if f.size > 0 and f.partition == DATA_PARTITION]
    if not data:
        return Plan(first, 0.0, 0.0, algo)
    requests = [Request(f.path, f.block, f.size) for f in data]
    ordered = order(requests, drive=drive, algo=algo, track_starts=eowp, devices=devices)
    baseline = order(requests, drive=drive, algo="fifo", track_starts=eowp, devices=devices)
    by_path = {f.path: f for f in data}
    return Plan(
        first + [by_path[row["id"]] for row in ordered.rows],
        ordered.total_s,
        baseline.total_s,
        algo,
    )


def _read_journal(path: Path) -> set[str]:
    done: set[str] = set()
    if not path.exists():
        return done
    for line in path.read_text().splitlines():
        try:
            done.add(json.loads(line)["path"])
        except (ValueError, KeyError, TypeError):
            continue  # a line cut short by an interruption: its file is redone
    return done


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _copy_one(src: Path, dst: Path, advance: Callable[[int], None]) -> None:
    """Copies ``src`` to ``dst`` through a synced temporary file and a rename."""
    dst.parent.mkdir(parents=True, exist_ok=True)
    tmp = dst.with_name(f".{dst.name}.seekplan-partial")
    with src.open("rb") as fin, tmp.open("wb") as fout:
        while chunk := fin.read(CHUNK):
            fout.write(chunk)
            advance(len(chunk))
        fout.flush()
        os.fsync(fout.fileno())
    st = src.stat()
    os.utime(tmp, ns=(st.st_atime_ns, st.st_mtime_ns))
    os.replace(tmp, dst)
    _fsync_dir(dst.parent)


def copy(
    root: Path,
    dest: Path,
    the_plan: Plan,
    show_progress: bool = True,
) -> tuple[int, int]:
    """Copies the planned files from ``root`` to ``dest`` in plan order,
    skipping those the journal records as done; returns (copied, skipped)."""
    root, dest = root.resolve(), dest.resolve()
    if dest == root or root in dest.parents:
        raise SeekplanError(f"destination {dest} lies inside the volume {root}")
    dest.mkdir(parents=True, exist_ok=True)
    journal = dest / JOURNAL
    done = _read_journal(journal)
    todo = [f for f in the_plan.files if f.path not in done]
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
    )
    with (
        Progress(*columns, disable=not show_progress) as progress,
        journal.open("a") as log,
    ):
        task = progress.add_task("copying", total=sum(f.size for f in todo))
        for f in todo:
            progress.update(task, description=f.path[-40:])
            _copy_one(root / f.path, dest / f.path, lambda k: progress.advance(task, k))
            log.write(json.dumps({"path": f.path, "size": f.size}) + "\n")
            log.flush()
            os.fsync(log.fileno())
    return len(todo), len(the_plan.files) - len(todo)
