"""`seekplan serve`'s input checks (issue 35, item 5): catalog paths that no
client could request or that would forge a log line, overlapping extents,
tokens that are not printable ASCII, and config fields that contradict each
other or were refused without their name. Each is exit 2 through the CLI,
naming the file, the line (1-based) and the field."""

from __future__ import annotations

import os

import pytest
import yaml

from seekplan.errors import SeekplanError
from seekplan.serve.api import load_tokens
from seekplan.serve.catalog import check_extents, ltfs_catalog, parse_catalog

HEADER = "path,tape,block,size"
#: LTO-9's block (the default drive's), as the overlap check counts it.
BLOCK = 524_288


@pytest.mark.parametrize(
    ("path", "shown"),
    [
        # a quoted line break: the record (and the line named) ends on line 4
        ('"/a\nb"', r"'/a\nb' contains a control character ('\n')"),
        ('"/a\rb"', r"contains a control character ('\r')"),
        ("/a\tb", r"contains a control character ('\t')"),
        ("/a\x00b", r"contains a control character ('\x00')"),
        ("/a\x1bb", r"contains a control character ('\x1b')"),
        ("/a\x7fb", r"contains a control character ('\x7f')"),
        ("/a/../etc/passwd", "'/a/../etc/passwd' contains a '..' segment"),
        ("/a/..", "contains a '..' segment"),
    ],
)
def test_catalog_paths_that_could_forge_a_log_line_are_refused(path, shown):
    text = f"{HEADER}\n/ok,T,0,1\n{path},T,9,1\n"
    with pytest.raises(SeekplanError) as e:
        parse_catalog(text.splitlines(keepends=True), "catalog.csv")
    message = str(e.value)
    line = 4 if path.startswith('"') else 3
    assert message.startswith(f"catalog.csv line {line}: column 'path': ")
    assert shown in message
    # the message itself is one line
    assert "\n" not in message


def test_a_dot_in_a_name_is_no_dotdot_segment():
    cat = parse_catalog([HEADER, "/a/..b/c.,T,0,1", "/a/.../d,T,5,1"])
    assert len(cat) == 2


def _catalog(*rows: str):
    return parse_catalog([HEADER, *rows], "catalog.csv")


def test_overlapping_extents_name_both_lines_and_the_tape():
    # /a/b covers blocks 10..12 (2 blocks and a byte); /a/c starts in it
    cat = _catalog(f"/a/b,T1,10,{2 * BLOCK + 1}", "/x,T2,11,5", "/a/c,T1,12,1")
    with pytest.raises(SeekplanError) as e:
        check_extents(cat, BLOCK, 10**9, "lto9")
    assert str(e.value) == (
        "catalog.csv line 4: column 'block': /a/c overlaps /a/b (line 2) on tape T1"
    )


def test_the_later_line_is_named_whichever_comes_first_on_tape():
    cat = _catalog("/late,T1,12,1", "/x,T1,0,1", f"/early,T1,10,{3 * BLOCK}")
    with pytest.raises(
        SeekplanError, match=r"line 4: column 'block': /early overlaps /late \(line 2\)"
    ):
        check_extents(cat, BLOCK, 10**9, "lto9")


def test_files_starting_on_one_block_overlap():
    cat = _catalog(f"/big,T,7,{9 * BLOCK}", "/small,T,7,1")
    with pytest.raises(SeekplanError, match=r"line 3: column 'block': /small overlaps /big"):
        check_extents(cat, BLOCK, 10**9, "lto9")


def test_touching_extents_empty_files_and_other_tapes_do_not_overlap():
    cat = _catalog(
        f"/a,T,0,{BLOCK}",  # [0, 1)
        f"/b,T,1,{BLOCK + 1}",  # [1, 3)
        "/c,T,3,1",  # [3, 4)
        "/empty,T,1,0",  # occupies nothing
        f"/other,U,0,{5 * BLOCK}",
    )
    check_extents(cat, BLOCK, 10**9, "lto9")


def test_past_the_end_of_the_tape_names_the_line():
    cat = _catalog("/a,T,0,1", f"/b,T,99,{BLOCK + 1}")
    with pytest.raises(SeekplanError, match=r"catalog.csv line 3: column 'block': /b: block 99"):
        check_extents(cat, BLOCK, 100, "lto9")


def _volume(root, name, block):
    p = root / "T1" / name
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_bytes(b"x" * 1000)
    os.setxattr(p, "user.ltfs.startblock", str(block).encode())
    return p


def test_ltfs_paths_with_control_characters_are_refused(tmp_path):
    _volume(tmp_path, "ok", 0)
    bad = _volume(tmp_path, "forged\nline", 9)
    with pytest.raises(SeekplanError) as e:
        ltfs_catalog(tmp_path)
    assert str(bad) in str(e.value) and r"control character ('\n')" in str(e.value)


def test_an_ltfs_volume_named_longer_than_the_tables_hold_is_refused(tmp_path):
    """A volume directory's name is its tape's name: over 200 characters it
    is refused naming the volume, as a catalog's tape column is."""
    _volume(tmp_path, "ok", 0)
    long = tmp_path / ("V" * 201)
    long.mkdir()
    (long / "f").write_bytes(b"x" * 1000)
    os.setxattr(long / "f", "user.ltfs.startblock", b"0")
    with pytest.raises(SeekplanError, match=r"a volume name of 201 characters, at most 200"):
        ltfs_catalog(tmp_path)


def test_ltfs_file_names_that_are_not_utf8_are_refused(tmp_path):
    _volume(tmp_path, "ok", 0)
    raw = os.fsencode(tmp_path / "T1") + b"/caf\xe9"  # Latin-1, not UTF-8
    with open(raw, "wb") as f:
        f.write(b"x" * 1000)
    os.setxattr(raw, "user.ltfs.startblock", b"9")
    with pytest.raises(SeekplanError, match=r"T1.*is not valid UTF-8"):
        ltfs_catalog(tmp_path)


def test_ltfs_overlaps_name_the_attribute(tmp_path):
    _volume(tmp_path, "a", 7)
    _volume(tmp_path, "b", 7)
    with pytest.raises(SeekplanError) as e:
        check_extents(ltfs_catalog(tmp_path), BLOCK, 10**9, "lto9")
    assert str(e.value).startswith(f"{tmp_path}: /T1/")
    assert "ltfs.startblock" in str(e.value) and "on tape T1" in str(e.value)


def test_an_overlap_exits_2_through_the_cli(cli, tmp_path):
    cat = tmp_path / "catalog.csv"
    cat.write_text(f"{HEADER}\n/a/c,T1,100,{BLOCK}\n/a/d,T1,0,1\n/a/b,T1,100,1\n")
    r = cli("serve", "--catalog", cat, "--db", tmp_path / "s.db")
    assert r.exit_code == 2, r.output
    assert f"{cat} line 4: column 'block': /a/b overlaps /a/c (line 2) on tape T1" in r.output


def test_a_forged_path_exits_2_through_the_cli(cli, tmp_path):
    cat = tmp_path / "catalog.csv"
    cat.write_text(f'{HEADER}\n"/a\n127.0.0.1 GET /x 200",T1,0,1\n')
    r = cli("serve", "--catalog", cat, "--db", tmp_path / "s.db")
    assert r.exit_code == 2 and f"{cat} line 3: column 'path'" in r.output, r.output


GOOD = "abcdefghijklmnop0123"


@pytest.mark.parametrize(
    ("line", "field", "char"),
    [
        (f"alice {GOOD[:5]}\x00{GOOD}", "token", "U+0000"),
        (f"alice {GOOD}\x1b[2J", "token", "U+001B"),
        (f"alice {GOOD}\x0b", "token", "U+000B"),  # splitlines() broke the line here
        (f"alice {GOOD}\x7f", "token", "U+007F"),
        (f"alice {GOOD}é", "token", "U+00E9"),
        (f"alicé {GOOD}", "client", "U+00E9"),
        (f"al\x00ice {GOOD}", "client", "U+0000"),
    ],
)
def test_tokens_and_clients_are_printable_ascii(tmp_path, line, field, char):
    p = tmp_path / "tokens"
    p.write_text(f"# clients\nbob {GOOD}x\n{line}\n", encoding="utf-8")
    with pytest.raises(SeekplanError) as e:
        load_tokens(p)
    message = str(e.value)
    assert message.startswith(f"{p} line 3: {field}: character ") and char in message
    assert GOOD not in message  # a secret is never echoed


def test_a_client_name_longer_than_the_tables_hold_is_refused(tmp_path):
    """PostgreSQL refuses a client name over 200 characters, which failed
    every request of that client; the tokens file is refused instead."""
    p = tmp_path / "tokens"
    p.write_text(f"{'a' * 200} {GOOD}\n{'b' * 201} {GOOD}x\n")
    with pytest.raises(SeekplanError, match=rf"^{p} line 2: client: 201 characters, at most 200$"):
        load_tokens(p)


def test_a_tape_name_longer_than_the_tables_hold_is_refused(tmp_path):
    """A catalog's tape name over 200 characters failed, on PostgreSQL, every
    request with a file on that tape; the catalog is refused instead, naming
    the line and column."""
    text = f"{HEADER}\n/a,T1,0,1\n/b,{'T' * 201},0,1\n"
    with pytest.raises(SeekplanError, match=r"^c\.csv line 3: column 'tape': 201 characters"):
        parse_catalog(text.splitlines(keepends=True), "c.csv")


def test_the_longest_names_stage_on_either_database(tmp_path, db_url):
    """A tape and a client name of 200 characters, the most the tables hold,
    stage and complete (PostgreSQL checks the length, SQLite does not)."""
    from fastapi.testclient import TestClient
    from serve_support import make_service, wait_done

    tape, client = "T" * 200, "c" * 200
    cat = tmp_path / "catalog.csv"
    cat.write_text(f"{HEADER}\n/a,{tape},0,1\n")
    tokens = tmp_path / "tokens"
    tokens.write_text(f"{client} {GOOD}\n")
    app, svc = make_service(tmp_path, db_url, (cat, ["/a"]), tokens=str(tokens))
    auth = {"Authorization": f"Bearer {GOOD}"}
    with TestClient(app) as c:
        r = c.post("/api/v1/stage", json={"files": [{"path": "/a"}]}, headers=auth)
        assert r.status_code == 201, r.text
        doc = wait_done(c, r.json()["requestId"], headers=auth)
        assert doc["files"][0]["state"] == "COMPLETED"


def test_a_bad_token_exits_2_through_the_cli(cli, tmp_path):
    cat = tmp_path / "catalog.csv"
    cat.write_text(f"{HEADER}\n/a,T1,0,1\n")
    tokens = tmp_path / "tokens"
    tokens.write_text(f"alice {GOOD}\nbob {GOOD}\x00x\n")
    r = cli("serve", "--catalog", cat, "--db", tmp_path / "s.db", "--tokens", tokens)
    assert r.exit_code == 2 and f"{tokens} line 2: token: character 21 is U+0000" in r.output


def test_tokens_still_split_on_spaces_and_tabs(tmp_path):
    p = tmp_path / "tokens"
    p.write_text(f"alice\t{GOOD}  # hers\n  bob   {GOOD}b\n")
    assert load_tokens(p) == {GOOD: "alice", GOOD + "b": "bob"}


@pytest.mark.parametrize(
    ("setting", "line", "needle"),
    [
        # safe_dump sorts the keys: catalog (line 1), db, then the setting
        ({"ltfs_root": "volumes"}, 1, "catalog and ltfs_root: give one"),
        ({"policy": {"name": "by-tapes", "tapes": -2}}, 5, "policy.tapes: -2 is out of range"),
        ({"policy": {"name": "by-tapes", "tapes": 2.5}}, 5, "policy.tapes: 2.5 is not a whole"),
        ({"policy": {"name": "by-tapes", "tapes": True}}, 5, "policy.tapes: True is not a whole"),
        ({"policy": {"name": "dcache", "max_active_tapes": -1}}, 4, "policy.max_active_tapes: -1"),
        ({"policy": {"name": "dcache", "min_request_count": -5}}, 4, "policy.min_request_count"),
        # the core's own checks keep their names
        ({"policy": {"name": "by-tapes", "tapes": 0}}, 5, "invalid policy.tapes"),
    ],
)
def test_config_errors_name_the_file_line_and_field(cli, tmp_path, setting, line, needle):
    (tmp_path / "c.csv").write_text(f"{HEADER}\n/a,T1,0,1\n")
    cfg = tmp_path / "stage.yaml"
    cfg.write_text(yaml.safe_dump({"catalog": "c.csv", "db": "s.db", **setting}))
    r = cli("serve", "--config", cfg)
    assert r.exit_code == 2, r.output
    assert f"{cfg} line {line}: {needle}" in r.output and "Traceback" not in r.output


def test_a_dcache_policy_without_a_request_count_is_accepted(tmp_path):
    from seekplan.serve.config import load_stage_config

    cfg = load_stage_config(
        None,
        {"catalog": "c.csv", "policy": {"name": "dcache", "min_request_count": None}},
    )
    assert cfg.recall()["strategy"]["min_request_count"] is None


TRICKY_ROWS = [
    "/a/ b,T1,0,1",  # a blank inside a name is a name
    "/a//b,T1,0,1",  # sanitised to /a/b
    "/a/b/,T1,0,1",  # sanitised to /a/b
    " /a/b ,T1,0,1",  # surrounding blanks are stripped
    "/a/..,T1,0,1",
    "/a/../b,T1,0,1",
    "/..a/b,T1,0,1",
    "/a/.../b,T1,0,1",
    '"/a\tb",T1,0,1',
    '"/a\x7fb",T1,0,1',
    "/é/ü,T1,0,1",
    "a/b,T1,0,1",
    "/a/b, T1 ,0,1",
    "/a/b,,0,1",
    "/a/b,T1,-1,1",
    "/a/b,T1,+5,1",
    "/a/b,T1, 5,1",
    "/a/b,T1,0,9223372036854775808",
    "/a/b,T1,0,1,extra",
    f"/a/b,{'T' * 200},0,1",  # the longest tape name the tables hold
    f"/a/b,{'T' * 201},0,1",
    f"/a/b,{'é' * 201},0,1",
]


@pytest.mark.parametrize("row", TRICKY_ROWS)
def test_the_catalog_read_by_column_agrees_with_the_one_read_by_line(tmp_path, row):
    """load_catalog's Arrow path restates the line reader's checks by
    column; on every row either both refuse with the same message, or both
    keep the same file."""
    from seekplan.serve.catalog import load_catalog

    text = f"path,tape,block,size\n/first,T0,0,1\n{row}\n"
    p = tmp_path / "c.csv"
    p.write_text(text, encoding="utf-8")

    def read(how):
        try:
            c = how()
        except SeekplanError as e:
            return str(e)
        return [(e.path, e.tape, e.block, e.size) for e in map(c.get, c.all_paths())]

    by_column = read(lambda: load_catalog(p))
    by_line = read(lambda: parse_catalog(text.splitlines(keepends=True), str(p)))
    assert by_column == by_line
