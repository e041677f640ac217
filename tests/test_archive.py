"""The archive simulation from Python and the CLI: configs, errors, the
Blue Waters reproduction on a tiny scale, and its sweep on a Dask cluster."""

from __future__ import annotations

import inspect
import json
import re
from pathlib import Path

import pytest
from dask.distributed import LocalCluster

from seekplan.archive import parse_config, simulate
from seekplan.errors import SeekplanError
from seekplan.experiments import EXPERIMENTS, bluewaters, runner
from seekplan.sweep import Executor, run_points

TINY = """
policy: {policy}
block_bytes: 16000000
platform: {{movers: 3}}
workload:
  rate_per_hour: {rate}
  requests: 120
  warmup_s: 0
  min_bytes: 10000000
  max_bytes: 1000000000
  initial_files: 100
"""


def _write(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "archive.yaml"
    p.write_text(text)
    return p


@pytest.mark.parametrize("policy", ["rait", "parallel", "vertical", "hetero"])
def test_simulate_archive_cli_writes_metrics(cli, tmp_path, policy):
    cfg = _write(tmp_path, TINY.format(policy=policy, rate=30))
    r = cli("simulate", "archive", cfg, "--out", tmp_path / "out")
    assert r.exit_code == 0, r.output
    m = json.loads((tmp_path / "out" / "metrics.json").read_text())
    assert m["requests"] == 120
    assert m["config"]["policy"] == policy
    assert 0 < m["drive_utilisation"] <= 1
    assert m["mean_stretch"] >= 1
    assert m["mounts"] > 0


def test_higher_rate_never_lowers_the_backlog():
    base = {"policy": "vertical", "platform": {"movers": 2}, "block_bytes": 16_000_000}
    work = {
        "requests": 200,
        "warmup_s": 0,
        "min_bytes": 10**10,
        "max_bytes": 10**11,
        "initial_files": 50,
    }
    slow = simulate(parse_config({**base, "workload": {**work, "rate_per_hour": 1}}))
    fast = simulate(parse_config({**base, "workload": {**work, "rate_per_hour": 400}}))
    assert fast["weighted_response_s_per_gb"] > slow["weighted_response_s_per_gb"]
    assert fast["saturated"] and not slow["saturated"]


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        (TINY.format(policy="rait", rate=-3), "workload.rate_per_hour"),
        (
            TINY.format(policy="parallel", rate=3).replace("{movers: 3}", "{drives_per_mover: 6}"),
            "6+2 needs 8 drives on one mover but a mover has 6",
        ),
        (
            TINY.format(policy="vertical", rate=3)
            .replace("{movers: 3}", "{tapes: 2, tape_capacity_bytes: 1000000000}")
            .replace("max_bytes: 1000000000", "max_bytes: 5000000000"),
            "larger than the whole archive",
        ),
        (TINY.format(policy="raid", rate=3), "policy"),
        (TINY.format(policy="rait", rate=3) + "colour: blue\n", "colour"),
        (
            TINY.format(policy="rait", rate=3) + "scheduler: {algorithm: fifo}\n",
            'unknown scheduler "fifo"; choose one of paper',
        ),
        # Found in the run, not by the checks: still named with the file.
        (TINY.format(policy="rait", rate="1e-300"), "archive.yaml: invalid workload.duration_s"),
    ],
)
def test_bad_configs_exit_2_naming_the_field(cli, tmp_path, text, needle):
    r = cli("simulate", "archive", _write(tmp_path, text), "--out", tmp_path / "out")
    assert r.exit_code == 2
    assert needle in r.output


def _tiny_run(tmp_path: Path, scheduler: str | None = None) -> dict:
    return bluewaters.run(
        tmp_path,
        quick=True,
        executor=Executor(1, scheduler),
        days=1,
        scale=3,
        min_requests=20,
    )


def test_bluewaters_reproduction_structure_and_claims(tmp_path):
    res = _tiny_run(tmp_path)
    saved = json.loads((tmp_path / "results.json").read_text())
    assert saved["claims"] == res["claims"]
    assert (tmp_path / "report.html").exists()
    figs = saved["figures"]
    assert {"fig5", "fig6", "fig7", "fig8", "fig9", "fig10", "fig11"} <= set(figs)
    for fig in figs.values():
        assert fig["metric"] == "weighted_response_s_per_gb"
        for series in fig["series"].values():
            assert [p["value"] for p in series] == fig["values"]
            assert all(p["weighted_response_s_per_gb"] > 0 for p in series)
    assert set(figs["fig11"]["series"]) == {"rait", "parallel", "vertical", "hetero"}
    ids = [c["id"] for c in saved["claims"]]
    assert len(ids) == len(set(ids)) >= 8
    for c in saved["claims"]:
        assert set(c) == {"id", "text", "holds", "evidence"}
        assert isinstance(c["holds"], bool) and c["evidence"]


def test_every_reproduction_takes_an_executor():
    for name in EXPERIMENTS:
        params = inspect.signature(runner(name)).parameters
        assert list(params)[:3] == ["out_dir", "quick", "executor"], name


def test_reproduce_help_lists_every_paper_with_its_run_time(cli):
    r = cli("reproduce", "--help")
    assert r.exit_code == 0
    text = " ".join(r.output.split())
    for name, rep in EXPERIMENTS.items():
        assert f"{name}: {rep.paper}" in text, name
        assert rep.quick_s > 0 and rep.full_s > 0, name
    assert "--quick ~12 s, full ~46 s" in text  # sandsta, as measured
    r = cli("reproduce", "no-such-paper", "--out", "x")
    assert r.exit_code == 2 and "choose one of" in r.output


def _square(x: int) -> int:
    return x * x


def test_sweep_on_a_local_dask_cluster_matches_local_run():
    with LocalCluster(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None
    ) as cluster:
        points = [
            (
                "vertical",
                "rate_per_hour",
                r,
                {"min_bytes": 10**7, "max_bytes": 10**9},
                1,
                2,
                86_400.0,
                0.0,
            )
            for r in (10.0, 100.0)
        ]
        remote = run_points(bluewaters._point, points, scheduler=cluster.scheduler_address)
        assert remote == run_points(bluewaters._point, points, workers=1)
        assert run_points(_square, [1, 2, 3], scheduler=cluster.scheduler_address) == [1, 4, 9]


def test_the_default_platform_is_the_catalogued_t10000b():
    named = parse_config({"platform": {"drive": "t10000b"}})
    assert named.data["platform"] == parse_config({}).data["platform"]


def test_a_platform_from_catalogued_drive_and_library_names():
    cfg = parse_config({"platform": {"drive": "ts1170", "library": "sl8500", "load_s": 9}})
    p = cfg.data["platform"]
    assert p["tape_capacity_bytes"] == 50 * 10**12 and p["drive_rate_bps"] == 400e6
    assert p["robot_arms"] == 4 and p["robot_s"] == 12.5
    assert p["load_s"] == 9  # the config's own figure wins
    assert "drive" not in p and "library" not in p
    ts4500 = parse_config({"platform": {"library": "ts4500"}}).data["platform"]
    assert ts4500["robot_arms"] == 2 and ts4500["robot_s"] == 6.5


@pytest.mark.parametrize(
    ("platform", "needle"),
    [
        ({"drive": "t9000"}, "platform.drive: unknown drive 't9000'"),
        ({"drive": "dlt4000-t3"}, "platform.drive: unknown drive 'dlt4000-t3'"),
        ({"library": 3}, "platform.library: unknown library 3"),
    ],
)
def test_unknown_hardware_names_are_named(platform, needle):
    with pytest.raises(SeekplanError, match=re.escape(needle)):
        parse_config({"platform": platform})
