"""Population PR curves (Hughes-Oliver): curves of score distributions and their estimators.

Holds ``PopulationModel`` (``_model``: ROC/PR curves of any two scipy laws through generalized
inverses, properties P1–P7), the score-law helpers behind it (``_score_law``), the figure-ready
curves of several models (``_curves``), the corrected asymptotic variance σ²(x) of the
functional estimator (``_asymptotic``) and the vectorised small-sample simulation study
(``_simulation``).  The papers' named cases live in the public module :mod:`prcurve.cases`.

May import: :mod:`prcurve._core`.
"""
