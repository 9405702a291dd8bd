"""The Spark engine of ``prcurve report``: the data read and counted by Spark.

:func:`read_spark` reads Parquet or CSV files (a file, a directory or a glob pattern) with
``spark.read`` and returns the engine interface of :mod:`._engine`:

* the exact counts of every score column, computed in Spark by :mod:`prcurve.spark` (one
  ``groupBy`` of the rows by score summing each class, one sort of the distinct scores, the
  cumulative counts carried across partitions) and collected whole -- the same int64 counts
  as the in-memory engine's for unweighted data, and float sums taken in another order with
  ``--weight``;
* ``draw``, a stratified random subsample of the rows (one pass: each row gets a seeded
  uniform key, the rows under their class's cut reach the driver, the ``m`` smallest keys of
  each class win -- exactly the rows per class that :func:`._engine.subsample` draws -- in
  the data's order).

The labels are read by the rules of the in-memory reader (``--pos-label``, false/true pairs)
from the label column's distinct values; CSV labels are read as text, as in memory, and scores
and weights as float64 numbers.  The Spark session is opened and stopped by
:func:`spark_session` around the whole report.  PySpark is imported here only, and only when
this engine runs.
"""

from __future__ import annotations

import codecs
import contextlib
import os
import shutil
import sys
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from ..._core._counts import BinaryCounts
from .._progress import announce
from ._dask import KEY_MARGIN_ROWS, KEY_MARGIN_SD, _positive_values
from ._engine import EngineData
from ._io import InputError, LabelledScores, data_files

__all__ = ["DEFAULT_MASTER", "INSTALL", "read_spark", "spark_session"]

#: ``--master`` when not given: Spark in this process, one worker thread per core.
DEFAULT_MASTER = "local[*]"
#: More distinct labels than this are not listed (the column is not a binary label).
_LABEL_LIMIT = 64
#: What to install when PySpark or Java is missing.
INSTALL = (
    "install them with 'pip install prcurve[spark]' and a Java runtime "
    "(e.g. 'apt-get install openjdk-17-jre-headless')"
)
#: Settings of a session the report opens: small, for one report (a cluster's own defaults
#: apply to everything else).
SESSION_CONFIG = {
    "spark.driver.memory": "1g",
    "spark.sql.shuffle.partitions": "16",
    "spark.sql.execution.arrow.pyspark.enabled": "true",
    "spark.ui.showConsoleProgress": "false",
}


def _check_installed() -> None:
    """PySpark importable and a Java runtime found, or one line with the install command."""
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise InputError(f"--engine spark needs PySpark and Java; {INSTALL}") from None
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        raise InputError(f"--engine spark needs a Java runtime, none was found; {INSTALL}")


@contextlib.contextmanager
def spark_session(master: str = DEFAULT_MASTER) -> Iterator[Any]:
    """The Spark session of one report, stopped when the block ends.

    A session already running in this process (a notebook's, a test module's) is used as it
    is, and left running, when its master is ``master``; another master is refused (one
    process holds one Spark context).
    """
    _check_installed()
    from pyspark.sql import SparkSession

    active = SparkSession.getActiveSession()
    if active is not None:
        running = active.sparkContext.master
        if running != master:
            raise InputError(
                f"--master: expected the master of the Spark session already running in this "
                f"process ({running}), got {master}"
            )
        yield active
        return
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)  # executors import this prcurve
    builder = SparkSession.builder.master(master).appName("prcurve report")
    for key, value in SESSION_CONFIG.items():
        builder = builder.config(key, value)
    try:
        session = builder.getOrCreate()
    except Exception as exc:  # the JVM's errors (no Java, bad master) come in many types
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"--master {master}: cannot start Spark ({first})") from None
    session.sparkContext.setLogLevel("ERROR")
    try:
        yield session
    finally:
        session.stop()


#: The charsets Spark's CSV reader accepts, by Python's canonical codec name.
_CHARSETS = {
    "iso8859-1": "ISO-8859-1", "ascii": "US-ASCII", "utf-8": "UTF-8", "utf-16": "UTF-16",
    "utf-16-be": "UTF-16BE", "utf-16-le": "UTF-16LE", "utf-32": "UTF-32",
}  # fmt: skip


def _java_charset(encoding: str | None) -> str:
    """``--encoding`` as the name of a charset Spark's CSV reader accepts."""
    if encoding is None:
        return "UTF-8"
    try:
        name = codecs.lookup(encoding).name
    except LookupError:
        name = ""
    if name not in _CHARSETS:
        raise InputError(
            f"--encoding: expected an encoding Spark reads (latin-1, ascii, utf-8, utf-16, "
            f"utf-16-be, utf-16-le, utf-32), got {encoding!r}"
        )
    return _CHARSETS[name]


def _quoted(name: str) -> Any:
    """A column by its exact name (dots and backticks are not Spark syntax here)."""
    from pyspark.sql import functions as F

    return F.col("`" + name.replace("`", "``") + "`")


def open_frame(
    session: Any, path: str, columns: list[str], label: str, sep: str | None, encoding: str | None
) -> Any:
    """The files as a Spark DataFrame with exactly ``columns`` (CSV labels read as text)."""
    from pyspark.sql import types as T

    files = data_files(path)
    try:
        if all(f.lower().endswith((".parquet", ".pq")) for f in files):
            frame = session.read.parquet(*files)
        else:
            options = {"header": True, "sep": sep or ",", "encoding": _java_charset(encoding)}
            frame = session.read.options(inferSchema=True, **options).csv(files)
            fields = [
                T.StructField(f.name, T.StringType()) if f.name == label else f
                for f in frame.schema.fields
            ]
            frame = session.read.options(**options).schema(T.StructType(fields)).csv(files)
    except InputError:
        raise
    except Exception as exc:  # Spark raises many types for unreadable files
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise InputError(f"{path}: cannot read the data ({first})") from None
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(
            f"{path}: no column {missing[0]!r}; the columns are "
            + ", ".join(repr(str(c)) for c in frame.columns)
        )
    return frame


def _facts(frame: Any, weighted: bool) -> dict[str, Any]:
    """Rows read per class, rows of positive weight per class and Kish's effective numbers
    (one aggregation over the internal columns ``y``, ``w``)."""
    from pyspark.sql import functions as F

    aggs = [F.count(F.lit(1)).alias("read")]
    if weighted:
        w, good = F.col("w"), F.col("w") > 0
        aggs += [
            F.sum(good.cast("long")).alias("rows"),
            F.sum(F.when(good, w).otherwise(0.0)).alias("sw"),
            F.sum(F.when(good, w * w).otherwise(0.0)).alias("sw2"),
        ]
    got = {r["y"]: r.asDict() for r in frame.groupBy("y").agg(*aggs).collect()}
    out: dict[str, Any] = {
        "read": tuple(int(got.get(c, {}).get("read") or 0) for c in (True, False))
    }
    if not weighted:
        out["rows"] = out["read"]
        out["effective"] = tuple(map(float, out["read"]))
        return out
    out["rows"] = tuple(int(got.get(c, {}).get("rows") or 0) for c in (True, False))
    out["effective"] = tuple(
        float(got[c]["sw"] ** 2 / got[c]["sw2"]) if got.get(c, {}).get("sw2") else 0.0
        for c in (True, False)
    )
    return out


def _seed_of(seed: np.random.SeedSequence) -> int:
    """A Spark seed (a signed 64-bit integer) from the analysis's seed sequence."""
    return int(seed.generate_state(1, np.uint64)[0] >> np.uint64(1))


def _stratified(
    frame: Any, rows: int, seed: np.random.SeedSequence, n_rows: tuple[int, int]
) -> Any:
    """A stratified random subsample of ``rows`` rows of ``frame`` (as :func:`._engine.subsample`
    sizes it: each class in the data's proportion), in the data's order, as pandas."""
    import pandas as pd
    from pyspark.sql import functions as F

    n_pos, n_neg = n_rows
    n = n_pos + n_neg
    m_pos = min(n_pos, max(2, round(rows * n_pos / n)))
    m_neg = min(n_neg, max(2, rows - m_pos))
    cut_pos, cut_neg = (
        min(1.0, (m + KEY_MARGIN_SD * m**0.5 + KEY_MARGIN_ROWS) / max(c, 1))
        for m, c in ((m_pos, n_pos), (m_neg, n_neg))
    )
    keyed = frame.select(
        "*",
        F.rand(_seed_of(seed)).alias("__key"),
        F.monotonically_increasing_id().alias("__row"),
    )
    under = F.when(F.col("y"), F.col("__key") < cut_pos).otherwise(F.col("__key") < cut_neg)
    kept = keyed.where(under).toPandas()
    chosen = [
        kept[kept["y"] == cls].nsmallest(m, "__key") for cls, m in ((True, m_pos), (False, m_neg))
    ]
    return pd.concat(chosen).sort_values("__row", kind="stable")


def _renamed(message: str, internal: dict[str, str]) -> str:
    """A library message with the internal column names replaced by the file's."""
    for inner, outer in internal.items():
        message = message.replace(repr(inner), repr(outer))
    return message


def read_spark(
    session: Any,
    path: str,
    label: str,
    scores: Sequence[str],
    *,
    pos_label: str | None = None,
    weight: str | None = None,
    subsample: int,
    sep: str | None = None,
    encoding: str | None = None,
    progress: Any = None,
) -> EngineData:
    """Read ``path`` with Spark into the engine interface of :mod:`._engine`.

    The exact counts of every score column are computed here (so bad scores or weights fail
    before any analysis); ``draw`` hands over at most ``subsample`` rows, drawn when the
    analysis asks, so ``session`` must run until the report is written.
    """
    from pyspark.sql import functions as F

    from ...spark._curve import compute_curve

    announce(progress, "reading (spark)")
    columns = list(dict.fromkeys([label, *scores, *([weight] if weight else [])]))
    raw = open_frame(session, path, columns, label, sep, encoding)
    counts = raw.groupBy(_quoted(label).alias("y")).count().limit(_LABEL_LIMIT + 1).collect()
    if len(counts) > _LABEL_LIMIT:
        raise InputError(
            f"{path}: column {label!r} has more than {_LABEL_LIMIT} distinct labels, expected "
            "two classes"
        )
    import pandas as pd

    values = [r["y"] for r in counts]
    if pd.Index(values, dtype=object).hasnans:
        raise InputError(f"{path}: column {label!r} has missing labels")
    positive, positive_text = _positive_values(
        values, [r["count"] for r in counts], label, path, pos_label
    )
    # internal column names: the file's may hold dots or spaces, which Spark reads as syntax
    internal = {f"s{i}": name for i, name in enumerate(scores)}
    selected = [_quoted(label).isin(positive).alias("y")]
    selected += [_quoted(name).cast("double").alias(k) for k, name in internal.items()]
    if weight is not None:
        selected.append(_quoted(weight).cast("double").alias("w"))
        internal["w"] = weight
    frame = raw.select(*selected)
    if progress is not None:
        progress(1, 1)
    exact = {}
    for key, name in ((k, v) for k, v in internal.items() if k != "w"):
        announce(progress, f"{name}: exact curve (spark)")
        try:
            curve = compute_curve(
                frame, label_col="y", score_col=key, weight_col=None if weight is None else "w",
                max_points=None,
            ).curve  # fmt: skip
        except (ValueError, TypeError) as exc:
            what = f"column {name!r}" if weight is None else f"columns {name!r}/{weight!r}"
            raise InputError(f"{path}: {what}: {_renamed(str(exc), internal)}") from None
        exact[name] = BinaryCounts(curve.thresholds, curve.tp, curve.fp, curve.n_pos, curve.n_neg)
        if progress is not None:
            progress(1, 1)
    facts = _facts(frame, weight is not None)
    kept = frame.where(F.col("w") > 0) if weight is not None else frame

    def draw(rows: int, seed: np.random.SeedSequence) -> LabelledScores:
        announce(progress, "subsample (spark)")
        if rows >= sum(facts["rows"]):
            part = kept.toPandas()
        else:
            part = _stratified(kept, rows, seed, facts["rows"])
        if progress is not None:
            progress(1, 1)
        return LabelledScores(
            source=path, label_column=label, y=part["y"].to_numpy(dtype=bool),
            scores={name: part[k].to_numpy(dtype=np.float64) for k, name in internal.items()
                    if k != "w"},
            positive_label=positive_text, weight_column=weight,
            weight=None if weight is None else part["w"].to_numpy(dtype=np.float64),
        )  # fmt: skip

    return EngineData(
        engine="Spark", source=path, label_column=label, positive_label=positive_text,
        scores=tuple(scores), weight_column=weight, rows_read=facts["read"],
        n_pos_rows=facts["rows"][0], n_neg_rows=facts["rows"][1], effective=facts["effective"],
        row_limit=int(subsample), counts=exact.__getitem__, draw=draw,
    )  # fmt: skip
