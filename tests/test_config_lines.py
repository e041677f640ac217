"""A bad setting in a YAML config is named with its file, its 1-based line
and its field, whichever check refused it (the core's, pydantic's or the
loader's), and whichever simulator or the service read the file."""

from __future__ import annotations

import sys

import pytest

from seekplan.config import lines_of
from seekplan.errors import ArgumentError, SeekplanError

#: Lists nested this deep pass Python's recursion limit while PyYAML
#: composes them (two frames a level). Not far past it: PyYAML's scanner
#: takes time quadratic in the depth (5,000 levels: 3.5 s a file).
TOO_DEEP = 2 * sys.getrecursionlimit()

RECALL_DRIVES_0 = "# a comment first\nduration_h: 1\nlibrary:\n  queue_size: 10\n  drives: 0\n"


@pytest.mark.parametrize(
    ("command", "text", "line", "needle"),
    [
        # the core's own range check, a key nested two deep
        (["simulate", "recall"], RECALL_DRIVES_0, 5, "invalid library.drives: must be at least 1"),
        # serde's type error and unknown field
        (["simulate", "recall"], "library:\n  drives: -3\n", 2, "library.drives: invalid value"),
        (["simulate", "recall"], "duration_h: 1\nlibrary:\n  drivez: 3\n", 3, "library.drivez"),
        # a setting the file leaves out: the key that should hold it
        (
            ["simulate", "recall"],
            "duration_h: 1\nworkload:\n  kind: files\n  tapes: t.csv\n",
            2,
            "workload: missing field `files`",
        ),
        # the loader's own check of text values
        (["simulate", "recall"], 'x: 1\nstrategy: {name: "a\\0"}\n', 2, "strategy.name: text"),
        # an item of a block list and of a flow list
        (["simulate", "media"], "runs: 1\nalgorithms:\n  - sptf\n  - nope\n", 4, "algorithms[1]"),
        (["simulate", "media"], "runs: 1\nalgorithms: [sptf, nope]\n", 2, "algorithms[1]"),
        (["simulate", "archive"], "policy: hetero\nworkload:\n  rate_per_hour: -1\n", 3, "rate"),
    ],
)
def test_a_bad_setting_names_its_line(cli, tmp_path, command, text, line, needle):
    cfg = tmp_path / "c.yaml"
    cfg.write_text(text)
    r = cli(*command, cfg, "--out", tmp_path / "out")
    assert r.exit_code == 2, r.output
    assert f"{cfg} line {line}: " in r.output and needle in r.output, r.output
    assert "Traceback" not in r.output


def test_a_mount_replay_setting_names_its_line_unless_an_option_gave_it(cli, tmp_path):
    cfg = tmp_path / "m.yaml"
    cfg.write_text("drive: t10000d\ndrives: 0\n")
    r = cli("simulate", "mounts", "--config", cfg, "--synthetic", 50, "--out", tmp_path / "a")
    assert r.exit_code == 2 and f"{cfg} line 2: invalid drives" in r.output, r.output
    cfg.write_text("drive: t10000d\ndismount: {kind: fixed, delay_s: -5}\n")
    r = cli("simulate", "mounts", "--config", cfg, "--synthetic", 50, "--out", tmp_path / "b")
    assert r.exit_code == 2 and f"{cfg} line 2: " in r.output, r.output
    # The same bad value from --dismount: the file's line would mislead.
    cfg.write_text("drive: t10000d\n")
    r = cli(
        "simulate", "mounts", "--config", cfg, "--synthetic", 50, "--dismount", "-5",
        "--out", tmp_path / "c",
    )  # fmt: skip
    assert r.exit_code == 2 and "line" not in r.output, r.output


def test_a_service_setting_from_the_command_line_gets_no_line(cli, tmp_path):
    (tmp_path / "c.csv").write_text("path,tape,block,size\n/a,T1,0,1\n")
    cfg = tmp_path / "stage.yaml"
    cfg.write_text("catalog: c.csv\ndb: s.db\nlibrary: {drives: 4}\nport: -5\n")
    r = cli("serve", "--config", cfg)
    assert r.exit_code == 2 and f"{cfg} line 4: port:" in r.output, r.output
    cfg.write_text("catalog: c.csv\ndb: s.db\nlibrary: {drives: 4}\n")
    r = cli("serve", "--config", cfg, "--drives", 0)
    assert r.exit_code == 2 and "library.drives" in r.output, r.output
    assert "line" not in r.output


def _raise_in(path, message, error=SeekplanError, skip=()):
    with lines_of(path, skip=skip):
        raise error(message)


def test_errors_naming_no_field_of_the_file_keep_their_text(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("library:\n  drives: 2\n")
    for message in (
        f"{cfg}: expected a mapping of settings, got list",  # no such key
        f"{cfg} line 1, column 3: not valid YAML: x",  # has its line already
        "another.yaml: library.drives: bad",  # about another file
    ):
        with pytest.raises(SeekplanError) as e:
            _raise_in(cfg, message)
        assert str(e.value) == message


def test_the_error_keeps_its_type_and_skipped_keys_keep_no_line(tmp_path):
    cfg = tmp_path / "c.yaml"
    cfg.write_text("base: &b {drives: 2}\nlibrary:\n  <<: *b\n  rate_mb_s: 5\n")
    with pytest.raises(ArgumentError) as e:
        _raise_in(cfg, f"{cfg}: library.rate_mb_s: bad", ArgumentError)
    assert str(e.value) == f"{cfg} line 4: library.rate_mb_s: bad"
    # A key merged in from an anchor is named at the mapping that takes it.
    with pytest.raises(SeekplanError) as e:
        _raise_in(cfg, f"{cfg}: library.drives: bad")
    assert str(e.value) == f"{cfg} line 2: library.drives: bad"
    with pytest.raises(SeekplanError) as e:
        _raise_in(cfg, f"{cfg}: library.drives: bad", skip={"library"})
    assert str(e.value) == f"{cfg}: library.drives: bad"
    # pydantic's list indices are dotted numbers.
    cfg.write_text("tapes:\n  - {name: a}\n  - {name: b}\n")
    with pytest.raises(SeekplanError) as e:
        _raise_in(cfg, f"{cfg}: tapes.1.name: bad")
    assert str(e.value) == f"{cfg} line 3: tapes.1.name: bad"


@pytest.mark.parametrize(
    ("text", "line", "needle"),
    [
        # a bad figure in the params sub-table, after a comment
        (
            '# mine\n[drives.x]\ntitle = "X"\nmodel = "lto"\n[drives.x.params]\nbands = 4\n'
            "wraps = -5\n",
            7,
            "drive 'x': field 'wraps'",
        ),
        # an unknown key of the drive's own table (quoted), past another drive's
        (
            '[drives.a]\ntitle = "A"\n[drives.a.mechanics]\ncapacity_bytes = 1000\n'
            "rate_bps = 1000\nload_s = 1\nunload_s = 1\nrewind_s = 1\navg_locate_s = 1\n"
            '[drives."x"]\ntitle = "X"\nbogus = 3\n',
            12,
            "drive 'x': field 'bogus'",
        ),
        # a figure the file leaves out: the drive's table
        (
            '[drives.x]\ntitle = "X"\nmodel = "lto"\n[drives.x.params]\nwraps = 4\n',
            1,
            "drive 'x': field 'bands'",
        ),
    ],
)
def test_a_bad_device_figure_names_its_line(cli, tmp_path, text, line, needle):
    devices = tmp_path / "d.toml"
    devices.write_text(text)
    r = cli("drives", "x", "--devices", devices)
    assert r.exit_code == 2, r.output
    assert f"{devices} line {line}: {needle}" in r.output, r.output


@pytest.mark.parametrize("command", [["simulate", "recall"], ["simulate", "media"]])
def test_a_config_nested_too_deeply_keeps_its_error(cli, tmp_path, command):
    """The line lookup parses the file again once a check failed: a file
    nested past Python's recursion limit must not crash it."""
    cfg = tmp_path / "c.yaml"
    cfg.write_text("nested: " + "[" * TOO_DEEP + "]" * TOO_DEEP + "\n")
    r = cli(*command, cfg, "--out", tmp_path / "out")
    assert r.exit_code == 2, r.output
    assert f"{cfg}: nested too deeply to be a config" in r.output, r.output


def test_a_service_config_nested_too_deeply_keeps_its_error(cli, tmp_path):
    cfg = tmp_path / "stage.yaml"
    cfg.write_text("catalog: " + "[" * TOO_DEEP + "]" * TOO_DEEP + "\n")
    r = cli("serve", "--config", cfg)
    assert r.exit_code == 2 and "nested too deeply" in r.output, r.output
    assert "Traceback" not in r.output


def test_a_file_gone_or_unparsable_at_the_lookup_keeps_the_error(tmp_path):
    """The lookup reads the file again: gone by then, or not YAML any more
    (changed under the run), the error keeps its text, without a line."""
    cfg = tmp_path / "c.yaml"
    message = f"{cfg}: library.drives: bad"
    for prepare in (lambda: cfg.unlink(), lambda: cfg.write_text("library: [\n")):
        cfg.write_text("library:\n  drives: 0\n")
        with pytest.raises(SeekplanError) as e, lines_of(cfg):
            prepare()
            raise SeekplanError(message)
        assert str(e.value) == message


def test_a_device_table_without_a_header_is_named_without_a_line(cli, tmp_path):
    """A drive written as an inline table under [drives] has no header of
    its own for the line to point at: the error keeps the file and field."""
    devices = tmp_path / "d.toml"
    devices.write_text('[drives]\nx = { title = "X", model = "lto", bogus = 3 }\n')
    r = cli("drives", "x", "--devices", devices)
    assert r.exit_code == 2, r.output
    assert f"{devices}: drive 'x': field 'bogus'" in r.output, r.output
