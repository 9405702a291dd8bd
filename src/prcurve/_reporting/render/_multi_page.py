"""The sections the multiclass and cross-validation pages share with the binary page: the
ranking, the AUC-PR estimators under their display names, operating points and the deployment
prevalence, how to read the report, the settings and what each file holds.

Every function renders from the JSON-ready dictionaries that also go to ``summary.json`` (so the
page and the JSON agree), through the autoescaping templates under ``templates/multi/``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from markupsafe import Markup

from ._files_note import files_note
from ._html import METHOD_NAMES
from ._templates import code, render

__all__ = [
    "CRITERION_NAMES",
    "fmt",
    "how_to_read",
    "interval",
    "operating_html",
    "ranking_html",
    "settings_html",
]

CRITERION_NAMES = {"min_precision": "precision ≥", "min_recall": "recall ≥"}


def fmt(x: Any, digits: int = 4) -> str:
    """A number for the page ("–" for None)."""
    return "–" if x is None else f"{float(x):.{digits}f}"


def interval(pair: Sequence[Any] | None) -> str:
    """``[low, high]`` for the page ("–" for None)."""
    return "–" if pair is None else f"[{fmt(pair[0])}, {fmt(pair[1])}]"


def method_name(method: str) -> str:
    """The display name of an AUC-PR estimator id (``average_precision`` → "Average precision
    (step)")."""
    return METHOD_NAMES.get(method, method.replace("_", " "))


def ranking_html(
    title: str, rows: Sequence[tuple[str, float | None, Sequence[Any] | None]], level: float
) -> Markup:
    """``<h2>title</h2>`` and the names ranked by AP (best first), with their intervals."""
    order = sorted(rows, key=lambda r: -(r[1] if r[1] is not None else -1.0))
    body = [
        [str(k), code(name), fmt(ap), interval(ci)] for k, (name, ap, ci) in enumerate(order, 1)
    ]
    head = ["rank", "name", "AP", f"{level:.0%} interval"]
    return render("multi/ranking.html", title=title, head=head, rows=body)


def _target(p: dict[str, Any]) -> str:
    return f"{CRITERION_NAMES[p['criterion']]} {p['target']:g}"


def _point_rows(points: list[dict[str, Any]], folds: bool) -> list[list[str]]:
    rows = []
    for p in points:
        if folds:
            rows.append(
                [_target(p), f"{p['feasible_folds']}",
                 *(f"{fmt(p[q]['mean'])} {interval(p[q]['interval'])}"
                   for q in ("precision", "recall")),
                 f"{fmt(p['threshold']['mean'], 6)}"]
            )  # fmt: skip
        elif not p["feasible"]:
            rows.append([_target(p), "not met", "–", "–", "–"])
        else:
            rows.append(
                [_target(p), f"{p['threshold'] + 0.0:.6g}", fmt(p["precision"]), fmt(p["recall"]),
                 fmt(p["fpr"])]
            )  # fmt: skip
    return rows


def operating_html(entry: dict[str, Any], level: float, *, folds: bool = False) -> Markup:
    """The operating points (and at the deployment prevalence, the areas and points at π) of one
    class or score column; ``folds``: the per-fold aggregate of ``_multi_operating``."""
    pct = f"{level:.0%}"
    head = (
        ["target", "folds meeting it", f"precision (mean, {pct} t-interval)",
         f"recall (mean, {pct} t-interval)", "mean threshold"]
        if folds else ["target", "threshold", "precision", "recall", "false-positive rate"]
    )  # fmt: skip
    dep = entry.get("deployment")
    deployment = None
    if dep is not None:
        deployment = {
            "pi": f"{dep['prevalence']:.4g}",
            "column": "mean over folds" if folds else "at π",
            "areas": [
                [method_name(m),
                 f"{fmt(v['mean'])} {interval(v['interval'])}" if folds else fmt(v)]
                for m, v in dep["auc_pr"].items()
            ],
            "points": _point_rows(dep["points"], folds),
        }  # fmt: skip
    return render(
        "multi/operating.html", head=head, points=_point_rows(entry["points"], folds),
        deployment=deployment,
    )  # fmt: skip


def how_to_read(kind: str) -> Markup:
    """The "How to read this report" section of a ``"multiclass"`` or ``"folds"`` page."""
    return render("multi/how_to_read.html", kind=kind)


def settings_html(rows: Sequence[tuple[str, str]], data: dict[str, Any]) -> Markup:
    """The Settings section (values are text, escaped) and the files written."""
    return render("multi/settings.html", rows=rows, files=files_note(data))
