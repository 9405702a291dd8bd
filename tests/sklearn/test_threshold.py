"""prcurve.sklearn.ConstrainedThresholdClassifierCV: the operating-point rule on out-of-fold
scores, scikit-learn's estimator checks, pipelines, grid search, and TunedThresholdClassifierCV."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import make_scorer, precision_score, recall_score
from sklearn.model_selection import (
    GridSearchCV,
    StratifiedKFold,
    cross_val_predict,
)
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.estimator_checks import parametrize_with_checks

from prcurve import ConfidenceInterval, OperatingPoint, TargetNotMetWarning, operating_point
from prcurve.sklearn import (
    ConstrainedThresholdClassifierCV,
    FoldResults,
    InfeasibleTargetError,
    make_operating_scorer,
)

# scikit-learn's own checks, on the criterion that is feasible on any data (min_recall: the
# lowest threshold has recall 1), so a check's random data never makes fit refuse the target.
CHECKED = ConstrainedThresholdClassifierCV(
    LogisticRegression(), min_recall=0.5, cv=3, n_resamples=50, rng=0
)
#: The one exemption, scikit-learn's own for TunedThresholdClassifierCV and
#: FixedThresholdClassifier: check_classifiers_train asserts that predict agrees with
#: argmax(predict_proba) and with decision_function > 0, i.e. a threshold of 0.5 (or 0); moving
#: that threshold is this estimator's purpose.
EXEMPT = {"check_classifiers_train": "the threshold is tuned, not 0.5: predict != argmax(proba)"}


# scikit-learn >= 1.6 marks the exemption itself; older releases (the declared minimum is 1.4)
# have no ``expected_failed_checks``: there the test asserts the failure and reports an xfail.
try:
    _CHECKS = parametrize_with_checks([CHECKED], expected_failed_checks=lambda e: EXEMPT)
    _NATIVE_EXEMPTION = True
except TypeError:
    _CHECKS = parametrize_with_checks([CHECKED])
    _NATIVE_EXEMPTION = False


@_CHECKS
def test_scikit_learn_estimator_checks(estimator, check):
    name = getattr(check, "func", check).__name__
    if not _NATIVE_EXEMPTION and name in EXEMPT:
        with pytest.raises(AssertionError):
            check(estimator)
        pytest.xfail(EXEMPT[name])
    check(estimator)


@pytest.fixture(scope="module")
def data():
    return make_classification(
        n_samples=1500, n_features=8, weights=[0.9], flip_y=0.01, random_state=7
    )


def _brute_force_threshold(y, s, min_precision):
    """Highest recall with precision >= p, ties to the highest threshold: a loop over scores."""
    best = None
    for t in sorted(set(s.tolist()), reverse=True):
        pred = s >= t
        tp, fp = int(np.sum(pred & y)), int(np.sum(pred & ~y))
        if tp / (tp + fp) >= min_precision and (best is None or tp > best[1]):
            best = (t, tp)
    return None if best is None else best[0]


def test_threshold_is_the_rule_on_out_of_fold_scores(data):
    X, y = data
    cv = StratifiedKFold(5, shuffle=True, random_state=1)
    clf = ConstrainedThresholdClassifierCV(
        LogisticRegression(), min_precision=0.85, cv=cv, n_resamples=200, rng=0
    ).fit(X, y)
    oof = cross_val_predict(LogisticRegression(), X, y, cv=cv, method="predict_proba")[:, 1]
    assert clf.threshold_ == _brute_force_threshold(y == 1, oof, 0.85)
    point = operating_point(y, oof, min_precision=0.85)
    assert clf.operating_point_.recall == point.recall and point.precision >= 0.85
    assert isinstance(clf.operating_point_, OperatingPoint)
    assert isinstance(clf.threshold_interval_, ConfidenceInterval)
    assert clf.threshold_interval_.low <= clf.threshold_ <= clf.threshold_interval_.high
    # predictions: the refitted model's probability thresholded at threshold_
    refit = LogisticRegression().fit(X, y)
    want = (refit.predict_proba(X)[:, 1] >= clf.threshold_).astype(int)
    np.testing.assert_array_equal(clf.predict(X), want)
    np.testing.assert_array_equal(clf.predict_proba(X), refit.predict_proba(X))


def test_fold_results_match_a_brute_force_leave_one_fold_out(data):
    X, y = data
    cv = StratifiedKFold(4, shuffle=True, random_state=2)
    clf = ConstrainedThresholdClassifierCV(
        LogisticRegression(), min_precision=0.85, cv=cv, n_resamples=50, rng=0
    ).fit(X, y)
    folds = [test for _, test in cv.split(X, y)]
    oof = cross_val_predict(LogisticRegression(), X, y, cv=cv, method="predict_proba")[:, 1]
    res = clf.fold_results_
    assert isinstance(res, FoldResults) and res.threshold.shape == (4,)
    for i, test in enumerate(folds):
        rest = np.setdiff1d(np.arange(y.shape[0]), test)
        t = _brute_force_threshold(y[rest] == 1, oof[rest], 0.85)
        assert res.threshold[i] == t
        pred = (oof[test] >= t).astype(int)
        prec = precision_score(y[test], pred, zero_division=np.nan)
        assert res.precision[i] == pytest.approx(prec, rel=1e-15)
        assert res.recall[i] == pytest.approx(recall_score(y[test], pred), rel=1e-15)
        assert res.flagged[i] == pred.sum()
        assert res.met[i] == (prec >= 0.85)
    assert res.met_fraction == np.mean(res.met)
    assert len(res.table().splitlines()) == 5


@pytest.mark.parametrize("options", [dict(min_recall=0.7), dict(max_fpr=0.02), dict(top_k=60)])
def test_other_criteria_use_the_same_rule(data, options):
    X, y = data
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    clf = ConstrainedThresholdClassifierCV(
        LogisticRegression(), cv=cv, n_resamples=50, rng=0, **options
    ).fit(X, y)
    oof = cross_val_predict(LogisticRegression(), X, y, cv=cv, method="predict_proba")[:, 1]
    assert clf.threshold_ == operating_point(y, oof, **options).threshold
    held = clf.fold_results_
    if "top_k" in options:  # each fold flags at most its share of the budget
        sizes = held.n_pos + held.n_neg
        np.testing.assert_array_equal(held.met, held.flagged <= 60 * sizes / sizes.sum())


def test_deployment_prevalence_raises_the_threshold(data):
    """At a lower deployment prevalence, precision >= p needs a higher threshold."""
    X, y = data
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    options = dict(cv=cv, min_precision=0.5, n_resamples=50, rng=0)
    own = ConstrainedThresholdClassifierCV(LogisticRegression(), **options).fit(X, y)
    rare = ConstrainedThresholdClassifierCV(LogisticRegression(), prevalence=0.02, **options).fit(
        X, y
    )
    oof = cross_val_predict(LogisticRegression(), X, y, cv=cv, method="predict_proba")[:, 1]
    assert rare.threshold_ == operating_point(y, oof, min_precision=0.5, prevalence=0.02).threshold
    assert rare.threshold_ > own.threshold_
    assert rare.fold_results_.prevalence == 0.02


@pytest.mark.reference  # TunedThresholdClassifierCV is scikit-learn >= 1.5 (our minimum: 1.4)
def test_same_threshold_as_tuned_threshold_classifier_when_the_objective_coincides(data):
    """One validation split, thresholds = its distinct scores, and TunedThresholdClassifierCV
    maximising "recall if precision >= p" (ties: fewest flagged, i.e. the highest threshold)."""
    from sklearn.model_selection import TunedThresholdClassifierCV

    X, y = data
    train, val = next(StratifiedKFold(3, shuffle=True, random_state=3).split(X, y))
    split = [(train, val)]
    val_scores = LogisticRegression().fit(X[train], y[train]).predict_proba(X[val])[:, 1]

    def recall_at_precision(y_true, y_pred, *, p):
        tp = np.sum((y_pred == 1) & (y_true == 1))
        flagged = np.sum(y_pred == 1)
        if flagged == 0 or tp / flagged < p:
            return -1.0
        return tp / np.sum(y_true == 1) - 1e-9 * flagged

    for p in (0.7, 0.85, 0.95):
        tuned = TunedThresholdClassifierCV(
            LogisticRegression(), scoring=make_scorer(recall_at_precision, p=p), cv=split,
            thresholds=np.unique(val_scores),
        ).fit(X, y)  # fmt: skip
        ours = ConstrainedThresholdClassifierCV(
            LogisticRegression(), min_precision=p, cv=split, n_resamples=50, rng=0
        ).fit(X, y)
        assert ours.threshold_ == tuned.best_threshold_
        np.testing.assert_array_equal(ours.predict(X), tuned.predict(X))
        assert not ours.fold_results_.feasible.any()  # one split: no other folds


def test_in_a_pipeline_under_grid_search_clone_and_pickle(data):
    X, y = data
    tuned = ConstrainedThresholdClassifierCV(
        make_pipeline(StandardScaler(), LogisticRegression()), min_precision=0.85, cv=3,
        n_resamples=50, rng=0,
    )  # fmt: skip
    grid = GridSearchCV(
        tuned, {"estimator__logisticregression__C": [0.01, 1.0]}, cv=3,
        scoring=make_operating_scorer(min_precision=0.85),
    ).fit(X, y)  # fmt: skip
    best = grid.best_estimator_
    assert isinstance(best.estimator_, Pipeline) and best.operating_point_.precision >= 0.85
    # and as the last step of a pipeline
    pipe = Pipeline([("scale", StandardScaler()), ("tuned", clone(tuned))]).fit(X, y)
    again = pickle.loads(pickle.dumps(pipe))
    np.testing.assert_array_equal(again.predict(X), pipe.predict(X))
    assert again[-1].threshold_ == pipe[-1].threshold_
    assert clone(tuned).get_params()["min_precision"] == 0.85


def test_decision_function_and_string_classes():
    rng = np.random.default_rng(0)
    y = np.where(rng.random(600) < 0.2, "spam", "ham")
    X = rng.normal(size=(600, 3)) + 1.5 * (y == "spam")[:, None]
    clf = ConstrainedThresholdClassifierCV(
        LinearSVC(dual=False), min_precision=0.8, pos_label="spam", n_resamples=50, rng=0
    ).fit(X, y)
    assert set(clf.predict(X)) <= {"spam", "ham"}
    flagged = clf.predict(X) == "spam"
    # decision_function is the score of classes_[1] = "spam"
    np.testing.assert_array_equal(flagged, clf.decision_function(X) >= clf.threshold_)
    assert not hasattr(clf, "predict_proba")  # LinearSVC has none
    ham = ConstrainedThresholdClassifierCV(
        LinearSVC(dual=False), min_recall=0.9, pos_label="ham", n_resamples=50, rng=0
    ).fit(X, y)
    np.testing.assert_array_equal(
        ham.predict(X) == "ham", -ham.decision_function(X) >= ham.threshold_
    )


def test_errors_name_the_parameter(data):
    X, y = data
    with pytest.raises(ValueError, match="criterion: expected exactly one of"):
        ConstrainedThresholdClassifierCV(LogisticRegression()).fit(X, y)
    with pytest.raises(ValueError, match="prevalence: expected None with top_k"):
        ConstrainedThresholdClassifierCV(LogisticRegression(), top_k=5, prevalence=0.1).fit(X, y)
    with pytest.raises(ValueError, match="response_method: expected one of"):
        ConstrainedThresholdClassifierCV(
            LogisticRegression(), min_recall=0.5, response_method="predict"
        ).fit(X, y)
    with pytest.raises(ValueError, match=r"pos_label: expected one of the classes \[0, 1\]"):
        ConstrainedThresholdClassifierCV(LogisticRegression(), min_recall=0.5, pos_label=2).fit(
            X, y
        )
    with pytest.raises(ValueError, match=r"y: expected binary labels \(2 classes\), got 3"):
        ConstrainedThresholdClassifierCV(LogisticRegression(), min_recall=0.5).fit(
            X, np.arange(y.shape[0]) % 3
        )
    noise = np.random.default_rng(0).normal(size=X.shape)
    with pytest.raises(InfeasibleTargetError, match=r"min_precision: on the out-of-fold scores, "
                       r"no threshold reaches precision >= 1"):  # fmt: skip
        ConstrainedThresholdClassifierCV(
            LogisticRegression(), min_precision=1.0, n_resamples=50
        ).fit(noise, y)
    bad_cv = [(np.arange(100, 1500), np.arange(100))]  # a test fold of the majority class only
    with pytest.raises(ValueError, match=r"cv: expected every test fold to hold both classes"):
        ConstrainedThresholdClassifierCV(LogisticRegression(), min_recall=0.5, cv=bad_cv).fit(
            X, np.sort(y)
        )


def test_replicates_missing_the_target_warn_at_the_callers_fit():
    """The bootstrap's TargetNotMetWarning points at the user's ``fit``, not into prcurve."""
    from .test_scorers import ScoreColumn

    rng = np.random.default_rng(0)
    X = -np.arange(300.0)[:, None]  # ScoreColumn scores with X[:, 0]: row 0 first
    y = rng.random(300) < 0.3
    y[:2], y[2] = True, False  # precision 1 only at the top two rows: about 1 replicate in 8
    clf = ConstrainedThresholdClassifierCV(ScoreColumn(), min_precision=1.0, n_resamples=200, rng=0)
    with pytest.warns(TargetNotMetWarning, match=r"of the bootstrap replicates have no") as rec:
        clf.fit(X, y)  # (misses both, (1 - 1/300)**600 ~ 0.13)
    assert rec[0].filename == __file__
    assert 0.8 < clf.operating_point_.feasible_fraction < 0.95 and clf.threshold_ == -1.0


EXTREME = [-1.79e308, -(2.0**53), -1.0, 0.0, 5e-324, 1.0, 2.0**53, 1.79e308]


@settings(max_examples=40, derandomize=True, deadline=None, database=None)
@given(
    data=st.data(),
    n=st.integers(4, 30),
    criterion=st.sampled_from(["min_precision", "min_recall", "max_fpr", "top_k"]),
)
def test_fuzz_ties_and_extreme_scores(data, n, criterion):
    """Scores = X[:, 0] (ScoreColumn learns nothing), so the out-of-fold scores are X itself:
    the threshold is operating_point's on them, or fit refuses the target; no NaN leaks."""
    from .test_scorers import ScoreColumn

    y = np.array(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    y[:2], y[2:4] = True, False  # two of each class: a 2-fold stratified split works
    s = np.array(data.draw(st.lists(st.sampled_from(EXTREME), min_size=n, max_size=n)))
    target = {"top_k": data.draw(st.floats(1, n)), "max_fpr": 0.25}.get(criterion, 0.5)
    kwargs = {criterion: target}
    point = operating_point(y, s, **kwargs)
    clf = ConstrainedThresholdClassifierCV(ScoreColumn(), cv=2, n_resamples=20, rng=0, **kwargs)
    if not point.feasible:
        with pytest.raises(InfeasibleTargetError, match=criterion):
            clf.fit(s[:, None], y)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TargetNotMetWarning)
        clf.fit(s[:, None], y)
    assert clf.threshold_ == point.threshold
    res = clf.fold_results_
    ok = res.feasible
    assert np.isfinite(res.recall[ok]).all() and np.isfinite(res.fpr[ok]).all()
    np.testing.assert_array_equal(np.isnan(res.precision), ~ok | (res.flagged == 0))
    np.testing.assert_array_equal(clf.predict(s[:, None]), s >= point.threshold)
