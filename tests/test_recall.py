"""Recall campaigns: workload generator and loader, config errors, the CLI
and the dcache reproduction's results structure."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from seekplan import _core
from seekplan.errors import SeekplanError
from seekplan.recall import generate_kit, load_campaign, simulate
from seekplan.recall.config import parse_config
from seekplan.sweep import Executor

RUN_KEYS = {
    f"q{q}/{s}"
    for q in (2000, 30000)
    for s in ("random", "by-dataset", "by-2-tapes", "by-12-tapes")
} | {"q30000/dcache"}
METRICS = (
    "throughput_mb_s",
    "staging_min",
    "mounts",
    "distinct_mounts",
    "pct_recalled_per_mount",
    "mount_min",
)


def test_kit_generator_has_section_4_1_shape():
    c = generate_kit(seed=3, scale=0.2)
    s = c.summary()
    assert s["tapes"] == 66 and s["datasets"] == 7
    assert 1300 <= s["files_per_tape_mean"] <= 1700
    assert abs(s["volume_pb"] - 1.1 * 66 / 332) < 0.01
    assert s["tapes_under_60pct"] >= 0.75
    assert 1 <= s["parts_per_tape_median"] <= 3 and s["parts_per_tape_max"] <= 6
    # Every file lies within its tape's used space.
    ends = c.block * 262_144 + c.size
    assert np.all(ends <= c.used[c.tape])


def test_kit_generator_is_seeded():
    a, b, d = generate_kit(5, 0.05), generate_kit(5, 0.05), generate_kit(6, 0.05)
    assert np.array_equal(a.block, b.block) and np.array_equal(a.tape, b.tape)
    assert not np.array_equal(a.size, d.size)


def _write_campaign(tmp: Path, block: int = 10, tape: str = "T1") -> tuple[Path, Path]:
    tapes = tmp / "tapes.csv"
    tapes.write_text("tape,capacity,used\nT1,10000000000,9000000000\nT2,10000000000,100\n")
    files = tmp / "files.csv"
    rows = [f"f{i},ds{i % 2},T{1 + i % 2},{block + 40 * i},{10**7}" for i in range(1, 20)]
    rows.append(f"f0,ds0,{tape},{block},1000000")
    files.write_text("file,dataset,tape,block,size\n" + "\n".join(rows) + "\n")
    return files, tapes


def test_campaign_loader_and_errors(tmp_path):
    files, tapes = _write_campaign(tmp_path)
    c = load_campaign(files, tapes)
    assert c.files == 20 and list(c.tape_names) == ["T1", "T2"]
    assert c.dataset.max() == 1
    files, tapes = _write_campaign(tmp_path, tape="T9")
    with pytest.raises(SeekplanError, match=r"line 21: column 'tape': unknown tape 'T9'"):
        load_campaign(files, tapes)
    bad = tmp_path / "bad.csv"
    bad.write_text("file,dataset,tape,block,size\nf,d,T1,x,5\n")
    with pytest.raises(SeekplanError, match=r"line 2: column 'block'"):
        load_campaign(bad, tapes)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        # Past u64: an OverflowError traceback building the columns.
        (
            "f,d,T1,18446744073709551616,10\n",
            "line 2: column 'block': 18446744073709551616 is larger",
        ),
        (
            "f,d,T1,0,99999999999999999999\n",
            "line 2: column 'size': 99999999999999999999 is larger",
        ),
        # A file listed twice was read twice, unsaid.
        (
            "f,d,T1,0,10\ng,d,T1,5,10\nf,d,T1,9,10\n",
            r"line 4: column 'file': 'f' twice \(first: .*line 2\)",
        ),
        (" ,d,T1,0,10\n", "line 2: column 'file': empty"),
        # A row's extra field was dropped and a missing one read as "None".
        ("f,d,T1,0,10,7\n", "line 2: wrong number of fields"),
        ("f,d,T1,0\n", "line 2: wrong number of fields"),
    ],
)
def test_campaign_rows_out_of_range_or_misshapen_name_their_line(tmp_path, text, needle):
    _, tapes = _write_campaign(tmp_path)
    files = tmp_path / "bad.csv"
    files.write_text("file,dataset,tape,block,size\n" + text)
    with pytest.raises(SeekplanError, match=needle):
        load_campaign(files, tapes)


def test_tapeinfo_is_0_or_1(tmp_path):
    """A tapeinfo of 2 was taken as 1."""
    _, tapes = _write_campaign(tmp_path)
    files = tmp_path / "info.csv"
    files.write_text("file,dataset,tape,block,size,tapeinfo\nf,d,T1,0,10,0\ng,d,T1,5,10,1\n")
    assert list(load_campaign(files, tapes).tapeinfo) == [False, True]
    files.write_text("file,dataset,tape,block,size,tapeinfo\nf,d,T1,0,10,2\n")
    with pytest.raises(SeekplanError, match="line 2: column 'tapeinfo': 2 is not 0 or 1"):
        load_campaign(files, tapes)


def test_campaign_headers_with_a_bom_or_a_twin_column(tmp_path):
    """A byte-order mark made 'tape' unknown ("missing column(s) tape"); a
    column given twice silently kept the last."""
    files, tapes = _write_campaign(tmp_path)
    tapes.write_bytes(b"\xef\xbb\xbf" + tapes.read_bytes().replace(b"\n", b"\r\n"))
    assert load_campaign(files, tapes).files == 20
    files.write_text("file,dataset,tape,block,size,size\nf,d,T1,0,10,20\n")
    with pytest.raises(SeekplanError, match="line 1: column 'size' appears twice"):
        load_campaign(files, tapes)
    tapes.write_text("tape,capacity,used\nT1,18446744073709551616,0\n")
    with pytest.raises(SeekplanError, match="line 2: column 'capacity'"):
        load_campaign(files, tapes)


def _config(tmp: Path, extra: str = "") -> Path:
    p = tmp / "recall.yaml"
    p.write_text(
        "library: {drives: 2, queue_size: 5, block_bytes: 1000000}\n"
        "strategy: {name: by-tapes, tapes: 1}\n"
        "workload: {kind: files, files: files.csv, tapes: tapes.csv}\n"
        "duration_h: 5\n" + extra
    )
    return p


def test_simulate_recall_cli(cli, tmp_path):
    _write_campaign(tmp_path)
    out = tmp_path / "out"
    r = cli("simulate", "recall", _config(tmp_path), "--out", out)
    assert r.exit_code == 0, r.output
    res = json.loads((out / "results.json").read_text())
    assert res["metrics"]["files_staged"] == 20
    assert res["metrics"]["distinct_mounts"] == 2
    assert len(res["series"]["t_s"]) == 30
    assert (out / "report.html").read_text().count("<img") == 1


@pytest.mark.parametrize(
    ("yaml_text", "field"),
    [
        ("strategy: {name: fastest}\n", "strategy"),
        ("library: {drives: 0}\n", "library.drives"),
        ("library: {queue_size: 0}\n", "library.queue_size"),
        ("library: {order: magic}\n", "order"),
    ],
)
def test_bad_configs_name_the_field(cli, tmp_path, yaml_text, field):
    _write_campaign(tmp_path)
    p = tmp_path / "bad.yaml"
    p.write_text("workload: {kind: files, files: files.csv, tapes: tapes.csv}\n" + yaml_text)
    r = cli("simulate", "recall", p, "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert field in r.output


@pytest.mark.parametrize("key", ["files", "tapes"])
def test_an_empty_workload_path_names_the_field(cli, tmp_path, key):
    _write_campaign(tmp_path)
    p = tmp_path / "bad.yaml"
    paths = {"files": "files.csv", "tapes": "tapes.csv", key: " "}
    files, tapes = paths["files"], paths["tapes"]
    p.write_text(f"workload: {{kind: files, files: '{files}', tapes: '{tapes}'}}\n")
    r = cli("simulate", "recall", p, "--out", tmp_path / "o")
    assert r.exit_code == 2
    assert f"workload.{key}: an empty path" in r.output


def test_file_past_tape_end_is_an_error(tmp_path):
    files, tapes = _write_campaign(tmp_path, block=9_999)
    c = load_campaign(files, tapes)
    cfg = parse_config({"library": {"block_bytes": 1_000_000}, "strategy": {"name": "random"}})
    with pytest.raises(SeekplanError, match="invalid block: file .* runs past the end of tape"):
        simulate(cfg, c)


def test_reproduce_dcache_quick(tmp_path):
    from seekplan.experiments import runner

    res = runner("dcache")(tmp_path, True, Executor(1))
    assert set(res["runs"]) == RUN_KEYS
    for run in res["runs"].values():
        assert all(isinstance(run[m], int | float) for m in METRICS)
        assert run["throughput_mb_s"] > 0
    ids = {c["id"] for c in res["claims"]}
    assert {"larger-queue-better", "q2000-by-12-tapes-best", "q30000-by-2-tapes-best"} <= ids
    for c in res["claims"]:
        assert set(c) == {"id", "text", "holds", "evidence"} and isinstance(c["holds"], bool)
    # Claims are computed from the runs: random mounts most at both sizes.
    random_most = all(
        res["runs"][f"q{q}/random"]["mounts"] >= res["runs"][f"q{q}/by-2-tapes"]["mounts"]
        for q in (2000, 30000)
    )
    assert random_most
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["runs"] == res["runs"]
    # Every run of every variant records its cost; the positional variant
    # has the whole Table 1 and its findings are checked too.
    for variant, runs in res["cpu_s"].items():
        assert set(runs) == set(res["events"][variant])
        assert all(v >= 0 for v in runs.values())
        assert all(res["events"][variant][k] > 0 for k in runs)
    assert set(res["variants"]["positional"]) == RUN_KEYS - {"q30000/dcache"}
    assert set(res["claims_by_variant"]["positional"]) == ids
    assert (tmp_path / "report.html").exists() and (tmp_path / "fig4.png").exists()


def test_tape_by_tape_order_requests_one_part_after_the_other():
    c = generate_kit(seed=2, scale=0.05, dataset_order="tape-by-tape")
    spread = generate_kit(seed=2, scale=0.05)
    # Same files, other order: each (dataset, tape) part is one run of
    # consecutive requests; spread interleaves the parts.
    assert sorted(c.size.tolist()) == sorted(spread.size.tolist())

    def runs(x):
        key = x.dataset.astype(np.int64) * 10_000 + x.tape
        return int(np.count_nonzero(np.diff(key)) + 1)

    parts = len(np.unique(c.dataset.astype(np.int64) * 10_000 + c.tape))
    assert runs(c) == parts < runs(spread)
    with pytest.raises(SeekplanError, match="dataset_order"):
        generate_kit(seed=2, scale=0.05, dataset_order="sideways")


@pytest.mark.parametrize(
    ("read_model", "field"),
    [
        ({"kind": "session-fraction", "floor": 0}, "library.read_model.floor"),
        ({"kind": "session-fraction", "full_at": 1.5}, "library.read_model.full_at"),
        ({"kind": "positional", "wind_s": -1}, "library.read_model.wind_s"),
        ({"kind": "magnetic"}, "library.read_model"),
    ],
)
def test_bad_read_models_name_the_field(read_model, field):
    with pytest.raises(SeekplanError, match=field.replace(".", r"\.")):
        parse_config({"library": {"read_model": read_model}})


def test_read_models_and_arrival_rules_run_from_yaml(tmp_path):
    files, tapes = _write_campaign(tmp_path)
    c = load_campaign(files, tapes)
    for extra in (
        {"read_model": {"kind": "positional", "locate_overhead_s": 2}},
        {"arrivals": "insert"},
        {},
    ):
        cfg = parse_config(
            {"library": {"drives": 2, "queue_size": 5, "block_bytes": 1_000_000, **extra}}
        )
        assert simulate(cfg, c)["metrics"]["files_staged"] == 20


def _write_trace(tmp: Path, rows: list[str] | None = None) -> Path:
    p = tmp / "trace.csv"
    if rows is None:
        rows = [
            f"{7200 + 30 * i},/atlas/ds{i % 3}/f{i},T{i % 4},{100 * i},{10**8}" for i in range(40)
        ]
    p.write_text("time,path,tape,block,size\n" + "\n".join(rows) + "\n")
    return p


def test_trace_is_a_campaign_in_arrival_order(tmp_path):
    from seekplan.recall.trace import load_trace

    rows = ["50,/d1/a,T1,0,1000", "10,/d2/b,T2,5,1000", "30,/d1/c,T1,9,1000"]
    c = load_trace(_write_trace(tmp_path, rows), 10**9, 1000)
    assert c.arrival_s.tolist() == [0.0, 20.0, 40.0]  # relative to the first request
    assert c.block.tolist() == [5, 9, 0]
    assert c.tape_names == ["T1", "T2"] and c.tape.tolist() == [1, 0, 0]
    assert c.dataset.tolist() == [1, 0, 0]  # a file's dataset is its directory


@pytest.mark.parametrize(
    ("row", "words"),
    [
        ("x,/d/a,T1,0,10", "line 2: column 'time'"),
        ("1,/d/a,T1,-3,10", "line 2: column 'block'"),
        ("1,/d/a,T1,0,0", "line 2: column 'size'"),
        ("1,/d/a,T1,999999,10", "line 2: block 999999"),
        ("1,,T1,0,10", "line 2: columns 'tape' and 'path'"),
        ("yesterday,/d/a,T1,0,10", "line 2: column 'time': 'yesterday' is neither"),
        ("1,/d/a,T1,1.5,10", "line 2: column 'block'"),
        ("1,/d/a,T1," + "9" * 5000 + ",10", r"line 2: column 'block': '9999.*\(5,002 characters\)"),
        # An extra field was dropped without a word; a missing one was "''".
        ("1,/d/a,T1,0,10,7", "line 2: wrong number of fields"),
        ("1,/d/a,T1,0", "line 2: wrong number of fields"),
    ],
)
def test_bad_traces_name_the_line(tmp_path, row, words):
    from seekplan.recall.trace import load_trace

    with pytest.raises(SeekplanError, match=words):
        load_trace(_write_trace(tmp_path, [row]), 10**6, 10)


def test_a_trace_with_a_byte_order_mark_reads_and_a_twin_column_is_refused(tmp_path):
    """A BOM made the first column '\\ufefftime' ("missing column time"); a
    column twice was silently read from its last copy."""
    from seekplan.recall.trace import load_trace

    p = tmp_path / "bom.csv"
    p.write_text("\ufefftime,path,tape,block,size\n0,/d/a,T1,0,10\n", encoding="utf-8")
    assert load_trace(p, 10**6, 10).files == 1
    p.write_text("time,path,tape,block,size,time\n0,/d/a,T1,0,10,5\n")
    with pytest.raises(SeekplanError, match="line 1: column 'time' appears twice"):
        load_trace(p, 10**6, 10)


def test_a_trace_line_without_end_is_refused_before_it_fills_memory(tmp_path):
    """`--trace /dev/zero` read one endless line: 15 GB in a minute."""
    from seekplan.io import MAX_LINE_CHARS
    from seekplan.recall.trace import load_trace

    p = tmp_path / "zeros.csv"
    p.write_bytes(bytes(MAX_LINE_CHARS + 10))
    with pytest.raises(SeekplanError, match="zeros.csv line 1: longer than"):
        load_trace(p, 10**6, 10)


def test_a_parquet_trace_declaring_too_many_rows_is_refused(tmp_path, monkeypatch):
    import pyarrow as pa
    import pyarrow.parquet as pq

    from seekplan import io
    from seekplan.recall.trace import load_trace

    monkeypatch.setattr(io, "MAX_PARQUET_ROWS", 1)
    p = tmp_path / "t.parquet"
    table = {
        "time": [0, 1],
        "path": ["/a", "/b"],
        "tape": ["T"] * 2,
        "block": [0, 1],
        "size": [1] * 2,
    }
    pq.write_table(pa.table(table), p)
    with pytest.raises(SeekplanError, match="declares 2 rows, more than 1"):
        load_trace(p, 10**6, 10)


def test_a_parquet_timestamp_past_year_9999_is_named(tmp_path):
    """pyarrow raised OverflowError converting it to a datetime: a traceback."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from seekplan.recall.trace import load_trace

    p = tmp_path / "t.parquet"
    year_10000 = pa.array([253_402_300_800_000 + 10**12], pa.timestamp("ms"))
    table = {"time": year_10000, "path": ["/a"], "tape": ["T"], "block": [0], "size": [1]}
    pq.write_table(pa.table(table), p)
    with pytest.raises(SeekplanError, match="t.parquet: a value cannot be read"):
        load_trace(p, 10**6, 10)


def test_a_tape_capacity_past_64_bits_exits_2(cli, tmp_path):
    """It overflowed numpy's uint64 array: a traceback."""
    cfg = tmp_path / "r.yaml"
    cfg.write_text("duration_h: 1\n")
    trace = _write_trace(tmp_path, ["0,/d/a,T1,0,10"])
    r = cli(
        "simulate",
        "recall",
        cfg,
        "--out",
        tmp_path / "o",
        "--trace",
        trace,
        "--tape-capacity",
        str(2**70),
    )
    assert r.exit_code == 2 and "--tape-capacity" in r.output


def test_parquet_and_timestamped_traces_read_like_the_csv(tmp_path):
    """A Parquet trace (seconds or timestamp times) gives the same campaign
    as the CSV; its bad rows are named by row number."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from seekplan.recall.trace import load_trace

    rows = ["50,/d1/a,T1,0,1000", "10,/d2/b,T2,5,1000", "30,/d1/c,T1,9,1000"]
    want = load_trace(_write_trace(tmp_path, rows), 10**9, 1000)
    cols = {
        "time": [50.0, 10.0, 30.0],
        "path": ["/d1/a", "/d2/b", "/d1/c"],
        "tape": ["T1", "T2", "T1"],
        "block": [0, 5, 9],
        "size": [1000, 1000, 1000],
    }
    pq.write_table(pa.table(cols), tmp_path / "t.parquet")
    stamped = {**cols, "time": pa.array([s * 10**6 for s in (50, 10, 30)], pa.timestamp("us"))}
    pq.write_table(pa.table(stamped), tmp_path / "ts.parquet")
    iso = [
        "1970-01-01T00:00:50,/d1/a,T1,0,1000",
        "1970-01-01T00:00:10Z,/d2/b,T2,5,1000",
        "1970-01-01T00:00:30+00:00,/d1/c,T1,9,1000",
    ]
    for got in (
        load_trace(tmp_path / "t.parquet", 10**9, 1000),
        load_trace(tmp_path / "ts.parquet", 10**9, 1000),
        load_trace(_write_trace(tmp_path, iso), 10**9, 1000),
    ):
        for k in ("arrival_s", "block", "tape", "dataset", "size"):
            assert getattr(got, k).tolist() == getattr(want, k).tolist(), k
    pq.write_table(pa.table({**cols, "block": [0, -1, 9]}), tmp_path / "bad.parquet")
    with pytest.raises(SeekplanError, match="row 2: column 'block'"):
        load_trace(tmp_path / "bad.parquet", 10**9, 1000)
    pq.write_table(pa.table({k: v for k, v in cols.items() if k != "size"}), tmp_path / "m.parquet")
    with pytest.raises(SeekplanError, match="missing column"):
        load_trace(tmp_path / "m.parquet", 10**9, 1000)
    (tmp_path / "junk.parquet").write_bytes(b"not parquet")
    with pytest.raises(SeekplanError, match="cannot read trace"):
        load_trace(tmp_path / "junk.parquet", 10**9, 1000)


def test_trace_strategies_cover_the_core_registry():
    from seekplan import _core
    from seekplan.recall.trace import strategies

    schema = json.loads(_core.schema("recall"))
    names = {v["properties"]["name"]["const"] for v in schema["$defs"]["Strategy"]["oneOf"]}
    assert {s["name"] for s in strategies(12).values()} == names


def test_simulate_recall_replays_a_trace_through_every_strategy(cli, tmp_path):
    trace = _write_trace(tmp_path)
    cfg = tmp_path / "lib.yaml"
    cfg.write_text("library: {drives: 2, queue_size: 10, block_bytes: 1000000}\nduration_h: 20\n")
    out = tmp_path / "out"
    r = cli("simulate", "recall", cfg, "--trace", trace, "--out", out)
    assert r.exit_code == 0, r.output
    res = json.loads((out / "results.json").read_text())
    assert set(res["strategies"]) == {"random", "by-dataset", "by-2-tapes", "dcache"}
    assert res["trace"]["requests"] == 40 and res["trace"]["tapes"] == 4
    for name, run in res["strategies"].items():
        m = run["metrics"]
        if name != "dcache":  # dcache may hold small tapes back for days
            assert m["files_staged"] == 40, name
        assert m["staging_p50_min"] is None or m["staging_p50_min"] <= m["staging_p99_min"]
    bad = _write_trace(tmp_path, ["1,/d/a,T1,zz,10"])
    r = cli("simulate", "recall", cfg, "--trace", bad, "--out", tmp_path / "o2")
    assert r.exit_code == 2 and "line 2" in r.output


def test_live_requester_runs_the_simulators_strategy() -> None:
    """`_core.Requester` (for `seekplan serve`) is the simulator's by-tapes
    code: one tape's requests leave together, in arrival order."""
    r = _core.Requester('{"name": "by-tapes", "tapes": 1}', [10**9] * 2, [10**9] * 2)
    for file, tape in [(0, 0), (1, 1), (2, 0), (3, 1)]:
        r.arrive(file, tape, file, 100, 0.0)
    order = []
    while (nxt := r.take(1.0)) is not None:
        order.append(nxt[0])
    assert order == [0, 2, 1, 3]
    with pytest.raises(ValueError, match="tape"):
        r.arrive(9, 7, 0, 1, 2.0)
    with pytest.raises(ValueError, match="now"):
        r.take(0.5)
    with pytest.raises(ValueError, match=r"strategy\.tapes"):
        _core.Requester('{"name": "by-tapes", "tapes": 0}', [1], [1])


def test_a_recall_config_names_its_library_from_the_catalog():
    cfg = parse_config({"library": {"robot": "sl8500"}})
    assert cfg.library["robot"] == {"arms": 4, "fetch_s": 12.5, "return_s": 12.5}
    with pytest.raises(SeekplanError, match="library.robot: unknown library 'nope'"):
        parse_config({"library": {"robot": "nope"}})


def test_a_trace_dcache_stages_nothing_from_says_why(cli, tmp_path):
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "examples"
    r = cli(
        "simulate", "recall", examples / "recall.yaml", "--trace", examples / "trace.csv",
        "--out", tmp_path,
    )  # fmt: skip
    assert r.exit_code == 0, r.output
    said = " ".join(r.output.split())
    assert "dcache: nothing staged in 12 h (dCache's rules pass a tape on only once" in said
    assert "1,000 requests; none was reached" in said


def test_the_trace_report_says_which_strategy_staged_soonest():
    from seekplan.recall.report import strategies_compared

    def run(median: float, mounts: int, staged: int = 10) -> dict:
        return {"metrics": {"staging_p50_min": median, "mounts": mounts, "files_staged": staged}}

    text = strategies_compared({"a": run(5.0, 3), "b": run(1.5, 9), "c": run(0, 0, staged=0)})
    assert text == (
        "b staged files soonest (median 1.5 min, 9 mounts); a latest (median 5.0 min, 3 mounts)."
        " Nothing staged with: c."
    )
    assert "the same staging" in strategies_compared({"a": run(2, 4), "b": run(2, 4)})
