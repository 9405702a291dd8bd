"""Stage 2 of the report, **analysis**: every number, engine-independent, as plain results.

Curves, every AUC-PR estimate and interval, the band, the paired comparisons, the operating
points and the deployment prevalence (``_analysis``, ``_operating``), with the sizing rule for
resampling (``_sizing``); exact curves
computed by another engine with the resampling on a subsample (``_exact``).  Its public names
(below) are what the other stages and the engines use.

May import: the statistics of prcurve, the input stage and the common modules; never
matplotlib, :mod:`prcurve.plot`, HTML or a later stage.
"""

from ._analysis import (
    Analysis,
    ScorerAnalysis,
    Settings,
    analyse,
    auto_resamples,
    available_cpus,
    closed_form_intervals,
    derived_curves,
)
from ._exact import analyse_exact

__all__ = [
    "Analysis",
    "ScorerAnalysis",
    "Settings",
    "analyse",
    "analyse_exact",
    "auto_resamples",
    "available_cpus",
    "closed_form_intervals",
    "derived_curves",
]
