"""Other tools' AUC-PR conventions, reproduced: which value is right, and why they differ.

Widely used tools give different AUC-PR values for the same predictions (Chen et al., Genome
Biology 2024).  :func:`auc_pr` computes the value exactly as a named tool does, from the tool's
own source (each convention in :data:`TOOLS` cites the file and function it was read from);
:func:`pr_curve` gives the curve whose area that value is;
:func:`compare_tools` lists every tool's value beside prcurve's average precision and exact
Davis–Goadrich area, with the one-line reason for each difference (interpolation, start point,
binning, ties).  The ``*_from_counts`` forms read the engine's sorted counts
(:func:`prcurve.binary_counts`, or another engine's), so they work on every engine.  None of
the tools is imported: nothing here needs Spark, TensorFlow, torch or R.
"""

from ._auc import auc_pr, auc_pr_from_counts
from ._compare import ToolComparison, ToolValue, compare_tools, compare_tools_from_counts
from ._curves import ToolCurve, pr_curve, pr_curve_from_counts
from ._tools import TOOLS, ToolConvention

__all__ = [
    "TOOLS",
    "ToolComparison",
    "ToolConvention",
    "ToolCurve",
    "ToolValue",
    "auc_pr",
    "auc_pr_from_counts",
    "compare_tools",
    "compare_tools_from_counts",
    "pr_curve",
    "pr_curve_from_counts",
]
