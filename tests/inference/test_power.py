"""Power of the paired AP test (issue 27 item 4), checked against independent simulations."""

import numpy as np
import pytest
from scipy import special, stats

from prcurve import APPowerPlan, PopulationModel, ap_half_width, plan_ap_power


def _binormal(shift, prevalence=0.2):
    return PopulationModel(stats.norm(0, 1), stats.norm(shift, 1), prevalence=prevalence)


def test_size_under_the_null_is_alpha_within_monte_carlo_error():
    a = _binormal(1.5)
    plan = plan_ap_power(a, a, n_pos=300, correlation=0.5, n_sim=2000, rng=0)
    assert isinstance(plan, APPowerPlan) and plan.difference == 0.0
    assert abs(plan.power[0] - 0.05) < 3 * np.sqrt(0.05 * 0.95 / 2000)
    # the test's standard error estimates the spread of the paired difference (se of an SD
    # over 2000 studies is about 1.6 %)
    assert plan.mean_standard_error[0] == pytest.approx(plan.sd_difference[0], rel=0.06)


def test_independent_scorers_match_the_separate_spreads_and_normal_power():
    """ρ = 0: Var(AP̂_A − AP̂_B) = Var(AP̂_A) + Var(AP̂_B), each from its own simulation, and the
    power is the normal approximation's with that spread."""
    a, b = _binormal(1.5), _binormal(1.1)
    plan = plan_ap_power(a, b, n_pos=[150], n_sim=2000, rng=1)
    sd_a = ap_half_width(a, 150, n_sim=3000, rng=2).sd_ap
    sd_b = ap_half_width(b, 150, n_sim=3000, rng=3).sd_ap
    sd = np.hypot(sd_a, sd_b)
    assert plan.sd_difference[0] == pytest.approx(sd, rel=0.06)
    assert plan.difference == pytest.approx(a.auc_pr() - b.auc_pr())
    assert plan.mean_difference[0] == pytest.approx(plan.difference, abs=4 * sd / np.sqrt(2000))
    z = special.ndtri(0.975)
    normal = stats.norm.cdf(plan.difference / sd - z) + stats.norm.cdf(-plan.difference / sd - z)
    # normal power with the spread known to ~3 %: power moves by < 0.03 for that
    assert abs(plan.power[0] - normal) < 3 * plan.power_se[0] + 0.03


def test_correlation_raises_power_and_power_grows_with_n():
    a = _binormal(1.5)
    low = plan_ap_power(a, difference=0.06, n_pos=[60, 240], correlation=0.0, n_sim=400, rng=4)
    high = plan_ap_power(a, difference=0.06, n_pos=[60, 240], correlation=0.8, n_sim=400, rng=4)
    assert (np.diff(low.power) > 0).all() and (np.diff(high.power) > 0).all()
    assert (high.power > low.power + 2 * np.hypot(high.power_se, low.power_se)).all()
    assert (high.sd_difference < low.sd_difference).all()


def test_difference_shifts_the_positives_to_the_target_ap():
    a = _binormal(1.5, 0.1)
    plan = plan_ap_power(a, difference=0.08, n_pos=20, n_sim=10, rng=0)
    assert plan.difference == pytest.approx(0.08, abs=1e-8)
    # the binormal B with that AP: its positive mean solved independently
    from scipy import optimize

    shift = optimize.brentq(lambda m: _binormal(m, 0.1).auc_pr() - (a.auc_pr() - 0.08), 0, 1.5)
    assert _binormal(shift, 0.1).auc_pr() == pytest.approx(a.auc_pr() - plan.difference)


def test_power_intervals_and_standard_errors():
    a = _binormal(1.5)
    plan = plan_ap_power(a, difference=0.05, n_pos=[80, 160], n_sim=50, rng=6)
    for p, se, ci in zip(plan.power, plan.power_se, plan.power_intervals, strict=True):
        k = round(p * 50)
        assert se == pytest.approx(np.sqrt(p * (1 - p) / 50))
        lo = stats.beta.ppf(0.025, k, 50 - k + 1) if k > 0 else 0.0
        hi = stats.beta.ppf(0.975, k + 1, 50 - k) if k < 50 else 1.0
        assert (ci.low, ci.high) == pytest.approx((lo, hi))
    assert plan.n_neg.tolist() == [320, 640]


def test_copula_correlation_shrinks_the_paired_standard_error():
    """Identical laws, scores joined with correlation ρ: each instance's influence values are
    monotone functions of (Z_A, Z_B), whose correlation is at most ρ (Hermite expansion) and
    close to it for near-linear functions, so SE(ρ)/SE(0) lies just above √(1 − ρ)."""
    a = _binormal(1.0, 0.5)
    paired = plan_ap_power(a, a, n_pos=3000, correlation=0.6, n_sim=10, rng=3)
    indep = plan_ap_power(a, a, n_pos=3000, correlation=0.0, n_sim=10, rng=3)
    ratio = paired.mean_standard_error[0] / indep.mean_standard_error[0]
    assert np.sqrt(1 - 0.6) * 0.97 < ratio < np.sqrt(1 - 0.6) * 1.15


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((), {"n_pos": 10}, TypeError, r"plan_ap_power: expected either model_b or difference="),
        (
            (0,),
            {"difference": 0.1, "n_pos": 10},
            TypeError,
            r"plan_ap_power: expected either .* both",
        ),
        (("b",), {"n_pos": 10}, TypeError, r"model_b: expected a PopulationModel, got str"),
        ((_binormal(1, 0.3),), {"n_pos": 10}, ValueError, r"model_b: expected the prevalence"),
        ((), {"difference": 0.9, "n_pos": 10}, ValueError, r"difference: the second scorer's AP"),
        ((None,), {"n_pos": 1}, ValueError, r"n_pos: expected an integer >= 2, got 1"),
        ((None,), {"n_pos": []}, ValueError, r"n_pos: expected one or more numbers of positives"),
        (
            (None,),
            {"n_pos": 10, "correlation": 1.0},
            ValueError,
            r"correlation: expected a number in \(-1, 1\), got 1.0",
        ),
        (
            (None,),
            {"n_pos": 10, "alpha": 0},
            ValueError,
            r"alpha: expected a number in \(0, 1\), got 0",
        ),
        (
            (None,),
            {"n_pos": 10, "n_sim": 3},
            ValueError,
            r"n_sim: expected an integer >= 10, got 3",
        ),
    ],
)
def test_power_errors_name_the_parameter(args, kwargs, error, match):
    a = _binormal(1.5)
    args = tuple(a if x is None else (a if x == 0 else x) for x in args)
    with pytest.raises(error, match=match):
        plan_ap_power(a, *args, **kwargs)


def test_discrete_laws_are_refused():
    d = PopulationModel(stats.binom(6, 0.4), stats.binom(6, 0.6), prevalence=0.25)
    with pytest.raises(ValueError, match=r"model_a: expected continuous score laws"):
        plan_ap_power(d, d, n_pos=10)
    with pytest.raises(
        ValueError, match=r"difference: needs a positives' law that is a continuous"
    ):
        plan_ap_power(d, difference=0.05, n_pos=10)
