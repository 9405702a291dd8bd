"""The precision-recall curve each tool draws, whose area is the value it reports.

Where tools disagree on AUC-PR it is because they disagree on the curve: where it starts, which
points it has (one per threshold, per instance, per bin, or Davis–Goadrich points in between)
and how it joins them.  :class:`ToolCurve` holds a tool's vertices in the tool's order with the
join rule its area uses, so that ``curve.area()`` is the tool's value (every tool's curve is
tested to equal its :func:`prcurve.compat.auc_pr` to rounding) and the curves can be drawn on
one figure to *see* the difference.  Join rules:

* ``"step"`` (scikit-learn, torchmetrics): each vertex's precision holds back to the previous
  vertex's recall, the area is ``Σ (R_i − R_{i−1})·P_i`` (a ``steps-post`` line drawn from high
  recall to low, as scikit-learn's ``PrecisionRecallDisplay`` draws it);
* ``"linear"`` (Spark, precrec, PRROC's DG, ROCR, yardstick, auc.jar): straight lines, the
  trapezoid rule;
* ``"davis_goadrich"`` (Keras, PRROC's integral): the count-space interpolation between
  consecutive vertices, whose exact area needs the counts (``tp``, ``fp``) at each vertex.

The points are read from the one sorted count table, like the values (:mod:`._binned`,
:mod:`._interpolated`, :mod:`._rocr`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._counts import BinaryCounts, binary_counts
from .._core._interpolation import dg_segment_areas
from .._core._results import compact_repr
from ._auc import _is_half, check_counts, prepare
from ._binned import keras_counts, spark_counts, torch_binned_counts, torch_exact_counts
from ._interpolated import precrec_points
from ._rocr import rocr_points

__all__ = ["JOINS", "ToolCurve", "pr_curve", "pr_curve_from_counts", "tool_curve"]

#: How a :class:`ToolCurve` joins its vertices.
JOINS = ("step", "linear", "davis_goadrich")


@compact_repr
@dataclass(frozen=True)
class ToolCurve:
    """A tool's precision-recall curve: its vertices, in its order, and how it joins them.

    Attributes
    ----------
    tool : str
        The name in :data:`prcurve.compat.TOOLS`.
    recall, precision : ndarray
        The vertices in the tool's order (increasing recall, except ROCR's, whose inserted
        points land out of order).  Where the tool gives a vertex with no predicted positive
        a precision it is the tool's (scikit-learn's 1 at recall 0, torchmetrics's 0 for an
        empty bin, Keras's and PRROC's constant precision of the first segment).
    tp, fp : ndarray
        The (possibly fractional, interpolated) counts at each vertex.
    interpolation : str
        ``"step"``, ``"linear"`` or ``"davis_goadrich"`` (see the module docstring).
    n_pos : float
        Number (total weight) of positives.
    """

    tool: str
    recall: np.ndarray
    precision: np.ndarray
    tp: np.ndarray
    fp: np.ndarray
    interpolation: str
    n_pos: float

    def area(self) -> float:
        """The area under the curve by its join rule: the tool's AUC-PR."""
        r, p = self.recall, self.precision
        if self.interpolation == "step":
            return float(np.sum(np.diff(r) * p[1:]))
        if self.interpolation == "linear":
            return float(np.sum(np.diff(r) * (p[1:] + p[:-1])) / 2)
        areas = dg_segment_areas(self.tp[:-1], self.fp[:-1], self.tp[1:], self.fp[1:])
        return float(np.sum(areas) / self.n_pos)


def _precision(tp: np.ndarray, fp: np.ndarray, empty: float) -> np.ndarray:
    total = tp + fp
    return np.divide(tp, total, out=np.full(tp.shape, empty), where=total > 0)


def _backfill(precision: np.ndarray, tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    """Empty vertices (TP = FP = 0) take the precision of the first non-empty one after them:
    the Davis–Goadrich segment from the origin has that constant precision."""
    empty = tp + fp == 0
    if empty.any() and not empty.all():
        nxt = np.flatnonzero(~empty)
        precision = precision.copy()
        idx = np.searchsorted(nxt, np.flatnonzero(empty))
        precision[empty] = precision[nxt[np.minimum(idx, nxt.shape[0] - 1)]]
    return precision


def _from_origin(tp: np.ndarray, fp: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    zero = np.zeros(1)
    return np.concatenate([zero, tp]), np.concatenate([zero, fp])


def _dg_points(tp_a, fp_a, tp_b, fp_b, steps: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per segment A → B, the points at ``TP_A + x``, ``x = 1 … steps`` on the Davis–Goadrich
    interpolation (the last being B itself, exactly); ``steps >= 1``."""
    seg = np.repeat(np.arange(steps.shape[0]), steps)
    x = (np.arange(seg.shape[0]) - np.repeat(np.cumsum(steps) - steps, steps) + 1).astype(float)
    last = x == steps[seg]
    delta = (tp_b - tp_a)[seg]
    skew = np.divide((fp_b - fp_a)[seg], delta, out=np.zeros_like(x), where=~last)
    tp = np.where(last, tp_b[seg], tp_a[seg] + x)
    fp = np.where(last, fp_b[seg], fp_a[seg] + skew * x)
    return tp, fp


def _integer_steps(counts: BinaryCounts, tool: str) -> tuple[np.ndarray, np.ndarray]:
    """PRROC's DG points and auc.jar's points (see :mod:`._interpolated`), as counts."""
    tp = counts.tp.astype(np.float64)
    fp = counts.fp.astype(np.float64)
    if tool == "auc_jar":
        keep = tp > 0
        tp, fp = tp[keep], fp[keep]
        delta = np.rint(np.diff(tp)).astype(np.intp)
        steps = np.maximum(delta, 1)
    else:
        delta = np.rint(np.diff(tp)).astype(np.intp)
        p = tp / (tp + fp)
        steps = np.where((delta > 1) & (p[1:] != p[:-1]), delta, 1)
    mid_tp, mid_fp = _dg_points(tp[:-1], fp[:-1], tp[1:], fp[1:], steps)
    return np.concatenate([tp[:1], mid_tp]), np.concatenate([fp[:1], mid_fp])


def tool_curve(counts: BinaryCounts, tool: str, options: dict) -> ToolCurve:
    """The tool's curve from validated counts and options."""
    n_pos = float(counts.n_pos)
    join = "linear"
    if tool in ("sklearn", "torchmetrics", "torchmetrics_binned"):
        if tool == "sklearn":
            tp, fp = counts.tp, counts.fp
        elif options["thresholds"] is None:
            tp, fp = torch_exact_counts(counts, options.get("score_dtype"))
        else:
            tp, fp = (a[::-1] for a in torch_binned_counts(counts, **options))
        tp, fp = _from_origin(tp.astype(np.float64), fp.astype(np.float64))
        precision = _precision(tp, fp, 1.0 if tool != "torchmetrics_binned" else 0.0)
        precision[0] = 1.0
        join = "step"
    elif tool in ("keras", "prroc_integral"):
        if tool == "keras":
            tp, fp = (a[::-1].astype(np.float64) for a in keras_counts(counts, **options))
        else:
            tp, fp = _from_origin(counts.tp.astype(np.float64), counts.fp.astype(np.float64))
        precision = _backfill(_precision(tp, fp, 0.0), tp, fp)
        join = "davis_goadrich"
    elif tool == "spark":
        tp, fp = (a.astype(np.float64) for a in spark_counts(counts, **options))
        precision = _precision(tp, fp, 0.0)
        tp, fp = _from_origin(tp, fp)
        precision = np.concatenate([precision[:1], precision])
    elif tool == "yardstick":
        tp, fp = _from_origin(counts.tp.astype(np.float64), counts.fp.astype(np.float64))
        precision = _precision(tp, fp, 1.0)
    elif tool in ("prroc_dg", "auc_jar"):
        tp, fp = _integer_steps(counts, tool)
        precision = _precision(tp, fp, 0.0)
        # the first segment is a rectangle at the first point's precision
        tp, fp = _from_origin(tp, fp)
        precision = np.concatenate([precision[:1], precision])
    elif tool == "precrec":
        recall, precision, tp, fp = precrec_points(counts, **options)
        return ToolCurve(tool, recall, precision, tp, fp, join, n_pos)
    else:
        recall, precision, tp, fp = rocr_points(counts)
        return ToolCurve(tool, recall, precision, tp, fp, join, n_pos)
    return ToolCurve(tool, tp / n_pos, precision, tp, fp, join, n_pos)


def pr_curve_from_counts(counts: BinaryCounts, *, tool: str, **tool_options: Any) -> ToolCurve:
    """:func:`pr_curve` from the engine's sorted counts (any engine: memory, Dask, Spark)."""
    counts = check_counts(counts)
    tool, options = prepare(tool, tool_options, counts.weighted)
    return tool_curve(counts, tool, options)


def pr_curve(
    y_true: Any,
    y_score: Any,
    *,
    tool: str,
    sample_weight: Any = None,
    pos_label: Any = None,
    **tool_options: Any,
) -> ToolCurve:
    """The precision-recall curve another tool draws for these scores; its area is the tool's
    AUC-PR (:func:`prcurve.compat.auc_pr`).

    Parameters and options are those of :func:`prcurve.compat.auc_pr`.

    Returns
    -------
    ToolCurve
        The tool's vertices and the rule joining them (``"step"``, ``"linear"`` or
        ``"davis_goadrich"``); ``area()`` is the tool's value.

    Examples
    --------
    >>> from prcurve import compat
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.7, 0.7, 0.1]
    >>> c = compat.pr_curve(y, s, tool="spark")
    >>> c.recall.tolist(), c.precision.round(3).tolist(), c.interpolation
    ([0.0, 0.3333333333333333, 0.3333333333333333, 1.0, 1.0], [1.0, 1.0, 0.5, 0.6, 0.5], 'linear')
    >>> round(c.area(), 4) == round(compat.auc_pr(y, s, tool="spark"), 4)
    True
    """
    tool, options = prepare(tool, tool_options, sample_weight is not None)
    counts = binary_counts(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    if tool in ("torchmetrics", "torchmetrics_binned") and _is_half(y_score):
        options = {**options, "score_dtype": "float16"}  # torch's sigmoid runs in half
    return tool_curve(counts, tool, options)
