"""The scikit-learn workflow: scores from estimators, cross_validate output, scorers in
GridSearchCV, pandas names, to_frame (scikit-learn and pandas are test-only dependencies)."""

import subprocess
import sys

import numpy as np
import pytest
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import average_precision_score
from sklearn.model_selection import GridSearchCV, StratifiedKFold, cross_validate
from sklearn.svm import LinearSVC

from prcurve import auc_pr, cv_pr_curves, make_scorer, pr_curve, prg_curve, roc_curve
from prcurve._multi._sklearn import fold_scores_from_cv_results, scores_from_estimator


@pytest.fixture(scope="module")
def binary():
    X, y = make_classification(n_samples=400, weights=[0.7], flip_y=0.05, random_state=0)
    return X, y


@pytest.fixture(scope="module")
def multiclass():
    X, y = make_classification(
        n_samples=450, n_classes=3, n_informative=5, flip_y=0.05, random_state=1
    )
    return X, y


def test_scores_from_estimator_follow_sklearn(binary):
    X, y = binary
    clf = LogisticRegression().fit(X, y)
    np.testing.assert_array_equal(scores_from_estimator(clf, X), clf.predict_proba(X)[:, 1])
    np.testing.assert_array_equal(
        scores_from_estimator(clf, X, pos_label=0), clf.predict_proba(X)[:, 0]
    )
    np.testing.assert_array_equal(
        scores_from_estimator(clf, X, response_method="decision_function"),
        clf.decision_function(X),
    )
    svm = LinearSVC(dual=False).fit(X, y)  # no predict_proba: the decision function
    np.testing.assert_array_equal(scores_from_estimator(svm, X), svm.decision_function(X))
    np.testing.assert_array_equal(
        scores_from_estimator(svm, X, pos_label=0), -svm.decision_function(X)
    )


def test_scores_from_estimator_errors(binary, multiclass):
    X, y = binary
    with pytest.raises(TypeError, match="estimator: expected a fitted classifier"):
        scores_from_estimator(LogisticRegression(), X)
    clf = LogisticRegression().fit(X, y)
    with pytest.raises(ValueError, match=r"pos_label: expected one of the estimator's classes"):
        scores_from_estimator(clf, X, pos_label=7)
    with pytest.raises(ValueError, match="response_method: expected one of"):
        scores_from_estimator(clf, X, response_method="predict")
    with pytest.raises(TypeError, match="estimator: LinearSVC has no predict_proba method"):
        scores_from_estimator(LinearSVC(dual=False).fit(X, y), X, response_method="predict_proba")
    Xm, ym = multiclass
    with pytest.raises(ValueError, match="estimator: expected a binary classifier, got 3"):
        scores_from_estimator(LogisticRegression().fit(Xm, ym), Xm)


def test_two_column_predict_proba_as_binary_scores_is_a_clear_error(binary):
    X, y = binary
    proba = LogisticRegression().fit(X, y).predict_proba(X)
    one_d = r"y_score: expected a 1-D array of scores, got shape \(400, 2\)"
    with pytest.raises(ValueError, match=one_d):
        pr_curve(y, proba)
    hint = r"predict_proba's output\); pass the positive class's column, y_score\[:, 1\]"
    with pytest.raises(ValueError, match=hint):
        roc_curve(y, proba)
    with pytest.raises(ValueError, match=r"two-class labels, got shape \(400, 2\) \(two columns"):
        auc_pr(y, proba)


def test_fold_scores_from_cv_results(binary):
    X, y = binary
    cv = cross_validate(
        LogisticRegression(), X, y, cv=4, return_estimator=True, return_indices=True
    )
    ys, ss = fold_scores_from_cv_results(cv, X, y)
    for est, test, yy, s in zip(cv["estimator"], cv["indices"]["test"], ys, ss, strict=True):
        np.testing.assert_array_equal(yy, y[test])
        np.testing.assert_array_equal(s, est.predict_proba(X[test])[:, 1])
    res = cv_pr_curves(ys, ss)
    # the per-fold average precision is cross_validate's own "average_precision" score
    cv_ap = cross_validate(LogisticRegression(), X, y, cv=4, scoring="average_precision")
    np.testing.assert_allclose(
        res.auc["average_precision"].per_fold, cv_ap["test_score"], rtol=1e-12
    )
    with pytest.raises(ValueError, match="cv_results: expected keys 'estimator' and 'indices'"):
        fold_scores_from_cv_results({"estimator": cv["estimator"]}, X, y)
    with pytest.raises(TypeError, match="cv_results: expected the dict returned"):
        fold_scores_from_cv_results([1, 2], X, y)


@pytest.mark.parametrize("method", ["average_precision", "davis_goadrich", "trapezoid"])
def test_scorer_equals_auc_pr_on_estimator_scores(binary, method):
    X, y = binary
    clf = LogisticRegression().fit(X, y)
    scorer = make_scorer(method)
    # binary: scikit-learn asks the estimator for decision_function (first in the order)
    assert scorer(clf, X, y) == pytest.approx(
        auc_pr(y, clf.decision_function(X), method=method), rel=1e-12
    )


@pytest.mark.parametrize("average", ["macro", "micro", "weighted"])
def test_scorer_multiclass_equals_auc_pr_of_the_score_matrix(multiclass, average):
    X, y = multiclass
    clf = LogisticRegression().fit(X, y)
    scorer = make_scorer(average=average, response_method="predict_proba")
    proba = clf.predict_proba(X)
    assert scorer(clf, X, y) == pytest.approx(auc_pr(y, proba, average=average), rel=1e-12)
    onehot = (y[:, None] == clf.classes_).astype(int)
    assert scorer(clf, X, y) == pytest.approx(
        average_precision_score(onehot, proba, average=average), rel=1e-12
    )


def test_scorer_in_grid_search(binary, multiclass):
    """GridSearchCV picks the same C with prcurve's AP scorer as with scikit-learn's."""
    X, y = binary
    grid = {"C": [0.001, 0.01, 1.0]}
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    ours = GridSearchCV(LogisticRegression(), grid, scoring=make_scorer(), cv=cv).fit(X, y)
    ref = GridSearchCV(LogisticRegression(), grid, scoring="average_precision", cv=cv).fit(X, y)
    np.testing.assert_allclose(
        ours.cv_results_["mean_test_score"], ref.cv_results_["mean_test_score"], rtol=1e-12
    )
    assert ours.best_params_ == ref.best_params_
    dg = GridSearchCV(LogisticRegression(), grid, scoring=make_scorer("davis_goadrich"), cv=cv).fit(
        X, y
    )
    assert np.all(np.isfinite(dg.cv_results_["mean_test_score"]))
    Xm, ym = multiclass
    gm = GridSearchCV(LogisticRegression(), grid, scoring=make_scorer(average="macro"), cv=cv).fit(
        Xm, ym
    )
    assert np.all(
        (gm.cv_results_["mean_test_score"] > 0.3) & (gm.cv_results_["mean_test_score"] <= 1)
    )


def test_make_scorer_errors(multiclass):
    X, y = multiclass
    clf = LogisticRegression().fit(X, y)
    keep = y != 2  # a test split without class 2
    with pytest.raises(ValueError, match=r"y_true: expected 3 classes \(one per score column\)"):
        make_scorer(response_method="predict_proba")(clf, X[keep], y[keep])
    with pytest.raises(ValueError, match="y_true: class 2 has no positive instance"):
        make_scorer(labels=[0, 1, 2], response_method="predict_proba")(clf, X[keep], y[keep])
    with pytest.raises(ValueError, match="method: expected one of"):
        make_scorer("roc")
    with pytest.raises(ValueError, match="average: expected one of"):
        make_scorer(average="samples")


def test_to_frame_rows_are_the_operating_points(binary):
    pd = pytest.importorskip("pandas")
    X, y = binary
    s = LogisticRegression().fit(X, y).decision_function(X)
    c = pr_curve(y, s)
    df = c.to_frame()
    assert isinstance(df, pd.DataFrame)
    assert list(df.columns) == ["threshold", "tp", "fp", "precision", "recall"]
    np.testing.assert_array_equal(df["recall"].to_numpy(), c.recall)
    np.testing.assert_array_equal(df["threshold"].to_numpy(), c.thresholds)
    r = roc_curve(y, s).to_frame()
    assert list(r.columns) == ["threshold", "tp", "fp", "fpr", "tpr"]
    np.testing.assert_array_equal(r["tpr"].to_numpy(), roc_curve(y, s).tpr)
    g = prg_curve(y, s)
    gf = g.to_frame()
    assert list(gf.columns) == ["threshold", "tp", "fp", "precision_gain", "recall_gain"]
    np.testing.assert_array_equal(gf["recall_gain"].to_numpy(), g.recall_gain)


def test_importing_prcurve_imports_neither_sklearn_nor_pandas():
    code = (
        "import sys, prcurve, prcurve.plot; "
        "print(sorted(m for m in ('sklearn', 'pandas') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
