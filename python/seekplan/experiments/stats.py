"""Means with 95 % confidence intervals over seeds, for judging findings
beyond the noise of a handful of runs."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

# Two-sided 95 % quantiles of Student's t, by degrees of freedom 1-30
# (standard table values; tests/test_stats.py checks them against scipy).
_T975 = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
]  # fmt: skip


def t975(df: int) -> float:
    """The 97.5 % quantile of Student's t with ``df`` degrees of freedom
    (the normal's 1.96 beyond the table)."""
    if df < 1:
        raise ValueError("a confidence interval needs at least two samples")
    return _T975[df - 1] if df <= len(_T975) else 1.96


@dataclass(frozen=True)
class Interval:
    """A mean and its 95 % confidence interval."""

    mean: float
    lo: float
    hi: float

    def excludes(self, value: float) -> bool:
        """Whether ``value`` lies outside the interval."""
        return value < self.lo or value > self.hi

    def __str__(self) -> str:
        return f"{self.mean:.3g} [{self.lo:.3g}, {self.hi:.3g}]"


def mean_ci(xs: Sequence[float]) -> Interval:
    """Mean of ``xs`` with the t interval (a point if only one sample)."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return Interval(m, m, m)
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    h = t975(n - 1) * sd / math.sqrt(n)
    return Interval(m, m - h, m + h)


def ratio_ci(a: Sequence[float], b: Sequence[float]) -> Interval:
    """Geometric mean of the paired ratios a[i]/b[i] with its interval: the
    t interval of the log ratios, exponentiated. Pairs share a seed, so the
    common random numbers cancel out of the comparison."""
    if len(a) != len(b):
        raise ValueError("paired samples differ in length")
    logs = [math.log(max(x, 1e-300) / max(y, 1e-300)) for x, y in zip(a, b, strict=True)]
    ci = mean_ci(logs)
    return Interval(math.exp(ci.mean), math.exp(ci.lo), math.exp(ci.hi))
