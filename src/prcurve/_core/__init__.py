"""The engine: one sort of the scores becomes cumulative counts, and every empirical curve.

Holds input validation (``_validation``), the result and warning types shared by every layer
(``_results``), the counting engine (``_counts``: one sort → TP/FP at the distinct thresholds),
batched rows of counts for bootstrap and Monte Carlo (``_batch``), the AUC-PR estimators
written once row-wise (``_area``), Davis–Goadrich interpolation and its exact segment areas
(``_interpolation``), the ROC convex hull (``_hull``), operating-point rules
(``_operating``), partial areas and deployment prevalence (``_partial``), ROC↔PR point maps
(``_spaces``) and the empirical ``PRCurve``/``ROCCurve`` results (``_empirical``).

May import: NumPy only (SciPy where a function needs it).  It is the bottom layer: nothing here
imports any other part of prcurve.
"""
