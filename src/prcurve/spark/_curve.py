"""The exact PR curve of a Spark DataFrame: the passes of the Dask engine, run by Spark.

The sorted table of distinct scores (:mod:`prcurve.spark._table`) is read in passes, one
partition per executor task, by the functions that :mod:`prcurve.dask` runs on its sorted
ranges (:mod:`prcurve.dask._passes`): (1) each partition's totals, from which the driver
derives the counts carried into every partition (the offsets); (2) the area terms, the ROC
convex hull candidates and the path length; (3) the points spread along the curve; (4) the
thinning bound.  A curve with at most ``max_points`` distinct scores is collected whole
instead, as three arrays.  Only per-partition results reach the driver.  What the driver does
between the passes is the Dask engine's own code (:func:`prcurve.dask._driver.exact_passes`),
given Spark's way of running a function on every partition (:func:`._table.map_partitions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._core._empirical import PRCurve
from .._core._validation import check_positive_int
from ..dask._driver import exact_passes
from ._input import check_spark_problem
from ._table import SortedTable, map_partitions, sorted_table

__all__ = ["SparkCurve", "compute_curve"]


@dataclass(frozen=True)
class SparkCurve:
    """What the Spark engine returns: the (possibly thinned) curve and facts about the data."""

    curve: PRCurve
    n_rows: int
    n_distinct: int
    n_pos_effective: float


def compute_curve(
    frame: Any,
    *,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    pos_label: Any = None,
    max_points: int | None = 2000,
) -> SparkCurve:
    """The exact curve (thinned when longer than ``max_points``; None: never thinned)."""
    if max_points is not None:
        max_points = check_positive_int(max_points, "max_points", minimum=2)
    checked = check_spark_problem(frame, label_col, score_col, weight_col, pos_label)
    table = sorted_table(frame, checked, label_col, score_col, weight_col)
    try:
        curve, k = _passes(table, checked.weighted, max_points)
    finally:
        table.frame.unpersist()
    return SparkCurve(curve, checked.n_rows, k, checked.n_pos_effective)


def _passes(table: SortedTable, weighted: bool, max_points: int | None) -> tuple[PRCurve, int]:
    return exact_passes(
        lambda func: map_partitions(table, func), weighted=weighted, max_points=max_points
    )
