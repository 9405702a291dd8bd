"""prcurve: precision-recall analysis that is correct, complete and fast.

Empirical PR and ROC curves with exact tie handling and weights, Davis–Goadrich interpolation and
the achievable PR curve, every common AUC-PR estimator, population PR curves, binormal fits,
confidence bands and precision-recall-gain curves.
"""

from ._counts import BinaryCounts, binary_counts
from ._empirical import (
    PRCurve,
    ROCCurve,
    ThresholdsDroppedWarning,
    achievable_pr_curve,
    auc_pr,
    dominates,
    evaluate_thresholds,
    pr_curve,
    roc_curve,
)
from ._interpolation import InterpolatedPoints, dg_interpolate
from ._results import ConfidenceInterval, PRCurveWarning, UndefinedMetricWarning

__version__ = "0.1.0"

__all__ = [
    "BinaryCounts",
    "ConfidenceInterval",
    "InterpolatedPoints",
    "PRCurve",
    "PRCurveWarning",
    "ROCCurve",
    "ThresholdsDroppedWarning",
    "UndefinedMetricWarning",
    "achievable_pr_curve",
    "auc_pr",
    "binary_counts",
    "dg_interpolate",
    "dominates",
    "evaluate_thresholds",
    "pr_curve",
    "roc_curve",
]
