import functools
import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import PRAccumulator, PRGCurve, pr_curve, prg_curve
from prcurve._core._area import AUC_PR_METHODS

from ..conftest import make_problem


def assert_same_curve(a, b, *, exact=True):
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    if exact:
        np.testing.assert_array_equal(a.tp, b.tp)
        np.testing.assert_array_equal(a.fp, b.fp)
        assert a.tp.dtype == b.tp.dtype == np.int64
        assert (a.n_pos, a.n_neg) == (b.n_pos, b.n_neg)
    else:
        np.testing.assert_allclose(a.tp, b.tp, rtol=1e-12)
        np.testing.assert_allclose(a.fp, b.fp, rtol=1e-12)
    np.testing.assert_allclose(a.precision, b.precision, rtol=1e-12)
    np.testing.assert_allclose(a.recall, b.recall, rtol=1e-12)
    for method in AUC_PR_METHODS:
        assert a.auc(method) == pytest.approx(b.auc(method), abs=1e-12)
    assert a.to_roc().auc() == pytest.approx(b.to_roc().auc(), abs=1e-12)
    np.testing.assert_array_equal(a.achievable().thresholds, b.achievable().thresholds)


def accumulate(y, s, w, cuts, order, tree):
    """Split at ``cuts``, one accumulator per batch, merged in ``order`` (a chain or a tree)."""
    edges = [0, *sorted(cuts), len(y)]
    parts = []
    for lo, hi in itertools.pairwise(edges):
        if hi > lo:
            acc = PRAccumulator()
            acc.update(y[lo:hi], s[lo:hi], sample_weight=None if w is None else w[lo:hi])
            parts.append(acc)
    parts = [parts[i] for i in order(len(parts))]
    if not tree:
        return functools.reduce(lambda a, b: a.merge(b), parts)
    while len(parts) > 1:
        parts = [
            parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i]
            for i in range(0, len(parts), 2)
        ]
    return parts[0]


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 120),
    levels=st.sampled_from([None, 2, 5, 40]),
    weighted=st.booleans(),
    data=st.data(),
)
def test_random_batches_and_merge_orders_equal_pr_curve(n, levels, weighted, data):
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y = rng.random(n) < data.draw(st.floats(0.05, 0.95))
    y[0], y[1] = True, False
    s = rng.normal(size=n) + y
    if levels is not None:
        s = np.floor(s * levels / 4)  # heavy ties
    w = None
    if weighted:
        w = rng.choice([0.0, 0.5, 1.0, 3.0, 1e-3], size=n)
        w[0] = w[1] = 1.0
    cuts = data.draw(st.lists(st.integers(1, n - 1), max_size=8))
    perm_seed = data.draw(st.integers(0, 1000))
    tree = data.draw(st.booleans())
    acc = accumulate(y, s, w, cuts, lambda k: np.random.default_rng(perm_seed).permutation(k), tree)
    assert_same_curve(acc.curve(), pr_curve(y, s, sample_weight=w), exact=w is None)


def test_update_in_place_and_chained(rng):
    y, s, _ = make_problem(rng, n=500, ties=True)
    acc = PRAccumulator()
    assert acc.update(y[:100], s[:100]) is acc
    acc.update(y[100:], s[100:])
    assert_same_curve(acc.curve(), pr_curve(y, s))
    assert acc.n_pos == int(y.sum()) and acc.n_neg == int((~y).sum())


def test_merge_leaves_inputs_unchanged_and_is_commutative(rng):
    y, s, _ = make_problem(rng, n=400, ties=True)
    a = PRAccumulator().update(y[:150], s[:150])
    b = PRAccumulator().update(y[150:], s[150:])
    before = (a.scores.copy(), a.pos.copy(), b.scores.copy(), b.pos.copy())
    ab, ba = a.merge(b), b.merge(a)
    for x, y_ in zip(before, (a.scores, a.pos, b.scores, b.pos), strict=True):
        np.testing.assert_array_equal(x, y_)
    for name in ("scores", "pos", "neg"):
        np.testing.assert_array_equal(getattr(ab, name), getattr(ba, name))
    assert PRAccumulator().merge(a).scores is a.scores or np.array_equal(
        PRAccumulator().merge(a).scores, a.scores
    )


def test_state_is_per_distinct_score(rng):
    y = rng.random(100_000) < 0.1
    s = np.round(rng.random(100_000), 2)  # 101 distinct scores
    acc = PRAccumulator().update(y, s)
    assert acc.scores.shape == (101,)
    assert acc.nbytes == 101 * 24
    np.testing.assert_array_equal(acc.scores, np.unique(s))
    np.testing.assert_array_equal(acc.pos + acc.neg, np.unique(s, return_counts=True)[1])


def test_single_class_batches_and_mixed_weighting(rng):
    y, s, _ = make_problem(rng, n=300)
    acc = PRAccumulator()
    acc.update(np.ones(5, bool), s[:5])  # positives only
    acc.update(np.zeros(5, bool), s[5:10])  # negatives only
    acc.update(y[10:], s[10:], sample_weight=np.full(290, 2.0))  # weighted: state becomes float
    assert acc.weighted
    w = np.concatenate([np.ones(10), np.full(290, 2.0)])
    yy = np.concatenate([np.ones(5, bool), np.zeros(5, bool), y[10:]])
    assert_same_curve(acc.curve(), pr_curve(yy, s, sample_weight=w), exact=False)


def test_zero_weight_rows_are_absent():
    acc = PRAccumulator().update([1, 0, 1, 0], [0.9, 0.5, 0.3, 0.1], sample_weight=[1, 1, 0, 2])
    np.testing.assert_array_equal(acc.scores, [0.1, 0.5, 0.9])  # 0.3 is not an operating point
    assert acc.curve().thresholds.tolist() == [0.9, 0.5, 0.1]
    acc.update([1, 0], [0.7, 0.2], sample_weight=[0, 0])  # a batch of absent rows
    np.testing.assert_array_equal(acc.scores, [0.1, 0.5, 0.9])


def test_prg_and_threshold_rule_follow(rng):
    y, s, _ = make_problem(rng, n=300, ties=True)
    acc = PRAccumulator().update(y[:100], s[:100]).merge(PRAccumulator().update(y[100:], s[100:]))
    ref = pr_curve(y, s, threshold_rule="gt")
    got = acc.curve(threshold_rule="gt")
    np.testing.assert_array_equal(got.thresholds, ref.thresholds)
    assert PRGCurve.from_pr(got.__class__.from_counts(acc.counts())).auc() == pytest.approx(
        prg_curve(y, s).auc(), abs=1e-12
    )


def test_errors():
    acc = PRAccumulator()
    with pytest.raises(ValueError, match="empty accumulator"):
        acc.curve()
    acc.update([1, 1], [0.2, 0.4])
    with pytest.raises(ValueError, match="y_true: expected both classes, got only positives"):
        acc.curve()
    with pytest.raises(ValueError, match="y_score: expected finite numbers, got NaN"):
        acc.update([0, 1], [0.1, np.nan])
    with pytest.raises(ValueError, match="sample_weight: expected non-negative"):
        acc.update([0, 1], [0.1, 0.2], sample_weight=[1, -1])
    with pytest.raises(TypeError, match="other: expected a PRAccumulator, got list"):
        acc.merge([1, 2])
    assert "distinct_scores=2" in repr(acc)
