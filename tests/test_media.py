"""Mixed-media scheduling from Python: configs, the simulate CLI, and the
Balafoutis reproduction at a tiny scale."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from seekplan.errors import SeekplanError
from seekplan.experiments import balafoutis
from seekplan.experiments.balafoutis_why import MECHANISMS, explain
from seekplan.io import to_json
from seekplan.media import MediaStudy, algorithms, parse_study, simulate_run
from seekplan.sweep import Executor


def test_every_algorithm_is_glitch_free_from_python():
    study = MediaStudy(rounds=150, queue_limit=300)
    for algo in algorithms():
        r = simulate_run(study.core_config(40.0, 0), algo)
        assert r["glitches"] == 0, algo
        assert r["c_served"] == 25 * r["rounds"], algo


@settings(max_examples=15, deadline=None)
@given(
    lam=st.floats(0, 70),
    n=st.integers(0, 30),
    algo=st.sampled_from(["famish", "clust-cyl", "sptf", "scan-edf", "gss"]),
)
def test_no_glitches_whatever_the_load(lam: float, n: int, algo: str):
    study = MediaStudy(rounds=40, c_requests=n, queue_limit=200)
    r = simulate_run(study.core_config(lam, 3), algo)
    assert r["glitches"] == 0
    if r["d_served"]:
        assert 0 < r["fairness"] <= 1 + 1e-12


def test_same_seed_same_numbers():
    cfg = MediaStudy(rounds=100).core_config(30.0, 0)
    assert simulate_run(cfg, "ci-opt") == simulate_run(cfg, "ci-opt")


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"lambdas": [-3]}, "lambdas"),
        ({"algorithms": ["elevator"]}, "algorithms"),
        ({"disk": {"rotation_s": 0}}, "disk.rotation_s"),
        ({"rounds": "many"}, "rounds"),
        ({"projection": {"seek": 1.5}}, "projection.seek"),
        ({"typo_field": 1}, "typo_field"),
        ([1, 2], "mapping"),
    ],
)
def test_bad_configs_name_the_field(data, field):
    with pytest.raises(SeekplanError, match=field.replace(".", r"\.")):
        parse_study(data)


def test_simulate_media_cli(cli, tmp_path: Path):
    cfg = tmp_path / "study.yaml"
    cfg.write_text("algorithms: [famish, clust-req]\nlambdas: [10, 30]\nruns: 1\nrounds: 120\n")
    out = tmp_path / "out"
    res = cli("simulate", "media", cfg, "--out", out, "--workers", "1")
    assert res.exit_code == 0, res.output
    data = json.loads((out / "results.json").read_text())
    assert data["glitches_total"] == 0
    assert set(data["results"]) == {"famish", "clust-req"}
    assert set(data["results"]["famish"]) == {"10.0", "30.0"}
    assert (out / "report.html").stat().st_size > 1000


def test_simulate_media_cli_bad_input(cli, tmp_path: Path):
    cfg = tmp_path / "bad.yaml"
    cfg.write_text("lambdas: [5]\nc_size_sd: -1\n")
    res = cli("simulate", "media", cfg, "--out", tmp_path / "o")
    assert res.exit_code == 2
    assert "c_size_sd" in res.output
    res = cli("simulate", "media", tmp_path / "missing.yaml", "--out", tmp_path / "o")
    assert res.exit_code == 2
    assert "cannot read" in res.output


@pytest.mark.parametrize("workers", ["0", "-3", "100000"])
def test_workers_out_of_range_exit_2(cli, tmp_path: Path, workers):
    """`reproduce --workers 0` was a ValueError traceback from the process
    pool; `simulate media --workers 0` ran as if it had not been given;
    --workers 100000 started a process per queued point."""
    cfg = tmp_path / "study.yaml"
    cfg.write_text("algorithms: [sptf]\nlambdas: [10]\nruns: 1\nrounds: 10\n")
    for args in (
        ["simulate", "media", cfg, "--out", tmp_path / "o"],
        ["reproduce", "sandsta", "--quick", "--out", tmp_path / "r"],
    ):
        res = cli(*args, "--workers", workers)
        assert res.exit_code == 2, res.output
        assert "--workers: " in res.output and f"got {workers}" in res.output


def test_an_unreachable_scheduler_is_named():
    """A Dask scheduler address that is not one was an OSError/ValueError traceback."""
    from seekplan.sweep import Executor

    with pytest.raises(SeekplanError, match="--scheduler ::::: cannot connect"):
        Executor(scheduler="::::").map(abs, [1, 2], "points", quiet=True)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """The reproduction at a tiny scale: one run of 60 rounds, two rates."""
    out = tmp_path_factory.mktemp("balafoutis")
    return out, balafoutis.reproduce(out, True, Executor(1), 1, 60, [10.0, 60.0], 30)


def test_reproduction_structure_at_tiny_scale(tiny):
    tmp_path, res = tiny
    data = json.loads((tmp_path / "results.json").read_text())
    assert data == json.loads(to_json(res, nan_as_null=True))
    for name, fig in balafoutis.FIGURES.items():
        per = data["figures"][name]["algorithms"]
        assert set(per) == set(fig["algorithms"])
        for series in per.values():
            assert set(series) == {"10.0", "60.0"}
            for point in series.values():
                assert {"mean_response_s", "fairness", "saturated"} <= set(point)
    assert data["glitches_total"] == 0
    assert 0.35 < data["c_fraction_n25"] < 0.6
    assert set(data["figures"]["fig3"]["improvement_pct"]) == {
        str(w) for w in balafoutis.FIG3_WIDTHS
    }
    ids = [c["id"] for c in data["claims"]]
    assert len(ids) == len(set(ids)) >= 10
    for c in data["claims"]:
        keys = {"id", "text", "holds", "evidence"}
        assert set(c) == (keys if c["holds"] else keys | {"mechanism"})
        assert isinstance(c["holds"], bool) and c["evidence"]
    glitch = next(c for c in data["claims"] if c["id"] == "no-glitches")
    assert glitch["holds"]
    assert (tmp_path / "report.html").exists()


def test_claims_follow_the_numbers(tiny):
    res = json.loads(json.dumps(tiny[1]))
    res["glitches_total"] = 3
    assert not next(c for c in balafoutis._claims(res) if c["id"] == "no-glitches")["holds"]
    res["c_fraction_n25"] = 0.9
    frac = next(c for c in balafoutis._claims(res) if c["id"] == "scan-25-takes-45pct")
    assert not frac["holds"]


def test_every_failing_claim_names_a_measured_mechanism(tiny):
    """Issue 14 item 5: each finding that does not hold says why, with a
    number from the run; a finding forced to fail gets one too."""
    claims = tiny[1]["claims"]
    assert any(not c["holds"] for c in claims)
    for c in claims:
        if not c["holds"]:
            assert re.search(r"\d", c["mechanism"]), c
    assert "Where we differ, and why" in (tiny[0] / "report.html").read_text()
    res = json.loads(json.dumps(tiny[1]))
    res["glitches_total"] = 3
    forced = explain(res, balafoutis._claims(res))
    glitch = next(c for c in forced if c["id"] == "no-glitches")
    assert "3 glitches" in glitch["mechanism"]


def test_every_claim_has_a_mechanism_that_runs_on_any_results(tiny):
    """A claim cannot fail without a way to say why: every claim id has a
    mechanism, and each computes a line with a number from the tiny run."""
    res = tiny[1]
    assert {c["id"] for c in res["claims"]} == set(MECHANISMS)
    for cid, why in MECHANISMS.items():
        assert re.search(r"\d", why(res)), cid


def test_a_study_that_is_not_a_mapping_names_its_file_once():
    with pytest.raises(SeekplanError) as e:
        parse_study([1, 2], "study.yaml")
    assert str(e.value) == "study.yaml: expected a mapping of settings, got list"


def test_glitches_are_explained_on_stderr_and_in_the_report(cli, tmp_path: Path):
    # Too many streams for one round: C-requests miss whatever the order,
    # and the run says so rather than only counting them.
    cfg = tmp_path / "over.yaml"
    cfg.write_text("c_requests: 2000\nrounds: 3\nruns: 1\nlambdas: [10]\nalgorithms: [sptf]\n")
    res = cli("simulate", "media", cfg, "--out", tmp_path / "o", "--workers", "1")
    assert res.exit_code == 0, res.output
    assert "warning:" in res.stderr and "missed their round" in res.stderr
    assert "missed their round" in (tmp_path / "o" / "report.html").read_text()
    ok = tmp_path / "ok.yaml"
    ok.write_text("rounds: 50\nruns: 1\nlambdas: [10]\nalgorithms: [sptf]\n")
    res = cli("simulate", "media", ok, "--out", tmp_path / "p", "--workers", "1")
    assert res.exit_code == 0 and "warning" not in res.stderr


def test_a_rate_beyond_the_queue_limit_saturates_at_once(tmp_path: Path):
    # lambda = 1e6 put a million D-requests in the first round's queue and
    # hung scheduling it; now the run stops as saturated before that round.
    import time

    study = parse_study(
        {"lambdas": [1e6], "rounds": 100, "runs": 1, "algorithms": ["sptf", "ci-opt"]}, "t"
    )
    started = time.monotonic()
    for algo in study.algorithms:
        r = simulate_run(study.core_config(1e6, 0), algo)
        assert r["saturated"] and r["rounds"] <= 1, r
    assert time.monotonic() - started < 30


def test_the_media_report_says_what_each_plot_shows(tmp_path: Path):
    from seekplan.media.report import what_it_shows

    def point(response: float, saturated: bool = False) -> dict:
        return {"d_mean_response_s": response, "fairness": 0.5, "saturated": saturated}

    per = {
        "sptf": {"10": point(0.2), "30": point(0.3), "60": point(0.0, True)},
        "scan": {"10": point(0.4), "30": point(0.9), "60": point(2.0)},
    }
    text = what_it_shows(per, "d_mean_response_s", lower_is_better=True)
    assert "At lambda 30, the heaviest load no algorithm saturated at, sptf has the lowest" in text
    assert "0.3, and scan the highest, 0.9" in text
    assert "Saturated (left out of the plot): sptf from lambda 60." in text
