"""The exact PR curve of data on Dask: ties collapsed, scores sorted, passes over the pieces."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from .._core._counts import BinaryCounts
from .._core._disk import counts_from_files
from .._core._empirical import PRCurve
from .._core._validation import check_positive_int
from ._driver import counts_on_disk, exact_passes
from ._input import (
    BOOLEAN_LABELS,
    Checked,
    check_dask_problem,
    check_runs,
    checked_in_the_sort,
    dask_frame,
)
from ._sort import COUNT_COLUMNS, sort_distinct, sort_to_counts

__all__ = ["DaskCurve", "compute_counts", "compute_curve", "scheduler_context"]


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
    elif s.dtype.kind == "f":  # -0.0 is the score 0.0 (a groupby would keep two keys)
        s = s + s.dtype.type(0.0)
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


def _dtypes(frame: Any, checked: Checked) -> tuple[np.dtype, np.dtype]:
    """The dtypes of the sorted table's scores and counts."""
    score_dtype = frame["s"].dtype
    if score_dtype.kind == "b":
        score_dtype = np.dtype(np.float64)
    return score_dtype, np.dtype(np.float64 if checked.weighted else np.int64)


def _rows(frame: Any, checked: Checked) -> Any:
    """The rows as (score, positive weight, negative weight): :func:`_class_weights`."""
    import pandas as pd

    score_dtype, count_dtype = _dtypes(frame, checked)
    meta = pd.DataFrame(
        {
            "s": np.empty(0, score_dtype),
            "pos": np.empty(0, count_dtype),
            "neg": np.empty(0, count_dtype),
        }
    )
    return frame.map_partitions(
        _class_weights, checked.positive_labels, checked.weighted, checked.soft, meta=meta
    )


def _sorted_sources(
    frame: Any, checked: Checked, workdir: str | None
) -> tuple[list[Any], Any, list[dict[str, Any]] | None]:
    """The sorted table of distinct scores, in pieces (highest scores first), with the pieces'
    totals when already known; and the temporary folder to remove afterwards.

    On disk (the default): the two-pass range sort of :mod:`prcurve.dask._sort`, memory bounded
    by a partition or a range.  With ``workdir="memory"``: Dask's groupby-sum and sort, persisted
    in the workers' memory.
    """
    rows = _rows(frame, checked)
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


def compute_counts(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    workdir: str | None = None,
) -> BinaryCounts:
    """The exact counts of every distinct score, on disk (``prcurve._core._disk``).

    On disk (the default): the range sort of :mod:`prcurve.dask._sort` writes the count table
    straight into files of a folder in ``workdir`` (:func:`~._sort.sort_to_counts`), mapped by
    the returned counts.  With ``workdir="memory"`` (the sorted table in the workers' memory,
    which may be on other machines): the partitions of Dask's sorted table are brought here
    one at a time and written from here, into a temporary folder of this machine.
    """
    import dask

    frame = dask_frame(y_true, y_score, sample_weight)
    # the report's rows (boolean labels) are validated by the sort's first pass: one read of
    # the data fewer (about 2 s of 36 at 10⁸ rows)
    fused = workdir != "memory" and checked_in_the_sort(frame)
    checked = BOOLEAN_LABELS if fused else check_dask_problem(frame, None, False)
    dtypes = _dtypes(frame, checked)
    if workdir != "memory":
        target = Path(tempfile.mkdtemp(prefix="prcurve-counts-", dir=workdir))
        try:
            k, n_pos, n_neg = sort_to_counts(
                _rows(frame, checked), target, dtypes, check=check_runs if fused else None
            )
            if not checked.weighted:
                n_pos, n_neg = int(n_pos), int(n_neg)
            columns = counts_from_files(
                target, COUNT_COLUMNS, raw=((dtypes[0], dtypes[1], dtypes[1]), k)
            )
        except BaseException:
            shutil.rmtree(target, ignore_errors=True)
            raise
        thresholds, tp, fp = columns
        return BinaryCounts(thresholds, tp, fp, n_pos, n_neg)
    sources, _, stats = _sorted_sources(frame, checked, workdir)
    target = Path(tempfile.mkdtemp(prefix="prcurve-counts-"))
    try:

        def each(func: Any) -> list[Any]:
            return list(dask.compute(*[dask.delayed(func)(i, s) for i, s in enumerate(sources)]))

        def fetch(i: int) -> Any:
            return dask.compute(sources[i])[0]

        return counts_on_disk(
            each, weighted=checked.weighted, dtypes=dtypes, folder=target, stats=stats,
            fetch=fetch,
        )  # fmt: skip
    except BaseException:
        shutil.rmtree(target, ignore_errors=True)
        raise


def _passes(
    sources: list[Any],
    checked: Checked,
    max_points: int,
    curve_path: Any,
    stats: list[dict[str, Any]] | None = None,
) -> DaskCurve:
    import dask

    def each(func: Any) -> list[Any]:
        return list(dask.compute(*[dask.delayed(func)(i, s) for i, s in enumerate(sources)]))

    write_to = None
    if curve_path is not None:
        write_to = os.fspath(curve_path)
        Path(write_to).mkdir(parents=True, exist_ok=True)
    curve, k = exact_passes(
        each, weighted=checked.weighted, max_points=max_points, stats=stats, write_to=write_to
    )
    return DaskCurve(curve, checked.n_rows, k, checked.n_pos_effective)
