"""The scikit-learn workflow: scores from fitted estimators, ``cross_validate`` output, and
scorers for model selection.  scikit-learn is imported lazily, only by :func:`make_scorer`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from .._core._area import AUC_PR_METHODS
from .._core._validation import check_choice
from ._curves import auc_pr, check_average

__all__ = [
    "RESPONSE_METHODS",
    "fold_scores_from_cv_results",
    "make_scorer",
    "score_name",
    "scores_from_estimator",
]

RESPONSE_METHODS = ("auto", "predict_proba", "decision_function")


def score_name(values: Any) -> str | None:
    """The ``name`` of a pandas Series (a string), used as a curve name; else None."""
    name = getattr(values, "name", None)
    return name if isinstance(name, str) else None


def _select(values: Any, rows: Any) -> Any:
    """Rows of an array or a pandas object (positional)."""
    iloc = getattr(values, "iloc", None)
    return iloc[rows] if iloc is not None else np.asarray(values)[rows]


def scores_from_estimator(
    estimator: Any, X: Any, *, response_method: str = "auto", pos_label: Any = None
) -> np.ndarray:
    """Binary scores of a fitted classifier, as scikit-learn's Displays obtain them.

    ``predict_proba(X)[:, i]`` for the positive class ``i`` (``pos_label``, by default the
    second of ``estimator.classes_``), else ``decision_function(X)`` (negated when ``pos_label``
    is the first class).  ``response_method`` forces one of the two.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve._multi._sklearn import scores_from_estimator
    >>> class Stub:
    ...     classes_ = np.array([0, 1])
    ...     def predict_proba(self, X):
    ...         return np.column_stack([1 - X[:, 0], X[:, 0]])
    >>> scores_from_estimator(Stub(), np.array([[0.2], [0.9]])).tolist()
    [0.2, 0.9]
    """
    check_choice(response_method, "response_method", RESPONSE_METHODS)
    classes = getattr(estimator, "classes_", None)
    if classes is None:
        raise TypeError(
            f"estimator: expected a fitted classifier (with classes_), got "
            f"{type(estimator).__name__}"
        )
    classes = np.asarray(classes)
    if classes.shape[0] != 2:
        raise ValueError(
            f"estimator: expected a binary classifier, got {classes.shape[0]} classes "
            f"{classes.tolist()!r}; use prcurve.pr_curves with predict_proba(X) for one-vs-rest"
        )
    if pos_label is None:
        pos = 1
    else:
        hits = np.flatnonzero(classes == pos_label)
        if hits.size == 0:
            raise ValueError(
                f"pos_label: expected one of the estimator's classes {classes.tolist()!r}, "
                f"got {pos_label!r}"
            )
        pos = int(hits[0])
    order: tuple[str, ...] = ("predict_proba", "decision_function")
    if response_method != "auto":
        order = (response_method,)
    for name in order:
        fn = getattr(estimator, name, None)
        if fn is None:
            continue
        out = np.asarray(fn(X))
        if name == "predict_proba":
            return out[:, pos]
        out = out.reshape(-1)
        return out if pos == 1 else -out
    raise TypeError(
        f"estimator: {type(estimator).__name__} has no {' or '.join(order)} method to score with"
    )


def fold_scores_from_cv_results(
    cv_results: Mapping[str, Any],
    X: Any,
    y: Any,
    *,
    response_method: str = "auto",
    pos_label: Any = None,
) -> tuple[list[Any], list[np.ndarray]]:
    """Per-fold (test labels, out-of-fold scores) from ``cross_validate`` output.

    ``cv_results`` must come from ``cross_validate(..., return_estimator=True,
    return_indices=True)``: each fold's fitted estimator scores that fold's test indices.
    """
    if not isinstance(cv_results, Mapping):
        raise TypeError(
            f"cv_results: expected the dict returned by cross_validate, got "
            f"{type(cv_results).__name__}"
        )
    missing = [k for k in ("estimator", "indices") if k not in cv_results]
    if missing:
        raise ValueError(
            f"cv_results: expected keys 'estimator' and 'indices' (call cross_validate with "
            f"return_estimator=True, return_indices=True), got no {missing[0]!r}"
        )
    estimators = cv_results["estimator"]
    tests = cv_results["indices"]["test"]
    labels, scores = [], []
    for est, test in zip(estimators, tests, strict=True):
        labels.append(np.asarray(_select(y, test)))
        scores.append(
            scores_from_estimator(
                est, _select(X, test), response_method=response_method, pos_label=pos_label
            )
        )
    return labels, scores


def make_scorer(
    method: str = "average_precision",
    *,
    average: str | None = "macro",
    response_method: Any = ("decision_function", "predict_proba"),
    **kwargs: Any,
) -> Any:
    """A scikit-learn scorer of AUC-PR by any prcurve estimator (for ``GridSearchCV`` etc.).

    Built on :func:`sklearn.metrics.make_scorer` with :func:`prcurve.auc_pr` as the score
    function, so binary problems are scored on the positive class's scores and multiclass
    problems on the full ``predict_proba``/``decision_function`` matrix with ``average``.

    Parameters
    ----------
    method : str
        AUC-PR estimator (see :func:`prcurve.auc_pr`).
    average : {"macro", "micro", "weighted"}
        Average for multiclass / multilabel problems.
    response_method : str or tuple of str
        Passed to scikit-learn: the estimator methods to try, in order.
    **kwargs
        More keyword arguments for :func:`prcurve.auc_pr`.

    Notes
    -----
    A class's one-vs-rest curve needs a positive instance, so in multiclass model selection
    every class must appear in every test split (use stratified splits); otherwise scoring
    raises an error naming the problem rather than returning a silent value.

    Examples
    --------
    >>> from prcurve import make_scorer
    >>> scorer = make_scorer("davis_goadrich")
    >>> type(scorer).__name__
    '_Scorer'
    """
    check_choice(method, "method", tuple(AUC_PR_METHODS))
    average = check_average(average)
    try:
        from sklearn.metrics import make_scorer as sk_make_scorer
    except ImportError as exc:  # pragma: no cover - scikit-learn is installed for the tests
        raise ImportError(
            "make_scorer: scikit-learn is needed; install it with `pip install prcurve[sklearn]`"
        ) from exc
    return sk_make_scorer(
        auc_pr, response_method=response_method, method=method, average=average, **kwargs
    )
