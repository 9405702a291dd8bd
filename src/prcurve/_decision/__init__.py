"""From a curve to a decision: quantities read at a threshold or a budget.

Precision and recall at the top k (with ties handled as the expectation over random orders of
the tied items), lift and gain, expected cost and cost curves, decision-curve net benefit, and
the threshold view (every metric against the threshold).  Each is read off the one sorted count
table of :mod:`prcurve._core` (nothing sorts twice); intervals come from the shared resampling
machinery of :mod:`prcurve._inference`.

Implementation only; the public names are re-exported by :mod:`prcurve` (``_api``), and
importing this package imports none of its modules.

May import: :mod:`prcurve._core`, :mod:`prcurve._inference`.
"""
