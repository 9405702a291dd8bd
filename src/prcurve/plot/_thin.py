"""Thinning long lines for drawing, without a visible change at the figure's resolution.

A curve of 10⁶ operating points drawn 600 pixels wide spends nearly all its drawing time on
points that land in the same pixel column.  :func:`thin_indices` keeps, for every run of
consecutive points in one of ``columns`` equal x-columns, the first, last, lowest and highest
point (the "M4" rule: the rasterised line in that column is the vertical span from the lowest
to the highest point, joined to its neighbours through the first and last), so with more
columns than pixels the drawn image is the same up to antialiasing.
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["thin_axes", "thin_indices"]

#: Columns per axis width: several times the pixels of a report panel (about 400–600).
COLUMNS = 4000


def thin_indices(
    x: np.ndarray, y: np.ndarray, lo: float, hi: float, columns: int = COLUMNS
) -> np.ndarray:
    """Sorted indices of the points to draw of the polyline ``(x, y)``.

    ``[lo, hi]`` is the x-range drawn, cut into ``columns`` columns; points outside it fall in
    the first or last column.  Non-finite points are always kept (they break the line).

    >>> x = np.linspace(0, 1, 1001); y = (np.arange(1001) % 2).astype(float)
    >>> idx = thin_indices(x, y, 0.0, 1.0, columns=10)
    >>> len(idx) <= 4 * 11, bool(y[idx].min() == 0 and y[idx].max() == 1)
    (True, True)
    """
    n = x.shape[0]
    if n <= 4 * columns:
        return np.arange(n)
    finite = np.isfinite(x) & np.isfinite(y)
    width = hi - lo if hi > lo else 1.0
    col = np.clip(np.floor((np.where(finite, x, lo) - lo) / width * columns), -1, columns)
    col[~finite] = -2  # each non-finite point is its own run
    starts = np.flatnonzero(np.r_[True, (col[1:] != col[:-1]) | ~finite[1:]])
    ends = np.r_[starts[1:], n] - 1
    lengths = np.diff(np.r_[starts, n])
    run = np.repeat(np.arange(starts.shape[0]), lengths)
    yy = np.where(finite, y, 0.0)
    keep = [starts, ends]
    for extreme in (np.minimum, np.maximum):  # the first lowest and first highest of each run
        hits = np.flatnonzero(yy == np.repeat(extreme.reduceat(yy, starts), lengths))
        keep.append(hits[np.r_[True, run[hits][1:] != run[hits][:-1]]])
    return np.unique(np.concatenate(keep))


def thin_axes(ax: Any, columns: int = COLUMNS) -> None:
    """Thin every long line of a matplotlib Axes in place (steps are expanded first)."""
    import matplotlib.cbook as cbook

    lo, hi = sorted(ax.get_xlim())
    for line in ax.get_lines():
        x = np.asarray(line.get_xdata(), dtype=float)
        y = np.asarray(line.get_ydata(), dtype=float)
        if x.shape[0] <= 4 * columns:
            continue
        style = line.get_drawstyle()
        if style in cbook.STEP_LOOKUP_MAP and style != "default":
            x, y = cbook.STEP_LOOKUP_MAP[style](x, y)
            line.set_drawstyle("default")
        keep = thin_indices(x, y, lo, hi, columns)
        line.set_data(x[keep], y[keep])
