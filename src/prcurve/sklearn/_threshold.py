"""A classifier whose decision threshold is tuned, out of fold, to meet a constraint.

scikit-learn's ``TunedThresholdClassifierCV`` maximises one score over thresholds; a constrained
objective -- "the highest recall with precision at least 0.9" -- is a different rule, and the one
prcurve already has: :func:`prcurve.operating_point`.  This meta-estimator cross-validates the
estimator, pools its out-of-fold scores, applies that rule to them (with its bootstrap interval
for the threshold), checks fold by fold whether a threshold so chosen keeps the constraint on
data it was not chosen on (:mod:`prcurve.sklearn._folds`), and refits on all the data.

scikit-learn is imported when this module is loaded: an estimator class must derive from
scikit-learn's bases.  Only ``import prcurve.sklearn`` loads it, after checking that
scikit-learn is installed; ``import prcurve`` never does.
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.model_selection import check_cv, cross_validate
from sklearn.utils import _safe_indexing, indexable
from sklearn.utils.metaestimators import available_if
from sklearn.utils.multiclass import check_classification_targets, type_of_target
from sklearn.utils.validation import check_array, check_is_fitted, column_or_1d

from .._core._operating import TargetNotMetWarning, check_criterion
from .._core._validation import check_choice
from .._inference._operating_ci import operating_point
from .._inference._partial_ci import check_deployment_prevalence
from .._multi._sklearn import RESPONSE_METHODS, scores_from_estimator
from ._folds import fold_results
from ._scorers import InfeasibleTargetError, _criterion_kwargs

__all__ = ["ConstrainedThresholdClassifierCV"]


def _not_scored(estimator: Any, X: Any, y: Any) -> float:
    """``cross_validate``'s scoring, unused: the folds are scored by the rule afterwards (and the
    default, ``estimator.score``, would cost a prediction and require ``predict``)."""
    return 0.0


def _estimator_has(attr: str) -> Any:
    """For ``available_if``: the fitted (else the given) estimator has ``attr``."""

    def check(self: Any) -> bool:
        inner = getattr(self, "estimator_", self.estimator)
        getattr(inner, attr)  # AttributeError hides the method
        return True

    return check


class ConstrainedThresholdClassifierCV(ClassifierMixin, MetaEstimatorMixin, BaseEstimator):
    """Binary classifier with its threshold tuned out of fold to meet a constraint.

    Fits ``estimator`` on each cross-validation split, scores each held-out fold, and chooses
    the threshold on the pooled out-of-fold scores by the rule of :func:`prcurve.operating_point`
    (e.g. the highest recall with precision ``>= min_precision``); then refits ``estimator`` on
    all the data.  :meth:`predict` predicts the positive class when the refitted estimator's
    score is ``>= threshold_``.

    Parameters
    ----------
    estimator : classifier
        A binary scikit-learn classifier (or pipeline) with ``predict_proba`` or
        ``decision_function``; cloned, never fitted in place.
    min_precision, min_recall, max_fpr, top_k : float, optional
        Exactly one: the constraint, as in :func:`prcurve.operating_point`.  ``top_k`` counts
        rows of the training data (``k`` of ``n``; at prediction the same *share* applies).
    prevalence : float in (0, 1) or (int, int), optional
        Deployment prevalence at which precision is computed and ``min_precision`` met (see
        :func:`prcurve.operating_point`).  Not with ``top_k``.
    cv : int, cross-validation splitter or iterable, default 5
        As in scikit-learn (an int means ``StratifiedKFold``).  Every test fold must hold both
        classes.
    response_method : {"auto", "predict_proba", "decision_function"}
        The score thresholded (``"auto"``: ``predict_proba``, else ``decision_function``).
    pos_label : optional
        The positive class (default: the second of the sorted classes).
    level : float
        Confidence level of :attr:`threshold_interval_`.
    n_resamples : int
        Bootstrap replicates for the interval.
    rng : None, int or numpy.random.Generator
        Randomness of the bootstrap (not of the splits: seed ``cv`` for those).
    n_jobs : int, optional
        Parallel fits of the cross-validation (scikit-learn's ``n_jobs``).

    Attributes
    ----------
    estimator_ : classifier
        ``estimator`` refitted on all the data.
    classes_ : ndarray of shape (2,)
    threshold_ : float
        The chosen threshold, one of the out-of-fold scores.
    threshold_interval_ : ConfidenceInterval or None
        Bootstrap percentile interval of the threshold (the rule applied again in every
        replicate of the out-of-fold scores; see :func:`prcurve.operating_point`).
    operating_point_ : OperatingPoint
        The whole choice on the pooled out-of-fold scores: precision, recall, FPR, counts and
        their intervals.
    fold_results_ : FoldResults
        Per fold, the threshold chosen on the *other* folds and whether the constraint held on
        this one (:class:`prcurve.sklearn.FoldResults`).
    n_features_in_, feature_names_in_
        Of the refitted estimator, when it has them.

    Raises
    ------
    InfeasibleTargetError
        From :meth:`fit` when no threshold meets the target on the out-of-fold scores (the
        message gives the best value reached).

    Notes
    -----
    Pooling out-of-fold scores assumes the folds' models score on one scale (as
    ``cross_val_predict`` does); the per-fold results show how far that holds.  scikit-learn's
    ``TunedThresholdClassifierCV`` instead averages each fold's objective curve; with one
    validation split and a score maximised by the same rule both choose the same threshold
    (``tests/sklearn/test_threshold.py``).  The threshold interval ignores the refit on all the
    data: it describes the out-of-fold models' threshold.  The rule meets the target on the
    sample, so the deployed classifier's true precision straddles it: in
    ``examples/coverage_constrained_threshold.py`` (binormal, n = 2000, ``min_precision=0.8``)
    it reached 0.8 in 50 % of 300 repetitions, estimated by ``fold_results_.met_fraction``
    (mean 0.556), while the 95 % intervals covered the true precision 0.943, recall 0.930 and
    threshold 0.960.

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.linear_model import LogisticRegression
    >>> from prcurve.sklearn import ConstrainedThresholdClassifierCV
    >>> X, y = make_classification(n_samples=1000, weights=[0.8], random_state=0)
    >>> clf = ConstrainedThresholdClassifierCV(
    ...     LogisticRegression(), min_precision=0.9, n_resamples=200, rng=0
    ... ).fit(X, y)
    >>> bool(clf.operating_point_.precision >= 0.9), clf.fold_results_.met.shape
    (True, (5,))
    >>> clf.predict(X[:3]).shape
    (3,)
    """

    def __init__(
        self,
        estimator: Any,
        *,
        min_precision: float | None = None,
        min_recall: float | None = None,
        max_fpr: float | None = None,
        top_k: float | None = None,
        prevalence: Any = None,
        cv: Any = 5,
        response_method: str = "auto",
        pos_label: Any = None,
        level: float = 0.95,
        n_resamples: int = 1000,
        rng: Any = None,
        n_jobs: int | None = None,
    ) -> None:
        self.estimator = estimator
        self.min_precision = min_precision
        self.min_recall = min_recall
        self.max_fpr = max_fpr
        self.top_k = top_k
        self.prevalence = prevalence
        self.cv = cv
        self.response_method = response_method
        self.pos_label = pos_label
        self.level = level
        self.n_resamples = n_resamples
        self.rng = rng
        self.n_jobs = n_jobs

    def _criterion(self) -> tuple[str, float]:
        criterion, target = check_criterion(
            self.min_precision, self.min_recall, self.top_k, self.max_fpr
        )
        if self.prevalence is not None:
            check_deployment_prevalence(self.prevalence)
            if criterion == "top_k":
                raise ValueError(
                    "prevalence: expected None with top_k (k counts rows of the training data), "
                    f"got {self.prevalence!r}"
                )
        check_choice(self.response_method, "response_method", RESPONSE_METHODS)
        return criterion, target

    def _binary_labels(self, y: Any) -> tuple[np.ndarray, Any]:
        """``y`` as a 1-d array, checked binary; and the positive class."""
        if y is None:
            raise ValueError(
                "y: expected binary labels, got None (ConstrainedThresholdClassifierCV requires "
                "y to be passed, but the target y is None)"
            )
        y = check_array(y, ensure_2d=False, dtype=None, input_name="y")  # no NaN or inf
        check_classification_targets(y)
        y = column_or_1d(y, warn=True)
        kind = type_of_target(y)
        classes = np.unique(y)
        if kind != "binary" or classes.shape[0] != 2:
            raise ValueError(
                f"y: expected binary labels (2 classes), got {classes.shape[0]} class(es) "
                f"({kind} target). Only binary classification is supported."
            )
        if self.pos_label is None:
            return y, classes[1]
        if not (classes == self.pos_label).any():
            raise ValueError(
                f"pos_label: expected one of the classes {classes.tolist()!r}, got "
                f"{self.pos_label!r}"
            )
        return y, self.pos_label

    def fit(self, X: Any, y: Any) -> ConstrainedThresholdClassifierCV:
        """Cross-validate, choose the threshold out of fold, check it per fold, refit.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Passed to ``estimator`` as is.
        y : array-like of shape (n_samples,)
            Binary labels.

        Returns
        -------
        self
        """
        criterion, target = self._criterion()
        X, y = indexable(X, y)  # sparse matrices as CSR: rows can be selected
        y, positive = self._binary_labels(y)
        splitter = check_cv(self.cv, y, classifier=True)
        cv = cross_validate(
            clone(self.estimator), X, y, cv=splitter, n_jobs=self.n_jobs, error_score="raise",
            scoring=_not_scored, return_estimator=True, return_indices=True,
        )  # fmt: skip
        labels, scores = [], []
        for i, (est, test) in enumerate(zip(cv["estimator"], cv["indices"]["test"], strict=True)):
            fold_y = np.asarray(_safe_indexing(y, test)) == positive
            n_pos = int(np.count_nonzero(fold_y))
            if n_pos in (0, fold_y.shape[0]):
                raise ValueError(
                    f"cv: expected every test fold to hold both classes, got fold {i} with "
                    f"{n_pos} positives among {fold_y.shape[0]} rows (use a stratified splitter)"
                )
            labels.append(fold_y)
            fold_X = _safe_indexing(X, test)
            method = self.response_method
            scores.append(
                scores_from_estimator(est, fold_X, response_method=method, pos_label=positive)
            )
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", TargetNotMetWarning)
            point = operating_point(
                np.concatenate(labels), np.concatenate(scores), prevalence=self.prevalence,
                interval="bootstrap", level=self.level, n_resamples=self.n_resamples,
                rng=self.rng, **_criterion_kwargs(criterion, target),
            )  # fmt: skip
        for warning in caught:  # re-emitted at the caller of fit, not inside prcurve
            warnings.warn(str(warning.message), warning.category, stacklevel=2)
        if not point.feasible:
            raise InfeasibleTargetError(f"{criterion}: on the out-of-fold scores, {point.reason}")
        self.fold_results_ = fold_results(labels, scores, criterion, target, self.prevalence)
        self.operating_point_ = point
        self.threshold_ = point.threshold
        self.threshold_interval_ = point.threshold_interval
        self.estimator_ = clone(self.estimator).fit(X, y)
        self.classes_ = self.estimator_.classes_
        self._positive = positive
        return self

    def _scores(self, X: Any) -> np.ndarray:
        check_is_fitted(self, "estimator_")
        return scores_from_estimator(
            self.estimator_, X, response_method=self.response_method, pos_label=self._positive
        )

    def predict(self, X: Any) -> np.ndarray:
        """The positive class where the refitted estimator's score is ``>= threshold_``."""
        flagged = self._scores(X) >= self.threshold_
        pos = int(np.flatnonzero(self.classes_ == self._positive)[0])
        return self.classes_[np.where(flagged, pos, 1 - pos)]

    @available_if(_estimator_has("predict_proba"))
    def predict_proba(self, X: Any) -> np.ndarray:
        """The refitted estimator's ``predict_proba`` (the threshold does not change it)."""
        check_is_fitted(self, "estimator_")
        return self.estimator_.predict_proba(X)

    @available_if(_estimator_has("predict_log_proba"))
    def predict_log_proba(self, X: Any) -> np.ndarray:
        """The refitted estimator's ``predict_log_proba``."""
        check_is_fitted(self, "estimator_")
        return self.estimator_.predict_log_proba(X)

    @available_if(_estimator_has("decision_function"))
    def decision_function(self, X: Any) -> np.ndarray:
        """The refitted estimator's ``decision_function``."""
        check_is_fitted(self, "estimator_")
        return self.estimator_.decision_function(X)

    @property
    def n_features_in_(self) -> int:
        """Number of features seen by the refitted estimator."""
        return self.estimator_.n_features_in_

    @property
    def feature_names_in_(self) -> np.ndarray:
        """Feature names seen by the refitted estimator (when it records them)."""
        return self.estimator_.feature_names_in_

    def __sklearn_tags__(self) -> Any:  # scikit-learn >= 1.6
        from sklearn.utils import get_tags

        tags = super().__sklearn_tags__()
        tags.classifier_tags.multi_class = False
        tags.input_tags.sparse = get_tags(self.estimator).input_tags.sparse
        return tags

    def _more_tags(self) -> dict[str, Any]:  # scikit-learn < 1.6
        return {"binary_only": True}
