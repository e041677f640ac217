"""The mount replay from Python and the CLI (issue 37): every trace format
reads to the same requests, bad rows name file, line and field, the sweep
keeps Belady's untimed floor below every policy, the report says what it
shows, and the library names resolve to the catalog's geometry."""

from __future__ import annotations

import bz2
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from seekplan import mounts
from seekplan.cli import app
from seekplan.errors import SeekplanError
from seekplan.sweep import Executor

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()


def _ecmwf_lines(trace: mounts.MountTrace, start: str = "20260105") -> str:
    from datetime import UTC, datetime

    t0 = datetime.strptime(start, "%Y%m%d").replace(tzinfo=UTC).timestamp()
    return "".join(
        f"{trace.names[c]};{datetime.fromtimestamp(t0 + float(t), UTC):%Y%m%dT%H%M%S};"
        f"{max(1, round(float(b)))}\n"
        for t, c, b in zip(trace.time_s, trace.cartridge, trace.busy_s, strict=True)
    )


def test_the_example_csv_and_ecmwf_files_hold_the_same_requests(tmp_path: Path) -> None:
    csv_trace = mounts.load_trace(EXAMPLES / "mounts-trace.csv")
    ecmwf = mounts.load_trace(EXAMPLES / "mounts-ecmwf.txt")
    assert len(csv_trace) == 3_000 and len(ecmwf) == 500
    first = [csv_trace.names[c] for c in csv_trace.cartridge[:500]]
    assert [ecmwf.names[c] for c in ecmwf.cartridge] == first
    # Whole seconds in the ECMWF format: the times agree to within a second.
    assert np.all(np.abs(ecmwf.time_s - csv_trace.time_s[:500]) <= 1.0)
    # bz2-compressed, with Mäsker's closing sentinel: the same requests.
    text = (EXAMPLES / "mounts-ecmwf.txt").read_text() + "Bye;20260106T000000;0"
    packed = tmp_path / "io_events.csv.bz2"
    packed.write_bytes(bz2.compress(text.encode()))
    again = mounts.load_trace(packed)
    assert np.array_equal(again.time_s, ecmwf.time_s)
    assert again.names == ecmwf.names


def test_a_recall_trace_becomes_one_request_per_file() -> None:
    t = mounts.load_trace(EXAMPLES / "trace.csv")
    assert len(t) == 400 and len(t.names) == 20
    # Each file is busy for at least the drive's mean locate.
    assert float(t.busy_s.min()) > 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("time,cartridge,busy_s\n0,A,1\n5,,2\n", "line 3: column 'cartridge' is empty"),
        ("time,cartridge,busy_s\n0,A,1\n5,B,-2\n", "line 3: column 'busy_s'"),
        ("time,cartridge,busy_s\nx,A,1\n", "line 2: column 'time'"),
        ("time,cart,busy_s\n0,A,1\n", "line 1: missing column(s) cartridge"),
        ("time,cartridge,busy_s\n", "no requests"),
        ("", "the file is empty"),
        ("A;20260105T000000;5\nB;20261305T000000;5\n", "line 2: field 2 (time)"),
        ("A;20260105T000000;5\nB;20260105T000001\n", "line 2: expected cartridge;"),
        ("A;20260105T000000;5\nB;20260105T000001;nan\n", "line 2: column 'seconds'"),
        # Absurd figures are refused, not simulated.
        ("time,cartridge,busy_s\n0,A,1\n1,A,1e308\n", "line 3: column 'busy_s': 1e+308 s is more"),
        ("A;20260105T000000;5\nB;20260105T000001;99999999999\n", "line 2: column 'seconds'"),
        ("time,cartridge,busy_s\n1e300,A,1\n0,B,1\n", "span"),
    ],
)
def test_bad_rows_name_the_file_line_and_field(tmp_path: Path, text: str, expected: str) -> None:
    p = tmp_path / "log.csv"
    p.write_text(text)
    with pytest.raises(SeekplanError, match=str(p)) as e:
        mounts.load_trace(p)
    assert expected in str(e.value)
    result = runner.invoke(
        app, ["simulate", "mounts", "--trace", str(p), "--out", str(tmp_path / "out")]
    )
    assert result.exit_code == 2, result.output
    assert expected in " ".join(result.output.split())


def test_rows_out_of_order_are_sorted_and_counted(tmp_path: Path) -> None:
    p = tmp_path / "log.csv"
    p.write_text("time,cartridge,busy_s\n10,A,1\n0,B,1\n20,A,1\n")
    t = mounts.load_trace(p)
    assert t.names == ["B", "A"] and t.resorted == 2
    assert list(t.time_s) == [0.0, 10.0, 20.0]


def test_the_synthetic_trace_is_seeded_and_as_asked() -> None:
    a = mounts.synthetic_trace(5_000, 800, 3.0, seed=4)
    b = mounts.synthetic_trace(5_000, 800, 3.0, seed=4)
    assert len(a) == 5_000 and a.span_s <= 3 * 86_400 * 1.01
    assert np.array_equal(a.time_s, b.time_s) and a.names == b.names
    assert not np.array_equal(a.time_s, mounts.synthetic_trace(5_000, 800, 3.0, seed=5).time_s)
    # Zipf: the most requested cartridge is asked for far more than the median one.
    counts = np.bincount(a.cartridge)
    assert counts.max() > 10 * np.median(counts)


def test_the_floor_is_below_every_policy_in_the_untimed_model() -> None:
    t = mounts.synthetic_trace(4_000, 500, 2.0, seed=2)
    for drives in (1, 4, 16):
        floor = mounts.untimed_loads(t, drives)
        for policy in mounts.POLICIES:
            assert mounts.untimed_loads(t, drives, policy) >= floor


def test_a_sweep_reports_every_point_and_names_the_best(tmp_path: Path) -> None:
    out = tmp_path / "out"
    result = runner.invoke(
        app,
        [
            "simulate",
            "mounts",
            "--trace",
            str(EXAMPLES / "mounts-trace.csv"),
            "--library",
            "sl8500-redundant",
            "--drives",
            "8",
            "--sweep",
            "dismount_delay=0,300,3600",
            "--policy",
            "lru,arc,belady",
            "--workers",
            "1",
            "--out",
            str(out),
        ],
    )
    assert result.exit_code == 0, result.output
    study = json.loads((out / "results.json").read_text())
    runs = study["runs"]
    assert [(r["policy"], r["dismount_delay_s"]) for r in runs] == [
        (p, d) for p in ("lru", "arc", "belady") for d in (0.0, 300.0, 3600.0)
    ]
    # Two handbots a rail: some moves wait for the other handbot.
    assert any(r["handbot_waits"] > 0 for r in runs)
    # Keeping cartridges longer loads less on this trace (it re-references).
    lru = [r["loads"] for r in runs if r["policy"] == "lru"]
    assert lru[0] > lru[2]
    html = (out / "report.html").read_text()
    assert "the best online setting is" in html and "untimed floor" in html
    for png in ("loads", "latency", "latency_cdf"):
        assert (out / f"{png}.png").stat().st_size > 10_000


def test_the_api_shape_matches_recall_and_archive(tmp_path: Path) -> None:
    cfg = mounts.load_config(EXAMPLES / "mounts.yaml")
    assert cfg.data["library"]["kind"] == "geometry" and cfg.data["library"]["modules"] == 2
    assert cfg.data["load_s"] == 13.0  # the T10000D's, from the catalog
    t = mounts.load_trace(EXAMPLES / "mounts-trace.csv")
    m = mounts.simulate(cfg, t)
    assert m["requests"] == len(t) and m["loads"] == m["unloads"]
    assert m == mounts.simulate(cfg, t)
    with pytest.raises(SeekplanError):
        mounts.simulate(None, t)  # type: ignore[arg-type]
    study = mounts.sweep(cfg, t, ["lru"], [0.0], Executor(1), quiet=True)
    assert study["runs"][0]["loads"] >= study["floor_loads"]


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"drives": 0}, "drives"),
        ({"library": "sl8500", "drives": 65}, "drives"),
        ({"library": "nope"}, "unknown library"),
        ({"library": "sl8500x99"}, "1 to 32"),
        ({"library": "stk-9710x2"}, "no geometry"),
        ({"dismount": {"kind": "fixed", "delay_s": -5}}, "dismount.delay_s"),
        ({"placement": "nearest-free"}, "placement"),
        ({"eviction": "mru"}, "eviction"),
        ({"library": {"kind": "geometry", "modules": 1}}, "library"),
        # A library whose free-slot sets would fill memory.
        (
            {
                "library": {
                    **mounts.parse_config({"library": "sl8500x32"}).data["library"],
                    "slots_per_rail": 1_000_000,
                }
            },
            "library.slots_per_rail",
        ),
    ],
)
def test_bad_configs_name_the_field(data: dict[str, object], field: str) -> None:
    with pytest.raises(SeekplanError, match=field):
        mounts.parse_config(data, "cfg.yaml")


def test_a_library_too_small_for_the_trace_says_so() -> None:
    # One SL8500 holds 10,088 cartridges; a trace naming one more cannot be homed.
    n = 10_089
    t = mounts.from_columns(np.arange(n, dtype=float), [f"c{i}" for i in range(n)], np.ones(n))
    cfg = mounts.parse_config({"library": "sl8500", "drives": 4})
    with pytest.raises(SeekplanError, match="10089 cartridges but the library has 10088 slots"):
        mounts.simulate(cfg, t)
    assert (
        mounts.simulate(
            cfg.with_changes(library=mounts.parse_config({"library": "sl8500x2"}).data["library"]),
            t,
        )["requests"]
        == n
    )


def test_parquet_and_gzip_traces_read_as_the_csv_does(tmp_path: Path) -> None:
    import gzip

    import pyarrow as pa
    import pyarrow.parquet as pq

    csv_path = EXAMPLES / "mounts-trace.csv"
    expected = mounts.load_trace(csv_path)
    table = pa.table(
        {
            "time": expected.time_s,
            "cartridge": [expected.names[c] for c in expected.cartridge],
            "busy_s": expected.busy_s,
            "drive": ["d0"] * len(expected),
        }
    )
    pq.write_table(table, tmp_path / "log.parquet")
    packed = tmp_path / "log.csv.gz"
    packed.write_bytes(gzip.compress(csv_path.read_bytes()))
    for path in (tmp_path / "log.parquet", packed):
        t = mounts.load_trace(path)
        assert np.array_equal(t.time_s, expected.time_s), path
        assert t.names == expected.names and np.array_equal(t.busy_s, expected.busy_s)
    bad = pa.table({"time": [0.0], "cartridge": ["A"], "busy_s": [-1.0]})
    pq.write_table(bad, tmp_path / "bad.parquet")
    with pytest.raises(SeekplanError, match=r"bad.parquet row 1: column 'busy_s'"):
        mounts.load_trace(tmp_path / "bad.parquet")


def test_the_columnar_reader_gives_what_the_line_reader_gives(tmp_path: Path) -> None:
    from seekplan.io import csv_rows, dict_reader
    from seekplan.mounts import columnar
    from seekplan.mounts.trace import _from_ecmwf, _from_rows

    ecmwf_path = EXAMPLES / "mounts-ecmwf.txt"
    lines = iter(ecmwf_path.read_text().splitlines(keepends=True))
    slow = _from_ecmwf(ecmwf_path, next(lines), lines)
    fast = columnar.read_ecmwf_columns(ecmwf_path)
    csv_path = tmp_path / "bom;.csv"
    # A byte-order mark, semicolons and an extra column.
    csv_path.write_text(
        "\ufefftime;cartridge;busy_s;drive\n"
        + (EXAMPLES / "mounts-trace.csv")
        .read_text()
        .split("\n", 1)[1]
        .replace(",", ";")
        .replace("\n", ";d1\n")
    )
    text = csv_path.read_text(encoding="utf-8-sig").splitlines(keepends=True)
    slow_csv = _from_rows(csv_path, csv_rows(dict_reader(text), str(csv_path)))
    fast_csv = columnar.read_csv_columns(csv_path, text[0])
    for a, b in ((slow, fast), (slow_csv, fast_csv)):
        assert b is not None
        assert np.array_equal(a.time_s, b.time_s) and np.array_equal(a.busy_s, b.busy_s)
        assert np.array_equal(a.cartridge, b.cartridge) and a.names == b.names
    # A bad value leaves the file to the line reader, which names the line.
    bad = tmp_path / "bad.txt"
    bad.write_text("A;20260105T000000;5\nB;20260105T000001;-1\n")
    assert columnar.read_ecmwf_columns(bad) is None
    with pytest.raises(SeekplanError, match="bad.txt line 2: column 'seconds'"):
        mounts.load_trace(bad)


def test_a_log_with_bytes_but_no_busy_seconds_is_timed_by_the_drive(tmp_path: Path) -> None:
    from seekplan.hardware import drive_figures

    p = tmp_path / "mounts.csv"
    p.write_text("time,cartridge,bytes,drive\n0,A,0,d1\n60,B,2400000000,d2\n")
    d = drive_figures("t10000d", "drive", "test")
    t = mounts.load_trace(p)
    locate = d["mean_locate_s"]
    assert list(t.busy_s) == [locate, locate + 2.4e9 / d["rate_bps"]]
    # Parquet the same.
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(
        pa.table({"time": [0.0, 60.0], "cartridge": ["A", "B"], "bytes": [0, 2_400_000_000]}),
        tmp_path / "mounts.parquet",
    )
    assert np.array_equal(mounts.load_trace(tmp_path / "mounts.parquet").busy_s, t.busy_s)
    neither = tmp_path / "neither.csv"
    neither.write_text("time,cartridge\n0,A\n")
    with pytest.raises(SeekplanError, match="missing column 'busy_s'.*or bytes|busy_s.*bytes"):
        mounts.load_trace(neither)


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ([], "give --trace FILE or --synthetic REQUESTS"),
        (["--synthetic", "10", "--trace", "x.csv"], "give --trace FILE or --synthetic REQUESTS"),
        (["--synthetic", "10", "--dismount", "soon"], "--dismount: 'soon' is not"),
        (["--synthetic", "10", "--sweep", "delay=1"], "--sweep: 'delay=1'"),
        (["--synthetic", "10", "--sweep", "dismount_delay=a,b"], "not a list of seconds"),
        (["--synthetic", "10", "--sweep", "dismount_delay=-5"], "dismount.delay_s"),
        (["--synthetic", "10", "--policy", "mru"], "unknown 'mru'"),
        (["--synthetic", "10", "--placement", "nearest-free"], "placement"),
    ],
)
def test_bad_options_exit_2_naming_the_option(
    tmp_path: Path, args: list[str], expected: str
) -> None:
    result = runner.invoke(app, ["simulate", "mounts", *args, "--out", str(tmp_path / "o")])
    assert result.exit_code == 2, result.output
    assert expected in " ".join(result.output.split())


def test_unreadable_traces_and_bad_columns_are_clear_errors(tmp_path: Path) -> None:
    from seekplan import _core

    with pytest.raises(SeekplanError, match="cannot read trace"):
        mounts.load_trace(tmp_path)  # a directory
    # The binding refuses a cartridge beyond the count it is given.
    with pytest.raises(ValueError, match="cartridge 5 outside 0..2"):
        _core.mounts_untimed_loads(np.array([5], dtype=np.uint32), 2, 1, "lru", 1)
