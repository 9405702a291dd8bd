"""Exact precision-recall analysis of data on Dask (``pip install prcurve[dask]``).

The functions take dask arrays or dask dataframe columns and never gather the rows: ties are
summed within each partition, the distinct scores are sorted out of core in score ranges chosen
from a sample (two passes of Dask tasks through a working folder, each task holding one
partition or one range: :mod:`prcurve.dask._sort`), and every AUC-PR estimator, the ROC AUC,
the ROC convex hull and a thinned curve are computed range by range with the counts carried
across ranges.  The results are exactly those of :func:`prcurve.pr_curve` on the same data
(counts exact, areas to rounding).

Dask is imported when a function is called, not by ``import prcurve``.
"""

from __future__ import annotations

from typing import Any

from .._core._area import AUC_PR_METHODS
from .._core._empirical import PRCurve
from .._core._validation import check_choice
from .._inference._auc_ci import AUCPRInterval, auc_pr_interval
from ._curve import compute_curve, scheduler_context

__all__ = ["auc_pr", "auc_pr_ci", "pr_curve"]


def pr_curve(
    y_true: Any,
    y_score: Any,
    *,
    sample_weight: Any = None,
    pos_label: Any = None,
    max_points: int = 2000,
    curve_path: Any = None,
    scheduler: Any = None,
    workdir: str | None = None,
    soft_labels: bool = False,
) -> PRCurve:
    """The exact PR curve of data on Dask, thinned to ``max_points`` when longer.

    Parameters
    ----------
    y_true, y_score, sample_weight : dask array or dask dataframe column, shape (n,)
        Labels, scores and optional non-negative weights (rows of weight zero are left out),
        as in :func:`prcurve.pr_curve`; dask arrays need equal chunks, columns one frame.
    pos_label : optional
        The label of the positive class.
    max_points : int
        A curve with more distinct scores is returned thinned (:meth:`PRCurve.thin`: the ROC
        hull vertices, both end points, the rest spread along the curve; ``curve.thinning``
        holds the bound on the precision error and every area of the full curve).
    curve_path : str or path, optional
        Write the full curve (``threshold, tp, fp, precision, recall``, thresholds
        decreasing) as a Parquet dataset in this directory (one file per partition).
    scheduler : optional
        None uses Dask's default (the current ``dask.distributed`` client if one exists, else
        the local threaded scheduler); or a scheduler name (``"threads"``, ``"processes"``,
        ``"sync"``), a ``distributed.Client``, or a scheduler address ``"tcp://host:8786"``.
    workdir : str, optional
        Where the sorted distinct scores are stored between passes: a temporary folder in this
        directory (default: the system's), removed at the end -- on a cluster, a directory
        every worker can read and write -- or ``"memory"`` to keep them in the workers' memory
        (then sorted by Dask's groupby-sum and ``sort_values``, which shuffle the rows).
    soft_labels : bool
        With True, ``y_true`` holds each row's probability ``p`` of being positive, as in
        :func:`prcurve.pr_curve`: the row adds ``p·w`` to the positives and ``(1 − p)·w`` to
        the negatives of its score.  Labels that are all 0 or 1 give the ordinary curve.
        (The same option, with the same meaning, in :func:`auc_pr` and :func:`auc_pr_ci`; the
        latter's number of positives is then Kish's ``(Σ p·w)² / Σ (p·w)²``.)

    Returns
    -------
    PRCurve

    Raises
    ------
    ValueError
        NaN or infinite scores (found before anything is sorted), bad labels or weights, a
        single class -- the in-memory messages.

    Notes
    -----
    Memory: the rows are read partition by partition, and each sorting task holds one
    partition or one range of about a million distinct scores (24 bytes each on disk and in
    memory, for float64 scores and int64 counts); the client holds a few numbers per
    partition, the ROC hull candidates, the returned points and, for the interpolated median,
    one number per recall level (at most the number of distinct positive scores).

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> import prcurve, prcurve.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(20_000) < 0.1
    >>> s = np.round(rng.normal(size=y.size) + y, 2)
    >>> curve = prcurve.dask.pr_curve(da.from_array(y, chunks=5000), da.from_array(s, chunks=5000))
    >>> bool(np.array_equal(curve.tp, prcurve.pr_curve(y, s).tp))
    True
    """
    with scheduler_context(scheduler):
        return compute_curve(
            y_true,
            y_score,
            sample_weight=sample_weight,
            pos_label=pos_label,
            max_points=max_points,
            curve_path=curve_path,
            workdir=workdir,
            soft_labels=soft_labels,
        ).curve


def auc_pr(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "average_precision",
    sample_weight: Any = None,
    pos_label: Any = None,
    scheduler: Any = None,
    workdir: str | None = None,
    soft_labels: bool = False,
) -> float:
    """Area under the PR curve of data on Dask, exactly (see :func:`prcurve.auc_pr`).

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> import prcurve, prcurve.dask
    >>> y, s = np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8])
    >>> round(prcurve.dask.auc_pr(da.from_array(y, 2), da.from_array(s, 2)), 4)
    0.8333
    """
    check_choice(method, "method", tuple(AUC_PR_METHODS))
    with scheduler_context(scheduler):
        curve = compute_curve(
            y_true,
            y_score,
            sample_weight=sample_weight,
            pos_label=pos_label,
            max_points=2,
            workdir=workdir,
            soft_labels=soft_labels,
        ).curve
    return curve.auc(method)


def auc_pr_ci(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "average_precision",
    interval: str = "logit",
    level: float = 0.95,
    sample_weight: Any = None,
    pos_label: Any = None,
    scheduler: Any = None,
    workdir: str | None = None,
    soft_labels: bool = False,
) -> AUCPRInterval:
    """AUC-PR with its binomial or logit interval (:func:`prcurve.auc_pr_interval`), on Dask.

    The interval needs only the estimate and the number of positives (Kish's effective number
    ``(Σw₊)²/Σw₊²`` with weights, summed over the rows), so nothing is collected.  Bootstrap
    intervals need the rows: use :func:`prcurve.auc_pr_ci` on a subsample.

    Examples
    --------
    >>> import numpy as np, dask.array as da
    >>> import prcurve, prcurve.dask
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(4000) < 0.2; s = rng.normal(size=4000) + y
    >>> got = prcurve.dask.auc_pr_ci(da.from_array(y, 1000), da.from_array(s, 1000))
    >>> ref = prcurve.auc_pr_ci(y, s)
    >>> bool(abs(got.interval.low - ref.interval.low) < 1e-12)
    True
    """
    check_choice(method, "method", tuple(AUC_PR_METHODS))
    with scheduler_context(scheduler):
        result = compute_curve(
            y_true,
            y_score,
            sample_weight=sample_weight,
            pos_label=pos_label,
            max_points=2,
            workdir=workdir,
            soft_labels=soft_labels,
        )
    return auc_pr_interval(
        result.curve.auc(method),
        result.n_pos_effective,
        interval=interval,
        level=level,
        method=method,
    )
