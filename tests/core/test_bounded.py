"""BoundedPRAccumulator (issue 26 item 2): fixed memory, exact while it fits, proven bounds.

The reference is always the exact curve of all the data (:func:`prcurve.pr_curve`, itself
checked against scikit-learn elsewhere); the bounds must hold on every stream, batch split and
merge order, and be 0 while the distinct scores fit.
"""

import functools
import itertools
import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import BoundedPRAccumulator, BoundedPRCurve, pr_curve


def accumulate(y, s, w, cuts, max_bins, order, tree):
    """One accumulator per batch (split at ``cuts``), merged in ``order`` as a chain or tree."""
    edges = [0, *sorted(cuts), len(y)]
    parts = []
    for lo, hi in itertools.pairwise(edges):
        acc = BoundedPRAccumulator(max_bins=max_bins)
        acc.update(y[lo:hi], s[lo:hi], sample_weight=None if w is None else w[lo:hi])
        parts.append(acc)
    parts = [parts[i] for i in order]
    if not tree:
        return functools.reduce(lambda a, b: a.merge(b), parts)
    while len(parts) > 1:
        parts = [
            parts[i].merge(parts[i + 1]) if i + 1 < len(parts) else parts[i]
            for i in range(0, len(parts), 2)
        ]
    return parts[0]


def assert_within_bounds(result, exact, recalls):
    for method in ("average_precision", "davis_goadrich"):
        truth = exact.auc(method)
        lo, hi = result.auc_interval(method)
        assert lo <= truth <= hi, (method, lo, truth, hi)
        assert abs(result.auc(method) - truth) <= result.error_bound(method)
    lo, hi = result.precision_interval(recalls)
    truth = exact.precision_at(recalls)
    assert np.all(lo <= truth) and np.all(truth <= hi)
    assert np.all(np.abs(result.precision_at(recalls) - truth) <= result.error_bound("precision"))


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(2, 150),
    levels=st.sampled_from([None, 3, 12, 60]),
    weighted=st.booleans(),
    max_bins=st.integers(1, 24),
    data=st.data(),
)
def test_exact_values_lie_within_the_bounds_for_any_stream_split_and_merge_order(
    n, levels, weighted, max_bins, data
):
    seed = data.draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y = rng.random(n) < data.draw(st.floats(0.05, 0.95))
    y[0], y[1] = True, False
    s = rng.normal(size=n) + data.draw(st.floats(-1, 3)) * y
    if levels is not None:
        s = np.round(s * levels / 6)
    if data.draw(st.booleans()):  # adversarial: labels alternate along the ranking
        s = np.sort(s)
        y = np.arange(n) % 2 == 0
    w = rng.integers(1, 5, size=n) * 0.25 if weighted else None
    cuts = data.draw(st.lists(st.integers(0, n), max_size=6))
    order = data.draw(st.permutations(range(len(cuts) + 1)))
    acc = accumulate(y, s, w, cuts, max_bins, order, data.draw(st.booleans()))
    assert acc.n_bins <= max_bins
    result = acc.curve()
    exact = pr_curve(y, s, sample_weight=w)
    recalls = np.concatenate([rng.random(20), exact.recall])
    recalls = recalls[recalls > 0]
    assert_within_bounds(result, exact, recalls)
    if exact.tp.shape[0] <= max_bins:
        assert result.exact
    if result.exact:
        np.testing.assert_array_equal(result.binned.thresholds, exact.thresholds)
        np.testing.assert_array_equal(result.binned.tp, exact.tp)
        assert result.ap_bound == result.dg_bound == result.precision_bound == 0.0
        assert result.auc_interval("average_precision") == (exact.auc(),) * 2


def test_exact_while_the_distinct_scores_fit_bit_for_bit():
    rng = np.random.default_rng(1)
    y = rng.random(5000) < 0.2
    s = np.round(rng.normal(size=5000) + y, 2)  # a few hundred distinct scores
    acc = BoundedPRAccumulator(max_bins=1000)
    for i in range(0, 5000, 700):
        acc.update(y[i : i + 700], s[i : i + 700])
    result, exact = acc.curve(), pr_curve(y, s)
    assert result.exact and acc.exact
    for name in ("thresholds", "tp", "fp", "precision", "recall"):
        np.testing.assert_array_equal(getattr(result.binned, name), getattr(exact, name))
    assert result.auc() == exact.auc()
    assert result.auc("davis_goadrich") == exact.auc("davis_goadrich")
    assert result.error_bound() == 0.0
    np.testing.assert_array_equal(result.precision_at([0.3, 0.9]), exact.precision_at([0.3, 0.9]))


def _binormal(rng, n):
    y = rng.random(n) < 0.05
    return y, rng.normal(size=n) + 1.5 * y


def _heavy_ties(rng, n):
    y = rng.random(n) < 0.3
    return y, np.round(rng.normal(size=n) + y, 2)  # ~800 distinct scores, heavy ties


def _adversarial(rng, n):
    s = rng.random(n)
    # positives and negatives interleaved at every scale: no bin of neighbours is pure
    y = (np.floor(s * 2**20) % 2 == 0) ^ (rng.random(n) < 0.1)
    return y, s


@pytest.mark.parametrize("stream", [_binormal, _heavy_ties, _adversarial])
def test_realised_error_below_the_bound_on_test_streams(stream):
    rng = np.random.default_rng(2)
    y, s = stream(rng, 200_000)
    acc = BoundedPRAccumulator(max_bins=256)
    for i in range(0, 200_000, 20_000):
        acc.update(y[i : i + 20_000], s[i : i + 20_000])
    assert acc.n_bins <= 256 and acc.nbytes <= 32 * 256
    result, exact = acc.curve(), pr_curve(y, s)
    assert not result.exact
    assert_within_bounds(result, exact, np.linspace(0.01, 1, 500))
    # the bound is informative, not a vacuous [0, 1]
    assert result.error_bound("average_precision") < 0.02
    assert result.error_bound("davis_goadrich") < 0.02


def test_bound_shrinks_with_more_bins():
    rng = np.random.default_rng(3)
    y, s = _binormal(rng, 100_000)
    bounds = [
        BoundedPRAccumulator(max_bins=b).update(y, s).curve().ap_bound for b in (32, 256, 2048)
    ]
    assert bounds[0] > bounds[1] > bounds[2]


def test_pickle_round_trip_and_continue():
    rng = np.random.default_rng(4)
    y, s = _binormal(rng, 20_000)
    acc = BoundedPRAccumulator(max_bins=64).update(y[:10_000], s[:10_000])
    again = pickle.loads(pickle.dumps(acc))
    acc.update(y[10_000:], s[10_000:])
    again.update(y[10_000:], s[10_000:])
    for name in ("low", "high", "pos", "neg"):
        np.testing.assert_array_equal(getattr(again, name), getattr(acc, name))
    assert again.max_bins == 64


def test_combine_leaves_parts_unchanged_and_takes_smallest_max_bins():
    parts = [BoundedPRAccumulator(max_bins=b).update([1, 0, 1], [b, 0.5, 0.1]) for b in (8, 4)]
    total = BoundedPRAccumulator.combine(parts)
    assert total.max_bins == 4 and total.n_pos == 4 and parts[0].n_pos == 2
    assert isinstance(total.curve(), BoundedPRCurve)


def test_update_and_merge_return_the_accumulator_and_accept_empty_batches():
    acc = BoundedPRAccumulator(max_bins=4)
    assert acc.update([], []) is acc
    assert acc.merge(BoundedPRAccumulator()) is acc
    assert acc.update([0, 0], [0.1, 0.2]).update([1], [0.3]).n_bins == 3


@pytest.mark.parametrize(
    ("value", "error", "match"),
    [
        (0, ValueError, r"max_bins: expected an integer >= 1, got 0"),
        (2.5, TypeError, r"max_bins: expected an integer, got float 2\.5"),
        (True, TypeError, r"max_bins: expected an integer, got bool True"),
    ],
)
def test_bad_max_bins(value, error, match):
    with pytest.raises(error, match=match):
        BoundedPRAccumulator(max_bins=value)


def test_errors_name_the_parameter():
    acc = BoundedPRAccumulator()
    with pytest.raises(ValueError, match=r"y_true: expected at least one sample, got an empty"):
        acc.curve()
    with pytest.raises(ValueError, match=r"y_true: expected both classes, got only negatives"):
        acc.update([0, 0], [0.1, 0.2]).curve()
    with pytest.raises(TypeError, match=r"other: expected a BoundedPRAccumulator, got list"):
        acc.merge([1, 2])
    with pytest.raises(TypeError, match=r"accumulators: expected BoundedPRAccumulator .* index 1"):
        BoundedPRAccumulator.combine([acc, 3])
    with pytest.raises(TypeError, match=r"accumulators: expected an iterable .* got int"):
        BoundedPRAccumulator.combine(3)
    with pytest.raises(ValueError, match=r"accumulators: expected at least one accumulator"):
        BoundedPRAccumulator.combine([])
    result = acc.update([1], [0.3]).curve()
    with pytest.raises(ValueError, match=r"method: expected one of 'average_precision', 'davis"):
        result.auc("trapezoid")
    with pytest.raises(ValueError, match=r"quantity: expected one of .*'precision', got 'f1'"):
        result.error_bound("f1")
    with pytest.raises(ValueError, match=r"recall"):
        result.precision_interval(0.0)
