"""Cross-validation folds: vertical average = slow per-fold Davis–Goadrich interpolation;
threshold average, per-fold areas and the t-interval by brute force; coverage; errors."""

import itertools

import numpy as np
import pytest
from scipy import stats

from prcurve import CVPRCurves, auc_pr, cv_pr_curves, dg_interpolate, pr_curve
from prcurve._core._area import AUC_PR_METHODS, batched_area
from prcurve._core._batch import batch_counts


def folds_problem(rng, n=500, k=5, ties=False):
    y = rng.random(n) < 0.25
    y[:k], y[k : 2 * k] = True, False
    s = rng.normal(size=n) + 1.3 * y
    if ties:
        s = np.round(s * 2) / 2
    return y, s, np.arange(n) % k


def slow_points(y, s):
    """Operating points by brute force: one per distinct score, descending."""
    pts = []
    for t in sorted(set(s.tolist()), reverse=True):
        pred = s >= t
        pts.append((float(np.sum(pred & y)), float(np.sum(pred & ~y))))
    return pts


def slow_dg_precision(y, s, recall):
    """Precision of the Davis–Goadrich interpolated curve at each recall, one at a time."""
    pts = slow_points(y, s)
    n_pos = float(np.sum(y))
    out = []
    for r in recall:
        target = r * n_pos
        if target == 0:
            tp, fp = pts[0]
            out.append(tp / (tp + fp))
            continue
        prev = (0.0, 0.0)
        for tp, fp in pts:
            if tp >= target - 1e-9:
                if abs(tp - target) <= 1e-9:  # on a point: the upper value at a drop
                    out.append(tp / (tp + fp))
                else:
                    ta, fa = prev
                    x_fp = fa + (target - ta) * (fp - fa) / (tp - ta)
                    out.append(target / (target + x_fp))
                break
            prev = (tp, fp)
    return np.array(out)


@pytest.mark.parametrize("ties", [False, True])
def test_vertical_average_equals_slow_dg_interpolation(rng, ties):
    y, s, f = folds_problem(rng, ties=ties)
    grid = np.linspace(0, 1, 41)
    res = cv_pr_curves(y, s, f, recall=grid)
    slow = np.stack([slow_dg_precision(y[f == i], s[f == i], grid) for i in range(5)])
    np.testing.assert_allclose(res.fold_precision, slow, rtol=1e-12)
    np.testing.assert_allclose(res.mean_precision, slow.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(res.std_precision, slow.std(axis=0, ddof=1), atol=1e-12)
    # and the slow reference agrees with the Davis–Goadrich Table 1 points at integer TP steps
    yy, ss = y[f == 0], s[f == 0]
    pts = slow_points(yy, ss)
    n_pos = yy.sum()
    for (ta, fa), (tb, fb) in itertools.pairwise(pts):
        if tb > ta + 1:
            dg = dg_interpolate(ta, fa, tb, fb, n_pos)
            # from A's successor on (A itself may be the lower end of a vertical drop, where
            # the interpolated curve is read at its upper value)
            got = slow_dg_precision(yy, ss, dg.recall[1:])
            np.testing.assert_allclose(got, dg.precision[1:], rtol=1e-12)


def test_vertical_average_is_not_linear(rng):
    """Straight lines in PR space would give a different mean curve."""
    y, s, f = folds_problem(rng, n=100)
    grid = np.linspace(0, 1, 201)
    res = cv_pr_curves(y, s, f, recall=grid)
    linear = np.stack(
        [np.interp(grid, c.recall, c.precision, left=c.precision[0]) for c in res.curves]
    )
    assert np.max(np.abs(linear.mean(axis=0) - res.mean_precision)[1:-1]) > 1e-3


def test_threshold_average_by_brute_force(rng):
    y, s, f = folds_problem(rng, ties=True)
    res = cv_pr_curves(y, s, f, n_thresholds=30)
    assert res.thresholds.shape[0] <= 30 and np.all(np.diff(res.thresholds) < 0)
    assert res.thresholds[0] <= min(s[f == i].max() for i in range(5))
    for j, t in enumerate(res.thresholds):
        rec, prec = [], []
        for i in range(5):
            pred, yy = s[f == i] >= t, y[f == i]
            rec.append(np.sum(pred & yy) / yy.sum())
            prec.append(np.sum(pred & yy) / pred.sum())
        assert res.threshold_recall[j] == pytest.approx(np.mean(rec), rel=1e-12)
        assert res.threshold_precision[j] == pytest.approx(np.mean(prec), rel=1e-12)


@pytest.mark.parametrize("method", AUC_PR_METHODS)
def test_per_fold_auc_mean_and_t_interval(rng, method):
    y, s, f = folds_problem(rng)
    res = cv_pr_curves(y, s, f, level=0.9)
    fa = res.auc[method]
    per = np.array([auc_pr(y[f == i], s[f == i], method=method) for i in range(5)])
    np.testing.assert_allclose(fa.per_fold, per, rtol=1e-12)
    lo, hi = stats.t.interval(0.9, 4, loc=per.mean(), scale=stats.sem(per))
    assert (fa.mean, fa.std) == pytest.approx((per.mean(), per.std(ddof=1)), rel=1e-12)
    assert (fa.interval.low, fa.interval.high) == pytest.approx((lo, hi), rel=1e-12)
    assert fa.pooled == pytest.approx(auc_pr(y, s, method=method), rel=1e-12)


def test_list_input_equals_fold_ids_and_pooled_curve(rng):
    y, s, f = folds_problem(rng)
    a = cv_pr_curves(y, s, f)
    b = cv_pr_curves([y[f == i] for i in range(5)], [s[f == i] for i in range(5)])
    assert isinstance(a, CVPRCurves)
    np.testing.assert_array_equal(a.fold_precision, b.fold_precision)
    ref = pr_curve(y, s)
    np.testing.assert_array_equal(a.pooled.tp, ref.tp)
    np.testing.assert_array_equal(a.pooled.fp, ref.fp)
    # fold ids of any kind, in sorted order
    names = np.array(["e", "d", "c", "b", "a"])[f]
    c = cv_pr_curves(y, s, names)
    assert c.folds.tolist() == ["a", "b", "c", "d", "e"]
    np.testing.assert_array_equal(c.fold_precision, a.fold_precision[::-1])
    df = a.to_frame()
    assert set(df["fold"]) == {0, 1, 2, 3, 4, "pooled"}


def test_weights(rng):
    y, s, f = folds_problem(rng)
    w = rng.random(y.shape[0]) + 0.1
    res = cv_pr_curves(y, s, f, sample_weight=w)
    per = [auc_pr(y[f == i], s[f == i], sample_weight=w[f == i]) for i in range(5)]
    np.testing.assert_allclose(res.auc["average_precision"].per_fold, per, rtol=1e-12)
    assert res.pooled.auc() == pytest.approx(auc_pr(y, s, sample_weight=w), rel=1e-12)


def test_errors(rng):
    y, s, f = folds_problem(rng, n=100)
    with pytest.raises(TypeError, match="folds: expected fold ids"):
        cv_pr_curves(y, s)
    with pytest.raises(ValueError, match="folds: expected at least 2 folds, got 1"):
        cv_pr_curves(y, s, np.zeros(100))
    with pytest.raises(ValueError, match=r"folds: expected shape \(100,\)"):
        cv_pr_curves(y, s, f[:-1])
    with pytest.raises(ValueError, match="y_true and y_score: expected one array per fold"):
        cv_pr_curves([y, y], [s])
    yy = y.copy()
    yy[f == 3] = False
    with pytest.raises(ValueError, match="fold 3: y_true: expected both classes"):
        cv_pr_curves(yy, s, f)
    with pytest.raises(ValueError, match="recall: expected values in"):
        cv_pr_curves(y, s, f, recall=[0.5, 1.5])
    with pytest.raises(ValueError, match="n_thresholds: expected an integer >= 2"):
        cv_pr_curves(y, s, f, n_thresholds=1)


@pytest.mark.slow
def test_t_interval_coverage_with_independent_folds():
    """With independent test folds of one fixed scorer the t-interval over 5 folds covers the
    expected per-fold AP at its nominal level (it is too narrow under real cross-validation,
    where the folds share training data; see FoldAUC).  Measured: 0.955 (400 repetitions)."""
    g = np.random.default_rng(3)
    m, k = 200, 5

    def draw(rows):
        y = g.random((rows, m)) < 0.3
        return y, g.normal(size=(rows, m)) + 1.0 * y

    y, s = draw(40_000)
    tp, fp = batch_counts(y, s)
    truth = batched_area(tp, fp, y.sum(axis=1), "average_precision").mean()
    reps, hits = 400, 0
    for _ in range(reps):
        yy, ss = draw(k)
        res = cv_pr_curves(list(yy), list(ss))
        hits += bool(res.auc["average_precision"].interval.contains(truth))
    lo, hi = stats.binom.ppf([0.0005, 0.9995], reps, 0.95) / reps
    assert lo <= hits / reps <= hi, hits / reps


@pytest.mark.slow
def test_t_band_pointwise_coverage_with_independent_folds():
    """The pointwise t-band of the vertical average covers the expected Davis–Goadrich
    interpolated precision of one fold at each recall.  Measured (400 repetitions, 5 folds of
    200, prevalence 0.3): 0.96, 0.935, 0.9475, 0.935, 0.955 at recall 0.1, 0.3, 0.5, 0.7, 0.9."""
    g = np.random.default_rng(3)
    m, k = 200, 5
    grid = np.array([0.1, 0.3, 0.5, 0.7, 0.9])

    def draw(rows):
        y = g.random((rows, m)) < 0.3
        return y, g.normal(size=(rows, m)) + 1.0 * y

    y, s = draw(20_000)
    truth = np.mean([pr_curve(a, b).interpolate(grid)[1] for a, b in zip(y, s, strict=True)], 0)
    reps, hits = 400, np.zeros(grid.size)
    for _ in range(reps):
        yy, ss = draw(k)
        res = cv_pr_curves(list(yy), list(ss), recall=grid)
        hits += (res.band.low <= truth) & (truth <= res.band.high)
    lo, hi = stats.binom.ppf([0.0005, 0.9995], reps, 0.95) / reps
    assert np.all((lo <= hits / reps) & (hits / reps <= hi)), hits / reps


def test_int64_scores_above_2_53_stay_distinct():
    # issue 23: the pooled curve and the threshold average cast scores to float64, where
    # 2**60 + 1 == 2**60, merging two operating points
    s = np.array([2**60 + 1, 2**60] * 2)
    res = cv_pr_curves([1, 0, 1, 0], s, folds=[0, 0, 1, 1])
    assert res.pooled.auc() == pr_curve([1, 0, 1, 0], s).auc() == 1.0
    assert res.thresholds.tolist() == [2**60 + 1, 2**60]
    np.testing.assert_array_equal(res.threshold_precision, [1.0, 0.5])
    np.testing.assert_array_equal(res.threshold_recall, [1.0, 1.0])


def test_int64_scores_pooled_and_threshold_average_by_brute_force(rng):
    y, _, f = folds_problem(rng, n=300)
    s = 2**60 + rng.integers(0, 40, size=300) + 25 * y  # int64, ties, beyond float64's grid
    res = cv_pr_curves(y, s, f)
    ref = pr_curve(y, s)
    np.testing.assert_array_equal(res.pooled.thresholds, ref.thresholds)
    np.testing.assert_array_equal(res.pooled.tp, ref.tp)
    np.testing.assert_array_equal(res.pooled.fp, ref.fp)
    assert res.thresholds.dtype == np.int64
    folds_top = min(int(s[f == i].max()) for i in range(5))
    assert res.thresholds[0] == folds_top  # every distinct pooled score up to it: 40+ points
    for j, t in enumerate(res.thresholds.tolist()):  # Python ints: exact comparisons
        rec, prec = [], []
        for i in range(5):
            pred = np.array([v >= t for v in s[f == i].tolist()])
            yy = y[f == i]
            rec.append(np.sum(pred & yy) / yy.sum())
            prec.append(np.sum(pred & yy) / pred.sum())
        assert res.threshold_recall[j] == pytest.approx(np.mean(rec), rel=1e-12)
        assert res.threshold_precision[j] == pytest.approx(np.mean(prec), rel=1e-12)


def test_pooled_weights_share_one_scale_across_folds(rng):
    # each fold's extreme weights were rescaled on their own, so a fold of subnormal weights
    # weighed 2**1563 times too much in the pooled curve
    y, s, f = folds_problem(rng, n=200, k=2)
    w = np.where(f == 0, 2.0**-1070, 1.0) * (1 + rng.integers(0, 4, size=200))
    res = cv_pr_curves(y, s, f, sample_weight=w)
    ref = pr_curve(y, s, sample_weight=w)
    # the pooled weights are one array, counted by the one engine: identical, not close
    np.testing.assert_array_equal(res.pooled.tp, ref.tp)
    np.testing.assert_array_equal(res.pooled.fp, ref.fp)
    assert res.auc["average_precision"].pooled == ref.auc()
    # and each fold's curve is still the fold's own
    for i in range(2):
        one = pr_curve(y[f == i], s[f == i], sample_weight=w[f == i])
        np.testing.assert_array_equal(res.curves[i].tp, one.tp)
