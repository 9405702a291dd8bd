"""The exact PR curve of a Spark DataFrame: the passes of the Dask engine, run by Spark.

The sorted table of distinct scores (:mod:`prcurve.spark._table`) is read in passes, one
partition per executor task, by the functions that :mod:`prcurve.dask` runs on its sorted
ranges (:mod:`prcurve.dask._passes`): (1) each partition's totals, from which the driver
derives the counts carried into every partition (the offsets); (2) the area terms, the ROC
convex hull candidates and the path length; (3) the points spread along the curve; (4) the
thinning bound.  A curve with at most ``max_points`` distinct scores is collected whole
instead, as three arrays.  Only per-partition results reach the driver.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._area import AUC_PR_METHODS
from .._core._counts import BinaryCounts
from .._core._empirical import PRCurve
from .._core._hull import upper_hull_indices
from .._core._thin import Thinning
from .._core._validation import check_positive_int
from ..dask._curve import _interpolated_median, _plans
from ..dask._passes import PAIRWISE, areas_and_hull, bound, fill_and_write, load, summary
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


def _collect(table: SortedTable) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    parts = map_partitions(table, lambda _, part: load(part))
    return tuple(np.concatenate([p[j] for p in parts]) for j in range(3))  # type: ignore[return-value]


def _passes(table: SortedTable, weighted: bool, max_points: int | None) -> tuple[PRCurve, int]:
    stats = map_partitions(table, lambda _, part: summary(part))
    k = int(sum(st["n"] for st in stats))
    n_pos = sum(st["pos"] for st in stats)
    n_neg = sum(st["neg"] for st in stats)
    if not weighted:
        n_pos, n_neg = int(n_pos), int(n_neg)
    if max_points is None or k <= max_points:
        s, pos, neg = _collect(table)
        counts = BinaryCounts(s, np.cumsum(pos), np.cumsum(neg), n_pos, n_neg)
        return PRCurve.from_counts(counts), k
    plans = _plans(stats, n_pos, n_neg)
    second = map_partitions(table, lambda i, part: areas_and_hull(part, plans[i]))
    areas = {m: float(sum(r["areas"][m] for r in second)) for m in PAIRWISE}
    areas["interpolated_median"] = _interpolated_median([r["median"] for r in second], n_pos)
    areas = {m: areas[m] for m in AUC_PR_METHODS}
    roc_auc = float(sum(r["roc"] for r in second))
    filled = [r for r in second if r["hull"] is not None]
    cand = [np.concatenate([r["hull"][j] for r in filled]) for j in range(4)]
    ends = [np.concatenate([r["ends"][j] for r in filled]) for j in range(4)]
    hull = upper_hull_indices(cand[2], cand[1])
    required = {
        int(i): (cand[0][h], cand[1][h], cand[2][h])
        for h, i in zip(hull, cand[3][hull], strict=True)
    }
    for j in (0, ends[3].shape[0] - 1):
        required[int(ends[3][j])] = (ends[0][j], ends[1][j], ends[2][j])
    path_each = np.array([r["path"] for r in second])
    path_before = np.concatenate([[0.0], np.cumsum(path_each)[:-1]])
    total, budget = float(path_each.sum()), max_points - len(required)
    third = map_partitions(
        table,
        lambda i, part: fill_and_write(part, plans[i], float(path_before[i]), total, budget, None),
    )
    for t in third:
        for s_, tp_, fp_, i in zip(*t, strict=True):
            required.setdefault(int(i), (s_, tp_, fp_))
    index = np.array(sorted(required), dtype=np.int64)
    rows = [required[int(i)] for i in index]
    thresholds = np.array([r[0] for r in rows], dtype=cand[0].dtype)
    tp = np.array([r[1] for r in rows], dtype=cand[1].dtype)
    fp = np.array([r[2] for r in rows], dtype=cand[2].dtype)
    kept = (index, tp, fp)
    err = max(map_partitions(table, lambda i, part: bound(part, plans[i], kept)))
    curve = PRCurve.from_counts(BinaryCounts(thresholds, tp, fp, n_pos, n_neg))
    curve = dataclasses.replace(curve, thinning=Thinning(k, float(err), areas, roc_auc))
    return curve, k
