"""The two simulations of Brodersen et al. (2010), vectorised over replicates.

Every replicate is a row of an ``(R, n)`` score matrix; the empirical average precision of all
rows comes from one sort along the rows and cumulative counts, the binormal and α-binormal fits
are per-row moments, and the average precision of every fitted curve is one matrix product with
fixed quadrature weights on a recall grid.  There is no Python loop over replicates.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import special, stats

from .._core._area import batched_area
from .._core._batch import batch_counts
from .._core._empirical import PRCurve, ROCCurve, pr_curve, roc_curve
from .._core._results import compact_repr
from .._core._validation import check_positive_int, check_rng, check_unit_interval_array
from .._population._model import PopulationModel
from ._binormal import BidistributionFit, fit_binormal, precision_from_fpr, recall_quadrature

__all__ = [
    "ESTIMATORS",
    "BrodersenFig1Result",
    "BrodersenFig2Result",
    "batched_average_precision",
    "batched_binormal_average_precision",
    "batched_binormal_fit",
    "simulate_brodersen_fig1",
    "simulate_brodersen_fig2",
]

#: The three estimators compared in Brodersen et al. (2010).
ESTIMATORS = ("empirical", "binormal", "alpha_binormal")

DEFAULT_PREVALENCES = (0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95)


# ------------------------------------------------------------------ vectorised building blocks
def batched_average_precision(y: np.ndarray, score: np.ndarray) -> np.ndarray:
    """Empirical average precision of every row, ``Σ_k (R_k − R_{k−1}) P_k``.

    Parameters
    ----------
    y : ndarray of bool, shape (n,) or (R, n)
        Labels (shared by all rows when 1-D).
    score : ndarray, shape (R, n)

    Returns
    -------
    ndarray, shape (R,)
        Equal to ``prcurve.auc_pr(y[i], score[i])`` for each row (ties are one operating point).

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve._parametric._brodersen import batched_average_precision
    >>> batched_average_precision(np.array([0, 0, 1, 1], bool), np.array([[0.1, 0.4, 0.35, 0.8]]))
    array([0.83333333])
    """
    score = np.atleast_2d(np.asarray(score, dtype=np.float64))
    rows, n = score.shape
    labels = np.broadcast_to(np.asarray(y, dtype=bool), (rows, n))
    n_pos = labels.sum(axis=1)
    if (n_pos == 0).any():
        raise ValueError(
            f"y: expected at least one positive in every row, got none in row "
            f"{int(np.flatnonzero(n_pos == 0)[0])}"
        )
    step = max(1, _CHUNK_ELEMENTS // max(n, 1))  # blocks of rows keep temporaries in cache
    out = np.empty(rows)
    for i in range(0, rows, step):
        tp, fp = batch_counts(labels[i : i + step], score[i : i + step])
        out[i : i + step] = batched_area(tp, fp, n_pos[i : i + step], "average_precision")
    return out


_CHUNK_ELEMENTS = 1 << 20


def batched_binormal_fit(
    y: np.ndarray, score: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Closed-form binormal MLE of every row: ``(mu_neg, sigma_neg, mu_pos, sigma_pos, alpha)``.

    Each output has shape (R,); α is the fraction of positives of the row.  Same estimates as
    :func:`prcurve.fit_binormal` row by row.
    """
    score = np.atleast_2d(np.asarray(score, dtype=np.float64))
    labels = np.broadcast_to(np.asarray(y, dtype=bool), score.shape)
    out = []
    for mask in (~labels, labels):  # two classes, not a loop over rows
        count = mask.sum(axis=1)
        mean = np.sum(score, axis=1, where=mask) / count
        var = np.sum((score - mean[:, None]) ** 2, axis=1, where=mask) / count
        out += [mean, np.sqrt(var)]
    alpha = labels.sum(axis=1) / score.shape[1]
    return out[0], out[1], out[2], out[3], alpha


def batched_binormal_average_precision(
    mu_neg: Any, sigma_neg: Any, mu_pos: Any, sigma_pos: Any, alpha: Any
) -> np.ndarray:
    """Average precision of binormal PR curves, vectorised over parameter arrays.

    Parameters
    ----------
    mu_neg, sigma_neg, mu_pos, sigma_pos, alpha : array-like, broadcastable to shape (R,)

    Returns
    -------
    ndarray, shape (R,)
        ``∫₀¹ PPV(x) dx`` by composite Gauss–Legendre quadrature (:func:`recall_quadrature`).

    Notes
    -----
    Brodersen et al. (2010) eqs. (7)–(8), corrected: the threshold at recall x is
    ``t = μ₊ + σ₊ Φ⁻¹(1 − x)``, the false positive rate ``1 − Φ((t − μ₋)/σ₋)``.
    """
    x, w = recall_quadrature()
    cols = [
        np.atleast_1d(np.asarray(v, dtype=np.float64))[:, None]
        for v in (mu_neg, sigma_neg, mu_pos, sigma_pos, alpha)
    ]
    m_neg, s_neg, m_pos, s_pos, a = cols
    t = m_pos - s_pos * special.ndtri(x)  # isf of the positives' normal at recall x
    fpr = special.ndtr((m_neg - t) / s_neg)
    return np.asarray(precision_from_fpr(x, fpr, a) @ w)


def _check_normal(value: Any, name: str) -> tuple[float, float]:
    try:
        mean, sd = (float(v) for v in value)
    except (TypeError, ValueError):
        raise TypeError(
            f"{name}: expected a pair (mean, standard deviation), got {value!r}"
        ) from None
    if not (np.isfinite(mean) and np.isfinite(sd) and sd > 0):
        raise ValueError(
            f"{name}: expected a finite mean and a positive standard deviation, got {value!r}"
        )
    return mean, sd


def _simulate(
    gen: np.random.Generator, rows: int, n_neg: int, n_pos: int, neg: tuple, pos: tuple
) -> tuple[np.ndarray, np.ndarray]:
    y = np.r_[np.zeros(n_neg, dtype=bool), np.ones(n_pos, dtype=bool)]
    z = gen.standard_normal((rows, n_neg + n_pos))
    loc = np.where(y, pos[0], neg[0])
    scale = np.where(y, pos[1], neg[1])
    return y, z * scale + loc


def _estimates(y: np.ndarray, score: np.ndarray) -> dict[str, np.ndarray]:
    """Average precision of the three estimators for every row."""
    mn, sn, mp, sp, alpha = batched_binormal_fit(y, score)
    return {
        "empirical": batched_average_precision(y, score),
        "binormal": batched_binormal_average_precision(mn, sn, mp, sp, 0.5),
        "alpha_binormal": batched_binormal_average_precision(mn, sn, mp, sp, alpha),
    }


def _mean_and_sem(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    r = values.shape[-1]
    return values.mean(axis=-1), values.std(axis=-1, ddof=1) / np.sqrt(r)


# -------------------------------------------------------------------------------- Figure 1 ----
@compact_repr
@dataclass(frozen=True)
class BrodersenFig1Result:
    """Empirical vs binormal vs α-binormal vs true ROC and PR curves (Brodersen Fig. 1).

    Attributes
    ----------
    y, score : ndarray, shape (n,)
        The illustrated sample (the first simulated replicate).
    truth : PopulationModel
        The generating model, prevalence ``n_pos / n``.
    binormal, alpha_binormal : BidistributionFit
        Fits of the illustrated sample (α = ½, α estimated).
    empirical_pr, empirical_roc : PRCurve, ROCCurve
        Empirical curves of the illustrated sample.
    recall : ndarray, shape (g,)
        Recall grid in (0, 1].
    precision_true, precision_binormal, precision_alpha_binormal : ndarray, shape (g,)
    fpr : ndarray, shape (h,)
        False positive rate grid in [0, 1].
    tpr_true, tpr_fitted : ndarray, shape (h,)
        True and fitted ROC curves (binormal and α-binormal ROC curves coincide).
    roc_auc_true, average_precision_true : float
    roc_auc_estimates, average_precision_estimates : dict of str to ndarray, shape (R,)
        Estimates over the R simulations, keyed by :data:`ESTIMATORS`.
    """

    y: np.ndarray
    score: np.ndarray
    truth: PopulationModel
    binormal: BidistributionFit
    alpha_binormal: BidistributionFit
    empirical_pr: PRCurve
    empirical_roc: ROCCurve
    recall: np.ndarray
    precision_true: np.ndarray
    precision_binormal: np.ndarray
    precision_alpha_binormal: np.ndarray
    fpr: np.ndarray
    tpr_true: np.ndarray
    tpr_fitted: np.ndarray
    roc_auc_true: float
    average_precision_true: float
    roc_auc_estimates: Mapping[str, np.ndarray]
    average_precision_estimates: Mapping[str, np.ndarray]

    def roc_auc_error(self) -> dict[str, tuple[float, float]]:
        """Mean difference (estimate − truth) and its standard error, per estimator (inset)."""
        return {k: _summary(v - self.roc_auc_true) for k, v in self.roc_auc_estimates.items()}

    def average_precision_error(self) -> dict[str, tuple[float, float]]:
        """Mean difference (estimate − truth) of the AP and its standard error, per estimator."""
        return {
            k: _summary(v - self.average_precision_true)
            for k, v in self.average_precision_estimates.items()
        }


def _summary(values: np.ndarray) -> tuple[float, float]:
    mean, sem = _mean_and_sem(values)
    return float(mean), float(sem)


def simulate_brodersen_fig1(
    *,
    n_neg: int = 60,
    n_pos: int = 40,
    negative: tuple[float, float] = (-1.0, 2.0),
    positive: tuple[float, float] = (1.0, 2.0),
    n_simulations: int = 1000,
    num: int = 201,
    rng: Any = None,
) -> BrodersenFig1Result:
    """Brodersen et al. (2010) Fig. 1: empirical and model-based ROC and PR curves.

    Parameters
    ----------
    n_neg, n_pos : int
        Class sizes of each simulated sample (at least 2 each).
    negative, positive : (mean, sd)
        Normal laws of the scores of each class.
    n_simulations : int
        Number R of replicates for the AUC and AP errors (the inset of Fig. 1b).
    num : int
        Number of grid points of the drawn curves.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    BrodersenFig1Result

    Notes
    -----
    Section IV, "Empirical vs. model-based PRCs": 60 negatives N(−1, 2²) and 40 positives
    N(1, 2²).  The binormal PR curve (α = ½) overestimates the true curve; the α-binormal one
    (α = 0.4) approximates it; the ROC AUC estimates are unbiased.

    Examples
    --------
    >>> from prcurve import simulate_brodersen_fig1
    >>> res = simulate_brodersen_fig1(n_simulations=200, rng=0)
    >>> round(res.roc_auc_true, 4), round(res.average_precision_true, 4)
    (0.7602, 0.6768)
    >>> round(res.alpha_binormal.prevalence, 2), res.roc_auc_estimates["empirical"].shape
    (0.4, (200,))
    """
    n_neg = check_positive_int(n_neg, "n_neg", minimum=2)
    n_pos = check_positive_int(n_pos, "n_pos", minimum=2)
    neg, pos = _check_normal(negative, "negative"), _check_normal(positive, "positive")
    rows = check_positive_int(n_simulations, "n_simulations", minimum=2)
    num = check_positive_int(num, "num", minimum=2)
    gen = check_rng(rng)
    y, score = _simulate(gen, rows, n_neg, n_pos, neg, pos)
    truth = PopulationModel(stats.norm(*neg), stats.norm(*pos), prevalence=n_pos / (n_neg + n_pos))

    mn, sn, mp, sp, _ = batched_binormal_fit(y, score)
    fitted_auc = special.ndtr((mp - mn) / np.hypot(sp, sn))
    ranks = stats.rankdata(score, axis=1)
    empirical_auc = (ranks[:, y].sum(axis=1) - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)

    sample = score[0]
    binormal = fit_binormal(y, sample, estimate_prevalence=False)
    alpha_binormal = fit_binormal(y, sample)
    recall = np.linspace(0.0, 1.0, num)[1:]
    fpr = np.linspace(0.0, 1.0, num)
    return BrodersenFig1Result(
        y=y,
        score=sample,
        truth=truth,
        binormal=binormal,
        alpha_binormal=alpha_binormal,
        empirical_pr=pr_curve(y, sample),
        empirical_roc=roc_curve(y, sample),
        recall=recall,
        precision_true=np.asarray(truth.precision_at(recall)),
        precision_binormal=np.asarray(binormal.precision_at(recall)),
        precision_alpha_binormal=np.asarray(alpha_binormal.precision_at(recall)),
        fpr=fpr,
        tpr_true=np.asarray(truth.roc(fpr)),
        tpr_fitted=np.asarray(alpha_binormal.roc(fpr)),
        roc_auc_true=truth.auc_roc(),
        average_precision_true=truth.auc_pr(),
        roc_auc_estimates={
            "empirical": empirical_auc,
            "binormal": fitted_auc,
            "alpha_binormal": fitted_auc,
        },
        average_precision_estimates=_estimates(y, score),
    )


# -------------------------------------------------------------------------------- Figure 2 ----
@compact_repr
@dataclass(frozen=True)
class BrodersenFig2Result:
    """Mean average precision of three estimators against class imbalance (Brodersen Fig. 2).

    Attributes
    ----------
    prevalences : ndarray, shape (L,)
        Realised fractions of positives ``n_pos / n`` of each level.
    n : int
        Sample size of every simulation.
    n_pos : ndarray of int, shape (L,)
        Number of positives of each level.
    true_average_precision : ndarray, shape (L,)
        Population AP of each level (quadrature of the true PR curve).
    estimates : dict of str to ndarray, shape (L, R)
        AP estimates of every simulation, keyed by :data:`ESTIMATORS`.
    """

    prevalences: np.ndarray
    n: int
    n_pos: np.ndarray
    true_average_precision: np.ndarray
    estimates: Mapping[str, np.ndarray]

    @property
    def n_simulations(self) -> int:
        """Number R of simulations per level."""
        return int(next(iter(self.estimates.values())).shape[1])

    def mean(self) -> dict[str, np.ndarray]:
        """Mean AP estimate per level, shape (L,), per estimator."""
        return {k: _mean_and_sem(v)[0] for k, v in self.estimates.items()}

    def sem(self) -> dict[str, np.ndarray]:
        """Standard error of the mean AP per level, shape (L,), per estimator."""
        return {k: _mean_and_sem(v)[1] for k, v in self.estimates.items()}

    def bias(self) -> dict[str, np.ndarray]:
        """Mean AP estimate minus the true AP, shape (L,), per estimator."""
        return {k: m - self.true_average_precision for k, m in self.mean().items()}

    def table(self) -> str:
        """A plain-text table: one row per level, truth and bias ± s.e.m. per estimator."""
        head = f"{'pi+':>6} {'n+':>4} {'true AP':>8}" + "".join(
            f" {name + ' bias':>22}" for name in ESTIMATORS
        )
        bias, sem = self.bias(), self.sem()
        lines = [head]
        for i, p in enumerate(self.prevalences):
            cells = "".join(f" {bias[k][i]:>+12.4f} ± {sem[k][i]:.4f}" for k in ESTIMATORS)
            lines.append(
                f"{p:>6.3f} {self.n_pos[i]:>4d} {self.true_average_precision[i]:>8.4f}{cells}"
            )
        return "\n".join(lines)


def simulate_brodersen_fig2(
    prevalences: Any = DEFAULT_PREVALENCES,
    *,
    n: int = 100,
    n_simulations: int = 1000,
    negative: tuple[float, float] = (-1.0, 2.0),
    positive: tuple[float, float] = (1.0, 2.0),
    rng: Any = None,
) -> BrodersenFig2Result:
    """Brodersen et al. (2010) Fig. 2: AP bias of three estimators against class imbalance.

    Parameters
    ----------
    prevalences : array-like of float in (0, 1), shape (L,)
        Fractions of positives; each level uses ``round(π n)`` positives (stratified samples).
    n : int
        Sample size of each simulation.
    n_simulations : int
        Number R of simulations per level.
    negative, positive : (mean, sd)
        Normal laws of the scores.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    BrodersenFig2Result

    Raises
    ------
    ValueError
        If a level has fewer than 2 positives or 2 negatives.

    Notes
    -----
    Section IV, "The impact of class imbalance on the AP": the plain binormal AP is unbiased
    only at π₊ = ½; the α-binormal AP has the smallest bias; the empirical AP is close but more
    positively biased.  Each level draws an (R, n) matrix; see the module docstring.

    Examples
    --------
    >>> from prcurve import simulate_brodersen_fig2
    >>> res = simulate_brodersen_fig2([0.1, 0.5], n_simulations=200, rng=0)
    >>> [round(float(v), 3) for v in res.true_average_precision]
    [0.293, 0.753]
    >>> round(float(res.bias()["binormal"][0]), 2)
    0.46
    """
    levels = np.atleast_1d(check_unit_interval_array(prevalences, "prevalences", high_open=True))
    n = check_positive_int(n, "n", minimum=4)
    rows = check_positive_int(n_simulations, "n_simulations", minimum=2)
    neg, pos = _check_normal(negative, "negative"), _check_normal(positive, "positive")
    gen = check_rng(rng)
    counts = np.rint(levels * n).astype(np.int64)
    bad = (counts < 2) | (counts > n - 2)
    if bad.any():
        raise ValueError(
            f"prevalences: expected at least 2 positives and 2 negatives per sample of n={n}, "
            f"got {counts[bad][0]} positives for prevalence {float(levels[bad][0])!r}"
        )
    truth = batched_binormal_average_precision(neg[0], neg[1], pos[0], pos[1], counts / n)
    per_level = [_estimates(*_simulate(gen, rows, n - c, c, neg, pos)) for c in counts]
    estimates = {k: np.stack([lvl[k] for lvl in per_level]) for k in ESTIMATORS}
    return BrodersenFig2Result(
        prevalences=counts / n,
        n=n,
        n_pos=counts,
        true_average_precision=truth,
        estimates=estimates,
    )
