"""Inverse-survival draws of the (conditioned) binomial class counts."""

import numpy as np
import pytest

from prcurve._core._binomial import _binomial_isf, _bracket, binomial_sf, conditional_binomial


@pytest.mark.parametrize(
    ("n", "p"),
    [(20_035, 0.0499), (3000, 0.3), (500, 0.05), (129, 0.5), (2000, 0.999), (40, 0.2)],
)
def test_isf_is_the_smallest_count_whose_survival_is_at_most_u(n, p):
    """Against brute force over every count: the bracket around the approximate quantile only
    shortens the search."""
    gen = np.random.default_rng(n)
    u = np.concatenate([gen.random(3000), [1e-300, 1e-12, 0.5, 1 - 1e-12, 1.0]])
    sf = binomial_sf(np.arange(n + 1, dtype=np.float64), n, p)
    assert np.all(np.diff(sf) <= 0)
    want = np.searchsorted(-sf, -u, side="left")  # first k with sf(k) <= u
    np.testing.assert_array_equal(_binomial_isf(u, n, p), want)


def test_bracket_holds_and_is_narrow_when_the_law_is_wide():
    gen = np.random.default_rng(0)
    u = gen.random(5000)
    n, p = 150_000, 0.05
    lo, hi = _bracket(u, n, p)
    assert np.all(binomial_sf(lo, n, p) > u) and np.all(binomial_sf(hi, n, p) <= u)
    assert np.mean(hi - lo <= 16) > 0.999  # the Cornish–Fisher guess is within 8 counts
    small = _bracket(u, 100, 0.01)  # sd < 3: the whole range
    assert np.all(small[0] == -1) and np.all(small[1] == 100)


def test_conditional_draws_follow_the_binomial_law():
    gen = np.random.default_rng(1)
    n, p = 50_000, 0.05
    k = conditional_binomial(gen, n, p, 20_000, min_each=1)
    sd = np.sqrt(n * p * (1 - p))
    assert abs(k.mean() - n * p) < 4 * sd / np.sqrt(k.shape[0])
    assert abs(k.std() / sd - 1) < 0.03
