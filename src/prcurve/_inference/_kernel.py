"""Gaussian kernel smoothing of the class score laws: bandwidths and density estimates.

Used for the density ratio f₋/f₊ of the normal-approximation intervals and for the smoothed
bootstrap of the confidence band (Clémençon & Vayatis 2009, section 2.3 and Remark 4).
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtr

__all__ = ["gaussian_kde", "silverman_bandwidth", "smoothed_precision"]

_SQRT_2PI = np.sqrt(2 * np.pi)
#: From here on ``scipy.special.ndtr`` is exactly 1.0 in float64 (it is from 8.2924 on; tested).
NDTR_ONE = 8.3


def _weighted_quantile(x: np.ndarray, q: np.ndarray, w: np.ndarray) -> np.ndarray:
    order = np.argsort(x)
    cw = np.cumsum(w[order])
    return x[order][np.searchsorted(cw / cw[-1], q, side="left").clip(0, x.shape[0] - 1)]


def silverman_bandwidth(x: np.ndarray, w: np.ndarray | None = None) -> float:
    """Silverman's rule of thumb ``0.9 · min(sd, IQR/1.34) · n^(-1/5)``.

    With weights, the weighted standard deviation and quantiles and Kish's effective sample size
    ``(Σw)²/Σw²`` are used.  When the IQR is zero the standard deviation alone is used; the
    result is 0 only for constant ``x``.
    """
    x = np.asarray(x, dtype=np.float64)
    if w is None:
        sd = float(np.std(x, ddof=1)) if x.shape[0] > 1 else 0.0
        q1, q3 = np.percentile(x, [25, 75])
        n_eff = float(x.shape[0])
    else:
        mean = float(np.average(x, weights=w))
        n_eff = float((w / w.max()).sum() ** 2 / np.sum((w / w.max()) ** 2))
        var = float(np.average((x - mean) ** 2, weights=w))
        sd = np.sqrt(var * n_eff / (n_eff - 1)) if n_eff > 1 else 0.0
        q1, q3 = _weighted_quantile(x, np.array([0.25, 0.75]), w)
    spread = min(sd, (q3 - q1) / 1.34) if q3 > q1 else sd
    return float(0.9 * spread * n_eff ** (-0.2))


def gaussian_kde(
    x: np.ndarray, at: np.ndarray, bandwidth: float, w: np.ndarray | None = None
) -> np.ndarray:
    """Gaussian kernel density estimate of the sample ``x`` evaluated at ``at``.

    Evaluated in chunks so that at most ~4 million kernel terms are held at once.
    """
    x = np.asarray(x, dtype=np.float64)
    at = np.asarray(at, dtype=np.float64)
    wn = np.full(x.shape[0], 1.0 / x.shape[0]) if w is None else w / w.sum()
    out = np.empty(at.shape[0])
    step = max(1, (1 << 22) // max(x.shape[0], 1))
    for i in range(0, at.shape[0], step):
        u = (at[i : i + step, None] - x[None, :]) / bandwidth
        out[i : i + step] = np.exp(-0.5 * u * u) @ wn
    return out / (bandwidth * _SQRT_2PI)


def _kernel_sums(
    x: np.ndarray, at: np.ndarray, h: float, density: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """``(mean Φ((at − x)/h), mean φ((at − x)/h)/h)``: smoothed CDF and density at ``at``.

    Evaluated in chunks of ``x`` (at most ~2 million kernel terms at once); the density is
    skipped (zeros) when ``density`` is false.  Terms with ``u >= NDTR_ONE`` are set to 1.0
    instead of evaluated (what ``ndtr`` returns there), so the sums are the same to the last
    bit; on a band's negatives that is often half of the terms.
    """
    cdf = np.zeros(at.shape[0])
    pdf = np.zeros(at.shape[0])
    step = max(1, (1 << 21) // max(at.shape[0], 1))
    for i in range(0, x.shape[0], step):
        u = (at[:, None] - x[None, i : i + step]) / h
        terms = np.ones(u.shape)
        inside = u < NDTR_ONE
        terms[inside] = ndtr(u[inside])
        cdf += terms.sum(axis=1)
        if density:
            pdf += np.exp(-0.5 * u * u).sum(axis=1)
    return cdf / x.shape[0], pdf / (x.shape[0] * h * _SQRT_2PI)


def smoothed_precision(
    ps: np.ndarray,
    ns: np.ndarray,
    h_pos: float,
    h_neg: float,
    prevalence: float,
    recall: np.ndarray,
) -> np.ndarray:
    """The PR curve of the kernel-smoothed class laws G̃, H̃ at prevalence ``prevalence``.

    ``PR̃(β) = pβ / (pβ + (1 − p)(1 − H̃(G̃⁻¹(1 − β))))`` with G̃⁻¹ found by safeguarded Newton
    steps (bisection whenever a step leaves the bracket).  ``recall`` in (0, 1).
    """
    target = 1.0 - recall
    lo = np.full(recall.shape, ps.min() - 10 * h_pos)
    hi = np.full(recall.shape, ps.max() + 10 * h_pos)
    z = np.quantile(ps, target)
    for _ in range(60):
        g, dens = _kernel_sums(ps, z, h_pos)
        f = g - target
        done = np.abs(f) <= 1e-11
        if done.all():
            break
        lo = np.where(f < 0, z, lo)
        hi = np.where(f > 0, z, hi)
        with np.errstate(divide="ignore", invalid="ignore"):
            step = z - f / dens
        inside = np.isfinite(step) & (step >= lo) & (step <= hi)
        z = np.where(done, z, np.where(inside, step, (lo + hi) / 2))
    alpha = 1.0 - _kernel_sums(ns, z, h_neg, density=False)[0]
    num = prevalence * recall
    return num / (num + (1.0 - prevalence) * alpha)
