"""prcurve: precision-recall analysis that is correct, complete and fast.

Empirical PR and ROC curves with exact tie handling and weights, Davis–Goadrich interpolation and
the achievable PR curve, every common AUC-PR estimator, population PR curves, binormal fits,
confidence bands and precision-recall-gain curves.
"""

from . import cases
from ._core._counts import BinaryCounts, binary_counts
from ._core._empirical import (
    PRCurve,
    ROCCurve,
    ThresholdsDroppedWarning,
    achievable_pr_curve,
    dominates,
    evaluate_thresholds,
    pr_curve,
    roc_curve,
)
from ._core._interpolation import InterpolatedPoints, dg_interpolate
from ._core._results import ConfidenceInterval, PRCurveWarning, UndefinedMetricWarning
from ._core._spaces import pr_to_roc, roc_to_pr
from ._inference import (
    AUCPRInterval,
    ComparisonResult,
    CoverageResult,
    DegenerateBootstrapWarning,
    LowEffectiveSampleSizeWarning,
    PointwiseCI,
    PRConfidenceBand,
    auc_pr_ci,
    auc_pr_interval,
    compare,
    coverage_study,
    pr_confidence_band,
    pr_pointwise_ci,
)
from ._multi import (
    AveragedAUCPRInterval,
    CVPRCurves,
    FoldAUC,
    MultiPRCurves,
    auc_pr,
    auc_pr_multi_ci,
    cv_pr_curves,
    make_scorer,
    pr_curves,
)
from ._parametric._binormal import (
    BidistributionFit,
    GoodnessOfFit,
    fit_bidistribution,
    fit_binormal,
)
from ._parametric._brodersen import (
    BrodersenFig1Result,
    BrodersenFig2Result,
    simulate_brodersen_fig1,
    simulate_brodersen_fig2,
)
from ._parametric._families import DistributionFitError
from ._population._asymptotic import NormalApproximation, asymptotic_variance, normal_approximation
from ._population._curves import PopulationCurves, population_curves
from ._population._model import (
    CurveEndpoints,
    CurveShape,
    PopulationModel,
    PopulationOperatingPoints,
)
from ._population._simulation import PRSimulation, batch_precision_at, simulate_pr_estimator
from ._prg._curve import FBetaOptimum, PRGCurve, prg_curve
from ._prg._gain import (
    IsoFLine,
    PRGPoints,
    expected_f_gain,
    f_gain,
    gains_from_counts,
    iso_f_gain_line,
    pr_to_prg,
    precision_gain,
    recall_gain,
    roc_to_prg,
)

__version__ = "0.1.0"

__all__ = [
    "AUCPRInterval",
    "AveragedAUCPRInterval",
    "BidistributionFit",
    "BinaryCounts",
    "BrodersenFig1Result",
    "BrodersenFig2Result",
    "CVPRCurves",
    "ComparisonResult",
    "ConfidenceInterval",
    "CoverageResult",
    "CurveEndpoints",
    "CurveShape",
    "DegenerateBootstrapWarning",
    "DistributionFitError",
    "FBetaOptimum",
    "FoldAUC",
    "GoodnessOfFit",
    "InterpolatedPoints",
    "IsoFLine",
    "LowEffectiveSampleSizeWarning",
    "MultiPRCurves",
    "NormalApproximation",
    "PRConfidenceBand",
    "PRCurve",
    "PRCurveWarning",
    "PRGCurve",
    "PRGPoints",
    "PRSimulation",
    "PointwiseCI",
    "PopulationCurves",
    "PopulationModel",
    "PopulationOperatingPoints",
    "ROCCurve",
    "ThresholdsDroppedWarning",
    "UndefinedMetricWarning",
    "achievable_pr_curve",
    "asymptotic_variance",
    "auc_pr",
    "auc_pr_ci",
    "auc_pr_interval",
    "auc_pr_multi_ci",
    "batch_precision_at",
    "binary_counts",
    "cases",
    "compare",
    "coverage_study",
    "cv_pr_curves",
    "dg_interpolate",
    "dominates",
    "evaluate_thresholds",
    "expected_f_gain",
    "f_gain",
    "fit_bidistribution",
    "fit_binormal",
    "gains_from_counts",
    "iso_f_gain_line",
    "make_scorer",
    "normal_approximation",
    "population_curves",
    "pr_confidence_band",
    "pr_curve",
    "pr_curves",
    "pr_pointwise_ci",
    "pr_to_prg",
    "pr_to_roc",
    "precision_gain",
    "prg_curve",
    "recall_gain",
    "roc_curve",
    "roc_to_pr",
    "roc_to_prg",
    "simulate_brodersen_fig1",
    "simulate_brodersen_fig2",
    "simulate_pr_estimator",
]
