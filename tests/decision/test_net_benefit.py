"""Net benefit against brute force, closed forms and the ``dcurves`` package."""

import numpy as np
import pytest
from scipy import stats

from prcurve import net_benefit

from ..conftest import import_reference


def _data(seed, n=400, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.25
    p = 1 / (1 + np.exp(-(rng.normal(size=n) + 1.4 * y - 1.2)))
    return y, (np.round(p, 2) if ties else p)


@pytest.mark.parametrize("prevalence", [None, 0.05, 0.7])
@pytest.mark.parametrize("weights", [False, True])
def test_net_benefit_matches_direct_recomputation(prevalence, weights):
    y, p = _data(3, ties=True)
    w = np.random.default_rng(4).exponential(size=y.shape[0]) if weights else None
    ww = np.ones(y.shape[0]) if w is None else w
    p_t = np.array([0.0, 0.01, 0.2, 0.27, 0.5, 0.93, 0.999])
    nb = net_benefit(y, p, threshold_probabilities=p_t, prevalence=prevalence, sample_weight=w)
    pi = (ww * y).sum() / ww.sum() if prevalence is None else prevalence
    flagged = p[None, :] >= p_t[:, None]
    tpr = (flagged * (ww * y)).sum(1) / (ww * y).sum()
    fpr = (flagged * (ww * ~y)).sum(1) / (ww * ~y).sum()
    odds = p_t / (1 - p_t)
    np.testing.assert_allclose(nb.net_benefit, pi * tpr - (1 - pi) * fpr * odds, atol=1e-12)
    np.testing.assert_allclose(nb.treat_all, pi - (1 - pi) * odds, atol=1e-15)
    np.testing.assert_array_equal(nb.treat_none, 0.0)
    assert nb.prevalence == pytest.approx(pi, abs=1e-15)
    if prevalence is None and w is None:  # Vickers & Elkin's count form TP/n - FP/n * odds
        n = y.shape[0]
        tp, fp = (flagged & y).sum(1), (flagged & ~y).sum(1)
        np.testing.assert_allclose(nb.net_benefit, tp / n - fp / n * odds, atol=1e-15)
    # the best operating point for each p_t: brute force over every threshold and flag nothing
    thresholds = np.concatenate([[np.inf], np.unique(p)[::-1]])
    every = p[None, :] >= thresholds[:, None]
    all_tpr = (every * (ww * y)).sum(1) / (ww * y).sum()
    all_fpr = (every * (ww * ~y)).sum(1) / (ww * ~y).sum()
    values = pi * all_tpr[None, :] - (1 - pi) * all_fpr[None, :] * odds[:, None]
    np.testing.assert_allclose(nb.best_net_benefit, values.max(axis=1), atol=1e-12)
    assert np.all(nb.best_net_benefit >= nb.net_benefit - 1e-12)
    assert np.all(nb.best_net_benefit >= -1e-15)  # flag nothing is always available
    chosen = np.searchsorted(-thresholds, -nb.best_thresholds)  # index of each best threshold
    np.testing.assert_array_equal(thresholds[chosen], nb.best_thresholds)
    np.testing.assert_allclose(values[np.arange(p_t.shape[0]), chosen], nb.best_net_benefit,
                               atol=1e-12)  # fmt: skip


def test_best_threshold_prefers_the_higher_threshold_on_ties():
    # p_t = 0.5 (odds 1), prevalence 1/2: NB(t) = (TP - FP)/n.  Flagging >= 0.9 (TP 1, FP 0)
    # ties with flagging >= 0.3 (TP 2, FP 1): the higher threshold is reported
    nb = net_benefit([1, 0, 1, 0], [0.9, 0.8, 0.3, 0.2], threshold_probabilities=[0.5])
    assert nb.best_thresholds.tolist() == [0.9] and nb.best_net_benefit.tolist() == [0.25]
    # here every threshold has NB <= 0, and 0.8 and 0.2 tie with flagging nothing at 0.5
    nb = net_benefit([0, 1, 0, 1], [0.9, 0.8, 0.3, 0.2], threshold_probabilities=[0.5, 0.95])
    assert nb.best_thresholds.tolist() == [np.inf, np.inf]
    assert nb.best_net_benefit.tolist() == [0.0, 0.0]


@pytest.mark.reference
@pytest.mark.parametrize("prevalence", [None, 0.03])
def test_dcurves_agrees_to_1e_12(prevalence):
    """``dcurves.dca`` (binary outcome; ``prevalence`` there is the case-control prevalence).

    One convention differs: dcurves nudges a risk of exactly 0 to -eps and 1 to 1 + eps, so a
    score of 0 is never flagged, even at p_t = 0 where ``score >= 0`` flags it here.  On the
    data set with exact zeros p_t = 0 is therefore left out of the comparison.
    """
    pd = import_reference("pandas")
    dcurves = import_reference("dcurves")
    thresholds = np.round(np.arange(0.0, 1.0, 0.01), 2)
    for seed, ties in [(5, False), (6, True), (7, False)]:
        y, p = _data(seed, n=250 + 50 * seed, ties=ties)
        if ties:  # exact 0 and 1 scores, on both classes
            p[:4] = [0.0, 1.0, 0.0, 1.0]
            y[:4] = [True, True, False, False]
        frame = pd.DataFrame({"y": y.astype(int), "p": p})
        ref = dcurves.dca(
            data=frame, outcome="y", modelnames=["p"], thresholds=thresholds, prevalence=prevalence
        )
        mine = net_benefit(y, p, threshold_probabilities=thresholds, prevalence=prevalence)
        keep = thresholds > 0 if ties else np.ones(thresholds.shape[0], dtype=bool)
        for name, ours in [("p", mine.net_benefit), ("all", mine.treat_all),
                           ("none", mine.treat_none)]:  # fmt: skip
            theirs = ref[ref["model"] == name].sort_values("threshold")
            np.testing.assert_array_equal(theirs["threshold"], thresholds)
            np.testing.assert_allclose(
                ours[keep], theirs["net_benefit"].to_numpy()[keep], rtol=0, atol=1e-12
            )


def test_bootstrap_intervals_are_reproducible_and_hold_the_estimate():
    y, p = _data(8)
    p_t = [0.05, 0.2, 0.4, 0.995]
    a = net_benefit(y, p, threshold_probabilities=p_t, interval="bootstrap", n_resamples=300, rng=3)
    b = net_benefit(y, p, threshold_probabilities=p_t, interval="bootstrap", n_resamples=300, rng=3)
    np.testing.assert_array_equal(a.net_benefit_interval.low, b.net_benefit_interval.low)
    assert a.level == 0.95 and a.n_resamples == 300
    lo, hi = a.net_benefit_interval
    assert np.all(lo[:3] < a.net_benefit[:3]) and np.all(a.net_benefit[:3] < hi[:3])
    assert lo[3] == hi[3] == a.net_benefit[3] == 0.0  # no score reaches 0.995: nothing flagged
    all_lo, all_hi = a.treat_all_interval
    assert np.all(all_lo < a.treat_all) and np.all(a.treat_all < all_hi)
    # a known deployment prevalence: treat-all is fixed; an estimated one (k, m) is not
    known = net_benefit(y, p, threshold_probabilities=p_t, prevalence=0.1, interval="bootstrap",
                        n_resamples=100, rng=0)  # fmt: skip
    np.testing.assert_array_equal(known.treat_all_interval.low, known.treat_all)
    np.testing.assert_array_equal(known.treat_all_interval.high, known.treat_all)
    counted = net_benefit(y, p, threshold_probabilities=p_t, prevalence=(10, 100),
                          interval="bootstrap", n_resamples=100, rng=0)  # fmt: skip
    assert counted.prevalence == 0.1
    # stratified resampling keeps the class counts: treat-all is fixed at the data's prevalence
    fixed = net_benefit(y, p, threshold_probabilities=p_t, interval="bootstrap", n_resamples=50,
                        rng=0, sampling="stratified")  # fmt: skip
    np.testing.assert_allclose(fixed.treat_all_interval.low, fixed.treat_all, atol=1e-15)
    np.testing.assert_allclose(fixed.treat_all_interval.high, fixed.treat_all, atol=1e-15)
    assert np.all(counted.treat_all_interval.high[:3] > counted.treat_all_interval.low[:3])


def _binormal_truth(p_t, pi, delta):
    """True NB of flagging the calibrated posterior >= p_t: x|y ~ N(delta*y, 1)."""
    logit = np.log(p_t / (1 - p_t))
    x_t = (logit - np.log(pi / (1 - pi)) + delta**2 / 2) / delta
    tpr, fpr = stats.norm.sf(x_t - delta), stats.norm.sf(x_t)
    return pi * tpr - (1 - pi) * fpr * p_t / (1 - p_t), pi - (1 - pi) * p_t / (1 - p_t)


@pytest.mark.slow
def test_interval_coverage_by_simulation():
    """200 data sets of 400 (π = 0.2): 95% intervals cover 0.95 within binomial bounds."""
    pi, delta, n, sims = 0.2, 1.5, 400, 200
    p_t = np.array([0.1, 0.2, 0.35])
    truth, truth_all = _binormal_truth(p_t, pi, delta)
    rng = np.random.default_rng(2024)
    hits, hits_all = np.zeros(3), np.zeros(3)
    for _ in range(sims):
        y = rng.random(n) < pi
        x = rng.normal(size=n) + delta * y
        p = 1 / (1 + np.exp(-(np.log(pi / (1 - pi)) + delta * x - delta**2 / 2)))
        nb = net_benefit(y, p, threshold_probabilities=p_t, interval="bootstrap",
                         n_resamples=200, rng=rng)  # fmt: skip
        lo, hi = nb.net_benefit_interval
        hits += (lo <= truth) & (truth <= hi)
        lo, hi = nb.treat_all_interval
        hits_all += (lo <= truth_all) & (truth_all <= hi)
    # 0.95 coverage: 200 trials, sd 0.0154; accept 0.95 +- 3.3 sd (and the percentile
    # bootstrap's known slight under-coverage at n = 400)
    assert np.all(hits / sims >= 0.90) and np.all(hits / sims <= 0.995), hits / sims
    assert np.all(hits_all / sims >= 0.90) and np.all(hits_all / sims <= 0.995), hits_all / sims


def test_errors_name_the_parameter():
    y, p = [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8]
    with pytest.raises(ValueError, match=r"threshold_probabilities: expected values in \[0, 1\)"):
        net_benefit(y, p, threshold_probabilities=[0.2, 1.0])
    with pytest.raises(ValueError, match=r"threshold_probabilities: expected a non-empty 1-D"):
        net_benefit(y, p, threshold_probabilities=[])
    with pytest.raises(ValueError, match=r"prevalence: expected a number in \(0, 1\), got 0"):
        net_benefit(y, p, prevalence=0)
    with pytest.raises(ValueError, match=r"interval: expected one of 'bootstrap', got 'wald'"):
        net_benefit(y, p, interval="wald")
    with pytest.raises(ValueError, match=r"sampling: expected one of 'instances', 'stratified'"):
        net_benefit(y, p, sampling="cases")
    with pytest.raises(ValueError, match=r"n_resamples: expected an integer >= 2, got 1"):
        net_benefit(y, p, interval="bootstrap", n_resamples=1)
