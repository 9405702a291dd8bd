"""Planning a study (issue 27 item 4): positives for an AP interval of a target half-width.

References are independent of the planner: scikit-learn's average precision on the same draws,
Boyd et al.'s closed form at the population AP, the influence-function variance against the
simulated spread at large n₊, and fresh simulations at the planned size.
"""

import numpy as np
import pytest
from scipy import special, stats
from sklearn.metrics import average_precision_score

from prcurve import (
    APHalfWidth,
    APPrecisionPlan,
    PopulationModel,
    ap_half_width,
    fit_binormal,
    plan_ap_precision,
)

Z95 = float(special.ndtri(0.975))


def _binormal(shift=1.5, prevalence=0.05):
    return PopulationModel(stats.norm(0, 1), stats.norm(shift, 1), prevalence=prevalence)


@pytest.mark.parametrize(
    "model",
    [
        _binormal(1.0, 0.1),
        # discrete laws: many tied scores, AP by tie groups as scikit-learn defines it
        PopulationModel(stats.binom(6, 0.4), stats.binom(6, 0.6), prevalence=0.25),
    ],
    ids=["normal", "discrete"],
)
def test_simulated_ap_equals_scikit_learn_on_the_same_draws(model):
    r = ap_half_width(model, 30, n_sim=40, method="sampling", rng=7)
    gen = np.random.default_rng(7)  # the planner draws positives, then negatives, per study
    n_neg = round(30 * model.skew)
    pos = model.positive.rvs(size=(40, 30), random_state=gen)
    neg = model.negative.rvs(size=(40, n_neg), random_state=gen)
    y = np.r_[np.ones(30), np.zeros(n_neg)]
    ap = np.array([average_precision_score(y, np.r_[p, q]) for p, q in zip(pos, neg, strict=True)])
    assert r.n_neg == n_neg
    assert r.mean_ap == pytest.approx(ap.mean(), rel=1e-12)
    assert r.sd_ap == pytest.approx(ap.std(ddof=1), rel=1e-10)
    assert r.half_width == pytest.approx(Z95 * ap.std(ddof=1), rel=1e-10)


def test_binomial_and_logit_half_widths_are_boyds_intervals_averaged():
    model = _binormal(1.0, 0.1)
    gen = np.random.default_rng(3)
    pos = model.positive.rvs(size=(50, 40), random_state=gen)
    neg = model.negative.rvs(size=(50, 360), random_state=gen)
    y = np.r_[np.ones(40), np.zeros(360)]
    theta = np.array(
        [average_precision_score(y, np.r_[p, q]) for p, q in zip(pos, neg, strict=True)]
    )
    binom = np.minimum(1, theta + Z95 * np.sqrt(theta * (1 - theta) / 40)) - np.maximum(
        0, theta - Z95 * np.sqrt(theta * (1 - theta) / 40)
    )
    c = Z95 / np.sqrt(40 * theta * (1 - theta))
    logit = special.expit(special.logit(theta) + c) - special.expit(special.logit(theta) - c)
    for method, width in (("binomial", binom), ("logit", logit)):
        r = ap_half_width(model, 40, n_sim=50, method=method, rng=3)
        assert r.half_width == pytest.approx(width.mean() / 2, rel=1e-10)
        assert r.half_width_se == pytest.approx(width.std(ddof=1) / 2 / np.sqrt(50), rel=1e-9)


@pytest.mark.slow
def test_sampling_half_width_agrees_with_the_asymptotic_variance_at_large_n():
    """For large n₊ the simulated z·SD(AP̂) meets z·σ_AP/√n₊ (influence function) within the
    Monte Carlo error; so does the planned n₊ with its stated error."""
    model = _binormal(1.0, 0.5)
    plan = plan_ap_precision(model, half_width=0.02, n_sim=2500, rng=11)
    assert plan.n_pos > 1000
    sigma2 = plan.asymptotic_n_pos * plan.half_width**2 / Z95**2  # n₊·Var(AP̂), asymptotic
    for point in plan.curve:
        if point.n_pos >= 800:
            expected = Z95 * np.sqrt(sigma2 / point.n_pos)
            assert abs(point.half_width - expected) < 3 * point.half_width_se
    assert abs(plan.n_pos_exact - plan.asymptotic_n_pos) < 3 * plan.n_pos_se


def test_binomial_plan_matches_boyds_closed_form():
    model = _binormal(1.5, 0.05)
    plan = plan_ap_precision(model, half_width=0.05, method="binomial", n_sim=1000, rng=2)
    theta = model.auc_pr()
    closed = Z95**2 * theta * (1 - theta) / 0.05**2  # ≈ 342.5
    assert plan.asymptotic_n_pos == pytest.approx(closed, rel=1e-12)
    assert plan.average_precision == pytest.approx(theta)
    # E√(θ̂(1−θ̂)) differs from √(θ(1−θ)) by O(1/n₊) (bias and spread of θ̂): below 0.5 %
    assert abs(plan.n_pos_exact - closed) < 3 * plan.n_pos_se + 0.005 * closed
    assert plan.n_pos == int(np.ceil(plan.n_pos_exact))
    assert (plan.n_neg, plan.n) == (round(plan.n_pos * 19), plan.n_pos + round(plan.n_pos * 19))


def test_logit_plan_matches_its_closed_form():
    model = _binormal(1.0, 0.2)
    plan = plan_ap_precision(model, half_width=0.04, method="logit", n_sim=1000, rng=4)
    theta = model.auc_pr()
    n = plan.asymptotic_n_pos
    c = Z95 / np.sqrt(n * theta * (1 - theta))
    half = (special.expit(special.logit(theta) + c) - special.expit(special.logit(theta) - c)) / 2
    assert half == pytest.approx(0.04, rel=1e-9)
    assert abs(plan.n_pos_exact - n) < 3 * plan.n_pos_se + 0.005 * n


def test_planned_size_reproduces_under_a_fresh_simulation():
    """A new simulation at the planned n₊ meets the target within the stated MC errors."""
    model = _binormal(1.5, 0.05)
    plan = plan_ap_precision(model, half_width=0.05, n_sim=1500, rng=0)
    assert isinstance(plan, APPrecisionPlan) and all(isinstance(p, APHalfWidth) for p in plan.curve)
    assert [p.n_pos for p in plan.curve] == sorted({p.n_pos for p in plan.curve})
    assert plan.predicted_half_width <= 0.05 + 3 * plan.predicted_half_width_se
    again = ap_half_width(model, plan.n_pos, n_sim=3000, rng=99)
    combined = np.hypot(again.half_width_se, plan.predicted_half_width_se)
    assert abs(again.half_width - plan.predicted_half_width) < 3 * combined
    assert abs(again.half_width - 0.05) < 3 * combined + 0.05 * plan.n_pos_se / plan.n_pos


def test_plan_from_a_binormal_fit_to_pilot_data():
    truth = _binormal(1.5, 0.1)
    y, s = truth.sample(3000, rng=5)
    fit = fit_binormal(y, s)
    plan = plan_ap_precision(fit, half_width=0.06, n_sim=400, rng=1)
    reference = plan_ap_precision(truth, half_width=0.06, n_sim=400, rng=1)
    # the fit is close to the truth, so the plans are (sampling error of the pilot fit included)
    assert plan.n_pos == pytest.approx(reference.n_pos, rel=0.2)
    assert plan.prevalence == pytest.approx(y.mean())


def test_seeded_plans_repeat():
    model = _binormal(1.0, 0.3)
    a = plan_ap_precision(model, half_width=0.08, n_sim=200, rng=5)
    b = plan_ap_precision(model, half_width=0.08, n_sim=200, rng=np.random.default_rng(5))
    assert a.n_pos == b.n_pos and a.n_pos_exact == b.n_pos_exact


def test_discrete_model_has_no_asymptotic_answer_but_plans():
    model = PopulationModel(stats.binom(6, 0.4), stats.binom(6, 0.6), prevalence=0.25)
    plan = plan_ap_precision(model, half_width=0.1, n_sim=300, rng=0)
    assert plan.asymptotic_n_pos is None and plan.n_pos > 5


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"model": "normal"}, TypeError, r"model: expected a PopulationModel, got str"),
        ({"half_width": 0.0}, ValueError, r"half_width: expected a number in \(0, 1\), got 0.0"),
        ({"half_width": 1e-4}, ValueError, r"half_width: about .* positives would be needed"),
        ({"half_width": 0.9}, ValueError, r"half_width: 5 positives already give"),
        ({"method": "wald"}, ValueError, r"method: expected one of 'sampling', .* got 'wald'"),
        ({"level": 1.0}, ValueError, r"level: expected a number in \(0, 1\), got 1.0"),
        ({"n_sim": 5}, ValueError, r"n_sim: expected an integer >= 10, got 5"),
        ({"rng": "seed"}, TypeError, r"rng: expected None, an int seed"),
    ],
)
def test_plan_errors_name_the_parameter(kwargs, error, match):
    # a fixed stream: with n_sim = 200 and rng=0 the plan's simulated half-widths decrease
    # with n₊, so each case reaches the check it names (unseeded, a half_width of 0.9 could
    # first fail the "does not decrease" check of 20 noisy studies)
    args = {"model": _binormal(), "half_width": 0.05, "n_sim": 200, "rng": 0, **kwargs}
    with pytest.raises(error, match=match):
        plan_ap_precision(args.pop("model"), **args)


def test_half_width_errors():
    with pytest.raises(ValueError, match=r"n_pos: expected an integer >= 2, got 1"):
        ap_half_width(_binormal(), 1)
    with pytest.raises(TypeError, match=r"n_pos: expected an integer, got float 10.5"):
        ap_half_width(_binormal(), 10.5)


def test_separated_classes_need_no_sample():
    model = PopulationModel(stats.uniform(0, 1), stats.uniform(2, 1), prevalence=0.3)
    with pytest.raises(ValueError, match=r"model: the simulated AP does not vary"):
        plan_ap_precision(model, half_width=0.05, n_sim=20, rng=0)
