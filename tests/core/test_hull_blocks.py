"""upper_hull_indices in blocks: the hull of the blocks' hulls is the hull of all the points."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve._core._hull import _upper_hull, upper_hull_indices


@settings(max_examples=300, deadline=None)
@given(
    steps=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=120),
    block=st.integers(1, 9),
)
def test_blocks_give_the_same_vertices_on_counts(steps, block):
    steps = [(a, b) if a + b else (1, 0) for a, b in steps]  # every point predicts something
    tp = np.cumsum([a for a, _ in steps])
    fp = np.cumsum([b for _, b in steps])
    assert np.array_equal(upper_hull_indices(fp, tp, block=block), _upper_hull(fp, tp))


def test_weighted_counts_are_done_whole():
    # near-collinear weighted points: rounding may judge them differently with other
    # neighbours, so only exact (integer) counts are split into blocks
    from prcurve import binary_counts

    y = (np.arange(37) % 2 == 0).astype(int)
    c = binary_counts(y, -np.arange(37.0), sample_weight=np.full(37, 0.3))
    assert np.array_equal(upper_hull_indices(c.fp, c.tp, block=8), _upper_hull(c.fp, c.tp))
