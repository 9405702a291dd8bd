"""Partition functions over the sorted table of distinct scores (``s``, ``pos``, ``neg``).

The table is sorted by decreasing score and split into partitions.  A first pass reduces each
partition to its totals; the client turns them into a :class:`Plan` per partition (the counts
before it, its first global row, the recall groups crossing its edges).  Every later pass sees
one partition plus its plan, and reuses the engine's formulas (``area_from_counts``,
``upper_hull_indices``, ``prcurve._core._thin``) on the partition with the previous operating
point as context, so the whole curve is never held in one place.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._core._area import area_from_counts, precision_of
from .._core._hull import upper_hull_indices
from .._core._thin import path_steps, segment_bounds, spread_indices

__all__ = [
    "PAIRWISE", "Plan", "areas_and_hull", "bound", "fill_and_write", "load", "summary",
    "write_counts",
]  # fmt: skip

#: Estimators whose area is a sum over consecutive operating points.
PAIRWISE = ("average_precision", "davis_goadrich", "trapezoid", "lower_trapezoid")


def load(source: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A partition as arrays: a ``.npy`` table or Parquet file path, or a pandas DataFrame."""
    if isinstance(source, str | Path) and str(source).endswith(".npy"):
        table = np.load(source)
        return tuple(np.ascontiguousarray(table[f]) for f in ("s", "pos", "neg"))  # type: ignore[return-value]
    if isinstance(source, str | Path):
        import pandas as pd

        source = pd.read_parquet(source, columns=["s", "pos", "neg"])
    return source["s"].to_numpy(), source["pos"].to_numpy(), source["neg"].to_numpy()


def summary(source: Any) -> dict[str, Any]:
    """Totals of one partition, and where its recall groups start (rows with positives)."""
    _, pos, neg = load(source)
    starts = np.flatnonzero(pos > 0)
    return {
        "n": pos.shape[0],
        "pos": pos.sum(),
        "neg": neg.sum(),
        "first_start": int(starts[0]) if starts.size else -1,
        "last_start": int(starts[-1]) if starts.size else -1,
    }


@dataclass(frozen=True)
class Plan:
    """What one partition needs to know about the partitions before and after it."""

    offset: int  # global index of its first row
    tp_before: Any  # counts of the last operating point before it (0 for the first)
    fp_before: Any
    prev_start: int  # global row opening the recall group in progress at its start, or -1
    next_start: int  # first group start after its last row, or the number of rows
    n_pos: Any
    n_neg: Any


def _counts(pos: np.ndarray, neg: np.ndarray, plan: Plan) -> tuple[np.ndarray, np.ndarray]:
    return plan.tp_before + np.cumsum(pos), plan.fp_before + np.cumsum(neg)


def _context(plan: Plan, tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The partition's points preceded by the previous operating point (if any)."""
    if plan.offset == 0:
        return tp, fp
    return np.concatenate([[plan.tp_before], tp]), np.concatenate([[plan.fp_before], fp])


def areas_and_hull(source: Any, plan: Plan) -> dict[str, Any]:
    """Area contributions, interpolated-median pieces, hull candidates and path length."""
    s, pos, neg = load(source)
    out: dict[str, Any] = {"areas": dict.fromkeys(PAIRWISE, 0.0), "roc": 0.0, "path": 0.0}
    n = s.shape[0]
    if n == 0:
        out["median"] = out["hull"] = None
        return out
    tp, fp = _counts(pos, neg, plan)
    ctp, cfp = _context(plan, tp, fp)
    for method in PAIRWISE:
        # the area of (context + partition) minus that of the context alone: the partition's
        # terms, each taken with its previous operating point, by the engine's own estimator
        area = area_from_counts(ctp, cfp, plan.n_pos, method)
        if plan.offset:
            area -= area_from_counts(ctp[:1], cfp[:1], plan.n_pos, method)
        out["areas"][method] = area
    tpr = np.concatenate([[0.0], ctp / np.float64(plan.n_pos)])
    fpr = np.concatenate([[0.0], cfp / np.float64(plan.n_neg)])
    if plan.offset:
        tpr, fpr = tpr[1:], fpr[1:]
    out["roc"] = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1]) / 2))
    out["median"] = _median_pieces(pos, tp, fp, plan)
    # hull vertices of (previous point + partition): a superset of the global ones here
    local = upper_hull_indices(fp - plan.fp_before, tp - plan.tp_before)
    index = plan.offset + np.arange(n)
    out["hull"] = (s[local], tp[local], fp[local], index[local])
    out["ends"] = (s[[0, -1]], tp[[0, -1]], fp[[0, -1]], index[[0, -1]])
    recall = ctp / np.float64(plan.n_pos)
    precision = precision_of(ctp, cfp)
    start = (recall[0], precision[0])
    steps = path_steps(recall, precision, start)
    out["path"] = float(steps[1:].sum() if plan.offset else steps.sum())
    return out


def _median_pieces(
    pos: np.ndarray, tp: np.ndarray, fp: np.ndarray, plan: Plan
) -> tuple[np.ndarray, ...]:
    """Half precisions at the middle rows of each recall group touching the partition.

    A recall group (one true-positive count) opens at a row with positives and runs over the
    following rows without; its median precision is the mean of the precisions at two middle
    rows (Boyd et al.'s interpolated median), which may lie in any partition the group spans.
    Returns the global row opening each group, the group's TP and this partition's share.
    """
    n = pos.shape[0]
    first = plan.offset
    starts = first + np.flatnonzero(pos > 0)
    groups, group_tp = starts, tp[starts - first]
    if plan.prev_start >= 0 and (starts.size == 0 or starts[0] != first):
        groups = np.concatenate([[plan.prev_start], starts])
        group_tp = np.concatenate([[plan.tp_before], group_tp])
    ends = np.append(groups[1:], plan.next_start) - 1
    size = ends - groups
    value = np.zeros(groups.shape[0])
    for middle in (groups + size // 2, groups + (size + 1) // 2):
        inside = (middle >= first) & (middle < first + n)
        at = middle[inside] - first
        value[inside] += tp[at] / np.add(tp[at], fp[at], dtype=np.float64) / 2
    has = value > 0
    return groups[has], group_tp[has], value[has]


def fill_and_write(
    source: Any,
    plan: Plan,
    path_before: float,
    path_total: float,
    budget: int,
    write_to: str | None,
) -> tuple[np.ndarray, ...]:
    """Rows chosen to spread the point budget along the path; optionally write the full piece."""
    s, pos, neg = load(source)
    n = s.shape[0]
    if n == 0:
        return (s[:0], pos[:0], neg[:0], np.empty(0, np.int64))
    tp, fp = _counts(pos, neg, plan)
    ctp, cfp = _context(plan, tp, fp)
    recall = ctp / np.float64(plan.n_pos)
    precision = precision_of(ctp, cfp)
    steps = path_steps(recall, precision, (recall[0], precision[0]))
    if plan.offset:
        steps = steps[1:]
    cum = path_before + np.cumsum(steps)
    at = spread_indices(cum, path_before, path_total, budget)
    if write_to is not None:
        import pandas as pd

        piece = pd.DataFrame(
            {
                "threshold": s,
                "tp": tp,
                "fp": fp,
                "precision": precision_of(tp, fp),
                "recall": tp / np.float64(plan.n_pos),
            }
        )
        piece.to_parquet(Path(write_to) / f"part.{plan.offset:015d}.parquet", index=False)
    return s[at], tp[at], fp[at], plan.offset + at


def write_counts(source: Any, plan: Plan, folder: str) -> None:
    """Write this partition's rows of the whole count table (thresholds, TP, FP) at its offset
    into the ``.npy`` files of ``folder`` (made by the driver, one per column)."""
    s, pos, neg = load(source)
    if s.shape[0] == 0:
        return
    tp, fp = _counts(pos, neg, plan)
    rows = slice(plan.offset, plan.offset + s.shape[0])
    for name, values in (("thresholds", s), ("tp", tp), ("fp", fp)):
        out = np.load(Path(folder) / f"{name}.npy", mmap_mode="r+")
        out[rows] = values  # in the page cache: every mapping of the file sees it, no msync
        del out


def bound(source: Any, plan: Plan, kept: tuple[np.ndarray, np.ndarray, np.ndarray]) -> float:
    """The thinning bound over this partition's segments (and the one entering it)."""
    s, pos, neg = load(source)
    if s.shape[0] == 0:
        return 0.0
    tp, fp = _counts(pos, neg, plan)
    ctp, cfp = _context(plan, tp, fp)
    index = np.arange(ctp.shape[0]) + plan.offset - (1 if plan.offset else 0)
    return segment_bounds(ctp, cfp, index, *kept)
