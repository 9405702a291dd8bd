"""Scorers for scikit-learn model selection, each the value of one operating-point rule.

A constrained objective ("the highest recall with precision at least 0.9") is a score of a
ranking, not of hard predictions: the threshold is chosen on the scored test fold by exactly the
rule of :func:`prcurve.operating_point` (``prcurve._core._operating``) and the scorer returns the
quantity the rule maximises there -- recall for ``min_precision`` and ``max_fpr``, precision for
``min_recall`` and ``top_k``.  So a scorer's value on a fold *is* ``operating_point(...)`` on that
fold's predictions; nothing here chooses a threshold a second way.

The scorers are built on scikit-learn's own :func:`sklearn.metrics.make_scorer` (as
:func:`prcurve.make_scorer` is), so ``GridSearchCV``, ``cross_validate`` and every ``scoring=``
accept them, pass ``sample_weight`` through, and pickle them.
"""

from __future__ import annotations

import numbers
from typing import Any

from .._core._operating import check_criterion
from .._inference._operating_ci import operating_point
from .._inference._partial_ci import check_deployment_prevalence

__all__ = ["SCORED", "InfeasibleTargetError", "make_operating_scorer", "operating_score"]

#: criterion -> the quantity the rule maximises, which the scorer returns.
SCORED = {
    "min_precision": "recall",
    "min_recall": "precision",
    "max_fpr": "recall",
    "top_k": "precision",
}


def _criterion_kwargs(criterion: str, target: float) -> dict[str, Any]:
    """``{criterion: target}``, for :func:`prcurve.operating_point`'s keyword arguments."""
    return {criterion: target}


class InfeasibleTargetError(ValueError):
    """No threshold meets the target on the scored data (raised with ``infeasible="raise"``)."""


def _check_infeasible(infeasible: Any) -> float | str:
    """``"raise"`` or a number in [0, 1] (never NaN: a missing score must not pass silently)."""
    if isinstance(infeasible, str):
        if infeasible != "raise":
            raise ValueError(
                f"infeasible: expected 'raise' or a number in [0, 1], got {infeasible!r}"
            )
        return infeasible
    if isinstance(infeasible, bool) or not isinstance(infeasible, numbers.Real):
        raise TypeError(
            f"infeasible: expected 'raise' or a number in [0, 1], got "
            f"{type(infeasible).__name__} {infeasible!r}"
        )
    value = float(infeasible)
    if not 0.0 <= value <= 1.0:  # also refuses NaN
        raise ValueError(f"infeasible: expected 'raise' or a number in [0, 1], got {infeasible!r}")
    return value


def operating_score(
    y_true: Any,
    y_score: Any,
    *,
    criterion: str,
    target: float,
    prevalence: Any = None,
    infeasible: float | str = 0.0,
    sample_weight: Any = None,
    pos_label: Any = None,
) -> float:
    """The value of one operating-point rule on scored data (the scorers' score function).

    ``criterion``/``target`` as :func:`~prcurve._core._operating.check_criterion` returns them;
    the rest as in :func:`make_operating_scorer`.  Returns ``operating_point(...).recall`` (for
    ``min_precision``, ``max_fpr``) or ``.precision`` (``min_recall``, ``top_k``).
    """
    point = operating_point(
        y_true, y_score, **_criterion_kwargs(criterion, target), prevalence=prevalence,
        sample_weight=sample_weight, pos_label=pos_label,
    )  # fmt: skip
    if not point.feasible:
        if infeasible == "raise":
            raise InfeasibleTargetError(f"{criterion}: {point.reason}")
        return float(infeasible)
    value = point.recall if SCORED[criterion] == "recall" else point.precision
    assert value is not None
    return float(value)


def make_operating_scorer(
    *,
    min_precision: float | None = None,
    min_recall: float | None = None,
    max_fpr: float | None = None,
    top_k: float | None = None,
    prevalence: Any = None,
    pos_label: Any = None,
    infeasible: float | str = 0.0,
    response_method: Any = ("decision_function", "predict_proba"),
) -> Any:
    """A scikit-learn scorer: the best a threshold achieves under a constraint, on each test fold.

    Give exactly one criterion; the scorer chooses the threshold on the scored fold by the rule
    of :func:`prcurve.operating_point` and returns what that rule maximises:

    =================  =========================================================
    criterion          score
    =================  =========================================================
    ``min_precision``  recall at a minimum precision
    ``min_recall``     precision at a minimum recall
    ``max_fpr``        recall at a maximum false-positive rate
    ``top_k``          precision among the (at most) ``k`` highest-scored rows
    =================  =========================================================

    Parameters
    ----------
    min_precision, min_recall, max_fpr, top_k : float, optional
        Exactly one, with the meaning (and ties rule) of :func:`prcurve.operating_point`.
        ``top_k`` counts rows of each scored fold (a total weight with sample weights).
    prevalence : float in (0, 1) or (int, int), optional
        Deployment prevalence at which precision is computed (and ``min_precision`` met); see
        :func:`prcurve.operating_point`.  Not with ``top_k``.
    pos_label : optional
        The positive class: its column of ``predict_proba`` is scored, as in scikit-learn's
        scorers (default: the estimator's last class; labels must then be 0/1 or boolean).
    infeasible : float in [0, 1] or "raise"
        The score of a fold on which no threshold meets the target.  Default 0.0: the value of
        predicting nothing positive (recall 0), so a model that cannot meet the constraint ranks
        below every model that can.  ``"raise"`` raises :class:`InfeasibleTargetError` (a
        ``ValueError``) instead, which scikit-learn's ``error_score`` then handles
        (``error_score=np.nan`` records NaN *and warns*; ``"raise"`` stops).  NaN is refused
        here: a missing score is never returned silently.
    response_method : str or tuple of str
        The estimator methods to score with, tried in order (scikit-learn's argument).  The
        score depends only on the order of the scores, so either method gives the same value.

    Returns
    -------
    scorer
        A scikit-learn scorer (``scorer(estimator, X, y, sample_weight=None)``), picklable.

    Raises
    ------
    ValueError, TypeError
        A missing or doubled criterion, a target out of range, a bad ``prevalence`` or
        ``infeasible``, or ``prevalence`` with ``top_k``.

    Notes
    -----
    The rules are those of ``prcurve._core._operating`` (Neyman–Pearson for ``max_fpr``); every
    score is read off the fold's one sorted count table.  Larger is better for all four, as
    scikit-learn's model selection expects.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn.model_selection import cross_val_score
    >>> from prcurve.sklearn import make_operating_scorer
    >>> X, y = make_classification(n_samples=600, weights=[0.8], random_state=0)
    >>> scorer = make_operating_scorer(min_precision=0.9)
    >>> scores = cross_val_score(LogisticRegression(), X, y, cv=3, scoring=scorer)
    >>> bool(((scores >= 0) & (scores <= 1)).all())
    True
    """
    criterion, target = check_criterion(min_precision, min_recall, top_k, max_fpr)
    if prevalence is not None:
        check_deployment_prevalence(prevalence)
        if criterion == "top_k":
            raise ValueError(
                "prevalence: expected None with top_k (k counts rows of the scored fold), "
                f"got {prevalence!r}"
            )
    infeasible = _check_infeasible(infeasible)
    from ._dependency import require_sklearn

    metrics = require_sklearn("sklearn.metrics")
    kwargs: dict[str, Any] = dict(
        criterion=criterion, target=target, prevalence=prevalence, infeasible=infeasible
    )
    if pos_label is not None:
        kwargs["pos_label"] = pos_label
    return metrics.make_scorer(operating_score, response_method=response_method, **kwargs)
