"""Stage 2 of the report, **analysis**: every number, engine-independent, as plain results.

One code path for every engine: :func:`analyse` (``_analysis``) takes an engine's exact
counts and the rows it hands over (``..input._engine``) and computes the curves, every AUC-PR
estimate and interval (``_intervals``), the band, the paired comparisons, the operating points
and the deployment prevalence (``_operating``), the threshold choice (``_choice``, ``_topk``);
the steps (``_steps``) are sized by one rule (``_sizing``, capped at the rows at hand:
``_engine_rules``) and run here or in worker processes (``_parallel``), into the result types
of ``_results`` for the settings of ``_settings``.  Its public names (below) are what the other
stages and the engines use.

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

__all__ = [
    "Analysis",
    "ScorerAnalysis",
    "Settings",
    "analyse",
    "auto_resamples",
    "available_cpus",
    "closed_form_intervals",
    "derived_curves",
]
