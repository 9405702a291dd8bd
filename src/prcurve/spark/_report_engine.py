"""What ``prcurve report --engine spark`` needs from Spark: exact counts and a subsample.

The report's pipeline reads any source, on any engine, into the exact sorted counts of every
scorer plus a random subsample for what needs the raw rows (bootstrap intervals, bands,
comparisons).  These two functions are the Spark side of that interface; they return what
the Dask engine returns (:class:`prcurve.dask._curve.DaskCurve`'s fields, a pandas frame), so
the engine-independent analysis takes them unchanged.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._core._validation import check_positive_int
from ._curve import SparkCurve, compute_curve

__all__ = ["draw_subsample", "exact_curves"]


def exact_curves(
    frame: Any,
    *,
    label_col: str,
    score_cols: Sequence[str],
    weight_col: str | None = None,
    pos_label: Any = None,
    max_points: int | None = 5000,
) -> dict[str, SparkCurve]:
    """The exact curve of every score column of ``frame``, in the order given.

    Each :class:`~prcurve.spark._curve.SparkCurve` holds the curve (every operating point with
    ``max_points=None``; else thinned to ``max_points`` when longer, with the full curve's
    areas, ROC AUC and precision-error bound in ``curve.thinning``), the number of rows, of
    distinct scores and the effective number of positives.  Errors name the column.
    """
    if isinstance(score_cols, str) or not len(score_cols):
        raise ValueError(f"score_cols: expected a non-empty list of column names, got "
                         f"{score_cols!r}")  # fmt: skip
    out: dict[str, SparkCurve] = {}
    for name in score_cols:
        out[name] = compute_curve(
            frame,
            label_col=label_col,
            score_col=name,
            weight_col=weight_col,
            pos_label=pos_label,
            max_points=max_points,
        )
    return out


def draw_subsample(
    frame: Any,
    *,
    columns: Sequence[str],
    size: int,
    seed: int | None = None,
    n_rows: int | None = None,
) -> tuple[Any, bool]:
    """A uniform random subsample of about ``size`` rows of ``columns``, as a pandas frame.

    Every row is kept independently with probability ``size / n_rows`` (Spark's Bernoulli
    ``sample``, seeded: the same seed on the same partitioning draws the same rows), so the
    size is ``size`` on average, within a few ``√size``.  All rows when there are at most
    ``size``.  Returns the frame and whether it is a proper subsample.  ``n_rows`` (the
    number of rows, e.g. ``SparkCurve.n_rows``) saves a count.
    """
    size = check_positive_int(size, "size", minimum=1)
    selected = frame.select(*columns)
    n = selected.count() if n_rows is None else int(n_rows)
    if n <= size:
        return selected.toPandas(), False
    part = selected.sample(withReplacement=False, fraction=size / n, seed=seed)
    return part.toPandas(), True
