"""The sections the multiclass and cross-validation pages share with the binary page: the
ranking, the AUC-PR estimators under their display names, operating points and the deployment
prevalence, how to read the report, the settings and what each file holds.

Every function renders from the JSON-ready dictionaries that also go to ``summary.json`` (so the
page and the JSON agree) and escapes every name it puts on the page.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import Any

from ._files_note import files_note
from ._html import METHOD_NAMES
from ._page import table

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

_HOW_TO_READ = {
    "multiclass": (
        "Each class is scored against all the others (one-vs-rest): its PR curve, its "
        "<b>average precision</b> (AP: precision averaged over that class's rows as the "
        "threshold is lowered; a random scorer gets about the class's share of rows) and a "
        "percentile bootstrap interval over rows. The averages combine the classes the "
        "scikit-learn way: <b>macro</b> is the plain mean of the per-class APs (every class "
        "counts the same), <b>weighted</b> weighs each class by its number of rows, "
        "<b>micro</b> pools every (row, class) pair into one curve (frequent classes dominate)."
    ),
    "folds": (
        "Each fold's curve is computed from its own out-of-fold scores. The <b>mean over "
        "folds</b> of an area is the usual cross-validated estimate, with a Student-t interval "
        "over folds: it is too narrow when the folds' models share training data, so read it "
        "as the fold-to-fold spread. The <b>pooled</b> curve ranks all out-of-fold scores "
        "together: right only when the fold models' scores share one scale. The vertical "
        "average is the mean of each fold's Davis–Goadrich interpolated precision at fixed "
        "recall."
    ),
}

_COMMON_HOW_TO_READ = (
    "<b>AP</b> is the area under the step-shaped PR curve; the <b>Davis–Goadrich area</b> draws "
    "the curve correctly between thresholds (precision does not change linearly between two "
    "points); the lower trapezoid and interpolated median are Boyd et al.'s estimators; the "
    "linear trapezoid is optimistic and shown only for comparison. An <b>operating point</b> "
    "is the threshold a target picks: for precision ≥ P the highest recall whose precision is "
    "at least P, for recall ≥ R the highest precision whose recall is at least R (flag every "
    "row with score ≥ the threshold). At a <b>deployment prevalence</b> π the negatives are "
    "reweighted so that positives make up π of the rows: recall and the false-positive rate "
    "are kept, precision and the areas change."
)


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
) -> str:
    """``<h2>title</h2>`` and the names ranked by AP (best first), with their intervals."""
    order = sorted(rows, key=lambda r: -(r[1] if r[1] is not None else -1.0))
    body = [
        [str(k), f"<code>{html.escape(name)}</code>", fmt(ap), interval(ci)]
        for k, (name, ap, ci) in enumerate(order, 1)
    ]
    return f'<h2 id="ranking">{html.escape(title)}</h2>' + table(
        ["rank", "name", "AP", f"{level:.0%} interval"], body
    )


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
                [_target(p), f"{p['threshold']:.6g}", fmt(p["precision"]), fmt(p["recall"]),
                 fmt(p["fpr"])]
            )  # fmt: skip
    return rows


def operating_html(entry: dict[str, Any], level: float, *, folds: bool = False) -> str:
    """The operating points (and at the deployment prevalence, the areas and points at π) of one
    class or score column; ``folds``: the per-fold aggregate of ``_multi_operating``."""
    pct = f"{level:.0%}"
    head = (
        ["target", "folds meeting it", f"precision (mean, {pct} t-interval)",
         f"recall (mean, {pct} t-interval)", "mean threshold"]
        if folds else ["target", "threshold", "precision", "recall", "false-positive rate"]
    )  # fmt: skip
    parts = []
    if entry["points"]:
        parts += ["<h3>Operating points</h3>", table(head, _point_rows(entry["points"], folds))]
    dep = entry.get("deployment")
    if dep is not None:
        pi = dep["prevalence"]
        parts.append(f"<h3>At deployment prevalence π = {pi:.4g}</h3>")
        rows = [
            [method_name(m), f"{fmt(v['mean'])} {interval(v['interval'])}" if folds else fmt(v)]
            for m, v in dep["auc_pr"].items()
        ]
        parts.append(table(["estimator", "mean over folds" if folds else "at π"], rows))
        if dep["points"]:
            parts.append(table(head, _point_rows(dep["points"], folds)))
    return "".join(parts)


def how_to_read(kind: str) -> str:
    """The "How to read this report" section of a multiclass or fold page."""
    return (
        '<h2 id="how-to-read">How to read this report</h2>'
        f"<p>{_HOW_TO_READ[kind]}</p><p>{_COMMON_HOW_TO_READ}</p>"
    )


def settings_html(rows: Sequence[tuple[str, str]], data: dict[str, Any]) -> str:
    """The Settings section (values are text, escaped here) and the files written."""
    body = [[html.escape(k), html.escape(v)] for k, v in rows]
    files = ", ".join(f"<code>{html.escape(f)}</code>" for f in data["files"])
    return (
        '<h2 id="settings">Settings</h2>'
        + table(["setting", "value"], body)
        + f'<p class="note">Files written with this page: {files}. <code>summary.json</code> '
        f"holds every number shown here. {files_note(data.get('curve_files'))}</p>"
    )
