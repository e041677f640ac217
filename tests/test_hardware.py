"""One library hardware: catalog names resolve the same way for recall and
the staging service, and the service's simulated backend times its steps by
the figures the core's recall library runs on."""

from __future__ import annotations

from pathlib import Path

import pytest

from seekplan.archive.config import parse_config as archive_config
from seekplan.catalog import load_catalog
from seekplan.errors import SeekplanError
from seekplan.hardware import recall_hardware
from seekplan.recall.config import parse_config
from seekplan.serve.backend import Clock, SimulatedBackend
from seekplan.serve.config import StageConfig


def test_the_core_describes_the_default_recall_library() -> None:
    hw = recall_hardware(parse_config({}).data)
    assert hw == {
        "drives": 12,
        "drive": {
            "rate_bps": 252e6,
            "load_s": 13.0,
            "thread_s": 0.0,
            "unload_s": 23.0,
            "rewind_s": 97.0,
        },
        "robot": {"arms": 1, "fetch_s": 0.0, "return_s": 0.0},
    }


def test_the_service_names_a_library_as_a_recall_config_does() -> None:
    recall = parse_config({"library": {"robot": "sl8500", "rate_mb_s": 300}})
    stage = StageConfig(library={"robot": "sl8500", "rate_mb_s": 300}, catalog="c.csv")
    assert recall_hardware(stage.recall()) == recall_hardware(recall.data)
    assert recall_hardware(recall.data)["robot"] == {"arms": 4, "fetch_s": 12.5, "return_s": 12.5}
    with pytest.raises(SeekplanError, match="library.robot: unknown library 'nope'"):
        StageConfig(library={"robot": "nope"}, catalog="c.csv").recall()


def test_the_simulated_backend_runs_on_the_cores_figures(tmp_path: Path) -> None:
    stage = StageConfig(
        library={"rate_mb_s": 300, "load_s": 7, "thread_s": 3, "robot": {"arms": 2}},
        catalog="c.csv",
    )
    recall = stage.recall()
    read_model = recall["library"]["read_model"]
    backend = SimulatedBackend(
        recall_hardware(recall), read_model, None, Clock(1.0), tmp_path, 10**12
    )
    try:
        assert backend.rate_bps == 300e6
        assert backend.drive["load_s"] + backend.drive["thread_s"] == 10.0
    finally:
        backend.close()


def test_the_default_drives_are_the_catalogs() -> None:
    """The core keeps its defaults in code (it reads no files); they are the
    catalog's T10000D (recall) and T10000B (archive) figures."""
    drive = recall_hardware(parse_config({}).data)["drive"]
    m = load_catalog()["t10000d"].mechanics
    assert m is not None
    assert drive == {
        "rate_bps": m.rate_bps,
        "load_s": m.load_s,
        "thread_s": 0.0,
        "unload_s": m.unload_s,
        "rewind_s": m.rewind_s,
    }
    named = archive_config({"platform": {"drive": "t10000b"}})
    assert named.data == archive_config({}).data
