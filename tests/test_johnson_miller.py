"""`seekplan reproduce johnson-miller` (quick): results.json has Table 5 for
every catalogued drive with figures, including user-added ones, and claims."""

from __future__ import annotations

import json
from pathlib import Path

from seekplan.experiments.johnson_miller import PAPER_TABLE5

MODERN = ["lto7", "lto8", "lto9", "ts1160", "t10000d"]


def test_quick_reproduction_structure(tmp_path: Path, cli, monkeypatch):
    extra = tmp_path / "extra.toml"
    extra.write_text(
        '[drives.lto9]\ntitle = "test"\n[drives.lto9.mechanics]\n'
        "capacity_bytes = 18_000_000_000_000\nrate_bps = 400_000_000\n"
        "load_s = 17.0\nunload_s = 30.0\nrewind_s = 55.0\navg_locate_s = 45.0\n"
    )
    monkeypatch.setenv("SEEKPLAN_DEVICES", str(extra))
    r = cli("reproduce", "johnson-miller", "--out", tmp_path / "out", "--quick")
    assert r.exit_code == 0, r.output
    res = json.loads((tmp_path / "out" / "results.json").read_text())
    t5 = res["table5"]
    for name in [*PAPER_TABLE5, "mlr1", "dlt2000", "ts1160", "t10000d", "lto9"]:
        assert set(t5[name]) == {"overhead_s", "min_file_mb", "pct_of_tape"}, name
    assert t5["lto9"]["overhead_s"] == 10 + 17 + 45
    assert t5["ampex-dst310"]["overhead_s"] == 2.9 + 10.1 + 9.6 + 13.1
    ids = {c["id"] for c in res["claims"]}
    assert {"table5-overhead_s", "fit-recovers-table3", "short-seek-crossover"} <= ids
    assert all(isinstance(c["holds"], bool) and c["evidence"] for c in res["claims"])
    assert res["read_delay_mb_s"]["dlt4000"]["0 ms"] == res["read_delay_mb_s"]["dlt4000"]["10 ms"]
    assert res["read_delay_mb_s"]["dlt4000"]["100 ms"] < res["read_delay_mb_s"]["dlt4000"]["10 ms"]
    for png in ("seek_from_bot.png", "short_seek_crossover.png"):
        assert (tmp_path / "out" / png).stat().st_size > 0


def test_short_seeks_are_measured_from_mid_track():
    """§5.4.3 runs from the middle of the tape: on a serpentine drive the middle
    of the middle track; the DLT crossovers sit on their regime's transition
    (by construction), the IBM 3590's comes from its region-1 line."""
    from seekplan.catalog import load_catalog
    from seekplan.experiments.johnson_miller import _table4

    t4 = _table4(load_catalog())
    dlt = t4["dlt7000"]
    blocks_per_track = 35_000_000_000 // 32_768 / 64
    assert dlt["start_block"] == int(32.5 * blocks_per_track)
    assert abs(dlt["crossover_mb"] - 150) < 0.1 and dlt["by_construction"]
    # the seek stops winning where the destination leaves the start's track
    assert abs(dlt["seek_wins_to_mb"] - 35_000 / 64 / 2) < 1
    assert t4["dlt4000"]["by_construction"]
    assert not t4["ibm3590"]["by_construction"] and 90 < t4["ibm3590"]["crossover_mb"] < 100
    assert not t4["4mm-dat"]["by_construction"]
