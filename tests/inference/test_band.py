"""Sup-norm confidence bands: Algorithm 1 of Clémençon & Vayatis and the naive bootstrap."""

import itertools
import time
import warnings

import numpy as np
import pytest
from scipy import stats

import prcurve
from prcurve import LowEffectiveSampleSizeWarning, PRConfidenceBand, pr_confidence_band, pr_curve
from prcurve._core._batch import functional_precision_sorted
from prcurve._inference._resample import (
    resample_multiplicities,
    weighted_quantile,
)

from ..conftest import make_problem


@pytest.fixture
def data(rng):
    y, s, _ = make_problem(rng, n=400, prevalence=0.25)
    return y, s


def test_class_sorted_estimator_equals_functional_estimator(rng):
    b, grid = 12, np.linspace(0.05, 0.95, 37)
    npos = rng.integers(3, 30, size=b)
    nneg = rng.integers(3, 60, size=b)
    pos = np.full((b, 30), np.inf)
    neg = np.full((b, 60), np.inf)
    rows = []
    for i in range(b):
        p = np.sort(rng.normal(1, 1, npos[i]))
        q = np.sort(rng.normal(0, 1, nneg[i]))
        pos[i, : npos[i]], neg[i, : nneg[i]] = p, q
        y = np.r_[np.ones(npos[i], bool), np.zeros(nneg[i], bool)]
        rows.append(pr_curve(y, np.r_[p, q]).precision_at(grid))
    np.testing.assert_allclose(functional_precision_sorted(pos, neg, npos, grid), rows, rtol=1e-12)


def test_weighted_quantile_brute_force(rng):
    v = rng.random(50)
    w = rng.random(50)
    for level in (0.1, 0.5, 0.95):
        cdf = np.array([w[v <= x].sum() / w.sum() for x in v])
        assert weighted_quantile(v, level, w) == v[cdf >= level].min()
        assert weighted_quantile(v, level) == np.sort(v)[int(np.ceil(level * 50)) - 1]


@pytest.mark.parametrize("method", ["smoothed_bootstrap", "bootstrap"])
def test_band_structure_and_reproducibility(data, method):
    y, s = data
    a = pr_confidence_band(y, s, method=method, n_resamples=150, rng=3, num=50)
    b = pr_confidence_band(y, s, method=method, n_resamples=150, rng=3, num=50)
    assert isinstance(a, PRConfidenceBand)
    np.testing.assert_array_equal(a.sup_statistic, b.sup_statistic)
    assert a.radius == b.radius
    np.testing.assert_allclose(a.recall, np.linspace(0.05, 0.95, 50))
    np.testing.assert_allclose(a.estimate, pr_curve(y, s).precision_at(a.recall))
    low, high = a.band
    np.testing.assert_allclose(low, np.clip(a.estimate - a.radius, 0, 1))
    np.testing.assert_allclose(high, np.clip(a.estimate + a.radius, 0, 1))
    assert a.band.level == 0.95 and a.method == method
    # radius: the weighted 95 % quantile of sup|R*| / √n
    assert a.radius == pytest.approx(weighted_quantile(a.sup_statistic, 0.95, a.weights) / 20)
    assert a.contains(a.estimate)
    assert not a.separated_from(b)


@pytest.mark.parametrize("sampling", ["instances", "stratified"])
def test_naive_band_matches_brute_force(data, sampling):
    y, s = data
    n_res = 30
    band = pr_confidence_band(
        y, s, method="bootstrap", n_resamples=n_res, rng=9, num=40, sampling=sampling
    )
    mp, mn = resample_multiplicities(
        np.random.default_rng(9), n_res, int(y.sum()), int((~y).sum()), sampling
    )
    # unweighted replicates lay multiplicities on the classes' score-sorted positions
    pos = np.flatnonzero(y)[np.argsort(-s[y], kind="stable")]
    neg = np.flatnonzero(~y)[np.argsort(-s[~y], kind="stable")]
    for r in range(n_res):
        idx = np.r_[np.repeat(pos, mp[r]), np.repeat(neg, mn[r])]
        sup = np.abs(pr_curve(y[idx], s[idx]).precision_at(band.recall) - band.estimate).max()
        assert band.sup_statistic[r] == pytest.approx(np.sqrt(400) * sup)
    assert band.effective_sample_size == pytest.approx(n_res)
    np.testing.assert_array_equal(band.n_pos_resampled, mp.sum(axis=1))
    assert (band.n_pos_resampled == y.sum()).all() == (sampling == "stratified")


def test_importance_weights_follow_the_label_likelihood_ratio(data):
    y, s = data
    band = pr_confidence_band(y, s, n_resamples=200, rng=1, p_tilde=0.3, num=20)
    p_hat, n = y.mean(), len(y)
    k = band.n_pos_resampled
    logw = k * np.log(p_hat / 0.3) + (n - k) * np.log((1 - p_hat) / 0.7)
    expected = np.exp(logw - logw.max())
    np.testing.assert_allclose(band.weights, expected / expected.sum(), rtol=1e-9)
    assert band.p_tilde == 0.3
    assert band.effective_sample_size == pytest.approx(1 / np.sum(band.weights**2))


def test_default_p_tilde_gives_equal_weights(data):
    y, s = data
    band = pr_confidence_band(y, s, n_resamples=100, rng=2, num=20)
    assert band.p_tilde == pytest.approx(y.mean())
    np.testing.assert_allclose(band.weights, 0.01)
    # n₊* ~ Binomial(n, p̂)
    sd = np.sqrt(400 * y.mean() * (1 - y.mean()))
    assert band.n_pos_resampled.mean() == pytest.approx(y.sum(), abs=4 * sd / 10)


def test_far_p_tilde_warns_about_degenerate_weights(data):
    y, s = data
    with pytest.warns(
        LowEffectiveSampleSizeWarning, match=r"effective sample size of 1\.\d out of 100"
    ):
        band = pr_confidence_band(y, s, n_resamples=100, rng=2, p_tilde=0.5, num=20)
    assert band.effective_sample_size < 2


def test_bandwidth_default_and_user(data):
    y, s = data
    band = pr_confidence_band(y, s, n_resamples=20, rng=0, num=10)
    ps, ns = s[y], s[~y]
    for h, x in zip(band.bandwidth, (ps, ns), strict=True):
        iqr = np.subtract(*np.percentile(x, [75, 25]))
        assert h == pytest.approx(0.9 * min(x.std(ddof=1), iqr / 1.34) * len(x) ** (-0.2))
    assert pr_confidence_band(y, s, n_resamples=20, rng=0, bandwidth=0.1).bandwidth == (0.1, 0.1)
    assert pr_confidence_band(y, s, method="bootstrap", n_resamples=20).bandwidth is None


def test_wider_level_wider_band(data):
    y, s = data
    r90 = pr_confidence_band(y, s, level=0.8, n_resamples=300, rng=5).radius
    r99 = pr_confidence_band(y, s, level=0.99, n_resamples=300, rng=5).radius
    assert r99 > r90


def test_progress_hook(rng):
    y, s, _ = make_problem(rng, n=20000)
    for method in ("smoothed_bootstrap", "bootstrap"):
        calls: list = []

        def hook(done, total, calls=calls):
            calls.append((done, total))

        pr_confidence_band(y, s, method=method, n_resamples=60, rng=0, progress=hook)
        assert len(calls) >= 2 and calls[-1] == (60, 60)
        assert all(a[0] < b[0] for a, b in itertools.pairwise(calls))


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize("level", [0, 1, -1, 1.01])
def test_level_checked(data, level):
    with pytest.raises(ValueError, match=r"level: expected a number in \(0, 1\)"):
        pr_confidence_band(*data, level=level)


@pytest.mark.parametrize(
    ("recall_range", "error", "message"),
    [
        ((0.0, 0.9), ValueError, r"recall_range: expected both ends inside \(0, 1\), got \(0.0"),
        ((0.1, 1.0), ValueError, r"recall_range: expected both ends inside \(0, 1\)"),
        ((0.9, 0.1), ValueError, r"recall_range: expected low < high, got \(0.9, 0.1\)"),
        ((0.5, 0.5), ValueError, "recall_range: expected low < high"),
        (0.1, TypeError, "recall_range: expected a pair"),
        (("a", 0.5), TypeError, "recall_range: expected a pair"),
    ],
)
def test_recall_range_checked(data, recall_range, error, message):
    with pytest.raises(error, match=message):
        pr_confidence_band(*data, recall_range=recall_range)


def test_options_checked(data):
    with pytest.raises(ValueError, match="method: expected one of 'smoothed_bootstrap'"):
        pr_confidence_band(*data, method="normal")
    with pytest.raises(ValueError, match=r"p_tilde: expected a number in \(0, 1\), got 1.5"):
        pr_confidence_band(*data, p_tilde=1.5)
    with pytest.raises(ValueError, match="bandwidth: expected a positive number, got -1"):
        pr_confidence_band(*data, bandwidth=-1)
    with pytest.raises(TypeError, match="bandwidth: expected None or a positive number"):
        pr_confidence_band(*data, bandwidth="auto")
    with pytest.raises(ValueError, match="n_resamples: expected an integer >= 2"):
        pr_confidence_band(*data, n_resamples=0)
    with pytest.raises(ValueError, match="num: expected an integer >= 2, got 1"):
        pr_confidence_band(*data, num=1)


def test_too_few_positives():
    with pytest.raises(
        ValueError, match=r"method='smoothed_bootstrap' needs at least 2 positive\(s\)"
    ):
        pr_confidence_band([1, 0, 0, 0], [1.0, 2.0, 3.0, 4.0])
    with pytest.raises(ValueError, match=r"method='bootstrap' needs at least 2 positive\(s\)"):
        pr_confidence_band([1, 0, 0, 0], [1.0, 2.0, 3.0, 4.0], method="bootstrap")


def test_constant_positive_scores_need_a_bandwidth():
    y = [1, 1, 1, 0, 0, 0]
    s = [2.0, 2.0, 2.0, 0.0, 1.0, 3.0]
    with pytest.raises(ValueError, match=r"positives are all equal.*pass a positive bandwidth"):
        pr_confidence_band(y, s, n_resamples=10)
    band = pr_confidence_band(y, s, n_resamples=10, bandwidth=0.5, rng=0)
    assert np.isfinite(band.radius)


def test_contains_checks_shape(data):
    band = pr_confidence_band(*data, n_resamples=20, num=10, rng=0)
    with pytest.raises(ValueError, match=r"precision: expected an array of shape \(10,\)"):
        band.contains(np.ones(3))


def test_smoothed_curve_against_root_finding(rng):
    from scipy.optimize import brentq

    from prcurve._inference._kernel import smoothed_precision

    ps, ns = rng.normal(1, 1, 40), rng.normal(0, 1.5, 150)
    grid = np.linspace(0.05, 0.95, 19)
    got = smoothed_precision(ps, ns, 0.4, 0.3, 0.2, grid)
    for b, value in zip(grid, got, strict=True):
        z = brentq(lambda z, b=b: stats.norm.cdf((z - ps) / 0.4).mean() - (1 - b), -30, 30)
        alpha = stats.norm.sf((z - ns) / 0.3).mean()
        assert value == pytest.approx(0.2 * b / (0.2 * b + 0.8 * alpha), abs=1e-9)


def test_center_option(data):
    y, s = data
    smooth = pr_confidence_band(y, s, n_resamples=100, rng=4, num=30)
    paper = pr_confidence_band(y, s, n_resamples=100, rng=4, num=30, center="empirical")
    assert smooth.center == "smoothed" and paper.center == "empirical"
    np.testing.assert_array_equal(smooth.n_pos_resampled, paper.n_pos_resampled)
    np.testing.assert_array_equal(smooth.estimate, paper.estimate)
    assert not np.array_equal(smooth.sup_statistic, paper.sup_statistic)
    assert pr_confidence_band(y, s, method="bootstrap", n_resamples=10).center is None
    with pytest.raises(ValueError, match="center: expected one of 'smoothed', 'empirical'"):
        pr_confidence_band(y, s, center="median")


@pytest.mark.parametrize("scale", [1e-300, 1e300, 2.0**-700])
def test_smoothed_band_is_invariant_to_the_scale_of_the_scores(scale):
    """Extreme magnitudes would under/overflow the bandwidth rule; the band must not change."""
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    s = rng.normal(size=300) + y
    ref = pr_confidence_band(y, s, n_resamples=100, rng=1)
    got = pr_confidence_band(y, s * scale, n_resamples=100, rng=1)
    assert got.radius == pytest.approx(ref.radius, rel=1e-9)
    np.testing.assert_allclose(np.asarray(got.bandwidth) / scale, ref.bandwidth, rtol=1e-9)


def _per_row_sup_statistics(y, s, band, reps, gen, widen=1.0):
    """The smoothed bootstrap drawn row by row (the definition: every score resampled with
    replacement plus N(0, h²) noise, sorted, the functional estimator read off), as
    ``sup_statistic`` reports it."""
    from prcurve._inference._kernel import smoothed_precision

    ps, ns, n = s[y], s[~y], y.shape[0]
    hp, hn = band.bandwidth
    centre = (
        band.estimate
        if band.center == "empirical"
        else smoothed_precision(ps, ns, hp, hn, y.mean(), band.recall)
    )
    out = np.empty(reps)
    for r in range(reps):
        k = gen.binomial(n, band.p_tilde)  # P(k ∈ {0, n}) < 1e-40 here: no conditioning
        pos = np.sort(gen.choice(ps, k) + widen * hp * gen.standard_normal(k))
        neg = np.sort(gen.choice(ns, n - k) + widen * hn * gen.standard_normal(n - k))
        pr = functional_precision_sorted(
            pos[None], neg[None], np.array([k]), band.recall, ties="strict"
        )[0]
        out[r] = np.sqrt(n) * np.abs(pr - centre).max()
    return out


#: Three two-sample KS tests below, each at size 1e-3 / 3 (Bonferroni): a correct draw fails
#: the test on a random seed with probability at most 1e-3.
KS_LEVEL = 1e-3 / 3


@pytest.mark.parametrize(
    "options",
    [{}, {"center": "empirical"}, {"recall_range": (0.01, 0.99), "num": 97, "p_tilde": 0.3}],
)
def test_smoothed_draw_equal_in_distribution_to_the_per_row_draw(options):
    """The band draws only the order statistics it needs (Dirichlet spacings through G̃⁻¹,
    negatives as one multinomial): its replicates' sup-statistics must have the law of
    drawing every score and sorting (two-sample KS on 3,000 + 3,000 replicates, fixed seeds),
    while a draw from a wrong law (bandwidths doubled) is rejected by the same test."""
    gen = np.random.default_rng(0)
    y = gen.random(400) < 0.25
    s = gen.normal(size=400) + 1.2 * y
    with warnings.catch_warnings():  # p_tilde = 0.3: few effective replicates (not used here)
        warnings.simplefilter("ignore", LowEffectiveSampleSizeWarning)
        band = pr_confidence_band(y, s, n_resamples=3000, rng=1, **options)
    rows = _per_row_sup_statistics(y, s, band, 3000, np.random.default_rng(2))
    assert stats.ks_2samp(band.sup_statistic, rows).pvalue > KS_LEVEL
    wrong = _per_row_sup_statistics(y, s, band, 3000, np.random.default_rng(3), widen=2.0)
    assert stats.ks_2samp(band.sup_statistic, wrong).pvalue < KS_LEVEL


def test_smoothed_band_cost_does_not_grow_with_n():
    """Issue 26: the smoothed band drew and sorted n scores per replicate (72 s at n = 10⁶ with
    1,000 resamples).  Its replicates now cost O(grid), so 100× more data costs a few times
    more (sorting and smoothing the data once), not ~100× (CPU seconds, best of two)."""
    gen = np.random.default_rng(4)
    y = gen.random(400_000) < 0.1
    s = gen.normal(size=400_000) + 1.5 * y

    def cost(m):
        best = np.inf
        for _ in range(2):
            t0 = time.process_time()
            pr_confidence_band(y[:m], s[:m], n_resamples=200, rng=0)
            best = min(best, time.process_time() - t0)
        return best

    small, large = cost(4_000), cost(400_000)
    assert large < 20 * small


@pytest.mark.parametrize("mixed", [False, True])
def test_subnormal_spread_falls_back_to_the_naive_band(mixed):
    """Issue 23: with positives spread over a few subnormal steps the default bandwidth is
    below the smallest normal float64 (all scores subnormal: it was reported as (0, 0); beside
    normal negatives: Silverman's squares underflowed and the error said "all equal").  The
    band is the naive bootstrap band, and says so, equal to asking for it."""
    gen = np.random.default_rng(3)
    y = gen.random(80) < 0.4
    y[:2] = True, False
    k = gen.integers(0, 3, 80) + y
    s = np.where(y | (not mixed), k * 5e-324, gen.random(80))
    pattern = (
        r"pr_confidence_band: the scores of the positives spread over [0-9.e-]+ only, so the "
        r"default \(Silverman\) kernel bandwidth is [0-9.e-]+ in score units, below the smallest "
        r"normal float64 \(2\.2e-308\); returning the naive bootstrap band "
        r"\(method='bootstrap', no smoothing\) instead; pass a bandwidth to smooth anyway"
    )
    with pytest.warns(prcurve.SmoothingFallbackWarning, match=pattern) as record:
        band = pr_confidence_band(y, s, n_resamples=50, rng=5)
    assert len(record) == 1 and record[0].filename == __file__  # stacklevel: the caller
    naive = pr_confidence_band(y, s, method="bootstrap", n_resamples=50, rng=5)
    assert band.method == "bootstrap" and band.bandwidth is None and band.p_tilde is None
    assert band.radius == naive.radius
    np.testing.assert_array_equal(band.band.low, naive.band.low)
    # a bandwidth passed by the caller is used as given
    h = 1e-300
    assert pr_confidence_band(y, s, bandwidth=h, n_resamples=20, rng=0).bandwidth == (h, h)
