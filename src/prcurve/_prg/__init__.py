"""Precision-recall-gain (Flach & Kull): gains, the PRG curve, its area and convex hull.

Holds the gain transforms, F-gain, expected F-gain and iso-F-gain lines (``_gain``) and the
``PRGCurve`` result built from the same operating points as a ``PRCurve`` (``_curve``).

May import: :mod:`prcurve._core`.
"""
