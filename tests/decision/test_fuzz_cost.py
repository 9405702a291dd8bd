"""Fuzz expected_cost, cost_curve and net_benefit: ties, extremes, zero and huge weights."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from prcurve import cost_curve, expected_cost, net_benefit
from tests.test_fuzz import FMAX, FUZZ, SLOW_FUZZ, problems

COSTS = st.sampled_from([0.0, 5e-324, 1e-300, 0.5, 1.0, 3.0, 1e300, FMAX]) | st.floats(0, 1e6)
PREVALENCES = st.none() | st.sampled_from([5e-324, 1e-300, 0.01, 0.5, 1 - 2**-53])


@FUZZ
@given(problems(), COSTS, COSTS, PREVALENCES)
def test_expected_cost_is_finite_and_its_minimum_is_the_cost_curve(problem, c_fp, c_fn, pi):
    y, s, w = problem
    if c_fp == 0 and c_fn == 0:
        c_fn = 1.0
    ec = expected_cost(y, s, cost_fp=c_fp, cost_fn=c_fn, prevalence=pi, sample_weight=w)
    for arr in (ec.fpr, ec.fnr, ec.expected_cost, ec.normalized_cost):
        assert np.all(np.isfinite(arr))
    assert np.all((ec.normalized_cost >= -1e-12) & (ec.normalized_cost <= 1 + 1e-12))
    assert ec.minimum == ec.expected_cost.min() and np.isfinite(ec.probability_cost)
    assert ec.threshold in ec.thresholds
    curve = cost_curve(y, s, sample_weight=w)
    assert abs(curve.at(ec.probability_cost) - ec.normalized_cost.min()) <= 1e-9


@FUZZ
@given(problems())
def test_cost_curve_is_finite_and_below_the_trivial_decisions(problem):
    y, s, w = problem
    curve = cost_curve(y, s, sample_weight=w)
    pc = curve.probability_cost
    assert pc[0] == 0 and pc[-1] == 1 and np.all(np.diff(pc) > 0)
    assert np.all(np.isfinite(curve.normalized_cost))
    grid = np.linspace(0, 1, 51)
    assert np.all(curve.at(grid) <= np.minimum(grid, 1 - grid) + 1e-12)
    ec = expected_cost(y, s, cost_fp=1, cost_fn=1, sample_weight=w)  # every line
    lines = ec.fpr[None, :] + (ec.fnr - ec.fpr)[None, :] * grid[:, None]
    np.testing.assert_allclose(curve.at(grid), lines.min(axis=1), atol=1e-9)
    assert 0 <= curve.area() <= 0.25 + 1e-12


@SLOW_FUZZ
@given(problems(), PREVALENCES, st.booleans())
def test_net_benefit_is_finite_and_best_dominates(problem, pi, boot):
    y, s, w = problem
    p_t = np.array([0.0, 5e-324, 0.3, 0.5, 1 - 2**-52])
    nb = net_benefit(y, s, threshold_probabilities=p_t, prevalence=pi, sample_weight=w,
                     interval="bootstrap" if boot else None, n_resamples=20, rng=0)  # fmt: skip
    for arr in (nb.net_benefit, nb.treat_all, nb.best_net_benefit):
        assert not np.any(np.isnan(arr))
    top = np.maximum(np.maximum(nb.net_benefit, nb.treat_all), 0.0)
    assert np.all(nb.best_net_benefit >= top - 1e-9 * np.maximum(1, np.abs(top)))
    if boot:
        for ci in (nb.net_benefit_interval, nb.treat_all_interval):
            assert ci is not None
            assert not np.any(np.isnan(ci.low)) and np.all(ci.low <= ci.high)
