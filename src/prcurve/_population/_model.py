"""Population ROC and PR curves from a pair of score distributions (Hughes-Oliver, section 2).

A :class:`PopulationModel` holds the score law of the negatives (F₋), of the positives (F₊) and
the prevalence π₊.  Every curve is computed with generalized inverses
``F⁻¹(p) = inf{z : F(z) >= p}`` so that continuous and discrete score laws are handled alike.
"""

from __future__ import annotations

import dataclasses
import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import integrate

from .._core._results import compact_repr
from .._core._validation import (
    check_choice,
    check_fraction,
    check_positive_int,
    check_rng,
    check_unit_interval_array,
)
from ._score_law import ScoreLaw, as_score_law

__all__ = [
    "CurveEndpoints",
    "CurveShape",
    "PopulationModel",
    "PopulationOperatingPoints",
]

THRESHOLD_RULES = ("ge", "gt")


def _check_thresholds(threshold: Any) -> np.ndarray:
    try:
        t = np.asarray(threshold, dtype=np.float64)
    except (TypeError, ValueError):
        raise TypeError(f"threshold: expected numbers, got {threshold!r}") from None
    if np.isnan(t).any():
        raise ValueError("threshold: expected numbers (±inf allowed), got NaN")
    return t


def _scalar_or_array(value: np.ndarray) -> np.ndarray | float:
    return float(value) if np.ndim(value) == 0 else value


@compact_repr
@dataclass(frozen=True)
class PopulationOperatingPoints:
    """Population ROC and PR coordinates as functions of the threshold.

    Attributes
    ----------
    thresholds : ndarray, shape (k,)
    fpr, tpr : ndarray, shape (k,)
        ``P(S ∈ A_t | −)`` and ``P(S ∈ A_t | +)`` with ``A_t = [t, ∞)`` for ``rule="ge"`` and
        ``(t, ∞)`` for ``rule="gt"``; the recall is ``tpr``.
    precision : ndarray, shape (k,)
        ``π₊ tpr / (π₊ tpr + π₋ fpr)``.
    rule : {"ge", "gt"}
    """

    thresholds: np.ndarray
    fpr: np.ndarray
    tpr: np.ndarray
    precision: np.ndarray
    rule: str

    @property
    def recall(self) -> np.ndarray:
        """Same as ``tpr``."""
        return self.tpr


@compact_repr
@dataclass(frozen=True)
class CurveEndpoints:
    """The one-sided limits of the population curves (Hughes-Oliver P1 and P2).

    Attributes
    ----------
    roc_start : tuple of float
        ``(0, 1 − F₊(M₋))``, the limit of the ROC curve as the FPR decreases to 0 (P1a).
    roc_end : tuple of float
        ``(1, 1 − F₊(m₋))`` (P1b).
    pr_start : tuple of float
        ``(0, lim_{x↓0} PR(x))``: ``π₊/(π₊ + π₋k)`` when ``M₊ >= M₋`` (P2b), 0 when ``M₊ < M₋``
        (P2c).
    pr_end : tuple of float
        ``(1, π₊/(π₊ + π₋[1 − F₋(m₊)]))`` (P2a).
    k : float
        ``lim_{x↓0} (1 − F₋(F₊⁻¹(1−x)))/x``, which equals ``lim_{t↑M₊} f₋(t)/f₊(t)`` for
        continuous laws (may be ``inf``); 0 when the positives reach beyond the negatives.
    """

    roc_start: tuple[float, float]
    roc_end: tuple[float, float]
    pr_start: tuple[float, float]
    pr_end: tuple[float, float]
    k: float


@compact_repr
@dataclass(frozen=True)
class CurveShape:
    """Numerical shape diagnostics of the population curves on a grid (Hughes-Oliver P3).

    Attributes
    ----------
    roc_concave, roc_convex : bool
        No second difference of the ROC curve on an even FPR grid is above (below) ``tol``.
    pr_nonincreasing, pr_nondecreasing : bool
        No step of the PR curve on the recall grid rises (falls) by more than ``tol``.
    tol : float
    """

    roc_concave: bool
    roc_convex: bool
    pr_nonincreasing: bool
    pr_nondecreasing: bool
    tol: float

    @property
    def pr_monotone(self) -> bool:
        """Whether the PR curve is monotone (either direction)."""
        return self.pr_nonincreasing or self.pr_nondecreasing


@compact_repr
@dataclass(frozen=True)
class PopulationModel:
    """Score laws of the two classes and the prevalence: population ROC and PR curves.

    Parameters
    ----------
    negative : scipy.stats frozen distribution
        Law of the scores of negatives (distribution function F₋).  Any frozen univariate
        continuous or discrete scipy distribution, or a ``scipy.stats.rv_discrete(values=...)``
        instance for scores on a finite set.
    positive : scipy.stats frozen distribution
        Law of the scores of positives (F₊).
    prevalence : float
        π₊ in (0, 1); π₋ = 1 − π₊.

    Notes
    -----
    Hughes-Oliver, "Population and empirical PR curves", section 2: the ROC curve (eq. 3)
    ``y(x) = 1 − F₊(F₋⁻¹(1 − x))`` and the PR curve (eq. 5)
    ``y(x) = π₊ / (π₊ + π₋ [1 − F₋(F₊⁻¹(1 − x))] / x)`` with the generalized inverse
    ``F⁻¹(p) = inf{z : F(z) >= p}`` (``ppf`` for discrete laws, ``isf`` for continuous ones, no
    root finding).  Like the paper, the curves count negatives *strictly above* the threshold
    ``F⁻¹(1 − x)``; this is also the definition of the functional estimator
    :meth:`prcurve.PRCurve.precision_at`.  At the closed ends (FPR 0 or 1, recall 1) the curves
    take their one-sided limits (P1, P2a), so they are continuous there.

    Subclasses (frozen dataclasses adding fields with defaults) must call
    ``super().__post_init__()`` if they define ``__post_init__``.

    Examples
    --------
    >>> from scipy import stats
    >>> from prcurve import PopulationModel
    >>> m = PopulationModel(stats.norm(0, 1), stats.norm(1.4, 1), prevalence=0.5)
    >>> round(m.auc_roc(), 4)
    0.8389
    >>> [round(float(v), 4) for v in m.precision_at([0.5, 1.0])]
    [0.8609, 0.5]
    >>> y, s = m.sample(5, rng=0)
    >>> y.shape, s.shape
    ((5,), (5,))
    """

    negative: Any
    positive: Any
    prevalence: float

    # validated views of the two laws, set in __post_init__
    _neg: ScoreLaw = dataclasses.field(init=False, repr=False, compare=False)
    _pos: ScoreLaw = dataclasses.field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        neg = as_score_law(self.negative, "negative")
        pos = as_score_law(self.positive, "positive")
        object.__setattr__(self, "prevalence", check_fraction(self.prevalence, "prevalence"))
        if neg.lower == neg.upper == pos.lower == pos.upper:
            raise ValueError(
                "negative and positive: both are a point mass at the same score "
                f"{neg.lower!r}; every threshold gives FPR = TPR in {{0, 1}}, so there is no "
                "ROC or PR curve"
            )
        object.__setattr__(self, "_neg", neg)
        object.__setattr__(self, "_pos", pos)

    # ------------------------------------------------------------------ basic quantities
    @property
    def skew(self) -> float:
        """π₋ / π₊."""
        return (1.0 - self.prevalence) / self.prevalence

    @property
    def chance_precision(self) -> float:
        """π₊, the precision of the chance PR curve (P4)."""
        return self.prevalence

    @property
    def is_discrete(self) -> bool:
        """Whether either score law is discrete."""
        return bool(self._neg.discrete or self._pos.discrete)

    @property
    def supports(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """``((m₋, M₋), (m₊, M₊))``, the score ranges of negatives and positives."""
        return (self._neg.lower, self._neg.upper), (self._pos.lower, self._pos.upper)

    @property
    def separation(self) -> str:
        """``"perfect"`` if ``M₋ < m₊`` (P5), ``"reverse"`` if ``M₊ < m₋`` (P6), else
        ``"overlap"``."""
        if self._neg.upper < self._pos.lower:
            return "perfect"
        if self._pos.upper < self._neg.lower:
            return "reverse"
        return "overlap"

    def with_prevalence(self, prevalence: float) -> PopulationModel:
        """The same score laws at another prevalence (ROC curve unchanged, PR curve not)."""
        return dataclasses.replace(self, prevalence=prevalence)

    # ------------------------------------------------------------------ by threshold
    def fpr_at(self, threshold: Any, *, rule: str = "ge") -> np.ndarray | float:
        """False positive rate ``P(S >= t | −)`` (``rule="ge"``) or ``P(S > t | −)`` ("gt").

        The two rules differ only at atoms of a discrete law (``P(S >= t) = sf(t) + pmf(t)``).
        """
        check_choice(rule, "rule", THRESHOLD_RULES)
        t = _check_thresholds(threshold)
        return _scalar_or_array(self._neg.ge(t) if rule == "ge" else self._neg.sf(t))

    def tpr_at(self, threshold: Any, *, rule: str = "ge") -> np.ndarray | float:
        """True positive rate (recall) ``P(S >= t | +)`` or ``P(S > t | +)``."""
        check_choice(rule, "rule", THRESHOLD_RULES)
        t = _check_thresholds(threshold)
        return _scalar_or_array(self._pos.ge(t) if rule == "ge" else self._pos.sf(t))

    def precision_at_threshold(self, threshold: Any, *, rule: str = "ge") -> np.ndarray | float:
        """Precision ``P(+ | S >= t)`` (or ``S > t``), eq. (4).

        Raises
        ------
        ValueError
            At a threshold that predicts no instance positive (precision undefined).
        """
        tpr = np.asarray(self.tpr_at(threshold, rule=rule))
        fpr = np.asarray(self.fpr_at(threshold, rule=rule))
        num = self.prevalence * tpr
        den = num + (1.0 - self.prevalence) * fpr
        if (den <= 0).any():
            bad = np.asarray(_check_thresholds(threshold)).reshape(-1)[np.flatnonzero(den <= 0)[0]]
            raise ValueError(
                f"threshold: precision is undefined where no instance is predicted positive "
                f"(P(S {'>=' if rule == 'ge' else '>'} t) = 0), got t={float(bad)!r}"
            )
        return _scalar_or_array(num / den)

    def operating_points(
        self, thresholds: Any = None, *, rule: str = "ge", num: int = 401
    ) -> PopulationOperatingPoints:
        """ROC and PR coordinates as functions of the threshold.

        Parameters
        ----------
        thresholds : array-like, optional
            Thresholds; by default the atoms of discrete laws plus ``num`` quantiles of the
            mixture of both laws, limited to thresholds predicting some instance positive.
        rule : {"ge", "gt"}
        num : int

        Returns
        -------
        PopulationOperatingPoints
            Sorted by decreasing threshold.
        """
        check_choice(rule, "rule", THRESHOLD_RULES)
        if thresholds is None:
            num = check_positive_int(num, "num", minimum=2)
            t = self._default_thresholds(num)
            keep = self._pos.ge(t) + self._neg.ge(t) > 0
            if rule == "gt":
                keep = self._pos.sf(t) + self._neg.sf(t) > 0
            t = t[keep]
        else:
            t = np.atleast_1d(_check_thresholds(thresholds)).ravel()
        t = np.sort(t)[::-1]
        return PopulationOperatingPoints(
            thresholds=t,
            fpr=np.asarray(self.fpr_at(t, rule=rule)),
            tpr=np.asarray(self.tpr_at(t, rule=rule)),
            precision=np.asarray(self.precision_at_threshold(t, rule=rule)),
            rule=rule,
        )

    def _default_thresholds(self, num: int) -> np.ndarray:
        p = np.linspace(0.0, 1.0, num)[1:-1]
        parts = [self._neg.upper_quantile(p), self._pos.upper_quantile(p)]
        for law in (self._neg, self._pos):
            if law.discrete:
                parts.append(law.atoms())
            parts.append(np.array([law.lower, law.upper]))
        t = np.unique(np.concatenate(parts))
        return t[np.isfinite(t)]

    # ------------------------------------------------------------------ curves
    def roc(self, fpr: Any) -> np.ndarray | float:
        """The ROC curve ``1 − F₊(F₋⁻¹(1 − x))`` (eq. 3) at false positive rates x in [0, 1].

        At x = 0 and x = 1 the one-sided limits of P1 are returned.
        """
        x = check_unit_interval_array(fpr, "fpr", low_open=False, high_open=False)
        return _scalar_or_array(self._roc(x))

    def _roc(self, x: np.ndarray) -> np.ndarray:
        return self._pos.sf(self._neg.upper_quantile(x))

    def _alpha(self, x: np.ndarray) -> np.ndarray:
        """``1 − F₋(F₊⁻¹(1 − x))``, the false positive rate at recall x."""
        return self._neg.sf(self._pos.upper_quantile(x))

    def precision_at(self, recall: Any) -> np.ndarray | float:
        """The PR curve (eq. 5) at recall levels x in (0, 1].

        At x = 1 the limit of P2(a), ``π₊ / (π₊ + π₋[1 − F₋(m₊)])``, is returned.
        """
        x = check_unit_interval_array(recall, "recall", low_open=True, high_open=False)
        return _scalar_or_array(self._precision(x))

    def _precision(self, x: np.ndarray) -> np.ndarray:
        pi = self.prevalence
        num = pi * x
        return num / (num + (1.0 - pi) * self._alpha(x))

    def lower_bound(self, recall: Any) -> np.ndarray | float:
        """The achievable lower bound ``π₊x / (π₊x + π₋)`` of every PR curve (P6)."""
        x = check_unit_interval_array(recall, "recall", low_open=False, high_open=False)
        pi = self.prevalence
        return _scalar_or_array(pi * x / (pi * x + 1.0 - pi))

    def density_ratio(self, recall: Any) -> np.ndarray | float:
        """``f₋(t) / f₊(t)`` at ``t = F₊⁻¹(1 − x)``, the slope of x ↦ 1 − F₋(F₊⁻¹(1 − x)).

        Only for continuous laws, and recall in (0, 1).

        Raises
        ------
        ValueError
            For discrete laws (no densities), or where the positives' density vanishes.
        """
        x = check_unit_interval_array(recall, "recall", low_open=True, high_open=True)
        return _scalar_or_array(self._density_ratio(x))

    def _density_ratio(self, x: np.ndarray) -> np.ndarray:
        if self.is_discrete:
            raise ValueError(
                "model: the density ratio f₋/f₊ needs continuous score laws, got a discrete law"
            )
        t = self._pos.upper_quantile(x)
        fpos, fneg = self._pos.density(t), self._neg.density(t)
        if (fpos <= 0).any() or not np.isfinite(fpos).all():
            bad = np.asarray(x).reshape(-1)[np.flatnonzero(~(fpos > 0) | ~np.isfinite(fpos))[0]]
            raise ValueError(
                f"recall: the positives' density f₊ vanishes or is infinite at F₊⁻¹(1 − x), "
                f"got x={bad!r}"
            )
        return fneg / fpos

    def densities(self, scores: Any) -> tuple[np.ndarray, np.ndarray]:
        """Density (or probability mass) of negatives and positives at ``scores``."""
        t = _check_thresholds(scores)
        return self._neg.density(t), self._pos.density(t)

    def atoms(self) -> tuple[np.ndarray, np.ndarray]:
        """Support points of the (discrete) laws of negatives and positives; empty if continuous."""
        return tuple(  # type: ignore[return-value]
            law.atoms() if law.discrete else np.empty(0) for law in (self._neg, self._pos)
        )

    # ------------------------------------------------------------------ summaries
    def auc_roc(self) -> float:
        """Area under the ROC curve, ``P(S₊ > S₋) + ½ P(S₊ = S₋)``.

        For continuous laws this is the area under eq. (3); with atoms the jumps of the curve are
        joined by straight lines, the limit of the empirical (trapezoidal) ROC AUC.
        """
        neg, pos = self._neg, self._pos
        if pos.discrete:
            z = pos.atoms()
            below = 1.0 - neg.ge(z)  # P(S₋ < z)
            return float(np.sum(pos.mass(z) * (below + 0.5 * neg.mass(z))))
        if neg.discrete:
            z = neg.atoms()
            return float(np.sum(neg.mass(z) * pos.sf(z)))

        def integrand(u: float) -> float:
            return float(1.0 - neg.sf(pos.upper_quantile(np.array(u))))

        value, _ = integrate.quad(integrand, 0.0, 1.0, limit=500, epsabs=1e-13, epsrel=1e-12)
        return float(value)

    def auc_pr(self) -> float:
        """Area under the population PR curve, ``∫₀¹ PR(x) dx`` (eq. 5).

        For continuous laws this is the population average precision.  For a discrete law of
        positives the curve is piecewise ``π₊x / (π₊x + π₋α)`` with α constant between its
        jumps, and each piece is integrated in closed form; otherwise adaptive quadrature is used
        on the smooth pieces between the kinks at the ends of the negatives' support and the
        jumps at the atoms of a discrete law of negatives.
        """
        pi, pineg = self.prevalence, 1.0 - self.prevalence
        if self._pos.discrete:
            z = self._pos.atoms()
            a = self._pos.sf(z)  # recall just above the piece
            b = np.minimum(a + self._pos.mass(z), 1.0)
            c = pineg * self._neg.sf(z) / pi
            pieces = (b - a) - c * np.log1p(
                np.divide(b - a, a + c, where=c > 0, out=np.zeros_like(c))
            )
            return float(np.sum(pieces))
        edges = [self._neg.lower, self._neg.upper]
        if self._neg.discrete:  # the curve jumps where F₊⁻¹(1 − x) crosses an atom
            edges.extend(self._neg.atoms())
        breaks = self._pos.sf(np.asarray(edges, dtype=np.float64))
        points = np.unique(np.concatenate([[0.0, 1.0], breaks[(breaks > 0) & (breaks < 1)]]))

        def integrand(x: float) -> float:
            return float(self._precision(np.array(x)))

        value = 0.0
        for a, b in itertools.pairwise(points):  # smooth pieces
            piece, _ = integrate.quad(integrand, a, b, limit=200, epsabs=1e-13, epsrel=1e-12)
            value += piece
        return float(value)

    def endpoints(self) -> CurveEndpoints:
        """The limits of P1 and P2 at the ends of the ROC and PR curves."""
        neg, pos = self._neg, self._pos
        pi, pineg = self.prevalence, 1.0 - self.prevalence
        roc_start = (0.0, float(pos.sf(np.array(neg.upper))))
        roc_end = (1.0, float(pos.sf(np.array(neg.lower))))
        pr_end = (1.0, float(pi / (pi + pineg * neg.sf(np.array(pos.lower)))))
        k = self._start_ratio()
        start = 0.0 if np.isinf(k) else pi / (pi + pineg * k)
        return CurveEndpoints(
            roc_start=roc_start, roc_end=roc_end, pr_start=(0.0, float(start)), pr_end=pr_end, k=k
        )

    def _start_ratio(self) -> float:
        """k = lim_{x↓0} α(x)/x (P2b, P2c)."""
        neg, pos = self._neg, self._pos
        if pos.upper < neg.upper:
            return float("inf")
        if pos.upper > neg.upper or pos.discrete:
            # no negative strictly above the top positives (for a discrete law of positives
            # F₊⁻¹(1 − x) is the top atom M₊ = M₋ for small x)
            return 0.0
        if neg.discrete:
            # an atom of the negatives at the common upper end M: α(x) -> P(S₋ = M) > 0
            return float("inf")
        # same upper end, continuous laws: the limit of f₋/f₊ as t ↑ M, read off a sequence
        x = np.logspace(-4, -300, 75)
        t = pos.upper_quantile(x)
        with np.errstate(divide="ignore", invalid="ignore"):
            log_ratio = np.asarray(neg.dist.logpdf(t)) - np.asarray(pos.dist.logpdf(t))
        log_ratio = log_ratio[np.isfinite(log_ratio)]
        if log_ratio.size == 0:
            return 0.0
        last = float(log_ratio[-1])
        if last < np.log(1e-8) and (log_ratio.size < 2 or log_ratio[-1] <= log_ratio[-2]):
            return 0.0
        if last > np.log(1e8) and (log_ratio.size < 2 or log_ratio[-1] >= log_ratio[-2]):
            return float("inf")
        return float(np.exp(last))

    def shape(self, *, num: int = 2001, tol: float = 1e-9) -> CurveShape:
        """Numerical monotonicity and concavity diagnostics of the curves (P3) on a grid."""
        num = check_positive_int(num, "num", minimum=3)
        grid = np.linspace(0.0, 1.0, num)
        roc = self._roc(grid)
        second = np.diff(roc, 2)
        recall = np.concatenate([np.logspace(-6, -3, 50, endpoint=False), grid[grid >= 1e-3]])
        steps = np.diff(self._precision(recall))
        return CurveShape(
            roc_concave=bool((second <= tol).all()),
            roc_convex=bool((second >= -tol).all()),
            pr_nonincreasing=bool((steps <= tol).all()),
            pr_nondecreasing=bool((steps >= -tol).all()),
            tol=tol,
        )

    # ------------------------------------------------------------------ sampling
    def sample(self, n: int, *, rng: Any = None) -> tuple[np.ndarray, np.ndarray]:
        """Draw n labelled scores: labels Bernoulli(π₊), then scores from the class law.

        Returns
        -------
        y : ndarray of bool, shape (n,)
            True for positives.
        score : ndarray of float64, shape (n,)
        """
        n = check_positive_int(n, "n")
        gen = check_rng(rng)
        y = gen.random(n) < self.prevalence
        score = np.empty(n)
        n_pos = int(np.count_nonzero(y))
        score[y] = self.positive.rvs(size=n_pos, random_state=gen)
        score[~y] = self.negative.rvs(size=n - n_pos, random_state=gen)
        return y, score
