"""One-vs-rest curves and averaged AUC-PR: scikit-learn's definitions, brute force, errors."""

import numpy as np
import pytest
from sklearn.metrics import average_precision_score
from sklearn.preprocessing import label_binarize

from prcurve import MultiPRCurves, auc_pr, pr_curve, pr_curves
from prcurve._core._area import AUC_PR_METHODS

AVERAGES = ["macro", "micro", "weighted", None]


def multiclass(rng, n=400, k=4, ties=False):
    y = rng.integers(0, k, size=n)
    s = rng.normal(size=(n, k)) + 1.2 * (y[:, None] == np.arange(k))
    if ties:
        s = np.round(s * 2) / 2
    return y, s


def multilabel(rng, n=300, k=3):
    Y = (rng.random((n, k)) < [0.1, 0.3, 0.5][:k]).astype(int)
    Y[0], Y[1] = 1, 0
    S = rng.normal(size=(n, k)) + 1.0 * Y
    return Y, S


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("ties", [False, True])
def test_multilabel_equals_sklearn(rng, average, ties):
    Y, S = multilabel(rng)
    if ties:
        S = np.round(S)
    w = rng.random(Y.shape[0]) * 2
    for weight in (None, w):
        ours = auc_pr(Y, S, average=average, sample_weight=weight)
        ref = average_precision_score(Y, S, average=average, sample_weight=weight)
        np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=1e-14)


@pytest.mark.parametrize("average", AVERAGES)
@pytest.mark.parametrize("ties", [False, True])
def test_multiclass_equals_sklearn_label_binarize(rng, average, ties):
    y, s = multiclass(rng, ties=ties)
    ref = average_precision_score(label_binarize(y, classes=np.arange(4)), s, average=average)
    np.testing.assert_allclose(auc_pr(y, s, average=average), ref, rtol=1e-12)
    # string labels: columns follow the sorted labels, like scikit-learn's classes_
    names = np.array(["ant", "bee", "cat", "dog"])
    np.testing.assert_allclose(auc_pr(names[y], s, average=average), ref, rtol=1e-12)


def test_multiclass_sklearn_direct(rng):
    """scikit-learn's own multiclass support (macro), where it exists."""
    y, s = multiclass(rng)
    np.testing.assert_allclose(auc_pr(y, s), average_precision_score(y, s), rtol=1e-12)


@pytest.mark.parametrize("method", AUC_PR_METHODS)
def test_every_estimator_averages_its_per_class_values(rng, method):
    y, s = multiclass(rng, ties=True)
    res = pr_curves(y, s)
    per = np.array([pr_curve(y == j, s[:, j]).auc(method) for j in range(4)])
    np.testing.assert_allclose(res.auc(method, average=None), per, rtol=1e-12)
    np.testing.assert_allclose(res.auc(method, average="macro"), per.mean(), rtol=1e-12)
    support = np.bincount(y)
    np.testing.assert_allclose(
        res.auc(method, average="weighted"), np.sum(per * support) / support.sum(), rtol=1e-12
    )
    flat = pr_curve((y[:, None] == np.arange(4)).ravel(), s.ravel()).auc(method)
    np.testing.assert_allclose(res.auc(method, average="micro"), flat, rtol=1e-12)
    assert auc_pr(y, s, method=method, average="micro") == pytest.approx(flat, rel=1e-12)


def test_micro_counts_are_sums_of_class_counts(rng):
    """Micro pools (instance, class) pairs: its TP/FP at a threshold sum the per-class ones."""
    y, s = multiclass(rng, n=200, k=3, ties=True)
    res = pr_curves(y, s)
    for t in res.micro.thresholds[::7]:
        tp = sum(int(np.sum((s[:, j] >= t) & (y == j))) for j in range(3))
        fp = sum(int(np.sum((s[:, j] >= t) & (y != j))) for j in range(3))
        i = int(np.flatnonzero(res.micro.thresholds == t)[0])
        assert (res.micro.tp[i], res.micro.fp[i]) == (tp, fp)


def test_result_accessors_and_frame(rng):
    y, s = multiclass(rng, n=120, k=3)
    res = pr_curves(np.array(["a", "b", "c"])[y], s)
    assert isinstance(res, MultiPRCurves) and len(res) == 3 and res.kind == "multiclass"
    assert res.curve("b") is res.curves[1]
    with pytest.raises(KeyError, match="label: expected one of"):
        res.curve("z")
    df = res.to_frame()
    assert list(df.columns) == ["class", "threshold", "tp", "fp", "precision", "recall"]
    assert df.shape[0] == sum(c.recall.shape[0] for c in res.curves) + res.micro.recall.shape[0]
    assert set(df["class"]) == {"a", "b", "c", "micro"}


def test_dataframe_indicator_names_classes(rng):
    pd = pytest.importorskip("pandas")
    Y, S = multilabel(rng)
    res = pr_curves(pd.DataFrame(Y, columns=["x", "y", "z"]), S)
    assert res.classes.tolist() == ["x", "y", "z"] and res.kind == "multilabel"


def test_binary_usage_unchanged(rng):
    y = rng.random(200) < 0.3
    s = rng.normal(size=200) + y
    assert auc_pr(y, s) == pr_curve(y, s).auc()
    assert auc_pr(y, s[:, None]) == pr_curve(y, s).auc()  # a column vector is binary scores
    assert auc_pr(y, s, average="micro") == auc_pr(y, s)  # average is ignored for binary


def test_errors(rng):
    y, s = multiclass(rng, n=50, k=3)
    with pytest.raises(ValueError, match=r"y_score: expected a 1-D array of scores with two-cl"):
        auc_pr(y % 2, s[:, :2])
    # with labels named, a two-class one-vs-rest problem is allowed
    assert 0 < auc_pr(y % 2, s[:, :2], labels=[0, 1]) <= 1
    with pytest.raises(ValueError, match=r"y_true: expected 4 classes \(one per score column\)"):
        auc_pr(y, np.column_stack([s, s[:, 0]]))
    with pytest.raises(ValueError, match="labels: expected 3 distinct labels"):
        auc_pr(y, s, labels=[0, 0, 1])
    with pytest.raises(ValueError, match="y_true: expected labels among"):
        auc_pr(y, s, labels=[0, 1, 5])
    with pytest.raises(ValueError, match="y_true: class 5 has no positive instance"):
        pr_curves(y, np.column_stack([s, s[:, 0]]), labels=[0, 1, 2, 5])
    bad = s.copy()
    bad[3, 1] = np.nan
    with pytest.raises(ValueError, match="y_score: expected finite numbers, got nan at row 3"):
        auc_pr(y, bad)
    with pytest.raises(ValueError, match="average: expected one of 'macro'"):
        auc_pr(y, s, average="samples")
    with pytest.raises(ValueError, match="method: expected one of"):
        auc_pr(y, s, method="roc")
    with pytest.raises(TypeError, match="pos_label: not used with a score matrix"):
        auc_pr(y, s, pos_label=1)
    with pytest.raises(ValueError, match=r"y_true and y_score: expected the same number of rows"):
        auc_pr(y[:-1], s)
    Y = (y[:, None] == np.arange(3)).astype(int)
    Y[0, 0] = 2
    with pytest.raises(ValueError, match="y_true: expected a 0/1 indicator matrix, got 2"):
        auc_pr(Y, s)
    with pytest.raises(ValueError, match="y_true and y_score: expected the same number of col"):
        auc_pr(Y[:, :2], s)
    with pytest.raises(ValueError, match="sample_weight: expected finite non-negative weights"):
        auc_pr(y, s, sample_weight=-np.ones(50))
    with pytest.raises(ValueError, match="y_score: expected at least 2 columns"):
        pr_curves(y, np.zeros((50, 1)) + np.zeros((1, 1)), labels=[0])


def test_zero_weights_drop_instances(rng):
    y, s = multiclass(rng, n=150, k=3)
    w = np.ones(150)
    w[:20] = 0
    for average in AVERAGES:
        np.testing.assert_allclose(
            auc_pr(y, s, average=average, sample_weight=w),
            auc_pr(y[20:], s[20:], average=average),
            rtol=1e-12,
        )


def test_more_input_errors(rng):
    y, s = multiclass(rng, n=30, k=3)
    with pytest.raises(TypeError, match="y_true: expected an array-like of labels, got None"):
        pr_curves(None, s)
    with pytest.raises(ValueError, match=r"y_score: expected a 2-D score matrix \(n, k\)"):
        pr_curves(y, s[None])
    with pytest.raises(TypeError, match="y_score: expected real numbers, got complex"):
        pr_curves(y, s + 1j)
    with pytest.raises(TypeError, match="y_score: expected numbers, got values of type"):
        pr_curves(y, np.full((30, 3), "a"))
    with pytest.raises(ValueError, match=r"sample_weight: expected shape \(30,\), got \(29,\)"):
        pr_curves(y, s, sample_weight=np.ones(29))
    with pytest.raises(TypeError, match="sample_weight: expected numbers"):
        pr_curves(y, s, sample_weight=np.array(["a"] * 30))
    with pytest.raises(ValueError, match="sample_weight: expected some positive weight"):
        pr_curves(y, s, sample_weight=np.zeros(30))
    with pytest.raises(ValueError, match=r"y_true: expected shape \(n,\) or \(n, k\)"):
        pr_curves(np.zeros((30, 3, 2)), s)
    with pytest.raises(ValueError, match="y_true: expected class labels, got None"):
        pr_curves(np.array([None, *y[1:].tolist()], dtype=object), s)
    with pytest.raises(ValueError, match="y_true: expected at least one sample"):
        pr_curves(np.array([]), np.zeros((0, 3)))
    Y = (y[:, None] == np.arange(3)).astype(int)
    with pytest.raises(ValueError, match=r"labels: expected 3 labels \(one per column\)"):
        pr_curves(Y, s, labels=["a", "b"])
    assert pr_curves(Y, s, labels=["a", "b", "c"]).classes.tolist() == ["a", "b", "c"]
    with pytest.raises(TypeError, match="y_true: expected a 0/1 indicator matrix, got values"):
        pr_curves(np.full((30, 3), "x"), s)
    with pytest.raises(TypeError, match=r"rng: not supported with a score matrix"):
        auc_pr(y, s, rng=1)
