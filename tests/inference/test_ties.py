"""Intervals under tied scores hold the drawn (Davis–Goadrich interpolated) curve (issue 10)."""

import numpy as np
import pytest
from scipy import stats

from prcurve import auc_pr_ci, compare, pr_confidence_band, pr_curve, pr_pointwise_ci

from ..conftest import make_problem


def rounded_binormal(rng, n, prevalence=0.2, shift=1.5, decimals=1):
    y = rng.random(n) < prevalence
    y[:2] = True, False
    s = np.round(rng.normal(size=n) + shift * y, decimals)
    return y, s


def brute_force_expected_precision(y, s, beta, n_orders=2000):
    """Precision of the expected operating point where the expected positives reach n₊β.

    Tie groups are put in uniformly random order; the mean TP and FP after each position of the
    ranked list are averaged over the orders, and read (linearly) where mean TP = n₊β.
    """
    gen = np.random.default_rng(0)
    n_pos = y.sum()
    keys = gen.random((n_orders, len(y)))
    order = np.lexsort((keys, np.broadcast_to(-s, keys.shape)), axis=-1)
    tp = np.concatenate([np.zeros((n_orders, 1)), np.cumsum(y[order], axis=1)], axis=1)
    fp = np.concatenate([np.zeros((n_orders, 1)), np.cumsum(~y[order], axis=1)], axis=1)
    mtp, mfp = tp.mean(axis=0), fp.mean(axis=0)
    target = n_pos * beta
    k = np.searchsorted(mtp, target)  # first position whose mean TP reaches the target
    share = (target - mtp[k - 1]) / (mtp[k] - mtp[k - 1])
    above = mfp[k - 1] + share * (mfp[k] - mfp[k - 1])
    return target / (target + above)


@pytest.mark.parametrize("weighted", [False, True])
def test_interpolate_is_the_drawn_curve(rng, weighted):
    for _ in range(20):
        y, s, w = make_problem(rng, n=int(rng.integers(10, 120)), ties=True, weights=weighted)
        s = np.round(s)  # heavy ties, also across classes
        curve = pr_curve(y, s, sample_weight=w)
        # random recall levels, and every k/n₊ (the tops of vertical drops)
        r = np.r_[rng.uniform(1e-3, 1.0, 40), np.unique(curve.recall[curve.recall > 0])]
        np.testing.assert_allclose(curve.precision_at(r), curve.interpolate(r)[1], rtol=1e-12)


def test_interpolate_is_the_expected_precision_under_random_tie_order():
    y = np.array([1, 0, 1, 0, 0, 1, 1, 0, 1, 0], bool)
    s = np.array([3, 3, 3, 2, 2, 2, 1, 1, 1, 1], float)
    curve = pr_curve(y, s)
    for beta in (0.1, 0.3, 0.5, 0.7, 0.9):
        want = brute_force_expected_precision(y, s, beta)
        assert curve.precision_at(beta) == pytest.approx(want, rel=0.03)


def test_strict_and_interpolate_agree_bit_for_bit_without_ties(rng):
    y, s, w = make_problem(rng, n=200, weights=True)
    curve = pr_curve(y, s, sample_weight=w)
    r = np.linspace(0.01, 1, 99)
    np.testing.assert_array_equal(curve.precision_at(r), curve.precision_at(r, ties="strict"))


@pytest.mark.parametrize("method", ["smoothed_bootstrap", "bootstrap"])
def test_band_holds_its_drawn_curve_under_ties(method):
    y, s = rounded_binormal(np.random.default_rng(5), 600)
    curve = pr_curve(y, s)
    band = pr_confidence_band(y, s, method=method, n_resamples=200, num=80, rng=1)
    drawn = curve.interpolate(band.recall)[1]
    np.testing.assert_allclose(band.estimate, drawn, rtol=1e-12)
    assert band.contains(drawn)
    strict = pr_confidence_band(y, s, method=method, n_resamples=200, num=80, rng=1, ties="strict")
    # the papers' estimator reads the tie groups differently: its centre leaves the drawn curve
    assert np.abs(strict.estimate - drawn).max() > 0.05
    assert strict.ties == "strict" and band.ties == "interpolate"


@pytest.mark.parametrize("method", ["normal", "bootstrap"])
def test_pointwise_intervals_hold_the_drawn_curve_under_ties(method):
    y, s = rounded_binormal(np.random.default_rng(6), 800)
    recall = np.linspace(0.05, 0.95, 19)
    res = pr_pointwise_ci(y, s, recall, method=method, n_resamples=300, rng=2)
    drawn = pr_curve(y, s).interpolate(recall)[1]
    np.testing.assert_allclose(res.estimate, drawn, rtol=1e-12)
    assert np.isfinite(res.standard_error).all()
    assert ((res.interval.low <= drawn) & (drawn <= res.interval.high)).all()


def test_compare_bands_hold_both_drawn_curves_and_separate():
    """Two scorers whose AP differ widely, rounded to one decimal: the bands must separate."""
    gen = np.random.default_rng(7)
    y, good = rounded_binormal(gen, 1500, shift=3.0)
    weak = np.round(gen.normal(size=y.shape[0]) + 0.1 * y, 1)
    res = compare(y, good, weak, n_resamples=200, num=60, rng=3)
    for band, s in ((res.band_a, good), (res.band_b, weak)):
        assert band.contains(pr_curve(y, s).interpolate(band.recall)[1])
    assert res.estimate_a - res.estimate_b > 0.5
    assert res.bands_separate


# --------------------------------------------------------------------------- issue 16 item 3
def test_constant_score_has_the_binomial_interval_of_its_one_point():
    y = np.array([1] * 5 + [0] * 17)
    s = np.full(22, 1.7976931348623157e308)
    p = 5 / 22
    res = pr_pointwise_ci(y, s, [0.25, 0.5, 0.75], method="normal")
    np.testing.assert_allclose(res.estimate, p, rtol=1e-14)
    se = np.sqrt(p * (1 - p) / 22)
    np.testing.assert_allclose(res.standard_error, se, rtol=1e-12)
    z = stats.norm.ppf(0.975)
    np.testing.assert_allclose(res.interval.low, p - z * se, rtol=1e-12)
    np.testing.assert_allclose(res.interval.high, p + z * se, rtol=1e-12)
    boot = pr_pointwise_ci(y, s, [0.25, 0.5, 0.75], method="bootstrap", n_resamples=2000, rng=0)
    np.testing.assert_allclose(boot.estimate, p, rtol=1e-14)
    # every replicate is a constant score too: its precision is the replicate's prevalence
    assert np.isfinite(boot.replicates).all()
    assert boot.standard_error == pytest.approx(np.full(3, se), rel=0.1)
    # the strict estimator has the same single point here (no negatives strictly above)
    strict = pr_pointwise_ci(y, s, [0.5], method="normal", ties="strict")
    assert strict.estimate[0] == 1.0 and np.isfinite(strict.standard_error).all()


def test_atom_variance_matches_monte_carlo_on_a_discrete_law():
    """Delta-method σ at a tied quantile against the spread of the estimator over samples."""
    gen = np.random.default_rng(11)
    n, reps, recall = 800, 400, np.array([0.3, 0.6])
    neg, pos = stats.binom(6, 0.4), stats.binom(6, 0.6)
    est, se = np.empty((reps, 2)), np.empty((reps, 2))
    for r in range(reps):
        y = gen.random(n) < 0.3
        s = np.where(y, pos.rvs(n, random_state=gen), neg.rvs(n, random_state=gen))
        res = pr_pointwise_ci(y, s.astype(float), recall, method="normal")
        est[r], se[r] = res.estimate, res.standard_error
    np.testing.assert_allclose(np.median(se, axis=0), est.std(axis=0), rtol=0.12)


def test_ties_option_is_validated():
    y, s = rounded_binormal(np.random.default_rng(0), 50)
    with pytest.raises(ValueError, match="ties: expected one of"):
        pr_confidence_band(y, s, ties="random")
    with pytest.raises(ValueError, match="ties: expected one of"):
        pr_pointwise_ci(y, s, [0.5], ties="mean")
    with pytest.raises(ValueError, match="ties: expected one of"):
        pr_curve(y, s).precision_at(0.5, ties="upper")
    with pytest.raises(ValueError, match="sampling: expected one of 'instances', 'stratified'"):
        compare(y, s, s, sampling="fixed")
    with pytest.raises(ValueError, match="sampling: expected one of"):
        auc_pr_ci(y, s, interval="bootstrap_bca", sampling="case-control")
    with pytest.raises(ValueError, match="sampling: expected one of"):
        pr_pointwise_ci(y, s, [0.5], method="bootstrap", sampling=None)
    with pytest.raises(ValueError, match="sampling: expected one of"):
        pr_confidence_band(y, s, method="bootstrap", sampling="rows")


def test_drawn_curve_never_exceeds_one_on_a_segment_without_negatives():
    """Found by the fuzz: TP_A + frac·ΔTP rounded below TP gave precision 1 + 2⁻⁵²."""
    y = np.array([False] + [True] * 10)
    s = np.asarray([-(2**63)] * 9 + [-(2**63) + 1] * 2, dtype=np.int64)
    w = np.array([1.0] * 10 + [12.0])
    curve = pr_curve(y, s, sample_weight=w)
    _, p = curve.interpolate(num=17)
    assert p.max() == 1.0
    r = np.linspace(0.01, 1, 300)
    assert curve.precision_at(r).max() == 1.0
    np.testing.assert_allclose(curve.precision_at(r), curve.interpolate(r)[1], rtol=1e-12)
