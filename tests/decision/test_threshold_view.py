"""The threshold view: metrics against scikit-learn and brute force, bands against a naive
bootstrap loop, undefined precision in replicates, and the bands' coverage (small seeded
version; the full table is bench/coverage_threshold_view.py)."""

from __future__ import annotations

import os
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.metrics import fbeta_score, precision_score, recall_score

import prcurve
from prcurve import ThresholdView, UndefinedMetricWarning, pr_curve, threshold_view


def _brute(y, s, w, t, beta):
    """Every metric at ``score >= t`` from scikit-learn's scorers on the 0/1 predictions."""
    pred = s >= t
    ww = np.ones(y.shape[0]) if w is None else w
    return {
        "precision": precision_score(y, pred, sample_weight=w),
        "recall": recall_score(y, pred, sample_weight=w),
        "f_beta": fbeta_score(y, pred, beta=beta, sample_weight=w),
        "queue_rate": ww[pred].sum() / ww.sum(),
        "fpr": ww[pred & ~y].sum() / ww[~y].sum(),
    }


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("beta", [1.0, 0.5, 2.0])
def test_metrics_equal_scikit_learn_at_every_threshold(weighted, beta):
    rng = np.random.default_rng(3)
    n = 150
    y = rng.random(n) < 0.3
    s = np.round(rng.normal(size=n) + 1.2 * y, 1)  # ties
    w = rng.random(n) * 3 if weighted else None
    view = threshold_view(y, s, sample_weight=w, beta=beta)
    assert_array_equal(view.thresholds, np.unique(s)[::-1])
    for i, t in enumerate(view.thresholds):
        expected = _brute(y, s, w, t, beta)
        for name, value in expected.items():
            assert view.metric(name)[i] == pytest.approx(value, rel=1e-12, abs=1e-15), (name, t)
    curve = pr_curve(y, s, sample_weight=w)  # the same counts as the PR curve
    assert_array_equal(view.tp, curve.tp)
    assert_array_equal(view.precision, curve.precision)


def test_integer_weights_equal_repeated_rows():
    rng = np.random.default_rng(5)
    y = rng.random(80) < 0.4
    s = np.round(rng.normal(size=80), 1)
    w = rng.integers(0, 4, size=80)  # zero weights drop rows
    weighted = threshold_view(y, s, sample_weight=w.astype(float))
    repeated = threshold_view(np.repeat(y, w), np.repeat(s, w))
    for name in prcurve._decision._threshold_view.METRICS:
        assert_allclose(weighted.metric(name), repeated.metric(name), rtol=1e-13)


def test_bands_equal_a_naive_bootstrap_loop_within_monte_carlo_error():
    """Percentile bands at fixed original thresholds against rows resampled in a Python loop."""
    rng = np.random.default_rng(11)
    n = 400
    y = rng.random(n) < 0.25
    s = rng.normal(size=n) + 1.5 * y
    b = 2000
    view = threshold_view(y, s, n_resamples=b, rng=12, max_band_points=1000)
    assert view.band_index is not None and view.band_index.shape[0] == view.thresholds.shape[0]
    rows = np.searchsorted(view.queue_rate, [0.1, 0.3, 0.6])
    gen = np.random.default_rng(13)
    naive = {name: np.empty((b, rows.size)) for name in ("precision", "recall", "fpr")}
    done = 0
    while done < b:  # the "instances" model: n rows, given both classes occur
        idx = gen.integers(0, n, n)
        yy, ss = y[idx], s[idx]
        if yy.all() or not yy.any():
            continue
        for j, t in enumerate(view.thresholds[rows]):
            pred = ss >= t
            naive["precision"][done, j] = (pred & yy).sum() / pred.sum()
            naive["recall"][done, j] = (pred & yy).sum() / yy.sum()
            naive["fpr"][done, j] = (pred & ~yy).sum() / (~yy).sum()
        done += 1
    for name, values in naive.items():
        lo, hi = np.quantile(values, [0.025, 0.975], axis=0)
        band = view.band(name)
        assert band is not None
        # each quantile's Monte Carlo s.e. is below 0.003 here (B = 2000, replicate s.d. < 0.04)
        assert_allclose(np.asarray(band.low)[rows], lo, atol=0.012)
        assert_allclose(np.asarray(band.high)[rows], hi, atol=0.012)


def test_band_rows_are_a_grid_in_queue_rate_with_both_ends():
    rng = np.random.default_rng(1)
    y = rng.random(3000) < 0.1
    s = rng.normal(size=3000) + y
    view = threshold_view(y, s, n_resamples=20, rng=0, max_band_points=50)
    idx = view.band_index
    assert idx is not None and 2 <= idx.shape[0] <= 50
    assert idx[0] == 0 and idx[-1] == view.thresholds.shape[0] - 1
    assert np.all(np.diff(idx) > 0)
    # half the rows evenly spread in queue rate, half in threshold value
    assert np.diff(view.queue_rate[idx]).max() <= 1 / 24 + 1e-12
    t = view.thresholds.astype(float)
    spacing = (t[0] - t[-1]) / 24
    assert np.diff(-t[idx]).max() <= spacing + np.diff(-t).max()
    band = view.band("recall")
    assert band is not None and np.shape(band.low) == idx.shape
    assert_array_equal(view.band_thresholds, view.thresholds[idx])


def test_precision_defined_share_at_a_lone_top_row():
    """The top row holds one instance: a replicate misses it with probability (1 − 1/n)^n."""
    rng = np.random.default_rng(2)
    n, b = 200, 2000
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + y
    s[0], y[0] = 10.0, True  # a lone, positive top score
    view = threshold_view(y, s, n_resamples=b, rng=3, sampling="stratified")
    assert view.precision_defined is not None
    p = 1 - (1 - 1 / y.sum()) ** y.sum()  # stratified: n₊ draws among the positives
    lo, hi = stats.binom.ppf([0.0005, 0.9995], b, p) / b
    assert lo <= view.precision_defined[0] <= hi
    assert view.precision_band is not None
    # the replicates that flag the top row flag only that positive: precision exactly 1
    assert view.precision_band.low[0] == view.precision_band.high[0] == 1.0
    assert view.precision_defined[-1] == 1.0


def test_precision_band_without_any_defined_replicate_is_nan_and_said():
    y = np.array([1, 0, 1, 0, 0, 1, 0, 0, 0, 1] * 3, bool)
    s = np.arange(30.0)
    seen = False
    for seed in range(60):  # 2 replicates both missing the top row: probability ≈ 0.13
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            view = threshold_view(y, s, n_resamples=2, rng=seed)
        assert view.precision_band is not None and view.precision_defined is not None
        undefined = view.precision_defined == 0
        assert_array_equal(np.isnan(view.precision_band.low), undefined)
        if undefined.any():
            (w,) = caught
            assert w.category is UndefinedMetricWarning
            assert "no bootstrap replicate flags any instance" in str(w.message)
            assert np.all(np.isfinite(view.f_beta_band.low))  # F_β is 0, not undefined
            seen = True
        else:
            assert not caught
    assert seen


def test_point_estimates_are_always_defined_and_ends_are_exact():
    y = np.array([0, 1, 1, 0, 1])
    s = np.array([0.1, 0.9, 0.9, 0.5, 0.2])
    view = threshold_view(y, s, beta=2.0)
    assert_array_equal(view.thresholds, [0.9, 0.5, 0.2, 0.1])
    assert_allclose(view.precision, [1.0, 2 / 3, 3 / 4, 3 / 5])
    assert_allclose(view.recall, [2 / 3, 2 / 3, 1.0, 1.0])
    assert_allclose(view.queue_rate, [2 / 5, 3 / 5, 4 / 5, 1.0])
    assert_allclose(view.fpr, [0.0, 0.5, 0.5, 1.0])
    # F_2 = 5TP / (4n₊ + TP + FP)
    assert_allclose(view.f_beta, [10 / 14, 10 / 15, 15 / 16, 15 / 17])
    assert view.n_resamples == 0 and view.precision_band is None and view.band_index is None


def test_result_is_frozen_and_repr_compact():
    rng = np.random.default_rng(0)
    y = rng.random(5000) < 0.1
    view = threshold_view(y, rng.normal(size=5000) + y, n_resamples=10, rng=0)
    assert isinstance(view, ThresholdView)
    with pytest.raises(AttributeError):
        view.beta = 2.0  # type: ignore[misc]
    assert len(repr(view)) < 3000


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"beta": 0}, ValueError, r"beta: expected a finite number > 0, got 0"),
        ({"beta": "1"}, TypeError, r"beta: expected a number, got str '1'"),
        ({"n_resamples": 1}, ValueError, r"n_resamples: expected an integer >= 2, got 1"),
        ({"n_resamples": -3}, ValueError, r"n_resamples: expected 0 \(no band\) or an integer"),
        ({"n_resamples": 2.5}, TypeError, r"n_resamples: expected an integer, got float"),
        ({"level": 1.0}, ValueError, r"level: expected a number in \(0, 1\), got 1.0"),
        ({"max_band_points": 1}, ValueError, r"max_band_points: expected an integer >= 2"),
        ({"sampling": "rows"}, ValueError, r"sampling: expected one of .*got 'rows'"),
    ],
)
def test_bad_options_raise_one_clear_error(kwargs, error, match):
    with pytest.raises(error, match=match):
        threshold_view([0, 1, 0, 1], [0.1, 0.4, 0.35, 0.8], **kwargs)


def test_bad_metric_name():
    view = threshold_view([0, 1], [0.2, 0.7])
    with pytest.raises(ValueError, match=r"name: expected one of 'precision', .*got 'f1'"):
        view.metric("f1")
    with pytest.raises(ValueError, match=r"name: expected one of .*got 'tpr'"):
        view.band("tpr")


def test_one_class_is_refused():
    with pytest.raises(ValueError, match=r"y_true: expected both classes, got only negatives"):
        threshold_view([0, 0, 0], [0.1, 0.2, 0.3])


@pytest.mark.slow
def test_pointwise_bands_cover_the_population_values():
    """Binormal scores (separation 1.5, π = 0.2, n = 500): at thresholds flagging 5 %, 20 % and
    50 % of the rows every metric's 95 % band covers the population value at that threshold
    within the binomial limits of 150 data sets."""
    pi, sep, n, sets, b = 0.2, 1.5, 500, 150, 200
    queue = np.array([0.05, 0.2, 0.5])
    gen = np.random.default_rng(20261126)
    hits = {name: np.zeros(queue.size) for name in ("precision", "recall", "f_beta", "fpr")}
    hits["queue_rate"] = np.zeros(queue.size)
    for _ in range(sets):
        y = gen.random(n) < pi
        s = gen.normal(size=n) + sep * y
        view = threshold_view(y, s, n_resamples=b, rng=gen, max_band_points=n)
        rows = np.searchsorted(view.queue_rate, queue)
        t = np.asarray(view.thresholds[rows], float)
        tpr, fpr = stats.norm.sf(t - sep), stats.norm.sf(t)
        flagged = pi * tpr + (1 - pi) * fpr
        truth = {
            "precision": pi * tpr / flagged,
            "recall": tpr,
            "f_beta": 2 * pi * tpr / (pi + flagged),
            "queue_rate": flagged,
            "fpr": fpr,
        }
        for name, value in truth.items():
            band = view.band(name)
            assert band is not None
            low, high = np.asarray(band.low)[rows], np.asarray(band.high)[rows]
            hits[name] += (low <= value) & (value <= high)
    lo = stats.binom.ppf(0.001, sets, 0.95) / sets  # 0.1 % lower binomial limit: ≈ 0.89
    for name, h in hits.items():
        assert np.all(h / sets >= lo), (name, h / sets)


_FUZZ = settings(
    max_examples=int(os.environ.get("PRCURVE_FUZZ_EXAMPLES", "40")),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
_SCORES = st.sampled_from([0.0, 1.0, -1.0, 0.5, 5e-324, -1e308, 1e308, 3.0])
_WEIGHTS = st.sampled_from([0.0, 1.0, 1e-20, 1e20, 2.5, 7.0])


@_FUZZ
@given(
    rows=st.lists(st.tuples(st.booleans(), _SCORES, _WEIGHTS), min_size=2, max_size=30),
    weighted=st.booleans(),
    scale=st.sampled_from([1e-280, 1.0, 1e280]),
    beta=st.sampled_from([0.1, 1.0, 10.0]),
    seed=st.integers(0, 3),
)
def test_fuzz_no_silent_nan(rows, weighted, scale, beta, seed):
    """Ties, extreme scores, zero / tiny / huge weights: every number is finite or masked."""
    y = np.array([r[0] for r in rows])
    s = np.array([r[1] for r in rows])
    w = np.array([r[2] for r in rows]) * scale if weighted else None
    keep = np.ones(y.shape[0], bool) if w is None else w > 0
    assume(y[keep].any() and not y[keep].all())
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        view = threshold_view(y, s, sample_weight=w, beta=beta, n_resamples=3, rng=seed)
    for name in ("precision", "recall", "f_beta", "queue_rate", "fpr"):
        value = view.metric(name)
        assert np.all(np.isfinite(value)) and np.all((value >= 0) & (value <= 1 + 1e-12)), name
        band = view.band(name)
        assert band is not None
        finite = np.isfinite(band.low) & np.isfinite(band.high)
        if name == "precision":
            assert view.precision_defined is not None
            assert_array_equal(finite, view.precision_defined > 0)
        else:
            assert finite.all(), name
        assert np.all(np.asarray(band.low)[finite] <= np.asarray(band.high)[finite])
    for name in ("recall", "queue_rate", "fpr"):
        assert np.all(np.diff(view.metric(name)) >= 0)
        assert view.metric(name)[-1] == pytest.approx(1.0)
    assert {w.category for w in caught} <= {UndefinedMetricWarning}
    assert bool(caught) == bool(np.any(view.precision_defined == 0))
