"""Other tools' AUC-PR conventions, reproduced: which value is right, and why they differ.

Widely used tools give different AUC-PR values for the same predictions (Chen et al., Genome
Biology 2024).  :func:`auc_pr` computes the value exactly as a named tool does, from the tool's
own source (each convention in :data:`TOOLS` cites the file and function it was read from);
:func:`compare_tools` lists every tool's value beside prcurve's average precision and exact
Davis–Goadrich area, with the one-line reason for each difference (interpolation, start point,
binning, ties).  None of the tools is imported: nothing here needs Spark, TensorFlow, torch or R.
"""

from ._auc import auc_pr
from ._compare import ToolComparison, ToolValue, compare_tools
from ._tools import TOOLS, ToolConvention

__all__ = ["TOOLS", "ToolComparison", "ToolConvention", "ToolValue", "auc_pr", "compare_tools"]
