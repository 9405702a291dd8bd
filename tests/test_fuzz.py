"""Property-based fuzz of every public function of prcurve that takes data (issue 16).

Inputs are drawn to break numerical code: heavy ties, int64 extremes, float extremes
(±1.79e308, subnormals such as 5e-324), huge / tiny / zero weights and one-element classes.
The properties are finiteness, ranges, and agreement between functions that answer the same
question (a curve's own thresholds evaluate back to its points, zero-weight rows are absent rows,
weights scaled by 2**k change nothing, duplicating a row is weight 2, ...).

The tests run under the registered hypothesis profile ``prcurve-fuzz``: a fixed number of
examples, derandomized, so CI time is bounded and runs are reproducible.  To search harder, set
``PRCURVE_FUZZ_EXAMPLES`` (examples per test), e.g.
``PRCURVE_FUZZ_EXAMPLES=5000 python -m pytest -q tests/test_fuzz.py``.
"""

from __future__ import annotations

import os
import re
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import prcurve

settings.register_profile(
    "prcurve-fuzz",
    max_examples=int(os.environ.get("PRCURVE_FUZZ_EXAMPLES", "40")),
    derandomize=True,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
FUZZ = settings.get_profile("prcurve-fuzz")
#: Fewer examples for the properties that run a (tiny) bootstrap or a likelihood fit.
SLOW_FUZZ = settings(FUZZ, max_examples=max(5, FUZZ.max_examples // 4))

AUC_METHODS = (
    "average_precision",
    "davis_goadrich",
    "trapezoid",
    "lower_trapezoid",
    "interpolated_median",
)
I64 = np.iinfo(np.int64)
FMAX = float(np.finfo(np.float64).max)
INT64_EXTREMES = [
    int(I64.min),
    int(I64.min) + 1,
    -(2**53) - 1,
    -(2**53),
    -1,
    0,
    1,
    2**53,
    2**53 + 1,
    int(I64.max) - 2,
    int(I64.max) - 1,
    int(I64.max),
]
FLOAT_EXTREMES = [
    -FMAX,
    -1e300,
    -1.0,
    -2.2250738585072014e-308,
    -5e-324,
    0.0,
    5e-324,
    1e-310,
    2.2250738585072014e-308,
    1.0,
    1.0000000000000002,
    1e300,
    FMAX,
]
WEIGHT_EXTREMES = [0.0, 5e-324, 1e-310, 1e-300, 1e-3, 0.5, 1.0, 2.0, 3.0, 1e10, 1e300, FMAX]

# ---------------------------------------------------------------------------------------------
# strategies


def _scores(kind: str, n: int) -> st.SearchStrategy[np.ndarray]:
    if kind == "ties":
        return st.lists(st.integers(0, 2), min_size=n, max_size=n).map(
            lambda v: np.asarray(v, dtype=np.float64)
        )
    if kind == "int_ties":
        return st.lists(st.integers(-1, 1), min_size=n, max_size=n).map(
            lambda v: np.asarray(v, dtype=np.int64)
        )
    if kind == "int64":
        element = st.sampled_from(INT64_EXTREMES) | st.integers(int(I64.min), int(I64.max))
        return st.lists(element, min_size=n, max_size=n).map(
            lambda v: np.asarray(v, dtype=np.int64)
        )
    element = st.sampled_from(FLOAT_EXTREMES) | st.floats(
        allow_nan=False, allow_infinity=False, allow_subnormal=True
    )
    if kind == "float32":
        element = st.sampled_from([-3.4e38, -1.0, 0.0, 1e-45, 1.0, 3.4e38]) | st.floats(
            width=32, allow_nan=False, allow_infinity=False
        )
        return st.lists(element, min_size=n, max_size=n).map(
            lambda v: np.asarray(v, dtype=np.float32)
        )
    return st.lists(element, min_size=n, max_size=n).map(lambda v: np.asarray(v, dtype=np.float64))


SCORE_KINDS = ("ties", "int_ties", "int64", "float", "float32")


@st.composite
def problems(draw, *, weighted: bool | None = None, max_n: int = 24, kinds=SCORE_KINDS):
    """A valid labelled-score problem ``(y, s, w)``; ``w`` may be None.

    Labels: random, or a single positive, or a single negative.  Weights: none, moderate, or
    drawn from extremes (zeros, subnormals, 1e±300, the largest double); at least one positive
    and one negative keep a positive weight.
    """
    n = draw(st.integers(2, max_n))
    layout = draw(st.sampled_from(["random", "one_pos", "one_neg"]))
    if layout == "random":
        y = np.asarray(draw(st.lists(st.booleans(), min_size=n, max_size=n)))
        assume(0 < y.sum() < n)
    else:
        y = np.zeros(n, dtype=bool) if layout == "one_pos" else np.ones(n, dtype=bool)
        y[draw(st.integers(0, n - 1))] = layout == "one_pos"
    kind = draw(st.sampled_from(kinds))
    s = draw(_scores(kind, n))
    if weighted is None:
        weighted = draw(st.booleans())
    w = None
    if weighted:
        element = st.sampled_from(WEIGHT_EXTREMES) | st.floats(
            0, FMAX, allow_nan=False, allow_infinity=False
        )
        if draw(st.booleans()):
            element = st.floats(1e-3, 1e3)
        w = np.asarray(draw(st.lists(element, min_size=n, max_size=n)), dtype=np.float64)
        assume((w[y] > 0).any() and (w[~y] > 0).any())
        assume(_representable(w))
    return y, s, w


def _representable(w: np.ndarray) -> bool:
    """Whether the positive weights fit float64 once the largest is scaled below 2**500.

    Weights spread wider (e.g. 5e-324 beside 1e300) are rejected with a clear error, tested in
    :func:`test_weights_beyond_float64_range_are_an_error`.
    """
    positive = w[w > 0]
    top = float(positive.max())
    if top < 2.0**500:
        return True
    shift = 500 - int(np.frexp(top)[1])
    return bool(np.array_equal(np.ldexp(np.ldexp(positive, shift), -shift), positive))


def _finite_unit(x, name: str) -> None:
    a = np.asarray(x, dtype=np.float64)
    assert np.isfinite(a).all(), f"{name}: non-finite value in {a}"
    assert ((a >= 0) & (a <= 1)).all(), f"{name}: value outside [0, 1] in {a}"


def _all_areas(y, s, w) -> dict[str, float]:
    return {m: prcurve.auc_pr(y, s, method=m, sample_weight=w) for m in AUC_METHODS}


def _same_curve(a, b) -> None:
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    np.testing.assert_array_equal(a.tp, b.tp)
    np.testing.assert_array_equal(a.fp, b.fp)
    np.testing.assert_array_equal(a.precision, b.precision)
    np.testing.assert_array_equal(a.recall, b.recall)


def _brute_point(y, s, w, t, rule):
    """Index of the ``"ge"`` curve's point that threshold ``t`` selects, by exact comparisons.

    Python compares ints and floats exactly, so this is independent of NumPy's casting rules.
    Returns None when ``t`` selects no row of positive weight.
    """
    keep = np.ones(len(y), dtype=bool) if w is None else w > 0
    chosen = [
        si
        for si, ki in zip(s.tolist(), keep.tolist(), strict=True)
        if ki and ((si >= t) if rule == "ge" else (si > t))
    ]
    if not chosen:
        return None
    lowest = min(chosen)
    ge = prcurve.pr_curve(y, s, sample_weight=w).thresholds.tolist()
    return ge.index(lowest)


# ---------------------------------------------------------------------------------------------
# curves and the counting engine


@FUZZ
@given(problems(), st.sampled_from(["ge", "gt"]))
def test_pr_curve_finite_ranged_and_monotone(problem, rule):
    y, s, w = problem
    curve = prcurve.pr_curve(y, s, sample_weight=w, threshold_rule=rule)
    _finite_unit(curve.precision, "precision")
    _finite_unit(curve.recall, "recall")
    assert curve.recall[-1] == 1.0
    assert np.all(np.diff(curve.recall) >= 0)
    assert np.all(np.diff(curve.tp) >= 0) and np.all(np.diff(curve.fp) >= 0)
    assert np.all(curve.tp + curve.fp > 0)
    t = curve.thresholds
    assert t.shape == curve.tp.shape
    # strictly decreasing, compared exactly (integer thresholds stay integers)
    assert all(a > b for a, b in zip(t[:-1].tolist(), t[1:].tolist(), strict=True))
    # the skew n_neg / n_pos is +inf when the weights' ratio exceeds the doubles; never NaN
    assert 0 < curve.prevalence <= 1 and curve.skew >= 0 and not np.isnan(curve.skew)
    roc = prcurve.roc_curve(y, s, sample_weight=w)
    _finite_unit(roc.fpr, "fpr")
    _finite_unit(roc.tpr, "tpr")
    _finite_unit(roc.auc(), "roc auc")
    counts = prcurve.binary_counts(y, s, sample_weight=w)
    np.testing.assert_array_equal(counts.tp, curve.tp)
    np.testing.assert_array_equal(counts.fp, curve.fp)


@FUZZ
@given(problems(), st.sampled_from(["ge", "gt"]))
def test_own_thresholds_evaluate_back_to_the_points(problem, rule):
    y, s, w = problem
    curve = prcurve.pr_curve(y, s, sample_weight=w, threshold_rule=rule)
    back = prcurve.evaluate_thresholds(y, s, curve.thresholds, sample_weight=w, threshold_rule=rule)
    _same_curve(curve, back)
    # point i is what exact comparisons select at its threshold
    for i, t in enumerate(curve.thresholds.tolist()):
        assert _brute_point(y, s, w, t, rule) == i


@FUZZ
@given(
    problems(kinds=("int64", "float", "int_ties")),
    st.lists(
        st.sampled_from(INT64_EXTREMES + FLOAT_EXTREMES)
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.integers(int(I64.min), int(I64.max)),
        min_size=1,
        max_size=6,
    ),
    st.sampled_from(["ge", "gt"]),
    st.sampled_from(["int64", "float64", "uint64"]),
)
def test_evaluate_thresholds_is_exact(problem, thresholds, rule, t_dtype):
    """Comparisons between scores and thresholds are exact whatever their dtypes."""
    y, s, w = problem
    if t_dtype == "float64":
        t = np.asarray([float(v) for v in thresholds], dtype=np.float64)
    else:
        info = np.iinfo(t_dtype)
        ints = [int(v) for v in thresholds if isinstance(v, int) or float(v).is_integer()]
        t = np.asarray([v for v in ints if info.min <= v <= info.max], dtype=t_dtype)
        assume(t.shape[0] > 0)
    t_list = sorted(set(t.tolist()), reverse=True)
    expected = {v: _brute_point(y, s, w, v, rule) for v in t_list}
    kept = [v for v in t_list if expected[v] is not None]
    if not kept:
        with pytest.raises(ValueError, match="thresholds: expected at least one threshold"):
            prcurve.evaluate_thresholds(y, s, t, sample_weight=w, threshold_rule=rule)
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", prcurve.ThresholdsDroppedWarning)
        got = prcurve.evaluate_thresholds(y, s, t, sample_weight=w, threshold_rule=rule)
    assert got.thresholds.tolist() == kept
    curve = prcurve.pr_curve(y, s, sample_weight=w)
    index = [expected[v] for v in kept]
    np.testing.assert_array_equal(got.tp, curve.tp[index])
    np.testing.assert_array_equal(got.fp, curve.fp[index])
    _finite_unit(got.precision, "precision")


# ---------------------------------------------------------------------------------------------
# regressions: the examples of issue 16, items 1 and 2, through the public API


def test_issue16_item1_extreme_weights_give_finite_areas():
    """int64 extreme scores with weights 1e-3, 1e10, 0, 0, 1e-300: no NaN, no overflow warning.

    The interpolated median used to divide by a subnormal median precision (NaN), and the
    Davis-Goadrich segments formed a local skew of 1e10 / 1e-300 (overflow).
    """
    y = np.array([1, 0, 0, 0, 1])
    s = np.array([-(2**63), 2**63 - 1, -(2**63), -(2**63), 2**63 - 1], dtype=np.int64)
    w = np.array([1e-3, 1e10, 0.0, 0.0, 1e-300])
    areas = _all_areas(y, s, w)
    # brute force: the top score holds weight 1e10 negative and 1e-300 positive; the bottom
    # adds the 1e-3 positive.  Average precision = recall steps times precisions:
    n_pos = 1e-3 + 1e-300
    p_top = 1e-300 / (1e10 + 1e-300)
    p_all = n_pos / (1e10 + n_pos)
    expected_ap = (1e-300 / n_pos) * p_top + (1e-3 / n_pos) * p_all
    assert areas["average_precision"] == pytest.approx(expected_ap, rel=1e-12)
    # the trapezoid rule from (recall 0, precision p_top) to (1, p_all): the first point's
    # recall is 1e-297, so the area is p_all / 2 within rounding
    assert areas["trapezoid"] == pytest.approx(p_all / 2, rel=1e-9)
    for method, value in areas.items():
        _finite_unit(value, method)
        # every estimator lies between the lowest and the highest precision of the curve
        assert value <= max(p_top, p_all) * (1 + 1e-12), method
    prg_area = prcurve.prg_curve(y, s, sample_weight=w).auc()
    assert np.isfinite(prg_area) and prg_area <= 1.0


def _issue16_item2_problem():
    y = np.zeros(32, dtype=bool)
    y[0] = y[-1] = True
    s = np.array([-(2**63)] * 30 + [2**63 - 1, 2**63 - 2], dtype=np.int64)
    w = np.array([0.0] * 29 + [1e-6] * 3)
    return y, s, w


@pytest.mark.parametrize("rule", ["ge", "gt"])
def test_issue16_item2_zero_weight_rows_and_thresholds_agree(rule):
    """A curve's own thresholds evaluate back to its points, with the int64 minimum as a score.

    The "gt" label of the last point lies below -2**63; it used to be rounded to the double
    -2**63 ... and the top label 2**63 - 2 to 2**63, above every score, so one point was lost.
    """
    y, s, w = _issue16_item2_problem()
    curve = prcurve.pr_curve(y, s, sample_weight=w, threshold_rule=rule)
    np.testing.assert_array_equal(curve.tp, [0.0, 1e-6, 1e-6])
    np.testing.assert_array_equal(curve.fp, [1e-6, 1e-6, 2e-6])
    back = prcurve.evaluate_thresholds(y, s, curve.thresholds, sample_weight=w, threshold_rule=rule)
    _same_curve(curve, back)
    # the rows of zero weight are absent: the same as leaving them out
    keep = w > 0
    _same_curve(
        curve, prcurve.pr_curve(y[keep], s[keep], sample_weight=w[keep], threshold_rule=rule)
    )
    if rule == "gt":
        # exact labels: 2**63 - 2 (selects only 2**63 - 1), -2**63, and something below -2**63
        assert int(curve.thresholds[0]) == 2**63 - 2
        assert int(curve.thresholds[1]) == -(2**63)
        assert curve.thresholds[2] < -(2**63)


def test_zero_weight_group_is_not_an_operating_point():
    """The lead's decision (issue 16 item 2): a score whose rows all weigh 0 labels no point."""
    y = np.array([1, 0, 1, 0, 1])
    s = np.array([5.0, 4.0, 3.0, 2.0, 1.0])
    w = np.array([1.0, 1.0, 0.0, 1.0, 2.0])
    curve = prcurve.pr_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(curve.thresholds, [5.0, 4.0, 2.0, 1.0])
    np.testing.assert_array_equal(curve.tp, [1.0, 1.0, 1.0, 3.0])
    np.testing.assert_array_equal(curve.fp, [0.0, 1.0, 2.0, 2.0])
    gt = prcurve.pr_curve(y, s, sample_weight=w, threshold_rule="gt")
    np.testing.assert_array_equal(gt.thresholds, [4.0, 2.0, 1.0, -np.inf])
    # "score >= 3" selects the rows of 5 and 4 (the row of 3 weighs nothing): point 1
    at = prcurve.evaluate_thresholds(y, s, [3.0], sample_weight=w)
    np.testing.assert_array_equal([at.tp[0], at.fp[0]], [1.0, 1.0])
    roc = prcurve.roc_curve(y, s, sample_weight=w)
    assert 3.0 not in roc.thresholds.tolist()
    # leaving the row out gives the same curves under both rules
    for rule in ("ge", "gt"):
        _same_curve(
            prcurve.pr_curve(y, s, sample_weight=w, threshold_rule=rule),
            prcurve.pr_curve(
                np.delete(y, 2), np.delete(s, 2), sample_weight=np.delete(w, 2), threshold_rule=rule
            ),
        )


def test_weights_beyond_float64_range_are_an_error():
    """Positive weights 5e-324 and 1e300 cannot both survive scaling: a clear error, no NaN."""
    y = np.array([1, 0, 1, 0])
    s = np.array([0.9, 0.8, 0.3, 0.1])
    w = np.array([5e-324, 1.0, 1e300, 1.0])
    with pytest.raises(
        ValueError,
        match=r"sample_weight: expected positive weights within a "
        r"factor of about 2\*\*1500 .* got largest 1e\+300 and smallest 5e-324",
    ):
        prcurve.pr_curve(y, s, sample_weight=w)
    # the same weights scaled into range by hand are fine (and 5e-324 is a real weight)
    ok = prcurve.pr_curve(y, s, sample_weight=np.array([2.0**-1000, 1.0, 1e300 * 2.0**-1000, 1.0]))
    assert ok.tp[0] > 0


# ---------------------------------------------------------------------------------------------
# areas


@FUZZ
@given(problems())
def test_every_area_is_finite_in_unit_interval(problem):
    y, s, w = problem
    areas = _all_areas(y, s, w)
    for method, value in areas.items():
        _finite_unit(value, method)
    curve = prcurve.pr_curve(y, s, sample_weight=w)
    # every estimator is an average of precisions of (possibly interpolated) points: it lies
    # between the lowest and the highest precision the curve reaches (with its start point)
    low = min(curve.precision.min(), curve.prevalence)
    high = max(curve.precision.max(), 1.0 if method == "interpolated_median" else 0.0)
    for method, value in areas.items():
        bound_high = 1.0 if method in ("trapezoid", "interpolated_median") else high
        # values below the normal doubles (1e-308) have no relative precision: absolute slack
        assert low * (1 - 1e-9) - 1e-300 <= value, (method, value, low, high)
        assert value <= bound_high * (1 + 1e-9), (method, value, low, high)
    assert areas["average_precision"] == pytest.approx(curve.auc(), rel=0, abs=0)
    prg = prcurve.prg_curve(y, s, sample_weight=w)
    value = prg.auc()
    assert np.isfinite(value) and value <= 1.0 + 1e-12
    roc = prcurve.roc_curve(y, s, sample_weight=w)
    _finite_unit(roc.auc(), "ROC AUC")


def _sklearn_comparable(y, s, w) -> bool:
    """scikit-learn sums weights naively in float64: compare only where that cannot overflow."""
    if w is None:
        return True
    positive = w[w > 0]
    return bool(positive.max() < 1e200 and positive.min() > 1e-200)


@FUZZ
@given(problems(kinds=("ties", "int_ties", "float", "int64")))
def test_areas_agree_with_scikit_learn(problem):
    metrics = pytest.importorskip("sklearn.metrics")
    y, s, w = problem
    assume(_sklearn_comparable(y, s, w))
    # scikit-learn casts scores to float64 (distinct int64 scores may merge) and subtracts them
    # (overflow at +-1.8e308): give it the ranks, as the curves only depend on the order
    sk_s = np.unique(s, return_inverse=True)[1].astype(np.float64)
    ours = prcurve.auc_pr(y, s, sample_weight=w)
    theirs = metrics.average_precision_score(y, sk_s, sample_weight=w)
    assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-300)
    roc_ours = prcurve.roc_curve(y, s, sample_weight=w).auc()
    roc_theirs = metrics.roc_auc_score(y, sk_s, sample_weight=w)
    assert roc_ours == pytest.approx(roc_theirs, rel=1e-9, abs=1e-300)
    # the curve's points, against scikit-learn's (which also has one point per distinct score)
    p, r, _ = metrics.precision_recall_curve(y, sk_s, sample_weight=w)
    curve = prcurve.pr_curve(y, s, sample_weight=w)
    keep = ~np.isnan(p[:-1])  # points of zero total weight scikit-learn reports as NaN/0
    np.testing.assert_allclose(curve.recall, r[:-1][::-1][keep[::-1]], rtol=1e-12)
    np.testing.assert_allclose(curve.precision, p[:-1][::-1][keep[::-1]], rtol=1e-12)


def _brute_force_ap(y, s, w) -> float:
    """Average precision by its definition, one Python loop over distinct scores."""
    w = np.ones(len(y)) if w is None else w
    keep = w > 0
    y, s, w = y[keep], s[keep].tolist(), w[keep]
    n_pos = float(w[y].sum())
    total = 0.0
    previous_tp = 0.0
    for t in sorted(set(s), reverse=True):
        sel = np.array([v >= t for v in s])
        tp = float(w[sel & y].sum())
        fp = float(w[sel & ~y].sum())
        total += (tp - previous_tp) / n_pos * (tp / (tp + fp))
        previous_tp = tp
    return total


@FUZZ
@given(problems(max_n=12))
def test_average_precision_matches_brute_force(problem):
    y, s, w = problem
    assume(w is None or _sklearn_comparable(y, s, w))
    assert prcurve.auc_pr(y, s, sample_weight=w) == pytest.approx(
        _brute_force_ap(y, s, w), rel=1e-9
    )


# ---------------------------------------------------------------------------------------------
# weights: scale, zeros, duplicates


@FUZZ
@given(problems(weighted=True), st.integers(-60, 60), st.floats(1e-3, 1e3))
def test_weights_are_free_of_scale(problem, k, c):
    y, s, w = problem
    with np.errstate(over="ignore", under="ignore"):
        scaled = np.ldexp(w, k)
    assume(np.isfinite(scaled).all() and np.array_equal(np.ldexp(scaled, -k), w))
    base = _all_areas(y, s, w)
    for method, value in _all_areas(y, s, scaled).items():
        assert value == pytest.approx(base[method], rel=1e-12, abs=0), method
    a = prcurve.pr_curve(y, s, sample_weight=w)
    b = prcurve.pr_curve(y, s, sample_weight=scaled)
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    np.testing.assert_allclose(a.precision, b.precision, rtol=1e-12)
    np.testing.assert_allclose(a.recall, b.recall, rtol=1e-12)
    # an arbitrary constant rounds each weight, so only approximately; skip weights whose
    # product would leave the normal range
    with np.errstate(over="ignore", under="ignore"):
        times = w * c
    positive = w > 0
    assume(np.isfinite(times).all() and (times[positive] > 1e-300).all())
    assume(w[positive].min() > 1e-300)
    for method, value in _all_areas(y, s, times).items():
        assert value == pytest.approx(base[method], rel=1e-9, abs=0), method


@FUZZ
@given(problems(), st.data())
def test_zero_weight_rows_are_absent_rows(problem, data):
    y, s, w = problem
    n_extra = data.draw(st.integers(1, 6))
    idx = data.draw(st.lists(st.integers(0, len(y) - 1), min_size=n_extra, max_size=n_extra))
    labels = data.draw(st.lists(st.booleans(), min_size=n_extra, max_size=n_extra))
    # the extra rows reuse existing scores, or take new ones (the top, the bottom of the dtype)
    extra_s = s[idx].copy()
    if data.draw(st.booleans()) and s.dtype.kind in "iu":
        extra_s[0] = np.iinfo(s.dtype).max
    elif data.draw(st.booleans()) and s.dtype.kind == "f":
        extra_s[0] = np.finfo(s.dtype).min
    y2 = np.concatenate([y, np.asarray(labels, dtype=bool)])
    s2 = np.concatenate([s, extra_s])
    w1 = np.ones(len(y)) if w is None else w
    w2 = np.concatenate([w1, np.zeros(n_extra)])
    for rule in ("ge", "gt"):
        _same_curve(
            prcurve.pr_curve(y, s, sample_weight=w1, threshold_rule=rule),
            prcurve.pr_curve(y2, s2, sample_weight=w2, threshold_rule=rule),
        )
    for method, value in _all_areas(y2, s2, w2).items():
        assert value == prcurve.auc_pr(y, s, sample_weight=w1, method=method), method
    assert (
        prcurve.prg_curve(y2, s2, sample_weight=w2).auc()
        == prcurve.prg_curve(y, s, sample_weight=w1).auc()
    )


@FUZZ
@given(problems(weighted=False), st.data())
def test_duplicated_rows_are_integer_weights(problem, data):
    y, s, _ = problem
    reps = np.asarray(data.draw(st.lists(st.integers(0, 3), min_size=len(y), max_size=len(y))))
    assume(reps[y].sum() > 0 and reps[~y].sum() > 0)
    repeated = prcurve.pr_curve(np.repeat(y, reps), np.repeat(s, reps))
    weighted = prcurve.pr_curve(y, s, sample_weight=reps.astype(np.float64))
    np.testing.assert_array_equal(repeated.thresholds, weighted.thresholds)
    np.testing.assert_array_equal(repeated.tp, weighted.tp)
    np.testing.assert_array_equal(repeated.fp, weighted.fp)
    for method in AUC_METHODS:
        assert prcurve.auc_pr(np.repeat(y, reps), np.repeat(s, reps), method=method) == (
            pytest.approx(prcurve.auc_pr(y, s, method=method, sample_weight=reps), rel=1e-12)
        ), method


# ---------------------------------------------------------------------------------------------
# the other functions that take data


@FUZZ
@given(problems(), st.lists(st.floats(1e-6, 1.0), min_size=1, max_size=5))
def test_curve_methods_and_derived_curves_are_finite(problem, recall):
    y, s, w = problem
    curve = prcurve.pr_curve(y, s, sample_weight=w)
    r = np.asarray(recall)
    at = np.asarray(curve.precision_at(r, ties="strict"))
    _finite_unit(at, "precision_at")
    # the default reading is the drawn (Davis–Goadrich interpolated) curve
    drawn = np.asarray(curve.precision_at(r))
    _finite_unit(drawn, "precision_at")
    np.testing.assert_allclose(drawn, curve.interpolate(r)[1], rtol=1e-9)
    # the functional estimator, by brute force: the lowest positive-weight positive score z
    # with at most n_pos * r positive weight strictly above it, then precision at "score > z"
    # plus the positives at z needed ... for unweighted data, PR(r) = n_pos r / (n_pos r + N)
    # with N the negatives strictly above z
    if w is None:
        pos = np.sort(s[y])[::-1]
        n_pos = pos.shape[0]
        for beta, got in zip(r.tolist(), at.tolist(), strict=True):
            j = min(int(np.floor(n_pos * beta + 1e-9)) + 1, n_pos)
            z = pos[j - 1].item()
            negatives_above = sum(
                1 for v, lab in zip(s.tolist(), y.tolist(), strict=True) if not lab and v > z
            )
            expected = n_pos * beta / (n_pos * beta + negatives_above)
            assert got == pytest.approx(expected, rel=1e-9)
        np.testing.assert_allclose(
            prcurve.batch_precision_at(y[None, :], s[None, :], r)[0], at, rtol=1e-12
        )
    x, p = curve.interpolate(num=17)
    _finite_unit(x, "interpolate recall")
    _finite_unit(p, "interpolate precision")
    hull = prcurve.achievable_pr_curve(y, s, sample_weight=w)
    _finite_unit(hull.precision, "achievable precision")
    _finite_unit(hull.recall, "achievable recall")
    # the achievable curve is an envelope of the curve: never below it at the curve's recalls
    on = curve.recall > 0
    assert (hull.precision_at(curve.recall[on]) >= curve.precision[on] * (1 - 1e-9)).all()
    roc = curve.to_roc()
    _finite_unit(roc.fpr, "to_roc fpr")
    _finite_unit(roc.tpr, "to_roc tpr")
    prg = prcurve.prg_curve(y, s, sample_weight=w)
    for name in ("precision", "recall"):
        values = np.asarray(getattr(prg, name), dtype=np.float64)
        assert not np.isnan(values).any(), name
        assert (values <= 1.0 + 1e-12).all(), name
    rg, pg = prg.path()
    assert np.isfinite(rg).all() and np.isfinite(pg).all()


@FUZZ
@given(
    st.sampled_from(WEIGHT_EXTREMES[1:]) | st.floats(1e-300, 1e300),
    st.floats(0, 1),
    st.floats(0, 1),
    st.floats(0, 1),
    st.floats(0, 1),
)
def test_dg_interpolate_is_finite(n_pos, a_tp, a_fp, b_tp, b_fp):
    """Davis-Goadrich interpolation between any two count pairs (as fractions of a scale)."""
    n_neg = n_pos * 7.0
    tp_a, tp_b = sorted([a_tp * n_pos, b_tp * n_pos])
    fp_a, fp_b = sorted([a_fp * n_neg, b_fp * n_neg])
    assume(np.isfinite(n_neg) and tp_b + fp_b > 0 and tp_a + fp_a > 0)
    assume(tp_b - tp_a <= 1000)  # unit TP steps: keep the number of points bounded
    pts = prcurve.dg_interpolate(tp_a, fp_a, tp_b, fp_b, n_pos)
    _finite_unit(pts.precision, "dg precision")
    _finite_unit(pts.recall, "dg recall")
    assert np.isfinite(pts.tp).all() and np.isfinite(pts.fp).all()
    # precision between the two end points' precisions (it moves monotonically in between)
    pa, pb = tp_a / (tp_a + fp_a), tp_b / (tp_b + fp_b)
    lo, hi = min(pa, pb), max(pa, pb)
    assert (pts.precision >= lo * (1 - 1e-9)).all() and (pts.precision <= hi * (1 + 1e-9)).all()


@FUZZ
@given(problems(weighted=False))
def test_roc_and_pr_spaces_round_trip(problem):
    y, s, _ = problem
    curve = prcurve.pr_curve(y, s)
    keep = curve.tp > 0  # recall 0 fixes no ROC point
    assume(keep.any())
    n_pos, n_neg = int(y.sum()), int((~y).sum())
    fpr, tpr = prcurve.pr_to_roc(
        curve.recall[keep], curve.precision[keep], n_pos=n_pos, n_neg=n_neg
    )
    _finite_unit(fpr, "fpr")
    _finite_unit(tpr, "tpr")
    np.testing.assert_allclose(fpr, curve.fp[keep] / n_neg, rtol=1e-12, atol=1e-15)
    recall, precision = prcurve.roc_to_pr(fpr, tpr, n_pos=n_pos, n_neg=n_neg)
    np.testing.assert_allclose(recall, curve.recall[keep], rtol=1e-12)
    np.testing.assert_allclose(precision, curve.precision[keep], rtol=1e-12)
    gains = prcurve.pr_to_prg(curve.precision, curve.recall, curve.prevalence)
    assert not np.isnan(np.asarray(gains.precision_gain, dtype=float)).any()


# ---------------------------------------------------------------------------------------------
# intervals: finite, or NaN only with a warning that says why


def _numbers(result, path="result"):
    """Every float in a (nested) result dataclass, as (name, float array) pairs."""
    import dataclasses

    if dataclasses.is_dataclass(result):
        for field in dataclasses.fields(result):
            yield from _numbers(getattr(result, field.name), f"{path}.{field.name}")
    elif isinstance(result, (float, np.floating)) or (
        isinstance(result, np.ndarray) and result.dtype.kind == "f"
    ):
        yield path, np.asarray(result, dtype=np.float64)
    elif isinstance(result, (tuple, list)):
        for i, item in enumerate(result):
            yield from _numbers(item, f"{path}[{i}]")


def _no_silent_nan(call):
    """Call; the result's floats are never NaN unless a prcurve warning said why.

    A ValueError is accepted when its message opens with the parameter it is about (e.g. too
    few positives for a bootstrap): that is the library's clear-error convention.  Returns
    None then.
    """
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", prcurve.PRCurveWarning)
        try:
            result = call()
        except ValueError as error:
            assert re.match(r"^[\w ,]+: ", str(error)), str(error)
            return None
    warned = any(issubclass(c.category, prcurve.PRCurveWarning) for c in caught)
    for name, values in _numbers(result):
        assert not np.isnan(values).any() or warned, f"{name}: NaN without a warning"
        assert not np.isinf(values).any() or warned or "width" not in name, name
    return result


@SLOW_FUZZ
@given(problems(max_n=14), st.sampled_from(AUC_METHODS))
def test_auc_pr_ci_has_no_silent_nan(problem, method):
    y, s, w = problem
    result = _no_silent_nan(
        lambda: prcurve.auc_pr_ci(
            y, s, method=method, sample_weight=w, n_resamples=16, rng=np.random.default_rng(0)
        )
    )
    if result is None:
        return
    low, high = result.interval.low, result.interval.high
    if np.isfinite(low) and np.isfinite(high):
        assert 0.0 <= low <= high <= 1.0


@SLOW_FUZZ
@given(problems(max_n=14), st.sampled_from(["normal", "bootstrap"]))
def test_pr_pointwise_ci_has_no_silent_nan(problem, method):
    y, s, w = problem
    _no_silent_nan(
        lambda: prcurve.pr_pointwise_ci(
            y,
            s,
            [0.25, 0.5, 0.75],
            method=method,
            sample_weight=w,
            n_resamples=16,
            rng=np.random.default_rng(0),
        )
    )


@SLOW_FUZZ
@given(problems(max_n=14, kinds=("ties", "float", "int64")), st.data())
def test_compare_has_no_silent_nan(problem, data):
    y, s, w = problem
    other = data.draw(_scores("float", len(y)))
    _no_silent_nan(
        lambda: prcurve.compare(
            y, s, other, sample_weight=w, n_resamples=16, rng=np.random.default_rng(0), num=11
        )
    )


@SLOW_FUZZ
@given(problems(max_n=14, weighted=False))
def test_pr_confidence_band_has_no_silent_nan(problem):
    y, s, _ = problem
    _no_silent_nan(
        lambda: prcurve.pr_confidence_band(
            y, s, n_resamples=16, rng=np.random.default_rng(0), num=11
        )
    )


# ---------------------------------------------------------------------------------------------
# regressions: what this fuzz found beyond the examples of issue 16


def test_interpolated_precision_never_exceeds_one():
    m = -(2**63)
    y = np.array([0, 1, 1, 1, 1, 1], dtype=bool)
    s = np.array([m] * 5 + [m + 1], dtype=np.int64)
    w = np.array([1.0, 1, 1, 1, 388, 85])
    _, precision = prcurve.pr_curve(y, s, sample_weight=w).interpolate(num=17)
    assert precision.max() == 1.0


def test_dg_interpolate_subnormal_counts_keep_their_ratios():
    pts = prcurve.dg_interpolate(5e-324, 0.0, 5e-324, 3.5e-323, 5e-324)
    np.testing.assert_array_equal(pts.precision, [1.0, 1 / 8])
    np.testing.assert_array_equal(pts.fp, [0.0, 3.5e-323])


def test_batch_precision_at_is_exact_for_int64_scores():
    m = -(2**63)
    y = np.array([0, 0, 0, 0, 0, 0, 0, 1], dtype=bool)
    s = np.array([m] * 6 + [m + 1, m], dtype=np.int64)
    # m + 1 and m are one double: the negative at m + 1 is strictly above the positive
    np.testing.assert_array_equal(prcurve.batch_precision_at(y[None], s[None], [1.0]), [[0.5]])
    assert prcurve.pr_curve(y, s).precision_at(1.0, ties="strict") == 0.5


@pytest.mark.parametrize(
    "w", [[1e300, 1.0], [1e-3, 5e-324], [5e-324, 1e-310]], ids=["huge", "subnormal", "tiny"]
)
def test_prg_under_extreme_weights_is_finite(w):
    """Weights whose products under- or overflow: PRG gains and y0 stay finite."""
    y = np.array([False, True])
    s = np.array([0.0, 0.0])
    prg = prcurve.prg_curve(y, s, sample_weight=np.asarray(w))
    assert np.isfinite(prg.auc()) and np.isfinite(prg.y0)
    # one operating point, the all-positive classifier: recall gain 1, precision gain 0
    np.testing.assert_array_equal(prg.recall_gain, [1.0])
    np.testing.assert_array_equal(prg.precision_gain, [0.0])


@SLOW_FUZZ
@given(problems(max_n=14, weighted=True), st.integers(1, 4))
def test_bootstraps_drop_zero_weight_rows(problem, n_extra):
    """Issue 16 item 2 for the bootstraps: zero-weight rows are absent, replicate for replicate."""
    y, s, w = problem
    y2 = np.concatenate([y, np.ones(n_extra, dtype=bool)])
    s2 = np.concatenate([s, np.repeat(s[:1], n_extra)])
    w2 = np.concatenate([w, np.zeros(n_extra)])
    assume(int((y & (w > 0)).sum()) >= 2 and int((~y & (w > 0)).sum()) >= 2)

    def run(yy, ss, ww):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", prcurve.PRCurveWarning)
            a = prcurve.auc_pr_ci(yy, ss, sample_weight=ww, n_resamples=16, rng=3)
            b = prcurve.pr_pointwise_ci(
                yy, ss, [0.5], method="bootstrap", sample_weight=ww, n_resamples=16, rng=3
            )
        return a.interval, np.asarray(b.interval.low), np.asarray(b.interval.high)

    (i1, lo1, hi1), (i2, lo2, hi2) = run(y, s, w), run(y2, s2, w2)
    assert (i1.low, i1.high) == (i2.low, i2.high) or (
        np.isnan([i1.low, i1.high]).all() and np.isnan([i2.low, i2.high]).all()
    )
    np.testing.assert_array_equal(lo1, lo2)
    np.testing.assert_array_equal(hi1, hi2)


def test_dg_interpolate_tiny_tp_step_beside_a_large_fp_step():
    """The local skew 3.5 / 1.1e-308 overflows; the points must not become NaN."""
    pts = prcurve.dg_interpolate(0.0, 3.5, 1.1125369292536007e-308, 7.0, 1.0)
    np.testing.assert_array_equal(pts.fp, [3.5, 7.0])
    assert np.isfinite(pts.precision).all()
    assert pts.precision[1] == pytest.approx(1.1125369292536007e-308 / 7.0, rel=1e-12)


def test_kish_effective_size_of_extreme_weights():
    """Positive weights 1e-30 beside negative weights 1e300: rescaled, the positives' squares
    underflow; Kish's n_eff is computed scale-free, so it is 2 (two equal weights), not NaN."""
    y = np.array([1, 1, 0, 0, 0, 0])
    s = np.array([0.9, 0.2, 0.8, 0.4, 0.3, 0.1])
    w = np.array([1e-30, 1e-30, 1e300, 1e300, 1e300, 1e300])
    got = prcurve.auc_pr_ci(y, s, sample_weight=w, interval="logit")
    assert got.n_pos == pytest.approx(2.0, rel=1e-12)
    assert 0.0 <= got.interval.low <= got.estimate <= got.interval.high <= 1.0


def test_average_precision_never_exceeds_one_by_rounding():
    y = np.array([False, True, True, True])
    s = np.array([0.0, 0.0, 0.0, 1.0])
    w = np.array([5e-324, 1.0, 4503599627370496.0, 1.5])
    for method in AUC_METHODS:
        assert prcurve.auc_pr(y, s, sample_weight=w, method=method) <= 1.0, method


@SLOW_FUZZ
@given(
    problems(max_n=30),
    st.sampled_from(["min_precision", "min_recall"]),
    st.floats(0.01, 1.0),
    st.sampled_from([None, 0.01, 0.9]),
)
def test_operating_point_bootstrap_has_no_silent_nan(problem, criterion, target, prevalence):
    """The bootstrap intervals of an operating point (coarse to fine when unweighted): finite,
    ordered, precision and recall in [0, 1], threshold ends scores of the data."""
    y, s, w = problem
    point = _no_silent_nan(
        lambda: prcurve.operating_point(
            y,
            s,
            sample_weight=w,
            prevalence=prevalence,
            interval="bootstrap",
            n_resamples=24,
            rng=np.random.default_rng(1),
            **{criterion: target},
        )
    )
    if point is None:  # a clear error (e.g. weights too extreme for π's reweighting)
        return
    if not point.feasible:
        assert point.threshold_interval is None and point.reason
        return
    for ci in (point.precision_interval, point.recall_interval):
        assert 0.0 <= ci.low <= ci.high <= 1.0
    ti = point.threshold_interval
    if ti is not None:
        assert ti.low <= ti.high and ti.low in s and ti.high in s
