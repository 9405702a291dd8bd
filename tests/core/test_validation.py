import numpy as np
import pytest

import prcurve
from prcurve import auc_pr, pr_curve, roc_curve
from prcurve._core._validation import (
    check_choice,
    check_fraction,
    check_level,
    check_positive_int,
    check_rng,
    check_unit_interval_array,
)


@pytest.mark.parametrize("func", [pr_curve, roc_curve, auc_pr])
@pytest.mark.parametrize(
    ("y", "s", "kwargs", "error", "match"),
    [
        ([0, 1, 1], [0.1, np.nan, 0.3], {}, ValueError, r"y_score: expected finite.*NaN.*index 1"),
        ([0, 1, 1], [0.1, np.inf, 0.3], {}, ValueError, r"y_score: .*infinite value.*index 1"),
        ([0, 0, 0], [0.1, 0.2, 0.3], {}, ValueError, r"y_true: expected both classes.*only neg"),
        ([1, 1, 1], [0.1, 0.2, 0.3], {}, ValueError, r"y_true: expected both classes.*only pos"),
        ([0, 1, 2], [0.1, 0.2, 0.3], {}, ValueError, r"y_true: expected two classes, got 3"),
        ([0, 1, 1], [0.1, 0.2], {}, ValueError, r"y_true and y_score: .*same length.*3 and 2"),
        ([], [], {}, ValueError, r"y_true: expected at least one sample"),
        # a 2-column matrix: predict_proba output (auc_pr reads matrices as one-vs-rest scores)
        ([0, 1], [[0.1, 0.2], [0.3, 0.4]], {}, ValueError, r"expected a 1-D array.*shape"),
        ([0, 1], [[0.1, 0.2, 0.5], [0.3, 0.4, 0.5]], {}, ValueError, r"1-D array|3 classes"),
        ([0, 1], ["a", "b"], {}, TypeError, r"y_score: expected numbers, got 'a'"),
        (
            [0, 1, 1],
            [0.1, 0.2, 0.3],
            {"sample_weight": [1, -1, 1]},
            ValueError,
            r"sample_weight: expected non-negative.*-1.*index 1",
        ),
        (
            [0, 1, 1],
            [0.1, 0.2, 0.3],
            {"sample_weight": [0, 0, 0]},
            ValueError,
            r"sample_weight: expected some positive weight",
        ),
        (
            [0, 1, 1],
            [0.1, 0.2, 0.3],
            {"sample_weight": [1, 0, 0]},
            ValueError,
            r"y_true: expected both classes.*with positive weight",
        ),
        (
            [0, 1, 1],
            [0.1, 0.2, 0.3],
            {"sample_weight": [1, 1]},
            ValueError,
            r"sample_weight: expected length 3",
        ),
        (
            [0, 1, 1],
            [0.1, 0.2, 0.3],
            {"sample_weight": [1, np.nan, 1]},
            ValueError,
            r"sample_weight: expected finite",
        ),
        (["a", "b"], [0.1, 0.2], {}, ValueError, r"y_true: labels \['a', 'b'\].*pos_label"),
        (["a", "b"], [0.1, 0.2], {"pos_label": "c"}, ValueError, r"pos_label: expected one of"),
        ([-1, 0], [0.1, 0.2], {}, ValueError, r"y_true: labels \{-1, 0\} are ambiguous"),
        (None, [0.1], {}, TypeError, r"y_true: expected an array-like"),
        (5, [0.1], {}, ValueError, r"y_true: expected a 1-D array, got a scalar"),
    ],
)
def test_bad_input_errors(func, y, s, kwargs, error, match):
    with pytest.raises(error, match=match):
        func(y, s, **kwargs)


def test_label_encodings_agree():
    s = [0.1, 0.9, 0.4, 0.7]
    ref = pr_curve([0, 1, 0, 1], s)
    for y, kw in [
        ([False, True, False, True], {}),
        ([-1, 1, -1, 1], {}),
        (["neg", "pos", "neg", "pos"], {"pos_label": "pos"}),
        ([2, 7, 2, 7], {"pos_label": 7}),
        ([0.0, 1.0, 0.0, 1.0], {}),
    ]:
        c = pr_curve(y, s, **kw)
        np.testing.assert_array_equal(c.tp, ref.tp)
        np.testing.assert_array_equal(c.fp, ref.fp)


def test_pos_label_zero():
    c = pr_curve([0, 1, 0, 1], [0.9, 0.1, 0.8, 0.2], pos_label=0)
    assert c.tp[0] == 1 and c.n_pos == 2


def test_unknown_method():
    with pytest.raises(ValueError, match=r"method: expected one of 'average_precision'"):
        auc_pr([0, 1], [0.1, 0.2], method="simpson")


def test_small_checkers():
    assert check_level(0.9) == 0.9
    for bad in (0, 1, 1.5, float("nan")):
        with pytest.raises(ValueError, match=r"level: expected a number in \(0, 1\)"):
            check_level(bad)
    with pytest.raises(TypeError, match="level: expected a number, got str"):
        check_level("0.9")
    assert check_fraction(1.0, "x", high_open=False) == 1.0
    with pytest.raises(ValueError, match=r"recall: expected values in \(0, 1\], got 0.0"):
        check_unit_interval_array([0.5, 0.0], "recall")
    with pytest.raises(TypeError, match="recall: expected numbers"):
        check_unit_interval_array(["x"], "recall")
    with pytest.raises(ValueError, match="n: expected an integer >= 2, got 1"):
        check_positive_int(1, "n", minimum=2)
    with pytest.raises(TypeError, match="n: expected an integer, got float"):
        check_positive_int(2.0, "n")
    with pytest.raises(ValueError, match="kind: expected one of 'a', 'b', got 'c'"):
        check_choice("c", "kind", ("a", "b"))
    g = np.random.default_rng(1)
    assert check_rng(g) is g
    assert check_rng(3).random() == np.random.default_rng(3).random()
    with pytest.raises(TypeError, match="rng: expected None, an int seed"):
        check_rng("seed")


@pytest.mark.parametrize("scale", [1e308, 1e-300, 5e-324, 1e-322, 3.0])
def test_results_do_not_depend_on_the_scale_of_the_weights(scale):
    y, s = [1, 0, 1, 1, 0], [1.0, 2.0, 3.0, 3.0, 0.5]
    w = np.array([1.0, 1.0, 1.0, 1.0, 1.0])
    for method in ("average_precision", "davis_goadrich", "lower_trapezoid"):
        assert auc_pr(y, s, sample_weight=w * scale, method=method) == pytest.approx(
            auc_pr(y, s, method=method), abs=1e-12
        )
    c = pr_curve(y, s, sample_weight=w * scale)
    assert np.isfinite(c.precision).all() and np.isfinite(c.tp).all()


def test_object_labels_and_complex_scores():
    c = pr_curve(np.array([1, 0, 1], dtype=object), [0.1, 0.2, 0.3])
    assert c.tp.tolist() == [1, 1, 2]
    with pytest.raises(ValueError, match="y_true: expected class labels, got None at index 1"):
        pr_curve([1, None, 1], [0.1, 0.2, 0.3])
    with pytest.raises(TypeError, match="y_true: expected labels of one kind, got a mix of"):
        pr_curve(np.array([1, "a", 0], dtype=object), [1, 2, 3])
    with pytest.raises(TypeError, match="y_score: expected real numbers, got complex"):
        pr_curve([0, 1, 1], np.array([1 + 1j, 2, 3]))


ROW_CALLS = {
    "pr_curve": lambda y, s, w: prcurve.pr_curve(y, s, sample_weight=w),
    "roc_curve": lambda y, s, w: prcurve.roc_curve(y, s, sample_weight=w),
    "prg_curve": lambda y, s, w: prcurve.prg_curve(y, s, sample_weight=w),
    "auc_pr": lambda y, s, w: prcurve.auc_pr(y, s, sample_weight=w),
    "achievable_pr_curve": lambda y, s, w: prcurve.achievable_pr_curve(y, s, sample_weight=w),
    "operating_point": lambda y, s, w: prcurve.operating_point(
        y, s, min_recall=0.5, sample_weight=w
    ),
    "accumulator": lambda y, s, w: prcurve.PRAccumulator().update(y, s, sample_weight=w),
    "fit_binormal": lambda y, s, w: prcurve.fit_binormal(y, s, sample_weight=w),
    "cv_pr_curves": lambda y, s, w: prcurve.cv_pr_curves(y, s, folds=[0, 1] * 5, sample_weight=w),
}


@pytest.mark.parametrize(
    ("call", "which"),
    [
        (call, which)
        for call in sorted(ROW_CALLS)
        for which in ("y_true", "y_score", "sample_weight")
        # auc_pr reads a 2-D y_score as a score matrix (one row per sample, one column per
        # class): (1, 10) is one sample of 10 classes, refused for its row count (tested below)
        if (call, which) != ("auc_pr", "y_score")
    ],
)
def test_row_vectors_are_refused_with_one_message(call, which):
    """Issue 23: shape (1, n) was read as n samples; scikit-learn's ``column_or_1d`` refuses it
    ("y should be a 1d array, got an array of shape (1, 10) instead"), and so does every public
    function here, with the one message of the shared validation helper.  A column (n, 1) is
    still accepted, as in scikit-learn."""
    args = {
        "y_true": np.array([0, 1, 0, 1, 1, 0, 0, 1, 0, 1]),
        "y_score": np.linspace(0.0, 1.0, 10),
        "sample_weight": np.full(10, 2.0),
    }
    column = dict(args, **{which: args[which].reshape(-1, 1)})
    ROW_CALLS[call](column["y_true"], column["y_score"], column["sample_weight"])
    row = dict(args, **{which: args[which].reshape(1, -1)})
    pattern = (
        rf"^(fold 0: )?{which}: expected a 1-D array or a column of shape \(n, 1\), got a row "
        rf"vector of shape \(1, 10\); pass {which}\.ravel\(\) if its entries are the samples$"
    )
    with pytest.raises(ValueError, match=pattern):
        ROW_CALLS[call](row["y_true"], row["y_score"], row["sample_weight"])


def test_auc_pr_reads_a_row_of_scores_as_one_sample_of_a_score_matrix():
    with pytest.raises(
        ValueError, match=r"y_true and y_score: expected the same number of rows, got 10 and 1"
    ):
        auc_pr([0, 1] * 5, np.linspace(0, 1, 10).reshape(1, -1))


def test_row_vector_of_one_sample_is_a_column():
    """Shape (1, 1) is a column of one sample: accepted (and then refused for its one class)."""
    with pytest.raises(ValueError, match="y_true: expected both classes, got only positives"):
        pr_curve([[1]], [[0.5]])
