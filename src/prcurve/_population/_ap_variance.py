"""The asymptotic variance of average precision under a population model (influence function).

Average precision of a sample with n₊ positives and n₋ negatives is
``AP̂ = (1/n₊) Σ_i p̂(s_i)``, the mean over the positives of the precision at their own score,
with ``p̂(t) = n₊Ĝ(t) / (n₊Ĝ(t) + n₋Ĥ(t))`` (Ĝ, Ĥ the empirical survival functions of positive
and negative scores).  With the class counts fixed and k = n₋/n₊, a first-order expansion in
Ĝ − G and Ĥ − H (the von Mises / delta method) writes AP̂ − AP as a sum of independent terms,
one per instance, so that ``Var(AP̂) ≈ Var φ₊/n₊ + Var φ₋/n₋`` with, in recall coordinates
(x = G(t), α(x) = H(G⁻¹(x)), the false positive rate at recall x):

* a positive at recall level u ~ U(0, 1):
  ``φ₊(u) = h(u) + ∫₀¹ kα(x)/(x + kα(x))² · 1{u ≤ x} dx`` (+ a constant),
  h(u) = u/(u + kα(u)) the population precision at recall u;
* a negative at false positive level v ~ U(0, 1):
  ``φ₋(v) = −∫₀¹ kx/(x + kα(x))² · 1{v ≤ α(x)} dx`` (+ a constant).

This is the AP analogue of the DeLong (placement-value) variance of the ROC AUC; sample sizes
for AP intervals are planned with it before simulation refines them.  The same expansion with
empirical plug-ins gives the per-instance influence values of
:mod:`prcurve._inference._ap_simulation`.  Only continuous score laws qualify (at an atom of a
discrete law the precision jumps and the expansion does not hold).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from ._model import PopulationModel

__all__ = ["ap_influence_variances"]


def _nodes() -> tuple[np.ndarray, np.ndarray]:
    """8-point Gauss–Legendre on panels shrinking geometrically to 1e-12 at both ends of (0, 1)."""
    ends = np.geomspace(1e-12, 0.5, 160)
    edges = np.unique(np.concatenate([[0.0], ends, 1.0 - ends[::-1], [1.0]]))
    t, wt = np.polynomial.legendre.leggauss(8)
    a, b = edges[:-1, None], edges[1:, None]
    return ((a + b) / 2 + (b - a) / 2 * t).ravel(), ((b - a) / 2 * wt).ravel()


_X, _W = _nodes()


def ap_influence_variances(model: PopulationModel, skew: float) -> tuple[float, float, float]:
    """Population AP at class ratio ``skew`` = n₋/n₊, and ``Var φ₊``, ``Var φ₋`` (see module).

    ``n₊ · Var(AP̂) → Var φ₊ + Var φ₋ / skew`` as n₊ grows with n₋ = skew · n₊.

    Raises
    ------
    ValueError
        For a model with a discrete score law.
    """
    if model.is_discrete:
        raise ValueError(
            "model: the asymptotic variance of average precision needs continuous score laws, "
            "got a discrete law"
        )
    x, w, k = _X, _W, float(skew)
    alpha = model._alpha(x)  # nondecreasing in x
    den = x + k * alpha
    h = x / den
    theta = float(w @ h)
    a = w * k * alpha / den**2
    b = w * k * x / den**2
    # φ₊ at the nodes: h(u) + Σ_{x_j ≥ u} a_j (nodes ascending), integrated over u by the nodes
    f = h + np.cumsum(a[::-1])[::-1]
    var_pos = float(w @ f**2 - (w @ f) ** 2)
    # φ₋(V) = −Σ_j b_j 1{V ≤ α_j}; E[1{V ≤ α_j}1{V ≤ α_l}] = α_min(j,l) = α_j for j <= l
    tail = np.cumsum(b[::-1])[::-1] - b  # Σ_{l > j} b_l
    var_neg = float(np.sum(alpha * b * (b + 2.0 * tail)) - (b @ alpha) ** 2)
    return theta, max(var_pos, 0.0), max(var_neg, 0.0)
