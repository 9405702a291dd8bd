"""Writing a report: ``summary.json``, the curve CSV files and ``report.html``, atomically.

:func:`write_report` renders the figures and the page (``_html``) from an
:class:`~._analysis.Analysis` and writes every file through ``_io.write_tree``, which moves them
into place only when everything succeeded.  :func:`start_curve_files` writes the large curve
files earlier, while the report is still being computed, for :func:`write_report` to commit.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from collections.abc import Callable
from functools import partial
from typing import Any, BinaryIO

import numpy as np

from ... import __version__
from ..._core._empirical import PRCurve
from ..._prg._curve import PRGCurve
from ..analysis._analysis import (
    FALLBACK_REASON,
    HEADLINE_KINDS,
    HEADLINE_REASON,
    Analysis,
    Progress,
    _Stage,
    headline_interval,
)
from ..analysis._operating import (
    comparison_entry,
    comparison_summary,
    deployment_files,
    operating_summary,
)
from ..input._io import curve_csv
from ..render._chance import chance_entry
from ..render._figures import FiguresAhead
from ._output import Content, FilesAhead, write_tree

__all__ = [
    "curve_files",
    "file_stems",
    "report_writes",
    "scorer_files",
    "start_curve_files",
    "summary",
    "write_report",
]


# --- summary.json ------------------------------------------------------------------------------


def _num(x: Any) -> float | int | None:
    """A JSON-safe number (``None`` never happens for finite results)."""
    if isinstance(x, int | np.integer):
        return int(x)
    v = float(x)
    return v if np.isfinite(v) else None


def summary(analysis: Analysis) -> dict[str, Any]:
    """Every number in the report, as plain JSON-able data."""
    s = analysis.settings
    out: dict[str, Any] = {
        "prcurve_version": __version__,
        "settings": {
            "source": s.source,
            "label_column": s.label,
            "score_columns": list(s.scores),
            "positive_label": s.positive_label,
            "level": s.level,
            "n_resamples": s.n_resamples,
            "n_resamples_auto": s.n_resamples_auto,
            "seed": s.seed,
            "min_precision": list(s.min_precision),
            "min_recall": list(s.min_recall),
            "deployment_prevalence": (
                s.prevalence[0] / s.prevalence[1]
                if isinstance(s.prevalence, tuple)
                else s.prevalence
            ),
            "deployment_prevalence_count": (
                list(s.prevalence) if isinstance(s.prevalence, tuple) else None
            ),
            "weight_column": s.weight,
        },
        "data": {
            "n": analysis.n,
            "n_pos": analysis.n_pos,
            "n_neg": analysis.n_neg,
            "prevalence": analysis.n_pos / analysis.n,
        },
        "scorers": {},
    }
    files = scorer_files(analysis)
    for name, sc in analysis.scorers.items():
        best = sc.best_f1
        out["scorers"][name] = {
            "n_thresholds": int(sc.pr.thresholds.shape[0]),
            "auc_pr": {m: _num(v) for m, v in sc.auc_pr.items()},
            "roc_auc": _num(sc.roc_auc),
            "roc_hull_auc": _num(sc.roc_hull.auc()),
            "achievable": {
                "n_points": int(sc.achievable.recall.shape[0]),
                "auc_pr_davis_goadrich": _num(sc.achievable.auc("davis_goadrich")),
            },
            "auprg": _num(sc.auprg),
            "auprg_hull": _num(sc.prg_hull.auc()),
            "best_f1": {
                "threshold": _num(best.threshold),
                "f1": _num(best.f_beta),
                "precision": _num(best.precision),
                "recall": _num(best.recall),
            },
            "auc_pr_ci": {
                method: {
                    kind: {
                        "low": _num(r.interval.low),
                        "high": _num(r.interval.high),
                        "level": r.level,
                        **({"n_resamples": r.n_resamples} if r.n_resamples else {}),
                    }
                    for kind, r in kinds.items()
                }
                for method, kinds in sc.auc_pr_ci.items()
            },
            "notes": list(sc.notes),
            "files": files[name],
            "chance": chance_entry(sc, positive_label=s.positive_label),
        }
        head = headline_interval(sc.auc_pr_ci)
        if head is not None:
            out["scorers"][name]["headline_auc_pr"] = {
                "estimator": head.method,
                "estimate": _num(head.estimate),
                "interval": head.kind,
                "low": _num(head.interval.low),
                "high": _num(head.interval.high),
                "level": head.level,
                "why": HEADLINE_REASON if head.kind == HEADLINE_KINDS[0] else FALLBACK_REASON,
            }
        if sc.operating is not None:
            out["scorers"][name].update(operating_summary(sc.operating))
        if sc.band is not None:
            band = sc.band
            out["scorers"][name]["confidence_band"] = {
                "method": band.method,
                "level": band.level,
                "recall_range": list(band.recall_range),
                "radius": _num(band.radius),
                "n_resamples": band.n_resamples,
                "bandwidth": None if band.bandwidth is None else [_num(h) for h in band.bandwidth],
                "effective_sample_size": _num(band.effective_sample_size),
                "grid_points": int(band.recall.shape[0]),
                "method_reason": sc.band_reason,
            }
    if s.weight is not None and analysis.scorers:
        first = next(iter(analysis.scorers.values())).pr
        out["data"]["weighted_prevalence"] = _num(first.prevalence)
    out["comparisons"] = [comparison_entry(a, b, r) for a, b, r in analysis.comparisons]
    if s.prevalence is not None:
        out["deployment_comparisons"] = comparison_summary(
            analysis.deployment_comparisons, analysis.deployment_notes
        )
    out["inference"] = [
        {
            "step": step.label,
            "n_resamples": step.plan.n_resamples,
            "rows": step.plan.rows,
            "n": step.plan.n,
        }
        for step in analysis.inference
    ]
    out["notes"] = list(analysis.notes)
    return out


# --- curves as CSV ---------------------------------------------------------------------------


def _csv_writer(
    columns: dict[str, Any] | Callable[[], dict[str, Any]],
) -> Callable[[BinaryIO], None]:
    """A function writing :func:`._io.curve_csv`'s text to a binary file.

    With pyarrow, its C++ writer streams the rows to the file: millions of rows never exist as
    one string in memory (hundreds of megabytes at 10⁶ rows).  Without pyarrow the text is
    built by :func:`._io.curve_csv` and written.  ``columns`` may be a function returning them,
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
    arrays = [_arrow_array(pa, np.asarray(v)) for v in columns.values()]
    table = pa.Table.from_arrays(arrays, names=[f"c{i}" for i in range(len(arrays))])
    f.write((",".join(columns) + "\n").encode("ascii"))
    f.flush()
    pacsv.write_csv(table, f, pacsv.WriteOptions(include_header=False))


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


def curve_files(analysis: Analysis) -> dict[str, Callable[[BinaryIO], None]]:
    """File name (under ``curves/``) → a function writing its CSV (ASCII), for every scorer.

    File names: see :func:`file_stems`.
    """
    files: dict[str, Callable[[BinaryIO], None]] = {}
    stems = file_stems(list(analysis.scorers))
    for name, sc in analysis.scorers.items():
        stem = stems[name]
        files[f"{stem}.csv"] = _csv_writer(partial(_curve_columns, sc.pr))
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
        for file_name, columns in deployment_files(stem, sc.operating).items():
            files[file_name] = _csv_writer(columns)
    return files


def start_curve_files(ahead: FilesAhead, curves: dict[str, PRCurve]) -> None:
    """Start writing each scorer's curve file ``curves/<stem>.csv`` (the largest files of the
    report, from the PR curve alone) in ``ahead``'s background thread.

    ``curves`` maps every score column, in the report's order, to its PR curve — the very
    curves the :class:`Analysis` will hold: :func:`write_report` (given ``ahead``) commits
    these files instead of writing them again.
    """
    stems = file_stems(list(curves))
    for name, pr in curves.items():
        ahead.start(f"curves/{stems[name]}.csv", _csv_writer(partial(_curve_columns, pr)))


#: Suffixes of a scorer's curve files: ``<stem>.csv``, ``<stem>_achievable.csv``, ...
CURVE_SUFFIXES = {"curve": "", "achievable": "_achievable", "band": "_band"}
#: Suffixes of its files at the deployment prevalence (``_operating.deployment_files``).
DEPLOYMENT_SUFFIXES = ("_at_prevalence", "_band_at_prevalence")
_MAX_STEM = 80


def report_writes(scores: list[str], rel: str) -> bool:
    """Whether the report of the score columns ``scores`` may write ``rel`` (a ``/``-separated
    path in its output directory): ``report.html``, ``summary.json`` or one of the curve files
    of a scorer (:data:`CURVE_SUFFIXES`, :data:`DEPLOYMENT_SUFFIXES`)."""
    if rel in ("report.html", "summary.json"):
        return True
    folder, _, name = rel.rpartition("/")
    suffixes = [*CURVE_SUFFIXES.values(), *DEPLOYMENT_SUFFIXES]
    return folder == "curves" and any(
        name == f"{stem}{suffix}.csv" for stem in file_stems(scores).values() for suffix in suffixes
    )


def scorer_files(analysis: Analysis) -> dict[str, dict[str, str]]:
    """Scorer → kind (curve, achievable, band) → path of its file relative to the report."""
    stems = file_stems(list(analysis.scorers))
    return {
        name: {
            kind: f"curves/{stems[name]}{suffix}.csv"
            for kind, suffix in CURVE_SUFFIXES.items()
            if kind != "band" or sc.band is not None
        }
        for name, sc in analysis.scorers.items()
    }


def file_stems(names: list[str]) -> dict[str, str]:
    """A file-name stem for every score column: unique, stable and safe on any file system.

    The stem is the column name with every run of characters other than ASCII letters,
    digits, ``_``, ``.`` and ``-`` replaced by ``_`` (at most 80 characters).  When that changed
    the name, or when two columns' files would then have the same name ignoring case (``a/b``
    and ``a_b``; ``S`` and ``s`` on a case-insensitive file system; ``a`` and ``a_band``), the
    stem gets ``-`` and the first 8 hex digits of the SHA-256 of the column name (UTF-8):
    the same column always gets the same file name, whatever the other columns are called,
    except where an unchanged name would collide.
    """
    stems = {name: _safe_stem(name) for name in names}
    hashed = {name for name in names if stems[name] != name}
    while True:
        for name in hashed:
            stems[name] = f"{_safe_stem(name)[:_MAX_STEM]}-{_digest(name)}"
        owner: dict[str, str] = {}
        clash: set[str] = set()
        for name in names:
            for suffix in CURVE_SUFFIXES.values():
                key = f"{stems[name]}{suffix}".casefold()
                if key in owner and owner[key] != name:
                    clash |= {name, owner[key]}
                owner.setdefault(key, name)
        if not clash - hashed:
            return stems
        hashed |= clash


def _safe_stem(name: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._")[:_MAX_STEM]
    return stem or "score"


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]


# --- writing ---------------------------------------------------------------------------------


def write_report(
    analysis: Analysis,
    out_dir: str,
    *,
    progress: Progress | None = None,
    ahead: FilesAhead | None = None,
    figures: FiguresAhead | None = None,
) -> dict[str, str]:
    """Render and write the report into ``out_dir``, atomically; return the written paths.

    Everything is built in memory, written to hidden temporary files inside ``out_dir`` and
    renamed into place only when complete, so a failure leaves no partial report (an earlier
    report there is kept); files in ``out_dir`` that the report does not write are left alone.
    The files ``ahead`` has staged already (:func:`start_curve_files`) are committed with the
    others instead of being written again, and the figures ``figures`` has drawn (if it has
    started) are put on the page instead of being drawn again.
    """
    from ..render._html import render_figures, render_html

    timings: dict[str, float] = {}
    data = summary(analysis)
    curves = {f"curves/{name}": writer for name, writer in curve_files(analysis).items()}
    data["files"] = ["report.html", "summary.json", *curves]

    def page(f: BinaryIO) -> None:  # drawn while the curve files are written (threads)
        drawn = None if figures is None else figures.figures()
        drawn = render_figures(analysis) if drawn is None else drawn
        f.write(render_html(analysis, data, drawn).encode("utf-8"))

    files: dict[str, Content] = {
        "report.html": page,
        "summary.json": json.dumps(data, indent=2, allow_nan=False),
        **curves,
    }
    with _Stage(progress, "figures and files", timings, "writing"):
        written = write_tree(out_dir, files, what="the report", ahead=ahead)
    return {"report": written["report.html"], "summary": written["summary.json"]}
