"""Cases A, A*, B-F against the statements of Hughes-Oliver section 2.3."""

import numpy as np
import pytest
from scipy import stats

from prcurve import PopulationModel, cases

PREVALENCES = [0.5, 1 / 11]


def sign_changes(values):
    d = np.sign(np.diff(values))
    d = d[d != 0]
    return int(np.sum(d[1:] != d[:-1]))


def test_registry_and_types():
    assert sorted(cases.CASES) == ["A", "A_star", "B", "C", "D", "E", "F"]
    for name, make in cases.CASES.items():
        m = make(0.2)
        assert isinstance(m, PopulationModel) and m.prevalence == 0.2, name
    assert cases.A().prevalence == 0.5


def test_score_laws_as_defined():
    t = np.linspace(-3, 7.9, 200)
    a, b = cases.A(), cases.B()
    assert np.allclose(a.negative.cdf(t), stats.norm.cdf(t))
    assert np.allclose(a.positive.cdf(t), stats.norm.cdf(t - 1.4))
    # Case B: F₊(t) = Φ((μ₊ − log(8 − t))/σ₊), M₊ = 8
    assert np.allclose(b.positive.cdf(t), stats.norm.cdf(1.4 - np.log(8 - t)), atol=1e-14)
    assert b.supports[1] == (-np.inf, 8.0)
    w = 8 - b.positive.rvs(size=20_000, random_state=1)
    assert stats.kstest(np.log(w), stats.norm(1.4, 1).cdf).pvalue > 1e-3
    u = np.linspace(0.01, 0.99, 50)
    assert np.allclose(cases.C().negative.cdf(u), stats.beta.cdf(u, 2, 5))
    assert np.allclose(cases.C().positive.cdf(u), stats.beta.cdf(u, 5, 2))
    assert cases.D().supports == ((0.0, 1.0), (0.5, 1.5))
    assert cases.E().supports == ((0.5, 1.5), (0.0, 1.0))
    neg_atoms, pos_atoms = cases.F().atoms()
    assert np.allclose(neg_atoms, [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7])
    assert np.allclose(pos_atoms, [0.2, 0.35, 0.5, 0.75, 0.9])
    assert np.allclose(cases.F().densities(pos_atoms)[1], 0.2)


@pytest.mark.parametrize("prevalence", PREVALENCES)
def test_case_a(prevalence):
    m = cases.A(prevalence)
    end = m.endpoints()
    assert end.roc_start == (0.0, 0.0) and end.roc_end == (1.0, 1.0)
    assert end.pr_start == (0.0, 1.0)
    assert end.pr_end == pytest.approx((1.0, prevalence))
    shape = m.shape()
    assert shape.roc_concave and not shape.roc_convex
    assert shape.pr_nonincreasing
    # f₊/f₋ = exp(1.4 t − 0.98)
    x = np.array([0.1, 0.5, 0.9])
    t = stats.norm.isf(x, loc=1.4)
    assert np.allclose(1 / m.density_ratio(x), np.exp(1.4 * t - 0.98))
    # better than chance everywhere
    grid = np.linspace(0.01, 0.99, 99)
    assert np.all(m.roc(grid) > grid) and np.all(m.precision_at(grid) > prevalence)


@pytest.mark.parametrize("prevalence", PREVALENCES)
def test_case_a_star_identical_to_a_p7(prevalence):
    a, s = cases.A(prevalence), cases.A_star(prevalence)
    grid = np.linspace(0, 1, 201)
    assert np.allclose(a.roc(grid), s.roc(grid), atol=1e-12)
    assert np.allclose(a.precision_at(grid[1:]), s.precision_at(grid[1:]), atol=1e-12)
    # two quad runs, each to epsabs=1e-13, epsrel=1e-12 (PopulationModel): 1e-9 is 1000× that
    assert a.auc_pr() == pytest.approx(s.auc_pr(), abs=1e-9)
    assert a.auc_roc() == pytest.approx(s.auc_roc(), abs=1e-9)
    assert a.endpoints() == s.endpoints()


@pytest.mark.parametrize("prevalence", PREVALENCES)
def test_case_b(prevalence):
    m = cases.B(prevalence)
    end = m.endpoints()
    assert end.roc_start == (0.0, 0.0) and end.roc_end == (1.0, 1.0)
    assert end.pr_start == (0.0, 0.0)  # M₊ = 8 < ∞ = M₋ (P2c)
    assert end.pr_end == pytest.approx((1.0, prevalence))
    shape = m.shape()
    assert not shape.roc_concave and not shape.roc_convex
    assert not shape.pr_monotone
    # increasing, then decreasing, then increasing again
    x = np.linspace(1e-4, 1, 5000)
    p = m.precision_at(x)
    assert sign_changes(p) == 2 and p[1] > p[0] and p[-1] > p[-2]


def test_cases_a_and_b_roc_cross_near_fpr_one_fifth():
    a, b = cases.A(), cases.B()
    assert b.roc(0.1) > a.roc(0.1) and b.roc(0.3) < a.roc(0.3)
    grid = np.linspace(0.05, 0.5, 451)
    cross = grid[np.flatnonzero(np.diff(np.sign(b.roc(grid) - a.roc(grid))))[0]]
    assert 0.15 < cross < 0.3
    # worse than random for very small thresholds (t < −1)
    t = np.array([-1.5, -2.0])
    assert np.all(b.tpr_at(t) < b.fpr_at(t))


@pytest.mark.parametrize("prevalence", PREVALENCES)
def test_case_c(prevalence):
    m = cases.C(prevalence)
    end = m.endpoints()
    assert end.roc_start == (0.0, 0.0) and end.roc_end == (1.0, 1.0)
    assert end.pr_start == (0.0, 1.0)
    assert end.pr_end == pytest.approx((1.0, prevalence))
    shape = m.shape()
    assert shape.roc_concave and shape.pr_nonincreasing
    x = np.array([0.2, 0.5, 0.8])
    t = stats.beta.isf(x, 5, 2)
    assert np.allclose(1 / m.density_ratio(x), (t / (1 - t)) ** 3)
    # section 3.2: 1 − F₋(F₊⁻¹(1 − x)) <= 0.0061 for x <= 0.5
    xs = np.linspace(0.01, 0.5, 50)
    alpha = xs * (1 - m.precision_at(xs)) * prevalence / (m.precision_at(xs) * (1 - prevalence))
    assert np.all(alpha <= 0.0061)


@pytest.mark.parametrize(("prevalence", "pr_end"), [(0.5, 2 / 3), (1 / 11, 1 / 6)])
def test_case_d(prevalence, pr_end):
    m = cases.D(prevalence)
    end = m.endpoints()
    assert end.roc_start == (0.0, 0.5)
    assert end.roc_end == (1.0, 1.0)
    assert end.pr_start == (0.0, 1.0)
    assert end.pr_end == pytest.approx((1.0, pr_end))
    assert end.pr_end[1] == pytest.approx(2 * prevalence / (prevalence + 1))
    assert m.precision_at(1.0) == pytest.approx(pr_end)
    shape = m.shape()
    assert shape.roc_concave and shape.pr_nonincreasing
    assert np.allclose(m.roc([0.0, 0.2, 0.5, 0.8]), [0.5, 0.7, 1.0, 1.0])


@pytest.mark.parametrize("prevalence", PREVALENCES)
def test_case_e(prevalence):
    m = cases.E(prevalence)
    end = m.endpoints()
    assert end.roc_start == (0.0, 0.0) and end.roc_end == (1.0, 0.5)
    assert end.pr_start == (0.0, 0.0)
    assert end.pr_end == pytest.approx((1.0, prevalence))
    shape = m.shape()
    assert shape.roc_convex and not shape.roc_concave
    assert shape.pr_nondecreasing and not shape.pr_nonincreasing
    grid = np.linspace(0.01, 0.99, 99)
    assert np.all(m.roc(grid) <= grid)  # below the chance curve


@pytest.mark.parametrize(("prevalence", "pr_end"), [(0.5, 0.625), (1 / 11, 0.143)])
def test_case_f(prevalence, pr_end):
    m = cases.F(prevalence)
    end = m.endpoints()
    assert end.roc_start == pytest.approx((0.0, 0.4))
    assert end.roc_end == (1.0, 1.0)
    assert end.pr_start == (0.0, 1.0)
    assert end.pr_end[1] == pytest.approx(pr_end, abs=5e-4)
    assert end.pr_end[1] == pytest.approx(prevalence / (prevalence + (1 - prevalence) * 0.6))
    shape = m.shape()
    assert not shape.roc_concave and not shape.roc_convex and not shape.pr_monotone
    # jumps at x = 0.4, 0.6, 0.8 (section 3.2): the left limit exceeds the value; the pieces
    # between jumps increase; no jump at 0.2 (no negative above 0.75 nor 0.9)
    for xj in (0.4, 0.6, 0.8):
        left, at, right = m.precision_at([xj - 1e-6, xj, xj + 1e-6])
        assert left > at + 0.01 and right >= at
    assert np.allclose(m.precision_at([0.1, 0.2, 0.3, 0.39]), 1.0)
    # value at the jump x = 0.4 (t = 0.5, α = P(S₋ > 0.5) = 0.2)
    assert m.precision_at(0.4) == pytest.approx(
        prevalence * 0.4 / (prevalence * 0.4 + 0.2 * (1 - prevalence))
    )


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_roc_independent_of_prevalence(name):
    grid = np.linspace(0, 1, 51)
    a, b = cases.CASES[name](0.5), cases.CASES[name](1 / 11)
    assert np.array_equal(a.roc(grid), b.roc(grid))
    assert a.auc_roc() == b.auc_roc()


@pytest.mark.parametrize("name", sorted(cases.CASES))
@pytest.mark.parametrize("prevalence", PREVALENCES)
def test_p1_p2a_limits_from_the_supports(name, prevalence):
    m = cases.CASES[name](prevalence)
    (lo_n, hi_n), (lo_p, hi_p) = m.supports
    end = m.endpoints()
    assert end.roc_start[1] == pytest.approx(1 - m.positive.cdf(hi_n), abs=1e-12)  # P1a
    assert end.roc_end[1] == pytest.approx(1 - m.positive.cdf(lo_n), abs=1e-12)  # P1b
    pi = prevalence
    expected_end = pi / (pi + (1 - pi) * (1 - m.negative.cdf(lo_p)))  # P2a
    assert end.pr_end[1] == pytest.approx(expected_end, abs=1e-12)
    # the PR curve approaches its end point (the ROC start is approached very slowly for B, C)
    assert m.precision_at(1 - 1e-9) == pytest.approx(end.pr_end[1], abs=1e-3)
    if hi_p < hi_n:  # P2c
        assert end.pr_start == (0.0, 0.0)


@pytest.mark.parametrize("name", sorted(cases.CASES))
def test_p3_implications(name):
    m = cases.CASES[name](1 / 11)
    shape = m.shape()
    (_, hi_n), (_, hi_p) = m.supports
    if shape.roc_concave and hi_p >= hi_n:  # P3a
        assert shape.pr_nonincreasing
    if shape.roc_convex and hi_p < hi_n:  # P3b (the tail condition holds for Case E)
        assert shape.pr_nondecreasing
