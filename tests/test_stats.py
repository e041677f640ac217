"""The confidence intervals the reproductions judge findings with."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as sp

from seekplan.experiments.stats import mean_ci, ratio_ci, t975


@pytest.mark.parametrize("df", [1, 2, 4, 9, 29, 30])
def test_t_table_matches_scipy(df):
    assert t975(df) == pytest.approx(sp.t.ppf(0.975, df), abs=1e-3)


def test_beyond_the_table_the_normal_quantile():
    assert t975(200) == 1.96
    with pytest.raises(ValueError):
        t975(0)


def test_mean_ci_matches_scipy_on_five_seeds():
    xs = [3.0, 4.5, 2.0, 5.5, 4.0]
    ci = mean_ci(xs)
    lo, hi = sp.t.interval(0.95, len(xs) - 1, loc=sum(xs) / 5, scale=sp.sem(xs))
    assert (ci.lo, ci.hi) == pytest.approx((lo, hi), rel=1e-3)
    assert not ci.excludes(ci.mean) and ci.excludes(hi + 1)


@given(
    st.lists(st.floats(0.1, 1e6), min_size=2, max_size=8),
    st.floats(0.01, 100),
)
def test_a_constant_paired_ratio_has_a_point_interval(base, factor):
    ci = ratio_ci([b * factor for b in base], base)
    assert ci.mean == pytest.approx(factor, rel=1e-9)
    assert ci.lo == pytest.approx(factor, rel=1e-6) and ci.hi == pytest.approx(factor, rel=1e-6)


@given(st.lists(st.tuples(st.floats(0.1, 1e6), st.floats(0.1, 1e6)), min_size=2, max_size=8))
def test_ratio_interval_contains_its_geometric_mean(pairs):
    a = [p[0] for p in pairs]
    b = [p[1] for p in pairs]
    ci = ratio_ci(a, b)
    geo = math.exp(sum(math.log(x / y) for x, y in pairs) / len(pairs))
    assert ci.lo <= ci.mean * (1 + 1e-9) and ci.mean <= ci.hi * (1 + 1e-9)
    assert ci.mean == pytest.approx(geo, rel=1e-9)


def test_paired_samples_must_match():
    with pytest.raises(ValueError):
        ratio_ci([1.0], [1.0, 2.0])
