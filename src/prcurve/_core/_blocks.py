"""Count tables read in blocks of points, each block with the point before it.

Sums over the segments of a curve (areas, placement statistics) need each point and the one
before it.  Done on the whole table at once, each such sum makes a dozen temporaries of the
curve's length: about 50 MB each at 6.6·10⁶ distinct scores.  Block by block they take a few
megabytes, and the sum is the same to rounding (only the order of the additions changes).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from ._disk import release

__all__ = ["BLOCK", "count_blocks"]

#: Points per block: a few arrays of this length stay in the CPU caches.
BLOCK = 1 << 16


def count_blocks(
    tp: np.ndarray, fp: np.ndarray, *, block: int = BLOCK
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """``(tp_prev, fp_prev, tp, fp)`` as float64, block by block; before the first point, (0, 0).

    >>> [b[0].tolist() for b in count_blocks(np.array([1, 2, 3]), np.array([0, 1, 1]), block=2)]
    [[0.0, 1.0], [2.0]]
    """
    k = tp.shape[0]
    for lo in range(0, k, block):
        hi = min(lo + block, k)
        t = np.asarray(tp[max(lo - 1, 0) : hi], dtype=np.float64)
        f = np.asarray(fp[max(lo - 1, 0) : hi], dtype=np.float64)
        if lo == 0:
            yield np.concatenate([[0.0], t[:-1]]), np.concatenate([[0.0], f[:-1]]), t, f
        else:
            yield t[:-1], f[:-1], t[1:], f[1:]
        release(tp[lo:hi])  # a table on disk: its pages go back once the block is done
        release(fp[lo:hi])
