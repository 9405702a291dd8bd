"""The registry of other tools' AUC-PR conventions: what each one computes, in one line.

Chen et al. (Genome Biology 2024) found that ten widely used tools give different AUC-PR values
for the same predictions.  Each entry below names a tool, the source file and function its
convention was read from, the one-line reason it differs from average precision (AP) and from
the exact Davis–Goadrich area (DG), whether it takes sample weights, and its default options.
The computations live in :mod:`._binned`, :mod:`._interpolated` and :mod:`._rocr`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["TOOLS", "ToolConvention"]


@dataclass(frozen=True)
class ToolConvention:
    """One tool's AUC-PR convention.

    Attributes
    ----------
    name : str
        The key of :data:`TOOLS` and the ``tool=`` of :func:`prcurve.compat.auc_pr`.
    tool : str
        The tool and the call it reproduces.
    source : str
        Where the convention was read (repository, file, function).
    convention : str
        One line: interpolation, start point, binning and ties, i.e. why it differs.
    weights : bool
        Whether the tool takes sample weights.
    options : Mapping[str, object]
        The tool's options and their defaults (the tool's own defaults).
    verified : str
        What the conformance test compares with: the tool itself or its source formula.
    """

    name: str
    tool: str
    source: str
    convention: str
    weights: bool
    options: Mapping[str, object]
    verified: str


def _entry(name, tool, source, convention, weights, verified, **options) -> ToolConvention:
    return ToolConvention(
        name, tool, source, convention, weights, MappingProxyType(dict(options)), verified
    )


_ENTRIES = (
    _entry(
        "sklearn",
        "scikit-learn average_precision_score",
        "scikit-learn sklearn/metrics/_ranking.py, average_precision_score",
        "step sum Σ ΔR·P over the distinct thresholds, no interpolation (prcurve's AP)",
        True,
        "scikit-learn itself",
    ),
    _entry(
        "torchmetrics",
        "torchmetrics BinaryAveragePrecision(thresholds=None)",
        "Lightning-AI/torchmetrics functional/classification/average_precision.py, "
        "_binary_average_precision_compute",
        "exact: the same step sum as AP; scores outside [0, 1] pass through a sigmoid first, "
        "which can merge saturated scores into ties",
        False,
        "torchmetrics itself (the torch CI job)",
        thresholds=None,
    ),
    _entry(
        "torchmetrics_binned",
        "torchmetrics BinaryAveragePrecision(thresholds=T)",
        "Lightning-AI/torchmetrics functional/classification/precision_recall_curve.py, "
        "_binary_precision_recall_curve_update and _compute",
        "binned: the step sum at T thresholds torch.linspace(0, 1, T) (or a list, in its "
        "order), score >= threshold, precision of an empty bin 0",
        False,
        "torchmetrics itself (the torch CI job)",
        thresholds=100,
    ),
    _entry(
        "keras",
        'Keras / TensorFlow AUC(curve="PR", summation_method="interpolation")',
        "keras-team/keras keras/src/metrics/confusion_metrics.py, AUC.interpolate_pr_auc; "
        "metrics_utils.py, update_confusion_matrix_variables",
        "binned: scores clipped to [0, 1], counted at T thresholds i/(T−1) (ends −ε and 1+ε, "
        "score > threshold), exact Davis–Goadrich area between the bins",
        True,
        "Keras 3 itself, KERAS_BACKEND=torch (the torch CI job)",
        num_thresholds=200,
    ),
    _entry(
        "spark",
        "Spark MLlib BinaryClassificationMetrics.areaUnderPR (ML evaluator numBins=1000)",
        "apache/spark mllib/.../evaluation/BinaryClassificationMetrics.scala, pr() and the "
        "binned cumulativeCounts; AreaUnderCurve.scala, of()",
        "straight lines (trapezoid) from (0, first precision); with num_bins > 0 consecutive "
        "distinct scores are grouped into chunks of ⌊k/num_bins⌋ (none when that is < 2)",
        True,
        "Spark itself (pyspark's BinaryClassificationEvaluator and BinaryClassificationMetrics, "
        "one partition)",
        num_bins=1000,
    ),
    _entry(
        "precrec",
        "precrec evalmod(mode='rocprc') AUC of the PRC (x_bins=1000, ties_method='equiv')",
        "evalclass/precrec src/precrec_plx.cpp, calc_tp_fp/solve_ties, calc_basic_measures, "
        "create_prc_curve/interpolate_prc, calc_auc",
        "one point per instance (ties spread evenly), start (0, precision of the first "
        "instance), Davis–Goadrich points on a 1/x_bins recall grid, then trapezoid",
        False,
        "source formula",
        x_bins=1000,
    ),
    _entry(
        "prroc_integral",
        "PRROC pr.curve(...)$auc.integral",
        "cran/PRROC R/PRROC.R, compute.pr (auc.integral)",
        "exact integral of the Davis–Goadrich interpolation from TP = FP = 0 (prcurve's DG)",
        True,
        "source formula",
    ),
    _entry(
        "prroc_dg",
        "PRROC pr.curve(...)$auc.davis.goadrich",
        "cran/PRROC R/PRROC.R, compute.pr (auc.dg)",
        "trapezoid over Davis–Goadrich points at integer TP steps; the first segment is a "
        "rectangle at the first point's precision",
        False,
        "source formula",
    ),
    _entry(
        "rocr",
        'ROCR performance(prediction(...), "aucpr")',
        "ipa-tys/ROCR R/performance_measures.R, .performance.aucpr",
        "trapezoid from (0, 1) over the lowest-FP point of each TP level; DG points inserted "
        "for TP jumps > 2 land out of order (the insertion index is not shifted)",
        False,
        "ROCR itself (Rscript)",
    ),
    _entry(
        "yardstick",
        "yardstick pr_auc",
        "tidymodels/yardstick R/probcurve-pr_curve.R, pr_curve_binary; R/prob-helpers.R, auc",
        "trapezoid from (0, 1) over one point per distinct threshold (prcurve's lower_trapezoid)",
        True,
        "source formula",
    ),
    _entry(
        "auc_jar",
        "AUCCalculator 0.2 (auc.jar, Davis & Goadrich) calculateAUCPR(0)",
        "aucroc/AUCCalculator src/main/java/com/goadrich/mark/auc/Confusion.java, sort(), "
        "interpolate(), calculateAUCPR()",
        "drops the TP = 0 points, a rectangle up to the first point, then trapezoid over "
        "Davis–Goadrich points at integer TP steps",
        False,
        "source formula",
    ),
)

#: Every reproduced convention, by name, in the order of :func:`prcurve.compat.compare_tools`.
TOOLS: Mapping[str, ToolConvention] = MappingProxyType({e.name: e for e in _ENTRIES})
