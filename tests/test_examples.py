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
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    # The report says what the run shows from its own numbers.
    page = (tmp_path / "report.html").read_text()
    assert f"{metrics['requests']:,} archive requests" in page and "HETERO" in page
    assert "mean response (s)" in page and "nan" not in page


def test_the_three_simulators_share_load_config_and_simulate():
    # One shape for recall, archive and media (issue 38): load_config(path)
    # gives a checked config, simulate(config) a dict of plain results.
    import pytest

    from seekplan import archive, media, recall

    for module, name in ((recall, "recall.yaml"), (archive, "archive.yaml"), (media, None)):
        path = EXAMPLES / (name or "study.yaml")
        config = module.load_config(path)
        if module is media:
            config = media.parse_study({**config.to_dict(), "rounds": 200, "runs": 1}, "test")
        result = module.simulate(config)
        assert isinstance(result, dict) and result, module.__name__
        json.dumps(result)  # plain data
    with pytest.warns(DeprecationWarning, match="load_config"):
        media.load_study(EXAMPLES / "study.yaml")
    with pytest.warns(DeprecationWarning, match="simulate_run"):
        one = media.simulate(media.MediaStudy().core_config(10.0, 0), "sptf")
    assert one["rounds"] > 0


def test_simulate_refuses_what_is_not_a_config():
    import pytest

    from seekplan import archive, media, recall
    from seekplan.errors import SeekplanError

    for module in (recall, archive, media):
        for bad in (None, "examples/recall.yaml", 3):
            with pytest.raises(SeekplanError):
                module.simulate(bad)  # type: ignore[arg-type]


def test_media_simulate_refuses_its_two_shapes_mixed():
    import pytest

    from seekplan import media
    from seekplan.errors import SeekplanError

    study = media.load_config(EXAMPLES / "study.yaml")
    with pytest.raises(SeekplanError, match="an Executor, not an algorithm"):
        media.simulate(study, "sptf")  # type: ignore[arg-type]
    with (
        pytest.warns(DeprecationWarning),
        pytest.raises(SeekplanError, match="needs an algorithm name"),
    ):
        media.simulate(media.MediaStudy().core_config(10.0, 0))
