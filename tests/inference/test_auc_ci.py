"""AUC-PR intervals and the one-sort bootstrap engine they run on."""

import inspect
import itertools
import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from prcurve import (
    AUCPRInterval,
    DegenerateBootstrapWarning,
    UndefinedMetricWarning,
    auc_pr,
    auc_pr_ci,
)
from prcurve._core._area import AUC_PR_METHODS, batched_area
from prcurve._inference import _auc_ci
from prcurve._inference._resample import (
    positive_columns,
    prepare,
    replicate_counts,
    resample_multiplicities,
    stratified_multiplicities,
    uniform_multiplicities,
)

from ..conftest import make_problem

METHODS = list(AUC_PR_METHODS)


# scipy >= 1.15 seeds bootstrap with ``rng``; scipy 1.10-1.14 (still supported) only with
# ``random_state``, which newer versions are deprecating
SCIPY_BOOTSTRAP_SEED = (
    {"rng": 12}
    if "rng" in inspect.signature(stats.bootstrap).parameters
    else {"random_state": np.random.default_rng(12)}
)


def resampled_indices(y, mult_pos, mult_neg):
    """Instance indices of one replicate from multiplicities given in input order."""
    return np.concatenate(
        [np.repeat(np.flatnonzero(y), mult_pos), np.repeat(np.flatnonzero(~y), mult_neg)]
    )


# --------------------------------------------------------------------------- engine exactness
@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weighted", [False, True])
def test_replicates_equal_resample_and_recompute(rng, method, ties, weighted):
    y, s, w = make_problem(rng, n=80, prevalence=0.3, ties=ties, weights=weighted)
    sample = prepare(y, s, w)
    mp, mn = stratified_multiplicities(rng, 25, int(y.sum()), int((~y).sum()))
    tp, fp, npos, _ = replicate_counts(sample, mp, mn, by_instance=True)
    got = batched_area(tp, fp, npos, method)
    for r in range(25):
        idx = resampled_indices(y, mp[r], mn[r])
        wr = None if w is None else w[idx]
        assert got[r] == pytest.approx(auc_pr(y[idx], s[idx], method=method, sample_weight=wr))
        expected_pos = y[idx].sum() if w is None else wr[y[idx]].sum()
        assert npos[r] == pytest.approx(expected_pos)


@settings(max_examples=60, deadline=None)
@given(
    labels=st.lists(st.booleans(), min_size=2, max_size=25),
    data=st.data(),
    method=st.sampled_from(METHODS),
)
def test_property_any_multiplicities_equal_recompute(labels, data, method):
    y = np.array(labels)
    y[0], y[1] = True, False
    n = len(y)
    s = np.array(data.draw(st.lists(st.integers(0, 5), min_size=n, max_size=n)), float)
    w = np.array(data.draw(st.lists(st.floats(0.1, 3.0), min_size=n, max_size=n)))
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    mp = np.array(data.draw(st.lists(st.integers(0, 3), min_size=n_pos, max_size=n_pos)))
    mn = np.array(data.draw(st.lists(st.integers(0, 3), min_size=n_neg, max_size=n_neg)))
    mp[0], mn[0] = max(mp[0], 1), max(mn[0], 1)  # as in a stratified replicate: both classes
    tp, fp, npos, _ = replicate_counts(prepare(y, s, w), mp[None], mn[None], by_instance=True)
    idx = resampled_indices(y, mp, mn)
    expected = auc_pr(y[idx], s[idx], method=method, sample_weight=w[idx])
    assert batched_area(tp, fp, npos, method)[0] == pytest.approx(expected, rel=1e-9)


def test_average_precision_on_positive_columns_is_exact(rng):
    y, s, _ = make_problem(rng, n=200, prevalence=0.1, ties=True)
    sample = prepare(y, s)
    mp, mn = stratified_multiplicities(rng, 30, int(y.sum()), int((~y).sum()))
    full = batched_area(*replicate_counts(sample, mp, mn)[:3], "average_precision")
    tp, fp, npos, _ = replicate_counts(sample, mp, mn, columns=positive_columns(sample))
    assert tp.shape[1] < len(sample.counts.tp)
    np.testing.assert_allclose(batched_area(tp, fp, npos, "average_precision"), full, rtol=1e-13)


def test_uniform_multiplicities_are_multinomial(rng):
    m = uniform_multiplicities(rng, 4000, 5)
    assert (m.sum(axis=1) == 5).all()
    # each cell is Binomial(5, 1/5): mean 1, variance 0.8; cells are negatively correlated
    assert m.mean() == pytest.approx(1.0, abs=0.02)
    assert m.var() == pytest.approx(0.8, abs=0.04)
    assert np.corrcoef(m[:, 0], m[:, 1])[0, 1] == pytest.approx(-0.25, abs=0.05)


def test_instance_multiplicities_are_n_draws_from_all_rows():
    """n draws with replacement from all rows, given both classes occur (exact law)."""
    gen = np.random.default_rng(5)
    n_pos, n_neg, rows = 3, 7, 40000
    mp, mn = resample_multiplicities(gen, rows, n_pos, n_neg, "instances")
    k = mp.sum(axis=1)
    assert ((k + mn.sum(axis=1)) == 10).all() and k.min() >= 1 and k.max() <= 9
    # n₊* ~ Bin(10, 0.3) conditioned on 1 <= n₊* <= 9: chi-square goodness of fit
    law = stats.binom(10, 0.3)
    support = np.arange(1, 10)
    p = law.pmf(support) / (law.cdf(9) - law.cdf(0))
    observed = np.bincount(k, minlength=10)[1:]
    keep = p * rows >= 5
    chi2 = np.sum((observed[keep] - rows * p[keep]) ** 2 / (rows * p[keep]))
    assert stats.chi2.sf(chi2, keep.sum() - 1) > 1e-3
    # given n₊*, the positives' multiplicities are uniform over the three positives
    assert mp.mean(axis=0) == pytest.approx(np.full(3, k.mean() / 3), rel=0.02)
    strat_p, strat_n = resample_multiplicities(gen, 5, n_pos, n_neg, "stratified")
    assert (strat_p.sum(axis=1) == 3).all() and (strat_n.sum(axis=1) == 7).all()


# --------------------------------------------------------------------------- Boyd intervals
Y_SMALL = [1, 0, 1, 0, 1, 1, 0, 0, 0, 0]
S_SMALL = [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
# positives at ranks 1, 3, 5, 6: AP = (1 + 2/3 + 3/5 + 4/6) / 4 = 0.733333...
THETA = (1 + 2 / 3 + 3 / 5 + 4 / 6) / 4


def test_binomial_interval_by_hand():
    res = auc_pr_ci(Y_SMALL, S_SMALL, interval="binomial")
    assert res.estimate == pytest.approx(THETA)
    half = 1.959963984540054 * math.sqrt(THETA * (1 - THETA) / 4)
    assert res.interval.low == pytest.approx(THETA - half)
    assert res.interval.low == pytest.approx(0.299969, abs=1e-6)
    assert res.interval.high == 1.0  # 1.1667 clipped
    assert res.n_pos == 4 and res.kind == "binomial" and res.replicates is None


def test_logit_interval_by_hand():
    res = auc_pr_ci(Y_SMALL, S_SMALL, interval="logit", level=0.9)
    half = 1.6448536269514722 / math.sqrt(4 * THETA * (1 - THETA))
    center = math.log(THETA / (1 - THETA))
    lo, hi = 1 / (1 + math.exp(-(center - half))), 1 / (1 + math.exp(-(center + half)))
    assert (res.interval.low, res.interval.high) == pytest.approx((lo, hi))
    assert (res.interval.low, res.interval.high) == pytest.approx((0.29981, 0.94641), abs=1e-5)
    assert res.interval.level == 0.9


@pytest.mark.parametrize("method", METHODS)
def test_interval_uses_requested_estimator(method):
    res = auc_pr_ci(Y_SMALL, S_SMALL, method=method)
    assert res.estimate == pytest.approx(auc_pr(Y_SMALL, S_SMALL, method=method))
    assert res.interval.low <= res.estimate <= res.interval.high


def test_weighted_binomial_uses_kish_positives():
    w = [2, 1, 2, 1, 2, 2, 1, 1, 1, 1]  # equal weights on positives: Kish n₊ = 4
    res = auc_pr_ci(Y_SMALL, S_SMALL, interval="binomial", sample_weight=w)
    assert res.n_pos == pytest.approx(4.0)
    w2 = [4, 1, 1, 1, 1, 1, 1, 1, 1, 1]
    res2 = auc_pr_ci(Y_SMALL, S_SMALL, interval="binomial", sample_weight=w2)
    assert res2.n_pos == pytest.approx(7**2 / (16 + 3))


@pytest.mark.parametrize("kind", ["logit", "binomial"])
def test_perfect_ranking_warns_and_collapses(kind):
    with pytest.warns(UndefinedMetricWarning, match=f"the {kind} interval has zero width"):
        res = auc_pr_ci([1, 1, 0, 0], [4, 3, 2, 1], interval=kind)
    assert res.interval.low == res.interval.high == 1.0


# --------------------------------------------------------------------------- bootstrap
def test_bootstrap_is_reproducible_with_seed(rng):
    y, s, _ = make_problem(rng, n=300)
    a = auc_pr_ci(y, s, interval="bootstrap_percentile", n_resamples=300, rng=7)
    b = auc_pr_ci(y, s, interval="bootstrap_percentile", n_resamples=300, rng=7)
    c = auc_pr_ci(y, s, interval="bootstrap_percentile", n_resamples=300, rng=8)
    np.testing.assert_array_equal(a.replicates, b.replicates)
    assert a.interval == b.interval
    assert not np.array_equal(a.replicates, c.replicates)
    g = np.random.default_rng(7)
    d = auc_pr_ci(y, s, interval="bootstrap_percentile", n_resamples=300, rng=g)
    np.testing.assert_array_equal(a.replicates, d.replicates)


@pytest.mark.parametrize("sampling", ["instances", "stratified"])
def test_bootstrap_replicates_match_brute_force(rng, sampling):
    y, s, w = make_problem(rng, n=60, ties=True, weights=True)
    res = auc_pr_ci(
        y,
        s,
        sample_weight=w,
        interval="bootstrap_percentile",
        n_resamples=40,
        rng=3,
        sampling=sampling,
    )
    # the engine draws, in one block, the multiplicities of each class in input order
    mp, mn = resample_multiplicities(
        np.random.default_rng(3), 40, int(y.sum()), int((~y).sum()), sampling
    )
    pos, neg = np.flatnonzero(y), np.flatnonzero(~y)  # multiplicities in input order
    for r in range(40):
        idx = np.concatenate([np.repeat(pos, mp[r]), np.repeat(neg, mn[r])])
        assert res.replicates[r] == pytest.approx(auc_pr(y[idx], s[idx], sample_weight=w[idx]))
    lo, hi = np.quantile(res.replicates, [0.025, 0.975])
    assert (res.interval.low, res.interval.high) == (lo, hi)


def _two_sample_ap(pos, neg):
    yy = np.r_[np.ones(len(pos), bool), np.zeros(len(neg), bool)]
    return auc_pr(yy, np.r_[pos, neg])


def test_bca_acceleration_against_brute_force_jackknife(rng):
    y, s, _ = make_problem(rng, n=70, prevalence=0.3)
    res = auc_pr_ci(y, s, interval="bootstrap_bca", n_resamples=200, rng=1)
    pos, neg = s[y], s[~y]
    num = den = 0.0
    for j, data in enumerate((pos, neg)):
        theta = []
        for i in range(len(data)):
            rest = np.delete(data, i)
            theta.append(_two_sample_ap(rest, neg) if j == 0 else _two_sample_ap(pos, rest))
        theta = np.array(theta)
        m = len(theta)
        u = (m - 1) * (theta.mean() - theta)
        num += (u**3).sum() / m**3
        den += (u**2).sum() / m**2
    assert res.acceleration == pytest.approx(num / (6 * den**1.5), rel=1e-10)
    b = res.replicates
    share = ((b < res.estimate).sum() + (b <= res.estimate).sum()) / (2 * len(b))
    assert res.bias_correction == pytest.approx(stats.norm.ppf(share))


@pytest.mark.parametrize("interval", ["bootstrap_percentile", "bootstrap_bca"])
def test_bootstrap_intervals_agree_with_scipy(rng, interval):
    y, s, _ = make_problem(rng, n=150, prevalence=0.3)
    # scipy resamples each class separately: the stratified sampling model
    ours = auc_pr_ci(y, s, interval=interval, n_resamples=4000, rng=11, sampling="stratified")

    theirs = stats.bootstrap(
        (s[y], s[~y]),
        _two_sample_ap,
        vectorized=False,
        n_resamples=4000,
        method="BCa" if interval == "bootstrap_bca" else "percentile",
        **SCIPY_BOOTSTRAP_SEED,
    )
    # two independent 4000-draw streams: each end is a ~2.5% / 97.5% sample quantile with Monte
    # Carlo sd √(p(1−p)/B) / f(q), f(q) read off the replicates' spread near q (≈ 0.0024 here);
    # the two ends then differ by N(0, 2·sd²): allow z = 4
    spread = np.quantile(theirs.bootstrap_distribution, [0.035, 0.015, 0.985, 0.965])
    mc_sd = np.sqrt(0.025 * 0.975 / 4000) * np.abs(spread[0::2] - spread[1::2]) / 0.02
    low_tol, high_tol = 4 * np.sqrt(2) * mc_sd
    assert max(low_tol, high_tol) < 0.02  # the comparison still has teeth
    assert ours.interval.low == pytest.approx(theirs.confidence_interval.low, abs=low_tol)
    assert ours.interval.high == pytest.approx(theirs.confidence_interval.high, abs=high_tol)


def test_grouped_jackknife_approximates_exact_acceleration(rng, monkeypatch):
    y, s, _ = make_problem(rng, n=1500, prevalence=0.3)
    y2, s2 = y.copy(), np.exp(s)  # skewed scores: a clearly non-zero acceleration
    exact = auc_pr_ci(y2, s2, interval="bootstrap_bca", n_resamples=100, rng=1).acceleration
    monkeypatch.setattr(_auc_ci, "JACKKNIFE_EXACT_MAX", 100)
    monkeypatch.setattr(_auc_ci, "JACKKNIFE_GROUPS", 150)
    grouped = auc_pr_ci(y2, s2, interval="bootstrap_bca", n_resamples=100, rng=1).acceleration
    assert grouped == pytest.approx(exact, abs=0.6 * abs(exact) + 2e-3)


def test_bca_falls_back_when_degenerate(monkeypatch):
    monkeypatch.setattr(
        _auc_ci,
        "bootstrap_areas",
        lambda sample, method, n, gen, progress, sampling: np.full(n, 0.99),
    )
    with pytest.warns(DegenerateBootstrapWarning, match="percentile interval is returned"):
        res = auc_pr_ci(Y_SMALL, S_SMALL, interval="bootstrap_bca", n_resamples=10)
    assert res.interval.low == res.interval.high == pytest.approx(0.99)
    assert res.acceleration is None


def test_progress_hook_is_called_per_block(rng):
    y, s, _ = make_problem(rng, n=200_000, prevalence=0.1)
    calls = []
    auc_pr_ci(
        y,
        s,
        interval="bootstrap_percentile",
        n_resamples=12,
        rng=0,
        progress=lambda d, t: calls.append((d, t)),
    )
    assert len(calls) >= 2
    assert calls[-1] == (12, 12)
    assert all(a[0] < b[0] for a, b in itertools.pairwise(calls))


def test_result_is_frozen():
    res = auc_pr_ci(Y_SMALL, S_SMALL)
    assert isinstance(res, AUCPRInterval)
    with pytest.raises(AttributeError):
        res.estimate = 0.5


# --------------------------------------------------------------------------- errors
@pytest.mark.parametrize("level", [0, 1, 1.5, -0.1])
def test_level_outside_unit_interval(level):
    with pytest.raises(ValueError, match=r"level: expected a number in \(0, 1\)"):
        auc_pr_ci(Y_SMALL, S_SMALL, level=level)


def test_unknown_interval_and_method():
    with pytest.raises(ValueError, match="interval: expected one of 'logit'"):
        auc_pr_ci(Y_SMALL, S_SMALL, interval="wald")
    with pytest.raises(ValueError, match="method: expected one of 'average_precision'"):
        auc_pr_ci(Y_SMALL, S_SMALL, method="logit")


def test_too_few_positives_for_bootstrap():
    with pytest.raises(ValueError, match=r"needs at least 2 positive\(s\).*got 1 positive"):
        auc_pr_ci([1, 0, 0, 0], [4, 3, 2, 1], interval="bootstrap_bca", n_resamples=10)


def test_n_resamples_and_progress_types():
    with pytest.raises(ValueError, match="n_resamples: expected an integer >= 2, got 1"):
        auc_pr_ci(Y_SMALL, S_SMALL, interval="bootstrap_percentile", n_resamples=1)
    with pytest.raises(TypeError, match="progress: expected None or a callable"):
        auc_pr_ci(Y_SMALL, S_SMALL, progress=3)


def test_no_warning_on_ordinary_data(rng):
    y, s, _ = make_problem(rng)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        auc_pr_ci(y, s, interval="bootstrap_bca", n_resamples=50, rng=0)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("ties", [False, True])
def test_positional_replicates_equal_resample_and_recompute(rng, method, ties):
    """Unweighted fast path: multiplicities on each class's score-sorted positions."""
    y, s, _ = make_problem(rng, n=80, prevalence=0.3, ties=ties)
    sample = prepare(y, s)
    mp, mn = stratified_multiplicities(rng, 25, int(y.sum()), int((~y).sum()))
    tp, fp, npos, _ = replicate_counts(sample, mp, mn)
    got = batched_area(tp, fp, npos, method)
    pos = np.flatnonzero(y)[np.argsort(-s[y], kind="stable")]
    neg = np.flatnonzero(~y)[np.argsort(-s[~y], kind="stable")]
    for r in range(25):
        idx = np.concatenate([np.repeat(pos, mp[r]), np.repeat(neg, mn[r])])
        assert got[r] == pytest.approx(auc_pr(y[idx], s[idx], method=method))


@pytest.mark.parametrize("kind", ["binomial", "logit"])
def test_interval_from_estimate_equals_interval_from_data(rng, kind):
    """auc_pr_interval needs only θ and n₊: same result as auc_pr_ci on the data."""
    from prcurve import auc_pr_interval, pr_curve

    y, s, _ = make_problem(rng, n=300, prevalence=0.2, ties=True)
    for method in METHODS:
        full = auc_pr_ci(y, s, method=method, interval=kind, level=0.9)
        curve = pr_curve(y, s)
        quick = auc_pr_interval(curve.auc(method), curve.n_pos, interval=kind, level=0.9,
                                method=method)  # fmt: skip
        assert quick == full


def test_interval_from_estimate_by_hand():
    from prcurve import auc_pr_interval

    r = auc_pr_interval(0.6, 50, interval="binomial")
    half = 1.959963984540054 * np.sqrt(0.6 * 0.4 / 50)
    assert (r.interval.low, r.interval.high) == pytest.approx((0.6 - half, 0.6 + half))
    r = auc_pr_interval(0.6, 50, interval="logit")
    h = 1.959963984540054 / np.sqrt(50 * 0.6 * 0.4)
    lo, hi = 1 / (1 + np.exp(-(np.log(1.5) - h))), 1 / (1 + np.exp(-(np.log(1.5) + h)))
    assert (r.interval.low, r.interval.high) == pytest.approx((lo, hi))
    with pytest.raises(ValueError, match=r"estimate: expected an AUC-PR estimate in \[0, 1\]"):
        auc_pr_interval(1.5, 50)
    with pytest.raises(ValueError, match="n_pos: expected a positive number"):
        auc_pr_interval(0.5, 0)
    with pytest.raises(ValueError, match="interval: expected one of 'logit', 'binomial'"):
        auc_pr_interval(0.5, 10, interval="bootstrap_bca")
