"""count_blocks: every point once, each with the point before it, whatever the block size."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve._core._blocks import count_blocks


@settings(max_examples=100, deadline=None)
@given(
    steps=st.lists(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=1, max_size=60),
    block=st.integers(1, 9),
)
def test_blocks_cover_the_table_with_their_previous_points(steps, block):
    tp = np.cumsum([a for a, _ in steps])
    fp = np.cumsum([b for _, b in steps])
    parts = list(count_blocks(tp, fp, block=block))
    tp_prev, fp_prev, t, f = (np.concatenate(col) for col in zip(*parts, strict=True))
    assert np.array_equal(t, tp) and np.array_equal(f, fp)
    assert np.array_equal(tp_prev, np.concatenate([[0], tp[:-1]]))
    assert np.array_equal(fp_prev, np.concatenate([[0], fp[:-1]]))
    assert all(p[2].shape[0] <= block for p in parts) and t.dtype == np.float64
