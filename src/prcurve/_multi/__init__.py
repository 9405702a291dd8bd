"""Several curves at once: one-vs-rest (multiclass and multilabel), cross-validation folds, and
the scikit-learn workflow (scores from fitted estimators, scorers, ``cross_validate`` output).

Implementation only; the public names are re-exported by :mod:`prcurve`.  Everything here is
built from the binary engine (``prcurve._core``) and the shared resampling machinery
(``prcurve._inference._resample``); scikit-learn and pandas are imported lazily, only by the
functions that need them.

May import: :mod:`prcurve._core`, :mod:`prcurve._inference`.
"""

from ._curves import AVERAGES, MultiPRCurves, auc_pr, pr_curves
from ._folds import CVPRCurves, FoldAUC, cv_pr_curves
from ._interval import AveragedAUCPRInterval, auc_pr_multi_ci
from ._sklearn import make_scorer, scores_from_estimator

__all__ = [
    "AVERAGES",
    "AveragedAUCPRInterval",
    "CVPRCurves",
    "FoldAUC",
    "MultiPRCurves",
    "auc_pr",
    "auc_pr_multi_ci",
    "cv_pr_curves",
    "make_scorer",
    "pr_curves",
    "scores_from_estimator",
]
