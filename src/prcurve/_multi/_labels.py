"""Validation of multi-output problems: labels (multiclass or indicator matrix) and an (n, k)
score matrix become a boolean indicator matrix, finite scores and the class labels."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._results import compact_repr

__all__ = ["MultiProblem", "check_multi_problem", "check_weights", "finite_matrix"]


@compact_repr
@dataclass(frozen=True)
class MultiProblem:
    """A validated one-vs-rest problem (internal).

    Attributes
    ----------
    indicator : ndarray of bool, shape (n, k)
        ``indicator[i, j]``: instance ``i`` belongs to class ``j``.
    scores : ndarray of float64, shape (n, k)
    weight : ndarray of float64, shape (n,), or None
        Positive weights (instances of weight zero removed).
    classes : ndarray, shape (k,)
        The label of each column.
    kind : {"multiclass", "multilabel"}
    """

    indicator: np.ndarray
    scores: np.ndarray
    weight: np.ndarray | None
    classes: np.ndarray
    kind: str


def finite_matrix(value: Any, name: str) -> np.ndarray:
    """A 2-D float64 matrix of finite numbers, or a clear error naming the first bad cell."""
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected a numeric matrix, got {type(value).__name__}") from None
    if arr.ndim != 2:
        raise ValueError(f"{name}: expected a 2-D score matrix (n, k), got shape {arr.shape}")
    if arr.dtype.kind == "c":
        raise TypeError(f"{name}: expected real numbers, got complex values")
    try:
        arr = arr.astype(np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"{name}: expected numbers, got values of type {arr.dtype}") from None
    bad = ~np.isfinite(arr)
    if bad.any():
        i, j = (int(v[0]) for v in np.nonzero(bad))
        raise ValueError(
            f"{name}: expected finite numbers, got {arr[i, j].item()!r} at row {i}, column {j} "
            f"({int(bad.sum())} non-finite value{'s' if bad.sum() > 1 else ''} in total)"
        )
    return arr


def check_weights(sample_weight: Any, n: int) -> np.ndarray | None:
    """Non-negative finite weights of length ``n`` (not all zero), or None."""
    if sample_weight is None:
        return None
    w = np.asarray(sample_weight)
    if w.ndim != 1 or w.shape[0] != n:
        raise ValueError(f"sample_weight: expected shape ({n},), got {w.shape}")
    try:
        w = w.astype(np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"sample_weight: expected numbers, got values of type {w.dtype}") from None
    bad = ~np.isfinite(w) | (w < 0)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise ValueError(
            f"sample_weight: expected finite non-negative weights, got {w[i].item()!r} at index {i}"
        )
    if not (w > 0).any():
        raise ValueError("sample_weight: expected some positive weight, got all zeros")
    return w


def _indicator(y: np.ndarray, k: int, labels: Any, columns: Any) -> tuple[np.ndarray, np.ndarray]:
    """An indicator matrix given as such (multilabel)."""
    if y.shape[1] != k:
        raise ValueError(
            f"y_true and y_score: expected the same number of columns, got {y.shape[1]} and {k}"
        )
    if y.dtype == bool:
        ind = y
    else:
        try:
            num = y.astype(np.float64)
        except (TypeError, ValueError):
            raise TypeError(
                f"y_true: expected a 0/1 indicator matrix, got values of type {y.dtype}"
            ) from None
        bad = ~np.isin(num, (0.0, 1.0))
        if bad.any():
            i, j = (int(v[0]) for v in np.nonzero(bad))
            raise ValueError(
                f"y_true: expected a 0/1 indicator matrix, got {y[i, j].item()!r} "
                f"at row {i}, column {j}"
            )
        ind = num == 1.0
    if labels is not None:
        classes = np.asarray(labels)
        if classes.shape != (k,):
            raise ValueError(f"labels: expected {k} labels (one per column), got {classes.shape}")
    elif columns is not None:
        classes = np.asarray(list(columns))
    else:
        classes = np.arange(k)
    return ind, classes


def _multiclass(y: np.ndarray, k: int, labels: Any) -> tuple[np.ndarray, np.ndarray]:
    """Multiclass labels, one per instance, against k score columns."""
    if y.dtype == object and any(v is None for v in y):
        raise ValueError("y_true: expected class labels, got None")
    present = np.unique(y)
    if labels is None:
        if present.shape[0] == 2 and k == 2:
            raise ValueError(
                f"y_score: expected a 1-D array of scores with two-class labels, got shape "
                f"{y.shape[0], k} (two columns, like predict_proba's output); pass the positive "
                "class's column, y_score[:, 1], or pass labels=[...] for a two-class "
                "one-vs-rest problem"
            )
        if present.shape[0] != k:
            raise ValueError(
                f"y_true: expected {k} classes (one per score column), got {present.shape[0]}: "
                f"{present[:8].tolist()}; pass labels=[...] naming the class of each column"
            )
        classes = present
    else:
        classes = np.asarray(labels)
        if classes.shape != (k,) or np.unique(classes).shape[0] != k:
            raise ValueError(
                f"labels: expected {k} distinct labels (one per score column), got "
                f"{classes.tolist()!r}"
            )
        unknown = present[~np.isin(present, classes)]
        if unknown.size:
            raise ValueError(
                f"y_true: expected labels among {classes.tolist()!r}, got {unknown[0].item()!r}"
            )
    return y[:, None] == classes[None, :], classes


def check_multi_problem(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, labels: Any = None
) -> MultiProblem:
    """Validate labels and an (n, k) score matrix for one-vs-rest analysis.

    ``y_true`` is either multiclass labels of shape (n,) (classes ``labels``, or the sorted
    distinct labels, one per score column) or an indicator matrix of shape (n, k).
    Every class needs at least one positive and one negative instance (of positive weight).
    """
    if y_true is None:
        raise TypeError("y_true: expected an array-like of labels, got None")
    scores = finite_matrix(y_score, "y_score")
    n, k = scores.shape
    if k < 2:
        raise ValueError(f"y_score: expected at least 2 columns (classes), got {k}")
    columns = getattr(y_true, "columns", None)
    y = np.asarray(y_true)
    if y.shape[0] != n:
        raise ValueError(
            f"y_true and y_score: expected the same number of rows, got {y.shape[0]} and {n}"
        )
    if n == 0:
        raise ValueError("y_true: expected at least one sample, got an empty array")
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim == 2:
        ind, classes = _indicator(y, k, labels, columns)
        kind = "multilabel"
    elif y.ndim == 1:
        ind, classes = _multiclass(y, k, labels)
        kind = "multiclass"
    else:
        raise ValueError(f"y_true: expected shape (n,) or (n, k), got {y.shape}")
    w = check_weights(sample_weight, n)
    if w is not None and not (w > 0).all():
        keep = w > 0
        ind, scores, w = ind[keep], scores[keep], w[keep]
    n_pos = ind.sum(axis=0)
    for j in range(k):
        if n_pos[j] == 0 or n_pos[j] == ind.shape[0]:
            missing = "positive" if n_pos[j] == 0 else "negative"
            raise ValueError(
                f"y_true: class {classes[j].item()!r} has no {missing} instance"
                f"{' of positive weight' if w is not None else ''}; its PR curve is undefined "
                "(drop its score column, or evaluate on data that contain it)"
            )
    return MultiProblem(ind, scores, w, classes, kind)
