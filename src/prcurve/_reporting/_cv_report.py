"""``prcurve report`` for several score columns per class (one-vs-rest) or for cross-validation
folds (``--score-prefix`` / ``--multiclass`` and ``--fold``).

The file is read by :mod:`._multi_input` (pandas, imported lazily), the numbers come
from :func:`prcurve.pr_curves`, :func:`prcurve.auc_pr_multi_ci` and
:func:`prcurve.cv_pr_curves`, and the output is written atomically like the binary report:
``report.html`` (one self-contained page), ``summary.json`` (every number in the page), the
figures as PNG and the operating points as CSV.
"""

from __future__ import annotations

import html
import json
import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from .. import __version__
from .._core._area import AUC_PR_METHODS
from .._inference._common import DegenerateBootstrapWarning
from .._multi._curves import pr_curves
from .._multi._folds import cv_pr_curves
from .._multi._interval import auc_pr_multi_ci
from .input._io import InputError
from .input._multi_input import MultiInput, binary_labels
from .output._output import write_tree
from .render._page import img as _img
from .render._page import num as _num
from .render._page import page as _page
from .render._page import table as _table
from .render._png import figure_png

__all__ = ["write_cv_report", "write_multiclass_report"]


def _f(x: Any) -> str:
    return "–" if x is None else f"{float(x):.4f}"


def _png(draw: Any) -> bytes:
    from matplotlib.figure import Figure

    fig = Figure(figsize=(6.4, 5.2))
    draw(fig.subplots())
    fig.tight_layout()
    return figure_png(fig)


def write_multiclass_report(
    data: MultiInput,
    label: str,
    out_dir: str,
    *,
    class_names: Sequence[str],
    level: float = 0.95,
    n_resamples: int = 1000,
    seed: int = 0,
    progress: Any = None,
) -> dict[str, str]:
    """One-vs-rest report: per-class and averaged AUC-PR with bootstrap intervals, the curves.

    ``class_names[j]`` is the label (as text in the label column) of score column ``j``.
    """
    from ..plot import MultiPRCurvesDisplay

    names = list(data.scores)
    present = sorted(set(data.labels.tolist()))
    unknown = [v for v in present if v not in class_names]
    if unknown:
        raise InputError(
            f"{data.source}: column {label!r} has label {unknown[0]!r} without a score column; "
            f"the score columns are for {list(class_names)!r}"
        )
    S = np.column_stack([data.scores[c] for c in names])
    labels = np.array(list(class_names), dtype=str)
    try:
        res = pr_curves(data.labels, S, labels=labels, sample_weight=data.weight)
    except ValueError as exc:
        raise InputError(f"{data.source}: {exc}") from None
    summary: dict[str, Any] = {
        "prcurve_version": __version__,
        "kind": "multiclass",
        "settings": {
            "source": data.source,
            "label": label,
            "score_columns": dict(zip(class_names, names, strict=True)),
            "level": level,
            "n_resamples": n_resamples,
            "seed": seed,
            "sample_weight": data.weight is not None,
        },
        "n": int(S.shape[0]),
        "classes": {},
        "averages": {},
    }
    per_class_ci = None
    rng = np.random.default_rng(seed)
    for average in ("macro", "weighted", "micro"):
        if progress is not None:
            progress.start(f"bootstrap ({average})")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateBootstrapWarning)
            ci = auc_pr_multi_ci(
                data.labels, S, labels=labels, average=average, level=level,
                sample_weight=data.weight,
                n_resamples=n_resamples, rng=rng, progress=progress,
            )  # fmt: skip
        if per_class_ci is None:
            per_class_ci = ci
        summary["averages"][average] = {
            "average_precision": _num(ci.estimate),
            "interval": [_num(ci.interval.low), _num(ci.interval.high)],
            "degenerate_replicates": ci.n_degenerate,
            **{m: _num(res.auc(m, average=average)) for m in AUC_PR_METHODS},
        }
    assert per_class_ci is not None
    rows = []
    for j, cls in enumerate(class_names):
        c = res.curves[j]
        ends = per_class_ci.per_class_interval
        low, high = np.asarray(ends.low)[j], np.asarray(ends.high)[j]
        summary["classes"][cls] = {
            "score_column": names[j],
            "support": int(c.n_pos),
            "interval": [_num(low), _num(high)],
            **{m: _num(c.auc(m)) for m in AUC_PR_METHODS},
        }
        rows.append(
            [html.escape(cls), html.escape(names[j]), str(int(c.n_pos)), _f(c.auc()),
             f"[{_f(low)}, {_f(high)}]", _f(c.auc("davis_goadrich"))]
        )  # fmt: skip
    avg_rows = [
        [a, _f(e["average_precision"]), f"[{_f(e['interval'][0])}, {_f(e['interval'][1])}]",
         _f(e["davis_goadrich"])]
        for a, e in summary["averages"].items()
    ]  # fmt: skip
    png = _png(lambda ax: MultiPRCurvesDisplay(res).plot(ax))
    files: dict[str, str | bytes] = {
        "pr_curves.png": png,
        "curves/one_vs_rest.csv": res.to_frame().to_csv(index=False),
    }
    summary["files"] = ["report.html", "summary.json", *files]
    pct = f"{level:.0%}"
    body = [
        f'<p class="note">{html.escape(data.source)}: {S.shape[0]} rows, {len(names)} classes '
        f"(column {html.escape(label)!s}); one-vs-rest curves of every class and the micro "
        "curve of all (row, class) pairs.</p>",
        _img(png, "one-vs-rest PR curves"),
        "<h2>Averaged AUC-PR</h2>",
        _table(["average", "AP", f"{pct} bootstrap interval", "AUC-PR (DG)"], avg_rows),
        '<p class="note">macro: mean of the per-class APs; weighted: weighted by each class\'s '
        "number of positives; micro: the AP of the pooled (row, class) pairs (scikit-learn's "
        f"definitions). Percentile bootstrap over rows, {n_resamples} resamples.</p>",
        "<h2>Per class</h2>",
        _table(
            ["class", "score column", "positives", "AP", f"{pct} interval", "AUC-PR (DG)"], rows
        ),
    ]
    files["report.html"] = _page("Multiclass precision–recall report", body)
    files["summary.json"] = json.dumps(summary, indent=2, allow_nan=False)
    written = write_tree(out_dir, files, what="the report")
    return {"report": written["report.html"]}


def write_cv_report(
    data: MultiInput,
    label: str,
    fold: str,
    out_dir: str,
    *,
    pos_label: str | None = None,
    level: float = 0.95,
    progress: Any = None,
) -> dict[str, str]:
    """Cross-validation report: for each score column the fold curves, their vertical average
    with its band, the pooled curve, and per-fold AUC-PR of every estimator."""
    from ..plot import CVPRCurvesDisplay

    y, positive = binary_labels(data, label, pos_label)
    assert data.folds is not None
    summary: dict[str, Any] = {
        "prcurve_version": __version__,
        "kind": "cross_validation",
        "settings": {
            "source": data.source,
            "label": label,
            "positive_label": positive,
            "fold": fold,
            "level": level,
            "sample_weight": data.weight is not None,
        },
        "n": int(y.shape[0]),
        "scores": {},
    }
    files: dict[str, str | bytes] = {}
    body = [
        f'<p class="note">{html.escape(data.source)}: {y.shape[0]} rows, positive label '
        f"{html.escape(positive)!s}, folds from column {html.escape(fold)!s}. The vertical "
        "average is the mean of each fold's Davis–Goadrich interpolated precision at fixed "
        f"recall; the band and the intervals are {level:.0%} Student-t over folds (too narrow "
        "when folds share training data). The pooled curve ranks all out-of-fold scores "
        "together (right only when the fold models' scores share one scale).</p>"
    ]
    for k, (name, s) in enumerate(data.scores.items()):
        if progress is not None:
            progress.start(f"folds ({name})")
        try:
            res = cv_pr_curves(y, s, data.folds, level=level, sample_weight=data.weight)
        except ValueError as exc:
            raise InputError(f"{data.source}: column {name!r}: {exc}") from None
        entry: dict[str, Any] = {"folds": res.folds.tolist(), "auc": {}}
        rows = []
        for m, fa in res.auc.items():
            entry["auc"][m] = {
                "per_fold": [_num(v) for v in fa.per_fold],
                "mean": _num(fa.mean),
                "std": _num(fa.std),
                "interval": [_num(fa.interval.low), _num(fa.interval.high)],
                "pooled": _num(fa.pooled),
            }
            rows.append(
                [m, _f(fa.mean), f"[{_f(fa.interval.low)}, {_f(fa.interval.high)}]",
                 _f(fa.pooled), " ".join(_f(v) for v in fa.per_fold)]
            )  # fmt: skip
        summary["scores"][name] = entry
        stem = f"score_{k}"
        png = _png(lambda ax, r=res, n=name: CVPRCurvesDisplay(r, name=n).plot(ax))
        files[f"{stem}_folds.png"] = png
        files[f"curves/{stem}_folds.csv"] = res.to_frame().to_csv(index=False)
        files[f"curves/{stem}_vertical_average.csv"] = _vertical_csv(res)
        body += [
            f"<h2>{html.escape(name)}</h2>",
            _img(png, f"fold curves of {name}"),
            _table(
                ["estimator", "mean over folds", f"{level:.0%} t-interval", "pooled", "per fold"],
                rows,
            ),
        ]
        if progress is not None:
            progress(1, 1)
    summary["files"] = ["report.html", "summary.json", *files]
    files["report.html"] = _page("Cross-validation precision–recall report", body)
    files["summary.json"] = json.dumps(summary, indent=2, allow_nan=False)
    written = write_tree(out_dir, files, what="the report")
    return {"report": written["report.html"]}


def _vertical_csv(res: Any) -> str:
    lines = ["recall,mean_precision,std_precision,band_low,band_high"]
    for row in zip(
        res.recall, res.mean_precision, res.std_precision, res.band.low, res.band.high, strict=True
    ):
        lines.append(",".join(repr(float(v)) for v in row))
    return "\n".join(lines) + "\n"
