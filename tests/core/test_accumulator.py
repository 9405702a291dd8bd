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


def test_merge_is_in_place_and_returns_self(rng):
    # issue 23: merge returned a new accumulator, so ``a.merge(b); a.curve()`` lost b
    y, s, _ = make_problem(rng, n=400, ties=True)
    a = PRAccumulator().update(y[:150], s[:150])
    b = PRAccumulator().update(y[150:], s[150:])
    b_state = (b.scores.copy(), b.pos.copy(), b.neg.copy())
    assert a.merge(b) is a
    assert a.n_pos == int(y.sum()) and a.n_neg == int((~y).sum())
    assert_same_curve(a.curve(), pr_curve(y, s))
    for before, after in zip(b_state, (b.scores, b.pos, b.neg), strict=True):
        np.testing.assert_array_equal(before, after)  # the argument is not changed


def test_combine_is_new_and_leaves_inputs_unchanged(rng):
    y, s, w = make_problem(rng, n=400, ties=True, weights=True)
    parts = [
        PRAccumulator().update(y[:100], s[:100]),
        PRAccumulator().update(y[100:250], s[100:250], sample_weight=w[100:250]),
        PRAccumulator(),
        PRAccumulator().update(y[250:], s[250:], sample_weight=w[250:]),
    ]
    before = [(p.scores.copy(), p.pos.copy(), p.neg.copy()) for p in parts]
    total = PRAccumulator.combine(parts)
    assert all(total is not p for p in parts)
    for p, (sc, po, ne) in zip(parts, before, strict=True):
        np.testing.assert_array_equal(p.scores, sc)
        np.testing.assert_array_equal(p.pos, po)
        np.testing.assert_array_equal(p.neg, ne)
    ww = np.concatenate([np.ones(100), w[100:]])
    assert_same_curve(total.curve(), pr_curve(y, s, sample_weight=ww), exact=False)
    # commutative: the same state in either order (the sums here are exact: weights of the
    # unweighted rows are 1 and the others are added once per distinct score in both orders)
    rev = PRAccumulator.combine(parts[::-1])
    np.testing.assert_array_equal(rev.scores, total.scores)
    assert PRAccumulator.combine([]).scores.shape == (0,)
    total.update(y[:3], s[:3])  # the new one is independent of its inputs
    np.testing.assert_array_equal(parts[0].pos, before[0][1])
    with pytest.raises(TypeError, match="accumulators: expected PRAccumulator objects, got int"):
        PRAccumulator.combine([parts[0], 3])
    with pytest.raises(TypeError, match="accumulators: expected an iterable of PRAccumulator"):
        PRAccumulator.combine(parts[0])


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
    acc = PRAccumulator().update(y[:100], s[:100])
    acc.merge(PRAccumulator().update(y[100:], s[100:]))
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


def test_batch_without_positives_and_pos_label(rng):
    # issue 23: a batch of negatives only, with pos_label absent from it, raised
    acc = PRAccumulator().update(["ok", "ok"], [0.1, 0.2], pos_label="fraud")
    assert (acc.n_pos, acc.n_neg) == (0, 2)
    acc.update(["fraud", "ok", "fraud"], [0.3, 0.15, 0.05], pos_label="fraud")
    acc.update(["fraud"], [0.2], pos_label="fraud")  # positives only
    y = ["ok", "ok", "fraud", "ok", "fraud", "fraud"]
    s = [0.1, 0.2, 0.3, 0.15, 0.05, 0.2]
    assert_same_curve(acc.curve(), pr_curve(y, s, pos_label="fraud"))
    with pytest.raises(ValueError, match="pos_label: expected one of the labels in y_true"):
        acc.update(["ok", "bad"], [0.1, 0.2], pos_label="fraud")  # two labels, neither
    with pytest.raises(
        ValueError, match="pos_label: expected the positive label for a batch with the single"
    ):
        acc.update(["ok", "ok"], [0.1, 0.2])


def test_empty_batch_is_a_no_op():
    # issue 23: update([], []) raised while a batch of zero weights was accepted
    acc = PRAccumulator()
    assert acc.update([], []) is acc
    assert acc.scores.shape == (0,) and (acc.n_pos, acc.n_neg) == (0, 0)
    acc.update([1, 0], [0.7, 0.2]).update(np.array([], bool), np.array([], np.int64))
    acc.update([], [], sample_weight=[])
    assert acc.curve().tp.tolist() == [1, 1] and not acc.weighted
    with pytest.raises(ValueError, match="sample_weight: expected length 0"):
        acc.update([], [], sample_weight=[1.0])
    with pytest.raises(ValueError, match="y_true and y_score: expected the same length, got 0"):
        acc.update([], [0.5])


U = 2.0**-53  # unit roundoff of float64


@pytest.mark.parametrize("scale", [2.0**-1070, 1e-320, 1e-300, 1.0, 1e300, 1e307])
def test_extreme_weights_agree_with_pr_curve_to_the_summation_bound(rng, scale):
    # issue 23: near 1e-320 the state lost precision (5e-5 relative); near 1e307 it overflowed.
    # Bound: each cumulative weight is a sum of at most n positive terms; any order of summing
    # them is within (n - 1) u of the exact sum, so the two computations are within 2 (n - 1) u
    # of each other, and precision / recall (one more addition and a division each) within
    # 4 n u.  The curve is in pr_curve's units (rescaled by a power of two when extreme).
    n = 400
    y, s, _ = make_problem(rng, n=n, ties=True)
    w = (0.5 + rng.random(n)) * scale
    acc = PRAccumulator()
    for part in np.array_split(np.arange(n), 7):
        acc.update(y[part], s[part], sample_weight=w[part])
    got, ref = acc.curve(), pr_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(got.thresholds, ref.thresholds)
    np.testing.assert_allclose(got.tp, ref.tp, rtol=2 * (n - 1) * U, atol=0)
    np.testing.assert_allclose(got.fp, ref.fp, rtol=2 * (n - 1) * U, atol=0)
    assert got.n_pos == pytest.approx(ref.n_pos, rel=2 * (n - 1) * U)
    np.testing.assert_allclose(got.precision, ref.precision, rtol=4 * n * U, atol=0)
    np.testing.assert_allclose(got.recall, ref.recall, rtol=4 * n * U, atol=0)
    # AP = sum_k (R_k - R_{k-1}) P_k: each of the k terms moves by at most 3 * 4 n u times
    # its share of a total of 1 plus the precision error, so the area by at most 4 * 4 n u
    assert got.auc() == pytest.approx(ref.auc(), abs=16 * n * U)


def test_weights_spread_beyond_float64_across_batches():
    acc = PRAccumulator().update([1, 0], [0.9, 0.1], sample_weight=[1e-300, 1e-300])
    with pytest.raises(ValueError, match=r"sample_weight: expected positive weights within a "):
        pr_curve([1, 0, 1], [0.9, 0.1, 0.5], sample_weight=[1e-300, 1e-300, 1e300])
    with pytest.raises(ValueError, match=r"within a factor of about 2\*\*1500 of one another "):
        acc.update([1], [0.5], sample_weight=[1e300])
    # the failed batch left the state as it was (in pr_curve's units: 1e-300 is scaled up)
    assert acc.scores.tolist() == [0.1, 0.9]
    assert acc.n_pos == pr_curve([1, 0], [0.9, 0.1], sample_weight=[1e-300, 1e-300]).n_pos


def dyadic_weights(data, n):
    """Small integers times 2**e, one common scale: every sum of them is exact in float64
    (at most 3 + 30 + 8 significant bits), subnormal (e = -1074) or summing past the float64
    maximum (e = 990) included; a quarter of them zero."""
    base = data.draw(st.sampled_from([-1074, -1060, -600, -40, 0, 500, 990]))
    m = data.draw(st.lists(st.integers(0, 7), min_size=n, max_size=n))
    j = data.draw(st.lists(st.integers(0, 30), min_size=n, max_size=n))
    return np.ldexp(np.array(m, dtype=np.float64), base + np.array(j))


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 150), kind=st.sampled_from(["counts", "weights", "int64"]), data=st.data())
def test_any_split_accumulates_to_exactly_pr_curve(n, kind, data):
    """Batches of any size (empty and one-class ones too), fed to one accumulator, to several
    merged in place, and combined anew: exactly ``pr_curve``'s curve (bit for bit)."""
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    y = rng.random(n) < data.draw(st.floats(0.0, 1.0))
    y[0], y[1] = True, False
    s = np.floor(rng.normal(size=n) * data.draw(st.sampled_from([1, 3, 1000]))) + 2 * y
    w = None
    if kind == "int64":
        s = 2**60 + s.astype(np.int64)  # beyond float64's integers: must not merge
    if kind == "weights":
        w = dyadic_weights(data, n)
        w[0] = w[1] = np.ldexp(1.0, int(np.frexp(w.max())[1]) - 1)  # both classes present
    if data.draw(st.booleans()):  # group by class: one-class batches
        order = np.argsort(y, kind="stable")
        y, s, w = y[order], s[order], None if w is None else w[order]
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=8)))
    edges = [0, *cuts, n]  # repeated cuts make empty batches
    batches = [slice(lo, hi) for lo, hi in itertools.pairwise(edges)]

    def part(b):
        return PRAccumulator().update(y[b], s[b], sample_weight=None if w is None else w[b])

    one = PRAccumulator()
    for b in batches:
        assert one.update(y[b], s[b], sample_weight=None if w is None else w[b]) is one
    chained = functools.reduce(lambda a, b: a.merge(b), [part(b) for b in batches])
    combined = PRAccumulator.combine(part(b) for b in batches[::-1])
    ref = pr_curve(y, s, sample_weight=w)
    for acc in (one, chained, combined):
        got = acc.curve()
        for name in ("thresholds", "tp", "fp", "precision", "recall"):
            a, b = getattr(got, name), getattr(ref, name)
            assert a.dtype == b.dtype, name
            np.testing.assert_array_equal(a, b, err_msg=name)
        assert (got.n_pos, got.n_neg) == (ref.n_pos, ref.n_neg)
        assert type(got.n_pos) is type(ref.n_pos)
        # the state, per distinct score, in the curve's units
        np.testing.assert_array_equal(acc.pos[::-1], np.diff(ref.tp, prepend=0))
        np.testing.assert_array_equal(acc.neg[::-1], np.diff(ref.fp, prepend=0))


# --- issue 26: sorted runs merged by size (amortised O(n log n) streaming) -----------------


def _continuous_batches(rng, n_batches, size):
    out = []
    for _ in range(n_batches):
        y = rng.random(size) < 0.1
        out.append((y, rng.normal(size=size) + 1.5 * y))
    return out


def test_streaming_peak_memory_stays_within_one_and_a_half_states(rng):
    # issue 26: every update re-merged the whole state through concatenations and an argsort,
    # peaking near 3.4 times the state; merging runs column by column needs the state plus one
    # column of the merge and two small per-element arrays (<= 1.42 times the state), plus the
    # batch's own work (here 20,000 rows next to a state of 600,000 distinct scores)
    import tracemalloc

    batches = _continuous_batches(rng, 30, 20_000)
    acc = PRAccumulator()
    tracemalloc.start()
    try:
        for y, s in batches:
            acc.update(y, s)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    _ = acc.scores  # the last buffered rows sorted in: the state as 24 bytes per score
    assert acc.nbytes >= 600_000 * 24
    assert peak <= 1.5 * acc.nbytes, peak / acc.nbytes
    y = np.concatenate([b[0] for b in batches])
    s = np.concatenate([b[1] for b in batches])
    assert_same_curve(acc.curve(), pr_curve(y, s))


def test_a_small_update_does_not_rewrite_a_large_state(rng):
    # issue 26: a batch of 100 rows rewrote all 400,000 scores of the state (quadratic streams);
    # now it is pushed as a small run, merged only with runs of its own size
    import tracemalloc

    (y0, s0), (y1, s1) = (
        _continuous_batches(rng, 1, 400_000)[0],
        (rng.random(100) < 0.5, rng.random(100)),
    )
    acc = PRAccumulator().update(y0, s0)
    tracemalloc.start()
    try:
        acc.update(y1, s1)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 0.05 * 400_000 * 24
    assert_same_curve(acc.curve(), pr_curve(np.r_[y0, y1], np.r_[s0, s1]))


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 400),
    levels=st.sampled_from([None, 3, 50]),
    block=st.sampled_from([1, 2, 3, 7, 1 << 14]),
    data=st.data(),
)
def test_any_batches_any_merge_tree_and_reads_between_equal_pr_curve(n, levels, block, data):
    """Many batches (so many runs, merged at every size), merged in a random tree, with the
    state read (collapsed) or pickled between updates, and blocks of any size inside a merge:
    exactly ``pr_curve``'s curve."""
    import pickle

    import prcurve._core._runs as runs_module

    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    y = rng.random(n) < data.draw(st.floats(0.05, 0.95))
    y[0], y[1] = True, False
    s = rng.normal(size=n) + y
    if levels is not None:
        s = np.floor(s * levels / 4)
    cuts = sorted(data.draw(st.lists(st.integers(0, n), max_size=60)))
    edges = [0, *cuts, n]
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(runs_module, "BLOCK", block)
        parts = []
        for lo, hi in itertools.pairwise(edges):
            acc = PRAccumulator()
            for a, b in itertools.pairwise(sorted({lo, hi, *rng.integers(lo, hi + 1, 3)})):
                acc.update(y[a:b], s[a:b])
                action = rng.integers(4)
                if action == 0 and acc.nbytes:
                    _ = acc.scores  # collapse, then keep streaming
                elif action == 1:
                    acc = pickle.loads(pickle.dumps(acc))
            parts.append(acc)
        order = rng.permutation(len(parts))
        pool = [parts[i] for i in order]
        while len(pool) > 1:  # a random merge tree
            i = int(rng.integers(len(pool) - 1))
            pool[i : i + 2] = [pool[i].merge(pool[i + 1])]
        got = pool[0]
        if got.nbytes == 0:
            return
        assert_same_curve(got.curve(), pr_curve(y, s))
        np.testing.assert_array_equal(got.scores, np.unique(s))


def test_state_arrays_are_shared_read_only_and_pickle_as_one_run(rng):
    import pickle

    y, s, _ = make_problem(rng, n=600, ties=True)
    a = PRAccumulator()
    for part in np.array_split(np.arange(600), 9):
        a.update(y[part], s[part])
    b = PRAccumulator().merge(a)  # shares a's runs: neither may change them in place
    with pytest.raises(ValueError, match="read-only"):
        a.scores[0] = 1.0
    b.update(y[:10], s[:10])
    assert_same_curve(a.curve(), pr_curve(y, s))
    c = pickle.loads(pickle.dumps(b))
    assert set(b.__getstate__()) == {"scores", "_pos", "_neg", "_shift", "_top", "_low"}
    assert_same_curve(c.curve(), pr_curve(np.r_[y, y[:10]], np.r_[s, s[:10]]))


def test_buffered_rows_are_in_every_read(rng):
    # issue 26: small unweighted batches are buffered unsorted until they amount to a fraction of
    # the state; every read -- scores, counts, curve, a merge either way, a pickle -- includes them
    import pickle

    y, s, _ = make_problem(rng, n=20_000, ties=False)
    y_all, s_all = np.r_[y, y[:7]], np.r_[s, s[:7] + 0.5]

    def streamed():
        acc = PRAccumulator().update(y, s)  # the first batch is sorted at once (empty state)
        acc.update(y[:3], s[:3] + 0.5).update(y[3:7], s[3:7] + 0.5)  # buffered
        assert acc.nbytes < 20_000 * 24 + 7 * 24  # the 7 rows are held unsorted (9 bytes each)
        return acc

    ref = pr_curve(y_all, s_all)
    assert_same_curve(streamed().curve(), ref)
    np.testing.assert_array_equal(streamed().scores, np.unique(s_all))
    assert streamed().n_pos == int(np.count_nonzero(y_all))
    assert_same_curve(pickle.loads(pickle.dumps(streamed())).curve(), ref)
    assert_same_curve(PRAccumulator().merge(streamed()).curve(), ref)
    assert_same_curve(streamed().merge(PRAccumulator().update([1], [9.0])).curve(),
                      pr_curve(np.r_[y_all, True], np.r_[s_all, 9.0]))  # fmt: skip
    w = np.full(7, 0.5)  # a weighted batch after buffered rows: all weighted from then on
    got = streamed().update(y[:7], s[:7], sample_weight=w).curve()
    assert_same_curve(
        got,
        pr_curve(np.r_[y_all, y[:7]], np.r_[s_all, s[:7]], sample_weight=np.r_[np.ones(20_007), w]),
        exact=False,
    )


def test_a_stream_of_small_batches_passes_over_its_data_a_few_times(rng, monkeypatch):
    # issue 26: each of 100 batches was pushed as a run and merged pairwise, so every score went
    # through about log2(100) ~ 7 merges (0.65 M rows/s at 10^8 rows); now batches are buffered
    # into runs of a fifth of the state and the runs a push merges are merged in one pass, so the
    # merges argsort each score about 3 times in all (here 100 batches and one read)
    import prcurve._core._runs as runs_module

    sorted_elements = []
    real = np.argsort

    def counting(a, *args, **kwargs):
        sorted_elements.append(np.shape(a)[0])
        return real(a, *args, **kwargs)

    batches = _continuous_batches(rng, 100, 2_000)
    monkeypatch.setattr(runs_module.np, "argsort", counting)
    acc = PRAccumulator()
    for y, s in batches:
        acc.update(y, s)
    distinct = acc.scores.shape[0]
    monkeypatch.undo()
    assert distinct == 200_000
    assert sum(sorted_elements) <= 3.5 * distinct, sum(sorted_elements) / distinct
    y = np.concatenate([b[0] for b in batches])
    s = np.concatenate([b[1] for b in batches])
    assert_same_curve(acc.curve(), pr_curve(y, s))
