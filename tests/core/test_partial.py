"""Partial AUC-PR (against fine numerical integration) and the deployment prevalence (against
explicit reweighting of the negatives)."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import auc_pr, pr_curve
from prcurve._core._area import AUC_PR_METHODS
from prcurve._core._partial import PARTIAL_METHODS


def _data(seed, n=300, ties=True):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.25
    s = rng.normal(size=n) + 1.2 * y
    return y, (np.round(s, 1) if ties else s)


def _midpoints(a, b, m=400_001):
    edges = np.linspace(a, b, m)
    return (edges[1:] + edges[:-1]) / 2, (b - a) / (m - 1)


def numeric_partial(curve, method, a, b):
    """Midpoint-rule integral of each estimator's curve, evaluated point by point."""
    r, h = _midpoints(a, b)
    if method == "davis_goadrich":
        # the interpolated curve as drawn (upper value at drops; a null set for the integral)
        return float(curve.interpolate(r)[1].sum() * h)
    rec, prec = curve.recall, curve.precision
    if method == "average_precision":
        # step: precision of the first point whose recall reaches r
        return float(prec[np.searchsorted(rec, r, side="left")].sum() * h)
    # polylines through the point list
    start = prec[0] if method == "trapezoid" else 1.0
    xs, ys = np.concatenate([[0.0], rec]), np.concatenate([[start], prec])
    i = np.searchsorted(xs, r, side="left")  # segment (xs[i-1], xs[i]] holding r
    x0, x1, y0, y1 = xs[i - 1], xs[i], ys[i - 1], ys[i]
    return float((y0 + (r - x0) * (y1 - y0) / (x1 - x0)).sum() * h)


@pytest.mark.parametrize("method", PARTIAL_METHODS)
@pytest.mark.parametrize(("a", "b"), [(0.0, 1.0), (0.1, 0.35), (0.5, 0.9), (0.0, 0.05)])
def test_partial_area_matches_numerical_integration(method, a, b):
    y, s = _data(1)
    curve = pr_curve(y, s)
    exact = curve.auc(method, recall_range=(a, b))
    assert exact == pytest.approx(numeric_partial(curve, method, a, b), abs=2e-6)
    assert curve.auc(method, recall_range=(a, b), normalize=True) == pytest.approx(exact / (b - a))


@pytest.mark.parametrize("method", PARTIAL_METHODS)
def test_full_range_and_additivity(method):
    y, s = _data(2, ties=False)
    curve = pr_curve(y, s, sample_weight=np.linspace(0.5, 2, y.shape[0]))
    assert curve.auc(method, recall_range=(0, 1)) == pytest.approx(curve.auc(method), rel=1e-12)
    cuts = np.sort(np.random.default_rng(0).random(5))
    edges = np.concatenate([[0.0], cuts, [1.0]])
    parts = [curve.auc(method, recall_range=(lo, hi)) for lo, hi in itertools.pairwise(edges)]
    assert sum(parts) == pytest.approx(curve.auc(method), rel=1e-12)
    assert all(p >= 0 for p in parts)


def test_cut_dg_segment_is_exact_on_one_segment():
    # one Davis-Goadrich segment from (TP, FP) = (5, 5) to (10, 30), n_pos = 20 (D&G Table 1)
    from scipy.integrate import quad

    from prcurve._core._interpolation import dg_precision

    y = np.array([1] * 20 + [0] * 30)
    s = np.concatenate([[3] * 5, [2] * 5, [1] * 10, [3] * 5, [2] * 25, [1] * 0])
    curve = pr_curve(y, s)
    a, b = 0.3, 0.45  # inside the segment TP 5..10

    def prec(r):
        return float(dg_precision(5, 5, 10, 30, r * 20))

    assert curve.auc("davis_goadrich", recall_range=(a, b)) == pytest.approx(
        quad(prec, a, b, epsabs=1e-13)[0], rel=1e-10
    )


def test_auc_pr_options_match_the_curve():
    y, s = _data(3)
    curve = pr_curve(y, s)
    for method in PARTIAL_METHODS:
        assert auc_pr(y, s, method=method, recall_range=(0.2, 0.7), normalize=True) == (
            curve.auc(method, recall_range=(0.2, 0.7), normalize=True)
        )


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"recall_range": (0.5, 0.2)}, ValueError, r"recall_range: expected low < high"),
        ({"recall_range": (0.5, 1.2)}, ValueError, r"recall_range: expected both ends in \[0, 1\]"),
        ({"recall_range": 0.5}, TypeError, "recall_range: expected a pair"),
        ({"recall_range": ("a", 1)}, TypeError, "recall_range: expected a pair"),
        (
            {"recall_range": (0, 1), "method": "interpolated_median"},
            ValueError,
            "method: expected one of .* with recall_range",
        ),
        ({"normalize": True}, ValueError, "normalize: expected False without recall_range"),
        ({"recall_range": (0, 1), "normalize": 1}, TypeError, "normalize: expected True or False"),
        ({"prevalence": 0.0}, ValueError, r"prevalence: expected a number in \(0, 1\)"),
    ],
)
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        auc_pr([0, 1, 1, 0], [0.1, 0.5, 0.7, 0.2], **kwargs)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 10_000),
    st.floats(1e-4, 0.999),
    st.booleans(),
)
def test_prevalence_equals_reweighting_the_negatives(seed, pi, weighted):
    rng = np.random.default_rng(seed)
    n = int(rng.integers(3, 60))
    y = rng.random(n) < 0.5
    y[:2] = [True, False]
    s = rng.integers(0, 8, n)
    w = rng.uniform(0.1, 3, n) if weighted else np.ones(n)
    curve = pr_curve(y, s, sample_weight=w if weighted else None)
    shifted = curve.at_prevalence(pi)
    factor = w[y].sum() * (1 - pi) / (pi * w[~y].sum())
    explicit = pr_curve(y, s, sample_weight=np.where(y, w, w * factor))
    assert shifted.prevalence == pytest.approx(pi, rel=1e-12)
    np.testing.assert_array_equal(shifted.thresholds, explicit.thresholds)
    np.testing.assert_allclose(shifted.recall, curve.recall)
    np.testing.assert_allclose(shifted.fp / shifted.n_neg, curve.fp / curve.n_neg)  # FPR kept
    np.testing.assert_allclose(shifted.precision, explicit.precision, rtol=1e-12)
    for method in AUC_PR_METHODS:
        a = shifted.auc(method)
        assert a == pytest.approx(explicit.auc(method), rel=1e-10, abs=1e-300)
        sw = w if weighted else None
        assert auc_pr(y, s, sample_weight=sw, method=method, prevalence=pi) == pytest.approx(
            a, rel=1e-12
        )


def test_chance_line_at_the_deployment_prevalence():
    rng = np.random.default_rng(5)
    y = rng.random(200_000) < 0.5
    s = rng.random(200_000)  # uninformative scores
    for pi in (0.01, 0.3):
        shifted = pr_curve(y, s).at_prevalence(pi)
        assert shifted.prevalence == pytest.approx(pi)
        assert shifted.auc("davis_goadrich") == pytest.approx(pi, rel=0.05)
        assert shifted.precision[-1] == pytest.approx(pi)


@pytest.mark.parametrize("pi", [5e-324, 1e-320])
def test_prevalence_whose_weight_overflows_is_an_error(pi):
    curve = pr_curve([1, 0, 1, 0], [4, 3, 2, 1])
    with pytest.raises(ValueError, match="prevalence: expected a prevalence whose negative weight"):
        curve.at_prevalence(pi)
    with pytest.raises(ValueError, match="prevalence: expected a prevalence whose negative weight"):
        auc_pr([1, 0, 1, 0], [4, 3, 2, 1], prevalence=pi)


@settings(max_examples=60, deadline=None)
@given(
    st.floats(1e-300, 1 - 1e-16),
    st.sampled_from([1e-300, 1e-3, 1.0, 1e200]),
)
def test_extreme_prevalence_and_weights_give_no_nan(pi, scale):
    y = np.array([1, 0, 1, 0, 1, 0])
    s = np.array([6, 5, 4, 4, 2, 1])
    w = np.array([1, 2, 3, 1, 2, 5]) * scale
    try:
        curve = pr_curve(y, s, sample_weight=w).at_prevalence(pi)
    except ValueError as exc:
        assert "prevalence: expected a prevalence whose negative weight" in str(exc)
        return
    assert np.all(np.isfinite(curve.precision)) and np.all(curve.precision >= 0)
    for method in AUC_PR_METHODS:
        assert 0 <= curve.auc(method) <= 1
