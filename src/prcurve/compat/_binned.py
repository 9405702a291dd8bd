"""Tools that count at fewer thresholds than the distinct scores: Spark, Keras, torchmetrics.

Every function reads the engine's one sorted count table (:class:`~prcurve.BinaryCounts`,
thresholds decreasing, cumulative TP/FP): a tool's bins are groups of its rows, so the counts
at a bin boundary are the cumulative counts of the last distinct score the bin admits.

Sources (read, not copied):

* Spark: ``mllib/src/main/scala/org/apache/spark/mllib/evaluation/
  BinaryClassificationMetrics.scala`` (``cumulativeCounts`` groups consecutive distinct scores
  into chunks of ``countsSize / numBins``, a chunk's point being its last, lowest score; ``pr()``
  prepends ``(0, precision of the first point)``) and ``AreaUnderCurve.scala`` (``of``: the
  trapezoid rule).  ``pyspark.ml.evaluation.BinaryClassificationEvaluator`` defaults to
  ``numBins=1000``; ``BinaryClassificationMetrics`` alone to 0 (no binning).  Chunks are formed
  per partition in Spark; this is the one-partition result.
* Keras 3 (and tf.keras): ``keras/src/metrics/confusion_metrics.py`` ``AUC`` (thresholds
  ``[−ε, 1/(T−1), …, (T−2)/(T−1), 1+ε]``; ``interpolate_pr_auc``) and
  ``keras/src/metrics/metrics_utils.py`` ``update_confusion_matrix_variables`` (scores clipped
  to [0, 1]; with evenly spaced thresholds an instance lands in bucket
  ``max(⌈s·(T−1)⌉ − 1, 0)`` computed in float32, i.e. it counts at every threshold it exceeds).
  Keras's closed form ``slope·(ΔTP + intercept·ln(P_B/P_A))`` is the exact Davis–Goadrich
  integral over each pair of consecutive thresholds, and a constant-precision rectangle from an
  empty bin: :func:`prcurve._core._interpolation.dg_segment_areas` on the binned counts.
* torchmetrics: ``functional/classification/precision_recall_curve.py``
  (``_binary_precision_recall_curve_format``: a sigmoid when any score is outside [0, 1],
  in the scores' dtype; ``_adjust_threshold_arg``: ``torch.linspace(0, 1, T)``, or a list
  made a float32 tensor and kept in its order; ``_update_vectorized``: ``score >= threshold``;
  ``_compute``: NaN precision of an empty bin, a final point (recall 0, precision 1)) and
  ``functional/classification/average_precision.py`` (``_binary_average_precision_compute``:
  NaN → 0, ``−Σ (R_{i+1} − R_i)·P_i``, over the thresholds in the order given -- unsorted
  thresholds give the tool's unsorted sum).  Checked against torchmetrics itself
  (``tests/compat/test_torch_tools.py``), which showed three details the source reading missed:
  torch's float32 ``linspace`` (not NumPy's, which differs by one ulp at some grid points: a
  score exactly on such a point is counted differently), the order of a threshold list, and a
  half-precision sigmoid (which saturates at 1 above about 8, merging more scores into ties).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from scipy.special import expit

from .._core._blocks import count_blocks
from .._core._counts import BinaryCounts
from .._core._disk import WRITE_BLOCK, first_index, release
from .._core._interpolation import dg_segment_areas

__all__ = [
    "keras_area",
    "keras_counts",
    "spark_area",
    "spark_counts",
    "torch_binned_counts",
    "torch_exact_counts",
    "torchmetrics_area",
]


def spark_counts(counts: BinaryCounts, *, num_bins: int) -> tuple[np.ndarray, np.ndarray]:
    """Spark's points: the cumulative counts at the end of each chunk of distinct scores."""
    tp, fp = counts.tp, counts.fp
    k = tp.shape[0]
    grouping = k // num_bins if num_bins > 0 else 0
    if grouping >= 2:
        # chunks of `grouping` consecutive distinct scores; the last chunk may be shorter
        ends = np.arange(grouping - 1, k, grouping)
        if ends[-1] != k - 1:
            ends = np.append(ends, k - 1)
        tp, fp = tp[ends], fp[ends]
    return tp, fp


def spark_area(counts: BinaryCounts, *, num_bins: int) -> float:
    """Spark's ``areaUnderPR``: trapezoid from ``(0, first precision)`` over the (binned) points."""
    tp, fp = spark_counts(counts, num_bins=num_bins)
    recall = np.concatenate([[0.0], tp / counts.n_pos])
    precision = tp / np.add(tp, fp, dtype=np.float64)
    precision = np.concatenate([precision[:1], precision])
    return float(np.sum(np.diff(recall) * (precision[1:] + precision[:-1])) / 2)


def _keras_bucket(thresholds: np.ndarray, t: int) -> np.ndarray:
    """Keras's bucket of each score: ``ceil(s·(T − 1)) − 1`` in float32, at least 0."""
    s32 = np.clip(thresholds.astype(np.float32), np.float32(0), np.float32(1))
    bucket = np.ceil(s32 * np.float32(t - 1)) - np.float32(1)
    return np.maximum(bucket, 0).astype(np.intp)


def keras_counts(counts: BinaryCounts, *, num_thresholds: int) -> tuple[np.ndarray, np.ndarray]:
    """Keras's counts at its thresholds ``j = 0 … T−1`` (increasing: counts decreasing).

    The positive and negative mass of each bucket is summed block by block of the counts' points
    (:func:`~prcurve._core._blocks.count_blocks`): a few megabytes of temporaries at any size.
    """
    t = num_thresholds
    pos, neg = np.zeros(t), np.zeros(t)
    lo = 0
    for tp_prev, fp_prev, tp_b, fp_b in count_blocks(counts.tp, counts.fp):
        bucket = _keras_bucket(counts.thresholds[lo : lo + tp_b.shape[0]], t)
        release(counts.thresholds[lo : lo + tp_b.shape[0]])  # a table on disk: pages go back
        lo += tp_b.shape[0]
        pos += np.bincount(bucket, weights=tp_b - tp_prev, minlength=t)
        neg += np.bincount(bucket, weights=fp_b - fp_prev, minlength=t)
    # counts at threshold j: every bucket >= j (cumulative from the top threshold down)
    tp = np.cumsum(pos[::-1])[::-1]
    fp = np.cumsum(neg[::-1])[::-1]
    return tp, fp


def keras_area(counts: BinaryCounts, *, num_thresholds: int) -> float:
    """Keras ``AUC(curve="PR")``: the Davis–Goadrich area through ``num_thresholds`` bins."""
    tp, fp = keras_counts(counts, num_thresholds=num_thresholds)
    # consecutive thresholds j+1 (fewer predicted) -> j; threshold T-1 (1+ε) admits nothing
    areas = dg_segment_areas(tp[1:], fp[1:], tp[:-1], fp[:-1])
    return float(np.sum(areas) / counts.n_pos)


def _torch_scores(thresholds: np.ndarray, score_dtype: str | None = None) -> np.ndarray:
    """torchmetrics's input normalisation: a sigmoid when any score is outside [0, 1].

    Computed in the scores' own floating dtype, as torch would: float32 saturates at 1.0 for
    scores above about 17, float16 above about 8 (torch's half kernels compute in float32 and
    round once to half), merging them into one tie.  ``score_dtype="float16"`` when the input
    was half precision (the engine holds such scores as float64, exactly).
    """
    return _normalised(thresholds, bool(_outside01(thresholds).any()), score_dtype)


def _outside01(thresholds: np.ndarray) -> np.ndarray:
    s = thresholds if thresholds.dtype.kind == "f" else thresholds.astype(np.float64)
    return (s < 0) | (s > 1)


def _normalised(thresholds: np.ndarray, sigmoid: bool, score_dtype: str | None) -> np.ndarray:
    """:func:`_torch_scores` of some of the scores, the sigmoid decided on all of them."""
    s = thresholds if thresholds.dtype.kind == "f" else thresholds.astype(np.float64)
    if sigmoid:
        if score_dtype == "float16":
            return expit(s.astype(np.float32)).astype(np.float16)
        s = expit(s)
    return s


def _torch_blocks(
    counts: BinaryCounts, score_dtype: str | None
) -> Iterator[tuple[slice, np.ndarray]]:
    """:func:`_torch_scores` block by block: a few temporaries of one block (and a table on
    disk read once; :mod:`prcurve._core._disk`)."""
    th = counts.thresholds
    k = th.shape[0]
    sigmoid = first_index(k, lambda b: _outside01(th[b]), th) < k
    for lo in range(0, k, WRITE_BLOCK):
        b = slice(lo, min(lo + WRITE_BLOCK, k))
        yield b, _normalised(th[b], sigmoid, score_dtype)
        release(th[b])


def _torch_exact_ap(counts: BinaryCounts, score_dtype: str | None) -> float:
    """Average precision of :func:`torch_exact_counts`, its points found and summed block by
    block (the last point of a block waits for the next block's first score)."""
    total, tp_before = 0.0, 0.0
    pending: tuple[np.ndarray, np.ndarray] | None = None
    last_value = None

    def add(t: np.ndarray, f: np.ndarray) -> None:
        nonlocal total, tp_before
        if t.shape[0]:
            d = np.diff(np.concatenate([[tp_before], t]))
            total += float(np.dot(d, t / (t + f)))
            tp_before = float(t[-1])

    for b, v in _torch_blocks(counts, score_dtype):
        t, f = counts.tp[b].astype(np.float64), counts.fp[b].astype(np.float64)
        if pending is not None and v[0] != last_value:
            add(*pending)
        last = np.flatnonzero(v[1:] != v[:-1])
        add(t[last], f[last])
        pending, last_value = (t[-1:], f[-1:]), v[-1]
        release(counts.tp[b])
        release(counts.fp[b])
    if pending is not None:
        add(*pending)
    return min(total / float(counts.n_pos), 1.0)


def _merge_equal(values: np.ndarray, counts: BinaryCounts) -> tuple[np.ndarray, np.ndarray]:
    """Counts at the distinct ``values`` (non-increasing): the last row of each run."""
    last = np.ones(values.shape[0], dtype=bool)
    last[:-1] = values[1:] != values[:-1]
    return counts.tp[last], counts.fp[last]


def torch_linspace01(steps: int) -> np.ndarray:
    """``torch.linspace(0, 1, steps)`` (float32, CPU): the step rounded to float32, each point
    ``step·i`` from 0 for the first half and ``1 − step·(steps − 1 − i)`` for the second,
    computed in float64 and rounded once.  NumPy's float32 ``linspace`` differs by one ulp at
    some points (for ``steps=1000``, at 121 of them)."""
    step = np.float64(np.float32(1) / np.float32(steps - 1))
    i = np.arange(steps, dtype=np.float64)
    return np.where(i < steps // 2, step * i, 1.0 - step * (steps - 1 - i)).astype(np.float32)


def torch_exact_counts(
    counts: BinaryCounts, score_dtype: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """torchmetrics's exact points: the counts at the distinct (sigmoid-normalised) scores."""
    return _merge_equal(_torch_scores(counts.thresholds, score_dtype), counts)


def torch_binned_counts(
    counts: BinaryCounts, *, thresholds, score_dtype: str | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """torchmetrics's binned counts at its thresholds: its own float32 grid for a number, a
    list in the order given (as torchmetrics takes it)."""
    grid = (
        torch_linspace01(int(thresholds))
        if isinstance(thresholds, int | np.integer)
        else np.asarray(thresholds)  # in the order given, as torchmetrics takes it
    ).astype(np.float64)
    # number of distinct scores >= each threshold (scores decreasing), summed over blocks
    admitted = np.zeros(grid.shape[0], dtype=np.int64)
    for _, s in _torch_blocks(counts, score_dtype):
        admitted += np.searchsorted(-s.astype(np.float64), -grid, side="right")
    at = np.maximum(admitted - 1, 0)
    tp = np.where(admitted > 0, counts.tp[at].astype(np.float64), 0.0)
    return tp, np.where(admitted > 0, counts.fp[at].astype(np.float64), 0.0)


def torchmetrics_area(counts: BinaryCounts, *, thresholds, score_dtype: str | None = None) -> float:
    """torchmetrics ``BinaryAveragePrecision``: exact (``thresholds=None``) or binned."""
    if thresholds is None:  # its runs found in blocks (the same in memory and on disk)
        return _torch_exact_ap(counts, score_dtype)
    tp, fp = torch_binned_counts(counts, thresholds=thresholds, score_dtype=score_dtype)
    total = tp + fp
    precision = np.divide(tp, total, out=np.zeros_like(tp), where=total > 0)
    recall = np.append(tp / counts.n_pos, 0.0)
    return float(np.sum((recall[:-1] - recall[1:]) * precision))
