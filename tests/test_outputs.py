"""Every CLI output path that is a directory where a file is expected (or a
file where a directory is), or an unwritable place, is a clear error naming
it with exit 2, checked before any work, never a traceback (issue 16)."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from seekplan.errors import SeekplanError
from seekplan.io import to_json, write_json, write_order

#: Every verb with an output path: (arguments before it, the option or None
#: for a positional, whether it expects a file (else a directory)).
VERBS = [
    (("order", "REQ"), "--out", True),
    (("fit", "track-starts", "LOG"), "--out", True),
    (("reproduce", "johnson-miller"), "--out", False),
    (("demo",), "--out", False),
    (("simulate", "recall", "CFG"), "--out", False),
    (("simulate", "archive", "CFG"), "--out", False),
    (("simulate", "media", "CFG"), "--out", False),
    (("ltfs", "copy", "VOL"), None, False),
]


def _args(tmp_path: Path, before: tuple[str, ...], option: str | None, out: Path) -> list[str]:
    names = {"REQ": "req.csv", "LOG": "log.csv", "CFG": "cfg.yaml", "VOL": "vol"}
    args = [str(tmp_path / names[a]) if a in names else a for a in before]
    return [*args, *([option] if option else []), str(out)]


@pytest.mark.parametrize(("before", "option", "is_file"), VERBS)
def test_wrong_kind_of_output_path_is_a_clear_error(
    cli, tmp_path: Path, before: tuple[str, ...], option: str | None, is_file: bool
) -> None:
    out = tmp_path / "target"
    if is_file:
        out.mkdir()
    else:
        out.write_text("a file")
    r = cli(*_args(tmp_path, before, option, out))
    assert r.exit_code == 2, r.output
    assert str(out) in r.output
    assert ("is a directory" if is_file else "is a file") in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["target"]  # nothing left behind


@pytest.mark.parametrize(("before", "option", "is_file"), VERBS)
def test_unwritable_output_path_is_a_clear_error(
    cli, tmp_path: Path, before: tuple[str, ...], option: str | None, is_file: bool
) -> None:
    blocker = tmp_path / "plain-file"
    blocker.write_text("x")
    out = blocker / "sub" / ("out.csv" if is_file else "dir")  # under a file: cannot exist
    r = cli(*_args(tmp_path, before, option, out))
    assert r.exit_code == 2, r.output
    assert str(out) in r.output and "Not a directory" in r.output
    assert r.exception is None or isinstance(r.exception, SystemExit)


@pytest.mark.parametrize("option", ["--out", "--summary"])
def test_an_output_file_that_is_a_fifo_is_refused_not_replaced(
    cli, tmp_path: Path, requests_csv, option: str
) -> None:
    """The result is renamed into place, which replaced a FIFO (or, as root,
    a device such as /dev/full) with a regular file and exited 0."""
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    r = cli("order", requests_csv, option, fifo)
    assert r.exit_code == 2, r.output
    assert f"{option} {fifo}: is not a regular file" in r.output
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def test_order_out_writes_the_file_and_no_temporary(cli, tmp_path: Path, requests_csv) -> None:
    out = tmp_path / "deep" / "order.csv"
    r = cli("order", requests_csv, "--out", out)
    assert r.exit_code == 0, r.output
    assert out.read_text().startswith("rank,id,block,size,start_s,end_s")
    assert [p.name for p in out.parent.iterdir()] == ["order.csv"]


def test_writers_name_the_path_and_clean_up(tmp_path: Path) -> None:
    target = tmp_path / "d"
    target.mkdir()
    with pytest.raises(SeekplanError, match=f"cannot write {target}"):
        write_order(target, [])
    with pytest.raises(SeekplanError, match=f"cannot write {target}"):
        write_json(target, {})
    assert list(tmp_path.iterdir()) == [target] and not list(target.iterdir())


def test_json_writer_refuses_non_finite_numbers_naming_the_field(tmp_path: Path) -> None:
    out = tmp_path / "r.json"
    with pytest.raises(SeekplanError, match=r"'runs\.1\.total_s' is not a finite number"):
        write_json(out, {"runs": [{"total_s": 1.0}, {"total_s": float("inf")}]})
    assert not out.exists()
    write_json(out, {"total_s": 1.5, "sem_s": float("nan")})  # undefined: null
    assert json.loads(out.read_text()) == {"total_s": 1.5, "sem_s": None}
    with pytest.raises(SeekplanError, match=r"'total_s' is not a finite number"):
        to_json({"total_s": float("nan")})


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--summary", "REQ"], "--summary"),
        (["--out", "REQ"], "--out"),
        (["--out", "LINK"], "--out"),
        (["--out", "NEW", "--summary", "NEW"], "--summary"),
    ],
)
def test_an_output_over_an_input_is_refused_and_the_input_kept(cli, requests_csv, args, needle):
    """`order batch.csv --summary batch.csv` replaced the batch by a one-row
    summary; `--out X --summary X` replaced the order by the summary."""
    before = requests_csv.read_text()
    link = requests_csv.with_name("link.csv")
    link.symlink_to(requests_csv)
    names = {"REQ": requests_csv, "LINK": link, "NEW": requests_csv.with_name("new.csv")}
    r = cli("order", requests_csv, *[str(names.get(a, a)) for a in args])
    assert r.exit_code == 2, r.output
    assert needle in r.output and "writing it would overwrite that" in r.output
    assert requests_csv.read_text() == before
    assert not names["NEW"].exists()


def test_fit_refuses_to_write_its_geometry_over_the_log(cli, tmp_path):
    log = tmp_path / "log.csv"
    log.write_text("block,seconds\n0,0\n1,1\n")
    r = cli("fit", "track-starts", log, "--out", log)
    assert r.exit_code == 2 and "writing it would overwrite that" in r.output
    assert log.read_text() == "block,seconds\n0,0\n1,1\n"


def test_report_numbers_are_for_people():
    from seekplan.text import number

    assert number(1.23e-05) == "0.0000123" and "e" not in number(4.5e-9)
    assert number(12345.6) == "12,346" and number(3.14159) == "3.142"
    assert number(float("nan")) == "–" and number(0.0) == "0"


def test_report_plots_start_at_zero_and_captions_do_not_repeat_titles(tmp_path):
    from matplotlib.figure import Figure

    from seekplan.report import Report

    fig = Figure()
    ax = fig.add_subplot()
    ax.plot([1, 2, 3], [50, 52, 51])
    ax.set_title("Throughput")
    rep = Report("t", tmp_path)
    rep.figure(fig, "f", "Throughput")
    assert ax.get_ylim()[0] == 0
    rep.table([{"a": float("nan"), "b": 1.5e-6, "c": 1234567}])
    page = rep.write().read_text()
    assert "<figcaption>" not in page
    assert "nan" not in page and "e-06" not in page and "1,234,567" in page


def test_one_recall_run_has_no_placeholder_legend_and_says_why_drives_idle(cli, tmp_path):
    from pathlib import Path

    examples = Path(__file__).resolve().parent.parent / "examples"
    r = cli("simulate", "recall", examples / "recall.yaml", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    page = (tmp_path / "report.html").read_text()
    assert "On average" in page and "strategy.max_active_tapes = 1" in page
    assert "sampled every 600 s of virtual time" in page


def test_a_series_hidden_under_another_is_named_on_the_plot():
    from seekplan.recall.report import series_figure

    def run(busy: list[int], mb: list[float]) -> dict:
        return {"series": {"t_s": [0, 600], "busy_drives": busy, "throughput_mb_s": mb}}

    fig = series_figure({"random": run([4, 4], [100, 120]), "by 4 tapes": run([4, 4], [90, 150])})
    top, bottom = fig.axes
    assert not top.texts and "lie on each other" in bottom.texts[0].get_text()
    assert bottom.get_legend() is not None
