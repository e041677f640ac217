"""How numbers and durations read for people, in every output: the CLI,
reports and the status page."""

from __future__ import annotations

import math


def number(v: float) -> str:
    """A number for people: thousands separators, four significant digits,
    never an exponent (0.0000123, not 1.23e-05), and "–" for a missing one."""
    if math.isnan(v):
        return "–"
    if math.isinf(v):
        return "∞" if v > 0 else "-∞"
    if v == 0 or abs(v) >= 1e4:
        return f"{v:,.0f}"
    if abs(v) >= 1:
        return f"{v:,.4g}" if abs(v) >= 1e3 else f"{v:.4g}"
    decimals = 3 - math.floor(math.log10(abs(v)))
    return f"{v:.{decimals}f}".rstrip("0").rstrip(".")


def duration(seconds: float) -> str:
    """Seconds as a person reads them: 0.0437 s, 42 s, 6 min 25 s, 2 h 27 min."""
    if seconds < 59.5:
        return f"{seconds:.3g} s"
    s = round(seconds)
    if s < 3600:
        return f"{s // 60} min {s % 60} s"
    return f"{s // 3600} h {s % 3600 // 60} min"
