"""Fast Gaussian-kernel CDFs (the smoothed bootstrap's G̃, H̃) against brute-force sums.

The stated accuracy is 5.1e-18 (truncation, proved in the module docstring) plus floating-point
rounding: each Φ term carries a relative error of a few ulp, and the Horner pass adds about
TERMS ulp of the window's count, so the computed G̃ is within 1e-15 of the exactly rounded sum
(``math.fsum`` of ``ndtr``) for samples of up to ~10⁵ points; that is what is asserted.
"""

import math

import numpy as np
import pytest
from numpy.polynomial import hermite_e
from scipy.special import factorial, ndtr

from prcurve._inference._kernel import silverman_bandwidth, smoothed_precision
from prcurve._inference._kernel_cdf import TERMS, _derivatives, kernel_cdf

ACCURACY = 1e-15


def _brute(x: np.ndarray, z: np.ndarray, h: float) -> tuple[np.ndarray, np.ndarray]:
    cdf = np.array([math.fsum(ndtr((v - x) / h)) for v in z]) / x.shape[0]
    pdf = np.array([math.fsum(np.exp(-0.5 * ((v - x) / h) ** 2)) for v in z])
    return cdf, pdf / (x.shape[0] * h * np.sqrt(2 * np.pi))


SAMPLES = {
    "normal, Silverman h": (lambda g: g.normal(size=4000), None, True),
    "far from 0, wide h": (lambda g: 1e3 + g.normal(size=3000), 2.0, True),
    "heavy tails (t, 1 dof)": (lambda g: g.standard_t(1, size=3000), None, True),
    "rounded scores (ties)": (lambda g: np.round(g.normal(size=3000), 1), None, True),
    "tiny h (a cell per point)": (lambda g: g.normal(size=3000), 2e-5, True),
    # a span of more than 2**40 bandwidths: the direct form
    "two clusters 1e13 apart": (
        lambda g: g.normal(size=3000) + 1e13 * (g.random(3000) < 0.3),
        1.0,
        False,
    ),
}


@pytest.mark.parametrize("name", SAMPLES)
def test_kernel_cdf_equals_brute_force_sums(name):
    make, h, expanded = SAMPLES[name]
    gen = np.random.default_rng(11)
    x = make(gen)
    h = silverman_bandwidth(x) if h is None else h
    law = kernel_cdf(x, h)
    assert (law.coef is not None) == expanded
    z = np.r_[
        np.linspace(x.min() - 12 * h, x.max() + 12 * h, 1500),
        x[:300],
        x[:300] + 0.5 * h,
        (np.quantile(x, [0.001, 0.5, 0.999]) + gen.normal(size=(200, 3)) * h).ravel(),
    ]
    cdf, pdf = _brute(x, z, h)
    count, slope = law.counts(z)
    # the direct form adds a window's terms one by one: rounding ≤ (terms)·ulp of the mean
    tol = ACCURACY if expanded else x.shape[0] * np.finfo(np.float64).eps
    assert np.abs(law(z) - cdf).max() <= tol
    assert np.abs(count / x.shape[0] - cdf).max() <= tol
    # density (only steers Newton): truncation 1.5e-16/h per point, plus rounding
    assert np.abs(slope / x.shape[0] - pdf).max() <= 1e-14 / h


@pytest.mark.parametrize("name", SAMPLES)
def test_kernel_quantile_inverts_the_brute_force_cdf(name):
    make, h, expanded = SAMPLES[name]
    gen = np.random.default_rng(12)
    x = make(gen)
    h = silverman_bandwidth(x) if h is None else h
    u = np.r_[gen.random(300), 1e-9, 1e-4, 0.5, 1 - 1e-4, 1 - 1e-9]
    z = kernel_cdf(x, h).quantile(u)
    cdf, pdf = _brute(x, z, h)
    # |G̃(z) − u| ≤ the solver's tolerance 1e-14 + the CDF's accuracy; where G̃ is nearly flat
    # (a gap in the data, tiny h) the solver stops on a bracket of a few ulp of z instead
    miss = np.abs(cdf - u)
    flat = 8 * np.finfo(np.float64).eps * np.abs(z) * pdf
    tol = ACCURACY if expanded else x.shape[0] * np.finfo(np.float64).eps
    assert np.all(miss <= 1e-14 + tol + flat)


def test_derivatives_are_hermite_functions_within_cramers_bound():
    """Dₖ = Φ⁽ᵏ⁾ = (−1)ᵏ⁻¹ Heₖ₋₁ φ, and |D_TERMS| ≤ 0.4335·√((TERMS − 1)!) (the truncation
    bound's ingredient, Cramér's inequality)."""
    a = np.linspace(-12, 12, 2001)
    d = _derivatives(a)
    phi = np.exp(-a * a / 2) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(d[0], ndtr(a), rtol=1e-15)
    for k in range(1, TERMS):
        ref = (-1) ** (k - 1) * hermite_e.hermeval(a, np.eye(k)[k - 1]) * phi
        np.testing.assert_allclose(d[k], ref, rtol=1e-9, atol=1e-12 * np.abs(ref).max())
    # next derivative from the recurrence, against the bound
    nxt = -(a * d[TERMS - 1] + (TERMS - 2) * d[TERMS - 2])
    assert np.abs(nxt).max() <= 0.4335 * math.sqrt(factorial(TERMS - 1, exact=True))
    assert 0.4335 / (TERMS * math.sqrt(factorial(TERMS - 1, exact=True))) < 5e-18


def test_smoothed_precision_against_brute_force_inversion():
    """The centre curve PR̃ at n = 20,000: brute-force G̃⁻¹ by bisection on ``fsum`` sums."""
    gen = np.random.default_rng(5)
    ps, ns = gen.normal(1.2, 1, 2000), gen.normal(0, 1, 18000)
    hp, hn = silverman_bandwidth(ps), silverman_bandwidth(ns)
    grid = np.linspace(0.05, 0.95, 7)
    got = smoothed_precision(ps, ns, hp, hn, 0.1, grid)
    for b, value in zip(grid, got, strict=True):
        lo, hi = -10.0, 12.0
        for _ in range(60):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if math.fsum(ndtr((mid - ps) / hp)) / 2000 < 1 - b else (lo, mid)
        alpha = math.fsum(ndtr((ns - lo) / hn)) / 18000
        assert value == pytest.approx(0.1 * b / (0.1 * b + 0.9 * alpha), abs=1e-12)
