"""prcurve.spark on a real local Spark session equals the in-memory engine exactly."""

import numpy as np
import pandas as pd
import pytest

import prcurve
from prcurve._core._area import AUC_PR_METHODS

from ..core.test_thin import observed_error
from .conftest import require_spark

require_spark()

import prcurve.spark  # noqa: E402


def make(kind, rng, n=4000):
    y = rng.random(n) < 0.1
    y[:2] = True, False
    s = rng.normal(size=n) + 1.5 * y
    w = None
    if kind == "ties":
        s = np.round(s * 4) / 4
    elif kind == "weights":  # dyadic weights: every order of summing is exact
        s = np.round(s, 1)
        w = rng.choice([0.0, 0.5, 1.0, 2.5], size=n)
        w[:2] = 1.0
    elif kind == "dominant_tie":  # 90 % of the rows at score 0
        s = np.where(rng.random(n) < 0.9, 0.0, np.round(s, 2))
    elif kind == "constant":
        s = np.full(n, 0.25)
    elif kind == "integers":
        s = np.floor(s * 3).astype(np.int64)
    return y, s, w


def frame(spark, y, s, w=None, parts=3, label=None):
    data = {"label": y.astype(np.int64) if label is None else label, "score": s}
    if w is not None:
        data["weight"] = w
    return spark.createDataFrame(pd.DataFrame(data)).repartition(parts)


def assert_areas(got, full):
    for method in AUC_PR_METHODS:
        assert got.auc(method) == pytest.approx(full.auc(method), abs=1e-12), method


@pytest.fixture(params=[1, 5], ids=["1part", "5parts"])
def parts(request, spark):
    """Partitions of the input and of the sorted distinct scores (so passes cross edges)."""
    spark.conf.set("spark.sql.shuffle.partitions", str(request.param))
    yield request.param
    spark.conf.set("spark.sql.shuffle.partitions", "4")


@pytest.mark.parametrize("kind", ["ties", "weights", "dominant_tie", "constant", "integers"])
def test_equals_in_memory_exactly(spark, rng, parts, kind):
    y, s, w = make(kind, rng)
    full = prcurve.pr_curve(y, s, sample_weight=w)
    df = frame(spark, y, s, w, parts)
    got = prcurve.spark.pr_curve(df, weight_col=None if w is None else "weight", max_points=None)
    assert got.thinning is None
    np.testing.assert_array_equal(got.thresholds, full.thresholds)
    assert got.thresholds.dtype == full.thresholds.dtype
    np.testing.assert_array_equal(got.tp, full.tp)
    np.testing.assert_array_equal(got.fp, full.fp)
    assert got.tp.dtype == full.tp.dtype
    assert (got.n_pos, got.n_neg) == (full.n_pos, full.n_neg)
    assert_areas(got, full)


@pytest.mark.parametrize("kind", ["continuous", "weights_continuous", "dominant_tie"])
def test_thinned_curve_carries_the_exact_areas_and_hull(spark, rng, parts, kind):
    y, s, w = make("continuous", rng, n=5000)
    if kind == "weights_continuous":
        w = rng.random(y.size) * 2
    elif kind == "dominant_tie":
        s = np.where(rng.random(y.size) < 0.9, 0.0, s)
    full = prcurve.pr_curve(y, s, sample_weight=w)
    df = frame(spark, y, s, w, parts)
    got = prcurve.spark.pr_curve(df, weight_col=None if w is None else "weight", max_points=120)
    info = got.thinning
    assert info.n_points == full.tp.shape[0] > 120
    assert_areas(got, full)
    assert info.roc_auc == pytest.approx(full.to_roc().auc(), abs=1e-12)
    a, b = got.achievable(), full.achievable()
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    np.testing.assert_allclose(a.tp, b.tp, rtol=1e-12)
    assert got.thresholds[0] == full.thresholds[0] and got.thresholds[-1] == full.thresholds[-1]
    assert observed_error(full, got) <= info.max_precision_error + 1e-12


def test_random_weights_equal_to_rounding(spark, rng):
    """Float weights are summed in another order: equal within 2 n u (see the module)."""
    y, s, _ = make("ties", rng)
    w = rng.random(y.size) * 3
    full = prcurve.pr_curve(y, s, sample_weight=w)
    got = prcurve.spark.pr_curve(frame(spark, y, s, w), weight_col="weight", max_points=None)
    np.testing.assert_array_equal(got.thresholds, full.thresholds)
    tol = 2 * y.size * 2.0**-53
    np.testing.assert_allclose(got.tp, full.tp, rtol=tol)
    np.testing.assert_allclose(got.fp, full.fp, rtol=tol)


def test_empty_partitions_and_string_labels(spark, rng):
    y, s, _ = make("ties", rng, n=600)
    label = np.where(y, "fraud", "ok")
    df = frame(spark, y, s, parts=2, label=label).repartition(40)  # most partitions empty
    sparse = df.where("score > -100")  # keeps every row
    got = prcurve.spark.pr_curve(sparse, pos_label="fraud", max_points=None)
    full = prcurve.pr_curve(y, s)
    np.testing.assert_array_equal(got.tp, full.tp)
    np.testing.assert_array_equal(got.fp, full.fp)
    spark.conf.set("spark.sql.shuffle.partitions", "50")  # sorted table: empty partitions
    try:
        thin = prcurve.spark.pr_curve(df, pos_label="fraud", max_points=5)
    finally:
        spark.conf.set("spark.sql.shuffle.partitions", "4")
    assert_areas(thin, full)


def test_auc_pr_and_interval(spark, rng):
    y, s, w = make("weights", rng)
    df = frame(spark, y, s, w)
    for method in AUC_PR_METHODS:
        got = prcurve.spark.auc_pr(df, weight_col="weight", method=method)
        assert got == pytest.approx(prcurve.auc_pr(y, s, method=method, sample_weight=w),
                                    abs=1e-12)  # fmt: skip
    got = prcurve.spark.auc_pr_ci(df, weight_col="weight", interval="binomial")
    ref = prcurve.auc_pr_ci(y, s, sample_weight=w, method="average_precision",
                            interval="binomial")  # fmt: skip
    assert got.interval.low == pytest.approx(ref.interval.low, abs=1e-12)
    assert got.interval.high == pytest.approx(ref.interval.high, abs=1e-12)


@pytest.mark.parametrize(
    ("labels", "message"),
    [
        ([1, 1, 1], r"label_col: expected both classes, got only positives \(no negative sample\)"),
        ([0, 0, 0], r"label_col: expected both classes, got only negatives \(no positive sample\)"),
    ],
)
def test_one_class_is_the_in_memory_error(spark, labels, message):
    s = np.array([0.1, 0.2, 0.3])
    with pytest.raises(ValueError, match=message.replace("label_col", "y_true")):
        prcurve.pr_curve(labels, s)
    with pytest.raises(ValueError, match=message):
        prcurve.spark.pr_curve(frame(spark, np.array(labels), s))


def test_bad_input_errors(spark):
    df = spark.createDataFrame(
        pd.DataFrame(
            {
                "label": [0, 1, 1],
                "score": [0.1, np.nan, 0.3],
                "w": [1.0, -1.0, 1.0],
                "name": ["a", "b", "c"],
            }
        )
    )
    with pytest.raises(ValueError, match=r"score_col: expected finite numbers, got missing "):
        prcurve.spark.pr_curve(df)  # pandas' NaN is Spark's null
    nan = spark.createDataFrame([(0, float("nan")), (1, 1.0)], "label long, score double")
    with pytest.raises(
        ValueError,
        match=r"score_col: expected finite numbers, got NaNs in 'score' \(1 non-finite value "
        r"in total, 1 NaN\); nothing was sorted",
    ):
        prcurve.spark.pr_curve(nan)
    with pytest.raises(ValueError, match=r"score_col: expected a column of the DataFrame, got "
                                         r"'nope'"):  # fmt: skip
        prcurve.spark.pr_curve(df, score_col="nope")
    with pytest.raises(TypeError, match=r"score_col: expected a numeric column, got 'name'"):
        prcurve.spark.pr_curve(df, score_col="name")
    ok = df.where("label = 0 or score > 0.2")
    with pytest.raises(ValueError, match=r"weight_col: expected non-negative weights"):
        prcurve.spark.pr_curve(df.fillna(0.2, ["score"]), weight_col="w")
    with pytest.raises(ValueError, match=r"max_points: expected an integer >= 2"):
        prcurve.spark.pr_curve(ok, max_points=1)
    with pytest.raises(TypeError, match=r"frame: expected a pyspark.sql.DataFrame, got list"):
        prcurve.spark.pr_curve([1, 2])
    with pytest.raises(ValueError, match=r"label_col: expected two classes in 'score', got "
                                         r"more than 8"):  # fmt: skip
        prcurve.spark.pr_curve(spark.range(20).selectExpr("id as score", "id * 0.5 as s"),
                               label_col="score", score_col="s")  # fmt: skip
    with pytest.raises(ValueError, match=r"method: expected one of"):
        prcurve.spark.auc_pr(ok, method="nope")
