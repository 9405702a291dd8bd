"""One-vs-rest PR curves of multiclass and multilabel problems, and their averaged AUC-PR."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._area import AUC_PR_METHODS
from .._core._counts import count_sorted
from .._core._empirical import PRCurve
from .._core._empirical import auc_pr as binary_auc_pr
from .._core._frame import curves_frame
from .._core._results import compact_repr
from .._core._validation import check_choice
from ._labels import MultiProblem, check_multi_problem

__all__ = ["AVERAGES", "MultiPRCurves", "auc_pr", "average_areas", "pr_curves"]

#: The averages of per-class AUC-PR (``None`` gives the per-class values).
AVERAGES = ("macro", "micro", "weighted")


def check_average(average: Any) -> str | None:
    """``None`` or one of :data:`AVERAGES`."""
    if average is None:
        return None
    return check_choice(average, "average", AVERAGES)


def average_areas(per_class: np.ndarray, support: np.ndarray, average: str) -> np.ndarray:
    """Macro or weighted average over the last axis (classes); ``support`` broadcasts.

    A class with zero support (possible in a bootstrap replicate) is left out of the macro
    average of that row; the weighted average gives it weight zero anyway.  A row in which no
    class has support has no average: NaN, for the caller to count and leave out.
    """
    present = support > 0
    if average == "weighted":
        w = np.where(present, support, 0.0)
    else:
        w = present.astype(np.float64)
    w = np.broadcast_to(w, per_class.shape)
    total = np.sum(w, axis=-1)
    num = np.sum(np.where(w > 0, per_class, 0.0) * w, axis=-1)
    return np.where(total > 0, num / np.where(total > 0, total, 1.0), np.nan)


@compact_repr
@dataclass(frozen=True)
class MultiPRCurves:
    """One-vs-rest PR curves of every class, and the micro-averaged curve.

    Attributes
    ----------
    classes : ndarray, shape (k,)
        The class of each score column.
    curves : tuple of PRCurve, length k
        Class ``j`` against the rest: positives are the instances of class ``j``, scores are
        column ``j``.
    micro : PRCurve
        The curve of the pooled (instance, class) pairs: ``n·k`` labelled scores, so its counts
        are the sums of the per-class counts at each threshold.
    support : ndarray, shape (k,)
        Number (total weight) of positives of each class.
    kind : {"multiclass", "multilabel"}

    Notes
    -----
    With ``AP_j`` the area of class ``j`` (any estimator) and ``n_j`` its support:

    * macro: ``(1/k) Σ_j AP_j`` — every class counts the same;
    * weighted: ``Σ_j n_j AP_j / Σ_j n_j`` — classes count by their number of positives;
    * micro: the area of :attr:`micro`, built from ``TP(t) = Σ_j TP_j(t)`` and
      ``FP(t) = Σ_j FP_j(t)`` — every (instance, class) decision counts the same, so frequent
      classes and classes with well-scaled scores dominate.

    These are scikit-learn's definitions for ``average_precision_score`` (multilabel, and
    multiclass through ``label_binarize``).
    """

    classes: np.ndarray
    curves: tuple[PRCurve, ...]
    micro: PRCurve
    support: np.ndarray
    kind: str

    def __len__(self) -> int:
        return len(self.curves)

    def curve(self, label: Any) -> PRCurve:
        """The one-vs-rest curve of class ``label``."""
        hits = np.flatnonzero(self.classes == label)
        if hits.size == 0:
            raise KeyError(f"label: expected one of {self.classes.tolist()!r}, got {label!r}")
        return self.curves[int(hits[0])]

    def auc(
        self, method: str = "average_precision", *, average: str | None = "macro"
    ) -> float | np.ndarray:
        """Averaged (or, with ``average=None``, per-class) AUC-PR by estimator ``method``."""
        check_choice(method, "method", tuple(AUC_PR_METHODS))
        average = check_average(average)
        if average == "micro":
            return self.micro.auc(method)
        per_class = np.array([c.auc(method) for c in self.curves])
        if average is None:
            return per_class
        return float(average_areas(per_class, np.asarray(self.support, float), average))

    def to_frame(self) -> Any:
        """Tidy pandas DataFrame of every operating point: column ``class`` (``"micro"`` for
        the pooled curve) then ``threshold``, ``tp``, ``fp``, ``precision``, ``recall``.

        Examples
        --------
        >>> from prcurve import pr_curves
        >>> scores = [[0.9, 0.1], [0.4, 0.6], [0.3, 0.7], [0.2, 0.8]]
        >>> df = pr_curves(["a", "b", "a", "b"], scores, labels=["a", "b"]).to_frame()
        >>> df.groupby("class").size().to_dict()
        {'a': 4, 'b': 4, 'micro': 8}
        """
        names = [*self.classes.tolist(), "micro"]
        return curves_frame("class", names, [*self.curves, self.micro])


def class_curves(problem: MultiProblem) -> tuple[PRCurve, ...]:
    """The one-vs-rest curve of every class (one sort each)."""
    ind, s, w = problem.indicator, problem.scores, problem.weight
    return tuple(
        PRCurve.from_counts(count_sorted(ind[:, j], s[:, j], w)) for j in range(s.shape[1])
    )


def micro_curve(problem: MultiProblem) -> PRCurve:
    """The curve of the pooled (instance, class) pairs (one sort of the n·k scores)."""
    ind, s, w = problem.indicator, problem.scores, problem.weight
    micro_w = None if w is None else np.repeat(w, s.shape[1])
    return PRCurve.from_counts(count_sorted(ind.ravel(), s.ravel(), micro_w))


def curves_of(problem: MultiProblem) -> MultiPRCurves:
    """Per-class and micro curves of a validated problem (one sort per class, one for micro)."""
    curves = class_curves(problem)
    support = np.array([c.n_pos for c in curves], dtype=np.float64)
    return MultiPRCurves(problem.classes, curves, micro_curve(problem), support, problem.kind)


def pr_curves(
    y_true: Any, y_score: Any, *, labels: Any = None, sample_weight: Any = None
) -> MultiPRCurves:
    """One-vs-rest PR curves of a multiclass or multilabel problem, and the micro curve.

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, k)
        Multiclass labels (one class per instance), or a 0/1 label-indicator matrix
        (multilabel: any number of classes per instance).  A pandas DataFrame indicator matrix
        names the classes by its columns.
    y_score : array-like of shape (n, k)
        Finite scores, column ``j`` for class ``j`` (e.g. ``predict_proba(X)``); larger means more
        likely.
    labels : array-like of shape (k,), optional
        The class of each score column.  By default the sorted distinct labels of ``y_true``
        (multiclass; scikit-learn's ``classes_`` order) or ``0 … k−1`` (indicator matrix).
    sample_weight : array-like of shape (n,), optional
        Non-negative instance weights, shared by every class.

    Returns
    -------
    MultiPRCurves
        See its Notes for the macro, weighted and micro averages.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import pr_curves
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 3, size=300)
    >>> scores = rng.normal(size=(300, 3)) + 1.5 * (y[:, None] == np.arange(3))
    >>> res = pr_curves(y, scores)
    >>> res.classes.tolist(), res.support.tolist() == np.bincount(y).tolist()
    ([0, 1, 2], True)
    >>> round(res.auc(average="macro"), 3), round(res.auc(average="micro"), 3)
    (0.736, 0.74)
    """
    problem = check_multi_problem(y_true, y_score, sample_weight=sample_weight, labels=labels)
    return curves_of(problem)


def _is_matrix(y_score: Any) -> bool:
    shape = np.shape(y_score)
    return len(shape) == 2 and shape[1] != 1


def auc_pr(
    y_true: Any,
    y_score: Any,
    *,
    method: str = "average_precision",
    average: str | None = "macro",
    labels: Any = None,
    sample_weight: Any = None,
    pos_label: Any = None,
    **options: Any,
) -> float | np.ndarray:
    """Area under the precision-recall curve, binary or one-vs-rest.

    Parameters
    ----------
    y_true : array-like of shape (n,) or (n, k)
        Binary labels with 1-D scores; multiclass labels or a 0/1 label-indicator matrix with an
        (n, k) score matrix.
    y_score : array-like of shape (n,) or (n, k)
        Scores; a 2-D matrix selects the one-vs-rest path.
    method : str
        The estimator, one of
        ``"average_precision"`` (default; ``Σ_k (R_k − R_{k−1}) P_k``, scikit-learn's),
        ``"davis_goadrich"``, ``"trapezoid"``, ``"lower_trapezoid"``,
        ``"interpolated_median"``: see the binary definitions in ``prcurve.pr_curve``'s
        :meth:`~prcurve.PRCurve.auc` and ``prcurve._core._empirical.auc_pr``.
    average : {"macro", "micro", "weighted"} or None
        Multi-output only (ignored for binary scores).  With ``AP_j`` the area of class ``j``
        against the rest and ``n_j`` its number of positives (total weight):
        ``"macro"``: ``(1/k) Σ_j AP_j``; ``"weighted"``: ``Σ_j n_j AP_j / Σ_j n_j``;
        ``"micro"``: the area of one curve pooling every (instance, class) pair,
        ``TP(t) = Σ_j TP_j(t)``, ``FP(t) = Σ_j FP_j(t)``; ``None``: the array of ``AP_j``.
    labels : array-like of shape (k,), optional
        The class of each score column (multi-output), see :func:`prcurve.pr_curves`.
    sample_weight : array-like of shape (n,), optional
    pos_label : optional
        Binary only: the positive label.
    **options
        Further options of the binary estimator (binary scores only).

    Returns
    -------
    float, or ndarray of shape (k,) with ``average=None``

    Notes
    -----
    The averages are scikit-learn's (``average_precision_score``), which they equal for
    ``method="average_precision"`` on indicator matrices and on multiclass labels binarised with
    ``label_binarize``.  Every class needs a positive and a negative instance.

    Examples
    --------
    >>> from prcurve import auc_pr
    >>> y, s = [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]
    >>> round(auc_pr(y, s), 4), round(auc_pr(y, s, method="davis_goadrich"), 4)
    (0.8333, 0.7973)
    >>> Y = [[1, 0], [0, 1], [1, 1], [0, 0]]
    >>> S = [[0.9, 0.2], [0.3, 0.7], [0.6, 0.4], [0.1, 0.5]]
    >>> float(auc_pr(Y, S, average="macro")), auc_pr(Y, S, average=None).round(3).tolist()
    (0.9166666666666666, [1.0, 0.833])
    """
    if not _is_matrix(y_score):
        return binary_auc_pr(
            y_true, y_score, method=method, sample_weight=sample_weight, pos_label=pos_label,
            **options,
        )  # fmt: skip
    check_choice(method, "method", tuple(AUC_PR_METHODS))
    average = check_average(average)
    if options:
        raise TypeError(
            f"{', '.join(sorted(options))}: not supported with a score matrix (one-vs-rest)"
        )
    if pos_label is not None:
        raise TypeError("pos_label: not used with a score matrix; pass labels=[...] instead")
    problem = check_multi_problem(y_true, y_score, sample_weight=sample_weight, labels=labels)
    if average == "micro":  # only the pooled curve is needed
        return micro_curve(problem).auc(method)
    curves = class_curves(problem)  # no pooled sort of the n·k scores
    per_class = np.array([c.auc(method) for c in curves])
    if average is None:
        return per_class
    support = np.array([c.n_pos for c in curves], dtype=np.float64)
    return float(average_areas(per_class, support, average))
