"""DeLong's interval for the ROC AUC and the paired DeLong test.

Checked against a brute-force O(n₊n₋) computation of the placement values straight from
DeLong et al. (1988), against scikit-learn's AUC, and (``test_delong_proc.py``) against pROC.
"""

import math

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import roc_auc_score

from prcurve import (
    DegenerateVarianceWarning,
    DeLongAUC,
    DeLongTest,
    binary_counts,
    delong_test,
    roc_auc_delong,
    roc_auc_delong_from_counts,
)

from ..conftest import make_problem


def _brute_placements(y, s):
    """Placement values from the Mann–Whitney kernel, every (positive, negative) pair."""
    x, z = s[y], s[~y]
    psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
    return psi.mean(axis=1), psi.mean(axis=0), psi.mean()


def _brute_variance(y, s):
    v10, v01, auc = _brute_placements(y, s)
    return auc, np.var(v10, ddof=1) / v10.size + np.var(v01, ddof=1) / v01.size


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("prevalence", [0.05, 0.3, 0.7])
def test_interval_equals_brute_force(rng, ties, prevalence):
    y, s, _ = make_problem(rng, n=400, prevalence=prevalence, ties=ties)
    res = roc_auc_delong(y, s, level=0.9)
    auc, var = _brute_variance(y, s)
    assert isinstance(res, DeLongAUC)
    assert res.auc == pytest.approx(auc, abs=1e-14)
    assert res.auc == pytest.approx(roc_auc_score(y, s), abs=1e-14)
    assert res.variance == pytest.approx(var, rel=1e-12)
    assert res.standard_error == pytest.approx(math.sqrt(var), rel=1e-12)
    z = stats.norm.ppf(0.95)
    assert res.ci.low == pytest.approx(auc - z * math.sqrt(var), abs=1e-13)
    assert res.ci.high == pytest.approx(min(auc + z * math.sqrt(var), 1.0), abs=1e-13)
    assert res.ci.level == 0.9
    assert (res.n_pos, res.n_neg) == (int(y.sum()), int((~y).sum()))


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("prevalence", [0.05, 0.5])
def test_from_counts_equals_the_row_form(rng, ties, prevalence):
    """The variance depends only on the counts per distinct score: every engine can give it."""
    y, s, _ = make_problem(rng, n=500, prevalence=prevalence, ties=ties)
    rows = roc_auc_delong(y, s, level=0.9)
    counts = roc_auc_delong_from_counts(binary_counts(y, s), level=0.9)
    assert counts.auc == pytest.approx(rows.auc, abs=1e-12)
    assert counts.variance == pytest.approx(rows.variance, abs=1e-12)
    assert (counts.ci.low, counts.ci.high) == pytest.approx((rows.ci.low, rows.ci.high), abs=1e-12)
    assert (counts.n_pos, counts.n_neg) == (rows.n_pos, rows.n_neg)
    auc, var = _brute_variance(y, s)
    assert (counts.auc, counts.variance) == pytest.approx((auc, var), abs=1e-12)


def test_from_counts_refusals_and_warning():
    y = np.array([1, 0, 1, 0, 1])
    s = np.array([0.9, 0.1, 0.8, 0.3, 0.7])
    with pytest.raises(TypeError, match=r"counts: expected a prcurve\.BinaryCounts .* got tuple"):
        roc_auc_delong_from_counts((y, s))
    weighted = binary_counts(y, s, sample_weight=np.full(5, 2.0))
    with pytest.raises(ValueError, match=r"counts: expected unweighted counts .* got weighted"):
        roc_auc_delong_from_counts(weighted)
    with pytest.raises(ValueError, match=r"counts: .* at least 2 positives and 2 negatives, got 1"):
        roc_auc_delong_from_counts(binary_counts([1, 0, 0], [0.2, 0.1, 0.3]))
    with pytest.raises(ValueError, match=r"level: "):
        roc_auc_delong_from_counts(binary_counts(y, s), level=1.5)
    with pytest.warns(DegenerateVarianceWarning, match="variance of the AUC is 0") as caught:
        roc_auc_delong_from_counts(binary_counts(y, s))
    assert caught[0].filename == __file__


def test_interval_is_clipped_to_the_unit_interval():
    y = np.array([0, 0, 0, 1, 1, 1, 0, 1])
    s = np.array([0.1, 0.2, 0.3, 0.9, 0.8, 0.7, 0.75, 0.6])
    res = roc_auc_delong(y, s)
    auc, var = _brute_variance(y.astype(bool), s)
    assert auc + 1.96 * math.sqrt(var) > 1  # the raw interval leaves [0, 1]
    assert res.ci.high == 1.0
    assert res.ci.low == pytest.approx(auc - stats.norm.ppf(0.975) * math.sqrt(var), abs=1e-14)


def test_pos_label_and_label_encodings():
    rng = np.random.default_rng(3)
    y = rng.random(60) < 0.4
    s = rng.normal(size=60) + y
    labels = np.where(y, "spam", "ham")
    a = roc_auc_delong(y, s)
    b = roc_auc_delong(labels, s, pos_label="spam")
    assert (a.auc, a.variance) == (b.auc, b.variance)


def test_perfect_separation_warns_and_gives_a_zero_width_interval():
    with pytest.warns(DegenerateVarianceWarning, match="variance of the AUC is 0") as caught:
        res = roc_auc_delong([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    assert caught[0].filename == __file__  # stacklevel: the caller's line
    assert (res.auc, res.standard_error, res.ci.low, res.ci.high) == (1.0, 0.0, 1.0, 1.0)


@pytest.mark.parametrize("ties", [False, True])
def test_paired_test_equals_brute_force(rng, ties):
    y, a, _ = make_problem(rng, n=300, prevalence=0.3, ties=ties)
    b = a + rng.normal(scale=0.9, size=a.size)
    if ties:
        b = np.round(b * 2) / 2
    res = delong_test(y, a, b, level=0.9)
    pa10, pa01, auc_a = _brute_placements(y, a)
    pb10, pb01, auc_b = _brute_placements(y, b)
    n_pos, n_neg = pa10.size, pa01.size
    s10 = np.cov(np.vstack([pa10, pb10]))
    s01 = np.cov(np.vstack([pa01, pb01]))
    cov = s10 / n_pos + s01 / n_neg
    var_d = cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]
    z = (auc_a - auc_b) / math.sqrt(var_d)
    assert isinstance(res, DeLongTest)
    assert (res.auc_a, res.auc_b) == pytest.approx((auc_a, auc_b), abs=1e-14)
    assert res.difference == pytest.approx(auc_a - auc_b, abs=1e-14)
    assert res.standard_error == pytest.approx(math.sqrt(var_d), rel=1e-10)
    assert res.statistic == pytest.approx(z, rel=1e-10)
    assert res.p_value == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
    assert res.correlation == pytest.approx(cov[0, 1] / math.sqrt(cov[0, 0] * cov[1, 1]))
    half = stats.norm.ppf(0.95) * math.sqrt(var_d)
    assert res.ci.low == pytest.approx(auc_a - auc_b - half, abs=1e-13)
    assert res.ci.high == pytest.approx(auc_a - auc_b + half, abs=1e-13)
    # one-sided alternatives split the two-sided p-value
    greater = delong_test(y, a, b, alternative="greater")
    less = delong_test(y, a, b, alternative="less")
    assert greater.p_value == pytest.approx(stats.norm.sf(z), rel=1e-9)
    assert greater.p_value + less.p_value == pytest.approx(1.0, abs=1e-15)


def test_paired_test_is_antisymmetric_and_matches_single_variances(rng):
    y, a, _ = make_problem(rng, n=200, prevalence=0.4)
    b = rng.normal(size=a.size) + 0.5 * y
    ab, ba = delong_test(y, a, b), delong_test(y, b, a)
    assert ba.statistic == pytest.approx(-ab.statistic, rel=1e-12)
    assert ba.p_value == pytest.approx(ab.p_value, rel=1e-12)
    # independent scorers' variance of the difference ≈ the sum minus twice a small covariance
    va, vb = roc_auc_delong(y, a).variance, roc_auc_delong(y, b).variance
    cov = (va + vb - ab.standard_error**2) / 2
    assert ab.correlation == pytest.approx(cov / math.sqrt(va * vb), rel=1e-10)


def test_identical_rankings_give_zero_difference_with_a_warning(rng):
    y, a, _ = make_problem(rng, n=100, ties=True)
    with pytest.warns(DegenerateVarianceWarning, match="AUC difference is 0"):
        res = delong_test(y, a, np.exp(a))  # a monotone transform: the same ranking
    assert (res.difference, res.standard_error, res.statistic, res.p_value) == (0, 0, 0, 1)


def test_weights_are_refused():
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.4, 0.8, 0.5]
    with pytest.raises(ValueError, match=r"sample_weight: expected None \(DeLong's variance"):
        roc_auc_delong(y, s, sample_weight=np.ones(6))
    with pytest.raises(ValueError, match=r"sample_weight: expected None \(DeLong's variance"):
        delong_test(y, s, s, sample_weight=np.ones(6))


def test_bad_options_and_too_few_instances():
    y, s = [0, 1, 0, 1, 1, 0], [0.1, 0.9, 0.3, 0.4, 0.8, 0.5]
    with pytest.raises(ValueError, match=r"level: expected a number in \(0, 1\), got 95"):
        roc_auc_delong(y, s, level=95)
    with pytest.raises(ValueError, match="alternative: expected one of 'two-sided', 'greater'"):
        delong_test(y, s, s, alternative="two.sided")
    with pytest.raises(
        ValueError, match="y_true and score_b: expected the same length, got 6 and 5"
    ):
        delong_test(y, s, s[:5])
    with pytest.raises(ValueError, match=r"DeLong's variance needs at least 2 positive\(s\)"):
        roc_auc_delong([0, 0, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=r"DeLong test needs at least 2 positive\(s\) and 2"):
        delong_test([0, 1, 1], [0.1, 0.2, 0.3], [0.3, 0.2, 0.1])


# --- coverage of the interval and size of the paired test, by simulation -----------------------


def _binormal(rng, n_pos, n_neg, shift):
    y = np.r_[np.ones(n_pos, bool), np.zeros(n_neg, bool)]
    return y, rng.normal(size=n_pos + n_neg) + shift * y


def test_interval_coverage_by_simulation():
    """Binormal, shift 1 (AUC = Φ(1/√2) ≈ 0.760), n₋ = 2n₊: coverage of the 95% interval is
    near nominal from n₊ = 30 and a little low at n₊ = 10 (the fuller table:
    bench/coverage_delong.py).  Bounds are 4 binomial standard errors."""
    truth = stats.norm.cdf(1 / math.sqrt(2))
    gen = np.random.default_rng(2718)
    reps = 600
    for n_pos, low_ok in ((10, 0.90), (30, 0.95), (100, 0.95)):
        hits = sum(
            roc_auc_delong(*_binormal(gen, n_pos, 2 * n_pos, 1.0)).ci.contains(truth)
            for _ in range(reps)
        )
        cover = hits / reps
        se = math.sqrt(0.95 * 0.05 / reps)
        assert low_ok - 4 * se < cover < 0.95 + 4 * se, (n_pos, cover)


def test_paired_test_size_by_simulation():
    """Two scorers with the same binormal separation and correlated noise (ρ = 0.5): the
    5% test rejects about 5% of the time (4 binomial standard errors)."""
    gen = np.random.default_rng(1414)
    reps = 600
    for n_pos in (30, 100):
        rejections = 0
        for _ in range(reps):
            y, _ = _binormal(gen, n_pos, 2 * n_pos, 0.0)
            e = gen.multivariate_normal([0, 0], [[1, 0.5], [0.5, 1]], size=y.size)
            a, b = e[:, 0] + y, e[:, 1] + y
            rejections += delong_test(y, a, b).p_value < 0.05
        size = rejections / reps
        se = math.sqrt(0.05 * 0.95 / reps)
        assert abs(size - 0.05) < 4 * se, (n_pos, size)
