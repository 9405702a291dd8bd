"""Expected cost and cost curves against brute force and the Drummond–Holte closed forms."""

import numpy as np
import pytest

from prcurve import cost_curve, expected_cost


def _data(seed, n=300, ties=False, weights=False):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    s = rng.normal(size=n) + 1.2 * y
    if ties:
        s = np.round(s, 1)
    w = rng.exponential(size=n) if weights else None
    return y, s, w


def _brute_rates(y, s, w):
    """FPR and TPR of "flag nothing" and of ``s >= t`` for every distinct t, by masks."""
    w = np.ones(len(y)) if w is None else w
    thresholds = np.concatenate([[np.inf], np.unique(s)[::-1]])
    flagged = s[None, :] >= thresholds[:, None]
    tpr = (flagged * (w * y)).sum(1) / (w * y).sum()
    fpr = (flagged * (w * ~y)).sum(1) / (w * ~y).sum()
    return thresholds, fpr, tpr


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
def test_cost_curve_is_the_lower_envelope_of_all_lines(ties, weights):
    y, s, w = _data(1, ties=ties, weights=weights)
    _, fpr, tpr = _brute_rates(y, s, w)
    curve = cost_curve(y, s, sample_weight=w)
    grid = np.concatenate([np.linspace(0, 1, 1001), curve.probability_cost])
    envelope = (fpr[None, :] + ((1 - tpr) - fpr)[None, :] * grid[:, None]).min(axis=1)
    np.testing.assert_allclose(curve.at(grid), envelope, rtol=0, atol=1e-12)
    # break points increase strictly from 0 to 1; each piece is the line of its threshold
    assert curve.probability_cost[0] == 0 and curve.probability_cost[-1] == 1
    assert np.all(np.diff(curve.probability_cost) > 0)
    left = curve.probability_cost[:-1]
    np.testing.assert_allclose(
        curve.fpr + (curve.fnr - curve.fpr) * left, curve.normalized_cost[:-1], atol=1e-12
    )


def test_cost_curve_closed_forms_of_perfect_and_uninformative_scores():
    y = np.array([0, 0, 1, 1, 0, 1])
    perfect = cost_curve(y, y + 0.5)
    assert perfect.area() == 0 and perfect.at(0.3) == 0
    flat = cost_curve(y, np.ones(6))  # flag nothing (NEC = PC) or all (NEC = 1 - PC)
    pc = np.linspace(0, 1, 11)
    np.testing.assert_allclose(flat.at(pc), np.minimum(pc, 1 - pc), atol=1e-15)
    assert flat.area() == pytest.approx(0.25, abs=1e-15)
    assert flat.threshold_at(0.2) == np.inf and flat.threshold_at(0.8) == 1.0


@pytest.mark.parametrize("prevalence", [None, 0.01, 0.6])
@pytest.mark.parametrize("weights", [False, True])
def test_expected_cost_matches_brute_force_and_the_cost_curve(prevalence, weights):
    y, s, w = _data(2, ties=True, weights=weights)
    c_fp, c_fn = 1.0, 7.5
    ec = expected_cost(y, s, cost_fp=c_fp, cost_fn=c_fn, prevalence=prevalence, sample_weight=w)
    thresholds, fpr, tpr = _brute_rates(y, s, w)
    pi = (np.sum(y * (1 if w is None else w)) / (len(y) if w is None else w.sum())
          if prevalence is None else prevalence)  # fmt: skip
    cost = pi * c_fn * (1 - tpr) + (1 - pi) * c_fp * fpr
    np.testing.assert_array_equal(ec.thresholds, thresholds)
    np.testing.assert_allclose(ec.expected_cost, cost, rtol=0, atol=1e-12)
    assert ec.prevalence == pytest.approx(pi, abs=1e-15)
    assert ec.minimum == pytest.approx(cost.min(), abs=1e-12)
    assert ec.threshold == thresholds[np.flatnonzero(cost <= cost.min() + 1e-12)[0]]
    pc = pi * c_fn / (pi * c_fn + (1 - pi) * c_fp)
    assert ec.probability_cost == pytest.approx(pc, rel=1e-14)
    # the least normalized cost is the cost curve at PC(+)
    curve = cost_curve(y, s, sample_weight=w)
    assert ec.minimum_normalized == pytest.approx(curve.at(pc), abs=1e-12)
    assert ec.minimum == pytest.approx(curve.at(pc) * (pi * c_fn + (1 - pi) * c_fp), abs=1e-12)


def test_expected_cost_by_hand():
    # positives at 0.9, 0.7, 0.6; negatives at 0.8, 0.5, 0.4; c_FN = 4, c_FP = 1, π = 1/2
    ec = expected_cost([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4], cost_fp=1, cost_fn=4)
    # flag >= 0.6: FNR 0, FPR 1/3 -> 0.5 * 1 * 1/3
    assert ec.threshold == 0.6 and ec.minimum == pytest.approx(1 / 6, abs=1e-15)
    assert ec.expected_cost[0] == 2.0  # flag nothing: every positive missed, 0.5 * 4
    # very costly false positives: flag nothing is best
    assert expected_cost([1, 0, 1], [0.2, 0.9, 0.1], cost_fp=10, cost_fn=1).threshold == np.inf


def test_errors_name_the_parameter():
    y, s = [0, 1, 1, 0], [0.1, 0.4, 0.35, 0.8]
    with pytest.raises(ValueError, match=r"cost_fp: expected a finite non-negative number, got -1"):
        expected_cost(y, s, cost_fp=-1, cost_fn=1)
    with pytest.raises(TypeError, match=r"cost_fn: expected a non-negative number, got str"):
        expected_cost(y, s, cost_fp=1, cost_fn="2")
    with pytest.raises(ValueError, match=r"cost_fp and cost_fn: expected at least one positive"):
        expected_cost(y, s, cost_fp=0, cost_fn=0.0)
    with pytest.raises(ValueError, match=r"prevalence: expected a number in \(0, 1\), got 1.5"):
        expected_cost(y, s, cost_fp=1, cost_fn=1, prevalence=1.5)
    with pytest.raises(ValueError, match=r"probability_cost: expected values in \[0, 1\], got 2.0"):
        cost_curve(y, s).at([0.5, 2.0])
    with pytest.raises(ValueError, match=r"y_true: expected both classes"):
        cost_curve([1, 1], [0.2, 0.3])


def test_probability_cost_where_the_products_underflow():
    """A negative of weight 5e-324 beside a positive of weight 1, c_FN = 0: π·c_FN and
    (1 − π)·c_FP both round to 0 as products, yet PC(+) is exactly 0 (found by hypothesis on
    the minimum-versions job; it was a ZeroDivisionError)."""
    ec = expected_cost([1, 0], [0.0, 0.0], cost_fp=5e-324, cost_fn=0.0, sample_weight=[1.0, 5e-324])
    assert ec.probability_cost == 0.0
    assert np.isfinite(ec.expected_cost).all() and np.isfinite(ec.normalized_cost).all()
    # both costs positive, classes 1e300 apart: PC(+) from the log-ratio, no 0/0
    ec = expected_cost([1, 0], [1.0, 0.0], cost_fp=1.0, cost_fn=1.0, sample_weight=[1e300, 1.0])
    assert ec.probability_cost == pytest.approx(1.0 / (1.0 + 1e-300))
