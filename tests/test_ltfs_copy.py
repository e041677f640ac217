"""`seekplan ltfs copy` never loses data with exit 0: listing errors,
symlinks, a damaged destination, a second volume, reserved names, write
errors and kills mid-copy (issue 16)."""

from __future__ import annotations

import errno
import hashlib
import inspect
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import seekplan.ltfs as ltfs
from seekplan.errors import SeekplanError
from seekplan.ltfs import STATE_DIR, copy, journal_path, plan, read_journal, volume_identity


def _volume(root: Path, n: int, seed: int, size: int = 5000) -> dict[str, bytes]:
    rng = np.random.default_rng(seed)
    contents = {}
    for i in range(n):
        sub = root / f"d{i % 3}"
        sub.mkdir(parents=True, exist_ok=True)
        data = rng.bytes(int(rng.integers(1, size)))
        p = sub / f"f{i:03}.bin"
        p.write_bytes(data)
        os.setxattr(p, "user.ltfs.startblock", str(int(rng.integers(0, 30_000_000))).encode())
        os.setxattr(p, "user.ltfs.partition", b"b")
        contents[p.relative_to(root).as_posix()] = data
    return contents


def _same(dest: Path, contents: dict[str, bytes]) -> bool:
    return all((dest / rel).read_bytes() == data for rel, data in contents.items())


def test_an_unlistable_directory_is_an_error_naming_it(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    _volume(root, 9, 1)
    real = os.scandir

    def failing(path):  # type: ignore[no-untyped-def]
        if Path(path).name == "d1":
            raise PermissionError(errno.EACCES, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", failing)
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 2
    assert f"{root / 'd1'}: cannot list: Permission denied" in r.output
    assert "copied" not in r.output
    assert not any(p.is_file() for p in dest.rglob("*.bin"))


def test_a_read_error_while_listing_is_an_error_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "vol"
    _volume(root, 6, 2)
    real = os.scandir

    class Broken:
        def __init__(self, path: str) -> None:
            self.it = real(path)

        def __enter__(self):  # type: ignore[no-untyped-def]
            return self

        def __exit__(self, *a: object) -> None:
            self.it.close()

        def __iter__(self):  # type: ignore[no-untyped-def]
            yield next(iter(self.it))
            raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "scandir", lambda p: Broken(p) if Path(p).name == "d2" else real(p))
    with pytest.raises(SeekplanError, match=r"d2: cannot list: Input/output error"):
        plan(root)


def test_symlinks_are_copied_as_symlinks(cli, tmp_path: Path) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    contents = _volume(root, 4, 3)
    (root / "link").symlink_to("d0/f000.bin")
    (root / "dirlink").symlink_to("d1")
    (root / "dangling").symlink_to("nowhere")
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 0, r.output
    assert _same(dest, contents)
    for name, target in (("link", "d0/f000.bin"), ("dirlink", "d1"), ("dangling", "nowhere")):
        assert (dest / name).is_symlink() and os.readlink(dest / name) == target
    (dest / "link").unlink()
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 0 and "copied 1 files" in r.output
    assert os.readlink(dest / "link") == "d0/f000.bin"


def test_a_fifo_is_refused_not_skipped(tmp_path: Path) -> None:
    root = tmp_path / "vol"
    _volume(root, 2, 4)
    os.mkfifo(root / "pipe")
    with pytest.raises(SeekplanError, match="pipe: neither a regular file"):
        plan(root)


@pytest.mark.parametrize("damage", ["truncate", "delete", "rewrite"])
def test_a_damaged_destination_file_is_recopied(cli, tmp_path: Path, damage: str) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    contents = _volume(root, 6, 5)
    assert cli("ltfs", "copy", root, dest, "--no-progress").exit_code == 0
    victim = dest / next(iter(contents))
    if damage == "truncate":
        victim.write_bytes(victim.read_bytes()[:-1])
    elif damage == "delete":
        victim.unlink()
    else:  # same size, new content: the mtime tells
        victim.write_bytes(bytes(len(victim.read_bytes())))
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 0 and "copied 1 files" in r.output, r.output
    assert _same(dest, contents)


def test_verify_rehashes_a_file_changed_behind_size_and_mtime(cli, tmp_path: Path) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    contents = _volume(root, 4, 6)
    assert cli("ltfs", "copy", root, dest, "--no-progress").exit_code == 0
    victim = dest / next(iter(contents))
    st = victim.stat()
    victim.write_bytes(bytes(st.st_size))
    os.utime(victim, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert "copied 0 files" in cli("ltfs", "copy", root, dest, "--no-progress").output
    r = cli("ltfs", "copy", root, dest, "--no-progress", "--verify")
    assert r.exit_code == 0 and "copied 1 files" in r.output
    assert _same(dest, contents)


def test_a_changed_source_file_is_copied_again(tmp_path: Path) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    _volume(root, 4, 7)
    copy(root, dest, plan(root), show_progress=False)
    f = plan(root).files[0]
    (root / f.path).write_bytes(b"new content")
    assert copy(root, dest, plan(root), show_progress=False) == (1, 3)
    assert (dest / f.path).read_bytes() == b"new content"


def test_a_second_volume_into_the_same_destination_is_copied(cli, tmp_path: Path) -> None:
    dest = tmp_path / "out"
    a, b = tmp_path / "a", tmp_path / "b"
    _volume(a, 3, 8)
    b_contents = {f"other/{k}": v for k, v in _volume(b / "other", 3, 9).items()}
    assert cli("ltfs", "copy", a, dest, "--no-progress").exit_code == 0
    r = cli("ltfs", "copy", b, dest, "--no-progress")
    assert r.exit_code == 0 and "copied 3 files" in r.output, r.output
    assert _same(dest, b_contents)
    assert journal_path(dest, volume_identity(a)) != journal_path(dest, volume_identity(b))


def test_another_volumes_file_is_not_overwritten(cli, tmp_path: Path) -> None:
    dest = tmp_path / "out"
    a, b = tmp_path / "a", tmp_path / "b"
    a_contents = _volume(a, 3, 10)
    _volume(b, 3, 11)  # the same relative paths, other bytes
    assert cli("ltfs", "copy", a, dest, "--no-progress").exit_code == 0
    r = cli("ltfs", "copy", b, dest, "--no-progress")
    assert r.exit_code == 2 and "already copied there from another volume" in r.output
    assert _same(dest, a_contents)


def test_a_file_already_in_the_destination_is_not_overwritten(cli, tmp_path: Path) -> None:
    """A destination file no journal records (the user's own) was replaced
    by the volume's file of the same path, with exit 0."""
    root, dest = tmp_path / "vol", tmp_path / "out"
    contents = _volume(root, 3, 13)
    mine = dest / next(iter(contents))
    mine.parent.mkdir(parents=True)
    mine.write_bytes(b"not from the tape")
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 2, r.output
    assert f"{mine}: already exists and is not a copy from this volume" in r.output
    assert mine.read_bytes() == b"not from the tape"


def test_copies_whose_journal_lines_were_lost_are_still_this_volumes(cli, tmp_path: Path) -> None:
    """Killed after a file was renamed into place but before its journal
    line was written: the rerun takes it as its own copy, not a stranger's."""
    root, dest = tmp_path / "vol", tmp_path / "out"
    contents = _volume(root, 3, 14)
    assert cli("ltfs", "copy", root, dest, "--no-progress").exit_code == 0
    journal_path(dest, volume_identity(root)).unlink()
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 0, r.output
    assert _same(dest, contents)


def test_source_names_like_ours_do_not_collide(cli, tmp_path: Path) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    contents = _volume(root, 3, 12)
    for name in (".seekplan-ltfs-journal", ".f000.bin.seekplan-partial", "journal-x.jsonl"):
        (root / name).write_bytes(b"")
        contents[name] = b""
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 0, r.output
    assert _same(dest, contents)
    (root / STATE_DIR).mkdir()
    (root / STATE_DIR / "x").write_bytes(b"")
    r = cli("ltfs", "copy", root, tmp_path / "out2", "--no-progress")
    assert r.exit_code == 2 and f"uses the name {STATE_DIR!r}" in r.output


def _fail_write_after(monkeypatch: pytest.MonkeyPatch, n: int, err: int) -> None:
    """The n-th file's copy fails inside its write with ``err``."""
    real = ltfs._copy_file
    calls = []

    def failing(src, tmp, advance):  # type: ignore[no-untyped-def]
        calls.append(src)
        if len(calls) == n:
            tmp.write_bytes(b"half")
            raise OSError(err, os.strerror(err), str(tmp))
        return real(src, tmp, advance)

    monkeypatch.setattr(ltfs, "_copy_file", failing)


@pytest.mark.parametrize(
    ("err", "text"),
    [
        (errno.ENOSPC, "No space left on device"),
        (errno.EROFS, "Read-only file system"),
        (errno.ENOENT, "No such file or directory"),  # the source vanished
        (errno.EIO, "Input/output error"),
    ],
)
def test_a_failed_write_names_the_file_cleans_up_and_resumes(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, err: int, text: str
) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    contents = _volume(root, 6, 13)
    the_plan = plan(root)
    _fail_write_after(monkeypatch, 3, err)
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 2
    third = the_plan.files[2].path
    assert f"copying {root / third} to {dest / third}: {text}" in r.output
    assert "2 of 6 file(s) copied in this run, 4 not copied" in r.output
    assert "Traceback" not in r.output
    assert not list((dest / STATE_DIR / "tmp").iterdir())
    assert not (dest / third).exists()
    _, done = read_journal(journal_path(dest, volume_identity(root)))
    assert list(done) == [f.path for f in the_plan.files[:2]]
    monkeypatch.undo()
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 0 and "copied 4 files" in r.output
    assert _same(dest, contents)


def test_a_source_vanishing_before_its_turn_is_an_error(tmp_path: Path) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    _volume(root, 4, 14)
    the_plan = plan(root)
    (root / the_plan.files[1].path).unlink()
    with pytest.raises(SeekplanError, match=f"{the_plan.files[1].path}.*No such file"):
        copy(root, dest, the_plan, show_progress=False)


def test_a_read_only_destination_is_an_error(
    cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    _volume(root, 2, 15)
    real = Path.mkdir

    def read_only(self: Path, *a: object, **k: object) -> None:
        if self == dest or dest in self.parents:
            raise OSError(errno.EROFS, "Read-only file system", str(self))
        real(self, *a, **k)  # type: ignore[arg-type]

    monkeypatch.setattr(Path, "mkdir", read_only)
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 2 and f"DEST {dest}" in r.output and "Read-only" in r.output


def _digest(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file() and STATE_DIR not in p.parts
    }


def _journaled(dest: Path, root: Path) -> int:
    try:
        return journal_path(dest, volume_identity(root)).read_text().count("\n")
    except FileNotFoundError:
        return 0


def test_killed_at_random_points_and_rerun_gives_identical_files(tmp_path: Path) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    n = 300
    _volume(root, n, 16, size=20_000)
    want = _digest(root)
    rng = np.random.default_rng(17)
    # SLTF's order: what is tested is the copy and its journal, and BEST's
    # search took most of this test's time (the ci build plans each run).
    copy = ["ltfs", "copy", str(root), str(dest), "--no-progress", "--algo", "sltf"]
    cmd = [sys.executable, "-m", "seekplan", *copy]
    in_place_at_kill = []
    for target in sorted(rng.integers(10, n - 50, size=3)):
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL)
        while _journaled(dest, root) < target and proc.poll() is None:
            time.sleep(0.001)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        in_place = _digest(dest)  # whatever is in place is whole, never truncated
        assert in_place == {rel: want[rel] for rel in in_place}
        in_place_at_kill.append(len(in_place))
    assert min(in_place_at_kill) < n, "no kill landed mid-copy"
    done = subprocess.run(cmd, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert _digest(dest) == want
    print("files in place at each kill:", in_place_at_kill)


def test_a_journal_line_nested_past_the_recursion_limit_is_ignored(tmp_path: Path) -> None:
    """Such a line (a damaged or planted journal) raised RecursionError out
    of read_journal: a traceback instead of the file being redone."""
    journal = tmp_path / "journal.jsonl"
    journal.write_text('{"volume": "path:/v"}\n' + "[" * 100_000 + "]" * 100_000 + "\n")
    assert read_journal(journal) == ("path:/v", {})


def test_a_volume_nested_past_the_recursion_limit_is_planned(tmp_path: Path) -> None:
    root = tmp_path / "vol"
    deep = root.joinpath(*["d"] * 600)
    deep.mkdir(parents=True)
    (deep / "f").write_bytes(b"x")
    os.setxattr(deep / "f", "user.ltfs.startblock", b"3")
    (root / "top").write_bytes(b"y")
    os.setxattr(root / "top", "user.ltfs.startblock", b"9")
    # Room for the test's own frames and plan's, not for 600 nested calls.
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(len(inspect.stack()) + 300)
    try:
        files = plan(root).files
    finally:
        sys.setrecursionlimit(limit)
    assert sorted(f.path.rsplit("/", 1)[-1] for f in files) == ["f", "top"]


@pytest.mark.parametrize(
    "raw", [b"1_000", b"+7", b"-1", b"0x10", b"9" * 300, b"99999999999999999999"]
)
def test_a_start_block_is_digits_within_range(tmp_path: Path, raw: bytes) -> None:
    root = tmp_path / "vol"
    root.mkdir()
    (root / "f").write_bytes(b"x")
    os.setxattr(root / "f", "user.ltfs.startblock", raw)
    with pytest.raises(SeekplanError, match="ltfs.startblock"):
        plan(root)


def test_copies_keep_the_sources_permissions(tmp_path: Path) -> None:
    root, dest = tmp_path / "vol", tmp_path / "out"
    _volume(root, 4, 3)
    modes = {}
    for i, p in enumerate(sorted(root.rglob("*.bin"))):
        mode = (0o644, 0o755, 0o600, 0o640)[i % 4]
        p.chmod(mode)
        modes[p.relative_to(root)] = mode
    copy(root, dest, plan(root), show_progress=False)
    for rel, mode in modes.items():
        assert stat.S_IMODE((dest / rel).stat().st_mode) == mode, rel


def test_a_link_in_the_destination_pointing_out_of_it_is_refused(cli, tmp_path: Path) -> None:
    root, dest, victim = tmp_path / "vol", tmp_path / "out", tmp_path / "victim"
    _volume(root, 6, 4)
    dest.mkdir()
    victim.mkdir()
    (dest / "d1").symlink_to(victim)
    r = cli("ltfs", "copy", root, dest, "--no-progress")
    assert r.exit_code == 2
    assert "symbolic link out of the destination" in r.output
    assert not any(victim.iterdir())
    assert not any(p.is_file() for p in dest.rglob("*.bin"))
