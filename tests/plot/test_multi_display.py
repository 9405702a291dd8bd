"""Displays of one-vs-rest classes and cross-validation folds, and from_estimator /
from_cv_results (what is drawn, never pixels; scikit-learn and pandas are test-only)."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
import pytest
from numpy.testing import assert_array_equal
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate
from sklearn.svm import LinearSVC

from prcurve import cv_pr_curves, pr_curve, pr_curves
from prcurve.plot import (
    CVPRCurvesDisplay,
    MultiPRCurvesDisplay,
    PRCurveDisplay,
    PRGCurveDisplay,
    ROCCurveDisplay,
)


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def binary():
    X, y = make_classification(n_samples=300, weights=[0.75], random_state=3)
    return X, y


def _y(line):
    return np.asarray(line.get_ydata(), dtype=float)


@pytest.mark.parametrize("display", [PRCurveDisplay, ROCCurveDisplay, PRGCurveDisplay])
def test_from_estimator_equals_from_predictions(binary, display):
    X, y = binary
    clf = LogisticRegression().fit(X, y)
    a = display.from_estimator(clf, X, y)
    b = display.from_predictions(y, clf.predict_proba(X)[:, 1], name="LogisticRegression")
    assert a.name == b.name == "LogisticRegression"
    assert_array_equal(a.line_.get_xdata(), b.line_.get_xdata())
    assert_array_equal(a.line_.get_ydata(), b.line_.get_ydata())
    svm = LinearSVC(dual=False).fit(X, y)
    c = display.from_estimator(svm, X, y, name="svm")
    d = display.from_predictions(y, svm.decision_function(X), name="svm")
    assert_array_equal(c.line_.get_ydata(), d.line_.get_ydata())


def test_from_estimator_pos_label(binary):
    X, y = binary
    clf = LogisticRegression().fit(X, y)
    a = PRCurveDisplay.from_estimator(clf, X, y, pos_label=0)
    ref = pr_curve(y == 0, clf.predict_proba(X)[:, 0])
    assert_array_equal(_y(a.line_), ref.interpolate()[1])


def test_series_name_names_the_curve(binary):
    pd = pytest.importorskip("pandas")
    X, y = binary
    s = pd.Series(LogisticRegression().fit(X, y).decision_function(X), name="logit")
    assert PRCurveDisplay.from_predictions(y, s).name == "logit"
    assert ROCCurveDisplay.from_predictions(y, s).name == "logit"
    assert PRCurveDisplay.from_predictions(y, s, name="other").name == "other"


def test_multi_display_draws_every_class_and_micro():
    X, y = make_classification(n_samples=450, n_classes=3, n_informative=5, random_state=1)
    clf = LogisticRegression().fit(X, y)
    disp = MultiPRCurvesDisplay.from_estimator(clf, X, y)
    res = pr_curves(y, clf.predict_proba(X))
    assert list(disp.lines_) == [0, 1, 2, "micro"]
    for j in range(3):
        assert_array_equal(_y(disp.lines_[j]), res.curves[j].interpolate()[1])
    assert_array_equal(_y(disp.lines_["micro"]), res.micro.interpolate()[1])
    texts = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert texts[0] == f"0 (AP = {res.auc(average=None)[0]:.3f})"
    assert f"{res.auc(average='macro'):.3f}" in disp.ax_.get_title()
    no_micro = MultiPRCurvesDisplay(res).plot(micro=False, legend=False)
    assert "micro" not in no_micro.lines_ and no_micro.ax_.get_legend() is None
    with pytest.raises(TypeError, match="result: expected a MultiPRCurves"):
        MultiPRCurvesDisplay(pr_curve(y == 0, X[:, 0]))
    with pytest.raises(TypeError, match="estimator: LinearSVC has no predict_proba method"):
        MultiPRCurvesDisplay.from_estimator(
            LinearSVC(dual=False).fit(X, y), X, y, response_method="predict_proba"
        )


def test_cv_display_from_cv_results(binary):
    X, y = binary
    cv = cross_validate(
        LogisticRegression(), X, y, cv=5, return_estimator=True, return_indices=True
    )
    disp = CVPRCurvesDisplay.from_cv_results(cv, X, y, threshold_average=True)
    res = disp.result
    ref = cv_pr_curves(
        [y[t] for t in cv["indices"]["test"]],
        [
            e.predict_proba(X[t])[:, 1]
            for e, t in zip(cv["estimator"], cv["indices"]["test"], strict=True)
        ],
    )
    assert_array_equal(res.mean_precision, ref.mean_precision)
    assert_array_equal(_y(disp.artists_["mean"]), ref.mean_precision)
    assert len(disp.artists_["folds"]) == 5
    assert sorted(disp.artists_) == [
        "band", "chance", "folds", "mean", "pooled", "threshold_average",
    ]  # fmt: skip
    assert disp.ax_.get_title() == "LogisticRegression"
    fa = ref.auc["average_precision"]
    labels = [t.get_text() for t in disp.ax_.get_legend().get_texts()]
    assert any(f"mean AP = {fa.mean:.3f}" in t for t in labels)
    # the band is the t-band of the result
    path = disp.artists_["band"].get_paths()[0].vertices
    assert np.isclose(path[:, 1].max(), ref.band.high.max())
    with pytest.raises(TypeError, match="result: expected a CVPRCurves"):
        CVPRCurvesDisplay(ref.pooled)


def test_from_cv_results_with_pandas_and_text_labels(binary):
    pd = pytest.importorskip("pandas")
    X, y = binary
    Xd = pd.DataFrame(X, index=np.arange(len(y)) + 1000)  # positions, not index labels
    ys = pd.Series(np.where(y == 1, "spam", "ham"), index=Xd.index)
    cv = cross_validate(
        LogisticRegression(), Xd, ys, cv=4, return_estimator=True, return_indices=True
    )
    a = CVPRCurvesDisplay.from_cv_results(cv, Xd, ys).result  # positive: classes_[1] = "spam"
    b = CVPRCurvesDisplay.from_cv_results(cv, Xd, ys, pos_label="spam").result
    assert_array_equal(a.mean_precision, b.mean_precision)
    ref = cross_validate(LogisticRegression(), X, y, cv=4, scoring="average_precision")
    np.testing.assert_allclose(a.auc["average_precision"].per_fold, ref["test_score"], rtol=1e-9)
    c = CVPRCurvesDisplay.from_cv_results(cv, Xd, ys, pos_label="ham").result
    assert c.pooled.n_pos == np.sum(y == 0)
