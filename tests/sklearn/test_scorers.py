"""prcurve.sklearn.make_operating_scorer: each scorer is operating_point's rule on the fold."""

from __future__ import annotations

import pickle
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, KFold, StratifiedKFold, cross_validate

from prcurve import operating_point
from prcurve.sklearn import InfeasibleTargetError, make_operating_scorer

SCORED = {"min_precision": "recall", "min_recall": "precision", "max_fpr": "recall"}
SCORED["top_k"] = "precision"


class ScoreColumn(ClassifierMixin, BaseEstimator):
    """A 'fitted' classifier whose decision function is the first column of X."""

    def fit(self, X, y):
        self.classes_ = np.unique(y)
        return self

    def decision_function(self, X):
        return np.asarray(X)[:, 0]


def _expected(y, s, w, criterion, target, prevalence=None):
    point = operating_point(y, s, **{criterion: target}, sample_weight=w, prevalence=prevalence)
    return getattr(point, SCORED[criterion]) if point.feasible else 0.0


@settings(
    max_examples=80, derandomize=True, deadline=None, database=None,
    suppress_health_check=[HealthCheck.too_slow],
)  # fmt: skip
@given(
    data=st.data(),
    n=st.integers(2, 40),
    levels=st.integers(1, 6),
    criterion=st.sampled_from(sorted(SCORED)),
    weighted=st.booleans(),
)
def test_scorer_equals_operating_point_with_ties_and_weights(data, n, levels, criterion, weighted):
    """Property: on random labels, heavily tied scores and weights (zero, tiny, huge)."""
    y = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    y[0], y[1] = True, False  # both classes
    s = np.array(data.draw(st.lists(st.integers(0, levels), min_size=n, max_size=n)), float)
    w = None
    if weighted:
        weight = st.sampled_from([0.0, 1e-90, 0.5, 1.0, 3.0, 1e90])
        scale = data.draw(st.sampled_from([1.0, 1e-200, 1e200]))  # zero, tiny and huge weights
        w = np.array(data.draw(st.lists(weight, min_size=n, max_size=n))) * scale
        w[0] = w[1] = scale  # both classes keep weight
    if criterion == "top_k":
        target = data.draw(st.floats(0.5, float(n)))
    elif criterion == "max_fpr":
        target = data.draw(st.sampled_from([0.0, 0.1, 1 / 3, 0.5, 0.9]))
    else:
        target = data.draw(st.sampled_from([0.1, 1 / 3, 0.5, 2 / 3, 0.9, 1.0]))
    prevalence = None
    if criterion == "min_precision" and data.draw(st.booleans()):
        prevalence = data.draw(st.sampled_from([0.01, 0.3, 0.5]))
    scorer = make_operating_scorer(**{criterion: target}, prevalence=prevalence)
    X = s[:, None]
    est = ScoreColumn().fit(X, y)
    got = scorer(est, X, y, sample_weight=w)
    want = _expected(y, s, w, criterion, target, prevalence)
    assert np.isfinite(got) and got == want
    assert 0.0 <= got <= 1.0


@pytest.fixture(scope="module")
def imbalanced():
    return make_classification(n_samples=600, weights=[0.85], flip_y=0.02, random_state=3)


@pytest.mark.parametrize(
    "criterion, target",
    [("min_precision", 0.8), ("min_recall", 0.6), ("max_fpr", 0.05), ("top_k", 20)],
)
def test_cross_validate_scores_are_operating_point_per_fold(imbalanced, criterion, target):
    X, y = imbalanced
    cv = StratifiedKFold(4, shuffle=True, random_state=0)
    res = cross_validate(
        LogisticRegression(), X, y, cv=cv, return_estimator=True, return_indices=True,
        scoring=make_operating_scorer(**{criterion: target}),
    )  # fmt: skip
    for score, est, test in zip(
        res["test_score"], res["estimator"], res["indices"]["test"], strict=True
    ):
        s = est.decision_function(X[test])
        assert score == _expected(y[test], s, None, criterion, target)
        # the same with predict_proba (the score only depends on the order)
        proba = est.predict_proba(X[test])[:, 1]
        assert score == pytest.approx(_expected(y[test], proba, None, criterion, target))
    assert (res["test_score"] > 0).all()


def test_grid_search_and_pickle(imbalanced):
    X, y = imbalanced
    scorer = make_operating_scorer(min_precision=0.8)
    grid = GridSearchCV(LogisticRegression(), {"C": [0.001, 1.0]}, scoring=scorer, cv=3)
    grid.fit(X, y)
    means = grid.cv_results_["mean_test_score"]
    assert grid.best_params_["C"] == [0.001, 1.0][int(np.argmax(means))]
    again = pickle.loads(pickle.dumps(scorer))
    assert again(grid.best_estimator_, X, y) == scorer(grid.best_estimator_, X, y)


def test_pos_label_selects_the_column_and_the_class():
    rng = np.random.default_rng(0)
    y = np.where(rng.random(300) < 0.3, "fraud", "ok")
    X = rng.normal(size=(300, 2)) + (y == "fraud")[:, None]
    clf = LogisticRegression().fit(X, y)  # classes_ ['fraud', 'ok']: fraud is column 0
    scorer = make_operating_scorer(min_recall=0.5, pos_label="fraud")
    s = clf.predict_proba(X)[:, 0]
    want = operating_point(y, s, min_recall=0.5, pos_label="fraud").precision
    assert scorer(clf, X, y) == pytest.approx(want)
    assert want > 0.5  # the positive class's own precision, not the complement's


def test_infeasible_score_is_explicit():
    y = np.array([0, 1, 0, 1, 0, 1])
    X = np.array([[0.9], [0.8], [0.7], [0.6], [0.5], [0.4]])  # best precision 1/2
    est = ScoreColumn().fit(X, y)
    assert make_operating_scorer(min_precision=0.9)(est, X, y) == 0.0
    assert make_operating_scorer(min_precision=0.9, infeasible=0.25)(est, X, y) == 0.25
    strict = make_operating_scorer(min_precision=0.9, infeasible="raise")
    with pytest.raises(InfeasibleTargetError, match=r"min_precision: no threshold reaches"):
        strict(est, X, y)
    with pytest.raises(InfeasibleTargetError, match=r"max_fpr: no threshold has false-pos"):
        make_operating_scorer(max_fpr=0.0, infeasible="raise")(est, X, y)


def test_infeasible_raise_follows_error_score():
    """With ``infeasible="raise"`` scikit-learn's error_score decides: NaN with a warning."""
    y = np.tile([0, 1], 50)
    X = -np.arange(100.0)[:, None]  # every fold's top score is a negative: precision <= 1/2
    strict = make_operating_scorer(min_precision=0.9, infeasible="raise")
    cv = KFold(2)
    with pytest.warns(UserWarning, match="Scoring failed"):
        res = cross_validate(ScoreColumn(), X, y, cv=cv, scoring=strict)
    assert np.isnan(res["test_score"]).all()
    with pytest.raises(InfeasibleTargetError, match="min_precision"):
        cross_validate(ScoreColumn(), X, y, cv=cv, scoring=strict, error_score="raise")
    lenient = cross_validate(ScoreColumn(), X, y, cv=cv, scoring=make_operating_scorer(
        min_precision=0.9))  # fmt: skip
    assert (lenient["test_score"] == 0.0).all()


def test_bad_options_are_named():
    with pytest.raises(ValueError, match=r"criterion: expected exactly one of .* got none"):
        make_operating_scorer()
    with pytest.raises(ValueError, match="got max_fpr, min_precision"):
        make_operating_scorer(min_precision=0.9, max_fpr=0.1)
    with pytest.raises(ValueError, match=r"min_precision: expected"):
        make_operating_scorer(min_precision=1.5)
    with pytest.raises(ValueError, match=r"infeasible: expected 'raise' or a number in \[0, 1\]"):
        make_operating_scorer(min_precision=0.9, infeasible=float("nan"))
    with pytest.raises(ValueError, match=r"infeasible: expected 'raise' .* got 'zero'"):
        make_operating_scorer(min_precision=0.9, infeasible="zero")
    with pytest.raises(TypeError, match=r"infeasible: expected 'raise' .* got NoneType"):
        make_operating_scorer(min_precision=0.9, infeasible=None)
    with pytest.raises(ValueError, match="prevalence: expected None with top_k"):
        make_operating_scorer(top_k=10, prevalence=0.1)
    with pytest.raises(ValueError, match="prevalence"):
        make_operating_scorer(min_precision=0.9, prevalence=1.5)


def test_missing_scikit_learn_names_the_extra():
    code = (
        "import sys; sys.modules['sklearn'] = None\n"
        "import prcurve\n"
        "try:\n"
        "    import prcurve.sklearn\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert 'pip install "prcurve[sklearn]"' in out.stdout
    assert out.stdout.startswith("prcurve.sklearn: expected scikit-learn")


def test_import_prcurve_does_not_import_scikit_learn():
    code = "import sys, prcurve; assert 'sklearn' not in sys.modules; print('ok')"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "ok"
