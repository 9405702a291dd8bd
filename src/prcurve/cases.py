"""The score models of Hughes-Oliver's Cases A, A*, B-F as population models.

Each function returns a :class:`prcurve.PopulationModel` with the paper's score laws for the
negative (−) and positive (+) classes at the requested prevalence π₊ (the paper shows
π₊ = 1/2 and π₊ = 1/11, and simulates π₊ = 1/11, 0.2, 0.5).

======  ============================================  ================================
Case    negatives (F₋)                                positives (F₊)
======  ============================================  ================================
A       normal(0, 1)                                  normal(1.4, 1)
A*      lognormal(μ=0, σ=1)                           lognormal(μ=1.4, σ=1)
B       normal(0, 1)                                  8 − W, W ~ lognormal(μ=1.4, σ=1)
C       beta(2, 5)                                    beta(5, 2)
D       uniform[0, 1]                                 uniform[0.5, 1.5]
E       uniform[0.5, 1.5]                             uniform[0, 1]
F       uniform on {.05, .1, .15, .2, .25, .3, .4,    uniform on {.2, .35, .5, .75, .9}
        .5, .6, .7}
======  ============================================  ================================

Examples
--------
>>> from prcurve import cases
>>> m = cases.D(0.5)
>>> m.endpoints().pr_end
(1.0, 0.6666666666666666)
>>> sorted(cases.CASES)
['A', 'A_star', 'B', 'C', 'D', 'E', 'F']
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy import stats

from ._population._model import PopulationModel

__all__ = ["CASES", "A", "A_star", "B", "C", "D", "E", "F"]

_CASE_F_NEGATIVE = (0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7)
_CASE_F_POSITIVE = (0.2, 0.35, 0.5, 0.75, 0.9)


class _reflected_lognorm_gen(stats.rv_continuous):
    """``−L`` for ``L ~ lognorm(s)``; with ``loc`` and ``scale``: ``loc − scale·L``."""

    def _pdf(self, x, s):  # type: ignore[no-untyped-def]
        return stats.lognorm.pdf(-x, s)

    def _logpdf(self, x, s):  # type: ignore[no-untyped-def]
        return stats.lognorm.logpdf(-x, s)

    def _cdf(self, x, s):  # type: ignore[no-untyped-def]
        return stats.lognorm.sf(-x, s)

    def _sf(self, x, s):  # type: ignore[no-untyped-def]
        return stats.lognorm.cdf(-x, s)

    def _ppf(self, q, s):  # type: ignore[no-untyped-def]
        return -stats.lognorm.isf(q, s)

    def _isf(self, q, s):  # type: ignore[no-untyped-def]
        return -stats.lognorm.ppf(q, s)

    def _rvs(self, s, size=None, random_state=None):  # type: ignore[no-untyped-def]
        return -stats.lognorm.rvs(s, size=size, random_state=random_state)


_reflected_lognorm = _reflected_lognorm_gen(a=-np.inf, b=0.0, name="reflected_lognorm", shapes="s")


def _discrete_uniform(values: tuple[float, ...]) -> stats.rv_discrete:
    return stats.rv_discrete(values=(np.array(values), np.full(len(values), 1.0 / len(values))))


def A(prevalence: float = 0.5) -> PopulationModel:
    """Case A, bi-normal: F₋ = N(0, 1), F₊ = N(1.4, 1).

    Notes
    -----
    Hughes-Oliver section 2.3, Figure 3: concave ROC, nonincreasing PR curve from (0, 1) to
    (1, π₊).

    Examples
    --------
    >>> from prcurve import cases
    >>> round(cases.A(0.5).auc_roc(), 4)
    0.8389
    """
    return PopulationModel(stats.norm(0.0, 1.0), stats.norm(1.4, 1.0), prevalence)


def A_star(prevalence: float = 0.5) -> PopulationModel:
    """Case A*, bi-lognormal: log-scores follow Case A (identical curves by P7).

    Examples
    --------
    >>> from prcurve import cases
    >>> round(cases.A_star(0.5).auc_roc(), 4)
    0.8389
    """
    return PopulationModel(
        stats.lognorm(1.0, scale=1.0), stats.lognorm(1.0, scale=np.exp(1.4)), prevalence
    )


def B(prevalence: float = 0.5) -> PopulationModel:
    """Case B: F₋ = N(0, 1); positives score 8 − W with W lognormal(μ=1.4, σ=1).

    ``F₊(t) = Φ((1.4 − log(8 − t))/1)`` for t < 8 = M₊.

    Notes
    -----
    Hughes-Oliver section 2.3, Figure 3: the ROC curve is neither concave nor convex and the PR
    curve is not monotone; it starts at (0, 0) and ends at (1, π₊).

    Examples
    --------
    >>> from prcurve import cases
    >>> cases.B(0.5).endpoints().pr_start
    (0.0, 0.0)
    """
    positive = _reflected_lognorm(1.0, loc=8.0, scale=np.exp(1.4))
    return PopulationModel(stats.norm(0.0, 1.0), positive, prevalence)


def C(prevalence: float = 0.5) -> PopulationModel:
    """Case C, bi-beta: F₋ = beta(2, 5), F₊ = beta(5, 2) (Figure 4).

    Examples
    --------
    >>> from prcurve import cases
    >>> cases.C(0.5).endpoints().pr_end
    (1.0, 0.5)
    """
    return PopulationModel(stats.beta(2.0, 5.0), stats.beta(5.0, 2.0), prevalence)


def D(prevalence: float = 0.5) -> PopulationModel:
    """Case D: F₋ = uniform[0, 1], F₊ = uniform[0.5, 1.5] (Figure 5).

    The ROC curve starts at (0, 0.5); the PR curve ends at (1, 2π₊/(π₊ + 1)).

    Examples
    --------
    >>> from prcurve import cases
    >>> cases.D(0.5).endpoints().roc_start
    (0.0, 0.5)
    """
    return PopulationModel(stats.uniform(0.0, 1.0), stats.uniform(0.5, 1.0), prevalence)


def E(prevalence: float = 0.5) -> PopulationModel:
    """Case E: Case D with the classes swapped, F₋ = uniform[0.5, 1.5], F₊ = uniform[0, 1].

    The ROC curve is convex, ending at (1, 0.5); the PR curve is nondecreasing from (0, 0).

    Examples
    --------
    >>> from prcurve import cases
    >>> cases.E(0.5).endpoints().roc_end
    (1.0, 0.5)
    """
    return PopulationModel(stats.uniform(0.5, 1.0), stats.uniform(0.0, 1.0), prevalence)


def F(prevalence: float = 0.5) -> PopulationModel:
    """Case F, discrete scores (Figure 6).

    Negatives uniform on {0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.7}, positives
    uniform on {0.2, 0.35, 0.5, 0.75, 0.9}.  The ROC curve starts at (0, 0.4); the PR curve has
    jumps at recall 0.2, 0.4, 0.6, 0.8 and ends at (1, π₊/(π₊ + 0.6)).

    Examples
    --------
    >>> from prcurve import cases
    >>> round(cases.F(0.5).endpoints().pr_end[1], 3)
    0.625
    """
    return PopulationModel(
        _discrete_uniform(_CASE_F_NEGATIVE), _discrete_uniform(_CASE_F_POSITIVE), prevalence
    )


CASES: dict[str, Callable[[float], PopulationModel]] = {
    "A": A,
    "A_star": A_star,
    "B": B,
    "C": C,
    "D": D,
    "E": E,
    "F": F,
}
"""The cases by name."""
