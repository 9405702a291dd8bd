"""Monte Carlo coverage of the confidence bands under a known population model."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from .._results import ConfidenceInterval, compact_repr
from .._validation import check_level, check_positive_int, check_rng
from ._band import pr_confidence_band
from ._common import check_progress

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
    radii : ndarray, shape (n_repetitions,)
    covered : ndarray of bool, shape (n_repetitions,)
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
        Any object with ``sample(n, rng=...)`` → ``(y, scores)`` and ``precision_at(recall)``
        (the population PR curve), e.g. ``prcurve.cases.A(1/11)``.
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
        Further keywords of :func:`prcurve.pr_confidence_band` (``bandwidth``, ``p_tilde``).

    Returns
    -------
    CoverageResult

    Notes
    -----
    A repetition draws a sample of size n from the model (labels Bernoulli(π₊)), builds the
    band, and counts as covered when the population curve (Hughes-Oliver eq. 5) lies inside the
    band at every grid recall.  Samples with fewer than 2 positives or negatives are redrawn.

    Examples
    --------
    >>> from prcurve import cases, coverage_study
    >>> res = coverage_study(cases.A(0.3), 300, n_repetitions=5, n_resamples=100, rng=0)
    >>> res.n_repetitions, 0.0 <= res.coverage <= 1.0
    (5, True)
    """
    n = check_positive_int(n, "n", minimum=4)
    n_repetitions = check_positive_int(n_repetitions, "n_repetitions")
    level = check_level(level)
    progress = check_progress(progress)
    gen = check_rng(rng)
    covered = np.zeros(n_repetitions, dtype=bool)
    radii = np.empty(n_repetitions)
    truth = None
    for i in range(n_repetitions):
        while True:
            y, s = model.sample(n, rng=gen)
            n_pos = int(np.count_nonzero(y))
            if 2 <= n_pos <= n - 2:
                break
        band = pr_confidence_band(
            y,
            s,
            level=level,
            method=method,
            n_resamples=n_resamples,
            recall_range=recall_range,
            num=num,
            rng=gen,
            **band_options,
        )
        if truth is None:
            truth = np.asarray(model.precision_at(band.recall), dtype=np.float64)
        covered[i] = band.contains(truth)
        radii[i] = band.radius
        if progress is not None:
            progress(i + 1, n_repetitions)
    k = int(covered.sum())
    lo = stats.beta.ppf(0.025, k, n_repetitions - k + 1) if k > 0 else 0.0
    hi = stats.beta.ppf(0.975, k + 1, n_repetitions - k) if k < n_repetitions else 1.0
    return CoverageResult(
        coverage=k / n_repetitions,
        interval=ConfidenceInterval(low=float(lo), high=float(hi), level=0.95),
        n_covered=k,
        n_repetitions=n_repetitions,
        n=n,
        level=level,
        method=method,
        mean_radius=float(radii.mean()),
        radii=radii,
        covered=covered,
    )
