"""Precision, recall and average precision in the top k rows, ties in random order.

When the k-th row's score is tied with rows below the budget, the top k is not determined by
the scores; every function here returns the expectation under a uniformly random order of the
tied rows (see :mod:`prcurve._decision._depth` for why that is an interpolation of the counts).
:func:`prcurve.operating_point` with ``top_k=`` is the other convention: it never splits a tie
(it flags the tied group entirely or not at all), so both agree whenever no tie straddles k.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core._validation import check_choice
from ._depth import Ranking, check_depth, ranking

__all__ = ["AP_NORMALIZATIONS", "average_precision_at_k", "precision_at_k", "recall_at_k"]

#: Denominators of :func:`average_precision_at_k`.
AP_NORMALIZATIONS = ("min", "n_pos")


def precision_at_k(y_true: Any, y_score: Any, k: Any, *, sample_weight: Any = None) -> float:
    """Share of positives among the ``k`` highest-scored rows, ties in random order.

    Parameters
    ----------
    y_true : array-like of shape (n,)
        Binary labels (1 / True positive).
    y_score : array-like of shape (n,)
        Scores, larger = more positive.
    k : int or float
        An int: the number of rows, ``1 <= k <= n``.  A float in (0, 1): that fraction of the
        rows, i.e. a depth of ``k·n`` rows, the row straddling the depth counted by its share
        (so precision at a fraction is continuous in it).
    sample_weight : array-like of shape (n,), optional
        Non-negative weights.  ``k`` still counts rows (rows of zero weight are removed first);
        the weights weight what the rows hold.

    Returns
    -------
    float
        ``E[TP(k)] / E[W(k)]``: the expected (weighted) positives among the top ``k`` rows over
        the expected weight of those rows, the expectations taken over uniformly random orders
        of tied rows.  Unweighted (or with equal weights within each tied group straddling
        ``k``) the weight flagged is fixed, so this is exactly the expected precision.

    Notes
    -----
    With ``R_{g-1}`` rows above the tied group ``g`` holding the k-th row, ``s`` rows in the
    group, ``m = k − R_{g-1}`` of them inside the budget and ``P_g`` the group's positive
    weight, each of the group's rows is among the first ``m`` with probability ``m/s``, so
    ``E[TP(k)] = TP_{g-1} + (m/s)·P_g`` by linearity (whatever the weights); likewise the weight
    flagged.  Without ties this is the usual precision@k of information retrieval (Manning,
    Raghavan & Schütze 2008, *Introduction to Information Retrieval*, §8.4).  Weighted, this is a
    ratio of expectations; the expectation of the ratio has no closed form when the tied rows
    straddling ``k`` have unequal weights.

    Examples
    --------
    One of the three rows tied at 0.5 enters the top 3; the tied group holds one positive:

    >>> from prcurve import precision_at_k
    >>> precision_at_k([1, 0, 1, 0, 0], [0.9, 0.8, 0.5, 0.5, 0.5], 3)  # (1 + 1/3·1) / 3
    0.4444444444444444
    """
    tp, flagged, _ = _at_depth(y_true, y_score, k, sample_weight)
    return float(tp / flagged)


def recall_at_k(y_true: Any, y_score: Any, k: Any, *, sample_weight: Any = None) -> float:
    """Share of the positives found among the ``k`` highest-scored rows, ties in random order.

    Parameters are those of :func:`precision_at_k`.

    Returns
    -------
    float
        ``E[TP(k)] / n₊``, the expected recall over uniformly random orders of tied rows
        (``n₊`` the total positive weight).  Equal to the gain curve at depth ``k``
        (:func:`prcurve.gain_curve`).

    Examples
    --------
    >>> from prcurve import recall_at_k
    >>> recall_at_k([1, 0, 1, 0, 0], [0.9, 0.8, 0.5, 0.5, 0.5], 3)  # (1 + 1/3·1) / 2
    0.6666666666666666
    """
    tp, _, rank = _at_depth(y_true, y_score, k, sample_weight)
    return float(tp / rank.counts.n_pos)


def _at_depth(y_true: Any, y_score: Any, k: Any, sample_weight: Any) -> tuple[Any, Any, Ranking]:
    rank = ranking(y_true, y_score, sample_weight=sample_weight)
    depth = check_depth(k, rank.n_rows)
    tp, fp = rank.expected(depth)
    return tp, tp + fp, rank


def average_precision_at_k(
    y_true: Any,
    y_score: Any,
    k: Any,
    *,
    normalize: str = "min",
    sample_weight: Any = None,
) -> float:
    """Average precision of the ``k`` highest-scored rows (AP@k), ties in random order.

    ``AP@k = Σ_{i<=k} rel(i)·P(i) / Z``, where ``rel(i)`` is 1 when the row at rank ``i`` is
    positive and ``P(i)`` the precision of the top ``i`` rows.

    Parameters
    ----------
    y_true, y_score, sample_weight
        As for :func:`precision_at_k`.
    k : int
        The number of rows, ``1 <= k <= n`` (AP@k sums over whole ranks: no fractions).
    normalize : {"min", "n_pos"}, default "min"
        The denominator ``Z``.  ``"min"``: ``min(k, n₊)``, the number of positives an ideal
        ranking puts in the top ``k``, so that a perfect ranking scores 1 (the MAP@k of
        recommender and Kaggle evaluations, e.g. ``apk`` of Hamner's ``ml_metrics``).
        ``"n_pos"``: ``n₊``, all the positives (AP truncated at rank ``k``, as ``trec_eval``
        computes AP over a cut-off list; Manning et al. 2008, §8.4); at ``k = n``
        without ties it equals scikit-learn's ``average_precision_score``.  With
        ``sample_weight`` only ``"n_pos"`` is defined (``min(k, n₊)`` would mix rows and
        weight): the weighted form is ``Σ_{i<=k} w_i·rel(i)·P_w(i) / n₊``.

    Returns
    -------
    float
        The expectation of AP@k over uniformly random orders of the tied rows.

    Raises
    ------
    ValueError
        With ``sample_weight``, when the rows of a tied group within the top ``k`` have unequal
        weights (the expectation then has no closed form), or ``normalize="min"``.

    Notes
    -----
    AP@k is not linear in the order, so the interpolation of :func:`precision_at_k` does not
    give its expectation.  Take rank ``i`` inside a tied group of ``s`` rows holding ``p``
    positives, at position ``j`` of the group, below ``R`` rows holding ``TP`` positives (weight
    ``W``), every row of the group with weight ``w`` (1 unweighted).  Over random orders of the
    group the labels at its positions are exchangeable: ``E[rel_j] = p/s``, and for ``l != j``
    ``E[rel_j·rel_l] = p(p − 1)/(s(s − 1))``.  Since ``TP(i) = TP + w·Σ_{l<=j} rel_l`` and the
    weight above rank ``i`` is the fixed ``W + j·w``,

        E[w·rel_j·P(i)] = w·[ (p/s)·(TP + w) + w·(j − 1)·p(p − 1)/(s(s − 1)) ] / (W + j·w),

    summed over every rank ``i <= k`` (a vectorised sum over ranks, no loop).  Without ties
    (``s = 1``) each term is ``rel(i)·P(i)``.

    Examples
    --------
    >>> from prcurve import average_precision_at_k
    >>> y, s = [1, 0, 1, 0], [0.9, 0.8, 0.5, 0.5]
    >>> average_precision_at_k(y, s, 3)  # (1/1 + E[rel_3·P(3)]) / 2 = (1 + (1/2)(2/3)) / 2
    0.6666666666666666
    >>> average_precision_at_k(y, s, 3, normalize="n_pos")
    0.6666666666666666
    """
    norm = check_choice(normalize, "normalize", AP_NORMALIZATIONS)
    if sample_weight is not None and norm == "min":
        raise ValueError(
            "normalize: expected 'n_pos' with sample_weight (min(k, n_pos) would mix a number "
            "of rows with a weight of positives), got 'min'"
        )
    rank = ranking(y_true, y_score, sample_weight=sample_weight, keep_rows=True)
    top = int(check_depth(k, rank.n_rows, allow_fraction=False))
    counts = rank.counts
    n_groups = int(np.searchsorted(rank.rows, top, side="left")) + 1  # groups meeting the top
    rows = np.concatenate([[0], rank.rows[:n_groups]])
    tp = np.concatenate([[0.0], np.asarray(counts.tp[:n_groups], dtype=np.float64)])
    flagged = tp + np.concatenate([[0.0], np.asarray(counts.fp[:n_groups], dtype=np.float64)])
    size = np.diff(rows).astype(np.float64)
    if rank.weight is None:  # unweighted: p is the group's TP, every weight 1
        w = np.ones(n_groups)
        p = np.diff(tp)
    else:
        w, p = _equal_group_weights(rank, n_groups)
    # ranks 1..top, each with its group and position j within the group
    inside = np.minimum(np.diff(rows), top - rows[:-1])
    g = np.repeat(np.arange(n_groups), inside)
    j = np.arange(1, top + 1, dtype=np.float64) - rows[:-1][g]
    s, pg, wg = size[g], p[g], w[g]
    pairs = np.where(s > 1, pg * (pg - 1) / np.where(s > 1, s * (s - 1), 1.0), 0.0)
    term = wg * ((pg / s) * (tp[:-1][g] + wg) + wg * (j - 1) * pairs) / (flagged[:-1][g] + j * wg)
    z = min(top, counts.n_pos) if norm == "min" else counts.n_pos
    return float(term.sum() / z)


def _equal_group_weights(rank: Ranking, n_groups: int) -> tuple[np.ndarray, np.ndarray]:
    """Weight and number of positive rows of each of the first groups (weights must be equal)."""
    g, w, positive = rank.groups_of_top(n_groups)
    low = np.full(n_groups, np.inf)
    high = np.zeros(n_groups)
    np.minimum.at(low, g, w)
    np.maximum.at(high, g, w)
    unequal = np.flatnonzero(low != high)
    if unequal.shape[0]:
        first = int(unequal[0])
        raise ValueError(
            "sample_weight: expected equal weights within each group of tied scores in the top "
            "k (the expectation of AP@k over random orders of tied rows of unequal weights has "
            f"no closed form), got weights from {float(low[first])!r} to "
            f"{float(high[first])!r} tied at score {rank.counts.thresholds[first].item()!r}"
        )
    positives = np.bincount(g[positive], minlength=n_groups).astype(np.float64)
    return low, positives
