"""Writing a report: ``summary.json``, the curve CSV files and ``report.html``, atomically.

:func:`write_report` renders the figures and the page (``render._html``) from an
:class:`~..analysis._analysis.Analysis` and writes every file (``summary.json`` from
``_summary``, file names from ``_names``) through ``_output.write_tree``, which moves them
into place only when everything succeeded.  :func:`start_curve_files` writes the large curve
files earlier, while the report is still being computed, for :func:`write_report` to commit.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Mapping
from functools import partial
from typing import Any, BinaryIO

import numpy as np

from ..._core._empirical import PRCurve
from ..._prg._curve import PRGCurve
from .._progress import Progress, Stage
from ..analysis._analysis import Analysis
from ..analysis._operating import OperatingAnalysis
from ..render._figures import FiguresAhead
from ._names import file_stems
from ._output import Content, FilesAhead, write_tree
from ._sized import (
    MAX_FILE_POINTS,
    file_curve,
    file_entry,
    parquet_writer,
    release_columns,
    row_chunks,
)  # fmt: skip
from ._summary import summary

__all__ = [
    "curve_csv",
    "curve_file_entries",
    "curve_files",
    "deployment_files",
    "start_curve_files",
    "write_report",
]


# --- curves as CSV ---------------------------------------------------------------------------


def _column_text(values: np.ndarray) -> list[str]:
    if values.dtype.kind in "iub":
        return values.astype(np.int64).astype(str).tolist()
    return [repr(v) for v in values.astype(np.float64).tolist()]


def curve_csv(columns: Mapping[str, Any]) -> str:
    """CSV text of aligned 1-D arrays, floats in their shortest round-trip form.

    Uses pyarrow's C++ writer when pyarrow is installed (several times faster on millions of
    rows), else Python's ``repr``; both give numbers that read back exactly.
    """
    arrays = {name: np.asarray(v) for name, v in columns.items()}
    arrays = {k: v.astype(np.int64) if v.dtype == bool else v for k, v in arrays.items()}
    header = ",".join(arrays) + "\n"
    try:
        import pyarrow as pa
        import pyarrow.csv as pacsv
    except ImportError:
        texts = [_column_text(v) for v in arrays.values()]
        return header + "".join(line + "\n" for line in map(",".join, zip(*texts, strict=True)))
    buf = io.BytesIO()
    table = pa.table({f"c{i}": v for i, v in enumerate(arrays.values())})
    pacsv.write_csv(table, buf, pacsv.WriteOptions(include_header=False))
    return header + buf.getvalue().decode("ascii")


def deployment_files(
    stem: str, op: OperatingAnalysis | None, *, all_points: bool = False
) -> dict[str, dict[str, Any]]:
    """``curves/<stem>_at_prevalence.csv``, the operating points at π (thinned above
    :data:`~._sized.MAX_FILE_POINTS` unless ``all_points``): file → columns."""
    if op is None or op.deployed is None:
        return {}
    c = file_curve(op.deployed, all_points=all_points)
    files: dict[str, dict[str, Any]] = {
        f"{stem}_at_prevalence.csv": {
            "threshold": c.thresholds,
            "tp": c.tp,
            "fp": c.fp,
            "precision": c.precision,
            "recall": c.recall,
        }
    }
    band = op.deployed_band
    if band is not None:
        files[f"{stem}_band_at_prevalence.csv"] = {
            "recall": band.recall,
            "estimate": band.estimate,
            "low": np.asarray(band.band.low),
            "high": np.asarray(band.band.high),
        }
    return files


def _csv_writer(
    columns: dict[str, Any] | Callable[[], dict[str, Any]],
) -> Callable[[BinaryIO], None]:
    """A function writing :func:`curve_csv`'s text to a binary file.

    With pyarrow, its C++ writer streams the rows to the file: millions of rows never exist as
    one string in memory (hundreds of megabytes at 10⁶ rows).  Without pyarrow the text is
    built by :func:`curve_csv` and written.  ``columns`` may be a function returning them,
    called only when the file is written (so derived curves live only while it is).
    """

    def write(f: BinaryIO) -> None:
        _write_columns(f, columns() if callable(columns) else columns)

    return write


def _write_columns(f: BinaryIO, columns: dict[str, Any]) -> None:
    """Write the columns as CSV (their arrays are freed by the caller once this returns)."""
    try:
        import pyarrow as pa
        import pyarrow.csv as pacsv
    except ImportError:
        f.write(curve_csv(columns).encode("ascii"))
        return
    f.write((",".join(columns) + "\n").encode("ascii"))
    f.flush()
    for rows in row_chunks(columns):  # (one chunk in memory; a curve on disk a chunk at a time)
        # sliced first: a column computed from counts on disk computes only those rows
        arrays = [_arrow_array(pa, np.asarray(v[rows])) for v in columns.values()]
        table = pa.Table.from_arrays(arrays, names=[f"c{i}" for i in range(len(arrays))])
        pacsv.write_csv(table, f, pacsv.WriteOptions(include_header=False))
        release_columns(columns, rows)


def _arrow_array(pa: Any, values: np.ndarray) -> Any:
    """An Arrow array viewing a numeric NumPy column (booleans as 0/1 integers).

    Built from the column's buffer: ``pa.array`` would first import pandas (to check for its
    types), about 0.3–0.45 s of CPU when pandas is installed.
    """
    v = np.ascontiguousarray(values.astype(np.int64) if values.dtype == bool else values)
    return pa.Array.from_buffers(pa.from_numpy_dtype(v.dtype), v.shape[0], [None, pa.py_buffer(v)])


def _csv_bytes(columns: dict[str, Any]) -> bytes:
    """What :func:`_csv_writer` writes, as bytes."""
    buf = io.BytesIO()
    _csv_writer(columns)(buf)
    return buf.getvalue()


def _curve_columns(pr: PRCurve) -> dict[str, Any]:
    """The columns of a scorer's curve file (its ROC and PRG curves derived now from ``pr``, as
    ``ScorerAnalysis.roc`` and ``ScorerAnalysis.prg`` are)."""
    roc, prg = pr.to_roc(), PRGCurve.from_pr(pr)
    return {
        "threshold": pr.thresholds,
        "tp": pr.tp,
        "fp": pr.fp,
        "precision": pr.precision,
        "recall": pr.recall,
        "fpr": roc.fpr,
        "precision_gain": prg.precision_gain,
        "recall_gain": prg.recall_gain,
    }


def _file_columns(pr: PRCurve, all_points: bool) -> dict[str, Any]:
    """The columns of the curve file: the curve sized by :func:`~._sized.file_curve`."""
    return _curve_columns(file_curve(pr, all_points=all_points))


def curve_files(
    analysis: Analysis, *, all_points: bool = False
) -> dict[str, Callable[[BinaryIO], None]]:
    """File name (under ``curves/``) → a function writing it, for every scorer.

    File names: see :func:`file_stems`.  A curve of more than :data:`~._sized.MAX_FILE_POINTS`
    operating points is thinned unless ``all_points``, which also writes ``<stem>.parquet``.
    """
    files: dict[str, Callable[[BinaryIO], None]] = {}
    stems = file_stems(list(analysis.scorers))
    for name, sc in analysis.scorers.items():
        stem = stems[name]
        files[f"{stem}.csv"] = _csv_writer(partial(_file_columns, sc.pr, all_points))
        if all_points:
            files[f"{stem}.parquet"] = parquet_writer(partial(_curve_columns, sc.pr))
        a = sc.achievable
        files[f"{stem}_achievable.csv"] = _csv_writer(
            {
                "threshold": a.thresholds,
                "tp": a.tp,
                "fp": a.fp,
                "precision": a.precision,
                "recall": a.recall,
            }
        )
        if sc.band is not None:
            band = sc.band
            files[f"{stem}_band.csv"] = _csv_writer(
                {
                    "recall": band.recall,
                    "estimate": band.estimate,
                    "low": np.asarray(band.band.low),
                    "high": np.asarray(band.band.high),
                }
            )
        deployed = deployment_files(stem, sc.operating, all_points=all_points)
        for file_name, columns in deployed.items():
            files[file_name] = _csv_writer(columns)
    return files


def start_curve_files(
    ahead: FilesAhead, curves: dict[str, PRCurve], *, all_points: bool = False
) -> None:
    """Start writing each scorer's curve file ``curves/<stem>.csv`` (the largest files of the
    report, from the PR curve alone) in ``ahead``'s background thread.

    ``curves`` maps every score column, in the report's order, to its PR curve — the very
    curves the :class:`Analysis` will hold: :func:`write_report` (given ``ahead`` and the same
    ``all_points``) commits these files instead of writing them again.
    """
    stems = file_stems(list(curves))
    for name, pr in curves.items():
        stem = stems[name]
        ahead.start(f"curves/{stem}.csv", _csv_writer(partial(_file_columns, pr, all_points)))
        if all_points:
            ahead.start(f"curves/{stem}.parquet", parquet_writer(partial(_curve_columns, pr)))


def curve_file_entries(analysis: Analysis, *, all_points: bool = False) -> dict[str, Any]:
    """``summary.json``'s ``curve_files``: for each scorer, what its curve file (and its file at
    the deployment prevalence) holds, with the thinning's precision-error bound."""
    stems = file_stems(list(analysis.scorers))
    out: dict[str, Any] = {}
    for name, sc in analysis.scorers.items():
        entry = file_entry(sc.pr, f"curves/{stems[name]}.csv", all_points=all_points)
        if all_points:
            entry["parquet"] = f"curves/{stems[name]}.parquet"
        op = sc.operating
        if op is not None and op.deployed is not None:
            path = f"curves/{stems[name]}_at_prevalence.csv"
            entry["at_prevalence"] = file_entry(op.deployed, path, all_points=all_points)
        out[name] = entry
    return {"max_points": None if all_points else MAX_FILE_POINTS, "scorers": out}


# --- writing ---------------------------------------------------------------------------------


def write_report(
    analysis: Analysis,
    out_dir: str,
    *,
    progress: Progress | None = None,
    ahead: FilesAhead | None = None,
    figures: FiguresAhead | None = None,
    all_points: bool = False,
) -> dict[str, str]:
    """Render and write the report into ``out_dir``, atomically; return the written paths.

    Everything is built in memory, written to hidden temporary files inside ``out_dir`` and
    renamed into place only when complete, so a failure leaves no partial report (an earlier
    report there is kept); files in ``out_dir`` that the report does not write are left alone.
    The files ``ahead`` has staged already (:func:`start_curve_files`) are committed with the
    others instead of being written again, and the figures ``figures`` has drawn (if it has
    started) are put on the page instead of being drawn again.  Curve files are sized by
    :mod:`._sized` (every point, and Parquet files, with ``all_points``).
    """
    from ..render._html import render_figures, render_html

    timings: dict[str, float] = {}
    data = summary(analysis)
    written_curves = curve_files(analysis, all_points=all_points)
    curves = {f"curves/{name}": writer for name, writer in written_curves.items()}
    data["files"] = ["report.html", "summary.json", *curves]
    data["curve_files"] = curve_file_entries(analysis, all_points=all_points)

    def page(f: BinaryIO) -> None:  # drawn while the curve files are written (threads)
        drawn = None if figures is None else figures.figures()
        drawn = render_figures(analysis) if drawn is None else drawn
        check = getattr(f, "check", None)  # stops the drawing when the report is abandoned
        f.write(render_html(analysis, data, drawn, check=check).encode("utf-8"))

    files: dict[str, Content] = {
        "report.html": page,
        "summary.json": json.dumps(data, indent=2, allow_nan=False),
        **curves,
    }
    with Stage(progress, "figures and files", timings, "writing"):
        written = write_tree(out_dir, files, what="the report", ahead=ahead)
    return {"report": written["report.html"], "summary": written["summary.json"]}
