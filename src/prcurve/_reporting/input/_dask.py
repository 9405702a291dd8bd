"""The input of ``prcurve report --engine dask``: data too large for memory, read on Dask.

:func:`read_dask` reads Parquet or CSV files (a file, a directory or a glob pattern) as a Dask
frame and returns, as a :class:`DaskInput`, the exact curve of every score column, computed out
of core from the sorted distinct scores by :mod:`prcurve.dask` (thinned for the page and the
CSV files), and a uniform random subsample of a stated size (all rows when they are fewer) for
what needs the raw rows.  The analysis of the two is engine-independent
(:func:`..analysis.analyse_exact`).

Dask is imported here only, and only when this engine runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from .._progress import announce
from ._io import (
    InputError,
    LabelledScores,
    _label_text,
    data_files,
    input_bytes,
    is_collection,
    positive_class,
)
from ._numbers import pandas_exact_floats

__all__ = [
    "DEFAULT_SUBSAMPLE",
    "DaskInput",
    "input_bytes",
    "is_collection",
    "open_frame",
    "read_dask",
]

#: Rows of the uniform subsample used for the resampling parts of a Dask report.
DEFAULT_SUBSAMPLE = 200_000
#: Points kept in the report's curves (the thinning bound is stated in the report).
REPORT_POINTS = 5000


def _read_row_group(piece: tuple[str, int], columns: list[str]) -> Any:
    """One row group of one Parquet file as a pandas DataFrame (one Dask partition)."""
    import pyarrow.parquet as pq

    path, group = piece
    return pq.ParquetFile(path).read_row_group(group, columns=columns).to_pandas()


def _parquet_frame(files: list[str], columns: list[str], source: str) -> Any:
    """A dask DataFrame with one partition per row group of the files (read by pyarrow)."""
    import dask.dataframe as dd
    import pyarrow.parquet as pq

    pieces = []
    meta = None
    for f in files:
        pf = pq.ParquetFile(f)
        names = pf.schema_arrow.names
        missing = [c for c in columns if c not in names]
        if missing:
            raise InputError(
                f"{source}: no column {missing[0]!r} in {f}; the columns are "
                + ", ".join(repr(str(c)) for c in names)
            )
        if meta is None:
            meta = pf.schema_arrow.empty_table().select(columns).to_pandas()
        pieces += [(f, g) for g in range(pf.num_row_groups)]
    return dd.from_map(_read_row_group, pieces, columns=columns, meta=meta, enforce_metadata=False)


def open_frame(
    path: str,
    label: str,
    scores: Sequence[str],
    sep: str | None = None,
    encoding: str | None = None,
) -> Any:
    """A lazy dask DataFrame of the label and score columns (Parquet or CSV files)."""
    try:
        import dask.dataframe as dd
        import pandas as pd
    except ImportError:
        raise InputError(
            "--engine dask needs Dask; install it with 'pip install prcurve[dask]'"
        ) from None
    files = data_files(path)
    columns = list(dict.fromkeys([label, *scores]))
    try:
        if all(f.lower().endswith((".parquet", ".pq")) for f in files):
            return _parquet_frame(files, columns, path)
        frame = dd.read_csv(
            files,
            blocksize="64MB",
            sep=sep or ",",
            encoding=encoding or "utf-8",
            **pandas_exact_floats(pd.__version__),  # the nearest float64, as in memory
        )
    except InputError:
        raise
    except Exception as exc:  # dask/pyarrow raise many types for unreadable files
        raise InputError(f"{path}: cannot read the data ({exc})") from None
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise InputError(
            f"{path}: no column {missing[0]!r}; the columns are "
            + ", ".join(repr(str(c)) for c in frame.columns)
        )
    return frame[columns]


def _positive_values(
    counts: Any, label: str, source: str, pos_label: str | None
) -> tuple[list[Any], str]:
    """Which label values are positive (the rules of the in-memory reader), from value counts."""
    if counts.index.hasnans:
        raise InputError(f"{source}: column {label!r} has missing labels")
    names = [_label_text(v) for v in counts.index.tolist()]
    classes: dict[str, list[Any]] = {}
    rows: dict[str, int] = {}
    for name, value, k in zip(names, counts.index.tolist(), counts.tolist(), strict=True):
        key = name.strip()
        classes.setdefault(key, []).append(value)
        rows[key] = rows.get(key, 0) + int(k)
    keys = sorted(classes)
    k = positive_class(keys, [rows[c] for c in keys], label, source, pos_label)
    return classes[keys[k]], keys[k]


def _subsample(frame: Any, n: int, size: int, seed: int | None) -> tuple[Any, bool]:
    """A uniform random subsample of about ``size`` rows (all rows when there are fewer)."""
    if n <= size:
        return frame.compute(), False
    part = frame.sample(frac=size / n, random_state=seed).compute()
    return part, True


@dataclasses.dataclass(frozen=True)
class DaskInput:
    """What the Dask engine reads: the exact curves and a subsample for the resampling."""

    #: Score column → its exact curve (``prcurve.dask``'s result: ``curve``, ``n_rows``,
    #: ``n_pos_effective``, ``n_distinct``).
    exact: dict[str, Any]
    #: A uniform random subsample of the rows (all of them when they are fewer).
    sample: LabelledScores
    #: Rows of the whole data.
    n_rows: int
    #: Whether :attr:`sample` is a proper subsample (False: every row).
    sampled: bool


def read_dask(
    path: str,
    label: str,
    scores: Sequence[str],
    *,
    pos_label: str | None = None,
    subsample: int = DEFAULT_SUBSAMPLE,
    seed: int | None = None,
    workdir: str | None = None,
    sep: str | None = None,
    encoding: str | None = None,
    progress: Any = None,
) -> DaskInput:
    """Read ``path`` on Dask into the exact curve of every score column and a subsample.

    Run it inside ``prcurve.dask._curve.scheduler_context`` to choose the scheduler;
    ``workdir`` is passed to :func:`prcurve.dask.pr_curve`; ``seed`` draws the subsample.
    """
    from ...dask._curve import compute_curve

    announce(progress, "reading (dask)")
    frame = open_frame(path, label, scores, sep, encoding)
    counts = frame[label].value_counts(dropna=False).compute()
    positive, positive_text = _positive_values(counts, label, path, pos_label)
    is_pos = frame[label].isin(positive)
    if progress is not None:
        progress(1, 1)
    exact: dict[str, Any] = {}
    for name in scores:
        announce(progress, f"{name}: exact curve (dask)")
        try:
            exact[name] = compute_curve(
                is_pos, frame[name], max_points=REPORT_POINTS, workdir=workdir
            )
        except (ValueError, TypeError) as exc:
            raise InputError(f"{path}: column {name!r}: {exc}") from None
        if progress is not None:
            progress(1, 1)
    n = exact[scores[0]].n_rows
    announce(progress, "subsample")
    rows, sampled = _subsample(frame, n, subsample, seed)
    if progress is not None:
        progress(1, 1)
    sample = LabelledScores(
        source=path,
        label_column=label,
        y=rows[label].isin(positive).to_numpy(),
        scores={s: rows[s].to_numpy(dtype=np.float64) for s in scores},
        positive_label=positive_text,
    )
    return DaskInput(exact=exact, sample=sample, n_rows=n, sampled=sampled)
