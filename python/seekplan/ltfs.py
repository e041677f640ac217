"""Reading an LTFS volume in tape order.

LTFS exposes where each file starts on tape as extended attributes
(``ltfs.startblock``, ``ltfs.partition``; ``user.``-prefixed on Linux). Files
read in directory order make the drive locate back and forth; ordered by
seekplan they stream. :func:`plan` computes the order; :func:`copy` copies
in that order, resumably: each file goes to a temporary file, is synced and
renamed, and only then recorded in a journal, so an interrupted copy never
loses a file nor counts a missing or truncated one as done.

Everything seekplan keeps in the destination lives in one reserved hidden
directory, :data:`STATE_DIR`: the journals (one per source volume) and the
temporaries. A source with a top-level entry of that name is refused.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterator
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

from seekplan.errors import SeekplanError, quote
from seekplan.io import MAX_INT, Request
from seekplan.ordering import order

#: The reserved directory in DEST that holds journals and temporaries.
STATE_DIR = ".seekplan-ltfs"
#: LTFS's index partition (small files may live there) and data partition.
INDEX_PARTITION, DATA_PARTITION = "a", "b"
CHUNK = 8 << 20
#: At most this many unreadable paths are listed in one error message.
MAX_LISTED = 20


@dataclass(frozen=True)
class TapeFile:
    """A file on the volume: its path relative to the root, where it starts.
    ``link`` is a symbolic link's target (then ``size`` is 0: it has no
    extent on tape)."""

    path: str
    partition: str
    block: int
    size: int
    link: str | None = None


@dataclass
class Plan:
    """Files in read order, with the estimated tape time of this order and of
    directory order (seconds, by the drive model)."""

    files: list[TapeFile]
    total_s: float
    directory_order_s: float
    algo: str


def _xattr(path: Path, name: str) -> str | None:
    """Extended attribute ``name`` (``user.``-prefixed or not) as text, or
    None; a value that is not UTF-8 is an error naming the file."""
    for key in (f"user.{name}", name):
        try:
            raw = os.getxattr(path, key)
        except OSError:
            continue
        try:
            return raw.decode().strip()
        except UnicodeDecodeError:
            raise SeekplanError(f"{path}: {key} {quote(raw)} is not UTF-8 text") from None
    return None


def _walk(root: Path, problems: list[str]) -> Iterator[tuple[Path, os.DirEntry[str]]]:
    """Every non-directory entry under ``root``, sorted by name per directory
    and depth first; a directory or entry that cannot be listed or stat'ed
    goes to ``problems``. A stack of directories, not recursion: a volume
    may nest deeper than Python's recursion limit."""
    stack = [(root, _listing(root, problems))]
    while stack:
        where, entries = stack[-1]
        entry = next(entries, None)
        if entry is None:
            stack.pop()
            continue
        try:
            is_dir = entry.is_dir(follow_symlinks=False)
        except OSError as e:
            problems.append(f"{entry.path}: cannot stat: {e.strerror or e}")
            continue
        if is_dir:
            sub = Path(entry.path)
            stack.append((sub, _listing(sub, problems)))
        else:
            yield where, entry


def _listing(directory: Path, problems: list[str]) -> Iterator[os.DirEntry[str]]:
    """The entries of ``directory`` sorted by name (none, and a line in
    ``problems``, if it cannot be listed)."""
    try:
        with os.scandir(directory) as it:
            return iter(sorted(it, key=lambda e: e.name))
    except OSError as e:
        problems.append(f"{directory}: cannot list: {e.strerror or e}")
        return iter(())


def _tape_file(root: Path, entry: os.DirEntry[str]) -> TapeFile:
    p = Path(entry.path)
    rel = p.relative_to(root).as_posix()
    st = entry.stat(follow_symlinks=False)
    if stat.S_ISLNK(st.st_mode):
        return TapeFile(rel, INDEX_PARTITION, 0, 0, os.readlink(p))
    if not stat.S_ISREG(st.st_mode):
        raise SeekplanError(f"{rel}: neither a regular file, a directory nor a symbolic link")
    raw_block = _xattr(p, "ltfs.startblock")
    partition = (_xattr(p, "ltfs.partition") or DATA_PARTITION).lower()
    if raw_block is None:
        if st.st_size == 0:
            raw_block = "0"  # empty files have no extent on tape
        else:
            raise SeekplanError(f"{rel}: no ltfs.startblock attribute (is {root} an LTFS volume?)")
    # Digits only: int() also takes "1_000", " 7" and "+7", which LTFS never writes.
    if not re.fullmatch(r"[0-9]+", raw_block):
        raise SeekplanError(f"{rel}: ltfs.startblock {quote(raw_block)} is not a block number")
    # Length first: int() refuses thousands of digits (and a hundred is too
    # many anyway); digits are shown as they are, cut short by quote().
    if len(raw_block) > 100 or int(raw_block) > MAX_INT:
        shown = raw_block if len(raw_block) <= 100 else quote(raw_block)
        raise SeekplanError(f"{rel}: ltfs.startblock {shown} is larger than {MAX_INT}")
    block = int(raw_block)
    if partition not in (INDEX_PARTITION, DATA_PARTITION):
        raise SeekplanError(
            f"{rel}: ltfs.partition {partition!r} is neither 'a' (index) nor 'b' (data)"
        )
    return TapeFile(rel, partition, block, st.st_size)


def scan(root: Path) -> list[TapeFile]:
    """Every file and symbolic link under ``root`` in directory order, with
    its LTFS start block and partition. Any directory that cannot be listed
    is an error naming it (after the whole tree was tried, so all are named):
    a copy must never silently leave part of a volume behind."""
    if not root.is_dir():
        raise SeekplanError(f"{root} is not a directory")
    problems: list[str] = []
    files = []
    for _, entry in _walk(root, problems):
        try:
            files.append(_tape_file(root, entry))
        except OSError as e:
            problems.append(f"{entry.path}: cannot read: {e.strerror or e}")
    if problems:
        more = len(problems) - MAX_LISTED
        raise SeekplanError(
            f"{len(problems)} path(s) under {root} could not be read, nothing done:\n  "
            + "\n  ".join(problems[:MAX_LISTED])
            + (f"\n  ... and {more} more" if more > 0 else "")
        )
    return files


def plan(
    root: Path,
    drive: str = "lto9",
    algo: str = "best",
    eowp: list[int] | None = None,
    devices: str | Path | None = None,
) -> Plan:
    """The read order of every file under ``root``: symbolic links, empty
    files and the index partition's first (by block), then the data
    partition as ``algo`` orders it."""
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


# ---- the journal -----------------------------------------------------------


def volume_identity(root: Path) -> str:
    """What tells one source from another: LTFS's ``ltfs.volumeUUID`` of the
    volume when the root exposes it, else the resolved source path."""
    uuid = _xattr(root, "ltfs.volumeUUID")
    return f"uuid:{uuid}" if uuid else f"path:{root.resolve()}"


def journal_path(dest: Path, identity: str) -> Path:
    """The journal of the source ``identity`` in ``dest`` (one per source, so
    a second volume copied into the same destination has its own)."""
    key = hashlib.sha256(identity.encode()).hexdigest()[:16]
    return dest / STATE_DIR / f"journal-{key}.jsonl"


@dataclass(frozen=True)
class Entry:
    """One finished file as the journal records it: what the source was when
    it was copied, and what the destination must still be to count as done.
    ``sha256`` is of the copied bytes, computed while copying (hashing runs at
    about 1.2 GB/s on one core, three times an LTO-9 drive's 400 MB/s, so it
    never slows the copy); it is checked on resume only with ``verify``,
    since that re-reads every copied byte."""

    path: str
    src_size: int
    src_mtime_ns: int
    dst_size: int
    sha256: str | None = None
    link: str | None = None


def read_journal(path: Path) -> tuple[str | None, dict[str, Entry]]:
    """(the source identity, the last entry per path) of a journal; a line
    cut short by an interruption is ignored (its file is redone)."""
    identity: str | None = None
    done: dict[str, Entry] = {}
    try:
        text = path.read_text()
    except FileNotFoundError:
        return None, done
    except (OSError, UnicodeDecodeError) as e:
        raise SeekplanError(f"cannot read the journal {path}: {e}") from e
    for line in text.splitlines():
        try:
            record = json.loads(line)
            if "volume" in record:
                identity = str(record["volume"])
            else:
                entry = Entry(**record)
                done[entry.path] = entry
        except (ValueError, TypeError, RecursionError):
            continue
    return identity, done


def _sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(CHUNK):
            h.update(chunk)
    return h.hexdigest()


def still_done(root: Path, dest: Path, f: TapeFile, entry: Entry, verify: bool) -> bool:
    """Whether the journal's ``entry`` for ``f`` still holds: the source is
    unchanged (size and mtime) and the destination is there, of the recorded
    size and mtime (or link target), and with ``verify`` the recorded hash."""
    src, dst = root / f.path, dest / f.path
    try:
        if f.link is not None:
            return entry.link == f.link and os.readlink(dst) == f.link
        s, d = src.stat(), dst.lstat()
    except OSError:
        return False
    if (s.st_size, s.st_mtime_ns) != (entry.src_size, entry.src_mtime_ns):
        return False
    if not stat.S_ISREG(d.st_mode) or (d.st_size, d.st_mtime_ns) != (
        entry.dst_size,
        entry.src_mtime_ns,
    ):
        return False
    return not verify or entry.sha256 is None or _sha256(dst) == entry.sha256


# ---- copying ---------------------------------------------------------------


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _describe(e: OSError) -> str:
    return e.strerror or str(e)


def _copy_file(src: Path, tmp: Path, advance: Callable[[int], None]) -> Entry:
    h = hashlib.sha256()
    with src.open("rb") as fin, tmp.open("wb") as fout:
        before = os.fstat(fin.fileno())
        while chunk := fin.read(CHUNK):
            fout.write(chunk)
            h.update(chunk)
            advance(len(chunk))
        fout.flush()
        os.fsync(fout.fileno())
        after = os.fstat(fin.fileno())
        written = fout.tell()
    if (before.st_size, before.st_mtime_ns) != (after.st_size, after.st_mtime_ns) or (
        written != after.st_size
    ):
        raise SeekplanError(f"{src}: changed while it was copied; run again to copy it anew")
    os.utime(tmp, ns=(after.st_atime_ns, after.st_mtime_ns))
    # The source's permissions, not the temporary's 0600.
    os.chmod(tmp, stat.S_IMODE(after.st_mode))
    return Entry("", after.st_size, after.st_mtime_ns, written, h.hexdigest())


def _copy_one(
    src: Path, dst: Path, tmp_dir: Path, f: TapeFile, advance: Callable[[int], None]
) -> Entry:
    """Copies ``src`` (or recreates the link ``f.link``) to ``dst`` through a
    synced temporary in ``tmp_dir`` and a rename; on any failure the
    temporary is removed and a SeekplanError names the file."""
    tmp: Path | None = None
    try:
        dst.parent.mkdir(parents=True, exist_ok=True)
        if dst.is_dir() and not dst.is_symlink():
            raise SeekplanError(f"{dst}: is a directory in the destination; cannot copy {f.path}")
        fd, name = tempfile.mkstemp(dir=tmp_dir, prefix="partial-")
        os.close(fd)
        tmp = Path(name)
        if f.link is not None:
            tmp.unlink()
            os.symlink(f.link, tmp)
            entry = Entry("", 0, 0, 0, None, f.link)
        else:
            entry = _copy_file(src, tmp, advance)
        os.replace(tmp, dst)
        tmp = None
        _fsync_dir(dst.parent)
    except OSError as e:
        raise SeekplanError(f"copying {src} to {dst}: {_describe(e)}") from e
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)
    return Entry(f.path, entry.src_size, entry.src_mtime_ns, entry.dst_size, entry.sha256, f.link)


def copy_file(src: Path, dst: Path, tmp_dir: Path) -> None:
    """Copies one file as :func:`copy` does (a synced temporary in ``tmp_dir``,
    renamed over ``dst``, the directory synced); errors name the file."""
    tmp_dir.mkdir(parents=True, exist_ok=True)
    _copy_one(src, dst, tmp_dir, TapeFile(str(src), DATA_PARTITION, 0, 0), lambda _n: None)


def _ends_mid_line(path: Path) -> bool:
    with path.open("rb") as f:
        if f.seek(0, os.SEEK_END) == 0:
            return False
        f.seek(-1, os.SEEK_END)
        return f.read(1) != b"\n"


def _claimed_elsewhere(dest: Path, own: Path) -> dict[str, str]:
    """Paths other sources' journals in ``dest`` record, with their source."""
    claimed: dict[str, str] = {}
    for other in sorted((dest / STATE_DIR).glob("journal-*.jsonl")):
        if other == own:
            continue
        identity, done = read_journal(other)
        for path in done:
            claimed[path] = identity or other.name
    return claimed


def _occupied(root: Path, dest: Path, f: TapeFile) -> bool:
    """Whether ``dest`` holds something at ``f``'s path that this volume did
    not put there. A copy renamed into place whose journal line an
    interruption lost is this volume's: the same link target, or a regular
    file of the source's size and mtime (a copy gets the source's mtime)."""
    dst = dest / f.path
    try:
        d = dst.lstat()
        if f.link is not None:
            return not (stat.S_ISLNK(d.st_mode) and os.readlink(dst) == f.link)
        s = (root / f.path).stat()
    except OSError:
        return False  # nothing there; or the copy itself stops, naming the error
    return not (
        stat.S_ISREG(d.st_mode) and (d.st_size, d.st_mtime_ns) == (s.st_size, s.st_mtime_ns)
    )


def _stays_inside(dest: Path, rel: str) -> bool:
    """Whether the directory the file ``rel`` goes into under ``dest`` (a
    resolved path) is inside ``dest`` with links followed: a link already in
    the destination that points elsewhere would put the copy there."""
    parent = (dest / rel).parent.resolve()
    return parent == dest or dest in parent.parents


def check_destination(root: Path, dest: Path) -> None:
    """Fails if ``dest`` lies inside the volume ``root`` (nothing may be
    written to the tape, and the copy would copy itself)."""
    root, dest = root.resolve(), dest.resolve()
    if dest == root or root in dest.parents:
        raise SeekplanError(f"destination {dest} lies inside the volume {root}")


def _prepare(root: Path, dest: Path, the_plan: Plan) -> tuple[Path, Path]:
    """Checks the destination and makes its reserved directory; returns
    (journal, temporaries directory)."""
    check_destination(root, dest)
    clash = [f.path for f in the_plan.files if f.path.split("/")[0] == STATE_DIR]
    if clash:
        raise SeekplanError(
            f"{root / clash[0]}: the source uses the name {STATE_DIR!r} that seekplan "
            "reserves for its journal in the destination; copy its parent directory instead"
        )
    tmp_dir = dest / STATE_DIR / "tmp"
    try:
        tmp_dir.mkdir(parents=True, exist_ok=True)
        for stale in tmp_dir.iterdir():  # temporaries of an interrupted run
            stale.unlink()
    except OSError as e:
        raise SeekplanError(f"cannot use {dest} as destination: {_describe(e)}") from e
    return journal_path(dest, volume_identity(root)), tmp_dir


def copy(
    root: Path,
    dest: Path,
    the_plan: Plan,
    show_progress: bool = True,
    verify: bool = False,
) -> tuple[int, int]:
    """Copies the planned files from ``root`` to ``dest`` in plan order,
    skipping those the journal records as done and still intact (see
    :func:`still_done`); returns (copied, skipped). The first failure stops
    the copy with a SeekplanError naming the file; what was copied so far is
    journaled, so running again resumes. Symbolic links are copied as links."""
    root, dest = root.resolve(), dest.resolve()
    journal, tmp_dir = _prepare(root, dest, the_plan)
    identity, done = read_journal(journal)
    todo = [
        f
        for f in the_plan.files
        if f.path not in done or not still_done(root, dest, f, done[f.path], verify)
    ]
    claimed = _claimed_elsewhere(dest, journal)
    taken = [f.path for f in todo if f.path in claimed]
    if taken:
        raise SeekplanError(
            f"{dest / taken[0]}: already copied there from another volume ({claimed[taken[0]]}); "
            f"{len(taken)} file(s) would be overwritten: copy this volume to another destination"
        )
    escaping = [f.path for f in todo if not _stays_inside(dest, f.path)]
    if escaping:
        raise SeekplanError(
            f"{dest / escaping[0]}: a directory on its way is a symbolic link out of the "
            f"destination; {len(escaping)} file(s) would be written outside {dest}: remove "
            "the link or copy to another destination"
        )
    foreign = [f.path for f in todo if f.path not in done and _occupied(root, dest, f)]
    if foreign:
        raise SeekplanError(
            f"{dest / foreign[0]}: already exists and is not a copy from this volume; "
            f"{len(foreign)} file(s) would be overwritten: move them away or copy this volume "
            "to another destination"
        )
    columns = (
        TextColumn("{task.description}"),
        BarColumn(),
        DownloadColumn(),
        TransferSpeedColumn(),
        TimeRemainingColumn(),
    )
    copied = 0
    try:
        with (
            Progress(*columns, disable=not show_progress) as progress,
            journal.open("a") as log,
        ):
            if _ends_mid_line(journal):
                log.write("\n")  # end a line cut short, so the next one parses
            if identity is None:
                log.write(json.dumps({"volume": volume_identity(root)}) + "\n")
            task = progress.add_task("copying", total=sum(f.size for f in todo))
            for f in todo:
                progress.update(task, description=f.path[-40:])
                entry = _copy_one(
                    root / f.path, dest / f.path, tmp_dir, f, lambda k: progress.advance(task, k)
                )
                log.write(json.dumps(entry.__dict__) + "\n")
                log.flush()
                os.fsync(log.fileno())
                copied += 1
    except OSError as e:
        raise SeekplanError(f"journal {journal}: {_describe(e)}") from e
    except SeekplanError as e:
        raise SeekplanError(
            f"{e}\n{copied} of {len(todo)} file(s) copied in this run, "
            f"{len(todo) - copied} not copied; run the same command again to resume"
        ) from e
    return len(todo), len(the_plan.files) - len(todo)
