import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import pr_curve
from prcurve._core._area import AUC_PR_METHODS

from ..conftest import make_problem


def observed_error(full, thin):
    """Brute force: both interpolated curves on a dense recall grid (every full point too)."""
    r = np.unique(np.concatenate([full.recall, np.linspace(0, 1, 2001)]))
    mid = (r[1:] + r[:-1]) / 2
    grid = np.concatenate([r, mid, r[1:] - 1e-9 * np.diff(r)])
    grid = grid[(grid >= 0) & (grid <= 1)]
    return float(np.max(np.abs(full.interpolate(grid)[1] - thin.interpolate(grid)[1])))


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("max_points", [2, 10, 60])
def test_bound_holds_against_brute_force(rng, ties, weights, max_points):
    y, s, w = make_problem(rng, n=3000, prevalence=0.1, weights=weights)
    if ties:
        s = np.round(s * 20) / 20  # about 150 distinct scores
    full = pr_curve(y, s, sample_weight=w)
    thin = full.thin(max_points)
    info = thin.thinning
    assert info.n_points == full.tp.shape[0]
    hull = full.achievable()
    assert thin.tp.shape[0] <= max(max_points, hull.tp.shape[0] + 1)
    err = observed_error(full, thin)
    assert err <= info.max_precision_error + 1e-12
    assert info.max_precision_error <= 1.0


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(5, 300),
    levels=st.sampled_from([None, 3, 20]),
    max_points=st.integers(2, 40),
    seed=st.integers(0, 2**32 - 1),
)
def test_bound_holds_fuzzed(n, levels, max_points, seed):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < rng.uniform(0.05, 0.9)
    y[0], y[1] = True, False
    s = rng.normal(size=n) + rng.uniform(-1, 3) * y
    if levels:
        s = np.round(s * levels / 4)
    full = pr_curve(y, s)
    thin = full.thin(max_points)
    if thin is full:
        assert full.tp.shape[0] <= max_points
        return
    assert observed_error(full, thin) <= thin.thinning.max_precision_error + 1e-12


def test_bound_shrinks_with_budget_and_is_informative(rng):
    y = rng.random(200_000) < 0.02
    full = pr_curve(y, rng.normal(size=y.size) + 2 * y)
    bounds = [full.thin(m).thinning.max_precision_error for m in (50, 200, 1000)]
    assert bounds[0] > bounds[1] > bounds[2]
    assert bounds[2] < 0.02  # 1000 of ~200k points keep the drawn curve within 2 points


def test_keeps_hull_end_points_and_full_areas(rng):
    y, s, _ = make_problem(rng, n=5000, prevalence=0.2)
    full = pr_curve(y, s)
    thin = full.thin(100)
    a, b = thin.achievable(), full.achievable()
    for name in ("tp", "fp", "thresholds"):
        np.testing.assert_array_equal(getattr(a, name), getattr(b, name))
    assert thin.thresholds[0] == full.thresholds[0] and thin.thresholds[-1] == full.thresholds[-1]
    assert np.all(np.diff(thin.thresholds) < 0)
    for method in AUC_PR_METHODS:
        assert thin.auc(method) == full.auc(method)
    assert thin.thinning.roc_auc == full.to_roc().auc() == thin.to_roc().auc()
    # the hull vertices are kept, so the ROC hull (and its area) is the full one
    assert thin.to_roc().convex_hull().auc() == full.to_roc().convex_hull().auc()
    # the thinned points are operating points of the full curve
    at = np.searchsorted(-full.thresholds, -thin.thresholds)
    np.testing.assert_array_equal(full.tp[at], thin.tp)


def test_small_curves_are_returned_unchanged_and_thinning_twice_adds_bounds(rng):
    y, s, _ = make_problem(rng, n=50)
    full = pr_curve(y, s)
    assert full.thin(1000) is full and full.thinning is None
    y, s, _ = make_problem(rng, n=5000)
    full = pr_curve(y, s)
    once = full.thin(400)
    twice = once.thin(100)
    assert twice.thinning.n_points == full.tp.shape[0]
    assert twice.thinning.max_precision_error >= once.thinning.max_precision_error
    assert observed_error(full, twice) <= twice.thinning.max_precision_error + 1e-12
    assert "thinning=Thinning(" in repr(twice)


def test_errors(rng):
    y, s, _ = make_problem(rng, n=50)
    with pytest.raises(ValueError, match="max_points: expected an integer >= 2, got 1"):
        pr_curve(y, s).thin(1)
    with pytest.raises(TypeError, match="max_points: expected an integer, got float"):
        pr_curve(y, s).thin(10.0)


def dense_error(full, thin, per_segment=400):
    """Brute force, denser: ``per_segment`` recall levels inside every segment of the full
    curve (where the gap between two Davis–Goadrich segments can peak), every point, and just
    right of every point (the supremum may be the limit there, past a vertical drop)."""
    r = np.concatenate([[0.0], full.recall])
    u = np.concatenate([[1e-9], np.linspace(0, 1, per_segment + 2)[1:]])  # 1e-9: just right
    grid = (r[:-1, None] + np.diff(r)[:, None] * u[None, :]).ravel()
    grid = grid[(grid > 0) & (grid <= 1)]
    return float(np.max(np.abs(full.interpolate(grid)[1] - thin.interpolate(grid)[1])))


def _negatives_first(rng, n=4000):
    y = rng.random(n) < 0.1
    s = rng.normal(size=n) + 1.5 * y
    s[:3], y[:3] = 100.0, False  # three negatives above every positive: precision rises from 0
    return y, s, None


def _tied_top(rng, n=4000):
    y = rng.random(n) < 0.2
    s = np.round(rng.normal(size=n) + 1.2 * y, 2)
    s[:40], y[:40] = 50.0, np.arange(40) < 10  # 10 positives tied with 30 negatives on top
    return y, s, None


def _weighted(rng, n=4000):
    y = rng.random(n) < 0.15
    s = rng.normal(size=n) + y
    s[:2], y[:2] = 9.0, False
    return y, s, rng.exponential(size=n)


@pytest.mark.parametrize("make", [_negatives_first, _tied_top, _weighted])
@pytest.mark.parametrize("max_points", [20, 60, 150])
def test_bound_is_the_exact_largest_gap(rng, make, max_points):
    """The stated bound is the supremum of the gap, not just above it: brute force on a dense
    grid inside every segment reaches it to within the grid's resolution.  (The bound once
    compared the two precision ranges of a segment, 0.25 on the rise after three negatives.)"""
    y, s, w = make(rng)
    full = pr_curve(y, s, sample_weight=w)
    thin = full.thin(max_points)
    assert thin.thinning is not None
    bound = thin.thinning.max_precision_error
    seen = dense_error(full, thin)
    assert seen <= bound + 1e-12
    # the gap is smooth inside a segment: 400 levels per segment find its peak to ~1e-5
    assert bound - seen <= 1e-4 * bound


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(5, 300),
    block=st.integers(1, 9),
    max_points=st.integers(2, 40),
    seed=st.integers(0, 2**32 - 1),
)
def test_bound_is_the_same_in_blocks(n, block, max_points, seed):
    # the bound is taken block by block (bounded temporaries); any block size gives the same
    from prcurve._core import _thin

    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.3
    y[0], y[1] = True, False
    full = pr_curve(y, np.round(rng.normal(size=n) + y, 1))
    hull = np.arange(0)
    whole = _thin.thin_indices(full.tp, full.fp, hull, max_points)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_thin, "BOUND_BLOCK", block)
        blocked = _thin.thin_indices(full.tp, full.fp, hull, max_points)
    assert np.array_equal(blocked[0], whole[0]) and blocked[1] == whole[1]
