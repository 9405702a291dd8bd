"""``prcurve report --engine dask``: the report of data too large for memory, on Dask.

Everything that needs only the sorted distinct scores is computed exactly, out of core, by
:mod:`prcurve.dask`: the curves (thinned for the page and the CSV files, with the full curve
as a Parquet dataset), every AUC-PR estimate, the ROC AUC and hull, the achievable curve and
the binomial/logit intervals.  What needs the raw rows -- the bootstrap interval, the
confidence band and the paired comparisons -- is computed on a uniform random subsample of a
stated size (all rows when they are fewer), and the report says so.

Dask is imported here only, and only when this engine runs.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

import numpy as np

from ..._core._area import AUC_PR_METHODS
from ..._inference._chance import below_chance_test
from ..analysis._analysis import (
    Analysis,
    ScorerAnalysis,
    Settings,
    _closed_form_intervals,
    analyse,
    derived_curves,
)
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

__all__ = ["DEFAULT_SUBSAMPLE", "analyse_dask", "input_bytes", "is_collection", "open_frame"]

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


def analyse_dask(
    path: str,
    label: str,
    scores: Sequence[str],
    settings: Settings,
    *,
    pos_label: str | None = None,
    subsample: int = DEFAULT_SUBSAMPLE,
    n_resamples: int | None = None,
    workdir: str | None = None,
    sep: str | None = None,
    encoding: str | None = None,
    progress: Any = None,
) -> Analysis:
    """The report's :class:`Analysis` of Parquet/CSV data on Dask (see the module docstring).

    ``settings.n_resamples`` is replaced by ``n_resamples`` (default: the automatic number for
    the subsample's size).  Run it inside ``prcurve.dask._curve.scheduler_context`` to choose
    the scheduler; ``workdir`` is passed to :func:`prcurve.dask.pr_curve`.
    """
    from ...dask._curve import compute_curve
    from ..analysis._analysis import _announce, auto_resamples

    _announce(progress, "reading (dask)")
    frame = open_frame(path, label, scores, sep, encoding)
    counts = frame[label].value_counts(dropna=False).compute()
    positive, positive_text = _positive_values(counts, label, path, pos_label)
    is_pos = frame[label].isin(positive)
    if progress is not None:
        progress(1, 1)
    exact: dict[str, Any] = {}
    for name in scores:
        _announce(progress, f"{name}: exact curve (dask)")
        try:
            exact[name] = compute_curve(
                is_pos, frame[name], max_points=REPORT_POINTS, workdir=workdir
            )
        except (ValueError, TypeError) as exc:
            raise InputError(f"{path}: column {name!r}: {exc}") from None
        if progress is not None:
            progress(1, 1)
    first = exact[scores[0]]
    n = first.n_rows
    _announce(progress, "subsample")
    rows, sampled = _subsample(frame, n, subsample, settings.seed)
    if progress is not None:
        progress(1, 1)
    sub = LabelledScores(
        source=path,
        label_column=label,
        y=rows[label].isin(positive).to_numpy(),
        scores={s: rows[s].to_numpy(dtype=np.float64) for s in scores},
        positive_label=positive_text,
    )
    b = n_resamples or auto_resamples(sub.n)
    settings = dataclasses.replace(
        settings, positive_label=positive_text, n_resamples=b, source=path
    )
    approx = analyse(sub, settings, progress=progress)
    where = (
        f"on a uniform random subsample of {sub.n:,} of the {n:,} rows (seed {settings.seed})"
        if sampled
        else f"on all {n:,} rows"
    )
    scorers = {}
    for name in scores:
        result, part = exact[name], approx.scorers[name]
        pr = result.curve
        cis, ci_notes = _closed_form_intervals(
            {m: pr.auc(m) for m in AUC_PR_METHODS}, result.n_pos_effective, settings.level
        )
        boot = part.auc_pr_ci.get("average_precision", {}).get("bootstrap_percentile")
        if boot is not None:
            cis.setdefault("average_precision", {})["bootstrap_percentile"] = boot
        notes = [
            f"Dask engine: curves, every AUC-PR estimate, the ROC AUC and hull and the binomial "
            f"and logit intervals are exact over all {n:,} rows ({result.n_distinct:,} distinct "
            f"scores); the bootstrap interval and the confidence band were computed {where}."
        ]
        if pr.thinning is not None:
            notes.append(
                f"The curves shown and written have {pr.tp.shape[0]:,} of the "
                f"{pr.thinning.n_points:,} operating points (ROC hull vertices and end points "
                f"kept); their precision differs from the full curve's by at most "
                f"{pr.thinning.max_precision_error:.2g}; AUPRG is that of these points."
            )
        scorers[name] = ScorerAnalysis(
            name=name,
            pr=pr,
            **derived_curves(pr),
            auc_pr={m: pr.auc(m) for m in AUC_PR_METHODS},
            auc_pr_ci=cis,
            band=part.band,
            band_reason=part.band_reason,
            notes=notes + ci_notes + part.notes,
            timings=part.timings,
            chance=below_chance_test(pr.tp, pr.fp, ties=pr.thinning is None),
        )
    common = list(approx.notes)
    if approx.comparisons:
        common.insert(0, f"Dask engine: the paired comparisons were computed {where}.")
    n_pos = round(float(first.curve.n_pos))
    return Analysis(
        settings, n, n_pos, n - n_pos, scorers, approx.comparisons, common, approx.timings
    )
