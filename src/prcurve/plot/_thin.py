"""Thinning long lines for drawing, without a visible change at the figure's resolution.

A curve of 10⁶ operating points drawn 600 pixels wide spends nearly all its drawing time on
points that land in the same pixel column.  :func:`thin_indices` keeps, for every run of
consecutive points in one of ``columns`` equal x-columns, the first, last, lowest and highest
point (the "M4" rule: the rasterised line in that column is the vertical span from the lowest
to the highest point, joined to its neighbours through the first and last), so with more
columns than pixels the drawn image is the same up to antialiasing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .._core._disk import release_all, release_rows

__all__ = ["thin_axes", "thin_indices", "thin_lines"]

#: Columns per axis width: several times the pixels of a report panel (about 400–600).
COLUMNS = 4000
#: Points read at a time by :func:`thin_indices`.
BLOCK = 1 << 16


def thin_indices(
    x: np.ndarray,
    y: np.ndarray,
    lo: float,
    hi: float,
    columns: int = COLUMNS,
    *,
    block: int = BLOCK,
) -> np.ndarray:
    """Sorted indices of the points to draw of the polyline ``(x, y)``.

    ``[lo, hi]`` is the x-range drawn, cut into ``columns`` columns; points outside it fall in
    the first or last column.  Non-finite points are always kept (they break the line).  The
    points are read ``block`` at a time, so the memory used does not grow with the line's length.

    >>> x = np.linspace(0, 1, 1001); y = (np.arange(1001) % 2).astype(float)
    >>> idx = thin_indices(x, y, 0.0, 1.0, columns=10)
    >>> len(idx) <= 4 * 11, bool(y[idx].min() == 0 and y[idx].max() == 1)
    (True, True)
    """
    n = x.shape[0]
    if n <= 4 * columns:
        return np.arange(n)

    def read(part: slice) -> tuple[np.ndarray, tuple[np.ndarray]]:
        xs, ys = x[part], y[part]
        release_rows(x, part)  # a curve on disk: its pages go back after each block
        release_rows(y, part)
        return xs, (ys,)

    return thin_lines(n, read, lo, hi, columns, block=block)


def thin_lines(
    n: int,
    read: Callable[[slice], tuple[np.ndarray, Sequence[np.ndarray]]],
    lo: float,
    hi: float,
    columns: int = COLUMNS,
    *,
    block: int = BLOCK,
) -> np.ndarray:
    """:func:`thin_indices` of several lines of ``n`` points sharing their x: the sorted
    union of each line's kept points, ``read(block slice)`` giving the x and every line's y
    on a block (read once for all the lines: the lines of a curve on disk computed a block at
    a time, each block once)."""
    if n <= 4 * columns:
        return np.arange(n)
    width = hi - lo if hi > lo else 1.0
    parts: list[list[dict[str, np.ndarray]]] = []
    for b in range(0, n, block):
        xs, ys = read(slice(b, min(b + block, n)))
        parts.extend([] for _ in range(len(ys) - len(parts)))
        for line, y in zip(parts, ys, strict=False):
            line.append(_block_runs(xs, y, lo, width, columns, b))
    out = np.concatenate([_kept(line, block) for line in parts])
    out.sort()
    return out[np.concatenate([[True], out[1:] != out[:-1]])]


def _kept(parts: list[dict[str, np.ndarray]], block: int) -> np.ndarray:
    """The kept points of one line from its blocks' runs (:func:`_block_runs`)."""
    seg = {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    # a block's first segment continues the previous block's last run when both are finite and
    # in the same column
    cont = np.zeros(seg["start"].shape[0], dtype=bool)
    cont[1:] = (
        (seg["start"][1:] % block == 0)
        & (seg["col"][1:] == seg["col"][:-1])
        & seg["finite"][1:]
        & seg["finite"][:-1]
    )
    first_seg = np.flatnonzero(~cont)
    keep = [seg["start"][first_seg], seg["end"][np.r_[first_seg[1:], cont.shape[0]] - 1]]
    for name in ("low", "high"):
        keep.append(seg[name + "_at"][_first_extremes(seg[name], first_seg, name)])
    return np.concatenate(keep)


def _first_extremes(values: np.ndarray, starts: np.ndarray, name: str) -> np.ndarray:
    """Index of the first lowest (``name="low"``) or highest value of each run of ``values``.

    The runs are ``values[starts[i]:starts[i + 1]]`` (the last one to the end).
    """
    extreme = np.minimum if name == "low" else np.maximum
    lengths = np.diff(np.concatenate([starts, [values.shape[0]]]))
    hits = np.flatnonzero(values == np.repeat(extreme.reduceat(values, starts), lengths))
    run = np.searchsorted(starts, hits, side="right")
    return hits[np.concatenate([[True], run[1:] != run[:-1]])]


def _block_runs(
    x: np.ndarray, y: np.ndarray, lo: float, width: float, columns: int, offset: int
) -> dict[str, np.ndarray]:
    """The runs of one block of points (cut at the block's start), as :func:`thin_indices` needs.

    For each run of consecutive points in one column (each non-finite point a run of its own):
    its first and last index, column, finiteness, and its lowest and highest y with the index
    of their first occurrence (indices shifted by ``offset``).
    """
    finite = np.isfinite(x)
    finite &= np.isfinite(y)
    every = bool(finite.all())  # the usual case: fewer passes over the block
    col = x - lo if every else np.where(finite, x, lo) - lo
    col /= width
    col *= columns
    np.floor(col, out=col)
    np.clip(col, -1, columns, out=col)
    if every:
        change = col[1:] != col[:-1]
        yy = y
    else:
        col[~finite] = -2  # each non-finite point is its own run
        change = (col[1:] != col[:-1]) | ~finite[1:]
        yy = np.where(finite, y, 0.0)
    starts = np.flatnonzero(change)
    starts = np.concatenate([[0], starts + 1])
    out = {
        "start": starts + offset,
        "end": np.concatenate([starts[1:], [x.shape[0]]]) - 1 + offset,
        "col": col[starts],
        "finite": finite[starts],
    }
    for name in ("low", "high"):
        at = _first_extremes(yy, starts, name)
        out[name], out[name + "_at"] = yy[at], at + offset
    return out


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


def thin_pr_path(
    curve: Any, lo: float, hi: float, *, num: int = 200, columns: int = COLUMNS
) -> tuple[np.ndarray, np.ndarray]:
    """``curve.interpolate(num=num)`` of a :class:`~prcurve.PRCurve`, thinned for drawing.

    The same polyline as thinning the full interpolated path (:func:`thin_indices` over recall
    ``[lo, hi]``), without building it: the operating points are thinned first, then the
    ``num`` Davis–Goadrich grid points are merged in, each read off the two operating points
    around it only.  So neither time beyond one pass nor memory grows with the curve's length.

    Every grid point is kept, and in each recall column the first, last, lowest and highest
    operating point: a superset of what thinning the full path keeps, hence the same image.
    """
    from .._core._interpolation import interpolate_counts

    recall, precision = curve.recall, curve.precision
    if recall.shape[0] <= 4 * columns:
        r, p = curve.interpolate(num=num)
        return np.asarray(r), np.asarray(p)
    grid = np.linspace(0.0, 1.0, num)
    tp = curve.tp
    # the operating points on either side of each grid level (as interpolate_counts finds them,
    # on its counts (0, tp…)), and the last one; interpolated there, the grid reads the same
    low = grid * curve.n_pos * (1 - 8 * np.finfo(np.float64).eps)
    if tp.dtype.kind in "iu":  # integer counts: tp >= v exactly when tp >= ceil(v), and numpy
        low = np.ceil(low).astype(tp.dtype)  # searches without a float copy of tp
    end = np.where(
        grid > 0, np.searchsorted(tp, low, side="left"), np.searchsorted(tp, 0, side="right")
    )  # index in tp of the point at or after each level (interpolate_counts' end - 1)
    end = np.clip(end, 0, tp.shape[0] - 1)
    around = np.unique(np.r_[end - 1, end, tp.shape[0] - 1])
    around = around[around >= 0]
    grid_precision = interpolate_counts(tp[around], curve.fp[around], curve.n_pos, grid)
    release_all()  # a curve on disk: the pages the searches mapped go back
    keep = thin_indices(recall, precision, lo, hi, columns)
    r, p = recall[keep], precision[keep]
    release_all()
    at = np.searchsorted(r, grid, side="left")  # a grid level comes before equal recalls
    return np.insert(r, at, grid), np.insert(p, at, grid_precision)
