"""Spark inputs: a DataFrame's label, score and weight columns, validated before any sort.

Validation is one Spark aggregation grouped by label (at most a few groups for a binary
problem): rows, missing values, non-finite scores and bad weights per label, and the class
totals.  The labels are then read by the shared helper of ``prcurve._core._validation``, so the
rules (``pos_label``, ``{-1, 1}``, booleans) and the messages are the in-memory ones, with the
column named instead of ``y_true``.  Nothing but those few groups reaches the driver.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._validation import check_binary_problem

__all__ = ["Checked", "check_spark_problem", "score_expression"]

#: More distinct labels than this: the problem is not binary (the groups are not listed).
_LABEL_LIMIT = 8


@dataclass(frozen=True)
class Checked:
    """The outcome of validation: the positive label values and the class totals."""

    positive_labels: list[Any]
    weighted: bool
    n_rows: int
    n_pos: float
    n_neg: float
    n_pos_effective: float


def _column_type(frame: Any, name: Any, parameter: str) -> Any:
    """The Spark data type of column ``name``; a clear error when it is not a column."""
    if not isinstance(name, str):
        raise TypeError(f"{parameter}: expected a column name (str), got {type(name).__name__}")
    fields = {f.name: f.dataType for f in frame.schema.fields}
    if name not in fields:
        columns = ", ".join(repr(c) for c in fields)
        raise ValueError(f"{parameter}: expected a column of the DataFrame, got {name!r} "
                         f"(the columns are {columns})")  # fmt: skip
    return fields[name]


def score_expression(frame: Any, score_col: str) -> Any:
    """The score column as a Spark expression: numbers kept in their type (integers stay
    exact), booleans and decimals as doubles (what the in-memory engine does with them)."""
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    kind = _column_type(frame, score_col, "score_col")
    column = F.col(score_col)
    if isinstance(kind, T.BooleanType | T.DecimalType):
        return column.cast("double")
    if not isinstance(kind, T.NumericType):
        raise TypeError(
            f"score_col: expected a numeric column, got {score_col!r} of type {kind.simpleString()}"
        )
    return column


def _is_float(frame: Any, score_col: str) -> bool:
    from pyspark.sql import types as T

    kind = _column_type(frame, score_col, "score_col")
    return isinstance(kind, T.DoubleType | T.FloatType | T.BooleanType | T.DecimalType)


def check_spark_problem(
    frame: Any,
    label_col: str,
    score_col: str,
    weight_col: str | None = None,
    pos_label: Any = None,
) -> Checked:
    """One aggregation over the rows; raise clear errors before anything is sorted."""
    from pyspark.sql import DataFrame
    from pyspark.sql import functions as F
    from pyspark.sql import types as T

    if not isinstance(frame, DataFrame):
        raise TypeError(f"frame: expected a pyspark.sql.DataFrame, got {type(frame).__name__}")
    _column_type(frame, label_col, "label_col")
    score = score_expression(frame, score_col)
    aggs = [
        F.count(F.lit(1)).alias("n"),
        F.sum(score.isNull().cast("long")).alias("s_null"),
    ]
    if _is_float(frame, score_col):
        s = score.cast("double")
        aggs.append(F.sum(F.isnan(s).cast("long")).alias("s_nan"))
        aggs.append(F.sum(s.isin(float("inf"), float("-inf")).cast("long")).alias("s_inf"))
    else:
        aggs += [F.lit(0).alias("s_nan"), F.lit(0).alias("s_inf")]
    weighted = weight_col is not None
    if weight_col is not None:
        kind = _column_type(frame, weight_col, "weight_col")
        if not isinstance(kind, T.NumericType):
            raise TypeError(f"weight_col: expected a numeric column, got {weight_col!r} of "
                            f"type {kind.simpleString()}")  # fmt: skip
        w = F.col(weight_col).cast("double")
        good = w.isNotNull() & ~F.isnan(w) & ~w.isin(float("inf"), float("-inf"))
        aggs += [
            F.sum((~good).cast("long")).alias("w_bad"),
            F.sum((good & (w < 0)).cast("long")).alias("w_neg"),
            F.sum(F.when(good & (w > 0), w).otherwise(0.0)).alias("w_sum"),
            F.sum(F.when(good & (w > 0), w * w).otherwise(0.0)).alias("w_sq"),
        ]
    groups = frame.groupBy(F.col(label_col).alias("y")).agg(*aggs).limit(_LABEL_LIMIT + 1)
    stats = [row.asDict() for row in groups.collect()]
    n_rows = sum(st["n"] for st in stats)
    if n_rows == 0:
        raise ValueError("label_col: expected at least one row, got an empty DataFrame")
    if sum(st["s_null"] for st in stats):
        raise ValueError(f"score_col: expected finite numbers, got missing values (null) in "
                         f"{score_col!r}; nothing was sorted")  # fmt: skip
    n_nan = sum(st["s_nan"] for st in stats)
    n_bad = n_nan + sum(st["s_inf"] for st in stats)
    if n_bad:
        kind = "NaN" if n_nan else "infinite value"
        raise ValueError(
            f"score_col: expected finite numbers, got {kind}s in {score_col!r} "
            f"({n_bad} non-finite value{'s' if n_bad > 1 else ''} in total, {n_nan} NaN); "
            "nothing was sorted"
        )
    if len(stats) > _LABEL_LIMIT:
        raise ValueError(f"label_col: expected two classes in {label_col!r}, got more than "
                         f"{_LABEL_LIMIT}")  # fmt: skip
    if any(st["y"] is None for st in stats):
        raise ValueError(f"label_col: expected labels, got missing values (null) in "
                         f"{label_col!r}")  # fmt: skip
    labels = np.array([st["y"] for st in stats])
    # the shared helper decides what the labels mean (pos_label, {-1, 1}, booleans, errors)
    try:
        is_pos, _, _ = check_binary_problem(
            labels, np.zeros(labels.shape[0]), None, pos_label, require_both=False
        )
    except (TypeError, ValueError) as err:
        raise type(err)(str(err).replace("y_true:", "label_col:", 1)) from None
    positive = [v.item() if hasattr(v, "item") else v for v in labels[is_pos]]
    if weighted:
        if sum(st["w_bad"] for st in stats) or sum(st["w_neg"] for st in stats):
            problem = "finite" if sum(st["w_bad"] for st in stats) else "non-negative"
            raise ValueError(f"weight_col: expected {problem} weights in {weight_col!r}, got "
                             "some that are not")  # fmt: skip
        pos_total = float(sum(st["w_sum"] for st, p in zip(stats, is_pos, strict=True) if p))
        neg_total = float(sum(st["w_sum"] for st, p in zip(stats, is_pos, strict=True) if not p))
        pos_sq = float(sum(st["w_sq"] for st, p in zip(stats, is_pos, strict=True) if p))
        if pos_total + neg_total == 0:
            raise ValueError("weight_col: expected some positive weight, got all zeros")
    else:
        pos_total = int(sum(st["n"] for st, p in zip(stats, is_pos, strict=True) if p))
        neg_total = int(sum(st["n"] for st, p in zip(stats, is_pos, strict=True) if not p))
    if pos_total == 0 or neg_total == 0:
        missing = "positive" if pos_total == 0 else "negative"
        raise ValueError(
            f"label_col: expected both classes, got only "
            f"{'negatives' if pos_total == 0 else 'positives'} (no {missing} sample"
            f"{' with positive weight' if weighted else ''})"
        )
    n_eff = pos_total**2 / pos_sq if weighted else pos_total
    return Checked(positive, weighted, n_rows, pos_total, neg_total, n_eff)
