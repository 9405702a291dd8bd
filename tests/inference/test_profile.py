"""Profile-likelihood (Wilks) regions for a PR point (issue 27 item 5).

Checked against independent computations: the four-cell multinomial likelihood maximised over
the nuisance numerically (TN included), the binomial likelihood-ratio interval solved with
``scipy.stats.binom`` and ``brentq``, and Monte Carlo coverage.
"""

from __future__ import annotations

import sys
import warnings

import numpy as np
import pytest
from scipy import optimize, stats

import prcurve
from prcurve import ProfileRegion, pr_profile_region, pr_profile_statistic

from ..conftest import import_reference

CRIT2 = stats.chi2.ppf(0.95, 2)
CRIT1 = stats.chi2.ppf(0.95, 1)


def brute_statistic(tp, fp, fn, tn, p, r):
    """−2 log Λ by numerical maximisation of the 4-cell multinomial over q_TP (TN included)."""
    x = np.array([tp, fp, fn, tn], float)
    n = x.sum()
    ll_hat = np.sum(stats.multinomial.logpmf(x, n, x / n))
    k = 1 / p + 1 / r - 1  # q_TP + q_FP + q_FN = k·q_TP

    def neg_ll(a):
        q = np.array([a, a * (1 - p) / p, a * (1 - r) / r, 1 - k * a])
        return -stats.multinomial.logpmf(x, n, q)

    res = optimize.minimize_scalar(neg_ll, bounds=(1e-12, (1 - 1e-12) / k), method="bounded",
                                   options={"xatol": 1e-13})  # fmt: skip
    return 2 * (ll_hat + res.fun)


def binomial_lr_interval(x, m, crit):
    """Binomial likelihood-ratio interval from scipy.stats.binom and brentq."""

    def g(theta):
        return 2 * (stats.binom.logpmf(x, m, x / m) - stats.binom.logpmf(x, m, theta)) - crit

    lo = 0.0 if x == 0 else optimize.brentq(g, 1e-15, x / m, xtol=1e-14)
    hi = 1.0 if x == m else optimize.brentq(g, x / m, 1 - 1e-15, xtol=1e-14)
    return lo, hi


@pytest.mark.parametrize(
    ("counts", "points"),
    [
        ((40, 10, 20, 930), [(0.8, 0.6), (0.7, 0.75), (0.9, 0.5)]),
        ((3, 1, 7, 12), [(0.5, 0.5), (0.9, 0.2), (0.3, 0.6)]),
        ((12, 0, 5, 80), [(0.95, 0.7), (0.8, 0.5)]),
    ],
)
def test_statistic_matches_numerical_profile_of_the_four_cell_likelihood(counts, points):
    for p, r in points:
        got = pr_profile_statistic(*counts, p, r)
        # the bounded scalar optimiser reaches the maximum to ~1e-9 in log-likelihood
        assert got == pytest.approx(brute_statistic(*counts, p, r), abs=1e-7)


def test_statistic_is_zero_at_the_estimate_and_vectorised_over_a_grid():
    tp, fp, fn, tn = 40, 10, 20, 930
    assert pr_profile_statistic(tp, fp, fn, tn, 0.8, 40 / 60) == pytest.approx(0, abs=1e-12)
    pg, rg = np.meshgrid(np.linspace(0.05, 0.95, 7), np.linspace(0.1, 0.9, 5))
    grid = pr_profile_statistic(tp, fp, fn, tn, pg, rg)
    assert grid.shape == (5, 7)
    brute = [
        brute_statistic(tp, fp, fn, tn, p, r) for p, r in zip(pg.ravel(), rg.ravel(), strict=True)
    ]
    np.testing.assert_allclose(grid.ravel(), brute, rtol=1e-7, atol=1e-7)
    # impossible points: precision 1 with false positives, recall 1 with false negatives
    assert np.isinf(pr_profile_statistic(tp, fp, fn, tn, 1.0, 0.5))
    assert np.isinf(pr_profile_statistic(tp, fp, fn, tn, 0.5, 1.0))


@pytest.mark.parametrize("counts", [(40, 10, 20, 930), (3, 1, 7, 12), (12, 0, 5, 80), (1, 0, 0, 0)])
def test_marginal_intervals_are_binomial_likelihood_ratio_intervals(counts):
    tp, fp, fn, tn = counts
    reg = pr_profile_region(tp, fp, fn, tn)
    assert (reg.precision_interval.low, reg.precision_interval.high) == pytest.approx(
        binomial_lr_interval(tp, tp + fp, CRIT1), abs=1e-10
    )
    assert (reg.recall_interval.low, reg.recall_interval.high) == pytest.approx(
        binomial_lr_interval(tp, tp + fn, CRIT1), abs=1e-10
    )


def test_marginal_interval_ends_are_the_joint_profile_at_chi2_1():
    """min over r of the joint statistic at a precision end equals χ²₁(0.95) (brute force)."""
    tp, fp, fn, tn = 40, 10, 20, 930
    reg = pr_profile_region(tp, fp, fn, tn)
    r = np.linspace(0.3, 0.95, 20001)
    for p_end in reg.precision_interval:
        # grid step 3e-5 around a smooth minimum: the statistic is off by < 1e-6
        assert pr_profile_statistic(tp, fp, fn, tn, p_end, r).min() == pytest.approx(
            CRIT1, abs=1e-5
        )
    p = np.linspace(0.4, 0.99, 20001)
    for r_end in reg.recall_interval:
        assert pr_profile_statistic(tp, fp, fn, tn, p, r_end).min() == pytest.approx(
            CRIT1, abs=1e-5
        )


def test_boundary_lies_on_the_level_set_and_separates_inside_from_outside():
    reg = pr_profile_region(40, 10, 20, 930, n_boundary=64)
    assert isinstance(reg, ProfileRegion)
    bp, br = reg.boundary_precision, reg.boundary_recall
    assert bp.shape == br.shape == (65,) and bp[0] == bp[-1] and br[0] == br[-1]
    np.testing.assert_allclose(
        [brute_statistic(40, 10, 20, 930, p, r) for p, r in zip(bp, br, strict=True)],
        CRIT2,
        rtol=1e-6,
    )
    # shrink towards / push away from the estimate in logit space
    from scipy.special import expit, logit

    cp, cr = logit(reg.precision), logit(reg.recall)
    for f, want in ((0.98, True), (1.02, False)):
        p = expit(cp + f * (logit(bp) - cp))
        r = expit(cr + f * (logit(br) - cr))
        assert np.all(reg.contains(p, r) == want)
    # the region's extent in precision lies outside the χ²₁ marginal interval (χ²₂ > χ²₁)
    assert bp.min() < reg.precision_interval.low and bp.max() > reg.precision_interval.high


def test_region_against_a_brute_force_grid():
    """A dense grid's inside cells (numerical profile) agree with ``contains`` and the boundary."""
    tp, fp, fn, tn = 6, 2, 3, 40
    reg = pr_profile_region(tp, fp, fn, tn, n_boundary=512)
    p = np.linspace(0.2, 0.99, 60)
    r = np.linspace(0.2, 0.99, 60)
    pg, rg = np.meshgrid(p, r)
    brute = np.array(
        [brute_statistic(tp, fp, fn, tn, a, b) for a, b in zip(pg.ravel(), rg.ravel(), strict=True)]
    )
    clear = np.abs(brute - CRIT2) > 1e-6
    np.testing.assert_array_equal(
        reg.contains(pg.ravel(), rg.ravel())[clear], (brute <= CRIT2)[clear]
    )
    inside = brute <= CRIT2
    # the boundary's extent matches the grid's inside cells to one grid step
    step = p[1] - p[0]
    assert reg.boundary_precision.min() == pytest.approx(pg.ravel()[inside].min(), abs=step)
    assert reg.boundary_recall.max() == pytest.approx(rg.ravel()[inside].max(), abs=step)


def test_region_reaching_precision_one_runs_along_the_edge():
    reg = pr_profile_region(12, 0, 5, 80)
    assert reg.precision == 1.0
    assert reg.boundary_precision.max() == 1.0
    assert reg.contains(1.0, 12 / 17)
    assert reg.precision_interval.high == 1.0
    on_edge = reg.boundary_precision == 1.0
    assert on_edge.any() and reg.contains(1.0, reg.boundary_recall[on_edge]).all()


def test_tn_does_not_change_the_region_and_level_orders_regions():
    a = pr_profile_region(40, 10, 20, 930)
    b = pr_profile_region(40, 10, 20, 5)
    np.testing.assert_array_equal(a.boundary_precision, b.boundary_precision)
    small = pr_profile_region(40, 10, 20, 930, level=0.5)
    assert small.contains(small.boundary_precision, small.boundary_recall).all()
    assert a.contains(small.boundary_precision, small.boundary_recall).all()
    assert small.critical_value == pytest.approx(stats.chi2.ppf(0.5, 2))


def test_operating_point_counts_are_accepted():
    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.2
    s = rng.normal(size=300) + 1.5 * y
    op = prcurve.operating_point(y, s, min_recall=0.7)
    reg = pr_profile_region(op.tp, op.fp, op.fn, op.tn)
    assert reg.precision == pytest.approx(op.precision) and reg.recall == pytest.approx(op.recall)


@pytest.mark.parametrize(
    ("args", "kwargs", "exc", "match"),
    [
        ((0, 0, 5, 10), {}, ValueError, r"tp, fp: expected tp \+ fp >= 1 .*got 0"),
        ((0, 3, 0, 10), {}, ValueError, r"tp, fn: expected tp \+ fn >= 1 .*got 0"),
        ((-1, 3, 2, 10), {}, ValueError, r"tp: expected a non-negative integer count.*got -1"),
        ((4, 2.5, 2, 10), {}, ValueError, r"fp: expected a non-negative integer count.*got 2.5"),
        ((4, 2, "3", 10), {}, TypeError, r"fn: expected a non-negative integer count, got '3'"),
        (
            (4, 2, 3, 10),
            {"level": 1.0},
            ValueError,
            r"level: expected a number in \(0, 1\), got 1.0",
        ),
        (
            (4, 2, 3, 10),
            {"n_boundary": 4},
            ValueError,
            r"n_boundary: expected an integer >= 8, got 4",
        ),
    ],
)
def test_bad_input_is_refused_with_one_clear_message(args, kwargs, exc, match):
    with pytest.raises(exc, match=match):
        pr_profile_region(*args, **kwargs)


def test_bad_rates_are_refused():
    with pytest.raises(ValueError, match=r"precision: expected values in \[0, 1\], got 1.5"):
        pr_profile_statistic(4, 2, 3, 10, 1.5, 0.5)
    with pytest.raises(TypeError, match=r"recall: expected numbers in \[0, 1\], got 'a'"):
        pr_profile_statistic(4, 2, 3, 10, 0.5, "a")
    with pytest.raises(ValueError, match=r"recall: expected values in \[0, 1\], got nan"):
        pr_profile_region(4, 2, 3, 10).contains(0.5, np.nan)


@pytest.mark.reference
@pytest.mark.skipif(
    sys.version_info >= (3, 12), reason="mmu 0.1.2 publishes wheels for CPython 3.10-3.11 only"
)
@pytest.mark.parametrize("counts", [(40, 10, 20, 930), (3, 1, 7, 12), (12, 0, 5, 80), (0, 4, 2, 9)])
def test_statistic_matches_mmu(counts):
    """mmu's profile log-likelihood score (Urlus et al.'s own code), point by point.

    mmu 0.1.2's array version ``pr_multn_chi2_scores`` returns the first point's score for
    every point, so its scalar ``pr_multn_chi2_score`` is called per point.  mmu clips p and r
    to [1e-4, 1 − 1e-4]; the points stay inside that.
    """
    mmu = import_reference("mmu")
    tp, fp, fn, tn = counts
    conf_mat = np.array([tn, fp, fn, tp], dtype=np.int64)  # mmu's order
    rng = np.random.default_rng(11)
    p, r = rng.uniform(0.01, 0.99, size=(2, 40))
    want = [mmu.lib._core.pr_multn_chi2_score(a, b, conf_mat) for a, b in zip(p, r, strict=True)]
    # both evaluate the same closed form in double precision
    np.testing.assert_allclose(pr_profile_statistic(*counts, p, r), want, rtol=1e-9, atol=1e-9)


def _draws(rng, n_pos, prevalence, p, r, reps):
    """Multinomial confusion matrices (TP, FP, FN, TN), n = n₊/π, redrawn until usable."""
    q_tp = prevalence * r
    q_fp = q_tp * (1 - p) / p
    q = [q_tp, q_fp, prevalence * (1 - r), 1 - prevalence - q_fp]
    n = round(n_pos / prevalence)
    c = rng.multinomial(n, q, size=3 * reps)
    ok = (c[:, 0] + c[:, 2] >= 2) & (c[:, 1] + c[:, 3] >= 2) & (c[:, 0] + c[:, 1] >= 1)
    return c[ok][:reps]


@pytest.mark.parametrize(
    ("n_pos", "prevalence", "floor"),
    [(10, 0.2, 0.9), (10, 0.02, 0.9), (30, 0.2, None), (100, 0.02, None)],
)
def test_profile_regions_cover_at_small_samples(n_pos, prevalence, floor):
    """Joint region and marginal intervals cover 95 % within 3 binomial SE (400 draws each).

    At n₊ = 10 the likelihood-ratio sets of a discrete law miss a little (0.91–0.93 in
    ``examples/profile_coverage.py`` with 1000 draws): the test asks for 0.90 there.
    """
    reps = 400
    se = np.sqrt(0.95 * 0.05 / reps)
    rng = np.random.default_rng([27, n_pos, int(prevalence * 100)])
    p, r = 0.8, 0.7
    hits = np.zeros(3)
    for tp, fp, fn, tn in _draws(rng, n_pos, prevalence, p, r, reps):
        reg = pr_profile_region(tp, fp, fn, tn, n_boundary=8)
        hits += [
            reg.contains(p, r),
            reg.precision_interval.contains(p),
            reg.recall_interval.contains(r),
        ]
    assert np.all(hits / reps >= (floor or 0.95 - 3 * se)), hits / reps


def test_profile_covers_where_the_bootstrap_does_not():
    """n₊ = 10, p = 0.95, r = 0.9: the percentile bootstrap's precision interval collapses to
    [1, 1] whenever FP = 0 (about 60 % of samples), the profile interval does not."""
    reps = 200
    rng = np.random.default_rng(270)
    p, r = 0.95, 0.9
    prof = boot = 0
    for tp, fp, fn, tn in _draws(rng, 10, 0.2, p, r, reps):
        prof += pr_profile_region(tp, fp, fn, tn, n_boundary=8).precision_interval.contains(p)
        y = np.repeat([True, False, True, False], [tp, fp, fn, tn])
        s = np.repeat([1.0, 1.0, 0.0, 0.0], [tp, fp, fn, tn])
        with warnings.catch_warnings():  # replicates missing top_k concern the threshold only
            warnings.simplefilter("ignore", prcurve.TargetNotMetWarning)
            op = prcurve.operating_point(
                y, s, top_k=len(y) - 1, interval="bootstrap", n_resamples=200, rng=rng
            )
        assert op.precision == pytest.approx(tp / (tp + fp))
        boot += op.precision_interval.contains(p)
    se = np.sqrt(0.95 * 0.05 / reps)
    assert prof / reps >= 0.95 - 3 * se
    # P(FP = 0) = 0.95^(TP+FP) with TP + FP ≈ 9.5: ≈ 0.61, so the bootstrap covers ≈ 0.4
    assert boot / reps < 0.6
