"""Pointwise intervals of the PR curve: normal approximation (σ²(x)) and bootstrap."""

import numpy as np
import pytest
from scipy import stats

from prcurve import PointwiseCI, pr_curve, pr_pointwise_ci
from prcurve._core._batch import functional_precision
from prcurve._inference._kernel import gaussian_kde, silverman_bandwidth
from prcurve._inference._resample import (
    prepare,
    replicate_counts,
    stratified_multiplicities,
)
from prcurve._population._asymptotic import pr_asymptotic_variance

from ..conftest import make_problem

NEG, POS, PI = stats.norm(0, 1), stats.norm(1.5, 1), 0.25


def true_sigma2(x):
    """σ²(x) of the binormal model from its exact densities."""
    t = POS.ppf(1 - x)
    alpha = NEG.sf(t)
    prec = PI * x / (PI * x + (1 - PI) * alpha)
    return pr_asymptotic_variance(prec, x, alpha, NEG.pdf(t) / POS.pdf(t), (1 - PI) / PI)


def draw(rng, n):
    y = rng.random(n) < PI
    s = np.where(y, POS.rvs(size=n, random_state=rng), NEG.rvs(size=n, random_state=rng))
    return y, s


# --------------------------------------------------------------------------- engine pieces
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_batched_functional_estimator_equals_precision_at(rng, ties, weighted):
    y, s, w = make_problem(rng, n=90, prevalence=0.3, ties=ties, weights=weighted)
    sample = prepare(y, s, w)
    mp, mn = stratified_multiplicities(rng, 20, int(y.sum()), int((~y).sum()))
    tp, fp, npos, _ = replicate_counts(sample, mp, mn, by_instance=True)
    beta = np.r_[np.linspace(0.01, 1.0, 57), 1 / 3, 0.5]
    got = functional_precision(tp, fp, npos, beta)
    for r in range(20):
        idx = np.r_[np.repeat(np.flatnonzero(y), mp[r]), np.repeat(np.flatnonzero(~y), mn[r])]
        curve = pr_curve(y[idx], s[idx], sample_weight=None if w is None else w[idx])
        np.testing.assert_allclose(got[r], curve.precision_at(beta), rtol=1e-12)


def test_kernel_density_and_silverman(rng):
    x = rng.normal(size=400)
    h = silverman_bandwidth(x)
    iqr = np.subtract(*np.percentile(x, [75, 25]))
    assert h == pytest.approx(0.9 * min(x.std(ddof=1), iqr / 1.34) * 400 ** (-0.2))
    at = np.array([-1.0, 0.0, 0.7])
    expected = stats.norm.pdf((at[:, None] - x[None, :]) / h).mean(axis=1) / h
    np.testing.assert_allclose(gaussian_kde(x, at, h), expected, rtol=1e-12)
    # equal weights change nothing
    assert silverman_bandwidth(x, np.full(400, 3.0)) == pytest.approx(h, rel=1e-2)
    np.testing.assert_allclose(gaussian_kde(x, at, h, np.full(400, 3.0)), expected, rtol=1e-12)


# --------------------------------------------------------------------------- asymptotics
def test_asymptotic_variance_matches_monte_carlo():
    """n·Var(PR̂(x)) over seeded binormal samples ≈ the corrected σ²(x)."""
    rng = np.random.default_rng(5)
    n, reps = 4000, 1000
    x = np.array([0.2, 0.5, 0.8])
    est = np.array([pr_curve(*draw(rng, n)).precision_at(x) for _ in range(reps)])
    mc = n * est.var(axis=0, ddof=1)
    # relative standard error of a variance from 1000 draws is about √(2/1000) = 4.5 %: z ≈ 3
    np.testing.assert_allclose(mc, true_sigma2(x), rtol=0.15)
    # eq. (9) as printed (without PR⁴/x² on its last two terms) is far off at both ends
    t = POS.ppf(1 - x)
    a, r = NEG.sf(t), NEG.pdf(t) / POS.pdf(t)
    pr = PI * x / (PI * x + (1 - PI) * a)
    printed = (1 - PI) * pr**4 * a**2 / (x**2 * PI**3) + (1 - PI) ** 2 * x * (1 - x) * r**2 / PI**3
    printed += (1 - PI) * a * (1 - a) / PI**2
    ratio = mc / printed
    assert ratio[0] > 3 and ratio[2] < 1 / 3


def test_plug_in_standard_error_estimates_sigma():
    rng = np.random.default_rng(6)
    n = 20000
    y, s = draw(rng, n)
    x = np.array([0.2, 0.5, 0.8])
    ci = pr_pointwise_ci(y, s, x)
    np.testing.assert_allclose(ci.standard_error * np.sqrt(n), np.sqrt(true_sigma2(x)), rtol=0.1)
    z = stats.norm.ppf(0.975)
    np.testing.assert_allclose(ci.interval.high - ci.interval.low, 2 * z * ci.standard_error)


def test_normal_interval_coverage_small_monte_carlo():
    rng = np.random.default_rng(7)
    x = np.array([0.3, 0.6])
    t = POS.ppf(1 - x)
    truth = PI * x / (PI * x + (1 - PI) * NEG.sf(t))
    hits = np.zeros(2)
    reps = 200
    for _ in range(reps):
        ci = pr_pointwise_ci(*draw(rng, 1500), x)
        hits += ci.interval.contains(truth)
    # 200 replicates: binomial SE of a coverage √(0.95·0.05/200) = 0.015; z = 3.2
    assert np.all(np.abs(hits / reps - 0.95) < 0.05)


def test_equal_weights_change_nothing(rng):
    y, s, _ = make_problem(rng, n=400)
    a = pr_pointwise_ci(y, s, [0.3, 0.7])
    b = pr_pointwise_ci(y, s, [0.3, 0.7], sample_weight=np.full(400, 2.5))
    np.testing.assert_allclose(a.interval.low, b.interval.low, rtol=1e-3)
    np.testing.assert_allclose(a.estimate, b.estimate)


# --------------------------------------------------------------------------- bootstrap
def test_bootstrap_reproducible_and_percentile(rng):
    y, s, _ = make_problem(rng, n=300)
    a = pr_pointwise_ci(y, s, [0.25, 0.5, 1.0], method="bootstrap", n_resamples=200, rng=4)
    b = pr_pointwise_ci(y, s, [0.25, 0.5, 1.0], method="bootstrap", n_resamples=200, rng=4)
    np.testing.assert_array_equal(a.replicates, b.replicates)
    assert a.replicates.shape == (200, 3)
    lo, hi = np.quantile(a.replicates, [0.025, 0.975], axis=0)
    np.testing.assert_allclose(a.interval.low, lo, rtol=1e-14)
    np.testing.assert_allclose(a.interval.high, hi, rtol=1e-14)
    np.testing.assert_allclose(a.estimate, pr_curve(y, s).precision_at([0.25, 0.5, 1.0]))
    # at recall 1 the stratified bootstrap keeps n₊: precision is the replicate's n₊/(n₊+fp)
    assert np.all(a.replicates[:, 2] > 0)
    assert isinstance(a, PointwiseCI) and a.method == "bootstrap" and a.n_resamples == 200


def test_bootstrap_and_normal_standard_errors_are_close():
    rng = np.random.default_rng(8)
    y, s = draw(rng, 5000)
    x = [0.4, 0.6]
    normal = pr_pointwise_ci(y, s, x)
    boot = pr_pointwise_ci(y, s, x, method="bootstrap", n_resamples=400, rng=1)
    # the stratified bootstrap holds n₊ fixed, so it misses the α²(1 + skew) term of σ²
    assert np.all(boot.standard_error < normal.standard_error * 1.1)
    assert np.all(boot.standard_error > normal.standard_error * 0.6)


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize("level", [0.0, 1.0, 2])
def test_level_checked(rng, level):
    y, s, _ = make_problem(rng)
    with pytest.raises(ValueError, match=r"level: expected a number in \(0, 1\)"):
        pr_pointwise_ci(y, s, [0.5], level=level)


def test_recall_checked(rng):
    y, s, _ = make_problem(rng)
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\), got 1.0"):
        pr_pointwise_ci(y, s, [0.5, 1.0])
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\], got 0.0"):
        pr_pointwise_ci(y, s, [0.0], method="bootstrap")


def test_method_checked(rng):
    y, s, _ = make_problem(rng)
    with pytest.raises(ValueError, match="method: expected one of 'normal', 'bootstrap'"):
        pr_pointwise_ci(y, s, [0.5], method="wald")


def test_too_few_positives():
    y = [1, 1, 1, 1, 0, 0, 0, 0, 0]
    s = [9, 8, 7, 6, 5, 4, 3, 2, 1]
    with pytest.raises(ValueError, match=r"method='normal' needs at least 5 positive\(s\)"):
        pr_pointwise_ci(y, s, [0.5])
    with pytest.raises(ValueError, match=r"method='bootstrap' needs at least 2 positive\(s\)"):
        pr_pointwise_ci([1, 0, 0], [3, 2, 1], [0.5], method="bootstrap")


def test_constant_class_scores_need_bootstrap():
    # negatives all tied, positives distinct: at recall 0.5 the quantile is a lone positive,
    # where σ²(x) needs the negatives' density, which does not exist
    y = [1] * 6 + [0] * 6
    s = list(range(6)) + [2.5] * 6
    with pytest.raises(ValueError, match="scores of one class are all equal"):
        pr_pointwise_ci(y, s, [0.5])


@pytest.mark.parametrize("ties", ["interpolate", "strict"])
@pytest.mark.parametrize("weighted", [False, True])
def test_curve_blocks_on_positive_columns_equal_full_columns(rng, weighted, ties):
    from prcurve._inference._resample import bootstrap_blocks, bootstrap_curve_blocks

    y, s, w = make_problem(rng, n=150, prevalence=0.2, ties=True, weights=weighted)
    sample = prepare(y, s, w)
    beta = np.linspace(0.02, 1.0, 50)
    full = [
        functional_precision(tp, fp, npos, beta, ties=ties)
        for tp, fp, npos, _ in bootstrap_blocks(sample, 40, np.random.default_rng(1))
    ]
    reduced = [
        functional_precision(tp, fp, npos, beta, tp_prev=tpp, fp_prev=fpp, ties=ties)
        for tp, fp, tpp, fpp, npos in bootstrap_curve_blocks(sample, 40, np.random.default_rng(1))
    ]
    assert reduced[0].shape == (40, 50)
    np.testing.assert_allclose(np.concatenate(reduced), np.concatenate(full), rtol=1e-13)
