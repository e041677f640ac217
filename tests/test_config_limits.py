"""Config files that are hostile by size: alias bombs and huge values."""

from __future__ import annotations

import pytest

from seekplan.config import MAX_CONFIG_CHARS, load_yaml
from seekplan.errors import MAX_QUOTED_CHARS, SeekplanError, quote

BOMB = "a: &a [x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"{chr(98 + i)}: &{chr(98 + i)} [{', '.join(['*' + chr(97 + i)] * 9)}]\n" for i in range(8)
)


def _simulate(cli, tmp_path, command: str, text: str):  # type: ignore[no-untyped-def]
    """`seekplan simulate COMMAND` on a config file of `text`."""
    path = tmp_path / "c.yaml"
    path.write_text(text)
    return cli("simulate", command, path, "--out", tmp_path / "out")


def test_an_alias_bomb_is_refused_quickly(tmp_path):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    assert len(BOMB) < 500
    with pytest.raises(SeekplanError, match="aliases are expanded"):
        load_yaml(path)


def test_a_few_aliases_are_fine(tmp_path):
    path = tmp_path / "ok.yaml"
    path.write_text("base: &b {drives: 4}\nlibrary: *b\n")
    assert load_yaml(path) == {"base": {"drives": 4}, "library": {"drives": 4}}


@pytest.mark.parametrize("command", ["recall", "archive", "media"])
def test_every_simulator_refuses_a_bomb_with_exit_2(cli, tmp_path, command):
    path = tmp_path / "bomb.yaml"
    path.write_text(BOMB)
    r = cli("simulate", command, path, "--out", tmp_path / "out")
    assert r.exit_code == 2, r.output
    assert "aliases" in r.output and len(r.output) < 2_000


def test_quoted_values_are_cut_short():
    assert quote(5) == "5"
    long = quote("x" * 10_000)
    assert len(long) < MAX_QUOTED_CHARS + 40 and "10,002 characters" in long


@pytest.mark.parametrize(
    ("command", "text", "field"),
    [
        ("media", "c_requests: 1000000000\n", "c_requests"),
        # A billion runs grew the sweep's point list past 8 GB; 50,000 rates
        # of 3 algorithms ran for minutes (20,000 pass the limit as well).
        ("media", "runs: 1000000000\n", "9000000000 runs, more than 100000"),
        ("media", "lambdas: [" + ", ".join(["1"] * 20_000) + "]\n", "120000 runs"),
        ("archive", "scheduler: {min_lb_interval_s: 1.0e-9}\n", "scheduler.min_lb_interval_s"),
        ("archive", "scheduler: {max_waiting_time_s: .nan}\n", "scheduler.max_waiting_time_s"),
        # 1e13 s took 24 s, 1e15 s did not end.
        ("archive", "scheduler: {max_waiting_time_s: 1.0e+15}\n", "at most 31536000 s (a year)"),
        # 10^7 x 10^7 drives asked for 4.8 PB and aborted; 10^7 ran for minutes.
        (
            "archive",
            "platform: {movers: 10000000, drives_per_mover: 10000000}\n",
            "platform.drives_per_mover",
        ),
        ("archive", "platform: {drives_per_mover: 10000000}\n", "at most 10000"),
        # A wind of 1e308 s made a locate infinite: the calendar panicked.
        (
            "recall",
            "library: {read_model: {kind: positional, wind_s: 1.0e+308}}\n",
            "library.read_model.wind_s",
        ),
        ("recall", "library: {rewind_s: 1.0e+300}\n", "rewind_s"),
    ],
)
def test_configs_that_would_exhaust_memory_or_hang_are_refused(cli, tmp_path, command, text, field):
    r = _simulate(cli, tmp_path, command, text)
    assert r.exit_code == 2 and field in r.output, r.output


def test_an_overloaded_media_round_reports_instead_of_crashing(cli, tmp_path):
    """More C-requests than a round serves leave no D-request served: the
    run still ends with its (null) metrics, not a traceback."""
    path = tmp_path / "c.yaml"
    path.write_text("c_requests: 60\nlambdas: [10]\nruns: 1\nrounds: 50\nalgorithms: [sptf]\n")
    r = cli("simulate", "media", path, "--out", tmp_path / "out")
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("command", ["recall", "archive", "media"])
@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("seed: 2024-01-01\n", "seed: datetime.date(2024, 1, 1) is a YAML date"),
        ("seed: !!binary AAAA\n", "seed: b'\\x00\\x00\\x00' is a YAML bytes"),
        ("seed: !!set {a}\n", "seed: {'a'} is a YAML set"),
        ("2024-01-01: 5\n", "2024-01-01: datetime.date(2024, 1, 1) is a YAML date"),
    ],
)
def test_yaml_values_json_cannot_hold_are_named(cli, tmp_path, command, text, needle):
    """A date, set or binary value (or key) failed in json.dumps on the way
    to the core: a TypeError traceback."""
    r = _simulate(cli, tmp_path, command, text)
    assert r.exit_code == 2, r.output
    assert needle in r.output and "Traceback" not in r.output


def test_a_config_past_a_mebibyte_is_refused_before_parsing(tmp_path):
    """PyYAML took a minute and 1.6 GB on a 10 MB list; the 64 MB any text
    input may have would have taken minutes and ~10 GB."""
    path = tmp_path / "big.yaml"
    path.write_text("x:\n" + "- 1\n" * (MAX_CONFIG_CHARS // 4 + 1))
    with pytest.raises(SeekplanError, match="larger than 1,048,576 characters; not a config"):
        load_yaml(path)


def test_a_device_file_past_a_mebibyte_is_refused_before_parsing(cli, tmp_path):
    path = tmp_path / "devices.toml"
    path.write_text("# " + "x" * (1 << 20) + "\n")
    r = cli("drives", "--devices", path)
    assert r.exit_code == 2 and "larger than 1,048,576 characters; not a device file" in r.output


def test_a_device_file_that_is_a_directory_is_not_said_missing(cli, tmp_path):
    r = cli("drives", "--devices", tmp_path)
    assert r.exit_code == 2 and f"device file {tmp_path} is not a regular file" in r.output


def test_numbers_with_an_exponent_and_no_dot_are_floats(tmp_path):
    """YAML 1.1 (PyYAML) reads `1e9` as text; configs read it as JSON does."""
    path = tmp_path / "c.yaml"
    path.write_text("a: 1e9\nb: -2E-3\nc: 1.5e+3\nd: 10\ne: 1e\nf: '1e9'\n")
    assert load_yaml(path) == {"a": 1e9, "b": -2e-3, "c": 1500.0, "d": 10, "e": "1e", "f": "1e9"}


def test_a_duration_written_with_an_exponent_runs(cli, tmp_path):
    """`duration_h: 1e-2` used to fail with "expected f64"."""
    path = tmp_path / "recall.yaml"
    path.write_text("duration_h: 1e-2\nworkload: {kind: kit, scale: 0.001}\n")
    r = cli("simulate", "recall", str(path), "--out", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("command", ["recall", "archive", "media"])
@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("seed: 1\nseed: 2\n", 2),
        ("workload:\n  a: 1\n  b: 2\n  a: 3\n", 4),
        ("x: {a: 1, a: 2}\n", 1),
    ],
)
def test_a_key_given_twice_is_refused_naming_its_line(cli, tmp_path, command, text, line):
    """PyYAML kept the last of two equal keys and dropped the first without
    a word: `drives: 2` then `drives: 9999` ran with 9999 drives."""
    r = _simulate(cli, tmp_path, command, text)
    assert r.exit_code == 2, r.output
    assert "appears twice" in r.output and f"line {line}," in r.output, r.output


def test_keys_merged_in_may_still_be_overridden(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("base: &b {drives: 4, x: 1}\nlibrary: {<<: *b, drives: 5}\nagain: *b\n")
    assert load_yaml(path)["library"] == {"drives": 5, "x": 1}


LIST = "expected a mapping of settings, got a list"
NON_FINITE = "not a finite number (NaN or infinity)"


@pytest.mark.parametrize(
    ("command", "text", "needle"),
    [
        # serde read a struct from a list by field order: `library: [3]` ran
        # with 3 drives, `disk: [1]` as one cylinder, `scheduler: []` as
        # defaults.
        ("recall", "library: [3]\n", f"invalid library: {LIST}"),
        ("recall", "library: {robot: [2]}\n", f"invalid library.robot: {LIST}"),
        ("archive", "scheduler: []\n", f"invalid scheduler: {LIST}"),
        ("media", "disk: [1]\n", f"invalid disk: {LIST}"),
        # JSON cannot carry a NaN or an infinity to the core, whose parser
        # said only "expected value".
        ("recall", "duration_h: .nan\n", f"duration_h: {NON_FINITE}"),
        ("recall", "library: {rate_mb_s: .inf}\n", f"library.rate_mb_s: {NON_FINITE}"),
        ("archive", "workload: {rate_per_hour: -.inf}\n", f"workload.rate_per_hour: {NON_FINITE}"),
        ("media", "lambdas: [1, .nan]\n", f"lambdas.1: {NON_FINITE}"),
    ],
)
def test_a_value_the_core_would_misread_is_named(cli, tmp_path, command, text, needle):
    r = _simulate(cli, tmp_path, command, text)
    assert r.exit_code == 2, r.output
    assert needle in r.output, r.output


@pytest.mark.parametrize(
    ("text", "read_as"),
    [("duration_h: 1:30\n", "90"), ("drives: 012\n", "10"), ("x: [1, -0_10]\n", "-8")],
)
def test_numbers_only_yaml_1_1_reads_are_refused(tmp_path, text, read_as):
    """PyYAML (YAML 1.1) read `duration_h: 1:30` as 90 hours (base 60) and
    `012` as 10 (octal), without a word; JSON and YAML 1.2 read neither so."""
    path = tmp_path / "c.yaml"
    path.write_text(text)
    with pytest.raises(SeekplanError, match=f"which reads it as {read_as} "):
        load_yaml(path)


def test_numbers_every_yaml_reads_alike_still_load(tmp_path):
    path = tmp_path / "c.yaml"
    path.write_text("a: 007\nb: 00\nc: 0x10\nd: 1_000\ne: '1:30'\nf: -0\ng: 10.5\n")
    assert load_yaml(path) == {"a": 7, "b": 0, "c": 16, "d": 1000, "e": "1:30", "f": 0, "g": 10.5}


def test_a_drive_whose_seeks_sum_to_infinity_is_refused(cli, tmp_path):
    """A seek startup of 1e308 s made two seeks infinite, and the default
    ordering's local search improved the tour by an infinite gain forever."""
    devices = tmp_path / "d.toml"
    devices.write_text(
        "[drives.x]\ntitle = 'X'\nmodel = 'helical'\n[drives.x.params]\n"
        "capacity_bytes = 9223372036854775807\nblock_bytes = 1\nrate_bps = 14_200_000\n"
        "seek = { startup_s = 1e308, full_s = 1e308 }\n"
        "rewind = { startup_s = 9.6, full_s = 24.1 }\n"
    )
    batch = tmp_path / "r.csv"
    batch.write_text("id,block,size\n" + "".join(f"f{i},{i * 1000},10\n" for i in range(20)))
    r = cli("order", batch, "--drive", "x", "--devices", devices)
    assert r.exit_code == 2 and "seek" in r.output and "1e9" in r.output, r.output


def test_a_yaml_syntax_error_names_file_line_and_column(tmp_path):
    from seekplan.recall import load_config

    path = tmp_path / "bad.yaml"
    path.write_text("library:\n  drives: 4\n strategy: x\n")
    with pytest.raises(SeekplanError) as e:
        load_config(path)
    msg = str(e.value)
    assert msg.startswith(f"{path} line 3, column") and "not valid YAML" in msg
    assert "\n" not in msg and "<unicode string>" not in msg
