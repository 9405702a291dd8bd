"""precrec's area from the groups of tied scores equals the trapezoid sum over its points.

:func:`prcurve.compat._interpolated.precrec_area` sums each group's instance trapezoids in
closed form (digamma differences) and splits only the segments holding grid points;
:func:`precrec_points` lists every instance and grid point.  The two must agree to rounding on
any counts: ties of every size, grids finer and coarser than the points, a giant top tie.
"""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import binary_counts
from prcurve.compat import _interpolated
from prcurve.compat._interpolated import (
    _harmonic_gap,
    auc_jar_area,
    precrec_area,
    precrec_points,
    prroc_dg_area,
)


def _trapezoids(counts, x_bins):
    rec, prec, _, _ = precrec_points(counts, x_bins=x_bins)
    return float(np.sum(np.diff(rec) * (prec[1:] + prec[:-1])) / 2)


@settings(max_examples=300, deadline=None)
@given(
    labels=st.lists(st.booleans(), min_size=2, max_size=400),
    levels=st.integers(1, 50),
    seed=st.integers(0, 2**32 - 1),
    x_bins=st.sampled_from([0, 1, 2, 7, 100, 1000]),
)
def test_area_equals_trapezoids_over_points(labels, levels, seed, x_bins):
    y = np.array(labels)
    if y.all() or not y.any():
        y[0] = not y[0]
    s = np.random.default_rng(seed).integers(0, levels, size=y.shape[0])
    counts = binary_counts(y, s)
    assert precrec_area(counts, x_bins=x_bins) == pytest.approx(
        _trapezoids(counts, x_bins), abs=1e-13
    )


@pytest.mark.parametrize("x_bins", [0, 3, 1000])
def test_giant_tie_and_large_counts(x_bins):
    # a 200,000-row tie at the top, then 300,000 distinct scores: groups start beyond b = 100
    # (the asymptotic series) and before it (digamma itself)
    rng = np.random.default_rng(3)
    y = np.concatenate([rng.random(200_000) < 0.3, rng.random(300_000) < 0.05])
    s = np.concatenate([np.full(200_000, 10.0), rng.normal(size=300_000)])
    counts = binary_counts(y, s)
    assert precrec_area(counts, x_bins=x_bins) == pytest.approx(
        _trapezoids(counts, x_bins), abs=1e-12
    )


@pytest.mark.parametrize("b", [0.0, 3.0, 99.0, 100.0, 1234.5, 1e7])
@pytest.mark.parametrize("m", [1, 2, 17, 5000])
def test_harmonic_gap_against_direct_sum(b, m):
    direct = np.sum(1.0 / (b + np.arange(1, m + 1, dtype=np.longdouble)))
    got = _harmonic_gap(np.array([b]), np.array([float(m)]))[0]
    assert got == pytest.approx(float(direct), rel=1e-14)


@settings(max_examples=200, deadline=None)
@given(
    labels=st.lists(st.booleans(), min_size=2, max_size=300),
    levels=st.integers(1, 40),
    seed=st.integers(0, 2**32 - 1),
    block=st.integers(1, 7),
)
def test_blocks_do_not_change_the_areas(labels, levels, seed, block):
    # the areas are summed block by block (O(block) memory); any block size gives the same sum
    y = np.array(labels)
    if y.all() or not y.any():
        y[0] = not y[0]
    counts = binary_counts(y, np.random.default_rng(seed).integers(0, levels, size=y.shape[0]))
    whole = [f(counts) for f in (prroc_dg_area, auc_jar_area)]
    whole.append(precrec_area(counts, x_bins=7))
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_interpolated, "_BLOCK", block)
        blocked = [f(counts) for f in (prroc_dg_area, auc_jar_area)]
        blocked.append(precrec_area(counts, x_bins=7))
    assert blocked == pytest.approx(whole, abs=1e-13)


def test_first_group_above_a_grid_value_behind_a_long_run_of_equal_tp():
    # 100 negatives after 11 positives: 101 groups share TP = 11, and 11/20·100 rounds above 55
    # while 55/100·20 does not; the first group above 55 is the 11th positive's (index 10)
    from prcurve.compat._interpolated import _first_above

    y = np.r_[np.ones(11), np.zeros(100), np.ones(9), np.zeros(5)].astype(int)
    counts = binary_counts(y, -np.arange(125.0))
    assert _first_above(counts.tp, 20.0, 100, np.array([55.0])).tolist() == [10]
    assert precrec_area(counts, x_bins=100) == pytest.approx(_trapezoids(counts, 100), abs=1e-13)
