"""The Dask engine of ``prcurve report``: data too large for memory, read on Dask.

:func:`read_dask` reads Parquet or CSV files (a file, a directory or a glob pattern) as a Dask
frame and returns the engine interface of :mod:`._engine`: the exact counts of every score
column, computed out of core from the sorted distinct scores by :mod:`prcurve.dask` (weights
summed per distinct score with ``--weight``), and ``draw``, a stratified random subsample of
the rows (one pass; each row kept by a uniform key, the smallest keys of each class win, rows
in the data's order).  The analysis of the two is engine-independent
(:func:`..analysis.analyse`).

Dask is imported here only, and only when this engine runs.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..._core._counts import BinaryCounts
from .._progress import announce
from ._dask_locate import first_problem
from ._engine import EngineData
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
from ._public_names import in_column_terms

__all__ = [
    "DEFAULT_SUBSAMPLE",
    "input_bytes",
    "is_collection",
    "open_frame",
    "read_dask",
]

#: Rows of the uniform subsample used for the resampling parts of a Dask report.
DEFAULT_SUBSAMPLE = 200_000


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
    weight: str | None = None,
) -> Any:
    """A lazy dask DataFrame of the label, score (and weight) columns (Parquet or CSV files)."""
    try:
        import dask.dataframe as dd
        import pandas as pd
    except ImportError:
        raise InputError(
            "--engine dask needs Dask; install it with 'pip install prcurve[dask]'"
        ) from None
    files = data_files(path)
    columns = list(dict.fromkeys([label, *scores, *([weight] if weight else [])]))
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
    values: list[Any], counts: list[int], label: str, source: str, pos_label: str | None
) -> tuple[list[Any], str]:
    """Which label values are positive (the rules of the in-memory reader), from the distinct
    values and their rows."""
    names = [_label_text(v) for v in values]
    classes: dict[str, list[Any]] = {}
    rows: dict[str, int] = {}
    for name, value, k in zip(names, values, counts, strict=True):
        key = name.strip()
        classes.setdefault(key, []).append(value)
        rows[key] = rows.get(key, 0) + int(k)
    keys = sorted(classes)
    k = positive_class(keys, [rows[c] for c in keys], label, source, pos_label)
    return classes[keys[k]], keys[k]


#: Stratified draw: a class's rows are kept when their uniform key is below
#: ``(m + KEY_MARGIN_SD·√m + KEY_MARGIN_ROWS) / n``, then the ``m`` smallest keys win; the kept
#: rows fall short of ``m`` with probability below 10⁻⁹ (then all of them are used).
KEY_MARGIN_SD = 6.0
KEY_MARGIN_ROWS = 20


def _keyed_rows(
    part: Any, index: int, seed: np.random.SeedSequence, positive: list[Any], label: str,
    weight: str | None, cut: tuple[float, float],
) -> Any:  # fmt: skip
    """The rows of one partition whose uniform key is under their class's cut, with the key,
    the class and their place in the data (partition, row)."""
    if weight is not None:
        part = part[part[weight].to_numpy() > 0]
    is_pos = part[label].isin(positive).to_numpy()
    key = np.random.default_rng(seed).random(is_pos.shape[0])
    keep = key < np.where(is_pos, cut[0], cut[1])
    out = part[keep].copy()
    out["__key"], out["__pos"] = key[keep], is_pos[keep]
    out["__part"], out["__row"] = index, np.flatnonzero(keep)
    return out


def _stratified(frame: Any, rows: int, seed: np.random.SeedSequence, facts: dict[str, Any]) -> Any:
    """A stratified random subsample of ``rows`` rows of ``frame`` (as :func:`._engine.subsample`
    sizes it: each class in the data's proportion), in the data's order."""
    import dask
    import pandas as pd

    n_pos, n_neg = facts["rows"]
    n = n_pos + n_neg
    m_pos = min(n_pos, max(2, round(rows * n_pos / n)))
    m_neg = min(n_neg, max(2, rows - m_pos))
    cut = tuple(
        min(1.0, (m + KEY_MARGIN_SD * m**0.5 + KEY_MARGIN_ROWS) / max(c, 1))
        for m, c in ((m_pos, n_pos), (m_neg, n_neg))
    )
    parts = frame.to_delayed()
    seeds = seed.spawn(len(parts))
    keyed = dask.compute(*[
        dask.delayed(_keyed_rows)(p, i, s, facts["positive"], facts["label"], facts["weight"], cut)
        for i, (p, s) in enumerate(zip(parts, seeds, strict=True))
    ])  # fmt: skip
    kept = pd.concat(keyed, ignore_index=True)
    chosen = [
        kept[kept["__pos"] == cls].nsmallest(m, "__key")
        for cls, m in ((True, m_pos), (False, m_neg))
    ]
    return pd.concat(chosen).sort_values(["__part", "__row"], kind="stable")


def _data_facts(frame: Any, label: str, positive: list[Any], weight: str | None) -> dict[str, Any]:
    """Rows of positive weight per class and Kish's effective numbers (one pass; the rows per
    class when unweighted)."""
    import dask

    def part_sums(part: Any) -> np.ndarray:
        is_pos = part[label].isin(positive).to_numpy()
        w = part[weight].to_numpy(dtype=np.float64)
        out = []
        for cls in (is_pos, ~is_pos):
            wc = w[cls & (w > 0)]
            out += [wc.shape[0], wc.sum(), np.sum(wc**2)]
        return np.array(out, dtype=np.float64)

    sums = sum(dask.compute(*[dask.delayed(part_sums)(p) for p in frame.to_delayed()]))
    rows = (int(sums[0]), int(sums[3]))
    return {"rows": rows, "effective": (sums[1] ** 2 / sums[2], sums[4] ** 2 / sums[5])}


def _labels_in_statistics(files: list[str], label: str) -> list[Any] | None:
    """The label column's two values when the Parquet files' statistics settle them, else None.

    They do when the column is of one Arrow type in every file, boolean or integer (not a
    duration, date or other type stored as integers), with a maximum one above its minimum,
    and every row group holding rows states its minimum, maximum and a null count of zero: its
    values are then the two ends (a row group's minimum and maximum are values it holds).  The
    label column is then not read for its value counts (a second of the 10⁸-row report): each
    class's rows come from the exact counts.  Anything else (CSV, strings, floats, missing
    statistics) is left to the value counts.
    """
    if not all(f.lower().endswith((".parquet", ".pq")) for f in files):
        return None
    import pyarrow as pa
    import pyarrow.parquet as pq

    kinds = set()
    low: Any = None
    high: Any = None
    for f in files:
        pf = pq.ParquetFile(f)
        names = pf.schema_arrow.names
        if names.count(label) != 1:
            return None
        field = pf.schema_arrow.field(label)
        if not (pa.types.is_boolean(field.type) or pa.types.is_integer(field.type)):
            return None
        kinds.add(field.type)
        meta = pf.metadata
        paths = [meta.schema.column(j).path for j in range(meta.num_columns)]
        if paths.count(label) != 1:
            return None
        j = paths.index(label)
        for g in range(meta.num_row_groups):
            group = meta.row_group(g)
            if group.num_rows == 0:
                continue
            stats = group.column(j).statistics
            if (
                stats is None
                or not stats.has_min_max
                or not stats.has_null_count
                or stats.null_count != 0
            ):
                return None
            low = stats.min if low is None else min(low, stats.min)
            high = stats.max if high is None else max(high, stats.max)
    if low is None or len(kinds) != 1:
        return None
    if (low, high) == (False, True) or (not isinstance(low, bool) and high - low == 1):
        return [low, high]
    return None


def _exact_counts(
    frame: Any, path: str, label: str, scores: Sequence[str], pos_label: str | None,
    weight: str | None, workdir: str | None, progress: Any,
) -> tuple[list[Any], str, tuple[int, int], dict[str, BinaryCounts]]:  # fmt: skip
    """The positive label values, their text, the rows read per class (positives, negatives)
    and every score column's exact counts (a bad value raises the library's
    ``ValueError``/``TypeError``)."""
    from ...dask._curve import compute_counts

    values = None if weight is not None else _labels_in_statistics(data_files(path), label)
    counts = None
    try:  # the same classes as the value counts give (rows: only for messages)
        if values is None:
            raise InputError("")
        positive, positive_text = _positive_values(values, [0, 0], label, path, pos_label)
    except InputError:
        counts = frame[label].value_counts(dropna=False).compute()
        if counts.index.hasnans:
            raise InputError(f"{path}: column {label!r} has missing labels") from None
        positive, positive_text = _positive_values(
            counts.index.tolist(), counts.tolist(), label, path, pos_label
        )
    is_pos = frame[label].isin(positive)
    if progress is not None:
        progress(1, 1)
    exact = {}
    for name in scores:
        announce(progress, f"{name}: exact curve (dask)")
        exact[name] = compute_counts(
            is_pos, frame[name], sample_weight=None if weight is None else frame[weight],
            workdir=workdir,
        )  # fmt: skip
        if progress is not None:
            progress(1, 1)
    if counts is None:  # unweighted: the counts' totals are rows
        first = exact[scores[0]]
        return positive, positive_text, (int(first.n_pos), int(first.n_neg)), exact
    read_pos = int(counts[counts.index.isin(positive)].sum())
    return positive, positive_text, (read_pos, int(counts.sum()) - read_pos), exact


def read_dask(
    path: str,
    label: str,
    scores: Sequence[str],
    *,
    pos_label: str | None = None,
    weight: str | None = None,
    subsample: int = DEFAULT_SUBSAMPLE,
    workdir: str | None = None,
    scheduler: Any = None,
    sep: str | None = None,
    encoding: str | None = None,
    progress: Any = None,
) -> EngineData:
    """Read ``path`` on Dask into the engine interface of :mod:`._engine`.

    The exact counts of every score column are computed here (so bad scores or weights fail
    before any analysis); ``draw`` hands over at most ``subsample`` rows, drawn when the
    analysis asks.  Both run on ``scheduler`` (``prcurve.dask._curve.scheduler_context``);
    ``workdir`` is passed to :func:`prcurve.dask.pr_curve`.
    """
    from ...dask._curve import scheduler_context

    if path == "-":
        raise InputError(
            "-: the Dask engine reads files, not standard input; pass a file name (or use "
            "--engine memory to read standard input)"
        )
    announce(progress, "reading (dask)")
    with scheduler_context(scheduler):
        frame = open_frame(path, label, scores, sep, encoding, weight)
        try:
            positive, positive_text, rows_read, exact = _exact_counts(
                frame, path, label, scores, pos_label, weight, workdir, progress
            )
        except InputError:
            raise
        except (ValueError, TypeError) as exc:  # a bad value: say where, as in memory
            found = first_problem(data_files(path), label, scores, weight, sep, encoding)
            if found is not None:
                raise InputError(found) from None
            named = {
                "y_score": scores[0] if len(scores) == 1 else "",
                "sample_weight": weight or "",
            }
            reason = in_column_terms(str(exc).splitlines()[0], named)
            raise InputError(f"{path}: cannot read the data ({reason})") from None
        facts: dict[str, Any] = {"rows": rows_read, "effective": tuple(map(float, rows_read))}
        if weight is not None:
            facts = _data_facts(frame, label, positive, weight)
    facts.update(positive=positive, label=label, weight=weight)

    def draw(rows: int, seed: np.random.SeedSequence) -> LabelledScores:
        announce(progress, "subsample (dask)")
        with scheduler_context(scheduler):
            if rows >= sum(facts["rows"]):
                part = frame.compute()
                if weight is not None:
                    part = part[part[weight].to_numpy() > 0]
            else:
                part = _stratified(frame, rows, seed, facts)
        if progress is not None:
            progress(1, 1)
        return LabelledScores(
            source=path, label_column=label, y=part[label].isin(positive).to_numpy(),
            scores={s: part[s].to_numpy(dtype=np.float64) for s in scores},
            positive_label=positive_text, weight_column=weight,
            weight=None if weight is None else part[weight].to_numpy(dtype=np.float64),
        )  # fmt: skip

    return EngineData(
        engine="Dask", source=path, label_column=label, positive_label=positive_text,
        scores=tuple(scores), weight_column=weight, rows_read=rows_read,
        n_pos_rows=facts["rows"][0], n_neg_rows=facts["rows"][1], effective=facts["effective"],
        row_limit=int(subsample), counts=exact.__getitem__, draw=draw,
    )  # fmt: skip
