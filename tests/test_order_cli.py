"""`seekplan order`: the interface other tools depend on, and its errors."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np
import pytest

import seekplan
from seekplan.errors import SeekplanError
from seekplan.io import read_requests
from seekplan.ordering import ALGORITHMS


def test_json_has_the_promised_keys(cli, requests_csv):
    r = cli("order", requests_csv, "--drive", "mlr1", "--algo", "mpscan-star", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["algo"] == "mpscan-star" and data["n"] == 40
    assert data["total_s"] > 0 and data["cpu_s"] >= 0
    assert sorted(data["order"], key=int) == [str(i) for i in range(40)]


def test_out_csv_has_the_promised_columns_and_is_a_permutation(cli, requests_csv, tmp_path):
    out = tmp_path / "order.csv"
    r = cli(
        "order", requests_csv, "--algo", "best", "--start", "1000", "--end", "bot", "--out", out
    )
    assert r.exit_code == 0, r.output
    rows = list(csv.DictReader(out.open()))
    assert list(rows[0].keys()) == ["rank", "id", "block", "size", "start_s", "end_s"]
    assert sorted(int(r["id"]) for r in rows) == list(range(40))
    starts = [float(r["start_s"]) for r in rows]
    assert starts == sorted(starts)
    assert all(float(r["end_s"]) > float(r["start_s"]) for r in rows)


def test_every_algorithm_runs_and_best_wins(requests_csv):
    reqs = seekplan.read_requests(requests_csv)
    totals = {
        a: seekplan.order(reqs, drive="mlr1", algo=a).total_s
        for a in ALGORITHMS
        if a not in ("opt", "cta-sltf")  # cta-sltf needs an LTO drive (tests/test_lto.py)
    }
    assert totals["best"] <= min(totals.values()) + 1e-9
    assert totals["mpscan-star"] < totals["fifo"]


def test_python_api_matches_cli(cli, requests_csv):
    r = cli("order", requests_csv, "--algo", "sltf", "--json")
    api = seekplan.order(seekplan.read_requests(requests_csv), drive="mlr1", algo="sltf")
    assert json.loads(r.stdout)["total_s"] == pytest.approx(api.total_s)


def test_matrix_mode_returns_the_node_sequence(cli, tmp_path):
    m = tmp_path / "costs.csv"
    m.write_text("0,5,1,9\n1,0,7,2\n8,1,0,6\n3,4,2,0\n")
    r = cli("order", "--matrix", m, "--algo", "opt", "--start", "0", "--end", "0", "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["order"][0] == 0 and data["order"][-1] == 0
    assert sorted(data["order"][1:-1]) == [1, 2, 3]
    # 0->2->1->3->0 = 1 + 1 + 2 + 3 = 7 is the optimum of this matrix.
    assert data["total_s"] == pytest.approx(7.0)


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ("id,block\n1,5\n", "missing column"),
        ("id,block,size\n1,5,-3\n", "line 2"),
        ("id,block,size\n1,5,abc\n", "not an integer"),
        ("id,block,size\n1,99999999999,32768\n", "past the end"),
        ("id,block,size\n1,5,10\n1,6,10\n", "duplicate id"),
        ("id,block,size\n1,-5,10\n", "negative"),
        # A 5,000-digit "number" is named, not echoed whole.
        ("id,block,size\n1," + "9" * 5000 + ",10\n", "(5,002 characters) is not an integer"),
        # Python's int() reads these; a site's export never means them.
        ("id,block,size\n1,1_000,10\n", "'1_000' is not an integer"),
        ("id,block,size\n1,\u0661\u0662,10\n", "is not an integer"),
    ],
)
def test_bad_requests_exit_2_with_a_clear_message(cli, tmp_path, content, needle):
    p = tmp_path / "bad.csv"
    p.write_text(content)
    r = cli("order", p, "--json")
    assert r.exit_code == 2
    assert needle in r.output
    assert len(r.output) < 1_000


@pytest.mark.parametrize(
    ("starts", "needle"),
    [
        ("[-5, 10]", "track_starts[0]: -5 is not a block number"),
        (f"[0, {2**70}]", "track_starts[1]: 1180591620717411303424 is not a block number"),
        ("[true, false]", "track_starts[0]: True is not a block number"),
    ],
)
def test_track_starts_out_of_range_exit_2(cli, requests_csv, tmp_path, starts, needle):
    """Negative or past-64-bit starts reached the core and raised an
    OverflowError traceback; booleans passed as 1 and 0."""
    p = tmp_path / "ts.json"
    p.write_text(f'{{"track_starts": {starts}}}')
    for option in ("order", "truth"):
        if option == "order":
            r = cli("order", requests_csv, "--track-starts", p)
        else:
            log = tmp_path / "log.csv"
            log.write_text("block,seconds\n0,0\n1,1\n")
            r = cli("fit", "track-starts", log, "--truth", p)
        assert r.exit_code == 2, r.output
        assert needle in r.output


def test_an_empty_track_starts_list_is_refused_not_ignored(cli, requests_csv, tmp_path):
    """`{"track_starts": []}` was taken as no file at all: the default
    geometry was used and the run exited 0."""
    p = tmp_path / "ts.json"
    p.write_text('{"track_starts": []}')
    r = cli("order", requests_csv, "--track-starts", p)
    assert r.exit_code == 2, r.output
    assert "0 entries for a drive with 72 tracks" in r.output


@pytest.mark.parametrize("algo", ["best", "bnb"])
@pytest.mark.parametrize("limit", [1e19, 86_401.0, 0.0, -1.0])
def test_a_time_limit_outside_a_day_is_refused_naming_the_limit(requests_csv, algo, limit):
    """1e19 s once panicked in the core (past the monotonic clock); 1e12
    kicks never returned: limits have upper bounds, named in the error."""
    from seekplan.ordering import order

    with pytest.raises(seekplan.SeekplanError, match="86,400 s"):
        order(read_requests(requests_csv), algo=algo, time_limit=limit)


def test_limits_are_named_in_help_and_errors(cli, requests_csv):
    r = cli("order", "--help")
    assert "100,000,000" in r.output and "86,400" in r.output
    r = cli("order", requests_csv, "--time-limit", "1e300")
    assert r.exit_code == 2 and "86,400 s" in r.output
    r = cli("order", requests_csv, "--iterations", "1000000000000")
    assert r.exit_code == 2 and "100,000,000" in r.output
    r = cli("order", requests_csv, "--gap", "2")
    assert r.exit_code == 2 and "gap: 2.0 is not a fraction between 0 and 1" in r.output


def test_best_says_why_it_stopped(cli, requests_csv, tmp_path):
    """`best` reports the stop rule, when it found its order, and the CPU of
    each phase; a matrix whose optimum meets its bound stops as optimal."""
    r = cli("order", requests_csv, "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["stopped_because"] in ("optimal", "gap", "time", "budget")
    assert 0 <= data["time_to_best_s"] and data["phases_cpu_s"]["bound"] >= 0
    n = 60
    line = [
        [0 if i == j else (j - i if j > i else 10 * (i - j)) for j in range(n)] for i in range(n)
    ]
    m = tmp_path / "line.csv"
    m.write_text("\n".join(",".join(map(str, row)) for row in line) + "\n")
    r = cli("order", "--matrix", m, "--json")
    data = json.loads(r.stdout)
    assert data["stopped_because"] == "optimal" and data["total_s"] == data["lower_bound_s"]
    r = cli("order", "--matrix", m)
    assert "stopped: optimal" in r.output


def test_progress_describes_phase_best_and_gap():
    from seekplan.order_progress import describe

    assert (
        describe("kicks", 101.0, 100.0, 3.2) == "best: kicks, best total 101.0 s, gap 1.000 % (3 s)"
    )
    assert describe("bound", None, None, 0.0) == "best: bound (0 s)"


def test_the_progress_callback_is_called_with_the_running_phase(requests_csv):
    heard: list[tuple[str, float]] = []
    reqs = read_requests(requests_csv)
    seekplan.order(reqs, progress=lambda phase, best, bound, t: heard.append((phase, t)))
    assert heard and heard[0][0] == "bound" and all(t >= 0 for _, t in heard)


def test_an_exception_in_the_progress_callback_reaches_the_caller(requests_csv):
    """The callback's exception stops the search and is raised by the order
    call itself, not swallowed as a cancel (the core keeps it while it winds
    down)."""

    def fails(phase: str, best: float | None, bound: float | None, t: float) -> None:
        raise RuntimeError(f"stop at {phase}")

    with pytest.raises(RuntimeError, match="stop at bound"):
        seekplan.order(read_requests(requests_csv), progress=fails)


def _lto_device_file(tmp_path: Path, **over: str) -> Path:
    """A device file with drive 'x': lto9's figures, some replaced by ``over`` (TOML text)."""
    from seekplan.catalog import load_catalog

    params = {k: repr(v) for k, v in load_catalog()["lto9"].params.items()} | over
    p = tmp_path / "devices.toml"
    p.write_text(
        '[drives.x]\ntitle = "x"\nmodel = "lto"\n[drives.x.params]\n'
        + "".join(f"{k} = {v}\n" for k, v in params.items())
    )
    return p


@pytest.mark.parametrize(
    ("over", "needle"),
    [
        # inf passed gt=0 and the core refused the JSON without a field name.
        ({"rate_bps": "inf"}, "field 'rate_bps': Input should be a finite number"),
        # The core's u32: "expected u32 at line 1 column 56", no field name.
        ({"wraps": str(2**62)}, "field 'wraps': Input should be less than or equal to 4294967295"),
        # 4e9 wraps: the core allocated 32 GB for their start blocks and aborted.
        (
            {"wraps": "4000000000", "bands": "4", "lpos_max": "4000000000",
             "capacity_bytes": str(2**62), "block_bytes": "1"},
            "invalid wraps: at most 100000",
        ),
    ],
)  # fmt: skip
def test_hostile_device_files_name_the_field(cli, requests_csv, tmp_path, over, needle):
    devices = _lto_device_file(tmp_path, **over)
    r = cli("order", requests_csv, "--drive", "x", "--devices", devices)
    assert r.exit_code == 2, r.output
    assert needle in r.output


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--drive", "lto99"], "unknown drive"),
        (["--algo", "magic"], "unknown algorithm"),
        (["--start", "north"], "--start"),
    ],
)
def test_bad_options_exit_2(cli, requests_csv, args, needle):
    r = cli("order", requests_csv, *args)
    assert r.exit_code == 2
    assert needle in r.output


def test_non_square_matrix_and_opt_limit(cli, tmp_path, requests_csv):
    m = tmp_path / "m.csv"
    m.write_text("0,1,2\n1,0\n")
    r = cli("order", "--matrix", m)
    assert r.exit_code == 2 and "square" in r.output
    r = cli("order", requests_csv, "--algo", "opt")
    assert r.exit_code == 2 and "limited to 16" in r.output


def test_an_empty_batch_is_an_error_but_an_empty_list_in_python_is_not(cli, tmp_path):
    # A file with a header and no rows is almost always the wrong file (or
    # a failed export): exit 2 naming it rather than "0 requests" and 0.
    p = tmp_path / "empty.csv"
    p.write_text("id,block,size\n")
    r = cli("order", p, "--json")
    assert r.exit_code == 2 and "empty.csv: no requests" in r.output
    assert seekplan.order([], drive="mlr1").n == 0


def test_semicolon_and_tab_separated_batches_are_read(cli, tmp_path):
    for sep in (";", "\t"):
        p = tmp_path / "sep.csv"
        p.write_text(f"id{sep}block{sep}size\na{sep}10{sep}100\nb{sep}5000{sep}100\n")
        r = cli("order", p, "--json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["n"] == 2


def test_a_block_past_the_tape_names_file_line_and_column(cli, tmp_path):
    p = tmp_path / "past.csv"
    p.write_text("id,block,size\na,10,100\n\nb,99999999999,100\n")
    r = cli("order", p, "--drive", "lto9")
    assert r.exit_code == 2
    # Line 4: the blank line 3 is skipped but still counted.
    assert "past.csv line 4: column 'block': extent at block 99999999999" in r.output
    with pytest.raises(SeekplanError, match=r"request 0 \(id 'x'\): extent at block"):
        seekplan.order([{"id": "x", "block": 10**12, "size": 5}], drive="lto9")


def test_user_device_file_adds_a_drive(cli, requests_csv, tmp_path: Path):
    shipped = (Path(seekplan.__file__).parent / "data" / "devices.toml").read_text()
    extra = tmp_path / "mine.toml"
    extra.write_text(
        shipped.replace("[drives.mlr1", "[drives.mlr1fast").replace(
            "traverse_s = 115.0", "traverse_s = 59.0"
        )
    )
    slow = json.loads(cli("order", requests_csv, "--algo", "fifo", "--json").stdout)
    r = cli(
        "order", requests_csv, "--drive", "mlr1fast", "--devices", extra, "--algo", "fifo", "--json"
    )
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["total_s"] < slow["total_s"]


def test_summary_csv_carries_the_bound_and_gap_and_is_checked_first(cli, tmp_path, requests_csv):
    summary = tmp_path / "s.csv"
    r = cli("order", requests_csv, "--summary", summary)
    assert r.exit_code == 0, r.output
    header, row = summary.read_text().splitlines()
    values = dict(zip(header.split(","), row.split(","), strict=True))
    assert float(values["lower_bound_s"]) <= float(values["total_s"])
    assert float(values["gap"]) >= 0
    r = cli("order", requests_csv, "--summary", tmp_path)
    assert r.exit_code == 2 and "--summary" in r.output and "is a directory" in r.output


def test_a_track_start_files_capacity_is_checked_and_used(cli, tmp_path):
    """`capacity` (blocks on the measured tape) was documented and never
    read: any value, "x" included, was ignored."""
    batch = tmp_path / "r.csv"
    batch.write_text("id,block,size\na,100,1000\nb,50000,1000\nc,705000,1000\n")
    starts = [i * 10_000 for i in range(72)]  # MLR1: 72 tracks, the last past its nominal end

    def run(**extra):  # type: ignore[no-untyped-def]
        path = tmp_path / "t.json"
        path.write_text(json.dumps({"track_starts": starts, **extra}))
        return cli("order", batch, "--drive", "mlr1", "--track-starts", path)

    for bad in ("x", -1, 0, True, 2**64):
        r = run(capacity=bad)
        assert r.exit_code == 2 and "capacity" in r.output, (bad, r.output)
    nominal = run()
    assert nominal.exit_code == 2 and "past the end of the tape" in nominal.output
    measured = run(capacity=800_000)
    assert measured.exit_code == 0, measured.output


@pytest.mark.parametrize("json_flag", [["--json"], []])
def test_a_small_matrix_order_imports_neither_numpy_nor_pydantic_nor_rich(tmp_path, json_flag):
    """`seekplan order` on a small CSV matrix must not pay for numpy,
    pydantic (the device catalog's models) or rich before it reads a byte:
    their imports cost more than the order (issue 36 item 4)."""
    import subprocess
    import sys

    m = tmp_path / "m3.csv"
    m.write_text("0,1,2\n1,0,3\n2,3,0\n")
    script = (
        "import sys\n"
        f"sys.argv = ['seekplan', 'order', '--matrix', {str(m)!r}, *{json_flag!r}]\n"
        "from seekplan.cli import main\n"
        "try:\n    main()\nexcept SystemExit as e:\n    assert not e.code, e.code\n"
        "print(sorted(k for k in ('numpy', 'pydantic', 'rich') if k in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout + out.stderr


def test_seek_costs_on_a_helical_drive_give_the_exact_order_along_the_tape(cli, tmp_path):
    """`--cost seek` times locates as the drive's seeks alone: on a helical
    drive without a short-seek line `best` then orders exactly along the tape
    and proves it (its line phase); the drive's own costs read through short
    gaps and time the same order for no more; where streaming through the
    batch beats every locate order `best` returns it at once, saying so; an
    unknown cost names the three."""
    rows = [f"r{i},{(i * 7919) % 36_000},{2_000_000 + i * 10_000}" for i in range(80)]
    csv = tmp_path / "helical.csv"
    csv.write_text("id,block,size\n" + "\n".join(rows) + "\n")
    r = cli("order", csv, "--drive", "ampex-dst310", "--cost", "seek", "--start", "18000", "--json")
    assert r.exit_code == 0, r.output
    seek = json.loads(r.stdout)
    assert "line" in seek["phases_cpu_s"] and seek["stopped_because"] == "optimal"
    assert seek["total_s"] == pytest.approx(seek["lower_bound_s"], rel=1e-9)
    r = cli("order", csv, "--drive", "ampex-dst310", "--start", "18000", "--json")
    drive = json.loads(r.stdout)
    assert "line" not in drive["phases_cpu_s"] and drive["total_s"] <= seek["total_s"] + 1e-6
    r = cli("order", csv, "--drive", "ampex-dst310", "--cost", "sweep")
    assert r.exit_code == 2 and "drive, seek, cta" in r.output
    # Files close together: streaming past the gaps beats every locate
    # order, which the line's bound shows; `best` says so and stops.
    dense = tmp_path / "dense.csv"
    rows = [f"d{i},{i * 30},{1_000_000}" for i in range(300)]
    dense.write_text("id,block,size\n" + "\n".join(rows) + "\n")
    r = cli("order", dense, "--drive", "ampex-dst310", "--cost", "seek", "--json")
    streamed = json.loads(r.stdout)
    assert streamed["stopped_because"] == "streaming" and streamed["moves"] == "read-through"
    assert "kicks" not in streamed["phases_cpu_s"]


def test_best_streams_back_first_where_few_reads_lie_behind_the_head():
    """On seek costs, a dense batch with the head just past its first few
    reads: seeking back to the first read and streaming once through all of
    them beats READ's stream (ahead first, then back from the far end), and
    `best` returns that stream."""
    reqs = [{"id": f"d{i}", "block": i * 30, "size": 1_000_000} for i in range(300)]
    best = seekplan.order(reqs, drive="ampex-dst310", cost="seek", start=95)
    read = seekplan.order(reqs, drive="ampex-dst310", cost="seek", start=95, algo="read")
    assert best.moves == "read-through" and best.stopped_because == "streaming"
    assert [r["id"] for r in best.rows] == [f"d{i}" for i in range(300)]
    assert best.total_s < read.total_s - 1.0


def test_a_command_runs_from_an_app_of_that_command_alone_with_the_same_help():
    """`main` builds only the command it runs (typer builds every command's
    parameters first); its help and errors are the whole app's."""
    from typer.testing import CliRunner

    from seekplan.cli import app, command_app

    runner = CliRunner()
    for argv in (["order", "--help"], ["simulate", "recall", "--help"], ["order", "--bogus"]):
        lean = command_app(argv)
        assert lean is not app
        assert [c.name for c in lean.registered_commands + lean.registered_groups] == [argv[0]]
        alone, whole = runner.invoke(lean, argv), runner.invoke(app, argv)
        assert (alone.exit_code, alone.output) == (whole.exit_code, whole.output)
    for argv in ([], ["--help"], ["ordr"]):
        assert command_app(argv) is app


def test_the_package_exports_names_and_submodules_lazily():
    import importlib

    pkg = importlib.reload(seekplan)
    assert pkg.catalog.make_drive("lto9").capacity > 0
    assert pkg.order is seekplan.ordering.order
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        _ = pkg.nope


def test_an_exception_in_the_progress_callback_stops_the_order_and_is_raised():
    """Ctrl-C lands in the progress callback while the core runs: it must
    stop the search and reach the caller, not be printed and lost."""
    import numpy as np

    costs = np.random.default_rng(3).random((1500, 1500))

    def interrupt(phase, best, bound, elapsed):
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        seekplan.order_matrix(costs, progress=interrupt)


def test_order_prints_the_saving_against_the_batch_as_listed(cli, requests_csv):
    r = cli("order", requests_csv, "--drive", "mlr1", "--json")
    data = json.loads(r.stdout)
    listed = seekplan.order(read_requests(requests_csv), drive="mlr1", algo="fifo", bound=False)
    assert data["fifo_s"] == pytest.approx(listed.total_s)
    assert data["total_s"] <= data["fifo_s"]
    r = cli("order", requests_csv, "--drive", "mlr1")
    said = " ".join(r.output.split())
    pct = 100 * data["total_s"] / data["fifo_s"]
    assert f"as listed (FIFO) {data['fifo_s']:.1f} s" in said
    assert f"best takes {pct:.1f} % of that time" in said
    assert " min " in said  # totals also in minutes, not only raw seconds


def test_a_helical_drive_takes_every_algorithm_that_needs_no_tracks(cli, tmp_path):
    """A helical tape has block addresses but no tracks: READ and SORT (what
    most systems do) order it, SCAN's family is refused naming what is
    missing and what can run, exit 2."""
    reqs = tmp_path / "helical.csv"
    reqs.write_text("id,block,size\n" + "".join(f"f{i},{37 * i},1000000\n" for i in range(30)))
    for algo in ("read", "sort", "linear"):
        r = cli("order", reqs, "--drive", "sony-dtf", "--algo", algo, "--json")
        assert r.exit_code == 0, r.output
        assert json.loads(r.stdout)["algo"] == algo
    r = cli("order", reqs, "--drive", "sony-dtf", "--algo", "scan")
    assert r.exit_code == 2
    assert "tracks" in r.output and "helical" in r.output
    assert "on this drive use read, fifo, sort" in r.output and "cta-sltf" not in r.output


def test_a_matrix_on_a_line_is_ordered_on_it(cli, tmp_path):
    """A matrix exported from a linear tape model (a startup plus the distance from one
    file's end to the next one's start, seconds as the model gives them) is found to lie
    on a line: `best` takes the line's exact order, proven optimal while computing its
    bound, with no search, and no other algorithm beats it."""
    rng = np.random.default_rng(7)
    n = 80
    start = rng.uniform(0, 3000, n)
    end = start + rng.uniform(1, 30, n)
    ends = np.append(end, rng.uniform(0, 3000))
    costs = 4.5 + np.abs(np.append(start, 0.0)[None, :] - ends[:, None]) / 12.0
    costs[:, n] = 0.0
    np.fill_diagonal(costs, 0.0)
    m = tmp_path / "line.csv"
    m.write_text("\n".join(",".join(repr(float(c)) for c in row) for row in costs) + "\n")
    r = cli("order", "--matrix", m, "--start", str(n), "--json")
    assert r.exit_code == 0, r.output
    data = json.loads(r.stdout)
    assert data["stopped_because"] == "optimal", data["stopped_because"]
    assert list(data["phases_cpu_s"]) == ["bound"]
    assert data["total_s"] <= data["lower_bound_s"] * (1 + 1e-9)
    for algo in ("sltf", "patch", "loss"):
        other = json.loads(
            cli("order", "--matrix", m, "--start", str(n), "--algo", algo, "--json").stdout
        )
        assert data["total_s"] <= other["total_s"] + 1e-9, algo
