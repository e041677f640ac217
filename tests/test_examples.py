"""The files under examples/ stay valid: each runs through its CLI verb."""

from __future__ import annotations

import json
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def test_example_requests_order(cli):
    r = cli("order", EXAMPLES / "requests.csv", "--drive", "mlr1", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["n"] == 50


def test_example_recall_config_runs(cli, tmp_path):
    r = cli("simulate", "recall", EXAMPLES / "recall.yaml", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    metrics = json.loads((tmp_path / "results.json").read_text())["metrics"]
    assert metrics["files_staged"] > 0 and metrics["mounts"] > 0


def test_example_archive_config_runs(cli, tmp_path):
    r = cli("simulate", "archive", EXAMPLES / "archive.yaml", "--out", tmp_path)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "metrics.json").exists()
