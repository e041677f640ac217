"""Input checked at the border (issue 16): the Python API's types, CSV
headers with a BOM or a column twice, a serpentine geometry file for an LTO
drive, a seek fit whose R² is not a number, and costs that overflow."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from seekplan.errors import SeekplanError
from seekplan.fit.logs import parse_block_log, parse_seek_log
from seekplan.io import Request, parse_matrix, parse_requests, read_requests
from seekplan.lto import parse_eowp
from seekplan.ordering import order, order_matrix


@pytest.mark.parametrize(
    ("requests", "needle"),
    [
        ([("a", 1.9, 10)], r"request 0 \(a\): block: 1\.9 is not a whole number"),
        ([("a", 5, 2.5)], r"request 0 \(a\): size: 2\.5 is not a whole number"),
        ([{"id": "a", "block": 5}], r"request 0: missing key\(s\) size"),
        ([("a", "5", 10)], r"request 0 \(a\): block: '5' is not a number"),
        ([("a", None, 10)], r"block: None is not a number"),
        ([("a", True, 10)], r"block: True is not a number"),
        ([("a", 5)], r"request 0: .* neither a Request"),
        ([42], r"request 0: 42 is neither"),
        ([(None, 5, 10)], r"request 0: id None must be"),
        ([("", 5, 10)], r"request 0: id '' must be"),
        ([("a", 2**63, 10)], r"block: 9223372036854775808 must lie between 0 and"),
        ([("a", -1, 10)], r"block: -1 must lie between"),
        ([("a", 1, 0)], r"size: 0 must lie between 1 and"),
        ("abc", r"requests: str is not a list"),
        (None, r"requests: NoneType is not a list"),
    ],
)
def test_order_api_rejects_bad_types_naming_the_argument(requests, needle: str) -> None:
    with pytest.raises(SeekplanError, match=needle):
        order(requests)


def test_order_api_takes_whole_floats_and_all_three_request_forms() -> None:
    forms = [Request("a", 100, 4096), {"id": "b", "block": 9.0, "size": 4096}, ("c", 50, 4096.0)]
    result = order(forms, algo="fifo")
    assert [(r["id"], r["block"]) for r in result.rows] == [("a", 100), ("b", 9), ("c", 50)]
    with pytest.raises(SeekplanError, match=r"start: 1\.5 is not a whole number"):
        order(forms, start=1.5)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("costs", "needle"),
    [
        ([[0, float("inf")], [1, 0]], r"costs row 1 column 2: inf must be a finite time"),
        ([[0, 1], [float("nan"), 0]], r"costs row 2 column 1: nan"),
        ([[0, -1], [1, 0]], r"costs row 1 column 2: -1\.0"),
        ([[0, "x"], [1, 0]], r"costs row 1 column 2: 'x' is not a number"),
        ([[0, 1e308, 1e308], [1e308, 0, 1e308], [1e308, 1e308, 0]], "overflows to infinity"),
        ("01", r"costs: str is not a list of rows"),
        ([5], r"costs row 1: 5 is not a list"),
    ],
)
def test_order_matrix_rejects_bad_costs_naming_row_and_column(costs, needle: str) -> None:
    with pytest.raises(SeekplanError, match=needle):
        order_matrix(costs)


def test_a_matrix_whose_total_overflows_never_prints_infinity(cli, tmp_path: Path) -> None:
    m = tmp_path / "m.csv"
    m.write_text("0,1e308,1e308\n1e308,0,1e308\n1e308,1e308,0\n")
    r = cli("order", "--matrix", m, "--json")
    assert r.exit_code == 2 and "overflows to infinity" in r.output
    assert "Infinity" not in r.output


def test_a_bom_is_stripped_from_every_csv(tmp_path: Path) -> None:
    bom = "\ufeff"
    assert parse_requests([bom + "id,block,size\n", "a,1,2\n"]) == [Request("a", 1, 2)]
    assert parse_matrix([bom + "0,1\n", "1,0\n"]) == [[0.0, 1.0], [1.0, 0.0]]
    assert parse_eowp([bom + "last_block\n", "10\n", "20\n"]) == [10, 20]
    froms, _, _ = parse_seek_log([bom + "from_block,to_block,seconds\n", "0,5,1.0\n"])
    assert froms.tolist() == [0]
    blocks, _ = parse_block_log([bom + "block,seconds\n", "0,1.0\n"])
    assert blocks.tolist() == [0]
    p = tmp_path / "r.csv"
    p.write_bytes((bom + "id,block,size\r\na,1,2\r\n").encode())
    assert read_requests(p) == [Request("a", 1, 2)]


@pytest.mark.parametrize(
    ("parse", "header", "column"),
    [
        (parse_requests, "id,block,size,block", "block"),
        (parse_eowp, "last_block,last_block", "last_block"),
        (parse_seek_log, "from_block,to_block,seconds,seconds", "seconds"),
        (parse_block_log, "block,block,seconds", "block"),
    ],
)
def test_a_column_twice_in_a_header_is_an_error_naming_it(parse, header: str, column: str) -> None:
    with pytest.raises(SeekplanError, match=f"line 1: column '{column}' appears twice"):
        parse([header + "\n", ",".join(["1"] * len(header.split(","))) + "\n"])


def test_track_starts_for_an_lto_drive_is_refused(cli, tmp_path: Path, requests_csv) -> None:
    ts = tmp_path / "ts.json"
    ts.write_text(json.dumps({"track_starts": [0, 1000, 2000]}))
    r = cli("order", requests_csv, "--drive", "lto9", "--track-starts", ts)
    assert r.exit_code == 2
    assert "'lto9' is an LTO drive" in r.output and "--eowp" in r.output


def test_a_seek_fit_with_r2_nan_is_an_error(cli, tmp_path: Path) -> None:
    log = tmp_path / "seeks.csv"
    rows = [(0, 10, "1e200"), (0, 20, "2e200"), (0, 30, "3.5e200"), (0, 40, "1e200")]
    log.write_text("from_block,to_block,seconds\n" + "".join(f"{a},{b},{s}\n" for a, b, s in rows))
    r = cli("fit", "seeks", log, "--json")
    assert r.exit_code == 2
    assert "R² nan" in r.output and "NaN" not in r.output


def test_endless_inputs_are_refused_before_they_fill_memory(cli, tmp_path):
    """/dev/zero as a request CSV, a config or a track-start file: a line or
    a file past the documented cap is an error naming it, exit 2."""
    ok = tmp_path / "ok.csv"
    ok.write_text("id,block,size\na,1,100\n")
    for args in (
        ("order", "/dev/zero", "--drive", "mlr1"),
        ("order", ok, "--drive", "mlr1", "--track-starts", "/dev/zero"),
        ("simulate", "recall", "/dev/zero", "--out", tmp_path / "o"),
    ):
        r = cli(*args)
        assert r.exit_code == 2, r.output
        assert "/dev/zero" in r.output and ("longer than" in r.output or "larger than" in r.output)


def test_a_seed_too_big_for_the_core_is_an_error_not_an_overflow(cli, tmp_path):
    ok = tmp_path / "ok.csv"
    ok.write_text("id,block,size\na,1,100\nb,9,5\n")
    r = cli("order", ok, "--drive", "lto9", "--seed", str(10**30))
    assert r.exit_code == 2 and "seed:" in r.output, r.output
