"""Stage 2 of the report, **analysis**: every number, engine-independent, as plain results.

Curves, every AUC-PR estimate and interval, the band, the paired comparisons, the operating
points and the deployment prevalence (``_analysis``, ``_operating``), with the sizing rule for
resampling (``_sizing``) and the worker processes' memory settings (``_memory``).

May import: the statistics of prcurve, the input stage and the common modules; never
matplotlib, :mod:`prcurve.plot`, HTML or a later stage.
"""
