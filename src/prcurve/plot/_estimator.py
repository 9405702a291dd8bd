"""``from_estimator`` for the single-curve Displays (scikit-learn's workflow)."""

from __future__ import annotations

from typing import Any, TypeVar

from .._multi._sklearn import score_name, scores_from_estimator

__all__ = ["EstimatorMixin", "score_name"]

_D = TypeVar("_D")


class EstimatorMixin:
    """Adds :meth:`from_estimator` to a Display that has ``from_predictions``."""

    @classmethod
    def from_estimator(
        cls: Any,
        estimator: Any,
        X: Any,
        y: Any,
        *,
        sample_weight: Any = None,
        pos_label: Any = None,
        response_method: str = "auto",
        name: str | None = None,
        **kwargs: Any,
    ) -> Any:
        """Score ``X`` with a fitted binary classifier, then :meth:`from_predictions`.

        The scores are ``predict_proba(X)[:, i]`` of the positive class (``pos_label``, by
        default ``estimator.classes_[1]``) or else ``decision_function(X)``, as in
        scikit-learn's Displays; ``response_method`` forces one.  The curve is named after the
        estimator's class unless ``name`` is given.  Other keyword arguments go to
        :meth:`from_predictions`.

        Examples
        --------
        >>> from sklearn.datasets import make_classification
        >>> from sklearn.linear_model import LogisticRegression
        >>> from prcurve.plot import PRCurveDisplay
        >>> X, y = make_classification(n_samples=300, random_state=0)
        >>> clf = LogisticRegression().fit(X, y)
        >>> PRCurveDisplay.from_estimator(clf, X, y).name
        'LogisticRegression'
        """
        scores = scores_from_estimator(
            estimator, X, response_method=response_method, pos_label=pos_label
        )
        if pos_label is None:
            pos_label = estimator.classes_[1]
        return cls.from_predictions(
            y,
            scores,
            sample_weight=sample_weight,
            pos_label=pos_label,
            name=name if name is not None else type(estimator).__name__,
            **kwargs,
        )
