"""The driver side of the exact out-of-core curve, shared by the Dask and the Spark engines.

Both engines hold the sorted table of distinct scores (``s``, ``pos``, ``neg``; highest
scores first) in partitions they alone know how to reach -- Dask as delayed pieces or files,
Spark as the partitions of a checkpointed DataFrame.  What happens between the passes is the
same for both: sum the partitions' totals, derive each partition's :class:`~._passes.Plan`,
add up the area terms, merge the ROC hull candidates, spread the point budget along the path
and take the largest thinning bound.  :func:`exact_passes` does that once, given an engine's
``each`` -- "run this function on every partition and give me the results in partition order"
-- so a fix to the driver reaches both engines.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from .._core._area import AUC_PR_METHODS, area_from_counts
from .._core._counts import BinaryCounts
from .._core._disk import counts_from_files
from .._core._empirical import PRCurve
from .._core._hull import upper_hull_indices
from .._core._thin import Thinning
from ._passes import (
    PAIRWISE,
    Plan,
    areas_and_hull,
    bound,
    fill_and_write,
    load,
    summary,
    write_counts,
)  # fmt: skip

__all__ = ["Each", "counts_on_disk", "exact_passes", "interpolated_median", "plans_of"]

#: ``each(func)``: ``func(partition index, partition)`` run on every partition of the sorted
#: table (by the engine's workers), the results in partition order, empty partitions included.
Each = Callable[[Callable[[int, Any], Any]], list[Any]]


def plans_of(stats: list[dict[str, Any]], n_pos: Any, n_neg: Any) -> list[Plan]:
    """Each partition's :class:`Plan`, from every partition's totals (``summary``)."""
    n = np.array([st["n"] for st in stats], dtype=np.int64)
    offsets = np.concatenate([[0], np.cumsum(n)[:-1]])
    total = int(n.sum())
    pos = [st["pos"] for st in stats]
    neg = [st["neg"] for st in stats]
    tp_before = np.concatenate([[0], np.cumsum(pos)[:-1]]).astype(np.asarray(pos).dtype)
    fp_before = np.concatenate([[0], np.cumsum(neg)[:-1]]).astype(np.asarray(neg).dtype)
    first = [
        o + st["first_start"] if st["first_start"] >= 0 else -1
        for o, st in zip(offsets, stats, strict=True)
    ]
    last = [
        o + st["last_start"] if st["last_start"] >= 0 else -1
        for o, st in zip(offsets, stats, strict=True)
    ]
    plans = []
    for i in range(len(stats)):
        prev = max([-1, *last[:i]])
        nxt = min([total, *(f for f in first[i + 1 :] if f >= 0)])
        plans.append(
            Plan(int(offsets[i]), tp_before[i], fp_before[i], int(prev), int(nxt), n_pos, n_neg)
        )
    return plans


def interpolated_median(pieces: list[Any], n_pos: Any) -> float:
    """Boyd et al.'s interpolated-median area from the partitions' median pieces."""
    groups = np.concatenate([p[0] for p in pieces if p is not None])
    tps = np.concatenate([p[1] for p in pieces if p is not None]).astype(np.float64)
    values = np.concatenate([p[2] for p in pieces if p is not None])
    key, first, inverse = np.unique(groups, return_index=True, return_inverse=True)
    median = np.bincount(inverse, weights=values, minlength=key.shape[0])
    gtp = tps[first]
    gfp = gtp * (1.0 / median - 1.0)
    # one representative point per recall level, at its median precision: the engine's
    # estimator then finds exactly these medians
    return area_from_counts(gtp, np.maximum(gfp, 0.0), n_pos, "interpolated_median")


def _every_point(each: Each, n_pos: Any, n_neg: Any) -> PRCurve:
    """The whole curve, every partition collected (three arrays)."""
    parts = each(lambda _, part: load(part))
    s, pos, neg = (np.concatenate([p[j] for p in parts]) for j in range(3))
    return PRCurve.from_counts(BinaryCounts(s, np.cumsum(pos), np.cumsum(neg), n_pos, n_neg))


def _totals(
    each: Each, weighted: bool, stats: list[dict[str, Any]] | None
) -> tuple[list[dict[str, Any]], int, Any, Any]:
    """The partitions' totals (a first pass unless the engine has them), the number of
    distinct scores and the positive and negative totals (ints when unweighted)."""
    if stats is None:
        stats = each(lambda _, part: summary(part))
    n_pos = sum(st["pos"] for st in stats)
    n_neg = sum(st["neg"] for st in stats)
    if not weighted:
        n_pos, n_neg = int(n_pos), int(n_neg)
    return stats, int(sum(st["n"] for st in stats)), n_pos, n_neg


def counts_on_disk(
    each: Each,
    *,
    weighted: bool,
    dtypes: tuple[Any, Any],
    folder: Path,
    stats: list[dict[str, Any]] | None = None,
    fetch: Callable[[int], Any] | None = None,
) -> BinaryCounts:
    """The whole count table of the sorted table behind ``each``, written by the partitions
    into ``.npy`` files of ``folder`` and mapped from there (:mod:`prcurve._core._disk`): the
    exact counts of a curve of any length, never held in memory.

    ``dtypes`` are the scores' and the counts' dtypes; ``folder`` (readable and writable by
    every worker) is removed with the counts.  With ``fetch`` (partition index → the partition,
    here) the partitions are brought here one at a time and written from here instead: workers
    on other machines cannot write into a folder of this one.
    """
    stats, k, n_pos, n_neg = _totals(each, weighted, stats)
    for name, dtype in (("thresholds", dtypes[0]), ("tp", dtypes[1]), ("fp", dtypes[1])):
        np.lib.format.open_memmap(folder / f"{name}.npy", mode="w+", dtype=dtype, shape=(k,))
    plans = plans_of(stats, n_pos, n_neg)
    if fetch is None:
        each(lambda i, part: write_counts(part, plans[i], str(folder)))
    else:
        for i, plan in enumerate(plans):
            write_counts(fetch(i), plan, str(folder))
    thresholds, tp, fp = counts_from_files(folder, ("thresholds", "tp", "fp"))
    return BinaryCounts(thresholds, tp, fp, n_pos, n_neg)


def exact_passes(
    each: Each,
    *,
    weighted: bool,
    max_points: int | None,
    stats: list[dict[str, Any]] | None = None,
    write_to: str | None = None,
) -> tuple[PRCurve, int]:
    """The exact curve of the sorted table behind ``each`` and its number of distinct scores.

    A curve of at most ``max_points`` distinct scores (any length when None) is collected
    whole; a longer one is thinned to ``max_points`` (the ROC hull vertices, both end points,
    the rest spread along the path), with the full curve's areas, ROC AUC and precision-error
    bound in ``curve.thinning``.  ``stats`` are the partitions' totals when the engine already
    has them; ``write_to`` is a folder where every partition writes its full piece of the
    curve (Parquet), which needs the second and third passes whatever the length.
    """
    stats, k, n_pos, n_neg = _totals(each, weighted, stats)
    short = max_points is None or k <= max_points
    if short and write_to is None:
        return _every_point(each, n_pos, n_neg), k
    plans = plans_of(stats, n_pos, n_neg)
    second = each(lambda i, part: areas_and_hull(part, plans[i]))
    areas = {m: float(sum(r["areas"][m] for r in second)) for m in PAIRWISE}
    areas["interpolated_median"] = interpolated_median([r["median"] for r in second], n_pos)
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
    total = float(path_each.sum())
    budget = (k if max_points is None else max_points) - len(required)
    third = each(
        lambda i, part: fill_and_write(
            part, plans[i], float(path_before[i]), total, budget, write_to
        )
    )
    if short:  # written, and short: keep every point
        return _every_point(each, n_pos, n_neg), k
    for t in third:
        for s_, tp_, fp_, i in zip(*t, strict=True):
            required.setdefault(int(i), (s_, tp_, fp_))
    index = np.array(sorted(required), dtype=np.int64)
    rows = [required[int(i)] for i in index]
    thresholds = np.array([r[0] for r in rows], dtype=cand[0].dtype)
    tp = np.array([r[1] for r in rows], dtype=cand[1].dtype)
    fp = np.array([r[2] for r in rows], dtype=cand[2].dtype)
    kept = (index, tp, fp)
    err = max(each(lambda i, part: bound(part, plans[i], kept)))
    curve = PRCurve.from_counts(BinaryCounts(thresholds, tp, fp, n_pos, n_neg))
    curve = dataclasses.replace(curve, thinning=Thinning(k, float(err), areas, roc_auc))
    return curve, k
