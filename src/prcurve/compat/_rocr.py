"""ROCR's ``performance(pred, "aucpr")``, including the order its interpolated points end in.

Source (read, not copied): ROCR 1.0-11, ``R/performance_measures.R``, ``.performance.aucpr``
(by T. Unterthiner).  ``prediction()`` starts the counts with the cutoff ``Inf`` (TP = FP = 0).
The measure keeps, for each TP level, the point with the fewest false positives, gives the
``(0, 0)`` point precision 1, and for each pair of consecutive points ``i, i+1`` whose TP grows
by more than 2 inserts the Davis–Goadrich points ``TP_i + x``, ``x = 1 … ΔTP``, with
``append(..., after = i)`` — into vectors that earlier insertions have already lengthened, while
``i`` still counts the original points.  Once one block is inserted, later blocks land before
the points they belong to, the recall sequence goes back and forth, and the trapezoid sum over
it counts some strips negatively.  On continuous scores (no TP jump above 2) none of this
happens and the value is the trapezoid from (0, 1) over the points.

The insertion order is a stack: after step ``i`` the first ``i + 1`` entries are final, each
step pushes its block in front of the entries not yet final and then fixes the front one.  It
is replayed block by block (never point by point), so the cost is linear in the output.
"""

from __future__ import annotations

import numpy as np

from .._core._area import tp_changes
from .._core._counts import BinaryCounts
from .._core._disk import take

__all__ = ["rocr_area", "rocr_points"]


def _replay(points: np.ndarray, blocks: list[tuple[int, np.ndarray]]) -> np.ndarray:
    """The point rows after ROCR's insertions (``blocks``: (step i, rows), i increasing,
    0-based: inserted after entry i of the current vectors)."""
    done = [points[:1]]
    stack = [points[1:]]  # entries not yet final, front of the list = bottom
    fixed = 0  # steps whose front entry is final

    def fix(count: int) -> None:
        while count and stack:
            rows = stack[-1]
            take = min(count, rows.shape[0])
            done.append(rows[:take])
            count -= take
            if take == rows.shape[0]:
                stack.pop()
            else:
                stack[-1] = rows[take:]

    for step, rows in blocks:
        fix(step - fixed)
        fixed = step
        stack.append(rows)
    done.extend(reversed(stack))
    return np.concatenate(done)


def rocr_points(counts: BinaryCounts) -> tuple[np.ndarray, ...]:
    """The points of ROCR's ``aucpr`` in ROCR's order: recall, precision, TP and FP."""
    # the fewest-FP point of each TP level, with the origin first (read at those points only)
    head = [1] if counts.tp[0] != 0 else []
    first = np.concatenate([np.array(head, dtype=np.intp), tp_changes(counts.tp) + 2]) - 1
    tp = np.concatenate([[0.0], take(counts.tp, first).astype(np.float64)])
    fp = np.concatenate([[0.0], take(counts.fp, first).astype(np.float64)])
    prec = np.divide(tp, tp + fp, out=np.ones_like(tp), where=tp + fp > 0)
    points = np.column_stack([tp / counts.n_pos, prec, tp, fp])
    jumps = np.flatnonzero(np.diff(tp) > 2)
    blocks = []
    for i in jumps.tolist():
        x = np.arange(1.0, tp[i + 1] - tp[i] + 1)
        skew = (fp[i + 1] - fp[i]) / (tp[i + 1] - tp[i])
        rows = np.column_stack([
            (x + tp[i]) / counts.n_pos,
            (x + tp[i]) / (tp[i] + fp[i] + x + skew * x),
            x + tp[i],
            fp[i] + skew * x,
        ])  # fmt: skip
        blocks.append((i, rows))
    if blocks:
        points = _replay(points, blocks)
    return points[:, 0], points[:, 1], points[:, 2], points[:, 3]


def rocr_area(counts: BinaryCounts) -> float:
    """ROCR's area under the precision/recall curve."""
    rec, prec, _, _ = rocr_points(counts)
    return float(np.sum(np.diff(rec) * (prec[1:] + prec[:-1])) / 2)
