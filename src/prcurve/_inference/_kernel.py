"""Gaussian kernel smoothing of the class score laws: bandwidths and density estimates.

Used for the density ratio f₋/f₊ of the normal-approximation intervals and for the smoothed
bootstrap of the confidence band (Clémençon & Vayatis 2009, section 2.3 and Remark 4).
"""

from __future__ import annotations

import numpy as np

from ._kernel_cdf import KernelCDF, kernel_cdf

__all__ = ["gaussian_kde", "silverman_bandwidth", "smoothed_curve", "smoothed_precision"]

_SQRT_2PI = np.sqrt(2 * np.pi)


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


def smoothed_precision(
    ps: np.ndarray,
    ns: np.ndarray,
    h_pos: float,
    h_neg: float,
    prevalence: float,
    recall: np.ndarray,
) -> np.ndarray:
    """The PR curve of the kernel-smoothed class laws G̃, H̃ at prevalence ``prevalence``.

    ``PR̃(β) = pβ / (pβ + (1 − p)(1 − H̃(G̃⁻¹(1 − β))))``, with G̃⁻¹ and H̃ from
    :func:`~prcurve._inference._kernel_cdf.kernel_cdf` (accurate to rounding).  ``recall`` in
    (0, 1).
    """
    return smoothed_curve(kernel_cdf(ps, h_pos), kernel_cdf(ns, h_neg), prevalence, recall)


def smoothed_curve(
    pos: KernelCDF, neg: KernelCDF, prevalence: float, recall: np.ndarray
) -> np.ndarray:
    """:func:`smoothed_precision` from the prepared smoothed laws G̃ (``pos``) and H̃ (``neg``)."""
    z = pos.quantile(1.0 - recall)
    alpha = 1.0 - neg(z)
    num = prevalence * recall
    return num / (num + (1.0 - prevalence) * alpha)
