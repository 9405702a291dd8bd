"""Columns of a curve on disk computed from its counts where they are read, never stored.

A curve whose counts are memory-mapped files (:mod:`._disk`) has columns that are plain
functions of those counts: the PR curve's ``precision = TP / (TP + FP)`` and
``recall = TP / n₊``, the ROC curve's ``fpr = FP / n₋`` and ``tpr = TP / n₊``, the PRG curve's
precision and recall gains.  Writing each of them out as a file of the curve's length cost the
Dask report on 10⁸ rows about 8 GB of writes, which the kernel throttles to the disk's speed
once a few GB are dirty (measured: 0.16 s for the first 800 MB, then 2 s for each next 800 MB;
the PR curve's two columns alone took 2.3 s to write, and the report's peak RSS was 1.8 GB
with them, 1.0–1.1 GB without).  A :class:`CountColumn` holds the function instead and
computes the rows asked for:

* ``column[i]`` is a number; ``column[a:b]`` an array computed on those rows when it has at
  most :data:`VIEW_ROWS` rows (a block of a pass: computed once, however many operations
  follow), another column otherwise (a view: nothing computed yet); ``column[indices]`` and
  ``column[mask]`` arrays computed at those rows only; any other key (a tuple, as
  matplotlib's ``column[:, np.newaxis]``) indexes the column computed whole; pickled, a
  column is the array it stands for (as a mapped array pickles);
* NumPy functions and operators compute the column (or the view) whole, as ``np.asarray``
  does: for the blocks the on-disk code paths read, a block at a time.  Computing a column of
  more than :data:`LARGE` rows in one piece is counted in :data:`whole_reads` (a test checks
  that the report never does).

The values are those of the same expression on whole arrays, element for element, so a curve
gives the same numbers whether its columns are stored or computed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numpy.lib.mixins import NDArrayOperatorsMixin

from ._disk import release, take

__all__ = ["LARGE", "VIEW_ROWS", "CountColumn", "counts_column", "read_rows", "whole_reads"]

#: Slices of at most this many rows are computed at once (the blocks the passes read).
VIEW_ROWS = 1 << 18
#: Rows above which computing a column in one piece is counted (:data:`whole_reads`).
LARGE = 1 << 22
#: How many times a column of more than :data:`LARGE` rows was computed in one piece.
whole_reads = [0]

Rows = slice | np.ndarray


def read_rows(a: np.ndarray, rows: Rows) -> np.ndarray:
    """``a[rows]`` (a slice or indices of ``a``) read from a mapped array, its pages handed
    back (:func:`._disk.release`)."""
    if isinstance(rows, slice):
        out = np.array(a[rows])
        release(a[rows])
        return out
    if rows.shape[0] > 1 and bool(np.any(rows[1:] < rows[:-1])):  # not increasing: sorted first
        order = np.argsort(rows, kind="stable")
        out = np.empty(rows.shape[0], dtype=a.dtype)
        out[order] = take(a, rows[order])
        return out
    return take(a, rows)


def counts_column(func: Callable[..., np.ndarray], *counts: np.ndarray) -> CountColumn:
    """The column whose rows are ``func(*(c[rows] for c in counts))``: each read of it reads
    those rows of the (mapped) ``counts`` (:func:`read_rows`) and combines them, e.g.
    ``counts_column(lambda t, f: t / (t + f), tp, fp)``."""
    return CountColumn(lambda rows: func(*(read_rows(c, rows) for c in counts)), len(counts[0]))


class CountColumn(NDArrayOperatorsMixin):
    """A float64 column of ``length`` rows whose row ``i`` is ``values(rows)[j]`` for the row
    ``start + i`` of the counts it is computed from (``values`` takes a slice or an index
    array of those rows and returns the column there).

    Behaves as a read-only one-dimensional array for indexing, ``len``, ``shape`` and NumPy's
    functions and operators (see the module docstring); the on-disk helpers treat it as on
    disk (:func:`._disk.is_on_disk`).
    """

    on_disk = True  # read by prcurve._core._disk.is_on_disk
    ndim = 1
    __array_priority__ = 10.0

    def __init__(
        self, values: Callable[[Rows], np.ndarray], length: int, *, start: int = 0
    ) -> None:
        self._values = values
        self._start = start
        self.shape = (int(length),)
        self.dtype = np.dtype(np.float64)

    def __len__(self) -> int:
        return self.shape[0]

    @property
    def size(self) -> int:
        return self.shape[0]

    def __repr__(self) -> str:
        return f"CountColumn(length={self.shape[0]}, start={self._start})"

    def __getitem__(self, key: Any) -> Any:
        n = self.shape[0]
        if isinstance(key, tuple):  # e.g. matplotlib's column[:, np.newaxis]: the array's
            return np.asarray(self)[key]
        if isinstance(key, slice):
            lo, hi, step = key.indices(n)
            if step == 1 and hi - lo > VIEW_ROWS:
                return CountColumn(self._values, hi - lo, start=self._start + lo)
            if step == 1:
                return self._values(slice(self._start + lo, self._start + max(lo, hi)))
            key = np.arange(lo, hi, step)
        if isinstance(key, bool | np.bool_):
            raise IndexError("a column is indexed by integers or a mask, got a boolean scalar")
        if isinstance(key, int | np.integer):
            i = int(key) + (n if key < 0 else 0)
            if not 0 <= i < n:
                raise IndexError(f"index {int(key)} is out of bounds for a column of {n} rows")
            return self._values(np.array([self._start + i]))[0]
        idx = np.asarray(key)
        if idx.size == 0:
            return np.empty(0, dtype=self.dtype)
        if idx.dtype == bool:
            if idx.shape != self.shape:
                raise IndexError(f"a mask of shape {idx.shape} for a column of {n} rows")
            idx = np.flatnonzero(idx)
        elif idx.dtype.kind not in "iu":
            raise IndexError(f"a column is indexed by integers or a mask, got {idx.dtype}")
        idx = np.where(idx < 0, idx + n, idx).astype(np.intp)
        if idx.shape[0] and (idx.min() < 0 or idx.max() >= n):
            raise IndexError(f"an index is out of bounds for a column of {n} rows")
        return self._values(idx + self._start)

    def __reduce__(self) -> tuple[Any, tuple[np.ndarray]]:
        """Pickled as the array it stands for, as a mapped array is: a curve on disk sent to
        or from a worker process (a curve at a deployment prevalence, the steps' arguments
        with a start method other than fork) arrives with its values, not with a function of
        files that only this process has."""
        return np.asarray, (np.asarray(self),)

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        n = self.shape[0]
        if n > LARGE:
            whole_reads[0] += 1
        out = self._values(slice(self._start, self._start + n))
        return out if dtype is None else out.astype(dtype, copy=False)

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if any(isinstance(o, CountColumn) for o in kwargs.get("out", ())):
            return NotImplemented  # read-only
        inputs = tuple(np.asarray(x) if isinstance(x, CountColumn) else x for x in inputs)
        return getattr(ufunc, method)(*inputs, **kwargs)
