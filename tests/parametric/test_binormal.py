"""Binormal, α-binormal and other bi-distribution fits (Brodersen et al. 2010)."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import integrate, special, stats

import prcurve
from prcurve import (
    BidistributionFit,
    DistributionFitError,
    GoodnessOfFit,
    PopulationModel,
    auc_pr,
    fit_bidistribution,
    fit_binormal,
)
from prcurve._parametric._binormal import recall_quadrature


def alpha_binormal_ppv(recall, mu_neg, sd_neg, mu_pos, sd_pos, alpha):
    """The corrected eq. (7), written directly with scipy.stats.norm."""
    t = stats.norm.isf(recall, mu_pos, sd_pos)  # = Φ₊⁻¹(1 − TPR), accurate for small TPR
    fpr = stats.norm.sf(t, mu_neg, sd_neg)  # = 1 − Φ₋(t)
    return alpha * recall / (alpha * recall + (1 - alpha) * fpr)


@pytest.fixture
def sample():
    rng = np.random.default_rng(42)
    y = np.r_[np.zeros(150, bool), np.ones(50, bool)]
    s = np.r_[rng.normal(-1, 2, 150), rng.normal(1, 1.5, 50)]
    return y, s


def test_binormal_estimates_are_class_moments(sample):
    y, s = sample
    fit = fit_binormal(y, s)
    p, se = fit.params, fit.standard_errors
    assert p["mu_neg"] == pytest.approx(s[~y].mean())
    assert p["sigma_neg"] == pytest.approx(s[~y].std(ddof=0))
    assert p["mu_pos"] == pytest.approx(s[y].mean())
    assert p["sigma_pos"] == pytest.approx(s[y].std(ddof=0))
    assert p["prevalence"] == fit.prevalence == 0.25
    assert se["mu_pos"] == pytest.approx(p["sigma_pos"] / np.sqrt(50))
    assert se["sigma_neg"] == pytest.approx(p["sigma_neg"] / np.sqrt(300))
    assert se["prevalence"] == pytest.approx(np.sqrt(0.25 * 0.75 / 200))
    assert (fit.n_pos, fit.n_neg, fit.family, fit.transform) == (50, 150, "normal", None)


def test_fit_is_a_frozen_population_model(sample):
    fit = fit_binormal(*sample)
    assert isinstance(fit, PopulationModel) and isinstance(fit, BidistributionFit)
    with pytest.raises(dataclasses.FrozenInstanceError):
        fit.prevalence = 0.3
    y, s = fit.sample(10, rng=0)
    assert y.shape == s.shape == (10,)
    assert fit.n_parameters == 5 and fit.aic() == pytest.approx(10 - 2 * fit.log_likelihood)


@pytest.mark.parametrize("estimate", [True, False])
def test_precision_at_is_the_corrected_alpha_binormal_formula(sample, estimate):
    y, s = sample
    fit = fit_binormal(y, s, estimate_prevalence=estimate)
    p = fit.params
    alpha = 0.25 if estimate else 0.5
    assert fit.prevalence == alpha
    x = np.linspace(0.01, 1, 50)
    expected = alpha_binormal_ppv(
        x, p["mu_neg"], p["sigma_neg"], p["mu_pos"], p["sigma_pos"], alpha
    )
    np.testing.assert_allclose(fit.precision_at(x), expected, rtol=1e-10)


def test_plain_binormal_ignores_imbalance_and_overestimates_when_positives_are_rare(sample):
    y, s = sample
    alpha_fit, plain = fit_binormal(y, s), fit_binormal(y, s, estimate_prevalence=False)
    x = np.linspace(0.05, 1, 20)
    assert np.all(plain.precision_at(x) > alpha_fit.precision_at(x))
    np.testing.assert_allclose(plain.roc(x), alpha_fit.roc(x))  # ROC does not depend on α
    assert plain.standard_errors["prevalence"] == 0.0 and plain.n_parameters == 4


def test_average_precision_equals_adaptive_quadrature_and_population_auc(sample):
    fit = fit_binormal(*sample)
    p = fit.params
    args = (p["mu_neg"], p["sigma_neg"], p["mu_pos"], p["sigma_pos"], fit.prevalence)
    by_quad, _ = integrate.quad(
        lambda x: alpha_binormal_ppv(x, *args), 0, 1, limit=200, epsabs=1e-13, epsrel=1e-12
    )
    # recall_quadrature is accurate to ~1e-10 (its docstring), quad to 1e-12: 1e-9 covers both
    assert fit.average_precision() == pytest.approx(by_quad, abs=1e-9)
    assert fit.average_precision() == pytest.approx(fit.auc_pr(), abs=1e-9)


def test_roc_auc_closed_form_equals_population_integral(sample):
    fit = fit_binormal(*sample)
    p = fit.params
    z = (p["mu_pos"] - p["mu_neg"]) / np.sqrt(p["sigma_pos"] ** 2 + p["sigma_neg"] ** 2)
    assert fit.roc_auc() == pytest.approx(stats.norm.cdf(z), abs=1e-14)
    assert fit.roc_auc() == pytest.approx(fit.auc_roc(), abs=1e-9)
    generic = dataclasses.replace(fit, family="logistic")  # forces the quadrature path
    # fixed Gauss–Legendre rule (~1e-10) against the closed form
    assert generic.roc_auc() == pytest.approx(fit.roc_auc(), abs=1e-9)


def test_true_average_precision_two_independent_ways():
    # a known binormal model: quadrature of its PR curve vs the empirical AP of a huge sample
    model = PopulationModel(stats.norm(0, 1), stats.norm(1.5, 1.2), prevalence=0.2)
    x, w = recall_quadrature()
    by_quadrature = float(w @ model.precision_at(x))
    y, s = model.sample(4_000_000, rng=2024)
    by_sample = auc_pr(y, s)
    # the sample AP has sd ≈ √(θ(1−θ)/n₊) = 5.5e-4 here (5.5e-4 measured over 200 samples);
    # its O(1/n₊) bias is negligible: z = 4
    se = np.sqrt(by_quadrature * (1 - by_quadrature) / y.sum())
    assert abs(by_quadrature - by_sample) < 4 * se
    # fixed rule (~1e-10) against adaptive quad (1e-12)
    assert by_quadrature == pytest.approx(model.auc_pr(), abs=1e-9)


@settings(max_examples=30, deadline=None)
@given(
    scale=st.floats(0.01, 100),
    shift=st.floats(-100, 100),
    seed=st.integers(0, 2**32 - 1),
    estimate=st.booleans(),
)
def test_binormal_curves_are_invariant_to_increasing_affine_maps(scale, shift, seed, estimate):
    rng = np.random.default_rng(seed)
    y = np.r_[np.zeros(30, bool), np.ones(12, bool)]
    s = rng.normal(size=42) + y
    a = fit_binormal(y, s, estimate_prevalence=estimate)
    b = fit_binormal(y, scale * s + shift, estimate_prevalence=estimate)
    assert b.params["mu_pos"] == pytest.approx(scale * a.params["mu_pos"] + shift, abs=1e-9 * scale)
    assert b.params["sigma_neg"] == pytest.approx(scale * a.params["sigma_neg"])
    assert b.roc_auc() == pytest.approx(a.roc_auc(), abs=1e-9)
    assert b.average_precision() == pytest.approx(a.average_precision(), abs=1e-9)
    x = np.array([0.1, 0.5, 0.9])
    np.testing.assert_allclose(b.precision_at(x), a.precision_at(x), atol=1e-9)


def test_integer_weights_equal_repeated_rows(sample):
    y, s = sample
    w = np.random.default_rng(0).integers(1, 4, size=y.size)
    weighted = fit_binormal(y, s, sample_weight=w)
    repeated = fit_binormal(np.repeat(y, w), np.repeat(s, w))
    for key in weighted.params:
        assert weighted.params[key] == pytest.approx(repeated.params[key], rel=1e-12)
        assert weighted.standard_errors[key] == pytest.approx(repeated.standard_errors[key])
    assert weighted.prevalence == pytest.approx(w[y].sum() / w.sum())
    assert weighted.log_likelihood == pytest.approx(repeated.log_likelihood)


def test_log_likelihood_includes_class_fraction(sample):
    y, s = sample
    fit = fit_binormal(y, s)
    p = fit.params
    expected = (
        stats.norm(p["mu_neg"], p["sigma_neg"]).logpdf(s[~y]).sum()
        + stats.norm(p["mu_pos"], p["sigma_pos"]).logpdf(s[y]).sum()
        + 50 * np.log(0.25)
        + 150 * np.log(0.75)
    )
    assert fit.log_likelihood == pytest.approx(expected, rel=1e-12)


# family -> (negative law, positive law, their parameters in the fit's naming)
FAMILY_MODELS = {
    "normal": (
        stats.norm(0, 1),
        stats.norm(1, 1.3),
        {"mu_neg": 0, "sigma_neg": 1, "mu_pos": 1, "sigma_pos": 1.3},
    ),
    "lognormal": (
        stats.lognorm(s=0.5, scale=1.0),
        stats.lognorm(s=0.7, scale=np.exp(0.8)),
        {"mu_neg": 0, "sigma_neg": 0.5, "mu_pos": 0.8, "sigma_pos": 0.7},
    ),
    "logistic": (
        stats.logistic(0, 1),
        stats.logistic(1.5, 0.8),
        {"loc_neg": 0, "scale_neg": 1, "loc_pos": 1.5, "scale_pos": 0.8},
    ),
    "gamma": (
        stats.gamma(a=2, scale=1),
        stats.gamma(a=4, scale=1.2),
        {"shape_neg": 2, "scale_neg": 1, "shape_pos": 4, "scale_pos": 1.2},
    ),
    "beta": (stats.beta(2, 5), stats.beta(5, 2), {"a_neg": 2, "b_neg": 5, "a_pos": 5, "b_pos": 2}),
}


@pytest.mark.parametrize("family", sorted(FAMILY_MODELS))
def test_every_family_round_trips(family):
    neg, pos, truth = FAMILY_MODELS[family]
    model = PopulationModel(neg, pos, prevalence=0.3)
    y, s = model.sample(6000, rng=99)
    fit = fit_bidistribution(y, s, family=family)
    # ML estimates are asymptotically normal with the reported SEs: z = 3.5 for each
    for key, value in truth.items():
        assert abs(fit.params[key] - value) < 3.5 * fit.standard_errors[key], key
    assert abs(fit.prevalence - 0.3) < 3.5 * fit.standard_errors["prevalence"]
    assert fit.goodness_of_fit.ks_pvalue_neg > 0.01 and fit.goodness_of_fit.ks_pvalue_pos > 0.01
    assert not fit.goodness_of_fit.rejects(0.01)
    # n = 6000: over 30 samples per family the fitted ROC AUC had sd <= 0.008 and the AP
    # sd <= 0.013 (normal the widest); z = 4 (0.02 was 1.6 sd of the AP)
    assert fit.roc_auc() == pytest.approx(model.auc_roc(), abs=0.035)
    assert fit.average_precision() == pytest.approx(model.auc_pr(), abs=0.05)
    # fixed Gauss–Legendre rule (~1e-10) against adaptive quad (1e-12)
    assert fit.roc_auc() == pytest.approx(fit.auc_roc(), abs=1e-8)
    assert fit.average_precision() == pytest.approx(fit.auc_pr(), abs=1e-8)


def test_goodness_of_fit_rejects_a_wrong_family():
    model = PopulationModel(stats.lognorm(s=1.0), stats.lognorm(s=1.0, scale=3.0), prevalence=0.5)
    y, s = model.sample(3000, rng=5)
    gof = fit_binormal(y, s).goodness_of_fit
    assert isinstance(gof, GoodnessOfFit) and gof.rejects()
    assert gof.ks_pvalue_neg < 1e-6 and gof.ks_pvalue_pos < 1e-6
    assert not fit_bidistribution(y, s, family="lognormal").goodness_of_fit.rejects(0.01)
    with pytest.raises(ValueError, match=r"significance: expected a number in \(0, 1\), got 2"):
        gof.rejects(2)


def test_lognormal_fit_is_binormal_fit_of_log_scores():
    model = PopulationModel(stats.lognorm(s=0.5), stats.lognorm(s=0.6, scale=2.0), prevalence=0.4)
    y, s = model.sample(500, rng=8)
    a = fit_bidistribution(y, s, family="lognormal")
    b = fit_binormal(y, np.log(s))
    for key in b.params:
        assert a.params[key] == pytest.approx(b.params[key])
    assert a.roc_auc() == pytest.approx(b.roc_auc())
    assert a.average_precision() == pytest.approx(b.average_precision(), abs=1e-9)


def test_box_cox_recovers_lambda_and_leaves_curves_invariant():
    lam = 0.5
    rng = np.random.default_rng(12)
    y = np.r_[np.zeros(3000, bool), np.ones(1000, bool)]
    z = np.r_[rng.normal(4, 0.5, 3000), rng.normal(5, 0.6, 1000)]  # λz + 1 > 0
    x = (lam * z + 1) ** (1 / lam)  # inverse Box-Cox: boxcox(x, 0.5) = z
    fit = fit_bidistribution(y, x, transform="box-cox")
    assert abs(fit.params["lambda"] - lam) < 3.5 * fit.standard_errors["lambda"]
    assert fit.standard_errors["lambda"] < 0.2
    np.testing.assert_allclose(fit.transform_scores(x), special.boxcox(x, fit.params["lambda"]))
    exact = fit_binormal(y, z)
    assert fit.roc_auc() == pytest.approx(exact.roc_auc(), abs=0.01)
    assert fit.average_precision() == pytest.approx(exact.average_precision(), abs=0.01)
    assert fit.n_parameters == 6 and fit.transform == "box-cox"
    # the log-likelihood is on the raw scale: binormal on the transform plus the Jacobian
    moved = fit_binormal(y, fit.transform_scores(x))
    jac = (fit.params["lambda"] - 1) * np.log(x).sum()
    assert fit.log_likelihood == pytest.approx(moved.log_likelihood + jac, rel=1e-10)


def test_box_cox_lambda_maximises_the_profile_likelihood():
    rng = np.random.default_rng(3)
    y = np.r_[np.zeros(400, bool), np.ones(200, bool)]
    x = np.exp(np.r_[rng.normal(0, 0.5, 400), rng.normal(1, 0.5, 200)])
    fit = fit_bidistribution(y, x, transform="box-cox")

    def loglik(lam):
        z = special.boxcox(x, lam)
        return fit_binormal(y, z).log_likelihood + (lam - 1) * np.log(x).sum()

    lam = fit.params["lambda"]
    assert abs(lam) < 3.5 * fit.standard_errors["lambda"]  # data are lognormal: λ = 0
    assert loglik(lam) >= max(loglik(lam - 0.05), loglik(lam + 0.05))


@pytest.mark.parametrize("family", ["beta", "gamma"])
def test_weighted_fits_of_optimised_families_equal_repeated_rows(family):
    neg, pos, _ = FAMILY_MODELS[family]
    y, s = PopulationModel(neg, pos, prevalence=0.4).sample(300, rng=4)
    w = np.random.default_rng(5).integers(1, 4, size=y.size)
    weighted = fit_bidistribution(y, s, family=family, sample_weight=w)
    repeated = fit_bidistribution(np.repeat(y, w), np.repeat(s, w), family=family)
    # two BFGS runs on one objective, each stopped at ‖∇‖∞ <= gtol = 1e-9 in log-parameters;
    # ‖I⁻¹‖ <= 2.3 for these laws (per unit weight), so each stop is within ~5e-9 relative
    # of the optimum; BFGS's 'precision loss' exit (accepted if ‖∇‖ < 1e-6) only happens where
    # rounding stalls the line search, closer still.  rel=1e-6 holds with margin
    for key in weighted.params:
        assert weighted.params[key] == pytest.approx(repeated.params[key], rel=1e-6)


def test_weighted_box_cox_equals_repeated_rows():
    rng = np.random.default_rng(6)
    y = np.r_[np.zeros(200, bool), np.ones(100, bool)]
    x = np.exp(np.r_[rng.normal(0, 0.4, 200), rng.normal(0.8, 0.5, 100)])
    w = rng.integers(1, 4, size=y.size)
    weighted = fit_bidistribution(y, x, transform="box-cox", sample_weight=w)
    repeated = fit_bidistribution(np.repeat(y, w), np.repeat(x, w), transform="box-cox")
    # bounded Brent stops within 2·(√eps·|λ| + xatol/3) of the optimum, xatol = 1e-10 (~3e-8)
    assert weighted.params["lambda"] == pytest.approx(repeated.params["lambda"], abs=1e-6)
    assert weighted.log_likelihood == pytest.approx(repeated.log_likelihood, rel=1e-8)


def test_transform_scores_is_identity_without_transform(sample):
    fit = fit_binormal(*sample)
    np.testing.assert_array_equal(fit.transform_scores([1.0, 2.0]), [1.0, 2.0])


def test_with_prevalence_reweights_the_pr_curve(sample):
    fit = fit_binormal(*sample)
    moved = fit.with_prevalence(0.05)
    assert isinstance(moved, BidistributionFit) and moved.prevalence == 0.05
    assert moved.params["prevalence"] == 0.05 and not moved.estimate_prevalence
    assert moved.params["mu_pos"] == fit.params["mu_pos"]
    assert moved.average_precision() < fit.average_precision()
    assert moved.roc_auc() == fit.roc_auc()


def test_pos_label_and_public_exports():
    y = np.array(["a", "b"] * 10)
    s = np.arange(20.0) + (y == "b") * 3
    fit = fit_binormal(y, s, pos_label="b")
    assert fit.params["mu_pos"] == pytest.approx(s[y == "b"].mean())
    for name in (
        "fit_binormal",
        "fit_bidistribution",
        "BidistributionFit",
        "GoodnessOfFit",
        "DistributionFitError",
    ):
        assert name in prcurve.__all__


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"family": "cauchy"}, ValueError, r"family: expected one of 'normal', .*got 'cauchy'"),
        ({"transform": "log"}, ValueError, r"transform: expected one of 'box-cox', got 'log'"),
        (
            {"family": "beta", "transform": "box-cox"},
            ValueError,
            r"transform: 'box-cox' is only combined with family='normal', got family='beta'",
        ),
    ],
)
def test_option_errors(sample, kwargs, error, match):
    with pytest.raises(error, match=match):
        fit_bidistribution(*sample, **kwargs)


def test_data_errors():
    y = np.array([0, 0, 0, 1, 1, 1])
    with pytest.raises(
        DistributionFitError,
        match=r"at least 2 distinct positive-class scores .* 3 scores all equal to 1\.0",
    ):
        fit_binormal(y, [0.1, 0.2, 0.3, 1.0, 1.0, 1.0])
    with pytest.raises(
        DistributionFitError,
        match=r"family='beta' needs scores in \(0, 1\), but 1 of the 3 negative-class scores",
    ):
        fit_bidistribution(y, [0.1, 0.2, 1.0, 0.4, 0.5, 0.6], family="beta")
    with pytest.raises(
        DistributionFitError,
        match=r"box-cox' needs positive scores, got 2 non-positive \(1 negative-class, 1 pos",
    ):
        fit_bidistribution(y, [0.0, 0.2, 0.3, -1.0, 0.5, 0.6], transform="box-cox")
    with pytest.raises(ValueError, match="y_true: expected both classes"):
        fit_binormal([1, 1, 1], [0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match="y_score: expected finite numbers, got NaN"):
        fit_binormal([0, 1], [0.1, np.nan])
