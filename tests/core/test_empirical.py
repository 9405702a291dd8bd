import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.metrics import precision_recall_curve, roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from prcurve import (
    PRCurve,
    ROCCurve,
    ThresholdsDroppedWarning,
    binary_counts,
    dominates,
    evaluate_thresholds,
    pr_curve,
    roc_curve,
)

from ..conftest import make_problem


def slow_functional_estimator(y, s, beta):
    """Hughes-Oliver / Clémençon-Vayatis PR̂(β), straight from the definition."""
    pos, neg = s[y], s[~y]
    n_pos, n_neg = pos.size, neg.size
    cands = np.sort(pos)
    ghat = np.array([(pos <= z).mean() for z in cands])
    t = cands[np.argmax(ghat >= 1 - beta - 1e-12)]
    alpha = (neg > t).mean()
    return n_pos * beta / (n_pos * beta + n_neg * alpha)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
def test_points_equal_scikit_learn(rng, ties, weights):
    y, s, w = make_problem(rng, n=2000, prevalence=0.1, ties=ties, weights=weights)
    c = pr_curve(y, s, sample_weight=w)
    p, r, t = precision_recall_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(c.precision, p[:-1][::-1], rtol=1e-12)
    np.testing.assert_allclose(c.recall, r[:-1][::-1], rtol=1e-12)
    np.testing.assert_array_equal(c.thresholds, t[::-1])
    fpr, tpr, _ = sk_roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    roc = roc_curve(y, s, sample_weight=w)
    np.testing.assert_allclose(roc.fpr, fpr[1:], rtol=1e-12)
    np.testing.assert_allclose(roc.tpr, tpr[1:], rtol=1e-12)
    assert roc.auc() == pytest.approx(roc_auc_score(y, s, sample_weight=w), abs=1e-12)


def test_curve_fields_are_aligned(rng):
    y, s, _ = make_problem(rng, n=500, ties=True)
    c = pr_curve(y, s)
    k = c.thresholds.shape[0]
    for name in ("tp", "fp", "precision", "recall"):
        assert getattr(c, name).shape == (k,)
    assert np.all(np.diff(c.thresholds) < 0)
    assert c.prevalence == pytest.approx(y.mean())
    assert c.skew == pytest.approx((~y).sum() / y.sum())
    assert not np.isnan(c.precision).any()


def test_threshold_rule_gt_is_the_same_points_relabelled(rng):
    y, s, _ = make_problem(rng, n=300, ties=True)
    ge = pr_curve(y, s)
    gt = pr_curve(y, s, threshold_rule="gt")
    np.testing.assert_array_equal(ge.tp, gt.tp)
    np.testing.assert_array_equal(gt.thresholds[:-1], ge.thresholds[1:])
    assert gt.thresholds[-1] == -np.inf
    # each point is what the rule "score > t" gives at its own threshold
    for t, tp, fp in zip(gt.thresholds, gt.tp, gt.fp, strict=True):
        assert tp == np.sum((s > t) & y) and fp == np.sum((s > t) & ~y)
    assert gt.auc() == ge.auc()
    with pytest.raises(ValueError, match="threshold_rule: expected one of 'ge', 'gt'"):
        pr_curve(y, s, threshold_rule=">")


@pytest.mark.parametrize("ties", [False, True])
def test_precision_at_matches_definition(rng, ties):
    y, s, _ = make_problem(rng, n=80, prevalence=0.3, ties=ties)
    c = pr_curve(y, s)
    n_pos = int(y.sum())
    betas = np.r_[np.linspace(0.01, 1, 37), np.arange(1, n_pos + 1) / n_pos]
    got = c.precision_at(betas, ties="strict")
    want = [slow_functional_estimator(y, s, b) for b in betas]
    np.testing.assert_allclose(got, want, rtol=1e-12)
    assert isinstance(c.precision_at(0.5), float)
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\]"):
        c.precision_at([0.0, 0.5])


def test_precision_at_recall_one_and_perfect_split():
    c = pr_curve([1, 1, 0, 0], [4, 3, 2, 1])
    assert c.precision_at(1.0) == 1.0
    assert c.precision_at(0.5) == 1.0


def test_roc_round_trip(rng):
    y, s, _ = make_problem(rng, n=400, ties=True)
    pr = pr_curve(y, s)
    roc = pr.to_roc()
    back = roc.to_pr()
    for name in ("tp", "fp", "precision", "recall", "thresholds"):
        np.testing.assert_array_equal(getattr(back, name), getattr(pr, name))
    # Theorem 3.1: recall = TPR and precision = TPR·n₊ / (TPR·n₊ + FPR·n₋)
    np.testing.assert_allclose(pr.recall, roc.tpr)
    np.testing.assert_allclose(
        pr.precision, roc.tpr * roc.n_pos / (roc.tpr * roc.n_pos + roc.fpr * roc.n_neg)
    )
    assert isinstance(ROCCurve.from_counts(binary_counts(y, s)), ROCCurve)


def test_interpolate_path_and_grid(rng):
    y, s, _ = make_problem(rng, n=200, ties=True)
    c = pr_curve(y, s)
    r, p = c.interpolate(num=50)
    assert r.shape == p.shape == (50 + c.recall.shape[0],)
    assert np.all(np.diff(r) >= 0)
    assert np.all((p > 0) & (p <= 1))
    # every operating point is on the path
    for rec, prec in zip(c.recall, c.precision, strict=True):
        assert np.any((r == rec) & np.isclose(p, prec))
    _, vals = c.interpolate([0.2, 0.5, 1.0])
    assert vals[-1] == pytest.approx(c.precision[np.flatnonzero(c.recall == 1)[0]])


def test_achievable_curve(rng):
    y, s, _ = make_problem(rng, n=500, prevalence=0.1, ties=True)
    c = pr_curve(y, s)
    a = c.achievable()
    assert isinstance(a, PRCurve)
    assert a.recall[-1] == 1.0 and a.tp.shape[0] <= c.tp.shape[0]
    assert a.auc("davis_goadrich") >= c.auc("davis_goadrich")
    assert dominates(a, c)
    np.testing.assert_array_equal(a.fp, c.to_roc().convex_hull().fp)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(3, 80), ties=st.booleans())
def test_achievable_dominates_empirical(seed, n, ties):
    rng = np.random.default_rng(seed)
    y, s, _ = make_problem(rng, n=n, prevalence=0.4, ties=ties)
    c = pr_curve(y, s)
    a = c.achievable()
    assert dominates(a, c)
    assert dominates(a, a.achievable()) and dominates(a.achievable(), a)
    assert a.auc("davis_goadrich") >= c.auc("davis_goadrich") - 1e-12


def test_dominates_examples():
    y = np.array([1, 1, 0, 0, 0, 1])
    perfect = pr_curve(y, y.astype(float))
    early = pr_curve(y, [6, 5, 4, 3, 2, 1])  # two positives first, the last one at the end
    late = pr_curve(y, [6, 4, 5, 2, 1, 3])  # pos, neg, pos, pos, neg, neg
    assert dominates(perfect, early) and dominates(perfect, late)
    assert not dominates(early, perfect)
    assert dominates(early, early)
    # early is ahead at FPR 0, late is ahead at FPR 1/3: neither dominates
    assert not dominates(early, late) and not dominates(late, early)
    worse = pr_curve(y, [6, 3, 5, 2, 1, 4])  # pos, neg, pos(tie-free), pos, ...
    assert dominates(late, worse) or dominates(worse, late)
    with pytest.raises(ValueError, match="expected curves on the same data"):
        dominates(early, pr_curve([1, 0, 0], [3, 2, 1]))
    with pytest.raises(TypeError, match="curve_b: expected a PRCurve or ROCCurve, got list"):
        dominates(early, [1, 2])


def test_hull_thresholds_tuned_then_tested(rng):
    y, s, _ = make_problem(rng, n=4000, prevalence=0.1)
    tune = pr_curve(y[:2000], s[:2000]).achievable()
    test = evaluate_thresholds(y[2000:], s[2000:], tune.thresholds)
    yt, st_ = y[2000:], s[2000:]
    assert np.all(np.diff(test.thresholds) < 0)
    for t, tp, fp in zip(test.thresholds, test.tp, test.fp, strict=True):
        assert tp == np.sum((st_ >= t) & yt) and fp == np.sum((st_ >= t) & ~yt)
    with pytest.warns(ThresholdsDroppedWarning, match="1 threshold"):
        part = evaluate_thresholds(yt, st_, [st_.max() + 1, np.median(st_)])
    assert part.thresholds.shape == (1,)
    with pytest.raises(ValueError, match="thresholds: expected at least one threshold"):
        evaluate_thresholds(yt, st_, [st_.max() + 1])
    with pytest.raises(ValueError, match="thresholds: expected a non-empty 1-D array"):
        evaluate_thresholds(yt, st_, [])


def test_thresholds_of_a_gt_curve_evaluate_to_its_own_points(rng):
    y, s, _ = make_problem(rng, n=200, prevalence=0.3, ties=True)
    c = pr_curve(y, s, threshold_rule="gt")
    e = evaluate_thresholds(y, s, c.thresholds, threshold_rule="gt")
    np.testing.assert_array_equal(e.tp, c.tp)
    np.testing.assert_array_equal(e.fp, c.fp)
    assert e.threshold_rule == "gt"
    with pytest.raises(ValueError, match="threshold_rule: expected one of 'ge', 'gt'"):
        evaluate_thresholds(y, s, c.thresholds, threshold_rule=">=")


def test_interpolate_reads_weighted_points_at_their_upper_value():
    """recall·n₊ rounds just past TP with fractional weights: still the point itself."""
    c = pr_curve([1, 0, 1, 1], [4, 3, 2, 1], sample_weight=[0.2, 0.4, 0.7, 0.7])
    _, p = c.interpolate(c.recall)
    first_of_each_recall = np.r_[True, c.recall[1:] != c.recall[:-1]]
    np.testing.assert_allclose(p[first_of_each_recall], c.precision[first_of_each_recall])


def test_large_integer_scores_keep_their_precision():
    """Scores above 2**53 (e.g. nanosecond timestamps) are never rounded through float64."""
    s = np.array([2**53 + 2, 2**53 + 1, 2**53], dtype=np.int64)
    y = [1, 0, 1]
    gt = pr_curve(y, s, threshold_rule="gt")
    assert gt.thresholds.dtype == np.int64
    assert gt.thresholds.tolist() == [2**53 + 1, 2**53, 2**53 - 1]
    back = evaluate_thresholds(y, s, gt.thresholds, threshold_rule="gt")
    np.testing.assert_array_equal(back.tp, gt.tp)
    ge = evaluate_thresholds(y, s, pr_curve(y, s).thresholds)
    assert ge.thresholds.shape == (3,) and ge.tp.tolist() == [1, 1, 2]
