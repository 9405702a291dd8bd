"""prcurve.compat's Spark convention equals Spark MLlib's own areaUnderPR.

The real ``BinaryClassificationEvaluator`` (``pyspark.ml``, ``numBins`` default 1000) and the
RDD-based ``BinaryClassificationMetrics`` (``pyspark.mllib``, no binning) on several data
sets.  MLlib forms its bins per partition of its sorted counts; one input partition gives one
sorted partition, the case that ``prcurve.compat`` reproduces.
"""

import warnings

import numpy as np
import pandas as pd
import pytest

from prcurve import compat

from .conftest import require_spark

require_spark()


def datasets(rng):
    n = 3000
    y = rng.random(n) < 0.15
    y[:2] = True, False
    s = rng.normal(size=n) + 1.3 * y
    return {
        "continuous": (y, s, None),
        "ties": (y, np.round(s * 3) / 3, None),
        "dominant_tie": (y, np.where(rng.random(n) < 0.8, 0.0, np.round(s, 2)), None),
        "weights": (y, np.round(s, 2), rng.choice([0.5, 1.0, 2.0, 3.25], size=n)),
        "few_positives": (rng.random(n) < 0.01, s, None),
    }


@pytest.mark.parametrize("name", ["continuous", "ties", "dominant_tie", "weights", "few_positives"])
@pytest.mark.parametrize("num_bins", [1000, 100, 7, 0])
def test_compat_spark_equals_the_ml_evaluator(spark, name, num_bins):
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    y, s, w = datasets(np.random.default_rng(7))[name]
    y[:2] = True, False
    data = {"label": y.astype(np.float64), "score": s}
    if w is not None:
        data["weight"] = w
    df = spark.createDataFrame(pd.DataFrame(data)).coalesce(1)
    evaluator = BinaryClassificationEvaluator(
        rawPredictionCol="score", labelCol="label", metricName="areaUnderPR", numBins=num_bins
    )
    if w is not None:
        evaluator.setWeightCol("weight")
    expected = evaluator.evaluate(df)
    got = compat.auc_pr(y, s, tool="spark", sample_weight=w, num_bins=num_bins)
    # same counts, same trapezoids: only the order of the float sums differs
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)
    if num_bins:  # the binning matters on these data: the check could fail
        exact = compat.auc_pr(y, s, tool="spark", sample_weight=w, num_bins=0)
        assert (got != exact) == (np.unique(s).size // num_bins >= 2)


def test_compat_spark_equals_rdd_metrics_default(spark, rng):
    from pyspark.mllib.evaluation import BinaryClassificationMetrics

    y, s, _ = datasets(rng)["ties"]
    rdd = spark.sparkContext.parallelize(
        list(zip(s.tolist(), y.astype(np.float64).tolist(), strict=True)), 1
    )
    with warnings.catch_warnings():
        # pyspark.mllib builds a SQLContext internally, which pyspark itself deprecates
        warnings.filterwarnings("ignore", "Deprecated in 3.0.0", FutureWarning)
        metrics = BinaryClassificationMetrics(rdd)
        area = metrics.areaUnderPR
    assert compat.auc_pr(y, s, tool="spark", num_bins=0) == pytest.approx(area, rel=1e-12)
