"""Property-based fuzz of the multi-output and fold functions: ties, extreme and subnormal
scores, zero and huge weights give finite values equal to scikit-learn's or a clear error."""

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score

from prcurve import DegenerateBootstrapWarning, auc_pr, auc_pr_multi_ci, cv_pr_curves, pr_curves

SCORES = st.sampled_from([0.0, 1.0, -1.0, 5e-324, -5e-324, 1e308, -1e308, 0.5, 2.0, 1e-300])
WEIGHTS = st.sampled_from([0.0, 1.0, 1e-300, 1e300, 3.0, 0.25])


@st.composite
def indicator_problem(draw):
    n = draw(st.integers(2, 25))
    k = draw(st.integers(2, 4))
    Y = np.array(draw(st.lists(st.lists(st.booleans(), min_size=k, max_size=k), min_size=n,
                               max_size=n)))  # fmt: skip
    S = np.array(draw(st.lists(st.lists(SCORES, min_size=k, max_size=k), min_size=n,
                               max_size=n)))  # fmt: skip
    w = None
    if draw(st.booleans()):
        w = np.array(draw(st.lists(WEIGHTS, min_size=n, max_size=n)))
    return Y, S, w


def _defined(Y, w):
    keep = np.ones(Y.shape[0], bool) if w is None else w > 0
    pos = Y[keep].sum(axis=0)
    return keep.any() and np.all((pos > 0) & (pos < keep.sum()))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(indicator_problem(), st.sampled_from(["macro", "weighted", "micro", None]))
def test_multilabel_fuzz(problem, average):
    Y, S, w = problem
    if w is not None and not (w > 0).any():
        with pytest.raises(ValueError, match="sample_weight: expected some positive weight"):
            auc_pr(Y.astype(int), S, average=average, sample_weight=w)
        return
    if not _defined(Y, w):
        with pytest.raises(ValueError, match=r"y_true: class \d+ has no (positive|negative)"):
            auc_pr(Y.astype(int), S, average=average, sample_weight=w)
        return
    ours = np.asarray(auc_pr(Y.astype(int), S, average=average, sample_weight=w))
    assert np.all(np.isfinite(ours)) and np.all((ours >= 0) & (ours <= 1))
    support = (Y * (1.0 if w is None else w[:, None])).sum(axis=0)
    if average == "weighted" and np.isclose(support.sum(), 0.0):
        # scikit-learn returns 0 when the classes' total weight is close to 0 (np.isclose's
        # absolute tolerance, 1e-8): the weighted mean of the per-class values instead
        per = np.asarray(auc_pr(Y.astype(int), S, average=None, sample_weight=w))
        np.testing.assert_allclose(ours, np.average(per, weights=support), rtol=1e-12)
    elif w is None or np.all(w[w > 0] < 1e299):  # scikit-learn overflows with huge weights
        with np.errstate(all="ignore"):  # scikit-learn's own checks overflow on ±1e308 scores
            ref = average_precision_score(Y.astype(int), S, average=average, sample_weight=w)
        np.testing.assert_allclose(ours, ref, rtol=1e-9, atol=1e-12)
    positive = w[w > 0] if w is not None else np.ones(1)
    if np.log10(positive.max()) - np.log10(positive.min()) > 200:
        # weight ratios near the float range overflow the binary Davis–Goadrich area (an engine
        # matter, outside the one-vs-rest layer); the averages above are checked regardless
        return
    for method in ("davis_goadrich", "interpolated_median", "lower_trapezoid"):
        v = np.asarray(pr_curves(Y.astype(int), S, sample_weight=w).auc(method, average=average))
        assert np.all(np.isfinite(v)) and np.all((v >= 0) & (v <= 1 + 1e-12))


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(st.booleans(), SCORES, st.integers(0, 2)), min_size=6, max_size=40),
)
def test_folds_fuzz(rows):
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows])
    f = np.array([r[2] for r in rows])
    ids = np.unique(f)
    ok = ids.size >= 2 and all(0 < y[f == i].sum() < np.sum(f == i) for i in ids)
    if not ok:
        with pytest.raises(ValueError, match=r"folds: expected at least 2|fold .*: y_true"):
            cv_pr_curves(y, s, f)
        return
    res = cv_pr_curves(y, s, f)
    assert np.all(np.isfinite(res.mean_precision)) and np.all(np.isfinite(res.band.low))
    assert np.all((res.mean_precision >= 0) & (res.mean_precision <= 1))
    for fa in res.auc.values():
        assert np.all(np.isfinite(fa.per_fold)) and np.isfinite(fa.interval.low)
        assert 0 <= fa.interval.low <= fa.mean <= fa.interval.high <= 1
    assert np.all(np.isfinite(res.threshold_precision))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(indicator_problem(), st.sampled_from(["macro", "weighted", "micro"]))
def test_interval_fuzz(problem, average):
    Y, S, w = problem
    if w is not None:  # moderate weights: extreme ratios are the engine's matter (see above)
        w = np.where(w > 0, 1.0 + (w > 1), 0.0)
    if (w is not None and not (w > 0).any()) or not _defined(Y, w):
        with pytest.raises(ValueError, match=r"sample_weight: expected some|y_true: class"):
            auc_pr_multi_ci(Y.astype(int), S, average=average, sample_weight=w, n_resamples=20)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DegenerateBootstrapWarning)
        res = auc_pr_multi_ci(
            Y.astype(int), S, average=average, sample_weight=w, n_resamples=20, rng=0
        )
    usable = np.isfinite(res.replicates)  # NaN: a replicate without any positive (documented)
    assert np.isfinite(res.estimate) and usable.any() and (~usable).sum() <= res.n_degenerate
    assert 0 <= res.interval.low <= res.interval.high <= 1
    ends = res.per_class_interval
    ok = np.isfinite(ends.low)  # a class never drawn in any replicate has no interval
    assert np.all(ends.low[ok] <= ends.high[ok])
