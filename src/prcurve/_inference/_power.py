"""Planning a comparison: the power to detect an AP difference between two paired scorers.

Two scorers A and B score the *same* cases, so a study needs a joint model of the two scores of
a case.  Within each class the scores are joined by a Gaussian copula with correlation ρ:
(Z_A, Z_B) is bivariate standard normal with correlation ρ and each score is its class law's
quantile of Φ(Z).  For normal laws (binormal models, e.g. fits to pilot data) this is the
bivariate binormal model with correlation ρ in both classes; ρ = 0 is two independent scorers.

Each simulated study is tested with a two-sided Wald test of AP_A = AP_B, with the paired
influence-function standard error (the AP analogue of DeLong's test; see
:mod:`prcurve._inference._ap_simulation`).  Power is the fraction of studies rejecting, with
its binomial Monte Carlo error.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize, special, stats

from .._core._results import ConfidenceInterval, compact_repr
from .._core._validation import check_fraction, check_positive_int, check_rng
from .._population._model import PopulationModel
from ._ap_simulation import CHUNK_ELEMENTS, ap_with_influence, draw_paired_scores
from ._planning import check_model, n_negatives

__all__ = ["APPowerPlan", "plan_ap_power", "shift_positives"]


@compact_repr
@dataclass(frozen=True)
class APPowerPlan:
    """Simulated power of the paired AP test at one or more study sizes.

    Attributes
    ----------
    n_pos, n_neg : ndarray of int, shape (m,)
        Class counts of the simulated studies.
    power, power_se : ndarray, shape (m,)
        Fraction of studies whose test rejects AP_A = AP_B at ``alpha``, and its binomial Monte
        Carlo standard error ``√(p(1 − p)/n_sim)``.
    power_intervals : tuple of ConfidenceInterval
        Clopper–Pearson 95 % intervals for the power (Monte Carlo uncertainty).
    difference : float
        Population AP_A − AP_B.
    mean_difference, sd_difference : ndarray, shape (m,)
        Mean and standard deviation of the simulated AP̂_A − AP̂_B.
    mean_standard_error : ndarray, shape (m,)
        Mean of the test's standard error; close to ``sd_difference`` when the test is
        calibrated.
    correlation, alpha : float
    n_sim : int
    """

    n_pos: np.ndarray
    n_neg: np.ndarray
    power: np.ndarray
    power_se: np.ndarray
    power_intervals: tuple[ConfidenceInterval, ...]
    difference: float
    mean_difference: np.ndarray
    sd_difference: np.ndarray
    mean_standard_error: np.ndarray
    correlation: float
    alpha: float
    n_sim: int


def _shifted(law: Any, delta: float) -> Any:
    """The frozen scipy law ``law`` moved by ``delta`` (its ``loc`` parameter)."""
    family, args, kwds = law.dist, tuple(law.args), dict(law.kwds)
    n_shapes = family.numargs
    if len(args) > n_shapes:  # loc given positionally
        args = (*args[:n_shapes], args[n_shapes] + delta, *args[n_shapes + 1 :])
    else:
        kwds["loc"] = kwds.get("loc", 0.0) + delta
    return family(*args, **kwds)


def shift_positives(model: PopulationModel, difference: float) -> PopulationModel:
    """A model whose positives' law is moved so that its AP is ``model``'s AP − ``difference``.

    The negatives and the prevalence are kept; for a binormal model this moves the positive
    mean.  Raises ValueError when no shift reaches the target AP.
    """
    if model.is_discrete or not hasattr(model.positive, "dist"):
        raise ValueError(
            "difference: needs a positives' law that is a continuous frozen scipy distribution "
            "(to shift it); give model_b instead"
        )
    target = model.auc_pr() - float(difference)
    floor, scale = model.prevalence, float(model.positive.std())

    def gap(delta: float) -> float:
        moved = PopulationModel(model.negative, _shifted(model.positive, delta), model.prevalence)
        return moved.auc_pr() - target

    if not floor < target < 1.0:
        raise ValueError(
            f"difference: the second scorer's AP would be {target:.4g}, expected an AP between "
            f"the prevalence {floor:.4g} and 1 (the first scorer's AP is {model.auc_pr():.4g})"
        )
    lo, hi = -scale, scale
    while gap(lo) > 0:
        lo *= 2
    while gap(hi) < 0:
        hi *= 2
    delta = optimize.brentq(gap, lo, hi, xtol=1e-10 * scale)
    return PopulationModel(model.negative, _shifted(model.positive, delta), model.prevalence)


def _one_size(
    model_a: PopulationModel, model_b: PopulationModel, rho: float, n_pos: int, z: float,
    n_sim: int, gen: np.random.Generator,
) -> tuple[int, float, float, float, float]:  # fmt: skip
    n_neg = n_negatives(model_a, n_pos)
    # two scorers and about a dozen (rows, n) work arrays each: half the usual chunk
    step = max(1, CHUNK_ELEMENTS // (2 * (n_pos + n_neg)))
    diffs, ses = [], []
    for left in range(n_sim, 0, -step):
        rows = min(step, left)
        pos_a, pos_b = draw_paired_scores(model_a.positive, model_b.positive, rho, n_pos, rows, gen)
        neg_a, neg_b = draw_paired_scores(model_a.negative, model_b.negative, rho, n_neg, rows, gen)
        ap_a, fp_a, fn_a = ap_with_influence(pos_a, neg_a)
        ap_b, fp_b, fn_b = ap_with_influence(pos_b, neg_b)
        var = (fp_a - fp_b).var(axis=1, ddof=1) / n_pos + (fn_a - fn_b).var(axis=1, ddof=1) / n_neg
        diffs.append(ap_a - ap_b)
        ses.append(np.sqrt(var))
    d, se = np.concatenate(diffs), np.concatenate(ses)
    reject = np.abs(d) > z * se  # se = 0 only for identical scorers, which never reject
    return n_neg, float(reject.mean()), float(d.mean()), float(d.std(ddof=1)), float(se.mean())


def _check_sizes(n_pos: Any) -> list[int]:
    values = list(n_pos) if np.ndim(n_pos) else [n_pos]
    if not values:
        raise ValueError("n_pos: expected one or more numbers of positives, got none")
    return [check_positive_int(v, "n_pos", minimum=2) for v in values]


def plan_ap_power(
    model_a: Any,
    model_b: Any = None,
    *,
    difference: float | None = None,
    n_pos: Any,
    correlation: float = 0.0,
    alpha: float = 0.05,
    n_sim: int = 2000,
    rng: Any = None,
) -> APPowerPlan:
    """Power to detect AP_A ≠ AP_B between two scorers of the same cases, by simulation.

    Parameters
    ----------
    model_a : PopulationModel
        Score laws and prevalence of scorer A (e.g. ``prcurve.fit_binormal`` on pilot data).
    model_b : PopulationModel, optional
        Scorer B, with the same prevalence (the cases are shared).
    difference : float, optional
        Instead of ``model_b``: the AP difference AP_A − AP_B to detect; B is A with its
        positives' law shifted (:func:`shift_positives`; for binormal models, a smaller mean).
    n_pos : int or sequence of int
        Positives per study (n₋ = round(n₊ · skew) negatives); one power per size.
    correlation : float
        ρ in (−1, 1) of the Gaussian copula joining the two scores of a case within each class
        (see the module docstring); positive for scorers that agree on which cases are hard.
    alpha : float
        Significance level of the two-sided test.
    n_sim : int
        Simulated studies per size (at least 10).
    rng : None, int or numpy.random.Generator

    Returns
    -------
    APPowerPlan

    Notes
    -----
    Each study is tested with ``|AP̂_A − AP̂_B| > z_{1−α/2} · SE``, SE from the paired
    influence values of AP (fixed class counts).  Only continuous score laws are supported
    (the influence expansion needs them).

    Examples
    --------
    >>> from scipy import stats
    >>> from prcurve import PopulationModel, plan_ap_power
    >>> a = PopulationModel(stats.norm(0, 1), stats.norm(2.0, 1), prevalence=0.1)
    >>> plan = plan_ap_power(a, difference=0.1, n_pos=[50, 200], correlation=0.5,
    ...                      n_sim=300, rng=0)
    >>> bool(plan.power[1] > plan.power[0])
    True
    """
    model_a = check_model(model_a, "model_a")
    if (model_b is None) == (difference is None):
        raise TypeError("plan_ap_power: expected either model_b or difference=, got "
                        + ("both" if model_b is not None else "neither"))  # fmt: skip
    if model_b is None:
        model_b = shift_positives(model_a, float(difference))  # type: ignore[arg-type]
    model_b = check_model(model_b, "model_b")
    if not math.isclose(model_a.prevalence, model_b.prevalence, rel_tol=1e-9):
        raise ValueError(
            f"model_b: expected the prevalence of model_a ({model_a.prevalence!r}), since both "
            f"scorers score the same cases, got {model_b.prevalence!r}"
        )
    for name, m in (("model_a", model_a), ("model_b", model_b)):
        if m.is_discrete:
            raise ValueError(f"{name}: expected continuous score laws, got a discrete law")
    sizes = _check_sizes(n_pos)
    if isinstance(correlation, bool) or not -1.0 < float(correlation) < 1.0:
        raise ValueError(f"correlation: expected a number in (-1, 1), got {correlation!r}")
    rho = float(correlation)
    alpha = check_fraction(alpha, "alpha")
    n_sim = check_positive_int(n_sim, "n_sim", minimum=10)
    gen = check_rng(rng)
    z = float(special.ndtri(1 - alpha / 2))
    rows = [_one_size(model_a, model_b, rho, k, z, n_sim, gen) for k in sizes]
    n_neg, power, mean_d, sd_d, mean_se = (np.array(col) for col in zip(*rows, strict=True))
    hits = np.rint(power * n_sim).astype(int)
    intervals = tuple(
        ConfidenceInterval(
            low=float(stats.beta.ppf(0.025, k, n_sim - k + 1)) if k > 0 else 0.0,
            high=float(stats.beta.ppf(0.975, k + 1, n_sim - k)) if k < n_sim else 1.0,
            level=0.95,
        )
        for k in hits
    )
    return APPowerPlan(
        n_pos=np.array(sizes), n_neg=n_neg.astype(int), power=power,
        power_se=np.sqrt(power * (1 - power) / n_sim), power_intervals=intervals,
        difference=model_a.auc_pr() - model_b.auc_pr(), mean_difference=mean_d,
        sd_difference=sd_d, mean_standard_error=mean_se, correlation=rho, alpha=alpha,
        n_sim=n_sim,
    )  # fmt: skip
