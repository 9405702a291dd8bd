"""scikit-learn integration: constrained scorers and a constrained threshold-tuning classifier.

``pip install "prcurve[sklearn]"``.  Importing this subpackage imports scikit-learn (its classes
derive from scikit-learn's); ``import prcurve`` does not.

- :func:`make_operating_scorer`: recall at a minimum precision, precision at a minimum recall,
  recall at a maximum FPR, or precision at top-k, as a scorer for ``GridSearchCV``,
  ``cross_validate`` and every ``scoring=``; each equals :func:`prcurve.operating_point` on the
  scored fold.
- :class:`ConstrainedThresholdClassifierCV`: chooses its threshold on out-of-fold scores by the
  same rule, with a bootstrap interval and a per-fold check of the constraint, then refits.

May import: every statistics part of prcurve (never plotting or the report).
"""

from __future__ import annotations

from ._dependency import require_sklearn

require_sklearn("sklearn.base")  # one clear ImportError naming the extra, before the imports

from ._folds import FoldResults  # noqa: E402
from ._scorers import InfeasibleTargetError, make_operating_scorer  # noqa: E402
from ._threshold import ConstrainedThresholdClassifierCV  # noqa: E402

__all__ = [
    "ConstrainedThresholdClassifierCV",
    "FoldResults",
    "InfeasibleTargetError",
    "make_operating_scorer",
]
