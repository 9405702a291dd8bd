import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import pr_curve, pr_to_roc, roc_to_pr

from ..conftest import make_problem


def test_curve_points_round_trip(rng):
    y, s, _ = make_problem(rng, n=500, prevalence=0.1, ties=True)
    c = pr_curve(y, s)
    roc = c.to_roc()
    r, p = roc_to_pr(roc.fpr, roc.tpr, n_pos=c.n_pos, n_neg=c.n_neg)
    np.testing.assert_allclose(r, c.recall)
    np.testing.assert_allclose(p, c.precision)
    keep = c.recall > 0
    fpr, tpr = pr_to_roc(c.recall[keep], c.precision[keep], n_pos=c.n_pos, n_neg=c.n_neg)
    np.testing.assert_allclose(fpr, roc.fpr[keep], atol=1e-12)
    np.testing.assert_allclose(tpr, roc.tpr[keep])


@settings(max_examples=100, deadline=None)
@given(
    tp=st.integers(1, 1000),
    fp=st.integers(0, 1000),
    n_pos=st.integers(1000, 5000),
    n_neg=st.integers(1000, 5000),
)
def test_confusion_matrix_is_one_point_in_both_spaces(tp, fp, n_pos, n_neg):
    r, p = roc_to_pr(fp / n_neg, tp / n_pos, n_pos=n_pos, n_neg=n_neg)
    assert r == pytest.approx(tp / n_pos) and p == pytest.approx(tp / (tp + fp))
    fpr, tpr = pr_to_roc(r, p, n_pos=n_pos, n_neg=n_neg)
    assert fpr == pytest.approx(fp / n_neg, abs=1e-12) and tpr == pytest.approx(tp / n_pos)


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: roc_to_pr(0.0, 0.0, n_pos=1, n_neg=1), "FPR = TPR = 0 predicts nothing"),
        (lambda: roc_to_pr(1.5, 0.2, n_pos=1, n_neg=1), r"fpr: expected values in \[0, 1\]"),
        (lambda: roc_to_pr(0.5, np.nan, n_pos=1, n_neg=1), r"tpr: expected values in \[0, 1\]"),
        (lambda: roc_to_pr(0.5, 0.5, n_pos=0, n_neg=1), "n_pos: expected a positive finite"),
        (lambda: pr_to_roc(0.0, 0.5, n_pos=1, n_neg=1), "recall 0 does not determine"),
        (lambda: pr_to_roc(0.5, 0.0, n_pos=1, n_neg=1), "precision 0 with recall > 0"),
        (lambda: pr_to_roc(1.0, 0.01, n_pos=10, n_neg=10), "not a point of this data set"),
        (lambda: pr_to_roc(0.5, 0.5, n_pos=1, n_neg=-2), "n_neg: expected a positive finite"),
    ],
)
def test_conversion_errors(call, match):
    with pytest.raises(ValueError, match=match):
        call()
