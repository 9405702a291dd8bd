"""Population curves evaluated on grids, ready to draw (Hughes-Oliver Figures 3-6).

Everything a picture of a :class:`PopulationModel` needs is computed here, so that the plotting
layer only draws arrays.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._results import compact_repr
from .._core._validation import check_fraction, check_positive_int
from ._model import PopulationModel

__all__ = ["PAPER_PREVALENCES", "PopulationCurves", "population_curves"]

PAPER_PREVALENCES = (0.5, 1 / 11)


@compact_repr
@dataclass(frozen=True)
class PopulationCurves:
    """Densities, ROC and PR curves of a population model on grids.

    Attributes
    ----------
    name : str or None
    discrete : bool
        Whether either law is discrete.
    law_discrete : tuple of bool
        Whether the laws of negatives and positives are discrete (then their ``scores_*`` are
        the atoms and their densities
        are probability masses).
    scores_negative, density_negative : ndarray, shape (g₋,)
        Score grid (or atoms) and density (or mass) of the negatives.
    scores_positive, density_positive : ndarray, shape (g₊,)
    fpr, tpr : ndarray, shape (k,)
        The ROC curve (eq. 3) on an FPR grid over [0, 1] (end points are the P1 limits).
    recall : ndarray, shape (r,)
        Recall grid over (0, 1].
    prevalences : tuple of float, length p
    precision : ndarray, shape (p, r)
        The PR curve (eq. 5) at each prevalence.
    lower_bound : ndarray, shape (p, r)
        The achievable lower bound ``π₊x/(π₊x + π₋)`` (P6).
    thresholds : ndarray, shape (m,)
        Thresholds to mark on the curves (may be empty).
    mark_fpr, mark_tpr : ndarray, shape (m,)
        Their ROC coordinates (rule ``score >= t``).
    mark_precision : ndarray, shape (p, m)
        Their precision at each prevalence.
    """

    name: str | None
    discrete: bool
    law_discrete: tuple[bool, bool]
    scores_negative: np.ndarray
    density_negative: np.ndarray
    scores_positive: np.ndarray
    density_positive: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    recall: np.ndarray
    prevalences: tuple[float, ...]
    precision: np.ndarray
    lower_bound: np.ndarray
    thresholds: np.ndarray
    mark_fpr: np.ndarray
    mark_tpr: np.ndarray
    mark_precision: np.ndarray


def _score_grid(law: Any, num: int, score_range: tuple[float, float] | None) -> np.ndarray:
    """A grid over the central 99% of one law (or ``score_range``), with its support edges."""
    if score_range is None:
        lo, hi = (float(v) for v in law.upper_quantile(np.array([0.995, 0.005])))
        pad = 0.1 * (hi - lo)
        lo, hi = max(lo - pad, law.lower), min(hi + pad, law.upper)
        pad = 0.05 * (hi - lo)
        lo, hi = lo - pad, hi + pad
    else:
        lo, hi = score_range
    grid = np.linspace(lo, hi, num)
    eps = 1e-9 * max(1.0, hi - lo)
    edges = np.array([law.lower, law.upper])
    edges = edges[np.isfinite(edges) & (edges >= lo) & (edges <= hi)]
    return np.unique(np.concatenate([grid, edges - eps, edges + eps]))


def population_curves(
    model: PopulationModel,
    *,
    prevalences: Sequence[float] | None = None,
    thresholds: Any = None,
    name: str | None = None,
    num: int = 801,
    score_range: tuple[float, float] | None = None,
) -> PopulationCurves:
    """Evaluate a model's densities, ROC curve and PR curves on grids.

    Parameters
    ----------
    model : PopulationModel
    prevalences : sequence of float, optional
        Prevalences of the PR curves; default: the model's own.  The paper's figures use
        ``PAPER_PREVALENCES = (1/2, 1/11)``.
    thresholds : array-like, optional
        Thresholds to mark on the curves.
    name : str, optional
        Legend name (e.g. ``"Case A"``).
    num : int
        Grid size.
    score_range : (float, float), optional
        Score interval of the density grid; default: the central 99% of each law, padded.

    Returns
    -------
    PopulationCurves

    Examples
    --------
    >>> from prcurve import cases, population_curves
    >>> c = population_curves(cases.D(), prevalences=(0.5, 1 / 11), name="Case D")
    >>> c.precision.shape[0], round(float(c.tpr[0]), 3)
    (2, 0.5)
    """
    if not isinstance(model, PopulationModel):
        raise TypeError(f"model: expected a PopulationModel, got {type(model).__name__}")
    num = check_positive_int(num, "num", minimum=10)
    prev = tuple(
        check_fraction(p, "prevalences")
        for p in ((model.prevalence,) if prevalences is None else prevalences)
    )
    if score_range is not None:
        score_range = (float(score_range[0]), float(score_range[1]))
        if not (np.isfinite(score_range).all() and score_range[0] < score_range[1]):
            raise ValueError(
                f"score_range: expected two finite increasing numbers, got {score_range!r}"
            )
    atoms_n, atoms_p = model.atoms()
    law_n, law_p = model._neg, model._pos
    scores_n = atoms_n if law_n.discrete else _score_grid(law_n, num, score_range)
    scores_p = atoms_p if law_p.discrete else _score_grid(law_p, num, score_range)
    dens_n = model.densities(scores_n)[0]
    dens_p = model.densities(scores_p)[1]
    fpr = np.unique(np.concatenate([np.linspace(0, 1, num), np.logspace(-6, -2, 40)]))
    tpr = model._roc(fpr)
    recall = np.unique(np.concatenate([np.logspace(-5, -2, 60), np.linspace(0.01, 1, num)]))
    models = [model.with_prevalence(p) for p in prev]
    precision = np.stack([m._precision(recall) for m in models])
    lower = np.stack([p * recall / (p * recall + 1 - p) for p in prev])
    t = np.empty(0) if thresholds is None else np.atleast_1d(np.asarray(thresholds, float))
    mark_prec = np.stack([np.atleast_1d(m.precision_at_threshold(t)) for m in models])
    return PopulationCurves(
        name=name,
        discrete=model.is_discrete,
        law_discrete=(law_n.discrete, law_p.discrete),
        scores_negative=scores_n,
        density_negative=dens_n,
        scores_positive=scores_p,
        density_positive=dens_p,
        fpr=fpr,
        tpr=tpr,
        recall=recall,
        prevalences=prev,
        precision=precision,
        lower_bound=lower,
        thresholds=t,
        mark_fpr=np.atleast_1d(model.fpr_at(t)),
        mark_tpr=np.atleast_1d(model.tpr_at(t)),
        mark_precision=mark_prec,
    )
