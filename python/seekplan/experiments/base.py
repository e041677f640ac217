"""What every reproduction shares once its sweep has run and its claims are
judged: ``results.json``, and a report that opens the same way (what was
run, the command that runs it again, the paper's findings). Each
reproduction then adds its own figures and tables and writes the report.

The shape of a reproduction: ``run(out_dir, quick, executor)`` builds its
points, runs them with ``executor.map``, computes its claims
(:func:`seekplan.experiments.claims.claim`), and calls :func:`publish`."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from seekplan.io import write_json
from seekplan.report import Report


def publish(
    out_dir: Path,
    results: dict[str, Any],
    title: str,
    command: str,
    intro: str | None = None,
) -> Report:
    """Writes ``results.json`` (which must hold ``claims``) and returns the
    report with its head written: ``intro``, ``command``, the findings.
    The caller adds its sections and calls ``write()``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    write_json(out_dir / "results.json", results)
    rep = Report(title, out_dir)
    if intro:
        rep.text(intro)
    rep.code(command)
    rep.heading("The paper's findings")
    rep.claims(results["claims"])
    return rep
