"""Uncertainty for PR curves and AUC-PR: intervals, bands, comparisons, coverage studies.

Holds the shared resampling machinery (``_resample``: bootstrap replicates without a second
sort), kernel smoothing (``_kernel``), AUC-PR intervals (``_auc_ci``), pointwise intervals
(``_pointwise``), simultaneous bands (``_band``), paired comparisons (``_compare``) and coverage
studies (``_coverage`` for bands, ``_interval_coverage`` for every interval).  Implementation
only; the public names are re-exported by :mod:`prcurve`.

May import: :mod:`prcurve._core`, :mod:`prcurve._population`.
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
