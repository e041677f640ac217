"""Shared fixtures: a runner for the CLI and small request files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings
from typer.testing import CliRunner

from seekplan.cli import command_app

# `./dev test` (and so CI) draws the same Hypothesis examples every run, so a
# red run is reproducible; `./dev fuzz` draws fresh ones.
settings.register_profile("ci", derandomize=True, database=None)
settings.register_profile("fuzz", derandomize=False)
settings.load_profile(os.environ.get("SEEKPLAN_HYPOTHESIS", "default"))


@pytest.fixture
def cli():
    """Invoke `seekplan ARGS...`; returns the click Result."""
    runner = CliRunner()

    def invoke(*args: str):
        argv = [str(a) for a in args]
        # The app `seekplan` itself runs (main): only the command named, so
        # a call does not build every command's options (~40 ms each).
        return runner.invoke(command_app(argv), argv)

    return invoke


@pytest.fixture
def requests_csv(tmp_path: Path) -> Path:
    """A 40-request batch on an MLR1 tape."""
    from seekplan.workload import uniform_batch

    batch = uniform_batch(396_000, 40, 32768, 5)
    p = tmp_path / "req.csv"
    p.write_text("id,block,size\n" + "".join(f"{r.id},{r.block},{r.size}\n" for r in batch))
    return p


@pytest.fixture(scope="session")
def postgres():
    """A throwaway PostgreSQL cluster for the whole session (serve tests)."""
    from serve_support import Postgres

    pg = Postgres()
    yield pg
    pg.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh database: a SQLite file, or a new database on the cluster."""
    if request.param == "sqlite":
        return str(tmp_path / "stage.db")
    return request.getfixturevalue("postgres").fresh()
