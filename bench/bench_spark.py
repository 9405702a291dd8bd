"""prcurve.spark against Spark MLlib's BinaryClassificationEvaluator on the same DataFrame.

For n rows of continuous scores (binormal, 10 % positives, every score distinct), written to
Parquet and read by a local Spark session (``local[2]``, driver memory 2 GB):

* ``prcurve.spark``: the exact curve thinned to 2,000 points with every AUC-PR estimate of
  the full curve (``pr_curve``), seconds;
* MLlib: ``BinaryClassificationEvaluator(metricName="areaUnderPR")`` at its default
  ``numBins=1000``, seconds, and its error against the exact AP and Davis–Goadrich area;
* in the same run, ``numpy.sort`` of the n scores and in-memory ``prcurve.pr_curve``, seconds,
  and the ratio of each Spark time to ``numpy.sort``'s.

Usage: ``python bench/bench_spark.py [--sizes 1000000 10000000] [--quick]``.  One run per
size (Spark's own start-up is excluded: the session is started once).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time

import numpy as np


def _data(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    s = rng.normal(size=n) + 1.5 * y
    return y, s


def _timed(func):
    start = time.perf_counter()
    out = func()
    return out, time.perf_counter() - start


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1_000_000, 10_000_000])
    parser.add_argument("--quick", action="store_true", help="tiny sizes (a smoke test)")
    args = parser.parse_args(argv)
    sizes = [20_000] if args.quick else args.sizes

    import pyarrow as pa
    import pyarrow.parquet as pq
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import SparkSession

    import prcurve
    import prcurve.spark

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.driver.memory", "2g")
        .config("spark.sql.shuffle.partitions", "8")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    header = (
        "| rows | numpy.sort s | pr_curve (memory) s | prcurve.spark s | MLlib s | "
        "prcurve.spark / sort | MLlib / sort | MLlib − AP | MLlib − DG |"
    )
    print(header)
    print("|---" * 9 + "|")
    with tempfile.TemporaryDirectory(prefix="bench-spark-") as folder:
        for n in sizes:
            y, s = _data(n)
            path = os.path.join(folder, f"data-{n}.parquet")
            pq.write_table(
                pa.table({"label": y.astype(np.float64), "score": s}), path, row_group_size=10**6
            )
            _, t_sort = _timed(lambda s=s: np.sort(s))
            full, t_mem = _timed(lambda y=y, s=s: prcurve.pr_curve(y, s))
            ap, dg = full.auc("average_precision"), full.auc("davis_goadrich")
            del full
            df = spark.read.parquet(path)
            curve, t_spark = _timed(lambda df=df: prcurve.spark.pr_curve(df))
            assert curve.auc("average_precision") == ap or abs(curve.auc() - ap) < 1e-12
            evaluator = BinaryClassificationEvaluator(
                rawPredictionCol="score", labelCol="label", metricName="areaUnderPR"
            )
            mllib, t_mllib = _timed(lambda df=df, e=evaluator: e.evaluate(df))
            print(
                f"| {n:.0e} | {t_sort:.2f} | {t_mem:.2f} | {t_spark:.1f} | {t_mllib:.1f} | "
                f"{t_spark / t_sort:.0f}× | {t_mllib / t_sort:.0f}× | {mllib - ap:+.2e} | "
                f"{mllib - dg:+.2e} |",
                flush=True,
            )
    spark.stop()


if __name__ == "__main__":
    main()
