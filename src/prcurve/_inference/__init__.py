"""Uncertainty for PR curves and AUC-PR: intervals, bands, comparisons, coverage studies.

Implementation only; the public names are re-exported by :mod:`prcurve`.
"""

from ._auc_ci import AUCPRInterval, auc_pr_ci, auc_pr_interval
from ._band import PRConfidenceBand, pr_confidence_band
from ._common import DegenerateBootstrapWarning, LowEffectiveSampleSizeWarning
from ._compare import ComparisonResult, compare
from ._coverage import CoverageResult, coverage_study
from ._pointwise import PointwiseCI, pr_pointwise_ci

__all__ = [
    "AUCPRInterval",
    "ComparisonResult",
    "CoverageResult",
    "DegenerateBootstrapWarning",
    "LowEffectiveSampleSizeWarning",
    "PRConfidenceBand",
    "PointwiseCI",
    "auc_pr_ci",
    "auc_pr_interval",
    "compare",
    "coverage_study",
    "pr_confidence_band",
    "pr_pointwise_ci",
]
