"""Is a scorer significantly worse than chance?  A one-sided rank test from the counts.

A scorer whose scores run the wrong way — the positive label set to the other class, or a
probability of the negative class given as the score — is still summarised as usual (AP, ROC
AUC, bands), and a reader may rank it without noticing.  The report flags it with this test.

Why this test
-------------
The statistic is the ROC AUC, which equals the Mann–Whitney U of the positives against the
negatives divided by n₊n₋ (ties counted ½).  Under "no association between score and label"
every assignment of the labels to the observed scores is equally likely, and the exact
permutation variance of the AUC, with ties, is

    Var(AUC) = [ (n + 1) − Σ_k (t_k³ − t_k) / (n (n − 1)) ] / (12 n₊ n₋),

t_k the number of rows at the k-th distinct score (the tie-corrected Mann–Whitney variance, as in
``scipy.stats.mannwhitneyu(method="asymptotic")``).  z = (AUC − ½)/√Var is asymptotically
standard normal; the scorer is flagged when the one-sided p-value Φ(z) is below ``alpha``.

This is preferred over "the AP interval lies below the prevalence" because (1) it is a
test of exactly the null "the scorer ranks at random", with a variance that is exact under that
null (the AP intervals are built around the observed AP, and their coverage depends on the
curve), and (2) it needs only the counts at each distinct threshold that the report already
has: no sort, no resampling, on any engine.  The default ``alpha = 0.001`` is strict on purpose:
the test runs on every scorer of every report, and the warning says the data are probably
mislabelled, so a random scorer should almost never trigger it (false-alarm rate checked by
simulation in the tests).

Weights
-------
With sample weights the AUC is the weighted one; n₊ and n₋ become Kish's effective numbers
(Σw)²/Σw² of each class, and the tie term uses each distinct score's share of the total weight:
Var ≈ (1/n₊ + 1/n₋)(1 − Σ_k q_k³)/12, the large-n form of the formula above.  This is an
approximation (weights change the permutation null); it is stated in the result's ``weighted``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.special import ndtr

from .._core._blocks import count_blocks
from .._core._results import compact_repr

__all__ = ["DEFAULT_ALPHA", "BelowChanceTest", "below_chance_test"]

#: One-sided level at which a scorer is flagged as worse than chance.
DEFAULT_ALPHA = 0.001


@compact_repr
@dataclass(frozen=True)
class BelowChanceTest:
    """The one-sided test of "ROC AUC below ½" (see the module docstring).

    Attributes
    ----------
    roc_auc : float
        The (weighted) ROC AUC, ties counted ½.
    z : float
        (AUC − ½) / standard error under the null; 0 when every score is tied.
    p_value : float
        One-sided p-value Φ(z) of "the scorer ranks at random" against "worse than random";
        1 when every score is tied (nothing to test).
    alpha : float
        The level of the test.
    below : bool
        ``p_value < alpha``: the scorer ranks significantly worse than chance.
    n_pos, n_neg : float
        The numbers of positives and negatives used (Kish's effective numbers when weighted).
    weighted : bool
        Whether the counts were sample weights (the variance is then the approximation of the
        module docstring).
    """

    roc_auc: float
    z: float
    p_value: float
    alpha: float
    below: bool
    n_pos: float
    n_neg: float
    weighted: bool


def _check_alpha(alpha: Any) -> float:
    try:
        value = float(alpha)
    except (TypeError, ValueError):
        raise TypeError(f"alpha: expected a number in (0, 1), got {alpha!r}") from None
    if not 0.0 < value < 1.0:
        raise ValueError(f"alpha: expected a number in (0, 1), got {alpha!r}")
    return value


def _placement_sums(
    tp: np.ndarray, fp: np.ndarray, ties: bool, total: float
) -> tuple[float, float, float]:
    """Mann–Whitney's ``U`` (ties counted half), ``Σ(t³ − t)`` and ``Σ(t/total)³`` over the
    tie groups of sizes ``t``, block by block (a few temporaries of one block; a curve on disk,
    :mod:`prcurve._core._disk`, read once)."""
    u = cubes = q3 = 0.0
    for tp_prev, fp_prev, t_, f_ in count_blocks(tp, fp):
        d_tp, d_fp = t_ - tp_prev, f_ - fp_prev
        u += float(np.sum(d_fp * (tp_prev + d_tp / 2.0)))
        if ties:
            t = d_tp + d_fp
            cubes += float(np.sum(t**3 - t))
            q3 += float(np.sum((t / total) ** 3))
    return u, cubes, q3


def below_chance_test(
    tp: Any,
    fp: Any,
    *,
    alpha: float = DEFAULT_ALPHA,
    effective_counts: tuple[float, float] | None = None,
    ties: bool = True,
) -> BelowChanceTest:
    """Test whether the scores rank positives significantly *below* negatives.

    Parameters
    ----------
    tp, fp : array-like, shape (k,)
        Cumulative (optionally weighted) counts of positives and negatives at the distinct
        thresholds, thresholds decreasing (a :class:`prcurve.PRCurve`'s ``tp`` and ``fp``).
    alpha : float, keyword-only
        One-sided level (default :data:`DEFAULT_ALPHA`).
    effective_counts : (float, float), keyword-only
        With weighted counts: Kish's effective numbers of positives and negatives (required
        then; unweighted counts are their own numbers).
    ties : bool, keyword-only
        Whether each threshold holds exactly the rows tied at one score (default).  False for a
        thinned curve, whose thresholds merge several scores: the tie correction is then left
        out, which can only raise the variance (a conservative test).
    """
    alpha = _check_alpha(alpha)
    tp = np.asarray(tp)
    fp = np.asarray(fp)
    if tp.ndim != 1 or tp.shape != fp.shape or tp.shape[0] == 0:
        raise ValueError(
            f"tp, fp: expected two non-empty 1-d arrays of the same length, got shapes "
            f"{tp.shape} and {fp.shape}"
        )
    weighted = tp.dtype.kind == "f" or fp.dtype.kind == "f"
    if weighted and effective_counts is None:
        raise ValueError(
            "effective_counts: expected Kish's effective numbers of positives and negatives "
            "with weighted counts, got None"
        )
    w_pos, w_neg = float(tp[-1]), float(fp[-1])
    if not (w_pos > 0 and w_neg > 0):
        raise ValueError(
            f"tp, fp: expected positives and negatives, got totals {w_pos:g} and {w_neg:g}"
        )
    # each negative counts the positives ranked above it, and half of those tied with it
    u, tie_cubes, tie_q3 = _placement_sums(tp, fp, ties, w_pos + w_neg)
    auc = u / (w_pos * w_neg)
    if weighted:
        n_pos, n_neg = (float(c) for c in effective_counts)  # type: ignore[union-attr]
        var = (1.0 / n_pos + 1.0 / n_neg) * (1.0 - tie_q3) / 12.0
    else:
        n_pos, n_neg = w_pos, w_neg
        n = n_pos + n_neg
        var = ((n + 1.0) - tie_cubes / (n * (n - 1.0))) / (12.0 * n_pos * n_neg)
    if not var > 0:  # every score tied: AUC = ½ exactly
        return BelowChanceTest(auc, 0.0, 1.0, alpha, False, n_pos, n_neg, weighted)
    z = (auc - 0.5) / float(np.sqrt(var))
    p = float(ndtr(z))
    return BelowChanceTest(auc, z, p, alpha, p < alpha, n_pos, n_neg, weighted)
