"""Monte Carlo coverage of the confidence bands under a known population model."""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._core._binomial import conditional_binomial
from .._core._results import ConfidenceInterval, compact_repr
from .._core._validation import check_level, check_positive_int, check_rng
from .._population._model import PopulationModel
from .._population._simulation import draw_rows
from ._band import pr_confidence_band
from ._common import DegenerateBootstrapWarning, check_progress
from ._interval_coverage import population_precision

__all__ = ["CoverageResult", "coverage_study"]


@compact_repr
@dataclass(frozen=True)
class CoverageResult:
    """Empirical coverage of a confidence band over repeated samples.

    Attributes
    ----------
    coverage : float
        Fraction of repetitions whose band contains the population PR curve at every grid
        recall.
    interval : ConfidenceInterval
        Clopper–Pearson 95 % interval for the true coverage (Monte Carlo uncertainty).
    n_covered, n_repetitions : int
    n : int
        Sample size of each repetition.
    level : float
        Nominal level of the bands.
    method : str
    mean_radius : float
        Average half-width ``r(δ)/√n`` of the bands.
    radii : ndarray, shape (n_repetitions - n_failed,)
    covered : ndarray of bool, shape (n_repetitions - n_failed,)
        Per repetition that produced a band.
    n_failed : int
        Repetitions whose sample admitted no band (e.g. a discrete law put every positive on one
        atom, so no kernel bandwidth exists); coverage is over the others.
    """

    coverage: float
    interval: ConfidenceInterval
    n_covered: int
    n_repetitions: int
    n: int
    level: float
    method: str
    mean_radius: float
    radii: np.ndarray
    covered: np.ndarray
    n_failed: int = 0


BAND_OPTIONS = ("bandwidth", "p_tilde", "center", "ties", "sampling")


def coverage_study(
    model: Any,
    n: int,
    *,
    n_repetitions: int = 500,
    level: float = 0.95,
    method: str = "smoothed_bootstrap",
    n_resamples: int = 1000,
    recall_range: tuple[float, float] = (0.05, 0.95),
    num: int = 200,
    rng: Any = None,
    progress: Any = None,
    **band_options: Any,
) -> CoverageResult:
    """Empirical coverage of :func:`prcurve.pr_confidence_band` under a population model.

    Parameters
    ----------
    model : PopulationModel
        The population (its laws, prevalence and PR curve), e.g. ``prcurve.cases.A(1/11)``.
    n : int
        Size of each simulated sample.
    n_repetitions : int
        Number of simulated samples.
    level, method, n_resamples, recall_range, num
        Passed to :func:`prcurve.pr_confidence_band`.
    rng : None, int or numpy.random.Generator
        Drives both the samples and the bootstraps.
    progress : callable, optional
        ``progress(done, total)`` after each repetition.
    **band_options
        Further keywords of :func:`prcurve.pr_confidence_band` (``bandwidth``, ``p_tilde``,
        ``center``, ``ties``, ``sampling``).

    Returns
    -------
    CoverageResult

    Notes
    -----
    A repetition draws a sample of size n from the model (labels Bernoulli(π₊)), builds the
    band, and counts as covered when the population curve lies inside the band at every grid
    recall: Hughes-Oliver eq. 5 for continuous laws and ``ties="strict"``; for discrete laws
    and the default ``ties="interpolate"`` its interpolation across the atoms, the curve the
    band's centre estimates.  The number of positives is drawn from the binomial law
    conditioned on at least 2 of each class (exactly, without a rejection loop).  A sample that
    admits no band is counted in ``n_failed`` with a :class:`DegenerateBootstrapWarning`.

    Examples
    --------
    >>> from prcurve import cases, coverage_study
    >>> res = coverage_study(cases.A(0.3), 300, n_repetitions=5, n_resamples=100, rng=0)
    >>> res.n_repetitions, 0.0 <= res.coverage <= 1.0
    (5, True)
    """
    if not isinstance(model, PopulationModel):
        raise TypeError(f"model: expected a PopulationModel, got {type(model).__name__}")
    unknown = sorted(set(band_options) - set(BAND_OPTIONS))
    if unknown:
        raise TypeError(
            f"coverage_study: unexpected keyword {unknown[0]!r} (band options are "
            f"{', '.join(BAND_OPTIONS)})"
        )
    n = check_positive_int(n, "n", minimum=4)
    n_repetitions = check_positive_int(n_repetitions, "n_repetitions")
    level = check_level(level)
    progress = check_progress(progress)
    gen = check_rng(rng)
    covered_list: list[bool] = []
    radii_list: list[float] = []
    failures: list[str] = []
    truth = None
    for i in range(n_repetitions):
        # a sample with at least 2 of each class (exact conditional draw, no rejection loop)
        n_pos = conditional_binomial(gen, n, model.prevalence, 1, min_each=2)
        lab, score = draw_rows(model, n_pos, n, gen)
        try:
            band = pr_confidence_band(
                lab[0],
                score[0],
                level=level,
                method=method,
                n_resamples=n_resamples,
                recall_range=recall_range,
                num=num,
                rng=gen,
                **band_options,
            )
        except ValueError as exc:
            failures.append(str(exc))
        else:
            if truth is None:
                # the curve the band's centre estimates: interpolated across atoms by default
                truth = population_precision(model, band.recall, ties=band.ties)
            covered_list.append(bool(band.contains(truth)))
            radii_list.append(float(band.radius))
        if progress is not None:
            progress(i + 1, n_repetitions)
    if not covered_list:
        raise ValueError(f"model: no simulated sample admitted a band ({failures[0]})")
    if failures:
        warnings.warn(
            f"{len(failures)} of {n_repetitions} samples admitted no band and were left out "
            f"(first: {failures[0]})",
            DegenerateBootstrapWarning,
            stacklevel=2,
        )
    covered = np.array(covered_list)
    radii = np.array(radii_list)
    m = covered.shape[0]
    k = int(covered.sum())
    lo = stats.beta.ppf(0.025, k, m - k + 1) if k > 0 else 0.0
    hi = stats.beta.ppf(0.975, k + 1, m - k) if k < m else 1.0
    return CoverageResult(
        coverage=k / m,
        interval=ConfidenceInterval(low=float(lo), high=float(hi), level=0.95),
        n_covered=k,
        n_repetitions=n_repetitions,
        n=n,
        level=level,
        method=method,
        mean_radius=float(radii.mean()),
        radii=radii,
        covered=covered,
        n_failed=len(failures),
    )
