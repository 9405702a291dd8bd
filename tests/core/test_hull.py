import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import roc_curve
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
