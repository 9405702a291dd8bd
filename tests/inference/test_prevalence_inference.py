"""The paired comparison and the confidence band at a deployment prevalence π.

Checked against the same functions on explicitly reweighted data (same ``rng``), against a
brute-force recomputation of every replicate with scikit-learn, and against the closed form
precision_π(r) = π r / (π r + (1 − π) FPR(r)).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

from prcurve import compare, pr_confidence_band, pr_curve
from prcurve._inference._resample import resample_multiplicities


def _data(seed: int = 0, n: int = 400, p: float = 0.25):
    gen = np.random.default_rng(seed)
    y = gen.random(n) < p
    a = gen.normal(size=n) + 1.5 * y
    b = gen.normal(size=n) + 1.0 * y
    return y, a, b


def _negative_weights(y: np.ndarray, pi: float) -> np.ndarray:
    n_pos, n_neg = np.count_nonzero(y), np.count_nonzero(~y)
    return np.where(y, 1.0, n_pos * (1 - pi) / (pi * n_neg))


@pytest.mark.parametrize("pi", [0.01, 0.5, 0.9])
def test_compare_at_prevalence_equals_compare_on_reweighted_data(pi):
    y, a, b = _data()
    got = compare(y, a, b, prevalence=pi, n_resamples=60, rng=3, sampling="stratified")
    want = compare(
        y, a, b, sample_weight=_negative_weights(y, pi), n_resamples=60, rng=3,
        sampling="stratified",
    )  # fmt: skip
    assert got.prevalence == pi and got.prevalence_count is None
    assert got.estimate_a == pytest.approx(want.estimate_a, rel=1e-12)
    assert got.estimate_b == pytest.approx(want.estimate_b, rel=1e-12)
    np.testing.assert_allclose(got.replicates, want.replicates, rtol=1e-10)
    assert got.interval.low == pytest.approx(want.interval.low, rel=1e-10)
    assert got.interval.high == pytest.approx(want.interval.high, rel=1e-10)
    assert got.p_value == pytest.approx(want.p_value)
    np.testing.assert_allclose(got.band_a.estimate, want.band_a.estimate, rtol=1e-10)
    assert got.band_b.radius == pytest.approx(want.band_b.radius, rel=1e-10)
    # and the estimate is scikit-learn's average precision of the reweighted data
    ap = average_precision_score(y, a, sample_weight=_negative_weights(y, pi))
    assert got.estimate_a == pytest.approx(ap, rel=1e-10)


def test_compare_at_prevalence_replicates_equal_brute_force():
    """Instances sampling: every replicate is reweighted to π with its own class totals."""
    y, a, b = _data(1, n=300)
    pi, b_reps = 0.02, 25
    got = compare(y, a, b, prevalence=pi, n_resamples=b_reps, rng=7)
    gen = np.random.default_rng(7)
    n_pos, n_neg = np.count_nonzero(y), np.count_nonzero(~y)
    mp, mn = resample_multiplicities(gen, b_reps, n_pos, n_neg, "instances")
    for r in range(b_reps):
        mult = np.empty(y.shape[0])
        mult[y], mult[~y] = mp[r], mn[r]
        k_pos, k_neg = mp[r].sum(), mn[r].sum()
        w = mult * np.where(y, 1.0, k_pos * (1 - pi) / (pi * k_neg))
        keep = w > 0
        for j, s in enumerate((a, b)):
            want = average_precision_score(y[keep], s[keep], sample_weight=w[keep])
            assert got.replicates[r, j] == pytest.approx(want, rel=1e-9)


def test_compare_estimated_prevalence_is_wider_and_shares_the_draw():
    y, a, b = _data(2)
    known = compare(y, a, b, prevalence=0.01, n_resamples=300, rng=5)
    counted = compare(y, a, b, prevalence=(10, 1000), n_resamples=300, rng=5)
    assert counted.prevalence == pytest.approx(0.01) and counted.prevalence_count == (10, 1000)
    assert counted.difference == pytest.approx(known.difference, rel=1e-12)
    spread = np.std(counted.replicates, axis=0)
    assert np.all(spread > np.std(known.replicates, axis=0))
    # one π* per replicate for both scorers: the two areas move together
    assert np.corrcoef(counted.replicates.T)[0, 1] > np.corrcoef(known.replicates.T)[0, 1]


def test_compare_bad_prevalence():
    y, a, b = _data()
    with pytest.raises(ValueError, match=r"prevalence: expected a number in \(0, 1\)"):
        compare(y, a, b, prevalence=1.5, n_resamples=10)
    with pytest.raises(ValueError, match=r"prevalence: expected counts \(k, m\) with 0 < k < m"):
        compare(y, a, b, prevalence=(5, 3), n_resamples=10)


@pytest.mark.parametrize("pi", [0.01, 0.3])
def test_band_centre_is_the_curve_at_prevalence(pi):
    y, a, _ = _data(3)
    band = pr_confidence_band(y, a, method="bootstrap", prevalence=pi, n_resamples=20, rng=0)
    assert band.prevalence == pi
    # closed form: π r / (π r + (1 − π) FPR(r)) with the curve's FPR at each grid recall
    curve = pr_curve(y, a)
    shifted = curve.at_prevalence(pi)
    np.testing.assert_allclose(band.estimate, shifted.precision_at(band.recall), rtol=1e-12)
    base = curve.precision_at(band.recall)
    n_pos, n_neg = curve.n_pos, curve.n_neg
    fpr = band.recall * n_pos * (1 - base) / (base * n_neg)
    closed = pi * band.recall / (pi * band.recall + (1 - pi) * fpr)
    np.testing.assert_allclose(band.estimate, closed, rtol=1e-10)


def test_band_at_prevalence_matches_the_comparison_band():
    """The same reweighted replicates through ``compare`` (stratified) give the same radius."""
    y, a, b = _data(4)
    pi = 0.05
    band = pr_confidence_band(
        y, a, method="bootstrap", prevalence=pi, n_resamples=80, rng=9, sampling="stratified"
    )
    via = compare(y, a, b, prevalence=pi, n_resamples=80, rng=9, sampling="stratified")
    np.testing.assert_allclose(band.estimate, via.band_a.estimate, rtol=1e-12)
    # compare draws per instance and the band by rank: different replicates, similar radius
    assert band.radius == pytest.approx(via.band_a.radius, rel=0.35)


def test_band_at_prevalence_replicates_equal_brute_force():
    y, a, _ = _data(5, n=250)
    pi, b_reps = 0.01, 15
    band = pr_confidence_band(
        y, a, method="bootstrap", prevalence=pi, n_resamples=b_reps, rng=4, num=30
    )
    gen = np.random.default_rng(4)
    n_pos, n_neg = np.count_nonzero(y), np.count_nonzero(~y)
    mp, mn = resample_multiplicities(gen, b_reps, n_pos, n_neg, "instances")
    ps, ns = np.sort(a[y])[::-1], np.sort(a[~y])[::-1]  # rank order, as the band resamples
    sups = []
    for r in range(b_reps):
        s = np.concatenate([np.repeat(ps, mp[r]), np.repeat(ns, mn[r])])
        lab = np.concatenate([np.ones(mp[r].sum(), bool), np.zeros(mn[r].sum(), bool)])
        rep = pr_curve(lab, s).at_prevalence(pi).precision_at(band.recall)
        sups.append(np.max(np.abs(rep - band.estimate)))
    np.testing.assert_allclose(band.sup_statistic / np.sqrt(band.n), sups, rtol=1e-9)


def test_band_prevalence_needs_the_naive_bootstrap():
    y, a, _ = _data()
    with pytest.raises(ValueError, match="method: expected 'bootstrap' with prevalence"):
        pr_confidence_band(y, a, prevalence=0.01, n_resamples=10)
    with pytest.raises(ValueError, match=r"prevalence: expected a number in \(0, 1\)"):
        pr_confidence_band(y, a, method="bootstrap", prevalence=0.0, n_resamples=10)
