"""Did the constraint hold out of fold?  Each fold judged by a threshold it did not help choose.

The meta-estimator chooses its threshold on all out-of-fold scores pooled, so checking that
threshold on any fold is optimistic (the fold took part in the choice).  Here each fold ``i`` is
instead scored by the threshold the same rule (:func:`prcurve.operating_point`) chooses on the
*other* folds' out-of-fold scores, and the constraint is checked on fold ``i`` alone: a
leave-one-fold-out estimate of how often a threshold chosen this way meets the target on new
data.  No model is refitted; the fold's counts at a fixed threshold are two vectorised sums.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._exact import exact_precision, precision_at_least
from .._core._results import compact_repr
from .._inference._operating_ci import operating_point
from ._scorers import SCORED, _criterion_kwargs

__all__ = ["FoldResults", "fold_results"]


@compact_repr
@dataclass(frozen=True)
class FoldResults:
    """Per cross-validation fold: the threshold chosen on the other folds, and what it did here.

    All arrays are aligned, one entry per fold (in the splitter's order).

    Attributes
    ----------
    criterion : str
        ``"min_precision"``, ``"min_recall"``, ``"max_fpr"`` or ``"top_k"``.
    target : float
        The criterion's value.
    prevalence : float or None
        The deployment prevalence precision refers to (None: each fold's own).
    threshold : ndarray of float
        Chosen on the other folds' out-of-fold scores (NaN where :attr:`feasible` is False).
    feasible : ndarray of bool
        Whether some threshold met the target on the other folds (False for a single split:
        there are no other folds).
    precision, recall, fpr : ndarray of float
        Of that threshold on this fold.  ``precision`` (at :attr:`prevalence` when given) is NaN
        exactly where the threshold flags nothing on this fold (``flagged == 0``, precision
        undefined) or where :attr:`feasible` is False; ``recall`` and ``fpr`` are NaN only where
        :attr:`feasible` is False.
    flagged : ndarray of float
        Rows of this fold predicted positive (0 where infeasible).
    n_pos, n_neg : ndarray of int
        Positives and negatives in the fold.
    met : ndarray of bool
        Whether the constraint held on this fold: precision ``>=`` target (False when nothing is
        flagged), recall ``>=`` target, FPR ``<=`` target, or for ``top_k`` at most the fold's
        share of the budget, ``flagged <= k·n_fold/n``.  False where infeasible.
    """

    criterion: str
    target: float
    prevalence: float | None
    threshold: np.ndarray
    feasible: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    fpr: np.ndarray
    flagged: np.ndarray
    n_pos: np.ndarray
    n_neg: np.ndarray
    met: np.ndarray

    @property
    def met_fraction(self) -> float:
        """Share of the folds on which the constraint held."""
        return float(np.mean(self.met))

    def table(self) -> str:
        """The results as a plain-text table, one line per fold."""
        head = f"{'fold':>4} {'threshold':>10} {'precision':>9} {'recall':>7} {'fpr':>7} "
        lines = [head + f"{'flagged':>7} {'met':>5}"]
        for i in range(self.threshold.shape[0]):
            lines.append(
                f"{i:>4} {self.threshold[i]:>10.4g} {self.precision[i]:>9.3f} "
                f"{self.recall[i]:>7.3f} {self.fpr[i]:>7.4f} {self.flagged[i]:>7.0f} "
                f"{bool(self.met[i])!s:>5}"
            )
        return "\n".join(lines)


def _met(criterion: str, target: float, tp, fp, n_pos, n_neg, budget, prevalence) -> bool:
    """The constraint checked on one fold's counts at a fixed threshold (as the rule compares)."""
    if criterion == "min_precision":
        if tp + fp == 0:
            return False
        totals: dict[str, Any] = {}
        if prevalence is not None:
            totals = dict(n_pos=n_pos, n_neg=n_neg, prevalence=prevalence)
        return bool(precision_at_least(tp, fp, target, **totals))
    if criterion == "min_recall":
        return bool(tp / n_pos >= target)
    if criterion == "max_fpr":
        return bool(fp / n_neg <= target)
    return bool(tp + fp <= budget)


def fold_results(
    labels: list[np.ndarray],
    scores: list[np.ndarray],
    criterion: str,
    target: float,
    prevalence: Any,
) -> FoldResults:
    """Leave-one-fold-out check of the rule on out-of-fold scores (see the module docstring).

    ``labels`` (boolean, positive = True, both classes in every fold) and ``scores`` are the
    folds' test rows; ``prevalence`` the deployment prevalence as given (a number, a pair
    ``(k, m)`` or None).
    """
    assert SCORED.keys() >= {criterion}
    k = len(labels)
    sizes = np.array([y.shape[0] for y in labels], dtype=np.float64)
    n = sizes.sum()
    pi = None if prevalence is None else (
        prevalence[0] / prevalence[1] if isinstance(prevalence, tuple | list) else prevalence
    )  # fmt: skip
    out = {
        name: np.full(k, np.nan) for name in ("threshold", "precision", "recall", "fpr", "flagged")
    }
    feasible, met = np.zeros(k, dtype=bool), np.zeros(k, dtype=bool)
    n_pos = np.array([np.count_nonzero(y) for y in labels])
    n_neg = sizes.astype(np.int64) - n_pos
    out["flagged"][:] = 0.0
    for i in range(k if k > 1 else 0):  # one split: no other folds to choose on
        rest = [j for j in range(k) if j != i]
        y_rest = np.concatenate([labels[j] for j in rest])
        s_rest = np.concatenate([scores[j] for j in rest])
        # top_k: the budget k of all n rows, scaled to the rows at hand
        goal = target * (n - sizes[i]) / n if criterion == "top_k" else target
        point = operating_point(
            y_rest, s_rest, **_criterion_kwargs(criterion, goal), prevalence=prevalence
        )
        if not point.feasible:
            continue
        feasible[i] = True
        y, pred = labels[i], scores[i] >= point.threshold
        tp = int(np.count_nonzero(y & pred))
        fp = int(np.count_nonzero(pred)) - tp
        totals = () if pi is None else (n_pos[i], n_neg[i], pi)
        out["threshold"][i] = point.threshold
        out["precision"][i] = exact_precision(tp, fp, *totals) if tp + fp else np.nan
        out["recall"][i] = tp / n_pos[i]
        out["fpr"][i] = fp / n_neg[i]
        out["flagged"][i] = tp + fp
        budget = target * sizes[i] / n
        met[i] = _met(criterion, target, tp, fp, n_pos[i], n_neg[i], budget, pi)
    return FoldResults(
        criterion=criterion, target=target, prevalence=pi, feasible=feasible, met=met,
        n_pos=n_pos, n_neg=n_neg, **out,
    )  # fmt: skip
