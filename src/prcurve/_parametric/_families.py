"""Per-class parametric families and the one maximum-likelihood path that fits any of them.

A bi-distribution model gives each class its own member of one family (normal, lognormal,
logistic, gamma, beta).  :func:`fit_class` fits one class for every family the same way:

1. check the scores (support, at least two distinct values);
2. closed-form (weighted) MLE where it exists, otherwise ``scipy.optimize.minimize`` (BFGS with
   the analytic gradient, on a log scale for positive parameters);
3. standard errors from the inverse of the closed-form Fisher information where the family has
   one, otherwise from the observed information (a central-difference Hessian of the analytic
   gradient);
4. a Kolmogorov–Smirnov test of the scores against the fitted law.

Sample weights are frequency weights: a weight of 2 counts like a repeated observation, so
standard errors shrink with the total weight.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import optimize, special, stats

from .._core._results import compact_repr

__all__ = ["FAMILIES", "ClassFit", "DistributionFitError", "Family", "fit_class"]


class DistributionFitError(ValueError):
    """A parametric fit cannot be made or did not converge; the message says why."""


# Options handed to scipy.optimize.minimize (a module constant so tests can tighten them).
_OPTIMIZER_OPTIONS: dict[str, Any] = {"gtol": 1e-9, "maxiter": 500}

Array = np.ndarray
Theta = np.ndarray
NllGrad = Callable[[Theta, Array, Array], tuple[float, Array]]


@compact_repr
@dataclass(frozen=True)
class Family:
    """A family of univariate laws, described for the fitting path.

    Attributes
    ----------
    name : str
    param_names : tuple of str
        Names of the parameters, in the order of ``theta``.
    positive : tuple of bool
        Which parameters must be > 0 (optimised on a log scale).
    support : tuple of float
        Open interval the scores must lie in.
    frozen : callable
        ``theta -> scipy.stats frozen distribution``.
    closed_form : callable or None
        ``(x, w) -> theta``, the weighted MLE when it has a closed form.
    start : callable or None
        ``(x, w) -> theta``, starting values for the optimizer.
    nll_grad : callable or None
        ``(theta, x, w) -> (mean negative log-likelihood, gradient)`` (per unit weight).
    information : callable or None
        ``theta -> Fisher information of one observation`` (2 x 2), when closed form.
    """

    name: str
    param_names: tuple[str, ...]
    positive: tuple[bool, ...]
    support: tuple[float, float]
    frozen: Callable[[Theta], Any]
    closed_form: Callable[[Array, Array], Theta] | None = None
    start: Callable[[Array, Array], Theta] | None = None
    nll_grad: NllGrad | None = None
    information: Callable[[Theta], Array] | None = None


@compact_repr
@dataclass(frozen=True)
class ClassFit:
    """The fit of one class: estimates, standard errors, log-likelihood, KS test."""

    theta: np.ndarray
    standard_errors: np.ndarray
    log_likelihood: float
    distribution: Any
    ks_statistic: float
    ks_pvalue: float
    total_weight: float


# --------------------------------------------------------------------------------- moments ----
def _weighted_moments(x: Array, w: Array) -> tuple[float, float]:
    total = w.sum()
    mean = float(np.dot(w, x) / total)
    var = float(np.dot(w, (x - mean) ** 2) / total)
    return mean, var


def _normal_mle(x: Array, w: Array) -> Theta:
    mean, var = _weighted_moments(x, w)
    return np.array([mean, np.sqrt(var)])


def _normal_information(theta: Theta) -> Array:
    s = theta[1]
    return np.diag([1.0 / s**2, 2.0 / s**2])


def _lognormal_mle(x: Array, w: Array) -> Theta:
    return _normal_mle(np.log(x), w)


# ------------------------------------------------------------------------------- logistic ----
def _logistic_start(x: Array, w: Array) -> Theta:
    mean, var = _weighted_moments(x, w)
    return np.array([mean, np.sqrt(var) * np.sqrt(3.0) / np.pi])


def _logistic_nll_grad(theta: Theta, x: Array, w: Array) -> tuple[float, Array]:
    loc, scale = theta
    z = (x - loc) / scale
    total = w.sum()
    # log f = -z - log s - 2 log(1 + e^{-z}) = -log s - |z| - 2 log1p(e^{-|z|})
    logf = -np.log(scale) - np.abs(z) - 2.0 * np.log1p(np.exp(-np.abs(z)))
    t = np.tanh(z / 2.0)
    d_loc = np.dot(w, t) / scale
    d_scale = (-total + np.dot(w, z * t)) / scale
    return -float(np.dot(w, logf)) / total, -np.array([d_loc, d_scale]) / total


# ---------------------------------------------------------------------------------- gamma ----
def _gamma_start(x: Array, w: Array) -> Theta:
    mean, var = _weighted_moments(x, w)
    return np.array([mean**2 / var, var / mean])


def _gamma_nll_grad(theta: Theta, x: Array, w: Array) -> tuple[float, Array]:
    k, s = theta
    total = w.sum()
    mean_log = np.dot(w, np.log(x)) / total
    mean_x = np.dot(w, x) / total
    ll = (k - 1.0) * mean_log - mean_x / s - k * np.log(s) - special.gammaln(k)
    d_k = mean_log - np.log(s) - special.digamma(k)
    d_s = mean_x / s**2 - k / s
    return -float(ll), -np.array([d_k, d_s])


def _gamma_information(theta: Theta) -> Array:
    k, s = theta
    return np.array([[special.polygamma(1, k), 1.0 / s], [1.0 / s, k / s**2]])


# ----------------------------------------------------------------------------------- beta ----
def _beta_start(x: Array, w: Array) -> Theta:
    mean, var = _weighted_moments(x, w)
    common = mean * (1.0 - mean) / var - 1.0
    if common <= 0:
        return np.array([1.0, 1.0])
    return np.array([mean * common, (1.0 - mean) * common])


def _beta_nll_grad(theta: Theta, x: Array, w: Array) -> tuple[float, Array]:
    a, b = theta
    total = w.sum()
    mean_log = np.dot(w, np.log(x)) / total
    mean_log1m = np.dot(w, np.log1p(-x)) / total
    ll = (a - 1.0) * mean_log + (b - 1.0) * mean_log1m - special.betaln(a, b)
    dab = special.digamma(a + b)
    grad = np.array([mean_log - special.digamma(a) + dab, mean_log1m - special.digamma(b) + dab])
    return -float(ll), -grad


def _beta_information(theta: Theta) -> Array:
    a, b = theta
    tab = special.polygamma(1, a + b)
    return np.array([[special.polygamma(1, a) - tab, -tab], [-tab, special.polygamma(1, b) - tab]])


FAMILIES: dict[str, Family] = {
    "normal": Family(
        "normal",
        ("mu", "sigma"),
        (False, True),
        (-np.inf, np.inf),
        lambda th: stats.norm(loc=th[0], scale=th[1]),
        closed_form=_normal_mle,
        information=_normal_information,
    ),
    "lognormal": Family(
        "lognormal",
        ("mu", "sigma"),
        (False, True),
        (0.0, np.inf),
        lambda th: stats.lognorm(s=th[1], scale=np.exp(th[0])),
        closed_form=_lognormal_mle,
        information=_normal_information,
    ),
    "logistic": Family(
        "logistic",
        ("loc", "scale"),
        (False, True),
        (-np.inf, np.inf),
        lambda th: stats.logistic(loc=th[0], scale=th[1]),
        start=_logistic_start,
        nll_grad=_logistic_nll_grad,
    ),
    "gamma": Family(
        "gamma",
        ("shape", "scale"),
        (True, True),
        (0.0, np.inf),
        lambda th: stats.gamma(a=th[0], scale=th[1]),
        start=_gamma_start,
        nll_grad=_gamma_nll_grad,
        information=_gamma_information,
    ),
    "beta": Family(
        "beta",
        ("a", "b"),
        (True, True),
        (0.0, 1.0),
        lambda th: stats.beta(a=th[0], b=th[1]),
        start=_beta_start,
        nll_grad=_beta_nll_grad,
        information=_beta_information,
    ),
}


# ------------------------------------------------------------------------------ the path ----
def _check_class_scores(family: Family, x: Array, label: str) -> None:
    lo, hi = family.support
    outside = (x <= lo) | (x >= hi)
    if outside.any():
        bad = x[outside]
        where = f"({lo:g}, {hi:g})"
        raise DistributionFitError(
            f"y_score: family={family.name!r} needs scores in {where}, but {bad.size} of the "
            f"{x.size} {label} scores lie outside (e.g. {float(bad[0])!r})"
        )
    distinct = np.unique(x).size
    if distinct < 2:
        what = "a single score" if x.size == 1 else f"{x.size} scores all equal to {float(x[0])!r}"
        raise DistributionFitError(
            f"y_score: expected at least 2 distinct {label} scores to fit a {family.name} law, "
            f"got {what} (zero variance)"
        )


def _to_free(family: Family, theta: Theta) -> Array:
    return np.where(family.positive, np.log(np.where(family.positive, theta, 1.0)), theta)


def _from_free(family: Family, u: Array) -> Theta:
    return np.where(family.positive, np.exp(np.where(family.positive, u, 0.0)), u)


def _optimise(family: Family, x: Array, w: Array, label: str) -> Theta:
    assert family.nll_grad is not None and family.start is not None
    nll_grad = family.nll_grad
    pos = np.asarray(family.positive)

    def objective(u: Array) -> tuple[float, Array]:
        theta = _from_free(family, u)
        value, grad = nll_grad(theta, x, w)
        return value, np.where(pos, grad * theta, grad)  # chain rule through exp

    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        res = optimize.minimize(
            objective,
            _to_free(family, family.start(x, w)),
            jac=True,
            method="BFGS",
            options=dict(_OPTIMIZER_OPTIONS),
        )
    theta = _from_free(family, res.x)
    if not res.success and not _is_stationary(family, theta, x, w):
        raise DistributionFitError(
            f"the {family.name} fit of the {label} scores did not converge after {res.nit} "
            f"iterations: {res.message}"
        )
    return theta


def _is_stationary(family: Family, theta: Theta, x: Array, w: Array) -> bool:
    """BFGS may stop on 'precision loss' at an optimum: accept when the gradient is ~ 0."""
    assert family.nll_grad is not None
    _, grad = family.nll_grad(theta, x, w)
    scale = np.where(family.positive, theta, np.maximum(np.abs(theta), 1.0))
    return bool(np.all(np.isfinite(grad)) and np.max(np.abs(grad * scale)) < 1e-6)


def _observed_information(family: Family, theta: Theta, x: Array, w: Array) -> Array:
    """Per-unit-weight observed information: central differences of the analytic gradient."""
    assert family.nll_grad is not None
    k = theta.size
    hess = np.empty((k, k))
    for i in range(k):  # k = 2 parameters, not a loop over data
        h = 1e-5 * max(abs(theta[i]), 1e-3)
        step = np.zeros(k)
        step[i] = h
        g_plus = family.nll_grad(theta + step, x, w)[1]
        g_minus = family.nll_grad(theta - step, x, w)[1]
        hess[:, i] = (g_plus - g_minus) / (2 * h)
    return np.asarray((hess + hess.T) / 2)


def _standard_errors(family: Family, theta: Theta, x: Array, w: Array, label: str) -> Array:
    if family.information is not None:
        info = family.information(theta)
    else:
        info = _observed_information(family, theta, x, w)
    try:
        cov = np.linalg.inv(info * w.sum())
    except np.linalg.LinAlgError:
        cov = np.full_like(info, -1.0)
    var = np.diag(cov)
    if not np.all(np.isfinite(var)) or np.any(var <= 0):
        raise DistributionFitError(
            f"the {family.name} fit of the {label} scores has a singular information matrix at "
            f"{dict(zip(family.param_names, theta.tolist(), strict=True))}: "
            "standard errors are undefined"
        )
    return np.sqrt(var)


def _ks_test(dist: Any, x: Array, w: Array, unweighted: bool) -> tuple[float, float]:
    if unweighted:
        res = stats.kstest(x, dist.cdf)
        return float(res.statistic), float(res.pvalue)
    order = np.argsort(x, kind="stable")
    xs, ws = x[order], w[order]
    total = ws.sum()
    upper = np.cumsum(ws) / total
    lower = upper - ws / total
    cdf = dist.cdf(xs)
    d = float(max(np.max(upper - cdf), np.max(cdf - lower)))
    n_eff = max(round(float(total**2 / np.dot(ws, ws))), 1)
    return d, float(stats.kstwo.sf(d, n_eff))


def fit_class(family: Family, x: Array, w: Array | None, label: str) -> ClassFit:
    """Fit ``family`` to the scores ``x`` of one class (``label`` names it in messages)."""
    x = np.asarray(x, dtype=np.float64)
    _check_class_scores(family, x, label)
    weights = np.ones_like(x) if w is None else np.asarray(w, dtype=np.float64)
    if family.closed_form is not None:
        theta = family.closed_form(x, weights)
    else:
        theta = _optimise(family, x, weights, label)
    se = _standard_errors(family, theta, x, weights, label)
    dist = family.frozen(theta)
    loglik = float(np.dot(weights, dist.logpdf(x)))
    ks_stat, ks_p = _ks_test(dist, x, weights, unweighted=w is None)
    return ClassFit(theta, se, loglik, dist, ks_stat, ks_p, float(weights.sum()))
