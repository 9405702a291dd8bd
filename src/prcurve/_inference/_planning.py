"""Planning a study: how many positives give an average-precision interval of a given width.

The half-width of a ``level`` interval for AP at n₊ positives (and n₋ = round(n₊·skew)
negatives, the model's class ratio) is estimated by simulating ``n_sim`` studies from a
:class:`~prcurve.PopulationModel` (or a fit to pilot data, which is one), with its Monte Carlo
error.  The required n₊ is found on the simulated curve: a few sizes around a starting guess are
simulated, log half-width is fitted as a straight line in log n₊ (the curve is close to
``c/√n₊``; weighted by the Monte Carlo variances), and the target is read off the fit; the
sizes are re-centred until they bracket the answer, then narrowed around it once more.  The
Monte Carlo error of the answer is the delta-method error of the fit.

Three meanings of "half-width" (``method``):

* ``"sampling"`` — z·SD(AP̂), the half-width of a normal interval with exactly the nominal
  coverage; large-sample value from the influence-function variance
  (:mod:`prcurve._population._ap_variance`).
* ``"binomial"``, ``"logit"`` — the expected half-width of Boyd et al.'s closed-form interval
  (:func:`prcurve.auc_pr_interval`), ``(high − low)/2`` averaged over the simulated studies.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize, special

from .._core._results import compact_repr
from .._core._validation import (
    check_choice,
    check_fraction,
    check_level,
    check_positive_int,
    check_rng,
)
from .._population._ap_variance import ap_influence_variances
from .._population._model import PopulationModel
from ._ap_simulation import CHUNK_ELEMENTS, batch_average_precision, draw_class_scores

__all__ = ["APHalfWidth", "APPrecisionPlan", "ap_half_width", "plan_ap_precision"]

PRECISION_METHODS = ("sampling", "binomial", "logit")
#: The smallest study simulated, and the largest n₊ a plan may ask for.
MIN_POS, MAX_POS = 5, 1_000_000
_WIDE = 2.0 ** np.array([-1.0, -0.5, 0.0, 0.5, 1.0])
_NARROW = 2.0 ** np.array([-0.25, 0.0, 0.25])


@compact_repr
@dataclass(frozen=True)
class APHalfWidth:
    """Simulated half-width of an AP interval at one study size.

    Attributes
    ----------
    n_pos, n_neg : int
        Class counts of every simulated study.
    half_width, half_width_se : float
        The half-width (see ``method``) and its Monte Carlo standard error.
    mean_ap, sd_ap : float
        Mean and standard deviation of AP̂ over the studies.
    level : float
    method : {"sampling", "binomial", "logit"}
    n_sim : int
    """

    n_pos: int
    n_neg: int
    half_width: float
    half_width_se: float
    mean_ap: float
    sd_ap: float
    level: float
    method: str
    n_sim: int


@compact_repr
@dataclass(frozen=True)
class APPrecisionPlan:
    """Positives needed for an AP interval of a target half-width.

    Attributes
    ----------
    n_pos, n_neg, n : int
        Required positives (``ceil(n_pos_exact)``), negatives at the model's class ratio, total.
    n_pos_exact, n_pos_se : float
        Where the fitted half-width curve meets the target, and its Monte Carlo standard error.
    half_width : float
        The target.
    predicted_half_width, predicted_half_width_se : float
        The fitted half-width at ``n_pos`` and its Monte Carlo standard error.
    asymptotic_n_pos : float or None
        The large-sample answer: ``(z·σ_AP/h)²`` with the influence-function variance for
        ``"sampling"`` (None for discrete laws); Boyd's closed form at the population AP for
        ``"binomial"`` and ``"logit"``.
    average_precision : float
        Population AP (``model.auc_pr()``).
    prevalence, level : float
    method : str
    n_sim : int
        Simulated studies per size.
    curve : tuple of APHalfWidth
        Every simulated size, increasing n₊.
    """

    n_pos: int
    n_neg: int
    n: int
    n_pos_exact: float
    n_pos_se: float
    half_width: float
    predicted_half_width: float
    predicted_half_width_se: float
    asymptotic_n_pos: float | None
    average_precision: float
    prevalence: float
    level: float
    method: str
    n_sim: int
    curve: tuple[APHalfWidth, ...]


def check_model(model: Any, name: str = "model") -> PopulationModel:
    if not isinstance(model, PopulationModel):
        raise TypeError(f"{name}: expected a PopulationModel, got {type(model).__name__}")
    return model


def n_negatives(model: PopulationModel, n_pos: int) -> int:
    """n₋ at the model's class ratio (at least 1)."""
    return max(1, round(n_pos * model.skew))


def _closed_form_half_width(theta: np.ndarray, n_pos: int, z: float, method: str) -> np.ndarray:
    """``(high − low)/2`` of Boyd's interval as :func:`prcurve.auc_pr_interval` builds it."""
    inner = (theta > 0) & (theta < 1)
    t = np.where(inner, theta, 0.5)
    if method == "binomial":
        half = z * np.sqrt(t * (1 - t) / n_pos)
        width = np.minimum(1.0, t + half) - np.maximum(0.0, t - half)
    else:
        c = z / np.sqrt(n_pos * t * (1 - t))
        width = special.expit(special.logit(t) + c) - special.expit(special.logit(t) - c)
    return np.where(inner, width / 2, 0.0)


def _simulate(
    model: PopulationModel, n_pos: int, z: float, level: float, method: str, n_sim: int, gen: Any
) -> APHalfWidth:
    n_neg = n_negatives(model, n_pos)
    step = max(1, CHUNK_ELEMENTS // (n_pos + n_neg))
    ap = np.concatenate(
        [
            batch_average_precision(*draw_class_scores(model, n_pos, n_neg, min(step, left), gen))
            for left in range(n_sim, 0, -step)
        ]
    )
    sd = float(ap.std(ddof=1))
    if method == "sampling":
        # Var(s²) ≈ (m₄ − s⁴)/R, and se(s) = se(s²)/(2s) (delta method)
        m4 = float(np.mean((ap - ap.mean()) ** 4))
        se_sd = math.sqrt(max(m4 - sd**4, 0.0) / n_sim) / (2 * sd) if sd > 0 else 0.0
        half, se = z * sd, z * se_sd
    else:
        widths = _closed_form_half_width(ap, n_pos, z, method)
        half, se = float(widths.mean()), float(widths.std(ddof=1) / math.sqrt(n_sim))
    return APHalfWidth(
        n_pos=n_pos, n_neg=n_neg, half_width=float(half), half_width_se=float(se),
        mean_ap=float(ap.mean()), sd_ap=sd, level=level, method=method, n_sim=n_sim,
    )  # fmt: skip


def ap_half_width(
    model: Any,
    n_pos: int,
    *,
    level: float = 0.95,
    method: str = "sampling",
    n_sim: int = 2000,
    rng: Any = None,
) -> APHalfWidth:
    """Simulated half-width of an AP interval with ``n_pos`` positives.

    Parameters
    ----------
    model : PopulationModel
        Score laws and prevalence, e.g. ``prcurve.fit_binormal(y, s)`` on pilot data; every
        study has n₊ = ``n_pos`` positives and n₋ = round(n₊ · skew) negatives.
    n_pos : int
        Positives per study (at least 2).
    level : float
    method : {"sampling", "binomial", "logit"}
        See :func:`plan_ap_precision`.
    n_sim : int
        Simulated studies (at least 10).
    rng : None, int or numpy.random.Generator

    Returns
    -------
    APHalfWidth

    Examples
    --------
    >>> from scipy import stats
    >>> from prcurve import PopulationModel, ap_half_width
    >>> m = PopulationModel(stats.norm(0, 1), stats.norm(1.5, 1), prevalence=0.05)
    >>> r = ap_half_width(m, 100, n_sim=500, rng=0)
    >>> r.n_neg, abs(r.half_width - 0.092) < 4 * r.half_width_se
    (1900, True)
    """
    model = check_model(model)
    n_pos = check_positive_int(n_pos, "n_pos", minimum=2)
    level = check_level(level)
    check_choice(method, "method", PRECISION_METHODS)
    n_sim = check_positive_int(n_sim, "n_sim", minimum=10)
    z = float(special.ndtri(0.5 + level / 2))
    return _simulate(model, n_pos, z, level, method, n_sim, check_rng(rng))


def _asymptotic_n_pos(model: PopulationModel, h: float, z: float, method: str) -> float | None:
    if method == "sampling":
        if model.is_discrete:
            return None
        _, var_pos, var_neg = ap_influence_variances(model, model.skew)
        return (z / h) ** 2 * (var_pos + var_neg / model.skew)
    theta = model.auc_pr()
    if method == "binomial" or not 0 < theta < 1:
        return z**2 * theta * (1 - theta) / h**2
    # logit: (expit(L + c) − expit(L − c))/2 = h, c = z/√(n₊θ(1−θ))
    lt = float(special.logit(theta))

    def gap(c: float) -> float:
        return float(special.expit(lt + c) - special.expit(lt - c)) / 2 - h

    if gap(50.0) <= 0:
        return float(MIN_POS)
    c = optimize.brentq(gap, 1e-12, 50.0, xtol=1e-14)
    return z**2 / (c**2 * theta * (1 - theta))


def _fit(points: list[APHalfWidth]) -> tuple[np.ndarray, np.ndarray]:
    """Weighted least squares of log half-width on log n₊: coefficients and their covariance."""
    hw = np.array([p.half_width for p in points])
    if (hw <= 0).any():
        raise ValueError(
            "model: the simulated AP does not vary (e.g. perfectly separated classes), so no "
            "sample size is needed for its interval"
        )
    rel = np.maximum(np.array([p.half_width_se for p in points]) / hw, 1e-12)
    design = np.column_stack([np.ones(hw.size), np.log([p.n_pos for p in points])])
    weighted = design / rel[:, None]
    cov = np.linalg.inv(weighted.T @ weighted)
    coef = cov @ (weighted.T @ (np.log(hw) / rel))
    return coef, cov


def _sizes(centre: float, factors: np.ndarray) -> list[int]:
    return sorted({max(MIN_POS, round(centre * f)) for f in factors})


def plan_ap_precision(
    model: Any,
    *,
    half_width: float,
    level: float = 0.95,
    method: str = "sampling",
    n_sim: int = 2000,
    rng: Any = None,
) -> APPrecisionPlan:
    """How many positives give an AP interval of half-width ``half_width``, by simulation.

    Parameters
    ----------
    model : PopulationModel
        Score laws and prevalence of the study population: a model you assume (e.g. two normal
        laws) or a fit to pilot data (``prcurve.fit_binormal(y, s)`` is a PopulationModel; use
        ``.with_prevalence(π)`` for the prevalence of the planned study).  Negatives are
        planned at the model's class ratio, n₋ = round(n₊ · skew).
    half_width : float
        Target half-width in (0, 1), e.g. 0.05 for "AP ± 0.05".
    level : float
        Confidence level of the interval.
    method : {"sampling", "binomial", "logit"}
        ``"sampling"``: z·SD(AP̂), the half-width a correctly calibrated interval needs;
        ``"binomial"``/``"logit"``: the expected half-width of Boyd et al.'s closed-form
        interval (:func:`prcurve.auc_pr_interval`).
    n_sim : int
        Simulated studies per size (at least 10); the Monte Carlo errors shrink as 1/√n_sim.
    rng : None, int or numpy.random.Generator

    Returns
    -------
    APPrecisionPlan

    Raises
    ------
    ValueError
        When the answer is below the smallest study simulated (5 positives) or above
        1,000,000 positives, or the AP of the model does not vary.

    Notes
    -----
    See the module docstring of ``prcurve._inference._planning`` for the search.  The
    simulated studies have fixed class counts (the interval is read conditionally on the
    observed n₊, as Boyd's intervals are).  For large n₊ the ``"sampling"`` half-width agrees
    with ``z·σ_AP/√n₊`` from the influence-function variance (``asymptotic_n_pos``).

    Examples
    --------
    >>> from scipy import stats
    >>> from prcurve import PopulationModel, plan_ap_precision
    >>> m = PopulationModel(stats.norm(0, 1), stats.norm(1.5, 1), prevalence=0.05)
    >>> plan = plan_ap_precision(m, half_width=0.05, n_sim=400, rng=0)
    >>> abs(plan.n_pos - plan.asymptotic_n_pos) < 4 * plan.n_pos_se + 10
    True
    """
    model = check_model(model)
    h = check_fraction(half_width, "half_width")
    level = check_level(level)
    check_choice(method, "method", PRECISION_METHODS)
    n_sim = check_positive_int(n_sim, "n_sim", minimum=10)
    gen = check_rng(rng)
    z = float(special.ndtri(0.5 + level / 2))
    theta = model.auc_pr()
    asymptotic = _asymptotic_n_pos(model, h, z, method)
    guess = asymptotic if asymptotic is not None else z**2 * theta * (1 - theta) / h**2
    if not guess <= MAX_POS:
        raise ValueError(
            f"half_width: about {guess:.3g} positives would be needed for ±{h:g}, more than "
            f"the {MAX_POS:,} a plan simulates; expected a larger half-width"
        )
    done: dict[int, APHalfWidth] = {}

    def measure(sizes: list[int]) -> list[APHalfWidth]:
        for size in sizes:
            if size not in done:
                done[size] = _simulate(model, size, z, level, method, n_sim, gen)
        return [done[size] for size in sizes]

    centre, factors = max(float(guess), MIN_POS), _WIDE
    for _ in range(8):
        sizes = _sizes(centre, factors)
        coef, cov = _fit(measure(sizes))
        if not coef[1] < 0:
            raise ValueError(
                f"n_sim: the simulated half-width does not decrease with n₊ near {sizes[0]}–"
                f"{sizes[-1]} positives; expected more simulated studies, got n_sim={n_sim}"
            )
        exact = float(np.exp((math.log(h) - coef[0]) / coef[1]))
        if exact < MIN_POS and sizes[0] == MIN_POS:
            raise ValueError(
                f"half_width: {MIN_POS} positives already give ±{done[MIN_POS].half_width:.3g} "
                f"(the smallest study planned), expected a half-width below that, got {h:g}"
            )
        if exact > MAX_POS:
            raise ValueError(
                f"half_width: about {exact:.3g} positives would be needed for ±{h:g}, more than "
                f"the {MAX_POS:,} a plan simulates; expected a larger half-width"
            )
        inside = sizes[0] <= exact <= sizes[-1]
        if inside and factors is _NARROW:
            break
        centre = min(max(exact, sizes[0] / 4), sizes[-1] * 4)
        factors = _NARROW if inside else _WIDE
    else:
        raise ValueError(
            f"n_sim: the search for n₊ did not settle; expected more simulated studies, got "
            f"n_sim={n_sim}"
        )
    grad = np.array([-1.0, -(math.log(h) - coef[0]) / coef[1]]) / coef[1]
    n_pos = max(MIN_POS, math.ceil(exact))
    at = np.array([1.0, math.log(n_pos)])
    predicted = float(np.exp(at @ coef))
    n_neg = n_negatives(model, n_pos)
    return APPrecisionPlan(
        n_pos=n_pos, n_neg=n_neg, n=n_pos + n_neg, n_pos_exact=exact,
        n_pos_se=exact * float(np.sqrt(grad @ cov @ grad)), half_width=h,
        predicted_half_width=predicted,
        predicted_half_width_se=predicted * float(np.sqrt(at @ cov @ at)),
        asymptotic_n_pos=asymptotic, average_precision=theta, prevalence=model.prevalence,
        level=level, method=method, n_sim=n_sim,
        curve=tuple(done[k] for k in sorted(done)),
    )  # fmt: skip
