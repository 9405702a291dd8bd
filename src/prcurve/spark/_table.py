"""The sorted table of distinct scores, built by Spark, and passes over its partitions.

Spark's own ``groupBy`` sums the positive and negative weight (or count) of every distinct
score, and its ``orderBy`` range-partitions and sorts the distinct scores, highest first: that
shuffles the rows once for the aggregation (with map-side partial sums, so one enormous tie
costs one row per input partition) and the distinct scores once for the sort.  The sorted
table is pinned with ``localCheckpoint`` so that every later pass sees the same partitions.

A pass runs one function of :mod:`prcurve.dask._passes` on each partition of the table, on the
executors, through ``mapInArrow`` (the columns travel as Arrow batches, not as Python rows);
each partition returns one small pickled result (totals, area terms, hull candidates, chosen
points) and only these reach the driver, ordered by partition.
"""

from __future__ import annotations

import pickle
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from ._input import Checked, score_expression

__all__ = ["SortedTable", "map_partitions", "sorted_table"]


@dataclass(frozen=True)
class SortedTable:
    """The checkpointed DataFrame (``s``, ``pos``, ``neg``; scores decreasing across and
    within partitions) and the NumPy dtypes of its columns."""

    frame: Any
    dtypes: tuple[np.dtype, np.dtype, np.dtype]


def _numpy_dtype(kind: Any) -> np.dtype:
    from pyspark.sql import types as T

    table = {
        T.DoubleType: np.float64,
        T.FloatType: np.float32,
        T.LongType: np.int64,
        T.IntegerType: np.int32,
        T.ShortType: np.int16,
        T.ByteType: np.int8,
    }
    for spark_type, dtype in table.items():
        if isinstance(kind, spark_type):
            return np.dtype(dtype)
    return np.dtype(np.float64)


def sorted_table(
    frame: Any, checked: Checked, label_col: str, score_col: str, weight_col: str | None
) -> SortedTable:
    """Positive and negative weight per distinct score, sorted by decreasing score."""
    from pyspark.sql import functions as F

    is_pos = F.col(label_col).isin(checked.positive_labels)
    score = score_expression(frame, score_col).alias("s")
    if checked.weighted and weight_col is not None:
        w = F.col(weight_col).cast("double")
        rows = frame.where(w > 0).select(
            score,
            F.when(is_pos, w).otherwise(0.0).alias("pos"),
            F.when(is_pos, 0.0).otherwise(w).alias("neg"),
        )
    else:
        rows = frame.select(
            score,
            is_pos.cast("long").alias("pos"),
            (~is_pos).cast("long").alias("neg"),
        )
    distinct = rows.groupBy("s").agg(F.sum("pos").alias("pos"), F.sum("neg").alias("neg"))
    ordered = distinct.orderBy(F.col("s").desc()).localCheckpoint(eager=True)
    fields = {f.name: f.dataType for f in ordered.schema.fields}
    dtypes = (
        _numpy_dtype(fields["s"]),
        _numpy_dtype(fields["pos"]),
        _numpy_dtype(fields["neg"]),
    )
    return SortedTable(ordered, dtypes)


def _partition(batches: Iterator[Any], dtypes: tuple[np.dtype, ...]) -> Any:
    """One partition's batches as a pandas DataFrame (``s``, ``pos``, ``neg``)."""
    import pandas as pd

    columns: list[list[np.ndarray]] = [[], [], []]
    for batch in batches:
        for i in range(3):
            columns[i].append(batch.column(i).to_numpy(zero_copy_only=False))
    data = {
        name: np.concatenate(c).astype(d, copy=False) if c else np.empty(0, d)
        for name, c, d in zip(("s", "pos", "neg"), columns, dtypes, strict=True)
    }
    return pd.DataFrame(data)


def map_partitions(table: SortedTable, func: Callable[[int, Any], Any]) -> list[Any]:
    """``func(partition index, partition as a pandas DataFrame)`` on every partition of the
    sorted table, run by the executors; the results in partition order (highest scores
    first), empty partitions included."""
    dtypes = table.dtypes

    def run(batches: Iterator[Any]) -> Iterator[Any]:
        import pyarrow as pa
        from pyspark import TaskContext

        context = TaskContext.get()
        index = context.partitionId() if context is not None else 0
        out = pickle.dumps(func(index, _partition(batches, dtypes)))
        yield pa.RecordBatch.from_pydict(
            {"index": [index], "out": [out]},
            schema=pa.schema([("index", pa.int64()), ("out", pa.binary())]),
        )

    rows = table.frame.mapInArrow(run, "index long, out binary").collect()
    got = {int(r["index"]): pickle.loads(r["out"]) for r in rows}
    # a partition that Spark skipped (no rows, no task output) is an empty one
    n_parts = max([table.frame.rdd.getNumPartitions(), *(i + 1 for i in got)])
    return [got[i] if i in got else func(i, _partition(iter(()), dtypes)) for i in range(n_parts)]
