"""σ²(x) and the normal approximation for population models (Hughes-Oliver Theorem 1)."""

import numpy as np
import pytest
from scipy import stats

from prcurve import (
    NormalApproximation,
    PopulationModel,
    asymptotic_variance,
    cases,
    normal_approximation,
)
from prcurve._population._asymptotic import pr_asymptotic_variance


def sigma2_by_hand(x, prevalence, mu=1.4):
    """Corrected σ²(x) for the bi-normal model written out independently."""
    skew = (1 - prevalence) / prevalence
    t = mu + stats.norm.isf(x)
    alpha = stats.norm.sf(t)
    slope = stats.norm.pdf(t) / stats.norm.pdf(t - mu)
    pr = 1 / (1 + skew * alpha / x)
    terms = alpha**2 * (1 + skew) + slope**2 * x * (1 - x) * skew + alpha * (1 - alpha)
    return pr**4 / x**2 * skew * (1 + skew) * terms


@pytest.mark.parametrize("prevalence", [0.5, 0.2, 1 / 11])
def test_case_a_variance_by_hand(prevalence):
    x = np.array([0.1, 0.3, 0.5, 0.7, 0.9])
    got = asymptotic_variance(cases.A(prevalence), x)
    assert np.allclose(got, sigma2_by_hand(x, prevalence), rtol=1e-12)


def test_uses_the_shared_formula():
    m = cases.C(0.2)
    x = np.array([0.25, 0.75])
    expected = pr_asymptotic_variance(m.precision_at(x), x, m._alpha(x), m.density_ratio(x), m.skew)
    assert np.array_equal(asymptotic_variance(m, x), expected)


def test_variance_grows_with_skew():
    # true for small and middle recall; not at every x (at x = 0.8, skew 10 < skew 4)
    x = np.array([0.2, 0.5])
    v = [asymptotic_variance(cases.A(p), x) for p in (0.5, 0.2, 1 / 11)]
    assert np.all(v[0] < v[1]) and np.all(v[1] < v[2])


def test_case_d_degenerate_below_one_half():
    # F₋(F₊⁻¹(1 − x)) = 1 and f₋ = 0 for x < 0.5: Z(x) = 0
    m = cases.D(0.2)
    assert np.all(asymptotic_variance(m, [0.1, 0.3, 0.49]) == 0)
    assert np.all(asymptotic_variance(m, [0.6, 0.9]) > 0)
    approx = normal_approximation(m, [0.1, 0.6], n=500)
    assert approx.degenerate.tolist() == [True, False]
    dens = approx.density(np.linspace(0, 1, 5))
    assert np.all(dens[0] == 0) and np.all(np.isfinite(dens))


def test_scalar_in_scalar_out():
    assert isinstance(asymptotic_variance(cases.A(0.5), 0.5), float)


def test_normal_approximation():
    m = cases.A(1 / 11)
    x = np.array([0.2, 0.5])
    approx = normal_approximation(m, x, n=500)
    assert isinstance(approx, NormalApproximation) and approx.n == 500
    assert np.allclose(approx.mean, m.precision_at(x))
    assert np.allclose(approx.sd, np.sqrt(sigma2_by_hand(x, 1 / 11) / 500))
    grid = np.linspace(-3, 4, 20001)
    dens = approx.density(grid)
    assert dens.shape == (2, grid.size)
    assert np.allclose(dens.sum(axis=1) * (grid[1] - grid[0]), 1.0, atol=1e-6)
    lo, hi = approx.interval(0.9)
    z = stats.norm.isf(0.05)
    assert np.allclose(lo, np.clip(approx.mean - z * approx.sd, 0, 1))
    assert np.allclose(hi, np.clip(approx.mean + z * approx.sd, 0, 1))


def test_errors():
    with pytest.raises(ValueError, match="needs continuous score laws"):
        asymptotic_variance(cases.F(0.5), 0.5)
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\), got 1\.0"):
        asymptotic_variance(cases.A(0.5), [0.5, 1.0])
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\), got 0\.0"):
        normal_approximation(cases.A(0.5), [0.0], n=10)
    with pytest.raises(TypeError, match="model: expected a PopulationModel, got dict"):
        asymptotic_variance({}, 0.5)
    with pytest.raises(ValueError, match="n: expected an integer >= 1, got 0"):
        normal_approximation(cases.A(0.5), [0.5], n=0)
    with pytest.raises(ValueError, match=r"level: expected a number in \(0, 1\)"):
        normal_approximation(cases.A(0.5), [0.5], n=10).interval(1.5)
    gap = PopulationModel(stats.norm(0, 1), stats.expon(), 0.5)
    assert asymptotic_variance(gap, 0.5) > 0
