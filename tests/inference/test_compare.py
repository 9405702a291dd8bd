"""Paired bootstrap comparison of two scorers."""

import numpy as np
import pytest

from prcurve import ComparisonResult, auc_pr, compare
from prcurve._core._area import AUC_PR_METHODS
from prcurve._core._batch import functional_precision
from prcurve._inference._compare import _paired_counts, _slots
from prcurve._inference._resample import prepare, replicate_counts, resample_multiplicities

from ..conftest import make_problem


@pytest.fixture
def two_scorers(rng):
    y, s, _ = make_problem(rng, n=300, prevalence=0.3)
    other = s + rng.normal(scale=0.8, size=300)
    return y, s, other


@pytest.mark.parametrize("sampling", ["instances", "stratified"])
@pytest.mark.parametrize("method", list(AUC_PR_METHODS))
def test_paired_replicates_equal_brute_force(two_scorers, method, sampling):
    y, a, b = two_scorers
    n_res = 20
    res = compare(y, a, b, method=method, n_resamples=n_res, rng=4, num=20, sampling=sampling)
    mp, mn = resample_multiplicities(
        np.random.default_rng(4), n_res, int(y.sum()), int((~y).sum()), sampling
    )
    for r in range(n_res):
        idx = np.r_[np.repeat(np.flatnonzero(y), mp[r]), np.repeat(np.flatnonzero(~y), mn[r])]
        for j, s in enumerate((a, b)):
            assert res.replicates[r, j] == pytest.approx(auc_pr(y[idx], s[idx], method=method))
    assert res.estimate_a == pytest.approx(auc_pr(y, a, method=method))
    assert res.difference == pytest.approx(res.estimate_a - res.estimate_b)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
def test_paired_counts_equal_replicate_counts_at_positive_columns(rng, ties, weights):
    """The compact counts (thresholds holding a positive, and just before them) are those of
    the full (b, k) replicate counts, and the functional estimator reads the same curve."""
    y, s, w = make_problem(rng, n=400, prevalence=0.15, ties=ties, weights=weights)
    smp = prepare(y, s, w)
    mp, mn = resample_multiplicities(rng, 7, int(y.sum()), int((~y).sum()), "instances")
    tp0, fp0, npos0, nneg0 = replicate_counts(smp, mp, mn, by_instance=True)
    sl = _slots(smp)
    tp, fp, tpp, fpp, npos, nneg = _paired_counts(smp, sl, mp, mn)
    assert sl.tie.shape[0] > 0 if ties else sl.tie.shape[0] == 0
    prev = sl.cols - 1
    want_tpp = np.where(prev >= 0, tp0[:, np.maximum(prev, 0)], 0)
    want_fpp = np.where(prev >= 0, fp0[:, np.maximum(prev, 0)], 0)
    for got, want in ((tp, tp0[:, sl.cols]), (fp, fp0[:, sl.cols]), (tpp, want_tpp),
                      (fpp, want_fpp), (npos, npos0), (nneg, nneg0)):  # fmt: skip
        if weights:
            np.testing.assert_allclose(got, want, rtol=1e-12)
        else:
            assert got.dtype == np.int64
            np.testing.assert_array_equal(got, want)
    grid = np.linspace(0.05, 0.95, 37)
    for mode in ("interpolate", "strict"):
        full = functional_precision(tp0, fp0, npos0, grid, ties=mode)
        part = functional_precision(tp, fp, npos, grid, tp_prev=tpp, fp_prev=fpp, ties=mode)
        np.testing.assert_allclose(part, full, rtol=1e-12)


def test_interval_and_p_value_definitions(two_scorers):
    y, a, b = two_scorers
    res = compare(y, a, b, n_resamples=400, rng=1)
    d = res.replicates[:, 0] - res.replicates[:, 1]
    lo, hi = np.quantile(d, [0.025, 0.975])
    assert (res.interval.low, res.interval.high) == pytest.approx((lo, hi))
    p = (1 + np.sum(np.abs(d - res.difference) >= abs(res.difference))) / 401
    assert res.p_value == pytest.approx(p)
    assert isinstance(res, ComparisonResult)
    with pytest.raises(AttributeError):
        res.p_value = 0.0


def test_pairing_reduces_variance(two_scorers):
    y, a, b = two_scorers
    res = compare(y, a, b, n_resamples=400, rng=2)
    d = res.replicates[:, 0] - res.replicates[:, 1]
    unpaired = res.replicates[:, 0].var() + res.replicates[:, 1].var()
    assert d.var() < 0.8 * unpaired


def test_identical_scorers():
    rng = np.random.default_rng(3)
    y, s, _ = make_problem(rng, n=200)
    res = compare(y, s, s, n_resamples=100, rng=0)
    assert res.difference == 0.0
    assert res.interval.low == res.interval.high == 0.0
    assert res.p_value == 1.0
    assert not res.bands_separate
    np.testing.assert_array_equal(res.band_a.band.low, res.band_b.band.low)


def test_clearly_different_scorers():
    rng = np.random.default_rng(4)
    y = rng.random(3000) < 0.1
    good = rng.normal(size=3000) + 2.5 * y
    bad = rng.normal(size=3000) + 0.5 * y
    res = compare(y, good, bad, n_resamples=300, rng=1)
    assert res.interval.low > 0
    assert res.p_value == pytest.approx(1 / 301)
    assert res.bands_separate


def test_bands_match_pr_confidence_band_definition(two_scorers):
    y, a, b = two_scorers
    res = compare(y, a, b, n_resamples=200, rng=5, recall_range=(0.1, 0.9), num=30)
    for band in (res.band_a, res.band_b):
        assert band.method == "bootstrap" and band.recall_range == (0.1, 0.9)
        q = np.sort(band.sup_statistic)[int(np.ceil(0.95 * 200)) - 1]
        assert band.radius == pytest.approx(q / np.sqrt(300))


def test_reproducible(two_scorers):
    y, a, b = two_scorers
    r1 = compare(y, a, b, n_resamples=50, rng=8)
    r2 = compare(y, a, b, n_resamples=50, rng=8)
    np.testing.assert_array_equal(r1.replicates, r2.replicates)


def test_weights_are_carried(two_scorers):
    y, a, b = two_scorers
    w = np.where(y, 2.0, 1.0)
    res = compare(y, a, b, sample_weight=w, n_resamples=20, rng=0)
    assert res.estimate_a == pytest.approx(auc_pr(y, a, sample_weight=w))


def test_progress(two_scorers):
    y, a, b = two_scorers
    calls = []
    compare(y, a, b, n_resamples=30, rng=0, progress=lambda d, t: calls.append((d, t)))
    assert calls[-1] == (30, 30)


# --------------------------------------------------------------------------- errors
def test_errors(two_scorers):
    y, a, b = two_scorers
    with pytest.raises(ValueError, match="y_true and score_b: expected the same length"):
        compare(y, a, b[:-1])
    with pytest.raises(ValueError, match=r"level: expected a number in \(0, 1\), got 95"):
        compare(y, a, b, level=95)
    with pytest.raises(ValueError, match="method: expected one of"):
        compare(y, a, b, method="roc")
    with pytest.raises(ValueError, match=r"recall_range: expected low < high"):
        compare(y, a, b, recall_range=(0.8, 0.2))
    with pytest.raises(ValueError, match=r"compare needs at least 2 positive\(s\)"):
        compare([1, 0, 0], [3, 2, 1], [1, 2, 3])
