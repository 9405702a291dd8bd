"""Uncertainty for PR curves and AUC-PR: intervals, bands, comparisons, coverage studies.

Holds the shared resampling machinery (``_resample``: bootstrap replicates without a second
sort), kernel smoothing (``_kernel``), AUC-PR intervals (``_auc_ci``), pointwise intervals
(``_pointwise``), simultaneous bands (``_band``), operating points and partial or
reweighted AUC-PR with intervals (``_operating_ci``, ``_partial_ci``), paired comparisons
(``_compare``) and coverage studies (``_coverage`` for bands, ``_interval_coverage`` for every
interval).  Implementation only; the public names are re-exported by :mod:`prcurve` (``_api``).
Importing this package imports none of its modules (the coverage studies need
``scipy.stats``, which the report does not).

May import: :mod:`prcurve._core`, :mod:`prcurve._population`.
"""
