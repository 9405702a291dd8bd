import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import pr_curve
from prcurve._core._batch import functional_precision, functional_precision_sorted, row_searchsorted

from ..conftest import make_problem


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    b=st.integers(1, 6),
    k=st.integers(0, 40),
    m=st.integers(1, 10),
    side=st.sampled_from(["left", "right"]),
)
def test_row_searchsorted_equals_numpy(seed, b, k, m, side):
    rng = np.random.default_rng(seed)
    a = np.sort(rng.integers(0, 15, size=(b, k)).astype(float), axis=1)
    v = rng.integers(-1, 17, size=(b, m)).astype(float)
    want = np.stack([np.searchsorted(a[i], v[i], side=side) for i in range(b)])
    np.testing.assert_array_equal(row_searchsorted(a, v, side=side), want)


def _class_sorted(y, s):
    pos = np.sort(np.where(y, s, np.inf), axis=1)
    neg = np.sort(np.where(y, np.inf, s), axis=1)
    return pos, neg


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ties=st.booleans(), rows=st.integers(1, 5))
def test_three_representations_agree(seed, ties, rows):
    """Counts (1-D and rows with repeated points) and class-sorted samples: one estimator."""
    rng = np.random.default_rng(seed)
    recall = np.r_[np.linspace(0.01, 1, 23), 1 / 3, 2 / 3]
    ys, ss, curves = [], [], []
    for _ in range(rows):
        y, s, _ = make_problem(rng, n=60, prevalence=0.3, ties=ties)
        ys.append(y)
        ss.append(s)
        curves.append(pr_curve(y, s))
    want = np.stack([c.precision_at(recall) for c in curves])
    # rows of cumulative counts, each padded by repeating its last point
    k = max(c.tp.shape[0] for c in curves)
    tp = np.stack([np.pad(c.tp, (0, k - c.tp.shape[0]), mode="edge") for c in curves])
    fp = np.stack([np.pad(c.fp, (0, k - c.fp.shape[0]), mode="edge") for c in curves])
    npos = np.array([c.n_pos for c in curves])
    np.testing.assert_allclose(functional_precision(tp, fp, npos, recall), want, rtol=1e-12)
    # repeating an interior point changes nothing either
    tp_rep = np.insert(tp, 3, tp[:, 2], axis=1)
    fp_rep = np.insert(fp, 3, fp[:, 2], axis=1)
    np.testing.assert_allclose(functional_precision(tp_rep, fp_rep, npos, recall), want, rtol=1e-12)
    pos, neg = _class_sorted(np.stack(ys), np.stack(ss))
    got = functional_precision_sorted(pos, neg, np.stack(ys).sum(axis=1), recall)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_weighted_counts_match_repeated_samples(rng):
    y, s, _ = make_problem(rng, n=50, prevalence=0.4, ties=True)
    w = rng.integers(1, 4, size=50)
    weighted = pr_curve(y, s, sample_weight=w.astype(float))
    repeated = pr_curve(np.repeat(y, w), np.repeat(s, w))
    recall = np.linspace(0.02, 1, 50)
    np.testing.assert_allclose(
        weighted.precision_at(recall), repeated.precision_at(recall), rtol=1e-12
    )
