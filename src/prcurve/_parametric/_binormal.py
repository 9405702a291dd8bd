"""Smooth parametric PR curves: binormal, α-binormal and other bi-distribution fits.

One maximum-likelihood path (:func:`fit_bidistribution`) fits one law per class from a family
(see :mod:`prcurve._parametric._families`) plus, optionally, the class fraction α, and returns a
:class:`BidistributionFit`, which *is* a :class:`~prcurve.PopulationModel`: every population
method (``precision_at``, ``roc``, ``sample``, ...) applies to the fitted model.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import optimize, special

from .._core._results import compact_repr
from .._core._validation import check_binary_problem, check_choice, check_fraction
from .._population._model import PopulationModel
from ._families import FAMILIES, DistributionFitError, fit_class

__all__ = [
    "BidistributionFit",
    "GoodnessOfFit",
    "fit_bidistribution",
    "fit_binormal",
    "recall_quadrature",
]

TRANSFORMS = ("box-cox",)


# --------------------------------------------------------------------------- quadrature ----
def _composite_gauss_legendre(edges: np.ndarray, order: int) -> tuple[np.ndarray, np.ndarray]:
    t, wt = np.polynomial.legendre.leggauss(order)
    a, b = edges[:-1, None], edges[1:, None]
    nodes = (a + b) / 2 + (b - a) / 2 * t
    weights = (b - a) / 2 * wt
    return nodes.ravel(), weights.ravel()


_EDGES = np.unique(
    np.concatenate(
        [
            [0.0],
            10.0 ** np.arange(-14, 0),
            np.linspace(0.1, 0.9, 9),
            1 - 10.0 ** np.arange(-1, -13, -1),
            [1.0],
        ]
    )
)
_NODES, _WEIGHTS = _composite_gauss_legendre(_EDGES, 16)


def recall_quadrature() -> tuple[np.ndarray, np.ndarray]:
    """Fixed nodes and weights for integrals over recall in (0, 1).

    Composite 16-point Gauss–Legendre on panels that shrink geometrically towards both ends
    (down to 1e-14 near 0 and 1e-12 near 1), so curves with a steep start or end are
    integrated to ~1e-10.

    Returns
    -------
    nodes, weights : ndarray, shape (g,)
        ``∫₀¹ f(x) dx ≈ Σ weights · f(nodes)``; nodes lie strictly inside (0, 1).

    Examples
    --------
    >>> from prcurve._parametric._binormal import recall_quadrature
    >>> x, w = recall_quadrature()
    >>> round(float(w @ x**2), 12)
    0.333333333333
    """
    return _NODES.copy(), _WEIGHTS.copy()


def precision_from_fpr(recall: np.ndarray, fpr: np.ndarray, alpha: Any) -> np.ndarray:
    """PPV = α·x / (α·x + (1−α)·FPR) (Brodersen eq. 6, broadcasting)."""
    a = np.asarray(alpha, dtype=np.float64)
    return np.asarray(a * recall / (a * recall + (1 - a) * fpr))


# ------------------------------------------------------------------------------ results ----
@compact_repr
@dataclass(frozen=True)
class GoodnessOfFit:
    """Kolmogorov–Smirnov test of each class's scores against its fitted law.

    Attributes
    ----------
    ks_statistic_neg, ks_pvalue_neg : float
        Negative class: sup-distance between empirical and fitted CDF, and its p-value.
    ks_statistic_pos, ks_pvalue_pos : float
        Same for the positive class.

    Notes
    -----
    The p-values use the null distribution for a *fully specified* law; with parameters
    estimated from the same data they are conservative (too large), so a small p-value is strong
    evidence against the parametric assumption.  With sample weights the statistic uses the
    weighted empirical CDF and the p-value the effective sample size ``(Σw)²/Σw²``.
    """

    ks_statistic_neg: float
    ks_pvalue_neg: float
    ks_statistic_pos: float
    ks_pvalue_pos: float

    def rejects(self, significance: float = 0.05) -> bool:
        """Whether either class's KS test rejects the fitted law at ``significance``."""
        level = check_fraction(significance, "significance")
        return bool(min(self.ks_pvalue_neg, self.ks_pvalue_pos) < level)


@compact_repr
@dataclass(frozen=True)
class BidistributionFit(PopulationModel):
    """A fitted bi-distribution model: a population model with estimation details.

    Attributes
    ----------
    negative, positive, prevalence
        As in :class:`~prcurve.PopulationModel`; ``prevalence`` is the α of the model
        (the weighted fraction of positives, or ½ for the plain binormal model).
    family : str
        ``"normal"``, ``"lognormal"``, ``"logistic"``, ``"gamma"`` or ``"beta"``.
    params, standard_errors : dict of str to float
        Estimates and standard errors, keyed ``"<param>_neg"``, ``"<param>_pos"``,
        ``"prevalence"`` (standard error 0 when α is fixed at ½) and ``"lambda"`` (Box-Cox).
    n_pos, n_neg : float
        Number (total weight) of positive and negative samples.
    estimate_prevalence : bool
        Whether α was estimated (α-binormal) or fixed at ½ (binormal).
    transform : str or None
        ``"box-cox"`` when the model lives on Box-Cox transformed scores.
    goodness_of_fit : GoodnessOfFit
    log_likelihood : float
        Maximised log-likelihood of the observed scores (and labels, when α is estimated),
        on the original score scale (the Box-Cox Jacobian is included).
    """

    family: str = "normal"
    params: Mapping[str, float] = field(default_factory=dict)
    standard_errors: Mapping[str, float] = field(default_factory=dict)
    n_pos: float = 0.0
    n_neg: float = 0.0
    estimate_prevalence: bool = True
    transform: str | None = None
    goodness_of_fit: GoodnessOfFit | None = None
    log_likelihood: float = 0.0

    @property
    def n_parameters(self) -> int:
        """Number of free parameters (two per class, plus α and λ when estimated)."""
        return 4 + int(self.estimate_prevalence) + int(self.transform is not None)

    def aic(self) -> float:
        """Akaike information criterion ``2k − 2 log L`` (compare families on the same data)."""
        return 2.0 * self.n_parameters - 2.0 * self.log_likelihood

    def with_prevalence(self, prevalence: float) -> BidistributionFit:
        """The fitted score laws at another prevalence α (e.g. the deployment prevalence).

        ``params["prevalence"]`` becomes ``prevalence`` with standard error 0 (fixed) and
        ``estimate_prevalence`` False; the other fields still describe the fit to the data.
        """
        alpha = check_fraction(prevalence, "prevalence")
        return dataclasses.replace(
            self,
            prevalence=alpha,
            params={**self.params, "prevalence": alpha},
            standard_errors={**self.standard_errors, "prevalence": 0.0},
            estimate_prevalence=False,
        )

    def transform_scores(self, score: Any) -> np.ndarray:
        """Map raw scores to the scale the model lives on (identity unless Box-Cox)."""
        s = np.asarray(score, dtype=np.float64)
        if self.transform is None:
            return s
        return np.asarray(special.boxcox(s, self.params["lambda"]))

    def _fpr_at_recall(self, recall: np.ndarray) -> np.ndarray:
        return np.asarray(self.negative.sf(self.positive.isf(recall)))

    def average_precision(self) -> float:
        """Area under the smooth PR curve, ∫₀¹ PPV(TPR) dTPR (Brodersen eq. 8).

        Computed by composite Gauss–Legendre quadrature on :func:`recall_quadrature`
        (accurate to ~1e-10).
        """
        x, w = recall_quadrature()
        return float(w @ precision_from_fpr(x, self._fpr_at_recall(x), self.prevalence))

    def roc_auc(self) -> float:
        """Area under the smooth ROC curve, P(S₊ > S₋).

        Closed form Φ((μ₊−μ₋)/√(σ₊²+σ₋²)) for the normal and lognormal families (on the
        log or Box-Cox scale); otherwise ``1 − ∫₀¹ FPR(TPR) dTPR`` by quadrature.
        """
        if self.family in ("normal", "lognormal"):
            p = self.params
            z = (p["mu_pos"] - p["mu_neg"]) / np.hypot(p["sigma_pos"], p["sigma_neg"])
            return float(special.ndtr(z))
        x, w = recall_quadrature()
        return float(1.0 - w @ self._fpr_at_recall(x))


# ------------------------------------------------------------------------------ fitting ----
def _box_cox_lambda(x: np.ndarray, w: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """ML Box-Cox λ shared by both classes (normal per class), and its standard error."""
    logx = np.log(x)
    logx = logx - np.dot(w, logx) / w.sum()  # rescale by the geometric mean: λ unchanged
    sum_wlog = float(np.dot(w, logx))
    scaled = np.exp(logx)
    classes = (y, ~y)

    def profile(lam: float) -> float:
        z = special.boxcox(scaled, lam)
        total = (lam - 1.0) * sum_wlog
        for c in classes:
            wc, zc = w[c], z[c]
            m = np.dot(wc, zc) / wc.sum()
            total -= 0.5 * wc.sum() * np.log(np.dot(wc, (zc - m) ** 2) / wc.sum())
        return float(total)

    bound = 5.0
    res = optimize.minimize_scalar(
        lambda lam: -profile(lam),
        bounds=(-bound, bound),
        method="bounded",
        options={"xatol": 1e-10},
    )
    lam = float(res.x)
    if not res.success or abs(lam) > bound - 1e-3:
        reason = res.message if not res.success else f"λ reached the search bound ±{bound:g}"
        raise DistributionFitError(f"the Box-Cox λ estimate did not converge: {reason}")
    h = 1e-4
    curvature = -(profile(lam + h) - 2 * profile(lam) + profile(lam - h)) / h**2
    if not np.isfinite(curvature) or curvature <= 0:
        raise DistributionFitError(
            f"the Box-Cox profile likelihood is flat at λ = {lam:.4g}: its standard error "
            "is undefined"
        )
    return lam, float(1.0 / np.sqrt(curvature))


def fit_bidistribution(
    y_true: Any,
    y_score: Any,
    *,
    family: str = "normal",
    estimate_prevalence: bool = True,
    sample_weight: Any = None,
    transform: str | None = None,
    pos_label: Any = None,
) -> BidistributionFit:
    """Maximum-likelihood fit of one law per class: a smooth ROC and PR curve.

    Parameters
    ----------
    y_true : array-like, shape (n,)
        Binary labels (1/True positive; see ``pos_label``).
    y_score : array-like, shape (n,)
        Scores, larger = more positive; in the family's support.
    family : {"normal", "lognormal", "logistic", "gamma", "beta"}
        Law of each class: normal (binormal), lognormal (scores > 0), logistic, gamma
        (scores > 0) or beta (scores in (0, 1), e.g. predicted probabilities).
    estimate_prevalence : bool
        True (default): α = the (weighted) fraction of positives, the α-binormal model of
        Brodersen et al.; False: α = ½ whatever the imbalance (the plain binormal model).
    sample_weight : array-like, shape (n,), optional
        Frequency weights (weighted MLE; standard errors use the total weight).
    transform : {None, "box-cox"}
        ``"box-cox"`` (family ``"normal"`` only, scores > 0): estimate one λ, shared by both
        classes, by maximum likelihood of the binormal model on ``boxcox(score, λ)``; then fit
        the binormal model on the transformed scores.  A monotone transform leaves the ROC and
        PR curves unchanged, so the curves are those of the raw scores, but thresholds of the
        returned model are on the transformed scale
        (see :meth:`BidistributionFit.transform_scores`).
    pos_label : optional
        Label of the positive class.

    Returns
    -------
    BidistributionFit

    Raises
    ------
    DistributionFitError
        A class has fewer than 2 distinct scores (zero variance), scores lie outside the family's
        support, the optimizer did not converge, or the information matrix is singular.

    Notes
    -----
    Brodersen et al. (2010), section III: with TPR = 1 − F₊(t) the smooth PR curve is
    PPV(TPR) = α·TPR / (α·TPR + (1−α)·[1 − F₋(F₊⁻¹(1−TPR))]) (their eq. 7, corrected), and
    the average precision is its integral (eq. 8).  Closed-form MLEs for normal and lognormal
    laws; BFGS on the log-likelihood otherwise.  Standard errors are the inverse Fisher
    information (closed form for normal, lognormal, gamma, beta) or the inverse observed
    information (logistic); α's is √(α(1−α)/n); the Box-Cox λ's comes from the curvature of its
    profile likelihood, and the class parameters' are conditional on λ.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import fit_bidistribution
    >>> rng = np.random.default_rng(0)
    >>> y = np.r_[np.zeros(300, bool), np.ones(100, bool)]
    >>> s = np.r_[rng.beta(2, 5, 300), rng.beta(5, 2, 100)]
    >>> fit = fit_bidistribution(y, s, family="beta")
    >>> round(fit.prevalence, 2), round(fit.params["a_pos"], 1), round(fit.roc_auc(), 3)
    (0.25, 3.8, 0.95)
    """
    y, s, w = check_binary_problem(y_true, y_score, sample_weight, pos_label)
    fam = FAMILIES[check_choice(family, "family", tuple(FAMILIES))]
    if transform is not None:
        check_choice(transform, "transform", TRANSFORMS)
        if fam.name != "normal":
            raise ValueError(
                f"transform: 'box-cox' is only combined with family='normal', got "
                f"family={fam.name!r}"
            )
    s = np.asarray(s, dtype=np.float64)
    weights = np.ones_like(s) if w is None else w
    extra: dict[str, tuple[float, float]] = {}
    jacobian = 0.0
    if transform == "box-cox":
        bad = s <= 0
        if bad.any():
            raise DistributionFitError(
                f"y_score: transform='box-cox' needs positive scores, got {int(bad.sum())} "
                f"non-positive ({int((bad & ~y).sum())} negative-class, {int((bad & y).sum())} "
                f"positive-class; e.g. {float(s[bad][0])!r})"
            )
        lam, lam_se = _box_cox_lambda(s, weights, y)
        extra["lambda"] = (lam, lam_se)
        jacobian = (lam - 1.0) * float(np.dot(weights, np.log(s)))
        s = np.asarray(special.boxcox(s, lam))
    neg = fit_class(fam, s[~y], None if w is None else w[~y], "negative-class")
    pos = fit_class(fam, s[y], None if w is None else w[y], "positive-class")
    n_pos, n_neg = pos.total_weight, neg.total_weight
    loglik = neg.log_likelihood + pos.log_likelihood + jacobian
    if estimate_prevalence:
        alpha = n_pos / (n_pos + n_neg)
        alpha_se = float(np.sqrt(alpha * (1 - alpha) / (n_pos + n_neg)))
        loglik += n_pos * np.log(alpha) + n_neg * np.log1p(-alpha)
    else:
        alpha, alpha_se = 0.5, 0.0
    params: dict[str, float] = {}
    errors: dict[str, float] = {}
    for suffix, cf in (("neg", neg), ("pos", pos)):
        for name, value, se in zip(fam.param_names, cf.theta, cf.standard_errors, strict=True):
            params[f"{name}_{suffix}"] = float(value)
            errors[f"{name}_{suffix}"] = float(se)
    params["prevalence"], errors["prevalence"] = float(alpha), alpha_se
    for name, (value, se) in extra.items():
        params[name], errors[name] = value, se
    return BidistributionFit(
        negative=neg.distribution,
        positive=pos.distribution,
        prevalence=float(alpha),
        family=fam.name,
        params=params,
        standard_errors=errors,
        n_pos=n_pos,
        n_neg=n_neg,
        estimate_prevalence=bool(estimate_prevalence),
        transform=transform,
        goodness_of_fit=GoodnessOfFit(
            neg.ks_statistic, neg.ks_pvalue, pos.ks_statistic, pos.ks_pvalue
        ),
        log_likelihood=float(loglik),
    )


def fit_binormal(
    y_true: Any,
    y_score: Any,
    *,
    estimate_prevalence: bool = True,
    sample_weight: Any = None,
    pos_label: Any = None,
) -> BidistributionFit:
    """Binormal (α = ½) or α-binormal (α estimated) maximum-likelihood fit.

    Parameters
    ----------
    y_true, y_score : array-like, shape (n,)
        Labels and scores (larger = more positive).
    estimate_prevalence : bool
        True (default): the α-binormal model, α = the (weighted) fraction of positives;
        False: the plain binormal model, α = ½ whatever the class imbalance.
    sample_weight : array-like, shape (n,), optional
        Frequency weights: weighted means and (ML) variances.
    pos_label : optional
        Label of the positive class.

    Returns
    -------
    BidistributionFit
        ``params``: ``mu_neg``, ``sigma_neg``, ``mu_pos``, ``sigma_pos``, ``prevalence``.

    Notes
    -----
    Brodersen et al. (2010), eqs. (6)–(8) with the corrected eq. (7):
    PPV(TPR) = α·TPR / (α·TPR + (1−α)·[1 − Φ₋(Φ₊⁻¹(1−TPR))]).  The MLEs are the class means and
    the class standard deviations with divisor n (not n − 1); SE(μ) = σ/√n, SE(σ) = σ/√(2n).
    Ignoring α (the plain binormal model) biases the PR curve and the average precision whenever
    π₊ ≠ ½ (Brodersen Fig. 2).  Same as ``fit_bidistribution(..., family="normal")``.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import fit_binormal
    >>> rng = np.random.default_rng(1)
    >>> y = np.r_[np.zeros(60, bool), np.ones(40, bool)]
    >>> s = np.r_[rng.normal(-1, 2, 60), rng.normal(1, 2, 40)]
    >>> fit = fit_binormal(y, s)
    >>> round(fit.prevalence, 2), round(fit.roc_auc(), 3), round(fit.average_precision(), 3)
    (0.4, 0.783, 0.699)
    >>> round(fit_binormal(y, s, estimate_prevalence=False).average_precision(), 3)
    0.772
    """
    return fit_bidistribution(
        y_true,
        y_score,
        family="normal",
        estimate_prevalence=estimate_prevalence,
        sample_weight=sample_weight,
        pos_label=pos_label,
    )
