# ruff: noqa: F405
"""prcurve: precision-recall analysis that is correct, complete and fast.

Empirical PR and ROC curves with exact tie handling and weights, Davis–Goadrich interpolation and
the achievable PR curve, every common AUC-PR estimator, population PR curves, binormal fits,
confidence bands and precision-recall-gain curves.
"""

from typing import TYPE_CHECKING, Any

__version__ = "0.2.0"

__all__ = [
    "APHalfWidth",
    "APPowerPlan",
    "APPrecisionPlan",
    "AUCPRInterval",
    "AveragedAUCPRInterval",
    "BidistributionFit",
    "BinaryCounts",
    "BoundedPRAccumulator",
    "BoundedPRCurve",
    "BrodersenFig1Result",
    "BrodersenFig2Result",
    "CVPRCurves",
    "ComparisonResult",
    "ConfidenceInterval",
    "CostCurve",
    "CoverageResult",
    "CurveEndpoints",
    "CurveShape",
    "DeLongAUC",
    "DeLongTest",
    "DegenerateBootstrapWarning",
    "DegenerateVarianceWarning",
    "DistributionFitError",
    "ExpectedCost",
    "FBetaOptimum",
    "FoldAUC",
    "GainCurve",
    "GoodnessOfFit",
    "InterpolatedPoints",
    "IsoFLine",
    "LiftCurve",
    "LowEffectiveSampleSizeWarning",
    "MultiPRCurves",
    "NetBenefitCurve",
    "NormalApproximation",
    "OperatingPoint",
    "PRAccumulator",
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
    "ProfileRegion",
    "ROCCurve",
    "SmoothingFallbackWarning",
    "TargetNotMetWarning",
    "ThresholdView",
    "ThresholdsDroppedWarning",
    "UndefinedMetricWarning",
    "achievable_pr_curve",
    "ap_half_width",
    "asymptotic_variance",
    "auc_pr",
    "auc_pr_ci",
    "auc_pr_interval",
    "auc_pr_multi_ci",
    "average_precision_at_k",
    "batch_precision_at",
    "binary_counts",
    "cases",
    "compare",
    "cost_curve",
    "coverage_study",
    "cv_pr_curves",
    "delong_test",
    "dg_interpolate",
    "dominates",
    "evaluate_thresholds",
    "expected_cost",
    "expected_f_gain",
    "f_gain",
    "fit_bidistribution",
    "fit_binormal",
    "gain_curve",
    "gains_from_counts",
    "iso_f_gain_line",
    "lift_curve",
    "make_scorer",
    "net_benefit",
    "normal_approximation",
    "operating_point",
    "partial_roc_auc",
    "plan_ap_power",
    "plan_ap_precision",
    "population_curves",
    "pr_confidence_band",
    "pr_curve",
    "pr_curves",
    "pr_pointwise_ci",
    "pr_profile_region",
    "pr_profile_statistic",
    "pr_to_prg",
    "pr_to_roc",
    "precision_at_k",
    "precision_gain",
    "prg_curve",
    "recall_at_k",
    "recall_gain",
    "roc_auc_delong",
    "roc_auc_delong_from_counts",
    "roc_curve",
    "roc_to_pr",
    "roc_to_prg",
    "simulate_brodersen_fig1",
    "simulate_brodersen_fig2",
    "simulate_pr_estimator",
    "threshold_view",
]


def __getattr__(name: str) -> Any:
    """Load the public names on first use (PEP 562): ``import prcurve`` stays cheap."""
    if name == "cases" or name in __all__:
        from importlib import import_module

        value = (
            import_module(f"{__name__}.cases")
            if name == "cases"
            else getattr(import_module(f"{__name__}._api"), name)
        )
        globals()[name] = value
        return value
    raise AttributeError(f"module 'prcurve' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__) | {"cases"})


if TYPE_CHECKING:
    from . import cases as cases
    from ._api import *  # noqa: F403
