"""PopulationModel: curves against closed forms, brute force and the properties P1-P7."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats

from prcurve import PopulationModel, asymptotic_variance, cases, pr_curve

MU = 1.4


def binormal(prevalence=0.5, mu=MU, sd_pos=1.0):
    return PopulationModel(stats.norm(0, 1), stats.norm(mu, sd_pos), prevalence)


def discrete(values, probs=None):
    values = np.asarray(values, dtype=float)
    probs = np.full(values.size, 1 / values.size) if probs is None else np.asarray(probs)
    return stats.rv_discrete(values=(values, probs))


def brute_eq5(neg_vals, neg_p, pos_vals, pos_p, prevalence, x):
    """Eq. (5) by brute force over the atoms: F₊⁻¹(1−x) by its definition."""
    neg_vals, pos_vals = np.asarray(neg_vals), np.asarray(pos_vals)
    cdf_pos = np.cumsum(pos_p)
    out = []
    for xi in x:
        t = pos_vals[np.argmax(cdf_pos >= 1 - xi - 1e-12)] if xi < 1 else pos_vals.min()
        alpha = np.sum(np.asarray(neg_p)[neg_vals > t])
        out.append(prevalence * xi / (prevalence * xi + (1 - prevalence) * alpha))
    return np.array(out)


# ---------------------------------------------------------------- closed forms (binormal)
def test_binormal_roc_closed_form():
    x = np.linspace(0, 1, 101)[1:-1]
    assert np.allclose(binormal().roc(x), stats.norm.cdf(MU + stats.norm.ppf(x)), atol=1e-12)


@pytest.mark.parametrize("prevalence", [0.5, 1 / 11, 0.01])
def test_binormal_precision_closed_form(prevalence):
    x = np.linspace(0.01, 0.99, 50)
    t = MU + stats.norm.isf(x)
    alpha = stats.norm.sf(t)
    expected = prevalence * x / (prevalence * x + (1 - prevalence) * alpha)
    got = binormal(prevalence).precision_at(x)
    assert np.allclose(got, expected, rtol=1e-12)


def test_binormal_auc_roc_closed_form():
    # PopulationModel quadrature targets epsabs=1e-13, epsrel=1e-12 (quad): 1e-10 is 100× that
    assert binormal().auc_roc() == pytest.approx(stats.norm.cdf(MU / np.sqrt(2)), abs=1e-10)
    unequal = binormal(mu=1.0, sd_pos=2.0)
    assert unequal.auc_roc() == pytest.approx(stats.norm.cdf(1.0 / np.sqrt(5)), abs=1e-10)


@pytest.mark.parametrize("prevalence", [0.5, 1 / 11])
def test_auc_pr_against_dense_midpoint_rule(prevalence):
    m = binormal(prevalence)
    grid = (np.arange(200_000) + 0.5) / 200_000
    # quad ~1e-12; the midpoint rule is O(h²) on the smooth curve, but the binormal PR curve
    # has an unbounded slope at x -> 0, which costs O(h) = 5e-6 at most (1.5e-9 measured)
    assert m.auc_pr() == pytest.approx(m.precision_at(grid).mean(), abs=1e-6)


def test_auc_pr_is_population_average_precision():
    # empirical average precision of a huge sample converges to the population area
    m = binormal(0.2)
    y, s = m.sample(400_000, rng=3)
    # n₊ ≈ 80 000: binomial SE of AP √(θ(1−θ)/n₊) <= 0.0018 (an upper bound for AP); z ≈ 2.2
    assert pr_curve(y, s).auc() == pytest.approx(m.auc_pr(), abs=4e-3)


def test_density_ratio_binormal():
    x = np.array([0.1, 0.5, 0.9])
    t = MU + stats.norm.isf(x)
    assert np.allclose(binormal().density_ratio(x), np.exp(-MU * t + MU**2 / 2))


# ---------------------------------------------------------------- discrete laws
NEG = ([0.0, 1.0, 2.0, 3.0], [0.4, 0.3, 0.2, 0.1])
POS = ([1.0, 2.0, 4.0], [0.25, 0.25, 0.5])


@pytest.mark.parametrize("prevalence", [0.5, 0.2])
def test_discrete_precision_against_brute_force(prevalence):
    m = PopulationModel(discrete(*NEG), discrete(*POS), prevalence)
    x = np.concatenate([np.linspace(0.01, 1, 100), [0.25, 0.5, 0.75, 1.0]])
    assert np.allclose(m.precision_at(x), brute_eq5(*NEG, *POS, prevalence, x), atol=1e-12)


def test_discrete_auc_pr_against_dense_grid():
    m = PopulationModel(discrete(*NEG), discrete(*POS), 0.3)
    grid = (np.arange(400_000) + 0.5) / 400_000
    # the curve is closed form per piece; the midpoint rule errs O(h) at each of its 3 jumps
    assert m.auc_pr() == pytest.approx(m.precision_at(grid).mean(), abs=1e-5)


def test_discrete_auc_roc_against_pairs():
    m = PopulationModel(discrete(*NEG), discrete(*POS), 0.3)
    nv, npb = np.array(NEG[0]), np.array(NEG[1])
    pv, ppb = np.array(POS[0]), np.array(POS[1])
    w = ppb[:, None] * npb[None, :]
    expected = np.sum(w * (pv[:, None] > nv[None, :])) + 0.5 * np.sum(w * (pv[:, None] == nv))
    assert m.auc_roc() == pytest.approx(expected, abs=1e-12)
    # the limit of the empirical (trapezoid) ROC AUC
    y, s = m.sample(200_000, rng=0)
    from prcurve import roc_curve

    # n₊ = 60 000, n₋ = 140 000: SE of the AUC <= √(1/(4·min(n₊, n₋))) ≈ 0.002 (Birnbaum–Klose
    # bound); z = 2.5
    assert roc_curve(y, s).auc() == pytest.approx(expected, abs=5e-3)


def test_integer_discrete_law_without_values():
    m = PopulationModel(stats.binom(10, 0.3), stats.binom(10, 0.6), 0.5)
    neg_v = np.arange(11)
    x = np.linspace(0.05, 1, 20)
    expected = brute_eq5(neg_v, stats.binom.pmf(neg_v, 10, 0.3), neg_v,
                         stats.binom.pmf(neg_v, 10, 0.6), 0.5, x)  # fmt: skip
    assert np.allclose(m.precision_at(x), expected, atol=1e-9)
    assert np.array_equal(m.atoms()[0], neg_v)


# ---------------------------------------------------------------- by threshold
def test_threshold_rules_for_atoms():
    m = cases.F(0.5)
    assert m.fpr_at(0.5) == pytest.approx(0.3)  # 0.5, 0.6, 0.7
    assert m.fpr_at(0.5, rule="gt") == pytest.approx(0.2)
    assert m.tpr_at(0.5) == pytest.approx(0.6)
    assert m.tpr_at(0.5, rule="gt") == pytest.approx(0.4)
    assert m.precision_at_threshold(0.5) == pytest.approx(0.6 / 0.9)
    # continuous laws: both rules agree
    a = cases.A(0.5)
    t = np.linspace(-3, 5, 9)
    assert np.array_equal(a.tpr_at(t), a.tpr_at(t, rule="gt"))


def test_precision_at_threshold_formula():
    m = binormal(0.2)
    t = np.linspace(-2, 4, 13)
    tpr, fpr = stats.norm.sf(t - MU), stats.norm.sf(t)
    assert np.allclose(m.precision_at_threshold(t), 0.2 * tpr / (0.2 * tpr + 0.8 * fpr))


def test_precision_undefined_above_supports():
    with pytest.raises(ValueError, match=r"threshold: precision is undefined .* t=2\.0"):
        cases.D(0.5).precision_at_threshold([0.7, 2.0])


def test_operating_points_trace_the_pr_curve():
    m = cases.C(0.3)
    pts = m.operating_points(num=101)
    assert np.all(np.diff(pts.thresholds) < 0)
    inner = (pts.recall > 0) & (pts.recall < 1)
    assert np.allclose(m.precision_at(pts.recall[inner]), pts.precision[inner], atol=1e-9)
    assert np.array_equal(pts.recall, pts.tpr)


def test_perfect_separation_p5():
    neg, pos = stats.uniform(0, 1), stats.uniform(2, 1)
    m = PopulationModel(neg, pos, 0.3)
    assert m.separation == "perfect"
    assert np.allclose(m.roc([0, 0.3, 1]), 1.0)
    assert np.allclose(m.precision_at([0.1, 0.9, 1.0]), 1.0)
    t = np.array([2.5, 1.5, 0.5, 0.2])  # M₊>t>m₊, m₊>=t>M₋, M₋>=t>m₋ (twice)
    pts = m.operating_points(t, rule="gt")
    assert np.allclose(pts.fpr, [0, 0, 1 - neg.cdf(0.5), 1 - neg.cdf(0.2)])
    assert np.allclose(pts.tpr, [1 - pos.cdf(2.5), 1, 1, 1])
    expected_prec = [1, 1, 0.3 / (0.3 + 0.7 * neg.sf(0.5)), 0.3 / (0.3 + 0.7 * neg.sf(0.2))]
    assert np.allclose(pts.precision, expected_prec)


def test_reverse_separation_p6_is_the_lower_bound():
    m = PopulationModel(stats.uniform(2, 1), stats.uniform(0, 1), 0.3)
    assert m.separation == "reverse"
    x = np.linspace(0.05, 1, 20)
    assert np.allclose(m.precision_at(x), 0.3 * x / (0.3 * x + 0.7))
    assert np.allclose(m.precision_at(x), m.lower_bound(x))
    assert np.allclose(m.roc([0.1, 0.5, 0.99]), 0.0)
    assert m.endpoints().roc_end == (1.0, 0.0)


@pytest.mark.parametrize(
    "law", [stats.norm(0, 1), stats.beta(2, 3), discrete([0, 1, 2], [0.2, 0.5, 0.3])]
)
def test_chance_curves_p4(law):
    m = PopulationModel(law, law, 0.25)
    x = np.linspace(0.01, 0.99, 99)
    assert np.all(m.roc(x) <= x + 1e-12)
    assert np.all(m.precision_at(x) >= m.chance_precision - 1e-12)
    assert m.auc_roc() == pytest.approx(0.5, abs=1e-9)  # quad target 1e-12 (or exact sums)
    if not m.is_discrete:
        assert np.allclose(m.roc(x), x) and np.allclose(m.precision_at(x), 0.25)


@settings(max_examples=25, deadline=None)
@given(shift=st.floats(-5, 5), scale=st.floats(0.1, 10), prevalence=st.floats(0.01, 0.99))
def test_invariance_to_increasing_transformation_p7(shift, scale, prevalence):
    base = PopulationModel(stats.norm(0, 1), stats.norm(0.8, 1.5), prevalence)
    moved = PopulationModel(
        stats.norm(shift, scale), stats.norm(shift + 0.8 * scale, 1.5 * scale), prevalence
    )
    x = np.linspace(0.02, 1, 25)
    assert np.allclose(base.precision_at(x), moved.precision_at(x), atol=1e-9)
    assert np.allclose(base.roc(x), moved.roc(x), atol=1e-9)


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(sorted(cases.CASES)),
    prevalence=st.floats(0.01, 0.99),
    x=st.floats(1e-6, 1.0),
)
def test_lower_bound_and_roc_monotone_all_cases(name, prevalence, x):
    m = cases.CASES[name](prevalence)
    assert m.precision_at(x) >= m.lower_bound(x) - 1e-12
    assert m.roc(min(x + 0.01, 1.0)) >= m.roc(x) - 1e-12  # P1: nondecreasing


# ---------------------------------------------------------------- end points
def test_endpoints_density_ratio_limits():
    # equal variances: f₋/f₊ -> 0 at +inf, the PR curve starts at 1
    assert binormal().endpoints().pr_start == (0.0, 1.0)
    # wider negatives: f₋/f₊ -> inf, the PR curve starts at 0 (P2b with k = inf)
    wide = PopulationModel(stats.norm(0, 2), stats.norm(1, 1), 0.5)
    end = wide.endpoints()
    assert end.k == np.inf and end.pr_start == (0.0, 0.0)
    # equal shapes shifted down: f₋/f₊ constant = exp(...)? use same law: k = 1 -> π₊
    same = PopulationModel(stats.expon(), stats.expon(), 0.3)
    assert same.endpoints().pr_start[1] == pytest.approx(0.3)


# ---------------------------------------------------------------- sampling
def test_sample_is_seeded_and_follows_the_laws():
    m = binormal(0.3)
    y1, s1 = m.sample(20_000, rng=5)
    y2, s2 = m.sample(20_000, rng=np.random.default_rng(5))
    assert np.array_equal(y1, y2) and np.array_equal(s1, s2)
    assert y1.dtype == bool and s1.dtype == np.float64
    assert abs(y1.mean() - 0.3) < 0.015  # binomial SE √(0.21/20 000) = 0.0032: z = 4.6
    # exact p-values of a true null: each fails with probability 1e-3 for a fresh seed
    assert stats.kstest(s1[y1], stats.norm(MU, 1).cdf).pvalue > 1e-3
    assert stats.kstest(s1[~y1], stats.norm(0, 1).cdf).pvalue > 1e-3


@pytest.mark.parametrize("name", ["A", "B", "C", "D", "E"])
def test_empirical_curve_converges_to_population(name):
    m = cases.CASES[name](0.3)
    y, s = m.sample(300_000, rng=11)
    x = np.linspace(0.1, 0.9, 17)
    # PR̂(x) ≈ N(PR(x), σ²(x)/n) (Theorem 1; σ up to 0.0104 here for Case B, 0 where Case D is
    # flat): z = 4 at each of the 17 points, plus 1e-3 for the O(1/n₊) discreteness
    sd = np.sqrt(asymptotic_variance(m, x) / y.size)
    err = np.abs(pr_curve(y, s).precision_at(x) - m.precision_at(x))
    assert np.all(err <= 4 * sd + 1e-3), (err, sd)


def test_with_prevalence_changes_pr_not_roc():
    m = binormal(0.5)
    other = m.with_prevalence(0.1)
    assert other.prevalence == 0.1 and m.prevalence == 0.5
    x = np.array([0.2, 0.7])
    assert np.array_equal(m.roc(x), other.roc(x))
    assert np.all(other.precision_at(x) < m.precision_at(x))


def test_subclass_with_defaults():
    @dataclasses.dataclass(frozen=True)
    class Fitted(PopulationModel):
        note: str = "fit"
        params: tuple = ()

    f = Fitted(stats.norm(0, 1), stats.norm(1, 1), 0.4, note="x")
    assert f.note == "x" and isinstance(f.with_prevalence(0.2), Fitted)
    with pytest.raises(ValueError, match="prevalence"):
        Fitted(stats.norm(0, 1), stats.norm(1, 1), 1.2)


def test_scalar_in_scalar_out():
    m = binormal()
    assert isinstance(m.precision_at(0.5), float) and isinstance(m.roc(0.5), float)
    assert m.precision_at([0.5]).shape == (1,)


# ---------------------------------------------------------------- errors
@pytest.mark.parametrize("bad", [0, 1, -0.1, 1.5, float("nan")])
def test_prevalence_out_of_range(bad):
    with pytest.raises(ValueError, match=r"prevalence: expected a number in \(0, 1\)"):
        binormal(bad)


def test_prevalence_not_a_number():
    with pytest.raises(TypeError, match="prevalence: expected a number, got str"):
        binormal("half")


@pytest.mark.parametrize(
    "bad", [[0.1, 0.2], stats.gamma, stats.multivariate_normal([0, 0]), np.random.default_rng()]
)
def test_not_a_distribution(bad):
    with pytest.raises(TypeError, match=r"negative: expected a frozen univariate scipy\.stats"):
        PopulationModel(bad, stats.norm(), 0.5)
    with pytest.raises(TypeError, match=r"positive: expected a frozen univariate scipy\.stats"):
        PopulationModel(stats.norm(), bad, 0.5)


def test_identical_point_masses():
    with pytest.raises(ValueError, match=r"both are a point mass at the same score 2\.0"):
        PopulationModel(discrete([2.0], [1.0]), discrete([2.0], [1.0]), 0.5)
    # different point masses are fine: perfect separation
    assert PopulationModel(discrete([1.0], [1.0]), discrete([2.0], [1.0]), 0.5).auc_pr() == 1.0


def test_invalid_parameters():
    with pytest.raises(ValueError, match="negative: the distribution has invalid parameters"):
        PopulationModel(stats.norm(0, -1), stats.norm(), 0.5)


@pytest.mark.parametrize("bad", [0.0, -0.5, 1.2, float("nan")])
def test_recall_out_of_range(bad):
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\]"):
        binormal().precision_at([0.5, bad])


def test_fpr_out_of_range():
    with pytest.raises(ValueError, match=r"fpr: expected values in \[0, 1\]"):
        binormal().roc(1.5)


def test_bad_threshold_and_rule():
    with pytest.raises(ValueError, match=r"threshold: expected numbers .*got NaN"):
        binormal().tpr_at([0.0, np.nan])
    with pytest.raises(TypeError, match="threshold: expected numbers, got"):
        binormal().fpr_at("high")
    with pytest.raises(ValueError, match="rule: expected one of 'ge', 'gt', got 'geq'"):
        binormal().fpr_at(0.0, rule="geq")


def test_density_ratio_errors():
    with pytest.raises(ValueError, match="density ratio f₋/f₊ needs continuous score laws"):
        cases.F(0.5).density_ratio(0.5)
    gap = PopulationModel(stats.norm(), stats.uniform(0, 1), 0.5)
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\)"):
        gap.density_ratio(1.0)


def test_sample_errors():
    with pytest.raises(ValueError, match="n: expected an integer >= 1, got 0"):
        binormal().sample(0)
    with pytest.raises(TypeError, match="rng: expected None, an int seed"):
        binormal().sample(5, rng="seed")


def test_mixed_discrete_negatives_continuous_positives():
    neg, pos = stats.binom(6, 0.3), stats.norm(3.5, 1.2)
    m = PopulationModel(neg, pos, 0.3)
    # P(S₊ > S₋) = E[F₋(S₊)] (no ties with a continuous law), on a dense score grid
    # midpoint rule on a grid whose nodes include the atoms 0..6 (F₋ is constant inside every
    # cell), so the error is the smooth O(h²) term: h²/24·∫|f₊''| ~ 1e-11 for h = 1e-5
    h = 1e-5
    mid = -6.0 + (np.arange(1_900_000) + 0.5) * h
    expected = np.sum(neg.cdf(mid) * pos.pdf(mid)) * h
    assert m.auc_roc() == pytest.approx(expected, abs=1e-9)
    # PR jumps down where F₊⁻¹(1 − x) crosses an atom of the negatives
    x_jump = pos.sf(4.0)
    left, right = m.precision_at([x_jump - 1e-7, x_jump + 1e-7])
    assert left > right + 0.01
    grid = (np.arange(100_000) + 0.5) / 100_000
    # quad per smooth piece (1e-12); the midpoint rule errs O(h) = 1e-5 × jump at each of the
    # 7 jumps, but the cells straddling them are split evenly on average (6.7e-9 measured)
    assert m.auc_pr() == pytest.approx(m.precision_at(grid).mean(), abs=1e-5)


def test_curves_stay_defined_deep_in_the_tails():
    """Recall far below 1e-15: discrete tails past scipy's isf, and NaN-prone continuous isf."""
    from prcurve import cases

    c = cases.C(0.5)
    np.testing.assert_allclose(c.precision_at([1e-200, 1e-5]), c.endpoints().pr_start[1])
    m = PopulationModel(negative=stats.poisson(2), positive=stats.poisson(5), prevalence=0.3)
    deep = m.precision_at([1e-300, 1e-50, 1e-20, 1e-12])
    assert np.isfinite(deep).all()
    np.testing.assert_allclose(deep, m.endpoints().pr_start[1], atol=1e-6)
    # and the generalized inverse still lands on atoms exactly at their tail probabilities
    k = np.arange(3, 12)
    x = stats.poisson(5).sf(k - 1)  # P(S >= k): recall at threshold k
    np.testing.assert_allclose(m.precision_at(x), m.precision_at_threshold(k), rtol=1e-9)


class _normal_without_isf_gen(stats.rv_continuous):
    """The standard normal law given by pdf, cdf and sf only: scipy's generic isf inverts
    cdf at 1 − x, which loses every digit of a small x (like scipy 1.10's lognorm.isf, which
    overflows to inf there)."""

    def _pdf(self, x):
        return stats.norm.pdf(x)

    def _logpdf(self, x):
        return stats.norm.logpdf(x)

    def _cdf(self, x):
        return stats.norm.cdf(x)

    def _sf(self, x):
        return stats.norm.sf(x)


def test_upper_tail_quantiles_do_not_rely_on_an_accurate_isf():
    law = _normal_without_isf_gen(name="normal_without_isf")
    generic = PopulationModel(law(0.0, 1.0), law(MU, 1.0), prevalence=0.3)
    exact = binormal(prevalence=0.3)  # the same laws with scipy's accurate norm.isf
    x = np.array([1e-3, 1e-9, 1e-12, 1e-20, 1e-100, 1e-300])
    # the generalized inverse by bisection on sf is exact to one ulp of the threshold, so
    # the curves agree to a few ulps times the slope of log sf (≤ 40 here)
    np.testing.assert_allclose(generic.precision_at(x), exact.precision_at(x), rtol=1e-12)
    np.testing.assert_allclose(generic.roc(x), exact.roc(x), rtol=1e-12, atol=1e-300)
    assert generic.endpoints() == exact.endpoints()  # P2b: k = 0, the curve starts at (0, 1)
