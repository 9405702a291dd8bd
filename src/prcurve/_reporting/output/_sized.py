"""Curve files sized for use: which points a curve file holds, and what it says about them.

A curve file with every operating point grows with the data (1.3 GB of CSV at 10⁷ rows), while
nothing read from it needs more than a few hundred thousand points.  Above
:data:`MAX_FILE_POINTS` points a curve file therefore holds the curve thinned by
:meth:`prcurve.PRCurve.thin`: both end points and every vertex of the ROC convex hull are kept
(so the achievable curve read from the file is exact), the rest spread along the curve, and the
thinning's bound on the precision error (Davis–Goadrich interpolation, every recall level) is
recorded for ``summary.json`` and the page.  ``--all-points`` keeps every point, and adds a
Parquet file (pyarrow) of the same columns.

The thinned curve is computed once per curve: the background writer (``_write``) and the
summary ask :func:`file_curve`, which remembers the answer while the full curve lives.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any, BinaryIO

import numpy as np

from ..._core._disk import is_on_disk, release_rows
from ..._core._empirical import PRCurve

__all__ = [
    "MAX_FILE_POINTS", "file_curve", "file_entry", "parquet_writer", "release_columns",
    "row_chunks",
]  # fmt: skip

#: Operating points above which a curve file holds the thinned curve (``--all-points``: all).
MAX_FILE_POINTS = 100_000

_lock = threading.Lock()
_memo: list[tuple[weakref.ref[PRCurve], PRCurve]] = []


def file_curve(pr: PRCurve, *, all_points: bool = False) -> PRCurve:
    """The curve a file holds: ``pr`` itself with ``all_points`` or at most
    :data:`MAX_FILE_POINTS` points, else ``pr.thin(MAX_FILE_POINTS)`` (computed once)."""
    if all_points or pr.tp.shape[0] <= MAX_FILE_POINTS:
        return pr
    with _lock:  # the writer thread and the summary ask for the same curve
        _memo[:] = [(ref, thin) for ref, thin in _memo if ref() is not None]
        for ref, thin in _memo:
            if ref() is pr:
                return thin
        thin = pr.thin(MAX_FILE_POINTS)
        _memo.append((weakref.ref(pr), thin))
        return thin


def file_entry(pr: PRCurve, path: str, *, all_points: bool = False) -> dict[str, Any]:
    """What ``summary.json`` says about the file ``path`` holding ``pr`` (see module doc).

    ``operating_points`` counts the distinct thresholds of the data; ``points`` those in the
    file; ``max_precision_error`` is 0 for a file with every point.  A curve thinned before it
    got here (the Dask engine's) says so too.
    """
    held = file_curve(pr, all_points=all_points)
    info = held.thinning
    return {
        "path": path,
        "points": int(held.tp.shape[0]),
        "operating_points": int(held.tp.shape[0] if info is None else info.n_points),
        "thinned": info is not None,
        "max_precision_error": 0.0 if info is None else float(info.max_precision_error),
    }


def parquet_writer(columns: Callable[[], dict[str, Any]]) -> Callable[[BinaryIO], None]:
    """A function writing the columns (``columns()``, called when written) as Parquet."""

    def write(f: BinaryIO) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq

        cols = columns()
        writer = None
        for rows in row_chunks(cols):  # (one chunk in memory; a curve on disk a chunk at a time)
            arrays = [_arrow(pa, np.asarray(v[rows])) for v in cols.values()]  # (sliced first)
            table = pa.Table.from_arrays(arrays, names=list(cols))
            if writer is None:
                writer = pq.ParquetWriter(f, table.schema)
            writer.write_table(table)
            release_columns(cols, rows)
        if writer is not None:
            writer.close()

    return write


#: Rows per chunk when a file is written from columns on disk (``prcurve._core._disk``).
FILE_CHUNK = 1 << 20


def row_chunks(columns: dict[str, Any]) -> list[slice]:
    """The row slices a file is written in: all rows at once, or for columns on disk (the Dask
    engine's curve with ``--all-points``) chunks of :data:`FILE_CHUNK` rows, each chunk's pages
    handed back once written (:func:`release_columns`)."""
    first = next(iter(columns.values()))
    n = len(first)
    if not any(is_on_disk(v) for v in columns.values()) or n == 0:
        return [slice(None)]
    return [slice(lo, min(lo + FILE_CHUNK, n)) for lo in range(0, n, FILE_CHUNK)]


def release_columns(columns: dict[str, Any], rows: slice) -> None:
    """Hand back the pages of ``rows`` of the columns on disk."""
    for v in columns.values():
        release_rows(v, rows)


def _arrow(pa: Any, v: np.ndarray) -> Any:
    v = np.ascontiguousarray(v.astype(np.int64) if v.dtype == bool else v)
    return pa.Array.from_buffers(pa.from_numpy_dtype(v.dtype), v.shape[0], [None, pa.py_buffer(v)])
