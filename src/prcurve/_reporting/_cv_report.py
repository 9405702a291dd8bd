"""``prcurve report --fold``: cross-validation folds, for binary labels (one problem per score
column) or with ``--multiclass`` / ``--score-prefix`` (one problem per class, one-vs-rest, and the
macro average over classes in every fold).

Each problem's numbers come from :func:`prcurve.cv_pr_curves` (per-fold areas, their mean and
Student-t interval, the pooled and vertically averaged curves) and its operating points and
deployment prevalence from :func:`.analysis._multi_operating.fold_operating`; the page has
the binary page's sections (:mod:`.render._multi_page`).  Written atomically: ``report.html``,
``summary.json`` and per problem ``<stem>_folds.png``, ``curves/<stem>_folds.csv`` and
``curves/<stem>_vertical_average.csv``, the stem named after the score column (every file is
listed in ``docs/guide/report-files.md``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np
from markupsafe import Markup

from .. import __version__
from .._core._area import AUC_PR_METHODS
from .._multi._folds import _t_interval, cv_pr_curves
from ._multi_report import MultiOptions, curve_columns, png, settings_rows
from .analysis._multi_operating import fold_operating
from .input._io import InputError
from .input._multi_input import MultiInput, binary_labels
from .input._public_names import in_column_terms
from .output._names import file_stems
from .output._output import write_tree
from .output._sized import MAX_FILE_POINTS, file_curve, file_entry
from .output._write import curve_csv
from .render._multi_page import (
    fmt,
    how_to_read,
    interval,
    method_name,
    operating_html,
    ranking_html,
)
from .render._multi_page import settings_html as _settings_html
from .render._page import heading, img, num, page, table
from .render._templates import render

__all__ = ["write_cv_report"]


def _problems(
    data: MultiInput, label: str, pos_label: str | None, class_names: Sequence[str] | None
) -> tuple[list[tuple[str, str, np.ndarray]], str | None]:
    """``(name, score column, labels as booleans)`` per problem, and the positive label."""
    if class_names is None:
        y, positive = binary_labels(data, label, pos_label)
        return [(c, c, y) for c in data.scores], positive
    unknown = [v for v in sorted(set(data.labels.tolist())) if v not in class_names]
    if unknown:
        raise InputError(
            f"{data.source}: column {label!r} has label {unknown[0]!r} without a score column; "
            f"the score columns are for {list(class_names)!r}"
        )
    return [(c, s, data.labels == c) for c, s in zip(class_names, data.scores, strict=True)], None


def _fold_file(res: Any, all_points: bool) -> tuple[str, dict[str, Any]]:
    """``curves/<stem>_folds.csv``'s text (every fold's curve and the pooled one, each sized by
    :func:`~.output._sized.file_curve`), and what it holds."""
    names = [*map(str, res.folds.tolist()), "pooled"]
    held = [file_curve(c, all_points=all_points) for c in (*res.curves, res.pooled)]
    sizes = [h.tp.shape[0] for h in held]
    columns: dict[str, Any] = {"fold": np.repeat(np.array(names), sizes)}
    for key in curve_columns(held[0]):
        columns[key] = np.concatenate([curve_columns(h)[key] for h in held])
    parts = [file_entry(c, "", all_points=all_points) for c in (*res.curves, res.pooled)]
    entry = {
        "points": sum(p["points"] for p in parts),
        "operating_points": sum(p["operating_points"] for p in parts),
        "thinned": any(p["thinned"] for p in parts),
        "max_precision_error": max(p["max_precision_error"] for p in parts),
    }
    return curve_csv(columns), entry


def write_cv_report(
    data: MultiInput,
    label: str,
    fold: str,
    out_dir: str,
    *,
    pos_label: str | None = None,
    class_names: Sequence[str] | None = None,
    options: MultiOptions | None = None,
    progress: Any = None,
) -> dict[str, str]:
    """Cross-validation report: for each problem (score column, or class with ``class_names``)
    the fold curves, their vertical average with its band, the pooled curve, per-fold AUC-PR of
    every estimator, the operating points and the deployment prevalence aggregated over folds."""
    from ..plot import CVPRCurvesDisplay

    opts = options or MultiOptions()
    assert data.folds is not None
    problems, positive = _problems(data, label, pos_label, class_names)
    multiclass = class_names is not None
    settings: dict[str, Any] = {
        "source": data.source, "label": label, "positive_label": positive, "fold": fold,
        "level": opts.level, "sample_weight": data.weight is not None,
        "weight_column": opts.weight, "operating_targets": [list(t) for t in opts.targets],
        "prevalence": opts.prevalence, "all_points": opts.all_points,
    }  # fmt: skip
    if multiclass:
        settings["score_columns"] = {c: s for c, s, _ in problems}
    summary: dict[str, Any] = {
        "prcurve_version": __version__,
        "kind": "multiclass_cross_validation" if multiclass else "cross_validation",
        "settings": settings,
        "n": int(data.labels.shape[0]),
    }
    entries: dict[str, Any] = {}
    files: dict[str, str | bytes] = {}
    curve_files: dict[str, Any] = {}
    figures: dict[str, bytes] = {}
    stems = file_stems([column for _, column, _ in problems])
    for name, column, y in problems:
        if progress is not None:
            progress.start(f"folds ({name})")
        s = data.scores[column]
        try:
            res = cv_pr_curves(y, s, data.folds, level=opts.level, sample_weight=data.weight)
        except ValueError as exc:
            named = {"y_true": label, "y_score": column, "sample_weight": opts.weight or ""}
            raise InputError(
                f"{data.source}: scores in column {column!r}: {in_column_terms(str(exc), named)}"
            ) from None
        entry: dict[str, Any] = {"score_column": column, "folds": res.folds.tolist(), "auc": {}}
        if multiclass:
            entry["support"] = int(np.count_nonzero(y))  # rows, also with weights
        for m, fa in res.auc.items():
            entry["auc"][m] = {
                "per_fold": [num(v) for v in fa.per_fold], "mean": num(fa.mean),
                "std": num(fa.std), "interval": [num(fa.interval.low), num(fa.interval.high)],
                "pooled": num(fa.pooled),
            }  # fmt: skip
        entry.update(
            fold_operating(y, s, data.folds, res.folds.tolist(), data.weight, opts.targets,
                           opts.prevalence, opts.level)
        )  # fmt: skip
        entries[name] = entry
        stem = stems[column]
        figures[name] = png(lambda ax, r=res, n=name: CVPRCurvesDisplay(r, name=n).plot(ax))
        files[f"{stem}_folds.png"] = figures[name]
        text, held = _fold_file(res, opts.all_points)
        files[f"curves/{stem}_folds.csv"] = text
        curve_files[name] = {"path": f"curves/{stem}_folds.csv", **held}
        files[f"curves/{stem}_vertical_average.csv"] = _vertical_csv(res)
        if progress is not None:
            progress(1, 1)
    summary["classes" if multiclass else "scores"] = entries
    if multiclass:
        summary["macro"] = _macro(entries, opts.level)
    summary["files"] = ["report.html", "summary.json", *files]
    summary["curve_files"] = {
        "max_points": None if opts.all_points else MAX_FILE_POINTS,
        "scorers": curve_files,
    }
    body = _body(summary, data, figures, opts, multiclass)
    body.append(_settings_html(settings_rows(data, label, opts), summary))
    title = "Multiclass cross-validation" if multiclass else "Cross-validation"
    files["report.html"] = page(f"{title} precision–recall report", body)
    files["summary.json"] = json.dumps(summary, indent=2, allow_nan=False)
    written = write_tree(out_dir, files, what="the report")
    return {"report": written["report.html"]}


def _macro(entries: dict[str, Any], level: float) -> dict[str, Any]:
    """Every estimator's macro average over classes in each fold, and its mean and t-interval
    over folds (classes missing from a fold are a fold error before this)."""
    out = {}
    for m in AUC_PR_METHODS:
        per_fold = np.mean([e["auc"][m]["per_fold"] for e in entries.values()], axis=0)
        mean, std, low, high = _t_interval(per_fold, level)
        out[m] = {
            "per_fold": [num(v) for v in per_fold], "mean": num(mean), "std": num(std),
            "interval": [num(low), num(high)],
        }  # fmt: skip
    return out


def _per_fold(folds: list[Any], values: list[float]) -> str:
    """Per-fold values, each after its fold id (``a: 0.91, b: 0.88``): the folds are the fold
    column's values, in the order of ``summary.json``'s ``folds``."""
    return ", ".join(f"{f}: {fmt(v)}" for f, v in zip(folds, values, strict=True))


def _body(
    summary: dict[str, Any], data: MultiInput, figures: dict[str, bytes], opts: MultiOptions,
    multiclass: bool,
) -> list[Markup]:  # fmt: skip
    """The page's sections (before the settings), from the summary."""
    st, pct = summary["settings"], f"{opts.level:.0%}"
    entries = summary["classes" if multiclass else "scores"]
    folds = next(iter(entries.values()))["folds"]
    ranked = [(n, e["auc"]["average_precision"]["mean"],
               e["auc"]["average_precision"]["interval"]) for n, e in entries.items()]  # fmt: skip
    body = [
        render("multi/intro.html", source=data.source, n=summary["n"],
               classes=len(entries) if multiclass else None, label=st["label"],
               positive_label=str(st["positive_label"]), folds=len(folds), fold=st["fold"]),
        ranking_html(
            "Which classes are told apart best?" if multiclass else "Which scorer is best?",
            ranked, opts.level,
        ),
    ]  # fmt: skip
    if multiclass:
        rows = [
            [
                method_name(m),
                fmt(e["mean"]),
                interval(e["interval"]),
                _per_fold(folds, e["per_fold"]),
            ]
            for m, e in summary["macro"].items()
        ]
        body += [heading("Macro average over classes"), table(
            ["estimator", "mean over folds", f"{pct} t-interval", "per fold"], rows)]  # fmt: skip
    for name, e in entries.items():
        body.append(
            render("multi/problem.html", kind="Class" if multiclass else "Score column",
                   name=name, score_column=e["score_column"] if multiclass else None,
                   support=e.get("support"), positives=False)
        )  # fmt: skip
        body.append(img(figures[name], f"fold curves of {name}"))
        rows = [
            [method_name(m), fmt(a["mean"]), interval(a["interval"]), fmt(a["pooled"]),
             _per_fold(folds, a["per_fold"])]
            for m, a in e["auc"].items()
        ]  # fmt: skip
        body.append(
            table(["estimator", "mean over folds", f"{pct} t-interval", "pooled", "per fold"], rows)
        )
        body.append(operating_html(e, opts.level, folds=True))
    body.append(how_to_read("folds"))
    return body


def _vertical_csv(res: Any) -> str:
    return curve_csv(
        {
            "recall": res.recall,
            "mean_precision": res.mean_precision,
            "std_precision": res.std_precision,
            "band_low": np.asarray(res.band.low),
            "band_high": np.asarray(res.band.high),
        }
    )
