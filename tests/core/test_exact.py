"""Precision against a target decided on the counts (rounded once), against Fractions."""

from fractions import Fraction

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve._core._exact import exact_precision, precision_at_least

counts = st.one_of(st.integers(0, 50), st.integers(0, 2**62))
weights = st.floats(0.0, 1e6, allow_subnormal=True)


def rounded_once(tp, fp, n_pos=None, n_neg=None, pi=None):
    t, f = Fraction(tp), Fraction(fp)
    if pi is None:
        return float(t / (t + f))
    a = t * Fraction(pi) * Fraction(n_neg)
    return float(a / (a + f * Fraction(n_pos) * (1 - Fraction(pi))))


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(st.tuples(counts, counts), st.tuples(weights, weights)),
    st.one_of(st.none(), st.floats(1e-6, 1 - 1e-6)),
    st.tuples(st.integers(1, 2**40), st.integers(1, 2**40)),
    st.data(),
)
def test_decision_is_the_exact_precision_rounded_once(pair, pi, totals, data):
    tp, fp = pair
    if tp + fp == 0:
        return
    n_pos, n_neg = totals
    exact = rounded_once(tp, fp, n_pos, n_neg, pi)
    # targets at the exact value and its float neighbours: the decisions rounding used to get
    target = data.draw(
        st.sampled_from([exact, np.nextafter(exact, 0), np.nextafter(exact, 2)]).filter(
            lambda v: 0 < v <= 1
        )
    )
    totals_kw = {} if pi is None else {"n_pos": n_pos, "n_neg": n_neg, "prevalence": pi}
    dtype = np.int64 if isinstance(tp, int) else np.float64
    got = precision_at_least(np.array([tp], dtype=dtype), np.array([fp], dtype=dtype), target,
                             **totals_kw)  # fmt: skip
    assert bool(got[0]) == (exact >= target)
    args = () if pi is None else (n_pos, n_neg, pi)
    assert exact_precision(tp, fp, *args) == exact


def test_predicting_nothing_never_meets_a_target():
    got = precision_at_least(np.array([0, 0, 1]), np.array([0, 1, 0]), 1e-300)
    assert got.tolist() == [False, False, True]


def test_subnormal_weights_at_a_prevalence_are_decided_exactly():
    """Hypothesis found it (at the minimum versions): FP = 5e-324 reweighted by 2/3 rounds to
    one subnormal unit, so the float precision was 0.8 where the exact one is 6/7; a product
    below the smallest normal double is now decided with exact rationals."""
    exact = exact_precision(2e-323, 5e-324, 2, 3, 0.5)
    assert exact == 6 / 7
    got = precision_at_least(np.array([2e-323]), np.array([5e-324]), exact,
                             n_pos=2, n_neg=3, prevalence=0.5)  # fmt: skip
    assert got.tolist() == [True]
    above = precision_at_least(np.array([2e-323]), np.array([5e-324]), np.nextafter(exact, 1),
                               n_pos=2, n_neg=3, prevalence=0.5)  # fmt: skip
    assert above.tolist() == [False]
