"""``prcurve report`` for one score column per class, one-vs-rest (``--score-prefix`` /
``--multiclass``; with ``--fold`` see :mod:`._cv_report`).

The file is read by :mod:`.input._multi_input` (pandas, imported lazily), the numbers come from
:func:`prcurve.pr_curves` and :func:`prcurve.auc_pr_multi_ci`, the operating points and the
deployment prevalence of every class from :mod:`.analysis._multi_operating`, and the page has
the binary page's sections (:mod:`.render._multi_page`).  Written atomically: ``report.html``,
``summary.json``, ``pr_curves.png`` and one curve file per class named after its score column
(sized as the binary report's, :mod:`.output._sized`), listed in ``docs/guide/report-files.md``.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from markupsafe import Markup

from .. import __version__
from .._core._area import AUC_PR_METHODS
from .._core._empirical import PRCurve
from .._inference._common import DegenerateBootstrapWarning
from .._multi._curves import pr_curves
from .._multi._interval import auc_pr_multi_ci
from .analysis._multi_operating import Targets, binary_operating
from .input._io import InputError
from .input._multi_input import MultiInput
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
from .render._page import heading, img, note, num, page, table
from .render._png import figure_png
from .render._templates import render

__all__ = [
    "MultiOptions",
    "curve_columns",
    "png",
    "settings_rows",
    "write_multiclass_report",
]


#: Key of the micro-averaged curve among the class columns' curves (no column name is empty).
MICRO = ""


@dataclass(frozen=True)
class MultiOptions:
    """The options of a multiclass or fold report (see ``prcurve report --help``).

    ``targets`` are the operating points' ``(criterion, target)`` pairs, ``prevalence`` the
    deployment prevalence (or None), ``weight`` the weight column's name (or None).
    """

    level: float = 0.95
    n_resamples: int = 1000
    seed: int = 0
    targets: Targets = ()
    prevalence: float | None = None
    weight: str | None = None
    all_points: bool = False


def png(draw: Any) -> bytes:
    """A figure drawn by ``draw(ax)``, as PNG bytes."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 5.2))
    draw(fig.subplots())
    fig.tight_layout()
    return figure_png(fig)


def curve_columns(pr: PRCurve) -> dict[str, Any]:
    """The columns of a curve file."""
    return {
        "threshold": pr.thresholds, "tp": pr.tp, "fp": pr.fp,
        "precision": pr.precision, "recall": pr.recall,
    }  # fmt: skip


def settings_rows(data: MultiInput, label: str, opts: MultiOptions) -> list[tuple[str, str]]:
    """The settings every multiclass and fold page shows."""
    targets = ", ".join(f"{c.replace('_', ' ')} {t:g}" for c, t in opts.targets) or "none"
    return [
        ("input", data.source),
        ("label column", label),
        ("score columns", ", ".join(data.scores)),
        ("sample weights", opts.weight or "none"),
        ("confidence level", f"{opts.level:g}"),
        ("operating-point targets", targets),
        ("deployment prevalence", "none" if opts.prevalence is None else f"{opts.prevalence:g}"),
        ("curve files", "every point" if opts.all_points else f"≤ {MAX_FILE_POINTS:,} points each"),
    ]


def _micro_key(curves: dict[str, Any]) -> str:
    """The micro curve's key in ``curve_files``: ``micro_average``, a plain key like the score
    columns' (``micro_average_`` and so on when a score column has that name)."""
    key = "micro_average"
    while key in curves:
        key += "_"
    return key


def _curve_files(
    curves: dict[str, PRCurve], opts: MultiOptions, deployed: dict[str, PRCurve]
) -> tuple[dict[str, str | bytes], dict[str, Any]]:
    """Each class's curve file (and at π), named after its score column, and the micro curve's
    ``micro_average.csv`` (hashed if a column has that name): files, summary entry."""
    stems = file_stems([c for c in curves if c != MICRO])
    taken = {v.casefold() for v in stems.values()}
    stems[MICRO] = "micro_average" if "micro_average" not in taken else file_stems([MICRO])[MICRO]
    files: dict[str, str | bytes] = {}
    entries: dict[str, Any] = {}
    for column, pr in curves.items():
        path = f"curves/{stems[column]}.csv"
        files[path] = curve_csv(curve_columns(file_curve(pr, all_points=opts.all_points)))
        key = _micro_key(curves) if column == MICRO else column
        entries[key] = file_entry(pr, path, all_points=opts.all_points)
        if column in deployed:
            path = f"curves/{stems[column]}_at_prevalence.csv"
            at = deployed[column]
            files[path] = curve_csv(curve_columns(file_curve(at, all_points=opts.all_points)))
            entries[key]["at_prevalence"] = file_entry(at, path, all_points=opts.all_points)
    cap = None if opts.all_points else MAX_FILE_POINTS
    return files, {"max_points": cap, "scorers": entries}


def write_multiclass_report(
    data: MultiInput,
    label: str,
    out_dir: str,
    *,
    class_names: Sequence[str],
    options: MultiOptions | None = None,
    progress: Any = None,
) -> dict[str, str]:
    """One-vs-rest report: per-class and averaged AUC-PR with bootstrap intervals, the curves,
    the operating points and (with a prevalence) everything at the deployment prevalence.

    ``class_names[j]`` is the label (as text in the label column) of score column ``j``.
    """
    from ..plot import MultiPRCurvesDisplay

    opts = options or MultiOptions()
    names = list(data.scores)
    unknown = [v for v in sorted(set(data.labels.tolist())) if v not in class_names]
    if unknown:
        raise InputError(
            f"{data.source}: column {label!r} has label {unknown[0]!r} without a score column; "
            f"the score columns are for {list(class_names)!r}"
        )
    S = np.column_stack([data.scores[c] for c in names])
    try:
        res = pr_curves(data.labels, S, labels=np.array(list(class_names), dtype=str),
                        sample_weight=data.weight)  # fmt: skip
    except ValueError as exc:
        named = {"y_true": label, "sample_weight": opts.weight or ""}
        raise InputError(f"{data.source}: {in_column_terms(str(exc), named)}") from None
    summary: dict[str, Any] = {
        "prcurve_version": __version__,
        "kind": "multiclass",
        "settings": {
            "source": data.source, "label": label,
            "score_columns": dict(zip(class_names, names, strict=True)),
            "level": opts.level, "n_resamples": opts.n_resamples, "seed": opts.seed,
            "sample_weight": data.weight is not None, "weight_column": opts.weight,
            "operating_targets": [list(t) for t in opts.targets],
            "prevalence": opts.prevalence, "all_points": opts.all_points,
        },
        "n": int(S.shape[0]),
        "classes": {},
        "averages": _averages(data, S, res, class_names, opts, progress),
    }  # fmt: skip
    per_class = summary["averages"].pop("_per_class")
    deployed: dict[str, PRCurve] = {}
    for j, cls in enumerate(class_names):
        c = res.curves[j]
        y = data.labels == cls
        op = binary_operating(y, S[:, j], data.weight, opts.targets, opts.prevalence, curve=c)
        if opts.prevalence is not None:
            deployed[names[j]] = c.at_prevalence(opts.prevalence)
        summary["classes"][cls] = {
            "score_column": names[j],
            "support": int(np.count_nonzero(y)),  # rows, also with weights
            "interval": per_class[j],
            "auc_pr": {m: num(c.auc(m)) for m in AUC_PR_METHODS},
            **op,
        }
    curves = {names[j]: c for j, c in enumerate(res.curves)}
    files, curve_files = _curve_files({**curves, MICRO: res.micro}, opts, deployed)
    figure = png(lambda ax: MultiPRCurvesDisplay(res).plot(ax))
    files = {"pr_curves.png": figure, **files}
    summary["files"] = ["report.html", "summary.json", *files]
    summary["curve_files"] = curve_files
    body = _body(summary, data, figure, opts)
    body.append(_settings_html(settings_rows(data, label, opts), summary))
    files["report.html"] = page("Multiclass precision–recall report", body)
    files["summary.json"] = json.dumps(summary, indent=2, allow_nan=False)
    written = write_tree(out_dir, files, what="the report")
    return {"report": written["report.html"]}


def _averages(
    data: MultiInput, S: np.ndarray, res: Any, class_names: Sequence[str], opts: MultiOptions,
    progress: Any,
) -> dict[str, Any]:  # fmt: skip
    """Macro, weighted and micro AP with bootstrap intervals, every estimator's average, and
    (under ``_per_class``) each class's interval from the first bootstrap."""
    out: dict[str, Any] = {}
    labels = np.array(list(class_names), dtype=str)
    rng = np.random.default_rng(opts.seed)
    for average in ("macro", "weighted", "micro"):
        if progress is not None:
            progress.start(f"bootstrap ({average})")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateBootstrapWarning)
            ci = auc_pr_multi_ci(
                data.labels, S, labels=labels, average=average, level=opts.level,
                sample_weight=data.weight, n_resamples=opts.n_resamples, rng=rng,
                progress=progress,
            )  # fmt: skip
        if "_per_class" not in out:
            ends = ci.per_class_interval
            lows, highs = np.asarray(ends.low), np.asarray(ends.high)
            out["_per_class"] = [[num(lo), num(hi)] for lo, hi in zip(lows, highs, strict=True)]
        out[average] = {
            "average_precision": num(ci.estimate),
            "interval": [num(ci.interval.low), num(ci.interval.high)],
            "degenerate_replicates": ci.n_degenerate,
            **{m: num(res.auc(m, average=average)) for m in AUC_PR_METHODS},
        }
    return out


def _body(
    summary: dict[str, Any], data: MultiInput, figure: bytes, opts: MultiOptions
) -> list[Markup]:
    """The page's sections (before the settings), from the summary."""
    pct = f"{opts.level:.0%}"
    classes = summary["classes"]
    ranked = [(c, e["auc_pr"]["average_precision"], e["interval"]) for c, e in classes.items()]
    body = [
        render("multi/intro.html", source=data.source, n=summary["n"], classes=len(classes),
               label=summary["settings"]["label"], folds=None),
        ranking_html("Which classes are told apart best?", ranked, opts.level),
        img(figure, "one-vs-rest PR curves"),
        heading("Averaged AUC-PR"),
        table(
            ["average", "Average precision", f"{pct} bootstrap interval",
             method_name("davis_goadrich")],
            [[a, fmt(e["average_precision"]), interval(e["interval"]), fmt(e["davis_goadrich"])]
             for a, e in summary["averages"].items()],
        ),
        note(f"Percentile bootstrap over rows, {opts.n_resamples:,} resamples."),
    ]  # fmt: skip
    for cls, e in classes.items():
        body.append(
            render("multi/problem.html", kind="Class", name=cls, score_column=e["score_column"],
                   support=e["support"], positives=True)
        )  # fmt: skip
        rows = [[method_name(m), fmt(v)] for m, v in e["auc_pr"].items()]
        rows[0].append(interval(e["interval"]))
        body.append(
            table(["estimator", "estimate", f"{pct} bootstrap interval"],
                  [r + [""] * (3 - len(r)) for r in rows])
        )  # fmt: skip
        body.append(operating_html(e, opts.level))
    body.append(how_to_read("multiclass"))
    return body
