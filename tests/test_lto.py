"""LTO drives from the CLI: end-of-wrap lists, the new algorithms, and
ordered, resumable reads from an LTFS volume (an ordinary directory with the
LTFS extended attributes set)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pytest

from seekplan import _core
from seekplan.catalog import load_catalog, make_drive
from seekplan.errors import SeekplanError
from seekplan.ltfs import (
    STATE_DIR,
    copy,
    journal_path,
    plan,
    read_journal,
    volume_identity,
)
from seekplan.lto import parse_eowp
from seekplan.ordering import order
from seekplan.workload import uniform_batch

LTO9_WRAPS = 280


def _eowp_csv(tmp_path: Path, blocks: list[int]) -> Path:
    p = tmp_path / "eowp.csv"
    p.write_text("last_block\n" + "".join(f"{b}\n" for b in blocks))
    return p


def _requests_csv(tmp_path: Path, n: int, capacity: int, seed: int) -> Path:
    rng = np.random.default_rng(seed)
    blocks = rng.integers(0, capacity - 10_000, n)
    p = tmp_path / "req.csv"
    p.write_text("id,block,size\n" + "".join(f"r{i},{b},50000000\n" for i, b in enumerate(blocks)))
    return p


def test_every_lto_generation_is_catalogued_with_mechanics() -> None:
    catalog = load_catalog()
    for name in ("lto5", "lto6", "lto7", "lto8", "lto9"):
        entry = catalog[name]
        assert entry.model == "lto"
        assert entry.mechanics is not None and entry.mechanics.avg_locate_s is not None
    assert catalog["lto9"].params["wraps"] == LTO9_WRAPS
    assert catalog["lto8"].params["wraps"] == 208


def test_order_with_an_end_of_wrap_list_uses_it(cli, tmp_path: Path) -> None:
    # Wrap 0 holds only 1,000 blocks: block 1,500 must then lie on wrap 1.
    blocks = [999] + [1000 + 100_000 * w - 1 for w in range(1, LTO9_WRAPS)]
    drive = make_drive("lto9", track_starts=blocks)
    assert drive.physical(1_500)[0] == 1
    assert make_drive("lto9").physical(1_500)[0] == 0
    eowp = _eowp_csv(tmp_path, blocks)
    req = _requests_csv(tmp_path, 40, blocks[-1], 1)
    totals = {}
    for algo in ("linear", "cta-sltf", "best"):
        r = cli("order", req, "--drive", "lto9", "--eowp", eowp, "--algo", algo, "--json")
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        assert sorted(out["order"]) == sorted(f"r{i}" for i in range(40))
        totals[algo] = out["total_s"]
    assert totals["best"] <= min(totals["linear"], totals["cta-sltf"])


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("wrap\n5\n", "missing column 'last_block'"),
        ("last_block\n10\nx\n", "line 3: column 'last_block': 'x' is not an integer"),
        ("last_block\n10\n10\n", "line 3: column 'last_block': 10 is not after"),
        ("last_block\n-4\n", "line 2: column 'last_block': -4 is negative"),
        ("last_block\n", "no wraps listed"),
        # A second field was dropped without a word before.
        ("last_block\n10\n20,30\n", "line 3: wrong number of fields"),
        # Past the core's 64-bit blocks: an OverflowError traceback before.
        (f"last_block\n{2**70}\n", "line 2: column 'last_block': 1180591620717411303424 is larger"),
    ],
)
def test_bad_end_of_wrap_lists_name_line_and_column(text: str, needle: str) -> None:
    with pytest.raises(SeekplanError, match=needle):
        parse_eowp(text.splitlines(keepends=True), "eowp.csv")


def test_eowp_errors_reach_the_cli_with_exit_2(cli, tmp_path: Path) -> None:
    req = _requests_csv(tmp_path, 5, 300_000, 2)
    too_many = _eowp_csv(tmp_path, list(range(10, 10 * (LTO9_WRAPS + 2), 10)))
    r = cli("order", req, "--drive", "lto9", "--eowp", too_many)
    assert r.exit_code == 2 and "281 wraps" in r.output
    r = cli("order", req, "--drive", "mlr1", "--eowp", too_many)
    assert r.exit_code == 2 and "needs an LTO drive" in r.output
    r = cli("order", req, "--drive", "lto9", "--eowp", too_many, "--track-starts", too_many)
    assert r.exit_code == 2 and "not both" in r.output
    r = cli("order", req, "--drive", "mlr1", "--algo", "cta-sltf")
    assert r.exit_code == 2 and "LTO" in r.output


def test_cta_model_costs_follow_the_published_coefficients() -> None:
    spec = load_catalog()["lto9"].typed_params().model_dump_json()
    cta = _core.cta_drive(spec)
    lto = _core.lto_drive(spec)
    per_wrap = lto.capacity // LTO9_WRAPS
    # Same wrap, a short way ahead in the same half: constant + distance only.
    lpos = lambda block: lto.physical(block)[2] * (141_678 - 1_400)  # noqa: E731
    assert cta.locate(0, 1000) == pytest.approx(4.29 + 0.0006192 * (lpos(1000) - lpos(0)))
    # Wrap 0 to wrap 1 near BOT: wrap and direction change, same band and half.
    assert cta.locate(0, 2 * per_wrap - 10) == pytest.approx(4.29 + 6.69 + 5.22, abs=0.01)


def _volume(root: Path, n: int, seed: int) -> dict[str, bytes]:
    rng = np.random.default_rng(seed)
    contents = {}
    for i in range(n):
        sub = root / f"d{i % 3}"
        sub.mkdir(parents=True, exist_ok=True)
        data = rng.bytes(int(rng.integers(1, 5000)))
        p = sub / f"f{i:03}.bin"
        p.write_bytes(data)
        os.setxattr(p, "user.ltfs.startblock", str(int(rng.integers(0, 30_000_000))).encode())
        os.setxattr(p, "user.ltfs.partition", b"b")
        contents[p.relative_to(root).as_posix()] = data
    return contents


def test_ltfs_plan_orders_every_file_better_than_directory_order(cli, tmp_path: Path) -> None:
    root = tmp_path / "vol"
    contents = _volume(root, 30, 3)
    (root / "empty").write_bytes(b"")
    idx = root / "index-resident"
    idx.write_bytes(b"x")
    os.setxattr(idx, "user.ltfs.partition", b"a")
    os.setxattr(idx, "user.ltfs.startblock", b"7")
    r = cli("ltfs", "plan", root, "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    paths = [f["path"] for f in out["files"]]
    assert sorted(paths) == sorted([*contents, "empty", "index-resident"])
    assert set(paths[:2]) == {"empty", "index-resident"}
    assert out["total_s"] < out["directory_order_s"]


def test_un_prefixed_attribute_names_are_read_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Linux refuses to set names outside the user. namespace; other systems
    # (macOS) expose LTFS's attributes without the prefix.
    p = tmp_path / "f"
    p.write_bytes(b"abc")
    real = os.getxattr

    def bare_only(path: Path, name: str) -> bytes:
        if name.startswith("user."):
            raise OSError(61, "no such attribute")
        return {"ltfs.startblock": b"42", "ltfs.partition": b"b"}.get(name) or real(path, name)

    monkeypatch.setattr(os, "getxattr", bare_only)
    from seekplan.ltfs import scan

    assert [(f.path, f.partition, f.block, f.size) for f in scan(tmp_path)] == [("f", "b", 42, 3)]


def test_ltfs_plan_names_a_file_without_start_block(cli, tmp_path: Path) -> None:
    root = tmp_path / "vol"
    _volume(root, 3, 4)
    (root / "stray.txt").write_text("not from tape")
    r = cli("ltfs", "plan", root)
    assert r.exit_code == 2
    assert "stray.txt: no ltfs.startblock" in r.output


@pytest.mark.parametrize(
    ("name", "value", "needle"),
    [
        # bytes.decode() raised UnicodeDecodeError out of scan: a traceback.
        ("user.ltfs.startblock", b"\xff\xfe", "user.ltfs.startblock b'\\xff\\xfe' is not UTF-8"),
        ("user.ltfs.partition", b"\xff", "user.ltfs.partition b'\\xff' is not UTF-8"),
        ("user.ltfs.startblock", str(2**70).encode(), "1180591620717411303424 is larger"),
    ],
)
def test_ltfs_plan_names_a_hostile_attribute(cli, tmp_path: Path, name, value, needle) -> None:
    root = tmp_path / "vol"
    _volume(root, 3, 4)
    odd = root / "odd.bin"
    odd.write_bytes(b"x" * 100)
    os.setxattr(odd, "user.ltfs.startblock", b"7")
    os.setxattr(odd, name, value)
    r = cli("ltfs", "plan", root)
    assert r.exit_code == 2, r.output
    assert needle in r.output


def test_ltfs_copy_resumes_without_recopying_or_losing_a_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import seekplan.ltfs as ltfs

    root, dest = tmp_path / "vol", tmp_path / "out"
    contents = _volume(root, 12, 5)
    the_plan = plan(root)
    real = ltfs._copy_one
    calls: list[str] = []

    def interrupted(src, dst, tmp_dir, f, advance):  # type: ignore[no-untyped-def]
        if len(calls) == 5:
            raise KeyboardInterrupt
        calls.append(src.relative_to(root).as_posix())
        return real(src, dst, tmp_dir, f, advance)

    monkeypatch.setattr(ltfs, "_copy_one", interrupted)
    with pytest.raises(KeyboardInterrupt):
        copy(root, dest, the_plan, show_progress=False)
    assert calls == [f.path for f in the_plan.files[:5]]
    calls.clear()
    monkeypatch.setattr(ltfs, "_copy_one", lambda *a: (calls.append("x"), real(*a))[1])
    copied, skipped = copy(root, dest, the_plan, show_progress=False)
    assert (copied, skipped) == (7, 5) and len(calls) == 7
    for rel, data in contents.items():
        assert (dest / rel).read_bytes() == data
    assert not list((dest / STATE_DIR / "tmp").iterdir())
    _, done = read_journal(journal_path(dest, volume_identity(root)))
    assert list(done) == [f.path for f in the_plan.files]


def test_ltfs_copy_cli_copies_everything_and_refuses_a_destination_inside(
    cli, tmp_path: Path
) -> None:
    root = tmp_path / "vol"
    contents = _volume(root, 6, 6)
    r = cli("ltfs", "copy", root, tmp_path / "out", "--no-progress")
    assert r.exit_code == 0, r.output
    assert all((tmp_path / "out" / rel).read_bytes() == d for rel, d in contents.items())
    r = cli("ltfs", "copy", root, tmp_path / "out", "--no-progress")
    assert "copied 0 files" in r.output
    r = cli("ltfs", "copy", root, root / "inner", "--no-progress")
    assert r.exit_code == 2 and "inside the volume" in r.output
    assert not (root / "inner").exists()  # nothing written to the tape


def test_cta_judge_orders_and_times_every_move_by_ctas_heuristic(cli, tmp_path) -> None:
    drive = make_drive("lto9")
    batch = uniform_batch(drive.capacity, 120, 64 << 20, 11)
    totals = {}
    for cost in ("drive", "cta"):
        for algo in ("linear", "cta-sltf", "best"):
            r = order(batch, drive="lto9", algo=algo, cost=cost)
            assert r.lower_bound_s is not None and r.lower_bound_s <= r.total_s + 1e-6
            totals[cost, algo] = r.total_s
    # Judged by CTA's own cost, best still never loses to CTA's RAO...
    assert totals["cta", "best"] <= totals["cta", "cta-sltf"]
    # ...and the judge matters: the same orders cost differently under it.
    assert totals["cta", "linear"] != pytest.approx(totals["drive", "linear"])
    req = tmp_path / "r.csv"
    req.write_text("id,block,size\na,10,100\nb,5000,100\n")
    r = cli("order", req, "--drive", "mlr1", "--cost", "cta")
    assert r.exit_code == 2 and "needs an LTO drive" in r.output
    r = cli("order", req, "--drive", "lto9", "--cost", "nosuch")
    assert r.exit_code == 2 and "unknown cost" in r.output
    r = cli("order", req, "--drive", "lto9", "--cost", "cta", "--json")
    assert r.exit_code == 0, r.output
    r = cli("order", req, "--drive", "lto9", "--cost", "cta")
    assert "CTA's cost heuristic's (--cost cta)" in " ".join(r.output.split())
    assert "CTA's" not in cli("order", req, "--drive", "lto9").output


@pytest.mark.parametrize(("name", "native_tb"), [("lto10", 30), ("lto10p", 40)])
def test_lto10_entries_order_a_batch_on_their_own_model(cli, name, native_tb) -> None:
    drive = make_drive(name)
    assert drive.capacity * drive.block_bytes == pytest.approx(native_tb * 1e12, rel=0.01)
    batch = uniform_batch(drive.capacity, 200, 64 << 20, 3)
    best = order(batch, drive=name, algo="best")
    linear = order(batch, drive=name, algo="linear")
    assert best.total_s <= linear.total_s
    assert best.lower_bound_s is not None and best.lower_bound_s <= best.total_s
    r = cli("drives", name, "--json")
    assert r.exit_code == 0 and f'"capacity_bytes": {native_tb}000000000000' in r.output
