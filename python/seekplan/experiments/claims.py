"""A paper's finding checked against our runs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from seekplan.report import Report


def claim(cid: str, text: str, holds: bool, evidence: str) -> dict[str, Any]:
    """One entry of ``results.json``'s ``claims`` list."""
    return {"id": cid, "text": text, "holds": bool(holds), "evidence": evidence}


def report_failing(
    rep: Report, results: dict[str, Any], heading: str, why: Callable[[dict[str, Any]], str]
) -> None:
    """A section naming each finding that does not hold with ``why(claim)``
    (nothing when every finding holds)."""
    failing = [c for c in results["claims"] if not c["holds"]]
    if failing:
        rep.heading(heading)
        for c in failing:
            rep.text(f"{c['id']}: {why(c)}")
