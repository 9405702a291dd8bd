"""precision@k, recall@k and AP@k against a brute-force average over every order of tied rows."""

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import (
    average_precision_at_k,
    operating_point,
    pr_curve,
    precision_at_k,
    recall_at_k,
)


def tie_orders(s):
    """Every ranking of the rows consistent with the scores (ties in every order), each once."""
    s = np.asarray(s)
    out = []
    for order in itertools.permutations(range(len(s))):
        ranked = s[list(order)]
        if np.all(ranked[:-1] >= ranked[1:]):
            out.append(list(order))
    return out


def brute(y, s, k, w=None):
    """Averages over the tie orders: E[TP_w], E[W], E[precision], E[AP@k numerator]."""
    y = np.asarray(y, dtype=bool)
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    tp_w, flagged, prec, ap_sum = [], [], [], []
    for order in tie_orders(s):
        top = np.asarray(order[:k])
        tp_w.append(w[top][y[top]].sum())
        flagged.append(w[top].sum())
        prec.append(tp_w[-1] / flagged[-1])
        cum_tp = np.cumsum(w[top] * y[top])
        cum_w = np.cumsum(w[top])
        ap_sum.append(np.sum(w[top] * y[top] * cum_tp / cum_w))
    return tuple(float(np.mean(v)) for v in (tp_w, flagged, prec, ap_sum))


small = st.integers(2, 7).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
        st.lists(st.integers(0, 3), min_size=n, max_size=n),
        st.integers(1, n),
    )
)


@settings(max_examples=120, deadline=None)
@given(small)
def test_precision_recall_ap_at_k_equal_brute_force_over_tie_orders(problem):
    """The issue's "done when": precision@k is the expectation over random orders of ties."""
    y, s, k = problem
    e_tp, _, e_prec, e_ap = brute(y, s, k)
    n_pos = sum(y)
    assert precision_at_k(y, s, k) == pytest.approx(e_prec, rel=1e-12, abs=1e-15)
    assert recall_at_k(y, s, k) == pytest.approx(e_tp / n_pos, rel=1e-12, abs=1e-15)
    assert average_precision_at_k(y, s, k) == pytest.approx(
        e_ap / min(k, n_pos), rel=1e-12, abs=1e-15
    )
    assert average_precision_at_k(y, s, k, normalize="n_pos") == pytest.approx(
        e_ap / n_pos, rel=1e-12, abs=1e-15
    )


@settings(max_examples=80, deadline=None)
@given(small, st.data())
def test_weighted_at_k_equal_brute_force(problem, data):
    """k counts rows; weights weight them.  Precision is E[TP_w] / E[W]; AP@k is exact when
    tied rows share a weight (weights drawn per distinct score)."""
    y, s, k = problem
    per_score = data.draw(st.lists(st.integers(1, 5), min_size=4, max_size=4))
    w_equal = [per_score[v] for v in s]
    w_any = data.draw(st.lists(st.integers(1, 5), min_size=len(y), max_size=len(y)))
    e_tp, e_w, _, _ = brute(y, s, k, w_any)
    n_pos_w = sum(wi for wi, yi in zip(w_any, y, strict=True) if yi)
    assert precision_at_k(y, s, k, sample_weight=w_any) == pytest.approx(e_tp / e_w, rel=1e-12)
    assert recall_at_k(y, s, k, sample_weight=w_any) == pytest.approx(
        e_tp / n_pos_w, rel=1e-12, abs=1e-15
    )
    _, _, e_prec, e_ap = brute(y, s, k, w_equal)
    n_pos_w = sum(wi for wi, yi in zip(w_equal, y, strict=True) if yi)
    # equal weights within each tie: the ratio of expectations is the expected precision
    assert precision_at_k(y, s, k, sample_weight=w_equal) == pytest.approx(e_prec, rel=1e-12)
    assert average_precision_at_k(
        y, s, k, sample_weight=w_equal, normalize="n_pos"
    ) == pytest.approx(e_ap / n_pos_w, rel=1e-12, abs=1e-15)


def test_without_ties_equal_a_sort_based_reference_and_scikit_learn():
    from sklearn.metrics import average_precision_score

    rng = np.random.default_rng(3)
    y = rng.random(300) < 0.3
    s = rng.normal(size=300) + y
    w = rng.uniform(0.5, 2.0, size=300)
    order = np.argsort(-s)
    ys, ws = y[order], w[order]
    for k in (1, 7, 50, 299, 300):
        assert precision_at_k(y, s, k) == pytest.approx(ys[:k].mean(), rel=1e-14)
        assert recall_at_k(y, s, k) == pytest.approx(ys[:k].sum() / y.sum(), rel=1e-14)
        assert precision_at_k(y, s, k, sample_weight=w) == pytest.approx(
            ws[:k][ys[:k]].sum() / ws[:k].sum(), rel=1e-12
        )
        prec_i = np.cumsum(ys[:k]) / np.arange(1, k + 1)
        assert average_precision_at_k(y, s, k) == pytest.approx(
            np.sum(prec_i * ys[:k]) / min(k, y.sum()), rel=1e-12
        )
    # AP@n over all the positives is scikit-learn's average precision (no ties)
    assert average_precision_at_k(y, s, 300, normalize="n_pos") == pytest.approx(
        average_precision_score(y, s), rel=1e-12
    )
    assert average_precision_at_k(y, s, 300, normalize="n_pos", sample_weight=w) == pytest.approx(
        average_precision_score(y, s, sample_weight=w), rel=1e-12
    )


def test_agrees_with_operating_point_top_k_when_no_tie_straddles_k():
    y = [1, 0, 1, 1, 0, 0, 1, 0]
    s = [9, 8, 8, 7, 5, 5, 5, 1]
    for k in (1, 3, 4, 7):  # 7 rows end the tie at 5: the group is not split
        op = operating_point(y, s, top_k=k)
        assert precision_at_k(y, s, k) == op.precision
        assert recall_at_k(y, s, k) == op.recall
    # k = 5 splits the tie at 5 (three rows, one positive): operating_point flags 4 rows,
    # the expectation takes 1/3 of the group
    assert precision_at_k(y, s, 5) == pytest.approx((3 + 1 / 3) / 5, rel=1e-15)
    assert operating_point(y, s, top_k=5).precision == 3 / 4


def test_a_fraction_is_a_depth_of_rows():
    rng = np.random.default_rng(0)
    y = rng.random(40) < 0.4
    s = np.round(rng.normal(size=40), 1)
    assert precision_at_k(y, s, 0.25) == precision_at_k(y, s, 10)
    assert recall_at_k(y, s, 0.25) == recall_at_k(y, s, 10)
    # a fractional depth counts the straddling row by its share: linear between whole rows
    mid = precision_at_k(y, s, 0.2625) * 10.5  # E[TP(10.5)]
    tp10, tp11 = precision_at_k(y, s, 10) * 10, precision_at_k(y, s, 11) * 11
    assert mid == pytest.approx((tp10 + tp11) / 2, rel=1e-14)


def test_read_off_the_counts_at_every_threshold():
    rng = np.random.default_rng(1)
    y = rng.random(500) < 0.2
    s = rng.integers(0, 30, size=500)
    c = pr_curve(y, s)
    for tp, fp, prec, rec in zip(c.tp[:10], c.fp[:10], c.precision, c.recall, strict=False):
        k = int(tp + fp)
        assert precision_at_k(y, s, k) == pytest.approx(prec, rel=1e-15)
        assert recall_at_k(y, s, k) == pytest.approx(rec, rel=1e-15)


@pytest.mark.parametrize(
    ("k", "error", "match"),
    [
        (0, ValueError, r"k: expected an integer number of rows in \[1, 4\] or a fraction of "
         r"the rows in \(0, 1\), got 0"),
        (5, ValueError, r"k: expected an integer number of rows in \[1, 4\].*got 5"),
        (1.0, ValueError, r"k: expected an integer number of rows.*got 1\.0"),
        (2.0, ValueError, r"k: expected .*got 2\.0"),
        (float("nan"), ValueError, r"k: expected .*got nan"),
        (True, TypeError, r"k: expected .*got bool True"),
        ("3", TypeError, r"k: expected .*got str '3'"),
    ],
)  # fmt: skip
def test_bad_k(k, error, match):
    for func in (precision_at_k, recall_at_k):
        with pytest.raises(error, match=match):
            func([1, 0, 1, 0], [0.4, 0.3, 0.2, 0.1], k)


def test_ap_at_k_refusals():
    y, s = [1, 0, 1, 0], [0.4, 0.3, 0.3, 0.1]
    with pytest.raises(ValueError, match=r"k: expected an integer number of rows in \[1, 4\], "
                       r"got 0\.5"):  # fmt: skip
        average_precision_at_k(y, s, 0.5)
    with pytest.raises(ValueError, match=r"normalize: expected one of 'min', 'n_pos', got 'x'"):
        average_precision_at_k(y, s, 2, normalize="x")
    with pytest.raises(ValueError, match=r"normalize: expected 'n_pos' with sample_weight"):
        average_precision_at_k(y, s, 2, sample_weight=[1, 1, 1, 1])
    with pytest.raises(
        ValueError,
        match=r"sample_weight: expected equal weights within each group of tied scores in the "
        r"top k .* got weights from 1\.0 to 2\.0 tied at score 0\.3",
    ):
        average_precision_at_k(y, s, 2, normalize="n_pos", sample_weight=[1, 1, 2, 1])
    # unequal weights in a tie below the top k do not matter
    assert average_precision_at_k(
        y, s, 1, normalize="n_pos", sample_weight=[1, 1, 2, 1]
    ) == pytest.approx(1 / 3)


def test_k_counts_rows_of_positive_weight():
    y, s = [1, 0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6, 0.5]
    w = [1, 0, 1, 1, 1]  # the zero-weight row is not ranked
    assert precision_at_k(y, s, 2, sample_weight=w) == 1.0
    with pytest.raises(ValueError, match=r"k: expected an integer number of rows in \[1, 4\]"):
        precision_at_k(y, s, 5, sample_weight=w)
