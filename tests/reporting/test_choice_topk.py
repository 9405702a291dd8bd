"""The exact top-K bootstrap of the report (``analysis._topk``): the law of the ordinary
bootstrap of every row, drawn from the top rows only."""

from __future__ import annotations

import numpy as np
import pytest

from prcurve import precision_at_k, recall_at_k
from prcurve._core._counts import count_sorted
from prcurve._reporting.analysis import _topk


def _data(n=1500, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    s = np.round(rng.normal(size=n) + 1.2 * y, 1)  # ties, some straddling the depth
    return y, s


def _brute_force(y, s, depth, b, seed):
    """Rows resampled with replacement, precision@K and recall@K by the library."""
    gen = np.random.default_rng(seed)
    n = y.shape[0]
    prec, rec = np.empty(b), np.empty(b)
    for i in range(b):
        idx = gen.integers(0, n, n)
        prec[i] = precision_at_k(y[idx], s[idx], int(depth))
        rec[i] = recall_at_k(y[idx], s[idx], int(depth))
    return prec, rec


@pytest.mark.parametrize("margin", [8.0, -12.0])  # -12: most replicates completed from below
def test_law_equals_the_ordinary_bootstrap(monkeypatch, margin):
    monkeypatch.setattr(_topk, "MARGIN", margin)
    y, s = _data()
    c = count_sorted(y, s)
    depth, b = 150.0, 2000
    prec, rec = _topk.top_k_replicates(c.tp, c.fp, depth, b, np.random.default_rng(1))
    bp, br = _brute_force(y, s, depth, b, 2)
    for mine, ref in ((prec, bp), (rec, br)):
        se = np.hypot(mine.std(), ref.std()) / np.sqrt(b)  # of the difference of the means
        assert abs(mine.mean() - ref.mean()) < 4 * se
        # sd of a sample sd of 2000 draws: about 1.6 %; 10 % is more than 4 of those combined
        assert 0.9 < mine.std() / ref.std() < 1.1


def test_depth_counts_interpolate_within_a_tie_group():
    tp = np.array([[1, 1, 3], [0, 2, 2]])
    flags = np.array([[1, 2, 6], [2, 3, 7]])
    # row 0: depth 4 falls in group 3 (rows 3..6, 2 positives among 4): 1 + 2·(2/4)
    # row 1: depth 4 falls in group 3 (rows 4..7, no positive): 2
    np.testing.assert_allclose(_topk.depth_counts(tp, flags, 4.0), [2.0, 2.0])


def test_cost_optimal_replicates_on_positive_columns_equal_every_column():
    """The choice step reads each replicate's least cost on the groups holding a positive; the
    same replicates (same seed) scanned over every threshold choose the same thresholds."""
    from prcurve._core._empirical import PRCurve
    from prcurve._inference._resample import bootstrap_blocks, prepare_counted
    from prcurve._reporting.analysis._choice import STREAM, analyse_choice
    from prcurve._reporting.analysis._sizing import Plan

    y, s = _data(n=800, seed=9)
    pr = PRCurve.from_counts(count_sorted(y, s))
    ratio, b = 0.3, 300
    got = analyse_choice(
        y, s, None, pr, cost_ratio=ratio, prevalence=None, top_k=None, level=0.9,
        plan=Plan("threshold_choice", b, 800, 800), seed=5, index=1,
    ).cost  # fmt: skip
    assert got is not None and got.threshold_interval is not None
    gen = np.random.default_rng(np.random.SeedSequence(5, spawn_key=(STREAM, 1, 1)))
    thresholds = np.concatenate([[np.inf], pr.thresholds])
    chosen = []
    for tp, fp, npos, nneg in bootstrap_blocks(prepare_counted(pr, y, s), b, gen):
        pi = (npos / (npos + nneg))[:, None]
        cost = pi * (1 - tp / npos[:, None]) + (1 - pi) * ratio * fp / nneg[:, None]
        chosen.append(thresholds[np.argmin(np.concatenate([pi, cost], axis=1), axis=1)])
    lo, hi = np.quantile(np.concatenate(chosen), [0.05, 0.95], method="inverted_cdf")
    assert (got.threshold_interval.low, got.threshold_interval.high) == (lo, hi)
