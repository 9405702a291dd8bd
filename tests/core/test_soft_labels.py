"""Soft labels: each label is the probability of its instance being positive (PRROC semantics).

An instance with label ``p`` and weight ``w`` adds ``p·w`` to the positives and ``(1 − p)·w`` to
the negatives of its score (Keilwagen, Grosse & Grau 2014, PLoS ONE 9(3): e92209).  The
reference values are PRROC's own published test values (``tests/testthat/test-PR.R`` and
``test-ROC.R`` of the R package), for data drawn in R; R's generators are reproduced in
``_r_rng`` and checked first against PRROC's hard-label values.
"""

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import prcurve
from prcurve import auc_pr, evaluate_thresholds, pr_curve, roc_curve

from ..conftest import make_problem
from ._r_rng import RRandom

METHODS = (
    "average_precision",
    "davis_goadrich",
    "trapezoid",
    "lower_trapezoid",
    "interpolated_median",
)

# PRROC's values are printed to 10 decimals (rounding error <= 5e-11); the areas are sums of
# 200 float64 terms (error ~1e-14), so 1e-10 can only fail on a real difference.
PUBLISHED_TOL = 1e-10


def _prroc_soft_data():
    """``set.seed(113); scores <- c(rnorm(100, 2), rnorm(100, 0));
    wfg <- c(runif(100, 0.5, 1), runif(100, 0, 0.5))`` -- PRROC's weighted test data."""
    r = RRandom(113)
    scores = np.concatenate([r.rnorm(100, 2.0), r.rnorm(100, 0.0)])
    wfg = np.concatenate([r.runif(100, 0.5, 1.0), r.runif(100, 0.0, 0.5)])
    return wfg, scores


def test_r_stream_reproduces_prroc_hard_label_values():
    """The emulated R data give PRROC's published hard-label areas (set.seed(101)): the PR
    ``auc.integral`` 0.901869384113 (= the Davis–Goadrich integral) and the ROC area 0.9236."""
    r = RRandom(101)
    pos, neg = r.runif(100, 0.3, 1.0), r.runif(100, 0.0, 0.6)
    y = np.r_[np.ones(100), np.zeros(100)]
    area = auc_pr(y, np.r_[pos, neg], method="davis_goadrich")
    assert area == pytest.approx(0.901869384113, abs=PUBLISHED_TOL)
    r = RRandom(101)
    pos, neg = r.rnorm(100, 2.0), r.rnorm(100, 0.0)
    assert roc_curve(y, np.r_[pos, neg]).auc() == pytest.approx(0.9236, abs=PUBLISHED_TOL)


def test_soft_pr_area_equals_prroc_published_value():
    """PRROC: ``pr.curve(scores.class0 = scores, weights.class0 = wfg)$auc.integral`` is
    0.7053830324 (its test "value for weighted, random data")."""
    wfg, scores = _prroc_soft_data()
    area = auc_pr(wfg, scores, method="davis_goadrich", soft_labels=True)
    assert area == pytest.approx(0.7053830324, abs=PUBLISHED_TOL)
    curve = pr_curve(wfg, scores, soft_labels=True)
    assert curve.auc("davis_goadrich") == area
    assert curve.n_pos == pytest.approx(wfg.sum(), rel=1e-14)
    assert curve.n_neg == pytest.approx((1 - wfg).sum(), rel=1e-14)


def test_soft_roc_area_equals_prroc_published_value():
    """PRROC: ``roc.curve(scores.class0 = scores, weights.class0 = wfg)$auc`` is 0.7287332599."""
    wfg, scores = _prroc_soft_data()
    roc = roc_curve(wfg, scores, soft_labels=True)
    assert roc.auc() == pytest.approx(0.7287332599, abs=PUBLISHED_TOL)


def test_soft_counts_equal_brute_force_sums(rng):
    """TP(t) = Σ p_i w_i [s_i >= t] and FP(t) = Σ (1 − p_i) w_i [s_i >= t], summed exactly
    (math.fsum) at every distinct score; the engine's cumulative sums agree to rounding."""
    n = 400
    p = rng.random(n)
    p[:50] = 0.0
    p[50:100] = 1.0
    s = np.round(rng.normal(size=n) + p, 1)  # heavy ties
    w = rng.random(n) * 3 + 0.1
    curve = pr_curve(p, s, sample_weight=w, soft_labels=True)
    distinct = np.unique(s)[::-1]
    np.testing.assert_array_equal(curve.thresholds, distinct)
    tp = np.array([math.fsum(p[s >= t] * w[s >= t]) for t in distinct])
    fp = np.array([math.fsum((1 - p[s >= t]) * w[s >= t]) for t in distinct])
    # cumulative sums of n positive terms: relative error <= n * 2**-53 ~ 4.4e-14
    np.testing.assert_allclose(curve.tp, tp, rtol=1e-13)
    np.testing.assert_allclose(curve.fp, fp, rtol=1e-13)
    np.testing.assert_allclose(curve.precision, tp / (tp + fp), rtol=1e-13)
    np.testing.assert_allclose(curve.recall, tp / tp[-1], rtol=1e-13)


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("encoding", [bool, int, float])
def test_hard_labels_given_as_soft_give_the_ordinary_curve_exactly(rng, weights, ties, encoding):
    y, s, w = make_problem(rng, ties=ties, weights=weights)
    ordinary = pr_curve(y, s, sample_weight=w)
    soft = pr_curve(y.astype(encoding), s, sample_weight=w, soft_labels=True)
    for name in ("thresholds", "tp", "fp", "precision", "recall"):
        a, b = getattr(ordinary, name), getattr(soft, name)
        assert a.dtype == b.dtype, name
        np.testing.assert_array_equal(a, b, err_msg=name)
    assert (soft.n_pos, soft.n_neg) == (ordinary.n_pos, ordinary.n_neg)
    for method in METHODS:
        assert auc_pr(y.astype(encoding), s, sample_weight=w, method=method, soft_labels=True) == (
            ordinary.auc(method)
        )
    roc_soft = roc_curve(y.astype(encoding), s, sample_weight=w, soft_labels=True)
    roc = roc_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(roc_soft.fpr, roc.fpr)
    np.testing.assert_array_equal(roc_soft.tpr, roc.tpr)


def _split(p, s, w):
    """Each instance as a positive of weight p·w and a negative of weight (1 − p)·w."""
    w = np.ones_like(p) if w is None else w
    y = np.r_[np.ones(p.shape[0], bool), np.zeros(p.shape[0], bool)]
    return y, np.r_[s, s], np.r_[p * w, (1 - p) * w]


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.one_of(st.sampled_from([0.0, 1.0]), st.floats(1e-6, 1.0)),
            st.integers(0, 6),
            st.floats(0.25, 4.0),
        ),
        min_size=2,
        max_size=40,
    ),
    weighted=st.booleans(),
)
def test_splitting_an_instance_into_a_positive_and_a_negative_gives_the_same_curve(rows, weighted):
    """An instance with label p (weight w) and the pair (label 1, weight p·w), (label 0,
    weight (1 − p)·w) add the same masses to the same score: the curves are identical."""
    p = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows], dtype=np.float64) / 2  # few distinct scores: ties
    w = np.array([r[2] for r in rows]) if weighted else None
    if not ((p > 0).any() and (p < 1).any()):
        with pytest.raises(ValueError, match=r"y_true: expected (some|both)"):
            pr_curve(p, s, sample_weight=w, soft_labels=True)
        return
    soft = pr_curve(p, s, sample_weight=w, soft_labels=True)
    y2, s2, w2 = _split(p, s, w)
    split = pr_curve(y2, s2, sample_weight=w2)
    for name in ("thresholds", "tp", "fp", "precision", "recall"):
        np.testing.assert_array_equal(getattr(soft, name), getattr(split, name), err_msg=name)
    assert (soft.n_pos, soft.n_neg) == (split.n_pos, split.n_neg)
    for method in METHODS:
        assert soft.auc(method) == split.auc(method), method
    assert roc_curve(p, s, sample_weight=w, soft_labels=True).auc() == (
        roc_curve(y2, s2, sample_weight=w2).auc()
    )


def test_every_auc_method_on_soft_labels_is_the_method_on_the_split_data(rng):
    """auc_pr(..., soft_labels=True) for every estimator, with options, equals the estimator on
    the split weighted data; scores sampled so that soft precision is non-trivial."""
    n = 300
    p = rng.beta(0.5, 0.5, size=n)
    s = np.round(rng.normal(size=n) + 1.5 * p, 2)
    y2, s2, w2 = _split(p, s, None)
    for method in METHODS:
        area = auc_pr(p, s, method=method, soft_labels=True)
        assert area == auc_pr(y2, s2, sample_weight=w2, method=method)
        assert 0 < area <= 1
    for method in ("average_precision", "davis_goadrich", "trapezoid", "lower_trapezoid"):
        part = auc_pr(p, s, method=method, recall_range=(0.2, 0.7), soft_labels=True)
        assert part == auc_pr(y2, s2, sample_weight=w2, method=method, recall_range=(0.2, 0.7))
    at_pi = auc_pr(p, s, prevalence=0.1, soft_labels=True)
    assert at_pi == auc_pr(y2, s2, sample_weight=w2, prevalence=0.1)


def test_soft_davis_goadrich_area_equals_prroc_integral_formula(rng):
    """PRROC's ``auc.integral`` (Keilwagen et al. 2014), written out independently: between
    consecutive mass points (tp_a, fp_a) -> (tp_b, fp_b) with h = Δfp/Δtp, the precision
    (tp_a + x)/(tp_a + fp_a + (1 + h) x) is integrated over x in [0, Δtp] by
    scipy.integrate.quad, divided by n₊; segments with Δtp = 0 add nothing."""
    from scipy.integrate import quad

    n = 60
    p = rng.random(n)
    s = np.round(rng.normal(size=n) + p, 1)
    curve = pr_curve(p, s, soft_labels=True)
    tp = np.r_[0.0, curve.tp]
    fp = np.r_[0.0, curve.fp]
    total = 0.0
    for i in range(1, tp.shape[0]):
        dt = tp[i] - tp[i - 1]
        if dt == 0:
            continue
        h = (fp[i] - fp[i - 1]) / dt
        a, d = tp[i - 1], tp[i - 1] + fp[i - 1]
        total += quad(lambda x, a=a, d=d, h=h: (a + x) / (d + (1 + h) * x), 0, dt)[0]
    assert curve.auc("davis_goadrich") == pytest.approx(total / curve.n_pos, abs=1e-12)


def test_evaluate_thresholds_and_achievable_take_soft_labels(rng):
    p = rng.random(200)
    s = rng.normal(size=200) + p
    curve = pr_curve(p, s, soft_labels=True)
    again = evaluate_thresholds(p, s, curve.thresholds, soft_labels=True)
    np.testing.assert_array_equal(again.tp, curve.tp)
    np.testing.assert_array_equal(again.fp, curve.fp)
    hull = prcurve.achievable_pr_curve(p, s, soft_labels=True)
    np.testing.assert_array_equal(hull.tp, curve.achievable().tp)


@pytest.mark.parametrize(
    ("labels", "error", "match"),
    [
        ([0.2, 1.5, 0.3], ValueError, r"y_true: expected label probabilities in \[0, 1\] "
         r"\(soft_labels=True\), got 1\.5 at index 1 \(1 invalid in total\)"),
        ([0.2, -0.1, -2.0], ValueError, r"y_true: expected label probabilities in \[0, 1\] "
         r"\(soft_labels=True\), got -0\.1 at index 1 \(2 invalid in total\)"),
        ([0.2, 0.5, float("nan")], ValueError, r"y_true: expected label probabilities in "
         r"\[0, 1\] \(soft_labels=True\), got nan at index 2"),
        ([0.2, float("inf"), 0.5], ValueError, r"got inf at index 1"),
        (["a", "b", "a"], TypeError, r"y_true: expected label probabilities in \[0, 1\] "
         r"\(soft_labels=True\), got values of dtype <U1"),
        ([0.0, 0.0, 0.0], ValueError, r"y_true: expected both classes, got only negatives"),
        ([1.0, 1.0, 1.0], ValueError, r"y_true: expected both classes, got only positives"),
    ],
)  # fmt: skip
def test_invalid_soft_labels_are_refused(labels, error, match):
    with pytest.raises(error, match=match):
        pr_curve(labels, [0.1, 0.2, 0.3], soft_labels=True)


def test_soft_labels_without_mass_on_a_class_are_refused():
    with pytest.raises(
        ValueError,
        match=r"y_true: expected some negative mass \(a label probability below 1 with "
        r"positive weight\), got all label probabilities 1",
    ):
        pr_curve([1.0, 0.3, 1.0], [0.1, 0.2, 0.3], sample_weight=[1, 0, 2], soft_labels=True)
    with pytest.raises(
        ValueError,
        match=r"y_true: expected some positive mass \(a label probability above 0 with "
        r"positive weight\), got all label probabilities 0",
    ):
        pr_curve([0.0, 0.3, 0.0], [0.1, 0.2, 0.3], sample_weight=[1, 0, 2], soft_labels=True)


def test_soft_label_options_are_checked():
    with pytest.raises(TypeError, match=r"pos_label: not used with soft_labels=True .* got 1"):
        pr_curve([0.2, 0.8], [0.1, 0.2], pos_label=1, soft_labels=True)
    with pytest.raises(TypeError, match=r"soft_labels: expected True or False, got 'yes'"):
        auc_pr([0.2, 0.8], [0.1, 0.2], soft_labels="yes")
    with pytest.raises(TypeError, match=r"soft_labels: not supported with a score matrix"):
        auc_pr([0, 1, 1], [[0.1, 0.9], [0.2, 0.8], [0.3, 0.7]], soft_labels=True)
    with pytest.raises(
        ValueError, match=r"y_true and y_score: expected the same length, got 2 and 3"
    ):
        roc_curve([0.2, 0.8], [0.1, 0.2, 0.3], soft_labels=True)
