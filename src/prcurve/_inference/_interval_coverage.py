"""Monte Carlo coverage of every interval the library offers, under a known population model.

One repetition draws n instances from a :class:`~prcurve.PopulationModel` (labels at random,
so n₊ ~ Bin(n, π₊) conditioned on both classes) and computes, on that one sample:

* AUC-PR (average precision): ``auc_pr_ci`` with ``interval="logit"``, ``"binomial"``, and
  ``"bootstrap_percentile"`` / ``"bootstrap_bca"`` under both sampling models (the percentile
  interval is read from the BCa call's replicates: the same numbers a separate call would give);
* pointwise intervals ``pr_pointwise_ci`` at a few recall levels: ``"normal"`` and
  ``"bootstrap"`` under both sampling models;
* bands ``pr_confidence_band``: ``"smoothed_bootstrap"`` and ``"bootstrap"`` under both models;
* the paired comparison ``compare`` of two exchangeable scorers (a second, independent score
  drawn from the same class laws): the interval for the difference covers 0 unless the test
  rejects, so its coverage is one minus the test's size.

The targets are population values: :func:`population_precision` (the generalized-inverse
curve, Hughes-Oliver eq. 5, for ``ties="strict"``; its Davis–Goadrich interpolation across
atoms for the default ``ties="interpolate"``; the two agree for continuous laws) and
:func:`population_average_precision`.  Coverage is reported with its binomial standard error
and Clopper–Pearson 95 % bounds.  The study script is ``bench/coverage_intervals.py``.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._core._binomial import conditional_binomial
from .._core._results import compact_repr
from .._core._validation import check_level, check_positive_int, check_rng
from .._population._model import PopulationModel
from .._population._simulation import draw_rows
from ._auc_ci import auc_pr_ci
from ._band import pr_confidence_band
from ._compare import compare
from ._pointwise import pr_pointwise_ci

__all__ = [
    "CoverageRow",
    "interval_coverage",
    "population_average_precision",
    "population_precision",
]


def population_precision(model: PopulationModel, recall: Any, *, ties: str) -> np.ndarray:
    """The population PR curve the estimator with ``ties`` converges to, shape like ``recall``.

    ``"strict"``: :meth:`PopulationModel.precision_at` (eq. 5).  ``"interpolate"``: where
    ``z = F₊⁻¹(1 − x)`` is an atom of the positives, the false positive rate is
    ``P(S₋ > z) + (x − P(S₊ > z)) / P(S₊ = z) · P(S₋ = z)`` — the straight line in
    (TPR, FPR) across the atom, the limit of the Davis–Goadrich interpolated empirical curve
    (at a jump, x = P(S₊ ≥ z), the top of the vertical drop, as the estimator reads it).
    """
    x = np.asarray(recall, dtype=np.float64)
    if ties == "strict" or not model._pos.discrete:
        return np.asarray(model.precision_at(x), dtype=np.float64)
    # the atom z with P(S₊ > z) < x <= P(S₊ >= z): at a jump (x equal to an atom's tail
    # probability) the top of the vertical drop, like the empirical estimator (left-continuous)
    z = model._pos.upper_quantile(x * (1.0 - 1e-7))
    g_gt, g_eq = model._pos.sf(z), model._pos.mass(z)
    share = np.clip((x - g_gt) / np.where(g_eq > 0, g_eq, 1.0), 0.0, 1.0)
    fpr = model._neg.sf(z) + share * model._neg.mass(z)
    pi = model.prevalence
    return pi * x / (pi * x + (1.0 - pi) * fpr)


def population_average_precision(model: PopulationModel) -> float:
    """The limit of average precision: ``model.auc_pr()``, or with atoms of the positives
    ``Σ_z P(S₊ = z) · π₊G(z) / (π₊G(z) + π₋H(z))`` with ``G, H = P(S ≥ z)`` per class (a tie
    group counts as one threshold)."""
    if not model._pos.discrete:
        return float(model.auc_pr())
    z = model._pos.atoms()
    pi = model.prevalence
    g, h = model._pos.ge(z), model._neg.ge(z)
    prec = pi * g / (pi * g + (1.0 - pi) * h)
    return float(np.sum(model._pos.mass(z) * prec))


@compact_repr
@dataclass(frozen=True)
class CoverageRow:
    """Coverage of one interval in one setting.

    Attributes
    ----------
    interval : str
        E.g. ``"auc logit"``, ``"pointwise bootstrap [instances]"``, ``"band smoothed"``.
    recall : float or None
        Recall level of a pointwise interval.
    n_covered, n_valid : int
        Repetitions whose interval held the target, and repetitions that produced one.
    n_failed : int
        Repetitions where the interval could not be computed (e.g. a discrete sample with
        all positives on one score for a density-based method).
    coverage, standard_error : float
        ``n_covered / n_valid`` and its binomial standard error.
    low, high : float
        Clopper–Pearson 95 % bounds for the true coverage.
    mean_width : float
        Average width (band: 2 × radius; compare: width of the difference interval).
    """

    interval: str
    recall: float | None
    n_covered: int
    n_valid: int
    n_failed: int
    coverage: float
    standard_error: float
    low: float
    high: float
    mean_width: float


class _Tally:
    def __init__(self) -> None:
        self.hits: dict[tuple[str, float | None], list[tuple[bool, float]]] = {}
        self.fails: dict[tuple[str, float | None], int] = {}

    def add(self, key: tuple[str, float | None], covered: bool, width: float) -> None:
        self.hits.setdefault(key, []).append((bool(covered), float(width)))

    def fail(self, key: tuple[str, float | None]) -> None:
        self.hits.setdefault(key, [])
        self.fails[key] = self.fails.get(key, 0) + 1

    def rows(self) -> list[CoverageRow]:
        out = []
        for (name, recall), vals in self.hits.items():
            m = len(vals)
            k = sum(c for c, _ in vals)
            cov = k / m if m else float("nan")
            lo = float(stats.beta.ppf(0.025, k, m - k + 1)) if k > 0 else 0.0
            hi = float(stats.beta.ppf(0.975, k + 1, m - k)) if k < m else 1.0
            out.append(
                CoverageRow(
                    interval=name,
                    recall=recall,
                    n_covered=k,
                    n_valid=m,
                    n_failed=self.fails.get((name, recall), 0),
                    coverage=cov,
                    standard_error=float(np.sqrt(cov * (1 - cov) / m)) if m else float("nan"),
                    low=lo if m else float("nan"),
                    high=hi if m else float("nan"),
                    mean_width=float(np.mean([w for _, w in vals])) if m else float("nan"),
                )
            )
        return out


INTERVAL_GROUPS = ("auc", "pointwise", "band", "compare")
SAMPLINGS = ("instances", "stratified")


def _quiet(func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Call ``func`` with warnings silenced (low effective sample size and the like)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def _logit_bootstrap(
    theta: float, reps: np.ndarray, n_pos: float, level: float, kind: str
) -> tuple[float, float]:
    """Two logit-scale bootstrap intervals for AUC-PR, read from the replicates.

    ``"logit_se"``: expit(logit θ̂ ± z·sd(logit θ*)), the bootstrap standard error on the logit
    scale.  ``"logit_t"``: bootstrap-t on the logit scale, studentized by Boyd's standard error
    1/√(n₊ θ(1 − θ)) (n₊ of the sample; the replicates' own n₊* is not kept).
    """
    eps = 0.5 / max(n_pos, 1.0)
    t_hat = float(np.clip(theta, eps, 1 - eps))
    r = np.clip(reps, eps, 1 - eps)
    lt_hat, lr = np.log(t_hat / (1 - t_hat)), np.log(r / (1 - r))
    z = stats.norm.ppf((1 + level) / 2)
    if kind == "logit_se":
        half = z * float(np.std(lr, ddof=1))
        lo, hi = lt_hat - half, lt_hat + half
    else:
        t = (lr - lt_hat) * np.sqrt(n_pos * r * (1 - r))
        q_lo, q_hi = np.quantile(t, [(1 - level) / 2, (1 + level) / 2])
        se = 1.0 / np.sqrt(n_pos * t_hat * (1 - t_hat))
        lo, hi = lt_hat - q_hi * se, lt_hat - q_lo * se
    return float(1 / (1 + np.exp(-lo))), float(1 / (1 + np.exp(-hi)))


def _one_repetition(
    y, s, s2, model, tally, truth, *, groups, recall, level, n_resamples, gen, candidates=()
):
    ap_true, curve_true, band_truth = truth
    if "auc" in groups:
        for kind in ("logit", "binomial"):
            res = _quiet(auc_pr_ci, y, s, interval=kind, level=level)
            lo, hi = res.interval.low, res.interval.high
            tally.add((f"auc {kind}", None), lo <= ap_true <= hi, hi - lo)
        for sampling in SAMPLINGS:
            try:
                res = _quiet(
                    auc_pr_ci, y, s, interval="bootstrap_bca", level=level,
                    n_resamples=n_resamples, rng=gen, sampling=sampling,
                )  # fmt: skip
            except ValueError:
                tally.fail((f"auc percentile [{sampling}]", None))
                tally.fail((f"auc bca [{sampling}]", None))
                continue
            plo, phi = np.quantile(res.replicates, [(1 - level) / 2, (1 + level) / 2])
            tally.add((f"auc percentile [{sampling}]", None), plo <= ap_true <= phi, phi - plo)
            lo, hi = res.interval.low, res.interval.high
            tally.add((f"auc bca [{sampling}]", None), lo <= ap_true <= hi, hi - lo)
            for kind in candidates:
                lo, hi = _logit_bootstrap(res.estimate, res.replicates, res.n_pos, level, kind)
                name = f"auc {kind.replace('_', '-')} [{sampling}]"
                tally.add((name, None), lo <= ap_true <= hi, hi - lo)
    if "pointwise" in groups:
        variants = [("normal", "instances")] + [("bootstrap", smp) for smp in SAMPLINGS]
        for method, sampling in variants:
            name = "pointwise normal" if method == "normal" else f"pointwise bootstrap [{sampling}]"
            try:
                res = _quiet(
                    pr_pointwise_ci, y, s, recall, level=level, method=method,
                    n_resamples=n_resamples, rng=gen, sampling=sampling,
                )  # fmt: skip
            except ValueError:
                for r in recall:
                    tally.fail((name, float(r)))
                continue
            lo, hi = res.interval.low, res.interval.high
            for j, r in enumerate(recall):
                tally.add((name, float(r)), lo[j] <= curve_true[j] <= hi[j], hi[j] - lo[j])
    if "band" in groups:
        variants = [("smoothed_bootstrap", "instances")] + [("bootstrap", smp) for smp in SAMPLINGS]
        for method, sampling in variants:
            name = "band smoothed" if method != "bootstrap" else f"band naive [{sampling}]"
            try:
                band = _quiet(
                    pr_confidence_band, y, s, level=level, method=method,
                    n_resamples=n_resamples, rng=gen, sampling=sampling, num=band_truth[0].size,
                )  # fmt: skip
            except ValueError:
                tally.fail((name, None))
                continue
            tally.add((name, None), band.contains(band_truth[1]), 2 * band.radius)
    if "compare" in groups:
        for sampling in SAMPLINGS:
            name = f"compare, equal AUC [{sampling}]"
            try:
                res = _quiet(
                    compare, y, s, s2, level=level, n_resamples=n_resamples, rng=gen,
                    sampling=sampling, num=20,
                )  # fmt: skip
            except ValueError:
                tally.fail((name, None))
                continue
            lo, hi = res.interval.low, res.interval.high
            tally.add((name, None), lo <= 0.0 <= hi, hi - lo)


def interval_coverage(
    model: PopulationModel,
    n: int,
    *,
    n_repetitions: int = 200,
    groups: tuple[str, ...] = INTERVAL_GROUPS,
    recall: tuple[float, ...] = (0.5, 0.8, 0.9),
    level: float = 0.95,
    n_resamples: int = 500,
    rng: Any = None,
    progress: Callable[[int, int], object] | None = None,
    candidates: bool = False,
) -> list[CoverageRow]:
    """Coverage of every interval in ``groups`` over ``n_repetitions`` samples of size ``n``.

    Parameters
    ----------
    model : PopulationModel
    n : int
        Instances per sample (labels drawn at random: n₊ varies).
    n_repetitions : int
    groups : tuple of {"auc", "pointwise", "band", "compare"}
    recall : tuple of float
        Recall levels of the pointwise intervals.
    level : float
        Nominal level of every interval.
    n_resamples : int
        Bootstrap replicates per interval.
    rng : None, int or numpy.random.Generator
        Drives the samples and every bootstrap.
    progress : callable, optional
        ``progress(done, total)`` after each repetition.
    candidates : bool
        Also measure two logit-scale bootstrap intervals for AUC-PR that the library does
        *not* offer (rows ``"auc logit-se [...]"`` and ``"auc logit-t [...]"``, read from the
        BCa call's replicates, see :func:`_logit_bootstrap`): kept to reproduce the measurement
        that decided against them (issue 17; ``bench/coverage_before_after.py``).

    Returns
    -------
    list of CoverageRow
        One row per interval (and recall level for pointwise intervals), in a fixed order.

    Notes
    -----
    Intervals use the library defaults (``ties="interpolate"``), so the pointwise and band
    targets are the interpolated population curve (:func:`population_precision`); the AUC-PR
    target is :func:`population_average_precision`.

    Examples
    --------
    >>> from prcurve import cases
    >>> rows = interval_coverage(cases.A(0.3), 200, n_repetitions=3, groups=("auc",),
    ...                          n_resamples=50, rng=0)
    >>> [r.interval for r in rows][:2], rows[0].n_valid
    (['auc logit', 'auc binomial'], 3)
    """
    if not isinstance(model, PopulationModel):
        raise TypeError(f"model: expected a PopulationModel, got {type(model).__name__}")
    n = check_positive_int(n, "n", minimum=8)
    n_repetitions = check_positive_int(n_repetitions, "n_repetitions")
    unknown = sorted(set(groups) - set(INTERVAL_GROUPS))
    if unknown:
        raise ValueError(
            f"groups: expected names among {', '.join(INTERVAL_GROUPS)}, got {unknown[0]!r}"
        )
    level = check_level(level)
    gen = check_rng(rng)
    x = np.asarray(recall, dtype=np.float64)
    grid = np.linspace(0.05, 0.95, 100)  # the band's default recall range, 100 points
    truth = (
        population_average_precision(model),
        population_precision(model, x, ties="interpolate"),
        (grid, population_precision(model, grid, ties="interpolate")),
    )
    tally = _Tally()
    for i in range(n_repetitions):
        n_pos = conditional_binomial(gen, n, model.prevalence, 1, min_each=2)
        lab, score = draw_rows(model, n_pos, n, gen)
        _, other = draw_rows(model, n_pos, n, gen)  # an exchangeable second scorer
        _one_repetition(
            lab[0], score[0], other[0], model, tally, truth,
            groups=groups, recall=x, level=level, n_resamples=n_resamples, gen=gen,
            candidates=("logit_se", "logit_t") if candidates else (),
        )  # fmt: skip
        if progress is not None:
            progress(i + 1, n_repetitions)
    return tally.rows()
