"""A paper's finding checked against our runs."""

from __future__ import annotations

from typing import Any


def claim(cid: str, text: str, holds: bool, evidence: str) -> dict[str, Any]:
    """One entry of ``results.json``'s ``claims`` list."""
    return {"id": cid, "text": text, "holds": bool(holds), "evidence": evidence}
