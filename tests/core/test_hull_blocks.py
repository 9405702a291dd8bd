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


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), block=st.integers(1, 9), n=st.integers(2, 300))
def test_blocks_give_the_same_vertices_on_weights(seed, block, n):
    rng = np.random.default_rng(seed)
    tp = np.cumsum(rng.exponential(size=n) * (rng.random(n) < 0.5))
    fp = np.cumsum(rng.exponential(size=n))
    assert np.array_equal(upper_hull_indices(fp, tp, block=block), _upper_hull(fp, tp))
