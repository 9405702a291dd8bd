"""Smooth PR curves from parametric fits: binormal, α-binormal and other two-distribution models.

Holds the distribution families and their maximum-likelihood fits (``_families``), the fitted
model ``BidistributionFit`` — a ``PopulationModel`` — with its average precision and standard
errors (``_binormal``), and the two simulations of Brodersen et al. (``_brodersen``).

May import: :mod:`prcurve._core`, :mod:`prcurve._population`.
"""
