"""Gain and lift curves: the PR counts by depth, ties in random order; fuzzed for NaN."""

import dataclasses
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import (
    GainCurve,
    LiftCurve,
    UndefinedMetricWarning,
    average_precision_at_k,
    gain_curve,
    lift_curve,
    pr_curve,
    precision_at_k,
    recall_at_k,
)


def data(n=200, seed=0, ties=True):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.25
    s = rng.normal(size=n) + y
    return y, (np.round(s, 1) if ties else s), rng.uniform(0.2, 3.0, size=n)


@pytest.mark.parametrize("weighted", [False, True])
def test_points_are_the_pr_curve_by_depth(weighted):
    y, s, w = data()
    w = w if weighted else None
    pr = pr_curve(y, s, sample_weight=w)
    g, li = gain_curve(y, s, sample_weight=w), lift_curve(y, s, sample_weight=w)
    assert isinstance(g, GainCurve) and isinstance(li, LiftCurve)
    np.testing.assert_array_equal(g.thresholds, pr.thresholds)
    np.testing.assert_array_equal(g.gain, pr.recall)
    # precision / π against (TP/n₊)·(N/W) on mantissas: a few roundings apart
    np.testing.assert_allclose(li.lift, pr.precision / pr.prevalence, rtol=1e-14)
    # depth: rows with score >= threshold, counted directly
    np.testing.assert_array_equal(g.depth, [(s >= t).sum() for t in g.thresholds])
    np.testing.assert_array_equal(g.fraction, g.depth / 200)
    assert li.lift[-1] == pytest.approx(1.0, rel=1e-15)
    with pytest.raises(dataclasses.FrozenInstanceError):
        g.gain = g.gain  # type: ignore[misc]


@pytest.mark.parametrize("weighted", [False, True])
def test_readings_between_points_equal_the_top_k_expectations(weighted):
    y, s, w = data()
    w = w if weighted else None
    g, li = gain_curve(y, s, sample_weight=w), lift_curve(y, s, sample_weight=w)
    pi = li.prevalence
    ks = np.array([1, 2, 13, 20, 57, 100, 199, 200])
    np.testing.assert_allclose(
        g.gain_at(ks / 200), [recall_at_k(y, s, int(k), sample_weight=w) for k in ks], rtol=1e-13
    )
    np.testing.assert_allclose(
        li.lift_at(ks / 200),
        [precision_at_k(y, s, int(k), sample_weight=w) / pi for k in ks],
        rtol=1e-13,
    )
    assert li.top_decile_lift == pytest.approx(
        precision_at_k(y, s, 20, sample_weight=w) / pi, rel=1e-13
    )
    # at the points themselves the readings are the stored arrays
    np.testing.assert_allclose(g.gain_at(g.fraction), g.gain, rtol=1e-13)
    np.testing.assert_allclose(li.lift_at(li.fraction), li.lift, rtol=1e-13)
    assert g.gain_at(0.0) == 0.0 and g.gain_at(1.0) == pytest.approx(1.0, rel=1e-15)


def test_top_decile_lift_closed_form_without_ties():
    # 20 rows, 5 positives; the top 2 rows are 1 positive and 1 negative: lift = (1/2)/(5/20)
    y = [1, 0, 1, 1, 0, 1, 1] + [0] * 13
    s = np.arange(20, 0, -1)
    assert lift_curve(y, s).top_decile_lift == 2.0
    # perfect ranking: the top decile lift is 1/π, and gain reaches 1 at the prevalence
    y2 = [1] * 5 + [0] * 15
    assert lift_curve(y2, s).top_decile_lift == 4.0
    assert gain_curve(y2, s).gain_at(0.25) == 1.0


def test_lift_beyond_float64_is_inf_with_a_warning():
    # a positive of weight 1e-100 ranked first among weight 1e300: precision 1, π ≈ 1e-400
    y, s, w = [1, 0], [2.0, 1.0], [1e-100, 1e300]
    with pytest.warns(UndefinedMetricWarning, match=r"lift: the positives flagged first are "
                      r"so light .* returned as inf") as record:  # fmt: skip
        curve = lift_curve(y, s, sample_weight=w)
    assert record[0].filename == __file__  # points at the caller
    assert curve.lift[0] == np.inf and curve.lift[1] == pytest.approx(1.0)
    assert gain_curve(y, s, sample_weight=w).gain.tolist() == [1.0, 1.0]


def test_fraction_refused_with_a_clear_message():
    y, s, _ = data(20)
    with pytest.raises(ValueError, match=r"fraction: expected values in \(0, 1\], got 0\.0"):
        lift_curve(y, s).lift_at(0.0)
    with pytest.raises(ValueError, match=r"fraction: expected values in \[0, 1\], got 1\.5"):
        gain_curve(y, s).gain_at([0.5, 1.5])
    with pytest.raises(TypeError, match=r"fraction: expected numbers, got 'a'"):
        gain_curve(y, s).gain_at("a")


# spread within float64 once rescaled (wider spreads are refused by the shared validation)
weights = st.sampled_from([0.0, 1e-100, 1e-5, 1.0, 3.0, 1e5, 1e300])


@settings(max_examples=150, deadline=None)
@given(
    st.integers(2, 30).flatmap(
        lambda n: st.tuples(
            st.lists(st.booleans(), min_size=n, max_size=n),
            st.lists(st.sampled_from([-1e300, -1.0, 0.0, 0.5, 1e-300, 1e300]), min_size=n,
                     max_size=n),
            st.one_of(st.none(), st.lists(weights, min_size=n, max_size=n)),
        )
    ),
    st.floats(0.01, 0.99),
)  # fmt: skip
def test_fuzz_no_silent_nan(problem, x):
    y, s, w = problem
    keep = np.ones(len(y), bool) if w is None else np.asarray(w) > 0
    yk = np.asarray(y)[keep]
    if keep.sum() == 0 or yk.all() or not yk.any():
        return  # refused by the shared validation (one class), tested elsewhere
    n = int(keep.sum())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        curve = lift_curve(y, s, sample_weight=w)
        lifts = [*curve.lift, curve.lift_at(x), curve.top_decile_lift]
    assert not np.isnan(lifts).any()
    # inf only where the lift exceeds float64 (weights spread over ~1e400), and then loudly
    assert np.isinf(lifts).any() == bool(caught), (lifts, caught)
    assert all(issubclass(c.category, UndefinedMetricWarning) for c in caught)
    vals = [
        precision_at_k(y, s, x, sample_weight=w),
        recall_at_k(y, s, x, sample_weight=w),
        precision_at_k(y, s, n, sample_weight=w),
        gain_curve(y, s, sample_weight=w).gain_at(x),
    ]
    if w is None:
        vals.append(average_precision_at_k(y, s, n))
    assert all(np.isfinite(v) and v >= 0 for v in vals), vals
    assert vals[2] == pytest.approx(curve.prevalence, rel=1e-12)  # all flagged: the prevalence
    assert curve.lift[-1] == pytest.approx(1.0, rel=1e-14)
    assert vals[0] <= 1 + 1e-12 and vals[1] <= 1 + 1e-12
