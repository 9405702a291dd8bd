"""Operating points and the deployment prevalence of the multiclass and cross-validation reports.

One binary problem at a time — a class against the rest, or a score column — chosen by the
rules of :func:`prcurve.operating_point` (``--min-precision``: the highest recall whose precision
is at least P; ``--min-recall``: the highest precision whose recall is at least R) on all rows,
and with ``--prevalence`` π also at π (negatives reweighted, :meth:`prcurve.PRCurve.at_prevalence`).
With folds every fold is one such problem and the report gives the mean over folds with the
Student-t interval of :class:`prcurve.FoldAUC` (the same caveat: too narrow when folds share
training data).  Numbers only, as JSON-ready dictionaries; the pages render them
(``render._multi_page``).
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..._core._area import AUC_PR_METHODS
from ..._core._empirical import PRCurve, pr_curve
from ..._inference._operating_ci import operating_point
from ..._multi._folds import _t_interval

__all__ = ["Targets", "binary_operating", "fold_operating"]


def num(x: Any) -> float | None:
    """A finite number for JSON, or None."""
    v = float(x)
    return v if np.isfinite(v) else None


#: ``(criterion, target)`` pairs: ``("min_precision", 0.8)``, ``("min_recall", 0.5)``, ...
Targets = Sequence[tuple[str, float]]


def _point(y: np.ndarray, s: np.ndarray, w: Any, crit: str, target: float, pi: Any) -> dict:
    with warnings.catch_warnings():  # no intervals asked: nothing to warn about
        op = operating_point(
            y, s, sample_weight=w, prevalence=pi,
            min_precision=target if crit == "min_precision" else None,
            min_recall=target if crit == "min_recall" else None,
        )  # fmt: skip
    return {
        "criterion": crit,
        "target": target,
        "feasible": bool(op.feasible),
        "threshold": None if op.threshold is None else num(op.threshold),
        "precision": None if op.precision is None else num(op.precision),
        "recall": None if op.recall is None else num(op.recall),
        "fpr": None if op.fpr is None else num(op.fpr),
    }


def binary_operating(
    y: np.ndarray,
    s: np.ndarray,
    w: np.ndarray | None,
    targets: Targets,
    prevalence: float | None,
    *,
    curve: PRCurve | None = None,
) -> dict[str, Any]:
    """The operating points of one problem, and with ``prevalence`` the areas and points at π.

    Returns ``{"points": [...], "deployment": None | {"prevalence", "auc_pr", "points"}}``;
    ``curve`` is the problem's PR curve if already computed.
    """
    out: dict[str, Any] = {
        "points": [_point(y, s, w, c, t, None) for c, t in targets],
        "deployment": None,
    }
    if prevalence is not None:
        pr = pr_curve(y, s, sample_weight=w) if curve is None else curve
        at = pr.at_prevalence(prevalence)
        out["deployment"] = {
            "prevalence": prevalence,
            "auc_pr": {m: num(at.auc(m)) for m in AUC_PR_METHODS},
            "points": [_point(y, s, w, c, t, prevalence) for c, t in targets],
        }
    return out


def _mean_entry(values: list[float | None], level: float, *, rate: bool = True) -> dict[str, Any]:
    """Per-fold values (None where a fold misses the target), their mean and t-interval over
    the folds that have one (at least two for an interval; clipped to [0, 1] for a ``rate``)."""
    have = np.array([v for v in values if v is not None], dtype=np.float64)
    entry: dict[str, Any] = {"per_fold": values, "folds_with_value": int(have.shape[0])}
    if have.shape[0] >= 2:
        mean, std, low, high = _t_interval(have, level)
        if rate:
            low, high = max(float(low), 0.0), min(float(high), 1.0)
        entry.update(mean=num(mean), std=num(std), interval=[num(low), num(high)])
    else:
        entry.update(mean=num(have[0]) if have.shape[0] else None, std=None, interval=None)
    return entry


def _aggregate(per_fold: list[list[dict]], level: float) -> list[dict[str, Any]]:
    rows = []
    for k, first in enumerate(per_fold[0]):
        points = [fold[k] for fold in per_fold]
        rows.append(
            {
                "criterion": first["criterion"],
                "target": first["target"],
                "feasible_folds": sum(p["feasible"] for p in points),
                **{q: _mean_entry([p[q] for p in points], level) for q in ("precision", "recall")},
                "threshold": _mean_entry([p["threshold"] for p in points], level, rate=False),
            }
        )
    return rows


def fold_operating(
    y: np.ndarray,
    s: np.ndarray,
    folds: np.ndarray,
    fold_ids: Sequence[Any],
    w: np.ndarray | None,
    targets: Targets,
    prevalence: float | None,
    level: float,
) -> dict[str, Any]:
    """:func:`binary_operating` in every fold, aggregated over folds (mean, t-interval).

    ``deployment["auc_pr"][method]`` is the per-fold area at π with its mean and interval.
    """
    each = []
    for f in fold_ids:
        m = folds == f
        each.append(binary_operating(y[m], s[m], None if w is None else w[m], targets, prevalence))
    out: dict[str, Any] = {"points": _aggregate([e["points"] for e in each], level)}
    out["deployment"] = None
    if prevalence is not None:
        deployed = [e["deployment"] for e in each]
        out["deployment"] = {
            "prevalence": prevalence,
            "auc_pr": {
                m: _mean_entry([d["auc_pr"][m] for d in deployed], level) for m in AUC_PR_METHODS
            },
            "points": _aggregate([d["points"] for d in deployed], level),
        }
    return out
