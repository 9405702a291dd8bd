"""The per-class fitting path: every family round-trips, SEs are right, errors are clear."""

import numpy as np
import pytest
from scipy import stats

from prcurve._parametric._families import (
    FAMILIES,
    DistributionFitError,
    Family,
    _observed_information,
    _to_free,
    fit_class,
)

# family -> (true law, true theta in the family's parameter order)
TRUE_LAWS = {
    "normal": (stats.norm(1.5, 2.0), (1.5, 2.0)),
    "lognormal": (stats.lognorm(s=0.6, scale=np.exp(0.4)), (0.4, 0.6)),
    "logistic": (stats.logistic(-0.5, 0.8), (-0.5, 0.8)),
    "gamma": (stats.gamma(a=2.5, scale=1.5), (2.5, 1.5)),
    "beta": (stats.beta(2.0, 5.0), (2.0, 5.0)),
}


def scipy_mle(name, x):
    """scipy's own maximum-likelihood fit, in the family's parameter order."""
    if name == "normal":
        return stats.norm.fit(x)
    if name == "lognormal":
        s, _, scale = stats.lognorm.fit(x, floc=0)
        return np.log(scale), s
    if name == "logistic":
        return stats.logistic.fit(x)
    if name == "gamma":
        a, _, scale = stats.gamma.fit(x, floc=0)
        return a, scale
    a, b, _, _ = stats.beta.fit(x, floc=0, fscale=1)
    return a, b


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_round_trip_recovers_parameters_within_standard_errors(name):
    law, theta = TRUE_LAWS[name]
    x = law.rvs(size=4000, random_state=np.random.default_rng(7))
    fit = fit_class(FAMILIES[name], x, None, "positive-class")
    z = (fit.theta - np.asarray(theta)) / fit.standard_errors
    assert np.all(np.abs(z) < 3.5), (name, fit.theta, fit.standard_errors)
    assert fit.total_weight == x.size
    # the fitted frozen law is the family's law at the estimates
    np.testing.assert_allclose(
        fit.distribution.cdf(x[:5]), FAMILIES[name].frozen(fit.theta).cdf(x[:5])
    )
    # log-likelihood is the sum of scipy's log-densities
    assert fit.log_likelihood == pytest.approx(np.sum(fit.distribution.logpdf(x)), rel=1e-12)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_estimates_equal_scipy_maximum_likelihood(name):
    law, _ = TRUE_LAWS[name]
    x = law.rvs(size=500, random_state=np.random.default_rng(11))
    fit = fit_class(FAMILIES[name], x, None, "negative-class")
    np.testing.assert_allclose(fit.theta, scipy_mle(name, x), rtol=2e-4, atol=1e-6)


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_standard_errors_match_monte_carlo_spread(name):
    law, _ = TRUE_LAWS[name]
    rng = np.random.default_rng(3)
    fits = [
        fit_class(FAMILIES[name], law.rvs(300, random_state=rng), None, "x") for _ in range(150)
    ]
    spread = np.std([f.theta for f in fits], axis=0, ddof=1)
    mean_se = np.mean([f.standard_errors for f in fits], axis=0)
    # 150 replicates: the sd of a sd estimate is ~6%, so allow 25%
    np.testing.assert_allclose(spread / mean_se, 1.0, atol=0.25)


@pytest.mark.parametrize("name", ["gamma", "beta"])
def test_observed_information_equals_closed_form_fisher_information(name):
    # gamma and beta are exponential families: observed = expected information at the MLE
    law, _ = TRUE_LAWS[name]
    x = law.rvs(size=1000, random_state=np.random.default_rng(5))
    family = FAMILIES[name]
    fit = fit_class(family, x, None, "x")
    observed = _observed_information(family, fit.theta, x, np.ones_like(x))
    np.testing.assert_allclose(observed, family.information(fit.theta), rtol=1e-6)


def test_logistic_observed_information_approaches_fisher_information():
    # Fisher information of the logistic law: diag(1/(3 s²), (3 + π²)/(9 s²))
    x = stats.logistic(0.0, 2.0).rvs(200_000, random_state=np.random.default_rng(2))
    family = FAMILIES["logistic"]
    fit = fit_class(family, x, None, "x")
    s = fit.theta[1]
    expected = np.diag([1 / (3 * s**2), (3 + np.pi**2) / (9 * s**2)])
    observed = _observed_information(family, fit.theta, x, np.ones_like(x))
    np.testing.assert_allclose(observed, expected, atol=0.01 * expected.max())


def _newton_step(family, theta, x, w):
    """|H⁻¹∇| of the mean negative log-likelihood in the optimizer's free coordinates."""
    scale = np.where(family.positive, theta, 1.0)  # d theta / d u (log scale if positive)
    grad = family.nll_grad(theta, x, w.astype(float))[1] * scale
    hess = _observed_information(family, theta, x, w.astype(float)) * np.outer(scale, scale)
    return np.abs(np.linalg.solve(hess, grad))


@pytest.mark.parametrize("name", sorted(FAMILIES))
def test_integer_weights_equal_repeated_observations(name):
    law, _ = TRUE_LAWS[name]
    rng = np.random.default_rng(13)
    x = law.rvs(size=200, random_state=rng)
    w = rng.integers(1, 4, size=x.size)
    weighted = fit_class(FAMILIES[name], x, w.astype(float), "x")
    repeated = fit_class(FAMILIES[name], np.repeat(x, w), None, "x")
    family = FAMILIES[name]
    if family.nll_grad is None:  # closed form: the same weighted sums in another order
        np.testing.assert_allclose(weighted.theta, repeated.theta, rtol=1e-12)
    else:
        # BFGS ran twice on one objective and stopped where its gradient is small (‖∇‖∞ <=
        # _OPTIMIZER_OPTIONS["gtol"], or the 1e-6 stationarity fallback), not at one point: each
        # stop lies within its Newton step H⁻¹∇ of the optimum (×2 for the quadratic model)
        u_a, u_b = _to_free(family, weighted.theta), _to_free(family, repeated.theta)
        gap = np.abs(u_a - u_b)
        reach = _newton_step(family, weighted.theta, x, w) + _newton_step(
            family, repeated.theta, x, w
        )
        assert np.all(gap <= 2 * reach + 1e-12), (gap, reach)
    # SEs are smooth in θ (relative change ~ |Δθ|/θ <= 1e-6 for gtol = 1e-9); the
    # log-likelihood is stationary in θ, so it moves by O(|Δθ|²)
    np.testing.assert_allclose(weighted.standard_errors, repeated.standard_errors, rtol=1e-5)
    assert weighted.log_likelihood == pytest.approx(repeated.log_likelihood, rel=1e-8)
    # KS statistic: pure arithmetic at a given θ.  The weighted statistic is the KS statistic
    # of the repeated data at the same fitted law (same empirical CDF, i/n for both).
    expanded = stats.kstest(np.repeat(x, w), weighted.distribution.cdf).statistic
    assert weighted.ks_statistic == pytest.approx(expanded, abs=8 * np.finfo(float).eps)
    # Across the two fits the statistics differ only through θ: both are a max over the same
    # data points of |ECDF − F(·; θ)|, so |ΔKS| <= max_i |F(x_i; θa) − F(x_i; θb)| exactly.
    moved = np.max(np.abs(weighted.distribution.cdf(x) - repeated.distribution.cdf(x)))
    ks_gap = abs(weighted.ks_statistic - repeated.ks_statistic)
    assert ks_gap <= moved + 8 * np.finfo(float).eps


def test_ks_test_flags_a_wrong_family_and_accepts_the_right_one():
    x = stats.lognorm(s=1.0).rvs(2000, random_state=np.random.default_rng(0))
    right = fit_class(FAMILIES["lognormal"], x, None, "x")
    wrong = fit_class(FAMILIES["normal"], x, None, "x")
    assert right.ks_pvalue > 0.05
    assert wrong.ks_pvalue < 1e-6
    expected = stats.kstest(x, stats.norm(*wrong.theta).cdf)
    assert wrong.ks_statistic == pytest.approx(expected.statistic)


def test_weighted_ks_p_value_uses_the_effective_sample_size():
    x = stats.norm().rvs(400, random_state=np.random.default_rng(4))
    fit = fit_class(FAMILIES["normal"], x, np.full(x.size, 0.5), "x")
    plain = fit_class(FAMILIES["normal"], x, None, "x")
    # constant weights: same statistic, same effective size, same p-value as unweighted
    assert fit.ks_statistic == pytest.approx(plain.ks_statistic, abs=1e-12)
    assert fit.ks_pvalue == pytest.approx(stats.kstwo.sf(plain.ks_statistic, 400))


@pytest.mark.parametrize(
    ("name", "x", "match"),
    [
        ("beta", [0.2, 0.5, 1.0, 1.3], r"family='beta' needs scores in \(0, 1\), but 2 of the 4 "),
        ("gamma", [-1.0, 2.0, 3.0], r"family='gamma' needs scores in \(0, inf\), but 1 of the 3 "),
        ("lognormal", [0.0, 2.0, 3.0], r"e\.g\. 0\.0"),
        ("normal", [2.0, 2.0, 2.0], r"at least 2 distinct x-class scores .* 3 scores all equal"),
        ("logistic", [1.0], r"got a single score \(zero variance\)"),
    ],
)
def test_bad_scores_raise_clear_errors(name, x, match):
    with pytest.raises(DistributionFitError, match=match):
        fit_class(FAMILIES[name], np.asarray(x), None, "x-class")


def test_non_convergence_reports_the_optimizer_reason(monkeypatch):
    from prcurve._parametric import _families

    monkeypatch.setitem(_families._OPTIMIZER_OPTIONS, "maxiter", 1)
    x = stats.beta(2, 5).rvs(300, random_state=np.random.default_rng(1))
    with pytest.raises(
        DistributionFitError,
        match=r"beta fit of the positive-class scores did not converge after 1 iterations: "
        r"Maximum number of iterations",
    ):
        fit_class(FAMILIES["beta"], x, None, "positive-class")


def test_singular_information_is_an_error():
    base = FAMILIES["normal"]
    singular = Family(
        "flat",
        base.param_names,
        base.positive,
        base.support,
        base.frozen,
        closed_form=base.closed_form,
        information=lambda th: np.zeros((2, 2)),
    )
    with pytest.raises(DistributionFitError, match=r"singular information matrix at .*mu"):
        fit_class(singular, np.array([0.0, 1.0, 2.0]), None, "negative-class")


def test_distribution_fit_error_is_a_value_error():
    assert issubclass(DistributionFitError, ValueError)
