"""The exact PR curve of data on Dask: ties collapsed, scores sorted, passes over the pieces."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._core._area import AUC_PR_METHODS, area_from_counts
from .._core._counts import BinaryCounts
from .._core._empirical import PRCurve
from .._core._hull import upper_hull_indices
from .._core._thin import Thinning
from .._core._validation import check_positive_int
from ._input import Checked, check_dask_problem, dask_frame
from ._passes import PAIRWISE, Plan, areas_and_hull, bound, fill_and_write, load, summary
from ._sort import sort_distinct

__all__ = ["DaskCurve", "compute_curve", "scheduler_context"]


@dataclass(frozen=True)
class DaskCurve:
    """What the Dask engine returns: the (possibly thinned) curve and facts about the data."""

    curve: PRCurve
    n_rows: int
    n_distinct: int
    n_pos_effective: float


@contextlib.contextmanager
def scheduler_context(scheduler: Any) -> Iterator[None]:
    """Run Dask computations on ``scheduler``: None (Dask's default: the current
    ``dask.distributed`` client if any, else the local threaded scheduler), a scheduler name, a
    ``distributed.Client`` or a scheduler address (a client is then opened for the call)."""
    import dask

    if scheduler is None:
        yield
        return
    if isinstance(scheduler, str) and ("://" in scheduler or ":" in scheduler):
        from distributed import Client

        with Client(scheduler) as client, dask.config.set(scheduler=client):
            yield
        return
    with dask.config.set(scheduler=scheduler):
        yield


def _class_weights(part: Any, positive: list[Any], weighted: bool, soft: bool = False) -> Any:
    """Rows as (score, positive weight, negative weight); zero-weight rows dropped.

    Soft labels ``p`` (probabilities of being positive) give ``p·w`` and ``(1 − p)·w``.
    """
    import pandas as pd

    s = part["s"].to_numpy()
    if s.dtype == bool:
        s = s.astype(np.float64)
    if soft:
        p = part["y"].to_numpy().astype(np.float64)
        if "w" not in part:
            return pd.DataFrame({"s": s, "pos": p, "neg": 1.0 - p})
        w = part["w"].to_numpy().astype(np.float64)
        keep = w > 0
        s, w, p = s[keep], w[keep], p[keep]
        return pd.DataFrame({"s": s, "pos": p * w, "neg": (1.0 - p) * w})
    is_pos = np.isin(part["y"].to_numpy(), positive)
    if not weighted:
        p = is_pos.astype(np.int64)
        return pd.DataFrame({"s": s, "pos": p, "neg": 1 - p})
    w = part["w"].to_numpy().astype(np.float64)
    keep = w > 0
    s, w, is_pos = s[keep], w[keep], is_pos[keep]
    p = np.where(is_pos, w, 0.0)
    return pd.DataFrame({"s": s, "pos": p, "neg": w - p})


def _sorted_sources(
    frame: Any, checked: Checked, workdir: str | None
) -> tuple[list[Any], Any, list[dict[str, Any]] | None]:
    """The sorted table of distinct scores, in pieces (highest scores first), with the pieces'
    totals when already known; and the temporary folder to remove afterwards.

    On disk (the default): the two-pass range sort of :mod:`prcurve.dask._sort`, memory bounded
    by a partition or a range.  With ``workdir="memory"``: Dask's groupby-sum and sort, persisted
    in the workers' memory.
    """
    import pandas as pd

    score_dtype = frame["s"].dtype
    if score_dtype.kind == "b":
        score_dtype = np.dtype(np.float64)
    count_dtype = np.float64 if checked.weighted else np.int64
    meta = pd.DataFrame(
        {
            "s": np.empty(0, score_dtype),
            "pos": np.empty(0, count_dtype),
            "neg": np.empty(0, count_dtype),
        }
    )
    rows = frame.map_partitions(
        _class_weights, checked.positive_labels, checked.weighted, checked.soft, meta=meta
    )
    if workdir == "memory":
        distinct = rows.groupby("s").sum(split_out=max(1, frame.npartitions))
        ordered = distinct.reset_index().sort_values("s", ascending=False).persist()
        return list(ordered.to_delayed()), None, None
    folder = Path(tempfile.mkdtemp(prefix="prcurve-dask-", dir=workdir))
    try:
        sources, stats = sort_distinct(rows, folder)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)
        raise
    return sources, folder, stats


def _plans(stats: list[dict[str, Any]], n_pos: Any, n_neg: Any) -> list[Plan]:
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


def _interpolated_median(pieces: list[Any], n_pos: Any) -> float:
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


def compute_curve(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    max_points: int = 2000,
    curve_path: Any = None,
    workdir: str | None = None,
    soft_labels: bool = False,
) -> DaskCurve:
    """The exact curve (thinned when longer than ``max_points``); see ``prcurve.dask.pr_curve``."""

    max_points = check_positive_int(max_points, "max_points", minimum=2)
    frame = dask_frame(y_true, y_score, sample_weight)
    checked = check_dask_problem(frame, pos_label, soft_labels)
    sources, folder, stats = _sorted_sources(frame, checked, workdir)
    try:
        return _passes(sources, checked, max_points, curve_path, stats)
    finally:
        if folder is not None:
            shutil.rmtree(folder, ignore_errors=True)


def _passes(
    sources: list[Any],
    checked: Checked,
    max_points: int,
    curve_path: Any,
    stats: list[dict[str, Any]] | None = None,
) -> DaskCurve:
    import dask

    delayed = dask.delayed
    if stats is None:
        stats = list(dask.compute(*[delayed(summary)(s) for s in sources]))
    k = sum(st["n"] for st in stats)
    n_pos = sum(st["pos"] for st in stats)
    n_neg = sum(st["neg"] for st in stats)
    if not checked.weighted:
        n_pos, n_neg = int(n_pos), int(n_neg)
    write_to = None
    if curve_path is not None:
        write_to = os.fspath(curve_path)
        Path(write_to).mkdir(parents=True, exist_ok=True)
    if k <= max_points and write_to is None:
        parts = dask.compute(*[delayed(load)(s) for s in sources])
        s = np.concatenate([p[0] for p in parts])
        pos = np.concatenate([p[1] for p in parts])
        neg = np.concatenate([p[2] for p in parts])
        counts = BinaryCounts(s, np.cumsum(pos), np.cumsum(neg), n_pos, n_neg)
        return DaskCurve(PRCurve.from_counts(counts), checked.n_rows, k, checked.n_pos_effective)
    plans = _plans(stats, n_pos, n_neg)
    second = dask.compute(
        *[delayed(areas_and_hull)(s, p) for s, p in zip(sources, plans, strict=True)]
    )
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
    budget = max_points - len(required)
    third = dask.compute(
        *[
            delayed(fill_and_write)(s, p, float(b), float(path_each.sum()), budget, write_to)
            for s, p, b in zip(sources, plans, path_before, strict=True)
        ]
    )
    if k <= max_points:  # written, and small: keep every point
        parts = dask.compute(*[delayed(load)(s) for s in sources])
        s = np.concatenate([p[0] for p in parts])
        counts = BinaryCounts(
            s,
            np.cumsum(np.concatenate([p[1] for p in parts])),
            np.cumsum(np.concatenate([p[2] for p in parts])),
            n_pos,
            n_neg,
        )
        return DaskCurve(PRCurve.from_counts(counts), checked.n_rows, k, checked.n_pos_effective)
    for t in third:
        for s_, tp_, fp_, i in zip(*t, strict=True):
            required.setdefault(int(i), (s_, tp_, fp_))
    index = np.array(sorted(required), dtype=np.int64)
    rows = [required[int(i)] for i in index]
    thresholds = np.array([r[0] for r in rows], dtype=cand[0].dtype)
    tp = np.array([r[1] for r in rows], dtype=cand[1].dtype)
    fp = np.array([r[2] for r in rows], dtype=cand[2].dtype)
    kept = (index, tp, fp)
    err = max(
        dask.compute(*[delayed(bound)(s, p, kept) for s, p in zip(sources, plans, strict=True)])
    )
    curve = PRCurve.from_counts(BinaryCounts(thresholds, tp, fp, n_pos, n_neg))
    curve = dataclasses.replace(curve, thinning=Thinning(k, float(err), areas, roc_auc))
    return DaskCurve(curve, checked.n_rows, k, checked.n_pos_effective)
