"""Exact precision-recall analysis of a Spark DataFrame (``pip install prcurve[spark]``).

The functions take a ``pyspark.sql.DataFrame`` and the names of its label, score and optional
weight columns, and never collect the rows: Spark's ``groupBy`` sums the positive and negative
weight of every distinct score, Spark's ``orderBy`` sorts the distinct scores, and the passes
of the Dask engine (:mod:`prcurve.dask._passes`) run on the executors over the sorted
partitions, with the counts carried across partitions from their totals.  The results are
exactly those of :func:`prcurve.pr_curve` on the same data: the same thresholds and int64
counts, the same areas to rounding (weighted counts are float sums taken in another order:
equal when the sums are exact, e.g. integer or dyadic weights, else within ``2 n u``).

Spark MLlib's ``BinaryClassificationMetrics`` is approximate by design (``numBins`` groups
consecutive scores; its PR area is a trapezoid from ``(0, first precision)``); to reproduce
its number, use ``prcurve.compat.auc_pr(..., tool="spark")``.

PySpark is imported when a function is called, not by ``import prcurve``; the executors need
prcurve installed (the passes run there).
"""

from __future__ import annotations

from typing import Any

from .._core._area import AUC_PR_METHODS
from .._core._empirical import PRCurve
from .._core._validation import check_choice
from .._inference._auc_ci import AUCPRInterval, auc_pr_interval
from ._curve import SparkCurve, compute_curve

__all__ = ["SparkCurve", "auc_pr", "auc_pr_ci", "pr_curve"]


def pr_curve(
    frame: Any,
    *,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    pos_label: Any = None,
    max_points: int | None = 2000,
) -> PRCurve:
    """The exact PR curve of a Spark DataFrame, thinned to ``max_points`` when longer.

    Parameters
    ----------
    frame : pyspark.sql.DataFrame
        The data, one row per instance.
    label_col, score_col, weight_col : str
        Column names: labels (two classes, read as :func:`prcurve.pr_curve` reads them),
        numeric scores (integers stay exact), optional non-negative weights (rows of weight
        zero are left out).
    pos_label : optional
        The label of the positive class.
    max_points : int or None
        A curve with more distinct scores is returned thinned (:meth:`PRCurve.thin`: the ROC
        hull vertices, both end points, the rest spread along the curve; ``curve.thinning``
        holds the bound on the precision error and every area of the full curve).  None
        returns every operating point.

    Returns
    -------
    PRCurve

    Raises
    ------
    ValueError
        Null, NaN or infinite scores (found before anything is sorted), bad labels or weights,
        a single class -- the in-memory messages, naming the column parameter.

    Notes
    -----
    Cost: one aggregation over the rows to validate them, one shuffle of the rows by score
    (partial sums on the map side) and one sort of the distinct scores, then one pass over the
    sorted distinct scores per step (four when thinned).  Executor memory: one partition of
    the distinct scores (24 bytes each for double scores and long counts).  Driver memory: a
    few numbers per partition, the ROC hull candidates, the returned points and, for the
    interpolated median, one number per recall level (at most the number of distinct
    positive scores) -- unless ``max_points=None`` or the curve is short: then every distinct
    score is collected, 24 bytes each (24 MB per million distinct scores, so 240 MB when 10⁷
    continuous scores are all distinct; Spark's ``spark.driver.maxResultSize``, 1 GB by
    default, caps what can be collected).

    Examples
    --------
    ``spark`` is a ``pyspark.sql.SparkSession``:

    >>> import prcurve.spark
    >>> rows = [(1, 0.9), (0, 0.8), (1, 0.7), (0, 0.1), (1, 0.4), (0, 0.4)]
    >>> df = spark.createDataFrame(rows, ["label", "score"])
    >>> curve = prcurve.spark.pr_curve(df, label_col="label", score_col="score")
    >>> round(curve.auc("davis_goadrich"), 4), round(curve.auc("average_precision"), 4)
    (0.7407, 0.7556)
    """
    return compute_curve(
        frame,
        label_col=label_col,
        score_col=score_col,
        weight_col=weight_col,
        pos_label=pos_label,
        max_points=max_points,
    ).curve


def auc_pr(
    frame: Any,
    *,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    method: str = "average_precision",
    pos_label: Any = None,
) -> float:
    """Area under the PR curve of a Spark DataFrame, exactly (see :func:`prcurve.auc_pr`).

    The area is summed partition by partition on the executors; the driver never holds the
    curve.
    """
    check_choice(method, "method", tuple(AUC_PR_METHODS))
    curve = compute_curve(
        frame,
        label_col=label_col,
        score_col=score_col,
        weight_col=weight_col,
        pos_label=pos_label,
        max_points=2,
    ).curve
    return curve.auc(method)


def auc_pr_ci(
    frame: Any,
    *,
    label_col: str = "label",
    score_col: str = "score",
    weight_col: str | None = None,
    method: str = "average_precision",
    interval: str = "logit",
    level: float = 0.95,
    pos_label: Any = None,
) -> AUCPRInterval:
    """AUC-PR with its binomial or logit interval (:func:`prcurve.auc_pr_interval`), on Spark.

    The interval needs only the estimate and the number of positives (Kish's effective number
    ``(Σw₊)²/Σw₊²`` with weights), so nothing is collected.  Bootstrap intervals need the
    rows: use :func:`prcurve.auc_pr_ci` on a stratified subsample collected to the driver
    (``prcurve report --engine spark`` draws one per class and rescales its widths).
    """
    check_choice(method, "method", tuple(AUC_PR_METHODS))
    result = compute_curve(
        frame,
        label_col=label_col,
        score_col=score_col,
        weight_col=weight_col,
        pos_label=pos_label,
        max_points=2,
    )
    return auc_pr_interval(
        result.curve.auc(method),
        result.n_pos_effective,
        interval=interval,
        level=level,
        method=method,
    )
