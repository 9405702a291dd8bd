"""Partial ROC AUC over an FPR range, raw and with McClish's standardisation.

scikit-learn's ``roc_auc_score(max_fpr=b)`` is McClish's standardised area over [0, b]; a range
[a, b] is checked as the difference of two such areas (converted back to raw areas), and against
a dense-grid integral of the ROC curve's linear interpolation.
"""

import numpy as np
import pytest
from scipy.integrate import trapezoid
from sklearn.metrics import roc_auc_score
from sklearn.metrics import roc_curve as sk_roc_curve

from prcurve import partial_roc_auc, roc_curve

from ..conftest import make_problem


def _raw_from_sklearn(y, s, b, w=None):
    """Raw partial area over [0, b] from scikit-learn's McClish value."""
    if b == 1:
        return roc_auc_score(y, s, sample_weight=w)
    st = roc_auc_score(y, s, max_fpr=b, sample_weight=w)
    lo, hi = b * b / 2, b
    return lo + (2 * st - 1) * (hi - lo)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("max_fpr", [0.01, 0.1, 0.25, 0.5, 0.999])
def test_equals_scikit_learn_mcclish(rng, ties, weights, max_fpr):
    y, s, w = make_problem(rng, n=500, prevalence=0.3, ties=ties, weights=weights)
    ours = partial_roc_auc(y, s, max_fpr=max_fpr, sample_weight=w)
    assert ours == pytest.approx(roc_auc_score(y, s, max_fpr=max_fpr, sample_weight=w), abs=1e-12)


def test_range_ending_on_an_observed_fpr_and_vertical_segments():
    # FPR steps of 1/4; ties of positives make vertical segments at FPR = 0.25 and 0.5
    y = np.array([1, 1, 0, 1, 1, 0, 1, 0, 0, 1])
    s = np.array([9, 8, 7, 6, 6, 5, 4, 4, 2, 1.0])
    for b in (0.25, 0.5, 0.75):
        assert partial_roc_auc(y, s, max_fpr=b) == pytest.approx(
            roc_auc_score(y, s, max_fpr=b), abs=1e-15
        )
    # by hand: TPR is 2/6 on [0, 1/4], then 4/6 with a diagonal half-step on [1/2, 3/4]
    assert partial_roc_auc(y, s, max_fpr=0.25, standardized=False) == pytest.approx(0.25 * 2 / 6)


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize(("low", "high"), [(0.1, 0.3), (0.0, 0.2), (0.5, 1.0), (0.05, 0.06)])
def test_fpr_range_equals_difference_of_scikit_learn_areas(rng, ties, low, high):
    y, s, _ = make_problem(rng, n=400, prevalence=0.4, ties=ties)
    raw = partial_roc_auc(y, s, min_fpr=low, max_fpr=high, standardized=False)
    expected = _raw_from_sklearn(y, s, high) - (_raw_from_sklearn(y, s, low) if low else 0.0)
    assert raw == pytest.approx(expected, abs=1e-12)
    chance, perfect = (high**2 - low**2) / 2, high - low
    st = partial_roc_auc(y, s, min_fpr=low, max_fpr=high)
    assert st == pytest.approx(0.5 * (1 + (expected - chance) / (perfect - chance)), abs=1e-12)


def test_raw_area_equals_a_dense_grid_integral(rng):
    y, s, _ = make_problem(rng, n=200, prevalence=0.3, ties=True)
    fpr, tpr, _ = sk_roc_curve(y, s, drop_intermediate=False)
    grid = np.linspace(0.15, 0.65, 200_001)
    # np.interp on the right-continuous curve: vertical segments have zero width anyway
    dense = trapezoid(np.interp(grid, fpr, tpr), grid)
    raw = partial_roc_auc(y, s, min_fpr=0.15, max_fpr=0.65, standardized=False)
    assert raw == pytest.approx(dense, abs=1e-8)


def test_whole_range_is_the_auc_and_chance_is_one_half(rng):
    y, s, _ = make_problem(rng, n=300, ties=True)
    assert partial_roc_auc(y, s, max_fpr=1.0) == pytest.approx(roc_curve(y, s).auc(), abs=1e-15)
    # a constant score is the chance diagonal: McClish's 0.5 on any range
    assert partial_roc_auc(y, np.zeros(y.size), min_fpr=0.2, max_fpr=0.4) == pytest.approx(0.5)


def test_bad_limits():
    y, s = [0, 1, 0, 1], [0.1, 0.9, 0.3, 0.4]
    with pytest.raises(ValueError, match=r"max_fpr: expected a number in \[0, 1\], got 1.5"):
        partial_roc_auc(y, s, max_fpr=1.5)
    with pytest.raises(
        ValueError, match=r"max_fpr: expected a number above min_fpr = 0\.3, got 0\.2"
    ):
        partial_roc_auc(y, s, min_fpr=0.3, max_fpr=0.2)
    with pytest.raises(
        ValueError, match=r"max_fpr: expected a number above min_fpr = 0\.0, got 0$"
    ):
        partial_roc_auc(y, s, max_fpr=0)
    with pytest.raises(TypeError, match=r"min_fpr: expected a number, got str '0\.1'"):
        partial_roc_auc(y, s, min_fpr="0.1", max_fpr=0.5)
    with pytest.raises(TypeError, match="standardized: expected True or False, got 'yes'"):
        partial_roc_auc(y, s, max_fpr=0.5, standardized="yes")
