"""Operating points against brute force over every threshold."""

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve import OperatingPoint, operating_point, pr_curve
from prcurve._core._operating import check_criterion, choose_rows


def brute_points(y, s, w=None):
    """(threshold, tp, fp) of every distinct score, by direct counting."""
    w = np.ones(len(y)) if w is None else np.asarray(w, dtype=float)
    y = np.asarray(y, dtype=bool)
    out = []
    for t in np.unique(s):
        flag = s >= t
        out.append((t, float(w[flag & y].sum()), float(w[flag & ~y].sum())))
    return out, float(w[y].sum()), float(w[~y].sum())


def brute_choice(y, s, w, criterion, target):
    """The documented rule, written as a max over feasible points with explicit tie keys."""
    points, n_pos, n_neg = brute_points(y, s, w)
    cands = []
    for t, tp, fp in points:
        prec = tp / (tp + fp)
        if criterion == "min_precision" and prec >= target:
            cands.append(((tp, prec, t), t))
        elif criterion == "min_recall" and tp / n_pos >= target:
            cands.append(((prec, tp, t), t))
        elif criterion == "max_fpr" and fp / n_neg <= target:
            cands.append(((tp, t), t))
        elif criterion == "top_k" and tp + fp <= target:
            cands.append(((tp + fp, t), t))
    if not cands:
        return None
    return max(cands)[1]


problems = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(st.booleans(), min_size=n, max_size=n).filter(lambda v: 0 < sum(v) < len(v)),
        st.lists(st.integers(0, 6), min_size=n, max_size=n),
        st.lists(st.integers(1, 4), min_size=n, max_size=n),
    )
)


@settings(max_examples=150, deadline=None)
@given(problems, st.sampled_from(["min_precision", "min_recall", "max_fpr", "top_k"]), st.data())
def test_operating_point_matches_brute_force(problem, criterion, data):
    y, s, w = (np.array(v) for v in problem)
    weights = data.draw(st.sampled_from([None, w]))
    points, n_pos, n_neg = brute_points(y, s, weights)
    # targets on the achieved values hit the boundaries of the rules exactly
    achieved = {
        "min_precision": [tp / (tp + fp) for _, tp, fp in points if tp > 0] + [1.0],
        "min_recall": [tp / n_pos for _, tp, _ in points if tp > 0],
        "max_fpr": [fp / n_neg for _, _, fp in points if fp < n_neg] + [0.0],
        "top_k": [tp + fp for _, tp, fp in points] + [0.5],
    }[criterion]
    target = data.draw(st.sampled_from(achieved))
    op = operating_point(y, s, sample_weight=weights, **{criterion: target})
    expected = brute_choice(y, s, weights, criterion, target)
    if expected is None:
        assert not op.feasible and op.threshold is None and op.precision is None
        assert op.reason
        return
    assert op.feasible and op.reason == ""
    assert op.threshold == expected
    flag = s >= expected
    ww = np.ones(len(y)) if weights is None else weights
    tp, fp = ww[flag & y].sum(), ww[flag & ~y].sum()
    assert (op.tp, op.fp) == pytest.approx((tp, fp))
    assert (op.fn, op.tn) == pytest.approx((n_pos - tp, n_neg - fp))
    assert op.precision == pytest.approx(tp / (tp + fp))
    assert op.recall == pytest.approx(tp / n_pos) and op.fpr == pytest.approx(fp / n_neg)


@settings(max_examples=100, deadline=None)
@given(problems, st.floats(0.01, 1.0), st.floats(0.0, 1.0))
def test_curve_methods_match_brute_force(problem, p, r):
    y, s, _ = (np.array(v) for v in problem)
    curve = pr_curve(y, s)
    points, n_pos, _ = brute_points(y, s)
    rec = [tp / n_pos for _, tp, fp in points if tp / (tp + fp) >= p]
    assert curve.recall_at_precision(p) == pytest.approx(max(rec, default=0.0))
    prec = [tp / (tp + fp) for _, tp, fp in points if tp / n_pos >= r]
    assert curve.precision_at_recall(r) == pytest.approx(max(prec))
    # vectorised over targets, shape kept
    grid = np.array([[p, 1.0], [0.5, 0.25]])
    np.testing.assert_allclose(
        curve.recall_at_precision(grid),
        [[curve.recall_at_precision(v) for v in row] for row in grid],
    )
    np.testing.assert_allclose(
        curve.precision_at_recall(grid),
        [[curve.precision_at_recall(v) for v in row] for row in grid],
    )


def test_curve_methods_agree_with_operating_point():
    rng = np.random.default_rng(3)
    y = rng.random(500) < 0.3
    s = np.round(rng.normal(size=500) + y, 1)
    curve = pr_curve(y, s)
    for p in (0.5, 0.7, 0.9):
        op = operating_point(y, s, min_precision=p)
        assert op.recall == curve.recall_at_precision(p)
    for r in (0.1, 0.5, 0.9, 1.0):
        op = operating_point(y, s, min_recall=r)
        assert op.precision == curve.precision_at_recall(r)
    # distinct from the functional estimator, which reads the curve at exactly recall r
    assert curve.precision_at_recall(0.5) != curve.precision_at(0.5)


def test_documented_small_example():
    # scores 0.9 .. 0.4: labels 1 0 1 1 0 0
    y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    op = operating_point(y, s, min_precision=0.75)
    assert (op.threshold, op.tp, op.fp, op.fn, op.tn) == (0.6, 3, 1, 0, 2)
    assert op.precision == 0.75 and op.recall == 1.0 and op.fpr == pytest.approx(1 / 3)
    assert operating_point(y, s, min_recall=0.5).threshold == 0.6  # 3/4 beats 2/3
    assert operating_point(y, s, max_fpr=0.0).threshold == 0.9
    assert operating_point(y, s, top_k=3).threshold == 0.7
    assert operating_point(y, s, top_k=3.5).threshold == 0.7


def test_top_k_never_splits_ties():
    y = [1, 1, 0, 0, 1, 0]
    s = [5, 4, 4, 4, 3, 1]
    assert operating_point(y, s, top_k=3).threshold == 5  # the tie at 4 would make 4
    assert operating_point(y, s, top_k=4).threshold == 4
    miss = operating_point([1, 0, 0], [2, 2, 1], top_k=1)
    assert not miss.feasible and "top-scoring tie group holds 2" in miss.reason


def test_infeasible_targets_are_results_not_errors():
    y, s = [0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6]
    op = operating_point(y, s, min_precision=0.9)
    assert isinstance(op, OperatingPoint) and not op.feasible
    assert op.tp is None and op.recall is None and op.fpr is None
    assert "highest precision is 0.5" in op.reason
    op = operating_point(y, s, max_fpr=0.1)
    assert not op.feasible and "rate 0.5" in op.reason
    # min_recall is always feasible
    assert operating_point(y, s, min_recall=1.0).feasible


def test_choose_rows_skips_empty_columns_and_repeats():
    # a replicate in which the top threshold got no instance, and a repeated point
    tp = np.array([[0, 2, 2, 3]])
    fp = np.array([[0, 0, 0, 4]])
    idx, ok = choose_rows(tp, fp, np.array([3.0]), np.array([4.0]), "min_precision", 1.0)
    assert ok[0] and idx[0] == 1  # the first of the repeated points (its own threshold)
    idx, ok = choose_rows(tp, fp, np.array([3.0]), np.array([4.0]), "top_k", 2.0)
    assert ok[0] and idx[0] == 1
    idx, ok = choose_rows(tp, fp, np.array([3.0]), np.array([4.0]), "top_k", 1.0)
    assert not ok[0]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({}, ValueError, "criterion: expected exactly one of .* got none"),
        (
            {"min_precision": 0.5, "top_k": 3},
            ValueError,
            "criterion: expected exactly one of .* got min_precision, top_k",
        ),
        ({"min_precision": 0.0}, ValueError, r"min_precision: expected a number in \(0, 1\]"),
        ({"min_recall": 1.5}, ValueError, r"min_recall: expected a number in \(0, 1\]"),
        ({"max_fpr": 1.0}, ValueError, r"max_fpr: expected a number in \[0, 1\)"),
        ({"top_k": 0}, ValueError, "top_k: expected a positive finite number, got 0"),
        ({"top_k": "5"}, TypeError, "top_k: expected a positive number, got str"),
        ({"min_precision": "a"}, TypeError, "min_precision: expected a number, got str"),
        ({"top_k": 3, "prevalence": 0.1}, ValueError, "prevalence: expected None with top_k"),
        ({"min_recall": 0.5, "prevalence": 1.0}, ValueError, r"prevalence: expected a number"),
        ({"min_recall": 0.5, "interval": "normal"}, ValueError, "interval: expected one of"),
    ],
)
def test_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        operating_point([0, 1, 1], [0.1, 0.5, 0.7], **kwargs)


def test_check_criterion_returns_name_and_target():
    assert check_criterion(None, None, 7, None) == ("top_k", 7.0)
    assert check_criterion(None, None, None, 0) == ("max_fpr", 0.0)


def test_integer_scores_keep_their_type():
    op = operating_point([0, 1, 1, 0], np.array([2**60, 2**60 + 3, 2**60 + 1, 5]), min_recall=1.0)
    assert op.threshold == 2**60 + 1 and isinstance(op.threshold, int)


@settings(max_examples=80, deadline=None)
@given(
    problems,
    st.sampled_from([5e-324, 1e-300, 1e-3, 1.0, 1e150, 1e300]),
    st.sampled_from(["min_precision", "min_recall", "max_fpr", "top_k"]),
    st.floats(0.01, 1.0),
    st.booleans(),
)
def test_extreme_weights_never_give_nan(problem, scale, criterion, target, zeros):
    y, s, w = (np.array(v) for v in problem)
    weights = w * scale
    if zeros:
        weights[::3] = 0.0  # zero weights drop samples
    wy = weights[y.astype(bool)]
    wn = weights[~y.astype(bool)]
    if wy.sum() == 0 or wn.sum() == 0:
        return  # one class left: an input error (tested elsewhere)
    if criterion == "max_fpr":
        target = min(target, 0.99)  # max_fpr is in [0, 1)
    if criterion == "top_k":
        target = target * weights.sum()
        if not np.isfinite(target) or target <= 0:
            return
    try:
        op = operating_point(y, s, sample_weight=weights, **{criterion: target})
    except ValueError as exc:  # only clear, named errors
        assert re.match(r"^(sample_weight|top_k|y_true):", str(exc)), exc
        return
    if op.feasible:
        values = [op.precision, op.recall, op.fpr, op.tp, op.fp, op.fn, op.tn]
        assert all(np.isfinite(v) for v in values)
        assert 0 <= op.precision <= 1 and 0 <= op.recall <= 1 and 0 <= op.fpr <= 1
    else:
        assert op.reason and "nan" not in op.reason
    curve = pr_curve(y, s, sample_weight=weights)
    r = curve.recall_at_precision([0.2, 0.7, 1.0])
    p = curve.precision_at_recall([0.0, 0.5, 1.0])
    assert np.all(np.isfinite(r)) and np.all(np.isfinite(p))
    for method in ("average_precision", "davis_goadrich", "trapezoid", "lower_trapezoid"):
        part = curve.auc(method, recall_range=(0.1, 0.6), normalize=True)
        assert np.isfinite(part) and -1e-12 <= part <= 1 + 1e-12


def test_predict_applies_the_threshold():
    rng = np.random.default_rng(0)
    y = rng.random(300) < 0.3
    s = np.round(rng.normal(size=300) + y, 1)
    op = operating_point(y, s, min_precision=0.6)
    new = rng.normal(size=50)
    np.testing.assert_array_equal(op.predict(new), new >= op.threshold)
    # on the data it was chosen on, the prediction reproduces the counts
    pred = op.predict(s)
    assert (pred & y).sum() == op.tp and (pred & ~y).sum() == op.fp


@pytest.mark.parametrize(
    ("scores", "error", "match"),
    [
        ([0.1, np.nan], ValueError, "y_score: expected finite numbers, got NaN"),
        ([["a"]], TypeError, "y_score: expected numbers"),
        (0.5, ValueError, "y_score: expected a 1-D array, got a scalar"),
    ],
)
def test_predict_bad_scores(scores, error, match):
    op = operating_point([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.7], min_recall=1.0)
    with pytest.raises(error, match=match):
        op.predict(scores)


def test_predict_without_a_threshold_is_an_error():
    miss = operating_point([0, 1, 0, 1], [4, 3, 2, 1], min_precision=0.9)
    with pytest.raises(ValueError, match="min_precision: expected a feasible operating point"):
        miss.predict([1.0, 2.0])


def brute_choice_at(y, s, w, criterion, target, pi):
    """The rule at deployment prevalence π, every rate an exact rational rounded once:
    precision at π = TP·π·n₋ / (TP·π·n₋ + FP·n₊·(1 − π)) (negatives reweighted to the share
    1 − π), FPR = FP/n₋ and recall = TP/n₊ (which π does not change)."""
    points, n_pos, n_neg = brute_points(y, s, w)
    q = Fraction(pi)
    cands = []
    for t, tp, fp in points:
        a = Fraction(tp) * q * Fraction(n_neg)
        exact = a / (a + Fraction(fp) * Fraction(n_pos) * (1 - q))
        if criterion == "min_precision" and float(exact) >= target:
            cands.append(((tp, t), t, float(exact)))
        elif criterion == "min_recall" and float(Fraction(tp) / Fraction(n_pos)) >= target:
            cands.append(((exact, tp, t), t, float(exact)))
        elif criterion == "max_fpr" and float(Fraction(fp) / Fraction(n_neg)) <= target:
            cands.append(((tp, t), t, float(exact)))
    return max(cands)[1:] if cands else (None, None)


@settings(max_examples=300, deadline=None)
@given(
    problems,
    st.sampled_from(["min_precision", "min_recall", "max_fpr"]),
    st.one_of(st.sampled_from([0.1, 0.3, 1 / 3, 0.5, 0.7, 0.9]), st.floats(0.01, 0.99)),
    st.data(),
)
def test_operating_point_at_prevalence_is_decided_on_the_counts(problem, criterion, pi, data):
    """Issue 23: at a deployment prevalence, FPR and recall targets choose the point they
    choose on the data (π does not enter them), and precision ties with the target (targets
    are drawn from the precisions the points reach at π) are decided exactly, not by the
    rounding of reweighted false positives."""
    y, s, w = (np.array(v) for v in problem)
    weights = data.draw(st.sampled_from([None, w]))
    points, n_pos, n_neg = brute_points(y, s, weights)
    q = Fraction(pi)
    achieved = {
        "min_precision": [
            float(Fraction(tp) * q * Fraction(n_neg) / (
                Fraction(tp) * q * Fraction(n_neg) + Fraction(fp) * Fraction(n_pos) * (1 - q)
            ))
            for _, tp, fp in points if tp > 0
        ],
        "min_recall": [tp / n_pos for _, tp, _ in points if tp > 0],
        "max_fpr": [fp / n_neg for _, _, fp in points if fp < n_neg] + [0.0],
    }[criterion]  # fmt: skip
    target = data.draw(st.sampled_from(achieved))
    op = operating_point(y, s, sample_weight=weights, prevalence=pi, **{criterion: target})
    threshold, precision = brute_choice_at(y, s, weights, criterion, target, pi)
    assert op.threshold == threshold and op.feasible == (threshold is not None)
    if threshold is None:
        return
    assert op.precision == precision  # the value the rule compared, rounded once
    if criterion != "min_precision":
        here = operating_point(y, s, sample_weight=weights, **{criterion: target})
        assert (op.threshold, op.recall, op.fpr) == (here.threshold, here.recall, here.fpr)


@pytest.mark.parametrize("pi", [0.1, 0.2, 0.05, 0.123, 0.5])
def test_max_fpr_does_not_depend_on_prevalence(pi):
    """Issue 23: FP·factor/(n₋·factor) rounded above 0.3 at π = 0.1 (threshold 11, recall 0)."""
    y, s = [0, 0, 0, 1] + [0] * 7, np.arange(11, 0, -1.0)
    op = operating_point(y, s, max_fpr=0.3, prevalence=pi)
    assert (op.threshold, op.recall, op.fpr) == (8.0, 1.0, 0.3)  # FP = 3 of n₋ = 10
    assert op.precision == pytest.approx(pi / (pi + 3 / 10 * (1 - pi)), rel=1e-15)


@pytest.mark.parametrize("pi", [0.1, 0.11, 0.3, 1 / 3, 0.7, 0.9, 0.999])
@pytest.mark.parametrize("weighted", [False, True])
def test_a_single_tie_group_has_precision_pi_at_pi(pi, weighted):
    """Issue 23: one tie group (every score equal) has precision exactly π at prevalence π, so
    min_precision=π is met -- also in every bootstrap replicate (each reweighted to π with its
    own class counts), on the coarse-to-fine path (unweighted) and the ordinary one (weighted).
    Before, rounding said infeasible at π = 0.9, 0.11, 1/3."""
    y = np.array([0, 1, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0])
    s = np.ones(y.shape[0])
    w = np.linspace(1.0, 2.0, y.shape[0]) if weighted else None
    op = operating_point(y, s, sample_weight=w, min_precision=pi, prevalence=pi)
    assert op.feasible and op.threshold == 1.0 and op.precision == pi and op.recall == 1.0
    boot = operating_point(
        y, s, sample_weight=w, min_precision=pi, prevalence=pi, interval="bootstrap",
        n_resamples=200, rng=0,
    )  # fmt: skip
    assert boot.feasible_fraction == 1.0
    assert boot.precision_interval.low == pytest.approx(pi, rel=1e-12)
    assert boot.precision_interval.high == pytest.approx(pi, rel=1e-12)


@settings(max_examples=200, deadline=None)
@given(
    labels=st.lists(st.booleans(), min_size=2, max_size=200),
    levels=st.integers(1, 30),
    seed=st.integers(0, 2**32 - 1),
    block=st.integers(1, 9),
    criterion=st.sampled_from(["min_precision", "min_recall", "max_fpr", "top_k"]),
    target=st.floats(0.01, 1.0),
    prevalence=st.sampled_from([None, 0.01, 0.5]),
)
def test_choice_in_blocks_equals_the_choice_on_all_columns(
    labels, levels, seed, block, criterion, target, prevalence
):
    # choose_on_counts keeps each block's choice and chooses among them: the same column
    from prcurve import binary_counts
    from prcurve._core._operating import choose_on_counts

    y = np.array(labels)
    if y.all() or not y.any():
        y[0] = not y[0]
    c = binary_counts(y, np.random.default_rng(seed).integers(0, levels, size=y.shape[0]))
    if criterion == "top_k":
        target = float(max(1, round(target * y.shape[0])))
    elif criterion == "max_fpr":
        target = min(target, 0.99)
    options = dict.fromkeys(("min_precision", "min_recall", "top_k", "max_fpr"))
    criterion, target = check_criterion(**{**options, criterion: target})
    totals = np.array([c.n_pos]), np.array([c.n_neg])
    idx, ok = choose_rows(
        c.tp[None, :], c.fp[None, :], *totals, criterion, target, prevalence=prevalence
    )
    got = choose_on_counts(
        c.tp, c.fp, c.n_pos, c.n_neg, criterion, target, prevalence=prevalence, block=block
    )
    assert got[1] == bool(ok[0])
    if got[1]:
        assert got[0] == int(idx[0])
