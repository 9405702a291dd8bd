import numpy as np
import pytest

from prcurve import binary_counts
from prcurve._core._counts import count_sorted

from ..conftest import make_problem


def brute_counts(y, s, w=None):
    """Obviously-correct counts: one pass over the data per distinct threshold."""
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    thresholds = np.unique(s)[::-1]
    tp = np.array([w[(s >= t) & y].sum() for t in thresholds])
    fp = np.array([w[(s >= t) & ~y].sum() for t in thresholds])
    return thresholds, tp, fp


@pytest.mark.parametrize("prevalence", [0.01, 0.1, 0.5, 0.9])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("weights", [False, True])
def test_counts_match_brute_force(rng, prevalence, ties, weights):
    y, s, w = make_problem(rng, n=400, prevalence=prevalence, ties=ties, weights=weights)
    c = binary_counts(y, s, sample_weight=w)
    t, tp, fp = brute_counts(y, s, w)
    np.testing.assert_array_equal(c.thresholds, t)
    np.testing.assert_allclose(c.tp, tp, rtol=1e-12)
    np.testing.assert_allclose(c.fp, fp, rtol=1e-12)
    assert c.n_pos == pytest.approx(tp[-1]) and c.n_neg == pytest.approx(fp[-1])
    assert c.weighted == weights


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.int8, np.uint16])
def test_counts_keep_score_dtype_and_integer_counts(rng, dtype):
    y = rng.random(500) < 0.3
    s = (rng.integers(0, 50, size=500)).astype(dtype)
    c = binary_counts(y, s)
    assert c.tp.dtype == np.int64 and c.fp.dtype == np.int64
    t, tp, fp = brute_counts(y, s)
    np.testing.assert_array_equal(c.tp, tp)
    np.testing.assert_array_equal(c.fp, fp)
    np.testing.assert_array_equal(c.thresholds, t)


def test_all_ties_is_one_point():
    c = binary_counts([0, 1, 1, 0, 1], [3.0] * 5)
    assert c.thresholds.tolist() == [3.0]
    assert c.tp.tolist() == [3] and c.fp.tolist() == [2]


@pytest.mark.parametrize("prevalence", [0.02, 0.3, 0.5, 0.7, 0.98])
@pytest.mark.parametrize("decimals", [None, 2, 0])
def test_every_engine_path_agrees_with_brute_force(rng, prevalence, decimals):
    """Imbalanced (one sort + binary search), balanced (run merge) and heavy-tie paths."""
    n = 3000
    y = rng.random(n) < prevalence
    y[:2] = [True, False]
    s = rng.normal(size=n) + y
    if decimals is not None:
        s = np.round(s, decimals)
    c = count_sorted(y, s)
    t, tp, fp = brute_counts(y, s)
    np.testing.assert_array_equal(c.thresholds, t)
    np.testing.assert_array_equal(c.tp, tp.astype(np.int64))
    np.testing.assert_array_equal(c.fp, fp.astype(np.int64))
    assert c.tp.dtype == np.int64
    ref = count_sorted(y, s, np.ones(n))
    np.testing.assert_array_equal(c.tp, ref.tp.astype(np.int64))


def test_counts_exact_beyond_float32_precision():
    """2**24 + 4 instances with float32 scores: counts are exact integers."""
    n = 2**24 + 4
    s = np.zeros(n, dtype=np.float32)
    y = np.zeros(n, dtype=bool)
    y[:3] = True
    s[:5] = 1.0
    c = binary_counts(y, s)
    assert c.tp.tolist() == [3, 3]
    assert c.fp.tolist() == [2, n - 3]
    assert c.n_neg == n - 3
    # float32 accumulation would have lost the odd count
    assert float(np.float32(n - 3)) != n - 3
