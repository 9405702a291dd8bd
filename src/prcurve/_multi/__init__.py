"""Several curves at once: one-vs-rest (multiclass and multilabel), cross-validation folds, and
the scikit-learn workflow (scores from fitted estimators, scorers, ``cross_validate`` output).

Implementation only; the public names are re-exported by :mod:`prcurve` (``_api``), and
importing this package imports none of its modules.  Everything here is
built from the binary engine (``prcurve._core``) and the shared resampling machinery
(``prcurve._inference._resample``); scikit-learn and pandas are imported lazily, only by the
functions that need them.

May import: :mod:`prcurve._core`, :mod:`prcurve._inference`.
"""
