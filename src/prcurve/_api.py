# ruff: noqa: F401
"""Every public name of :mod:`prcurve`, imported eagerly.

``prcurve/__init__.py`` loads this module on the first access to a public name, so that
``import prcurve`` (and with it the ``prcurve`` command's ``--help`` and its error exits) does
not pay for importing SciPy.  Add new public names here and to ``prcurve.__all__``.
"""

from . import cases
from ._core._accumulator import PRAccumulator
from ._core._bounded import BoundedPRAccumulator
from ._core._bounded_curve import BoundedPRCurve
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
from ._core._operating import OperatingPoint, TargetNotMetWarning
from ._core._partial_roc import partial_roc_auc
from ._core._results import ConfidenceInterval, PRCurveWarning, UndefinedMetricWarning
from ._core._spaces import pr_to_roc, roc_to_pr
from ._decision._cost import CostCurve, ExpectedCost, cost_curve, expected_cost
from ._decision._lift import GainCurve, LiftCurve, gain_curve, lift_curve
from ._decision._net_benefit import NetBenefitCurve, net_benefit
from ._decision._threshold_view import ThresholdView, threshold_view
from ._decision._topk import average_precision_at_k, precision_at_k, recall_at_k
from ._inference._auc_ci import AUCPRInterval, auc_pr_ci, auc_pr_interval
from ._inference._band import PRConfidenceBand, pr_confidence_band
from ._inference._common import (
    DegenerateBootstrapWarning,
    LowEffectiveSampleSizeWarning,
    SmoothingFallbackWarning,
)
from ._inference._compare import ComparisonResult, compare
from ._inference._coverage import CoverageResult, coverage_study
from ._inference._delong import (
    DegenerateVarianceWarning,
    DeLongAUC,
    DeLongTest,
    delong_test,
    roc_auc_delong,
    roc_auc_delong_from_counts,
)
from ._inference._operating_ci import operating_point
from ._inference._planning import APHalfWidth, APPrecisionPlan, ap_half_width, plan_ap_precision
from ._inference._pointwise import PointwiseCI, pr_pointwise_ci
from ._inference._power import APPowerPlan, plan_ap_power
from ._inference._profile import ProfileRegion, pr_profile_region, pr_profile_statistic
from ._multi._curves import MultiPRCurves, auc_pr, pr_curves
from ._multi._folds import CVPRCurves, FoldAUC, cv_pr_curves
from ._multi._interval import AveragedAUCPRInterval, auc_pr_multi_ci
from ._multi._sklearn import make_scorer
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
