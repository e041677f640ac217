"""The catalog holds every J&M drive and robot with the paper's figures,
mechanics-only drives work, and a user's file adds drives and robots."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seekplan.catalog import load_catalog, load_robots, make_drive, measured_drive
from seekplan.drive_summary import table5
from seekplan.errors import SeekplanError

NAMES = [
    "4mm-dat", "ampex-dst310", "sony-dtf", "dlt4000", "dlt7000", "ibm3590",
    "mlr1", "dlt2000", "t10000d", "ts1160",
]  # fmt: skip


def test_every_named_drive_and_robot_is_catalogued():
    catalog = load_catalog()
    for name in NAMES:
        assert catalog[name].mechanics is not None, name
    assert {"grau-abba2", "stk-9710", "ampex-810", "sony-dms-b9"} <= set(load_robots())


def test_table4_figures_are_the_papers():
    c = load_catalog()
    m = c["sony-dtf"].mechanics
    assert (m.load_s, m.unload_s, m.seek_startup_s, m.seek_full_s) == (51, 18, 10, 144)
    t = c["t10000d"].mechanics
    assert (t.rate_bps, t.load_s, t.unload_s, t.rewind_s) == (252e6, 13, 23, 97)
    r = load_robots()["sony-dms-b9"]
    assert (r.fetch.mean_s, r.fetch.sd_s, r.ret.mean_s, r.ret.sd_s) == (12.8, 2.1, 17.2, 1.9)


def test_every_number_in_the_data_file_has_a_source():
    text = (Path(__file__).parent.parent / "python/seekplan/data/devices.toml").read_text()
    for n, line in enumerate(text.splitlines(), 1):
        code = line.split("#")[0]
        value = code.split("=", 1)[1].strip() if "=" in code else ""
        if value and not value.startswith('"') and any(ch.isdigit() for ch in value):
            assert "#" in line, f"line {n} has a number without a source: {line}"


def test_models_build_and_helical_seek_is_table4_line():
    d = measured_drive("sony-dtf")
    assert d.locate(0, d.capacity // 2) == pytest.approx(10 + 72, abs=0.01)
    fast = make_drive("sony-dtf")  # reads through short seeks
    assert fast.locate(100, 101) < d.locate(100, 101)


def test_mechanics_only_drive_cannot_order_but_has_table5():
    with pytest.raises(SeekplanError, match="mechanics only"):
        make_drive("ts1160")
    row = table5(load_catalog(), load_robots())["ts1160"]
    assert row["overhead_s"] == pytest.approx(10 + 13 + 97)


def test_user_file_adds_drives_and_robots(tmp_path: Path, cli):
    f = tmp_path / "mine.toml"
    f.write_text(
        """
[drives.lto7]
title = "test LTO-7"
[drives.lto7.mechanics]
capacity_bytes = 6_000_000_000_000
rate_bps = 300_000_000
load_s = 15.0
unload_s = 20.0
rewind_s = 60.0
avg_locate_s = 50.0
[robots.arm]
title = "test arm"
fetch = { mean_s = 5.0, sd_s = 0.5 }
ret = { mean_s = 6.0, sd_s = 0.5 }
"""
    )
    assert "lto7" in table5(load_catalog(f), load_robots(f))
    assert "arm" in load_robots(f)
    r = cli("drives", "--devices", f)
    assert r.exit_code == 0 and "lto7" in r.output and "arm" in r.output
    r = cli("drives", "lto7", "--json", "--devices", f)
    assert json.loads(r.output)["mechanics"]["load_s"] == 15.0


def test_bad_catalog_entries_name_the_field(tmp_path: Path, cli):
    f = tmp_path / "bad.toml"
    f.write_text('[drives.x]\ntitle = "x"\nmodel = "helical"\n[drives.x.params]\nrate_bps = 1\n')
    r = cli("drives", "--devices", f)
    assert r.exit_code == 2 and "drive 'x'" in r.output
    f.write_text('[drives.y]\ntitle = "y"\n')
    r = cli("drives", "--devices", f)
    assert r.exit_code == 2 and "mechanics" in r.output
    f.write_text('[robots.z]\ntitle = "z"\nfetch = { mean_s = -1, sd_s = 0 }\n')
    r = cli("drives", "--devices", f)
    assert r.exit_code == 2 and "robot 'z'" in r.output


def test_ts1170_is_catalogued_with_its_published_capacity_and_rate(cli):
    r = cli("drives", "ts1170", "--json")
    assert r.exit_code == 0, r.output
    assert '"capacity_bytes": 50000000000000' in r.output and '"rate_bps": 400000000' in r.output


#: Today's libraries (issue 19): name -> words its source line must name.
LIBRARIES = {
    "sl8500": "SL8500 User's Guide",
    "ts4500": "TS4500",
    "tfinity": "TFinity Library User Guide",
    "scalar-i6000": "Scalar i6000",
}


def test_todays_libraries_are_catalogued_with_sources(cli, monkeypatch):
    from seekplan import cli as cli_module

    monkeypatch.setattr(cli_module.console, "width", 400)  # one line per robot
    robots = load_robots()
    text = (Path(__file__).parent.parent / "python/seekplan/data/devices.toml").read_text()
    for name, words in LIBRARIES.items():
        r = robots[name]
        assert r.arms is not None and r.arms >= 1, name
        assert r.source is not None and words in r.source, name
        # each figure's line names a reference tag or says it is an estimate or a choice
        table = text.split(f"[robots.{name}]")[1].split("\n\n")[0]
        for line in table.splitlines():
            if line.startswith(("arms", "slots", "max_drives", "fetch", "ret")):
                assert "# [" in line, f"{name}: {line}"
    assert robots["tfinity"].arms == 2 and robots["scalar-i6000"].slots == 7_224
    for name, words in LIBRARIES.items():
        r = cli("drives", name)
        assert r.exit_code == 0, r.output
        assert words in " ".join(r.output.split()), name
    assert "estimated" in cli("drives", "tfinity").output


def test_drive_listing_fits_80_columns_and_marks_unpublished_figures(cli, monkeypatch):
    from seekplan import cli as cli_module

    monkeypatch.setattr(cli_module.console, "width", 80)
    r = cli("drives")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert max(len(line) for line in lines) <= 80
    rows = {line.split()[0]: line for line in lines if line.strip()}
    # One line per drive and robot; a figure the data file tags [est],
    # [choice] or [cal] carries the mark, a published one does not.
    assert len(lines) < len(load_catalog()) + len(load_robots()) + 15
    assert "45.0~" not in rows["lto9"] and "17~" not in rows["lto9"]  # [issue] figures
    assert "40~" in rows["mlr1"]  # load_s: [choice]
    assert "15~" in rows["tfinity"]  # fetch: [est]


def test_one_drive_shows_each_figure_with_its_source(cli, monkeypatch):
    from seekplan import cli as cli_module

    monkeypatch.setattr(cli_module.console, "width", 200)
    r = cli("drives", "lto9")
    assert r.exit_code == 0, r.output
    assert "locate model: lto" in r.output
    assert "[LTO] native capacity" in r.output and "18,000,000,000,000" in r.output
    assert "[est]" in r.output  # rich markup would have eaten the tag
    r = cli("drives", "t10000d")
    assert "locate model: none" in r.output and "null" not in r.output
    r = cli("drives", "no-such-drive")
    assert r.exit_code == 2 and "unknown drive or robot 'no-such-drive'" in r.output
