import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import dominates, pr_curve, roc_curve
from prcurve._core._hull import upper_hull_indices

from ..conftest import make_problem


def andrew_upper_hull(points):
    """Andrew's monotone chain (upper part), strict vertices only, on exact integers."""
    pts = sorted(set(points))
    hull = []
    for p in pts:
        while len(hull) >= 2:
            (ax, ay), (bx, by) = hull[-2], hull[-1]
            if (bx - ax) * (p[1] - ay) - (by - ay) * (p[0] - ax) >= 0:
                hull.pop()
            else:
                break
        hull.append(p)
    return hull


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 150), ties=st.booleans())
def test_hull_equals_monotone_chain(seed, n, ties):
    rng = np.random.default_rng(seed)
    y, s, _ = make_problem(rng, n=n, prevalence=0.3, ties=ties)
    roc = roc_curve(y, s)
    idx = upper_hull_indices(roc.fp, roc.tp)
    got = [(0, 0)] + [(int(roc.fp[i]), int(roc.tp[i])) for i in idx]
    pts = [(0, 0)] + [(int(a), int(b)) for a, b in zip(roc.fp, roc.tp, strict=True)]
    assert got == andrew_upper_hull(pts)


def test_hull_of_large_curve(rng):
    y, s, _ = make_problem(rng, n=200_000, prevalence=0.05)
    roc = roc_curve(y, s)
    hull = roc.convex_hull()
    pts = [(0, 0), *zip(roc.fp.tolist(), roc.tp.tolist(), strict=True)]
    assert [(0, 0), *zip(hull.fp.tolist(), hull.tp.tolist(), strict=True)] == andrew_upper_hull(pts)
    assert hull.auc() >= roc.auc()


def test_hull_simple():
    # points (fp, tp): (0,1) (1,1) (1,2) (2,2) (2,3); (0,1), (1,2), (2,3) are collinear
    roc = roc_curve([1, 0, 1, 0, 1], [5, 4, 3, 2, 1])
    hull = roc.convex_hull()
    assert list(zip(hull.fp.tolist(), hull.tp.tolist(), strict=True)) == [(0, 1), (2, 3)]
    assert hull.auc() == pytest.approx((1 / 3 + 1) / 2)


def test_coinciding_points_keep_their_hull_vertex():
    """Issue 23: a weight below the rounding of the cumulative sum makes two consecutive
    operating points equal in float64; the hull kept neither (hull AUC 0.5 < ROC AUC 1)."""
    c = pr_curve([1, 1, 0], [3.0, 2.0, 1.0], sample_weight=[1, 1e-20, 1])
    roc = c.to_roc()
    assert roc.auc() == 1.0
    hull = roc.convex_hull()
    assert [(0.0, 0.0), *zip(hull.fp.tolist(), hull.tp.tolist(), strict=True)] == (
        andrew_upper_hull([(0.0, 0.0), *zip(roc.fp.tolist(), roc.tp.tolist(), strict=True)])
    )
    assert hull.auc() == 1.0
    assert dominates(c.achievable(), c)
    assert c.achievable().auc("davis_goadrich") == 1.0


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(2, 60),
    n_tiny=st.integers(1, 20),
    ties=st.booleans(),
)
def test_tiny_weights_leave_the_hull_alone(seed, n, n_tiny, ties):
    """Instances of weight 2**-80 inserted below the top score leave every cumulative count of
    at least 1 unchanged in float64 (they coincide with a neighbour) and move the others by at
    most 20 * 2**-80: the hull's area moves by no more than that, relative to n₊ n₋ >= 1."""
    rng = np.random.default_rng(seed)
    y, s, _ = make_problem(rng, n=n, prevalence=0.4, ties=ties)
    top = s.max()
    y_t = rng.random(n_tiny) < 0.5
    s_t = top - rng.integers(1, 8, n_tiny) / 4.0 - rng.integers(0, 2, n_tiny) * 1e-3
    yy, ss = np.concatenate([y, y_t]), np.concatenate([s, s_t])
    w = np.concatenate([np.ones(n), np.full(n_tiny, 2.0**-80)])
    ref = roc_curve(y, s)
    c = pr_curve(yy, ss, sample_weight=w)
    hull = c.to_roc().convex_hull()
    assert hull.auc() == pytest.approx(ref.convex_hull().auc(), abs=1e-13)  # + n roundings
    assert hull.auc() >= c.to_roc().auc() - 1e-13
    assert dominates(c.achievable(), c)
