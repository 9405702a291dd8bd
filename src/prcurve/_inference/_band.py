"""Simultaneous (sup-norm) confidence bands for the PR curve.

``method="smoothed_bootstrap"`` is Algorithm 1 of Clémençon & Vayatis (2009); ``"bootstrap"`` is
the naive bootstrap, offered for comparison.
"""

from __future__ import annotations

import numbers
import warnings
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._batch import TIES, functional_precision, strict_quantile_rank
from .._core._binomial import conditional_binomial
from .._core._partial import negative_factor
from .._core._results import ConfidenceInterval, compact_repr
from .._core._validation import (
    check_binary_problem,
    check_choice,
    check_fraction,
    check_level,
    check_positive_int,
    check_rng,
)
from ._common import (
    LowEffectiveSampleSizeWarning,
    SmoothingFallbackWarning,
    check_progress,
    check_recall_range,
    check_resamples,
)
from ._kernel import silverman_bandwidth, smoothed_curve
from ._kernel_cdf import KernelCDF, kernel_cdf
from ._partial_ci import DeploymentPrevalence, check_deployment_prevalence
from ._resample import (
    ProgressHook,
    SortedSample,
    bootstrap_curve_blocks,
    check_sampling,
    prepare,
    require_class_sizes,
    weighted_quantile,
)

__all__ = [
    "BAND_METHODS",
    "CENTERS",
    "PRConfidenceBand",
    "pr_confidence_band",
]

BAND_METHODS = ("smoothed_bootstrap", "bootstrap")
CENTERS = ("smoothed", "empirical")


@compact_repr
@dataclass(frozen=True)
class PRConfidenceBand:
    """A simultaneous confidence band for the PR curve on a recall grid.

    Attributes
    ----------
    recall : ndarray, shape (m,)
        Recall grid, evenly spaced over ``recall_range``.
    estimate : ndarray, shape (m,)
        The functional estimator PR̂ (Clémençon & Vayatis eq. 3) on the grid, read across ties
        as :attr:`ties` says: the band's centre.
    band : ConfidenceInterval
        ``low``/``high`` arrays of shape (m,): ``estimate ∓ radius`` clipped to [0, 1].
    radius : float
        Half-width ``r(δ)/√n`` in precision units.
    level : float
    method : str
    recall_range : tuple of float
    n_resamples : int
    bandwidth : tuple of float or None
        Kernel bandwidths ``(h₊, h₋)`` of the positives' and negatives' scores (smoothed
        bootstrap only).
    p_tilde : float or None
        Instrumental prevalence of the importance sampling (smoothed bootstrap only).
    center : str or None
        Curve the replicates' fluctuation R*ₙ is measured from (smoothed bootstrap only):
        ``"smoothed"`` (PR̃) or ``"empirical"`` (PR̂).
    sup_statistic : ndarray, shape (n_resamples,)
        ``sup_β |R*ₙ(β)| = √n · sup_β |PR*(β) − PR̂(β)|`` of every replicate (over the grid).
    weights : ndarray, shape (n_resamples,)
        Normalised importance weights γₙ of the replicates (all equal without importance
        sampling); they sum to 1.
    effective_sample_size : float
        Kish's ``1 / Σ weights²``: how many equally weighted replicates the weights are worth.
    n : float
        Sample size (n₊ + n₋) used in the √n scaling.
    n_pos_resampled : ndarray of int, shape (n_resamples,)
        Positives n₊* in each replicate (constant n₊ for the stratified naive bootstrap).
    ties : str
        ``"interpolate"`` or ``"strict"`` (see :func:`pr_confidence_band`).
    sampling : str or None
        Naive bootstrap's sampling model, ``"instances"`` or ``"stratified"`` (None for the
        smoothed bootstrap, which always draws n₊* ~ Bin(n, p̃)).
    prevalence : float or None
        Deployment prevalence the band is about (None: the data's class balance).
    prevalence_count : (int, int) or None
        ``(k, m)`` when that prevalence was estimated as k/m.
    """

    recall: np.ndarray
    estimate: np.ndarray
    band: ConfidenceInterval
    radius: float
    level: float
    method: str
    recall_range: tuple[float, float]
    n_resamples: int
    bandwidth: tuple[float, float] | None
    p_tilde: float | None
    center: str | None
    sup_statistic: np.ndarray
    weights: np.ndarray
    effective_sample_size: float
    n: float
    n_pos_resampled: np.ndarray
    ties: str = "interpolate"
    sampling: str | None = None
    prevalence: float | None = None
    prevalence_count: tuple[int, int] | None = None

    def contains(self, precision: Any) -> bool:
        """Whether a curve given by its precision on :attr:`recall` lies inside everywhere."""
        values = np.asarray(precision, dtype=np.float64)
        if values.shape != self.recall.shape:
            raise ValueError(
                f"precision: expected an array of shape {self.recall.shape} (one value per "
                f"grid recall), got shape {values.shape}"
            )
        return bool(np.all(self.band.contains(values)))

    def separated_from(self, other: PRConfidenceBand) -> bool:
        """Whether two bands on the same grid are disjoint at some recall."""
        if other.recall.shape != self.recall.shape or not np.allclose(other.recall, self.recall):
            raise ValueError("other: expected a band on the same recall grid")
        lo_a, hi_a = self.band
        lo_b, hi_b = other.band
        return bool(np.any((lo_a > hi_b) | (lo_b > hi_a)))


def _check_bandwidth(bandwidth: Any) -> float | None:
    if bandwidth is None:
        return None
    if isinstance(bandwidth, bool) or not isinstance(bandwidth, numbers.Real):
        raise TypeError(
            f"bandwidth: expected None or a positive number, got {type(bandwidth).__name__}"
        )
    h = float(bandwidth)
    if not (np.isfinite(h) and h > 0):
        raise ValueError(f"bandwidth: expected a positive number, got {bandwidth!r}")
    return h


def _scale_exponent(s: np.ndarray) -> int:
    """0 for scores of moderate size, else the binary exponent that brings them near 1."""
    top = float(np.max(np.abs(s)))
    if top == 0.0 or 2.0**-400 < top < 2.0**400:
        return 0
    return int(np.frexp(top)[1])


def _class_bandwidths(
    ps: np.ndarray, ns: np.ndarray, bandwidth: float | None, shift: int
) -> tuple[tuple[float, float] | None, str]:
    """Kernel bandwidths ``(h₊, h₋)`` of the scores rescaled by ``2**-shift``, or None and why.

    None when a default (Silverman) bandwidth is not a normal float64 number in score units:
    the class's scores spread over a subnormal width (Silverman's squares underflow to 0, or
    the bandwidth itself is below 2**-1022), so smoothed draws would be rounded to a handful of
    representable values and the reported bandwidth to 0.
    """
    if bandwidth is not None:
        return (bandwidth, bandwidth), ""
    h_pos, h_neg = silverman_bandwidth(ps), silverman_bandwidth(ns)
    for h, x, name in ((h_pos, ps, "positives"), (h_neg, ns, "negatives")):
        if np.ptp(x) == 0:
            raise ValueError(
                f"bandwidth: the scores of the {name} are all equal, so the default "
                "(Silverman) bandwidth is 0; pass a positive bandwidth"
            )
        in_score_units = float(np.ldexp(h, shift))
        if in_score_units < np.finfo(np.float64).tiny:
            spread = float(np.ldexp(np.ptp(x), shift))
            return None, (
                f"the scores of the {name} spread over {spread!r} only, so the default "
                f"(Silverman) kernel bandwidth is {in_score_units!r} in score units, below the "
                "smallest normal float64 (2.2e-308)"
            )
    return (h_pos, h_neg), ""


def _smoothed_sup(
    pos_law: KernelCDF,
    neg_law: KernelCDF,
    p_tilde: float,
    grid: np.ndarray,
    centre: np.ndarray,
    n_resamples: int,
    gen: np.random.Generator,
    progress: ProgressHook | None,
) -> tuple[np.ndarray, np.ndarray]:
    """sup |PR* − C| and the label counts n₊* of smoothed importance-sampled replicates.

    A replicate is n₊* scores drawn from G̃ and n₋* from H̃ (Remark 4: a data point resampled
    with replacement plus N(0, h²) noise).  PR* on the grid needs only the positives' order
    statistics of ranks rₖ = n₊* + 1 − jₖ (jₖ from :func:`strict_quantile_rank`) and, for the
    negatives, how many exceed each of them; so those are drawn directly, in law equal to
    drawing every score and sorting (O(grid) work per replicate instead of O(n log n)):

    * the uniform order statistics U₍ᵣ₁₎ ≤ … ≤ U₍ᵣₘ₎ of n₊* draws are the partial sums of a
      Dirichlet(r₁, r₂ − r₁, …, n₊* + 1 − rₘ) vector (normalised Gamma variables), and the
      positive order statistics are zₖ = G̃⁻¹(U₍ᵣₖ₎) (G̃ continuous and strictly increasing);
    * given the zₖ, the counts of the n₋* negatives in the intervals they cut are multinomial
      with the H̃-masses of the intervals (negatives are independent of positives).

    With continuous draws there are no ties, so the strict reading is the estimator's.
    """
    n = pos_law.n + neg_law.n
    sup = np.empty(n_resamples)
    # blocks of at least 2**16 grid values (fewer NumPy calls), ten at most, two at least
    rows = max(-(-n_resamples // 10), min(-(-n_resamples // 2), (1 << 16) // grid.shape[0]))
    done = 0
    # labels from the instrumental law; a replicate needs both classes
    # (exact draw conditioned on both classes: same law as redrawing, never spins)
    npos_all = conditional_binomial(gen, n, p_tilde, n_resamples, min_each=1)
    while done < n_resamples:
        b = min(rows, n_resamples - done)
        npos = npos_all[done : done + b]
        nneg = n - npos
        target = npos[:, None] * grid[None, :]
        rank = (npos[:, None] + 1 - strict_quantile_rank(npos, grid))[:, ::-1]  # ascending
        shapes = np.diff(rank, prepend=0, append=(npos + 1)[:, None], axis=1)
        spacing = gen.standard_gamma(shapes.astype(np.float64))
        u = np.cumsum(spacing, axis=1)
        u = u[:, :-1] / u[:, -1:]
        z = pos_law.quantile(u)
        below = np.maximum.accumulate(neg_law(z), axis=1)
        mass = np.diff(below, prepend=0.0, append=1.0, axis=1)
        cut = gen.multinomial(nneg, mass)
        # negatives above zₖ: the counts of the intervals right of it
        above = np.cumsum(cut[:, :0:-1], axis=1)  # grid order (recall increasing)
        prs = target / (target + above)
        sup[done : done + b] = np.abs(prs - centre[None, :]).max(axis=1)
        done += b
        if progress is not None:
            progress(done, n_resamples)
    return sup, npos_all


def _naive_sup(
    sample: SortedSample,
    grid: np.ndarray,
    centre: np.ndarray,
    n_resamples: int,
    gen: np.random.Generator,
    progress: ProgressHook | None,
    *,
    ties: str,
    sampling: str,
    pi: DeploymentPrevalence | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    sup = np.empty(n_resamples)
    npos_all = np.empty(n_resamples, dtype=np.int64)
    done = 0
    n = sample.n_pos_instances + sample.n_neg_instances
    blocks = bootstrap_curve_blocks(sample, n_resamples, gen, progress, sampling=sampling)
    for tp, fp, tpp, fpp, npos in blocks:
        if pi is not None:  # each replicate reweighted to π with its own class counts
            f = np.asarray(negative_factor(npos, n - npos, pi.draw(npos.shape[0], gen)))
            fp, fpp = fp * f[:, None], fpp * f[:, None]
        prs = functional_precision(tp, fp, npos, grid, tp_prev=tpp, fp_prev=fpp, ties=ties)
        b = prs.shape[0]
        sup[done : done + b] = np.abs(prs - centre[None, :]).max(axis=1)
        npos_all[done : done + b] = npos
        done += b
    return sup, npos_all


def pr_confidence_band(
    y_true: Any,
    y_score: Any,
    *,
    level: float = 0.95,
    method: str = "smoothed_bootstrap",
    recall_range: tuple[float, float] = (0.05, 0.95),
    n_resamples: int = 1000,
    bandwidth: float | None = None,
    p_tilde: float | None = None,
    center: str = "smoothed",
    num: int = 200,
    rng: Any = None,
    progress: ProgressHook | None = None,
    pos_label: Any = None,
    ties: str = "interpolate",
    sampling: str = "instances",
    prevalence: Any = None,
) -> PRConfidenceBand:
    """A simultaneous confidence band for the PR curve over recall in ``[ε, 1 − ε]``.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (see :func:`prcurve.pr_curve`).
    y_score : array-like of shape (n,)
        Scores; larger means more likely positive.
    level : float
        Simultaneous coverage 1 − δ, in (0, 1).
    method : {"smoothed_bootstrap", "bootstrap"}
        Algorithm 1 of Clémençon & Vayatis (2009), or the naive bootstrap (resample the data
        with replacement, see ``sampling``; no smoothing).
    recall_range : (float, float)
        ``(ε, 1 − ε')`` inside (0, 1): the band is simultaneous over this recall range.
    n_resamples : int
        Bootstrap replicates (at least 2).
    bandwidth : float, optional
        Gaussian kernel bandwidth (score units) for both classes.  Default: Silverman's rule
        ``0.9 · min(sd, IQR/1.34) · n_c^(−1/5)`` for each class c separately, so ``h ∝ n^(−1/5)``.
        When a class's scores spread over a subnormal width, that default is below the smallest
        normal float64 (smoothed draws would round to a few values): the naive bootstrap band
        is returned instead (``method="bootstrap"`` in the result), with a
        :class:`~prcurve.SmoothingFallbackWarning`.
    p_tilde : float, optional
        Instrumental prevalence p̃ of the importance sampling, in (0, 1).  Default: the
        observed prevalence p̂ = n₊/n, which makes every weight γₙ equal to 1 (see Notes).
    center : {"smoothed", "empirical"}
        Smoothed bootstrap only: measure each replicate's fluctuation from PR̃, the PR curve of
        the smoothed laws the replicates are drawn from (default), or from PR̂ as printed in
        the paper's step 3 (see Notes).  The band is centred at PR̂ either way.
    num : int
        Number of grid recalls (at least 2); the supremum is taken over this grid.
    rng : None, int or numpy.random.Generator
    progress : callable, optional
        ``progress(done, total)`` called after each block of replicates.
    pos_label : optional
        The label of the positive class.
    ties : {"interpolate", "strict"}
        The curve the band is centred on (see :meth:`prcurve.PRCurve.precision_at`):
        ``"interpolate"`` (default) is the drawn, Davis–Goadrich interpolated curve, also across
        tied scores, so the band holds the curve it is drawn around; ``"strict"`` is the papers'
        functional estimator PR̂ (negatives strictly above the quantile), whose population
        counterpart is the generalized-inverse curve of Hughes-Oliver eq. (5).  The two
        coincide without ties (up to the grid points equal to k/n₊ at vertical drops).
    sampling : {"instances", "stratified"}
        Naive bootstrap only: ``"instances"`` (default) resamples n rows, so n₊* ~ Bin(n, p̂)
        as in the smoothed bootstrap; ``"stratified"`` keeps n₊ and n₋ (case–control designs).
    prevalence : float or (int, int), optional
        Naive bootstrap only: a band for the PR curve at a deployment prevalence π,
        precision_π(r) = π r / (π r + (1 − π) FPR(r)), the curve of
        :meth:`prcurve.PRCurve.at_prevalence`.  The centre and every replicate weight their
        negatives by n₊(1 − π)/(π n₋) (the replicate's own counts).  A number is a known π; a
        pair ``(k, m)`` means π was estimated as k/m and each replicate draws
        π* ~ Beta(k + ½, m − k + ½).  See Notes for its coverage.

    Returns
    -------
    PRConfidenceBand

    Raises
    ------
    ValueError
        If ``level`` or ``p_tilde`` is outside (0, 1), ``recall_range`` is not inside (0, 1) or
        is reversed, or there are fewer than 2 positives or negatives.

    Warns
    -----
    LowEffectiveSampleSizeWarning
        When the importance weights leave fewer than 10 % of ``n_resamples`` effective
        replicates (p̃ far from p̂): the radius then rests on a handful of replicates.

    Notes
    -----
    Clémençon & Vayatis (2009), Algorithm 1, as implemented here:

    1. PR̂ is the functional estimator (their eq. 3) on the grid.  The class laws are smoothed
       with a Gaussian kernel: G̃ and H̃ are the empirical laws of the positives' and negatives'
       scores convolved with N(0, h₊²) and N(0, h₋²) (one bandwidth per class, by default
       Silverman's rule, which is of the order n^(−1/5) of their Remark 5).
    2. A replicate of size n draws n₊* ~ Binomial(n, p̃) (conditioned on 1 ≤ n₊* ≤ n − 1, so
       that both classes are present), then n₊* scores from G̃ and n₋* = n − n₊* from H̃, each
       drawn as a data point resampled with replacement plus Gaussian noise (their Remark 4).
       Only what PR* on the grid reads is drawn, in law equal to drawing every score: the
       positives' order statistics of the ranks the grid needs (uniform order statistics from
       Dirichlet spacings, mapped through G̃⁻¹) and the negatives' counts between them (one
       multinomial with H̃'s masses), so a replicate costs O(num), not O(n log n); G̃, H̃ and
       G̃⁻¹ are evaluated to within 1e-17 plus rounding (a cell-wise Taylor expansion of the
       kernel sums).  At n = 10⁶ and 1,000 resamples the band takes about 1 s.
    3. PR*(β) = n₊*β / (n₊*β + N*(β)), with N*(β) the number of replicate negatives above the
       replicate quantile G*⁻¹(1 − β) (the ⌈n₊*(1 − β)⌉-th smallest positive); this is
       p*β / (p*β + (1 − p*)(1 − H*∘G*⁻¹(1 − β))) with p* = n₊*/n as in their step 3.  The
       fluctuation is R*ₙ = √n (PR* − C).  The paper writes C = PR̂ (``center="empirical"``).
       By default C = PR̃, p̂β / (p̂β + (1 − p̂)(1 − H̃∘G̃⁻¹(1 − β))), the curve of the law the
       replicates come from (after importance reweighting), i.e. the bootstrap world's true
       curve, as in the proof sketch of their Theorem 2 (which works with α̃ = 1 − H̃∘G̃).
       Centring at PR̂ adds the smoothing bias PR̃ − PR̂ (of order h²) to every replicate and
       makes the band conservative: in ``examples/coverage_study.py`` (Cases A and C of
       Hughes-Oliver, π₊ = 1/11, n = 1000) it gives coverage near 0.99 instead of 0.95.
    4. r(δ) solves E*[γₙ · 1{sup|R*ₙ| ≤ r}] = 1 − δ with
       γₙ = (p̂/p̃)^(n₊*) ((1 − p̂)/(1 − p̃))^(n − n₊*), the likelihood ratio of the label counts;
       the expectation is the Monte Carlo average over replicates with self-normalised weights,
       and r(δ) is the smallest sup-statistic whose weighted empirical distribution function
       reaches 1 − δ.  The band is PR̂ ± r(δ)/√n on the grid, clipped to [0, 1].

    On p̃: the log-weights are linear in n₊*, with slope ln[p̂(1 − p̃)/(p̃(1 − p̂))], and n₊* has
    standard deviation √(n p̃(1 − p̃)); for p̃ = ½ and p̂ = 1/11 at n = 1000 their spread is
    about 36 nats, so one replicate carries all the weight (Kish's effective sample size ≈ 1):
    the one with the fewest positives, still about 450 of them, whose curve PR* lies far above
    PR̂, so the radius is huge (about 0.5; coverage 1 in the study).  Importance sampling is
    only useful when p̃ is within about √(p̂(1 − p̂)/n) of p̂.  The paper leaves p̃ to be chosen
    to minimise the Monte Carlo variance (Remark 5); the default p̃ = p̂ does that for the
    weights (all equal to 1), and then Algorithm 1 is the plain smoothed bootstrap.

    Coverage of the 95 % bands (``bench/coverage_intervals.py``, n = 1000, 150 samples per
    model, labels drawn at random, the population curve on 100 recall levels in [0.05, 0.95]):
    the smoothed bootstrap 0.98 (binormal, π = 0.3), 0.95 (Case A, π = 1/11) and 0.97 (scores
    rounded to one decimal); the naive bootstrap is conservative, 0.99 with either sampling
    model on the continuous and rounded models.  The smoothed bootstrap assumes continuous
    score laws: on coarse discrete scores whose PR curve has jumps (Case F, π = 0.2) it covers
    only 0.06, because the jumps' location varies from sample to sample by more than the
    smoothed replicates reproduce; the naive bootstrap covers 0.95 there
    (``sampling="stratified"``: 0.91).  For scores on a few distinct values use
    ``method="bootstrap"``.

    With ``prevalence=π`` (``bench/coverage_prevalence.py``: binormal, positives N(1.5, 1),
    test-set prevalence 0.2, known π = 0.01, 200 samples per cell, 300 resamples) the naive
    95 % band at π covers 0.985 at n = 250 and n = 1000 but 0.925 ± 0.019 at n = 4000, and
    every miss there is at recall below 0.3: at low π the precision near recall 0 rests on the
    handful of negatives scoring above the top positives (each weighs n₊(1 − π)/(π n₋) ≈ 25
    here), which the bootstrap reproduces poorly.  Trust the band at π less at low recall.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import pr_confidence_band
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.2
    >>> s = rng.normal(size=500) + 1.5 * y
    >>> band = pr_confidence_band(y, s, n_resamples=200, rng=1)
    >>> band.recall.shape, band.band.low.shape
    ((200,), (200,))
    >>> bool(np.all(band.band.low <= band.estimate)), round(band.radius, 3)
    (True, 0.3)
    """
    level = check_level(level)
    method = check_choice(method, "method", BAND_METHODS)
    ties = check_choice(ties, "ties", TIES)
    sampling = check_sampling(sampling)
    lo, hi = check_recall_range(recall_range)
    n_resamples = check_resamples(n_resamples)
    h_user = _check_bandwidth(bandwidth)
    pi = None if prevalence is None else check_deployment_prevalence(prevalence)
    if pi is not None and method != "bootstrap":
        raise ValueError(
            "method: expected 'bootstrap' with prevalence (the band at a deployment prevalence "
            f"is the naive bootstrap band of reweighted resamples), got {method!r}"
        )
    if p_tilde is not None:
        p_tilde = check_fraction(p_tilde, "p_tilde")
    center = check_choice(center, "center", CENTERS)
    num = check_positive_int(num, "num", minimum=2)
    progress = check_progress(progress)
    gen = check_rng(rng)
    y, s, _ = check_binary_problem(y_true, y_score, None, pos_label)
    sample = prepare(y, s)
    n_p, n_n = sample.n_pos_instances, sample.n_neg_instances
    require_class_sizes(n_p, n_n, min_pos=2, min_neg=2, what=f"method={method!r}")
    n = n_p + n_n
    grid = np.linspace(lo, hi, num)
    c = sample.counts
    fp0 = c.fp if pi is None else c.fp * negative_factor(c.n_pos, c.n_neg, pi.value)
    centre = functional_precision(
        c.tp[None, :], fp0[None, :], np.array([c.n_pos]), grid, ties=ties
    )[0]

    if method == "smoothed_bootstrap":
        # PR curves are invariant to rescaling the scores: extreme magnitudes (where squares
        # under- or overflow in the bandwidth rule) are brought near 1 by an exact power of two
        shift = _scale_exponent(s)
        ps = np.ldexp(s[y].astype(np.float64), -shift)
        ns = np.ldexp(s[~y].astype(np.float64), -shift)
        user = None if h_user is None else float(np.ldexp(h_user, -shift))
        h, why = _class_bandwidths(ps, ns, user, shift)
        if h is None:
            warnings.warn(
                f"pr_confidence_band: {why}; returning the naive bootstrap band "
                "(method='bootstrap', no smoothing) instead; pass a bandwidth to smooth anyway",
                SmoothingFallbackWarning,
                stacklevel=2,
            )
            method = "bootstrap"
    if method == "bootstrap":
        sup, npos = _naive_sup(
            sample, grid, centre, n_resamples, gen, progress, ties=ties, sampling=sampling,
            pi=pi,
        )  # fmt: skip
        weights = np.full(n_resamples, 1.0 / n_resamples)
        h, pt, used_center = None, None, None
    else:
        assert h is not None
        p_hat = n_p / n
        pt = p_hat if p_tilde is None else p_tilde
        used_center = center
        pos_law, neg_law = kernel_cdf(ps, h[0]), kernel_cdf(ns, h[1])
        ref = centre if center == "empirical" else smoothed_curve(pos_law, neg_law, p_hat, grid)
        sup, npos = _smoothed_sup(pos_law, neg_law, pt, grid, ref, n_resamples, gen, progress)
        logw = npos * np.log(p_hat / pt) + (n - npos) * np.log((1 - p_hat) / (1 - pt))
        weights = np.exp(logw - logw.max())
        weights /= weights.sum()
    ess = float(1.0 / np.sum(weights**2))
    if ess < 0.1 * n_resamples:
        warnings.warn(
            f"the importance weights leave an effective sample size of {ess:.1f} out of "
            f"{n_resamples} replicates (p_tilde={pt!r} is far from the observed prevalence "
            f"{n_p / n:.4g}); the band radius is unreliable. Use p_tilde=None",
            LowEffectiveSampleSizeWarning,
            stacklevel=2,
        )
    radius = weighted_quantile(sup, level, weights)
    return PRConfidenceBand(
        recall=grid,
        estimate=centre,
        band=ConfidenceInterval(
            low=np.clip(centre - radius, 0.0, 1.0),
            high=np.clip(centre + radius, 0.0, 1.0),
            level=level,
        ),
        radius=radius,
        level=level,
        method=method,
        recall_range=(lo, hi),
        n_resamples=n_resamples,
        bandwidth=None
        if h is None
        else (float(np.ldexp(h[0], shift)), float(np.ldexp(h[1], shift))),
        p_tilde=pt,
        center=used_center,
        sup_statistic=np.sqrt(n) * sup,
        weights=weights,
        effective_sample_size=ess,
        n=float(n),
        n_pos_resampled=npos,
        ties=ties,
        sampling=sampling if method == "bootstrap" else None,
        prevalence=None if pi is None else pi.value,
        prevalence_count=None if pi is None else pi.count,
    )
