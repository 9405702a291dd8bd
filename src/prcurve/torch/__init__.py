"""Exact precision-recall analysis in PyTorch training and evaluation loops.

``pip install prcurve[torch]``.  :class:`PRCurveMetric` is a torchmetrics-style metric
(``update``, ``compute``, ``reset``) whose state is a mergeable accumulator: processes sync by
merging their accumulators, never by averaging per-process AP (which is wrong) nor by gathering
every score, so ``compute`` returns the exact curve of the pooled data -- equal to
:func:`prcurve.pr_curve` on all of it -- with its AP, Davis–Goadrich area and operating points.

torch is imported when a tensor is first seen (and by the sync), not by ``import prcurve``;
torchmetrics is not needed.
"""

from ._metric import PRCurveMetric, PRMetricResult

__all__ = ["PRCurveMetric", "PRMetricResult"]
