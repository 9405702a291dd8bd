"""Monte Carlo study of the functional PR estimator PR̂(x) (Hughes-Oliver section 3.2).

Replicates are drawn as one (R, n) matrix and the estimator is evaluated for all of them at once:
one sort of each class along axis 1, an order statistic per (replicate, x), and a binary search
run on all (replicate, x) pairs together — no Python loop per replicate.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._batch import functional_precision_sorted
from .._core._binomial import conditional_binomial
from .._core._results import compact_repr
from .._core._validation import (
    check_choice,
    check_positive_int,
    check_rng,
    check_unit_interval_array,
)
from ._asymptotic import NormalApproximation, normal_approximation
from ._model import PopulationModel

__all__ = ["PRSimulation", "batch_precision_at", "simulate_pr_estimator"]

CLASS_COUNTS = ("binomial", "fixed")
PAPER_RECALL = np.round(np.arange(1, 11) / 10, 10)
# rows of the (R, n) score matrix handled at once (bounds memory to a few hundred MB)
_CHUNK_ELEMENTS = 2_000_000


def batch_precision_at(y: Any, score: Any, recall: Any) -> np.ndarray:
    """The functional estimator PR̂(x) for many labelled samples at once.

    Parameters
    ----------
    y : array-like of bool, shape (R, n)
        True for positives; every row needs at least one positive.
    score : array-like, shape (R, n)
        Scores (ties allowed).
    recall : array-like, shape (m,)
        Recall levels in (0, 1].

    Returns
    -------
    ndarray, shape (R, m)
        Row r equals ``pr_curve(y[r], score[r]).precision_at(recall, ties="strict")``: the
        papers' estimator, whose population counterpart is eq. (5) also for discrete laws.

    Notes
    -----
    Clémençon & Vayatis (2009) eq. (3), Hughes-Oliver section 3.1:
    ``PR̂(x) = n₊x / (n₊x + n₋ α̂(x))`` with ``α̂(x) = 1 − Ĥ(Ĝ⁻¹(1 − x))``.  ``Ĝ⁻¹(1 − x)`` is
    the score z of the j-th largest positive, ``j = ⌊n₊x⌋ + 1`` (capped at n₊), and ``n₋α̂`` the
    number of negatives strictly above z; same rounding tolerance as
    :meth:`prcurve.PRCurve.precision_at`.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import batch_precision_at
    >>> y = np.array([[1, 0, 1, 0], [1, 1, 0, 0]], dtype=bool)
    >>> s = np.array([[0.9, 0.8, 0.7, 0.1], [0.9, 0.8, 0.7, 0.1]])
    >>> batch_precision_at(y, s, [0.5, 1.0])
    array([[0.5       , 0.66666667],
           [1.        , 1.        ]])
    """
    lab = np.asarray(y, dtype=bool)
    s = np.asarray(score)
    if s.dtype.kind in "iu":
        # only the order matters: ranks are exact in float64, large integers may not be
        s = np.unique(s, return_inverse=True)[1].reshape(s.shape).astype(np.float64)
    s = np.asarray(s, dtype=np.float64)
    if lab.ndim != 2 or s.shape != lab.shape:
        raise ValueError(
            f"y and score: expected two arrays of one shape (R, n), got {lab.shape} and {s.shape}"
        )
    if not np.isfinite(s).all():
        raise ValueError("score: expected finite numbers, got NaN or infinite values")
    x = np.atleast_1d(check_unit_interval_array(recall, "recall", low_open=True, high_open=False))
    n_pos = lab.sum(axis=1)
    if (n_pos == 0).any():
        raise ValueError(
            f"y: expected at least one positive in every row, got none in row "
            f"{int(np.flatnonzero(n_pos == 0)[0])}"
        )
    return _batch_precision(lab, s, x.ravel())


def _batch_precision(lab: np.ndarray, s: np.ndarray, x: np.ndarray) -> np.ndarray:
    # each class sorted within its row, the other class's entries pushed to the end as +inf
    pos = np.sort(np.where(lab, s, np.inf), axis=1)
    neg = np.sort(np.where(lab, np.inf, s), axis=1)
    return functional_precision_sorted(pos, neg, lab.sum(axis=1), x, ties="strict")


def _class_sizes(
    model: PopulationModel, n: int, rows: int, mode: str, gen: np.random.Generator
) -> np.ndarray:
    if mode == "fixed":
        return np.full(rows, min(max(round(n * model.prevalence), 1), n - 1), dtype=np.int64)
    return conditional_binomial(gen, n, model.prevalence, rows, min_each=1)


def draw_rows(
    model: PopulationModel, n_pos: np.ndarray, n: int, gen: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    lab = np.arange(n)[None, :] < n_pos[:, None]
    score = np.empty(lab.shape)
    total_pos = int(n_pos.sum())
    score[lab] = model.positive.rvs(size=total_pos, random_state=gen)
    score[~lab] = model.negative.rvs(size=lab.size - total_pos, random_state=gen)
    return lab, score


@compact_repr
@dataclass(frozen=True)
class PRSimulation:
    """Replicates of the functional estimator PR̂(x) under a population model.

    Attributes
    ----------
    model : PopulationModel
        The data-generating model.
    n : int
        Total sample size of each replicate.
    recall : ndarray, shape (m,)
        Recall levels x.
    estimates : ndarray, shape (R, m)
        PR̂(x) for every replicate (rows) and recall level (columns).
    n_pos : ndarray of int, shape (R,)
        Number of positives in each replicate.
    population : ndarray, shape (m,)
        PR(x), the population curve at ``recall``.
    normal : NormalApproximation or None
        ``N(PR(x), σ²(x)/n)`` at the recall levels in (0, 1); None when the model has a discrete
        law or a vanishing density (no asymptotic normality).
    class_counts : {"binomial", "fixed"}
    """

    model: PopulationModel
    n: int
    recall: np.ndarray
    estimates: np.ndarray
    n_pos: np.ndarray
    population: np.ndarray
    normal: NormalApproximation | None
    class_counts: str

    @property
    def n_replicates(self) -> int:
        """R, the number of replicates."""
        return int(self.estimates.shape[0])

    def mean(self) -> np.ndarray:
        """Monte Carlo mean of PR̂(x), shape (m,)."""
        return self.estimates.mean(axis=0)

    def bias(self) -> np.ndarray:
        """Monte Carlo mean of PR̂(x) − PR(x), shape (m,)."""
        return self.mean() - self.population

    def scaled_variance(self) -> np.ndarray:
        """``n · Var(PR̂(x))`` across replicates, to compare with σ²(x); shape (m,)."""
        return self.n * self.estimates.var(axis=0, ddof=1)

    def density(self, values: Any) -> np.ndarray:
        """Gaussian kernel density estimate of PR̂(x) at ``values``; shape (m, g).

        Columns whose replicates are (nearly) all equal have no density estimate and give rows
        of zeros (their histogram is a single bar).
        """
        from scipy import stats

        v = np.asarray(values, dtype=np.float64).ravel()
        out = np.zeros((self.recall.shape[0], v.shape[0]))
        for i, col in enumerate(self.estimates.T):  # one KDE per recall level, not per replicate
            if np.ptp(col) > 1e-12 and np.unique(col).size > 2:
                out[i] = stats.gaussian_kde(col)(v)
        return out

    def histogram(
        self, bins: int = 30, *, value_range: tuple[float, float] = (0.0, 1.0)
    ) -> tuple[np.ndarray, np.ndarray]:
        """Histogram densities of PR̂(x) per recall level.

        Returns
        -------
        density : ndarray, shape (m, bins)
        edges : ndarray, shape (bins + 1,)
        """
        bins = check_positive_int(bins, "bins")
        edges = np.linspace(value_range[0], value_range[1], bins + 1)
        dens = np.stack([np.histogram(c, bins=edges, density=True)[0] for c in self.estimates.T])
        return dens, edges


def simulate_pr_estimator(
    model: PopulationModel,
    n: int,
    recall: Any = PAPER_RECALL,
    *,
    n_replicates: int = 5000,
    class_counts: str = "binomial",
    rng: Any = None,
) -> PRSimulation:
    """Draw ``n_replicates`` samples of size n from ``model`` and evaluate PR̂ at ``recall``.

    Parameters
    ----------
    model : PopulationModel
    n : int
        Total sample size (n₊ + n₋), at least 2.
    recall : array-like, shape (m,)
        Recall levels in (0, 1]; default 0.1, 0.2, ..., 1 as in the paper.
    n_replicates : int
        R, the number of Monte Carlo replicates.
    class_counts : {"binomial", "fixed"}
        ``"binomial"`` (paper): n₊ ~ Binomial(n, π₊), conditioned on both classes being present;
        ``"fixed"``: n₊ = round(nπ₊) in every replicate.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    PRSimulation

    Notes
    -----
    Hughes-Oliver section 3.2 (Figures 7–11): n ∈ {100, 500, 1000}, skew ∈ {10, 4, 1},
    5000 replicates, x = 0.1, ..., 1.  The normal approximation is Theorem 1 with the corrected
    variance σ²(x).

    Examples
    --------
    >>> from prcurve import cases, simulate_pr_estimator
    >>> sim = simulate_pr_estimator(cases.A(1 / 11), 500, [0.5], n_replicates=200, rng=0)
    >>> sim.estimates.shape
    (200, 1)
    >>> round(float(sim.population[0]), 3)
    0.382
    """
    if not isinstance(model, PopulationModel):
        raise TypeError(f"model: expected a PopulationModel, got {type(model).__name__}")
    n = check_positive_int(n, "n", minimum=2)
    x = np.atleast_1d(check_unit_interval_array(recall, "recall", low_open=True, high_open=False))
    x = x.ravel()
    n_replicates = check_positive_int(n_replicates, "n_replicates")
    check_choice(class_counts, "class_counts", CLASS_COUNTS)
    gen = check_rng(rng)
    n_pos = _class_sizes(model, n, n_replicates, class_counts, gen)
    estimates = np.empty((n_replicates, x.shape[0]))
    step = max(1, _CHUNK_ELEMENTS // n)
    for start in range(0, n_replicates, step):  # chunks of many replicates, bounded memory
        stop = min(start + step, n_replicates)
        lab, score = draw_rows(model, n_pos[start:stop], n, gen)
        estimates[start:stop] = _batch_precision(lab, score, x)
    interior = x[x < 1]
    normal = None
    if interior.size and not model.is_discrete:
        try:
            normal = normal_approximation(model, interior, n)
        except ValueError:  # a vanishing density: no normal limit
            normal = None
    return PRSimulation(
        model=model,
        n=n,
        recall=x,
        estimates=estimates,
        n_pos=n_pos,
        population=np.atleast_1d(model._precision(x)),
        normal=normal,
        class_counts=class_counts,
    )
