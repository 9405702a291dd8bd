"""DeLong's inference on the page: the ROC AUC intervals and the paired tests, and their JSON.

:func:`roc_delong_entry` is ``summary.json``'s ``roc_delong`` key; :func:`roc_auc_interval`
gives the summary table's "ROC AUC CI (DeLong)" cell and :func:`delong_tests_html` the table
of paired tests, both from that entry (so the page and the JSON cannot disagree).
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ..analysis._analysis import Analysis
from ._templates import code, render

__all__ = ["delong_tests_html", "roc_auc_interval", "roc_delong_entry"]


def _num(x: Any) -> float | None:
    v = float(x)
    return v if v == v and abs(v) != float("inf") else None


def roc_delong_entry(analysis: Analysis) -> dict[str, Any] | None:
    """``summary.json``'s ``roc_delong``: each scorer's interval, each pair's test, the rows
    the tests used and the notes."""
    found = analysis.roc_delong
    if found is None:
        return None
    return {
        "level": analysis.settings.level,
        "scorers": {
            name: {
                "auc": _num(r.auc),
                "standard_error": _num(r.standard_error),
                "low": _num(r.ci.low),
                "high": _num(r.ci.high),
            }
            for name, r in found.intervals.items()
        },
        "comparisons": [
            {
                "a": a,
                "b": b,
                "auc_a": _num(t.auc_a),
                "auc_b": _num(t.auc_b),
                "difference": _num(t.difference),
                "standard_error": _num(t.standard_error),
                "low": _num(t.ci.low),
                "high": _num(t.ci.high),
                "statistic": _num(t.statistic),
                "p_value": _num(t.p_value),
                "correlation": _num(t.correlation),
            }
            for a, b, t in found.tests
        ],
        "rows": found.rows,
        "n": found.n,
        "notes": list(found.notes),
    }


def _p_value(p: float | None) -> str:
    """A normal-theory p-value: two significant digits, "< 0.0001" below that."""
    if p is None:
        return "–"
    if p >= 0.01:
        return f"{p:.2f}"
    return "< 0.0001" if p < 1e-4 else f"{p:.2g}"


def roc_auc_interval(data: dict[str, Any], name: str) -> str:
    """The summary table's cell: the scorer's DeLong interval, or "–"."""
    entry = (data.get("roc_delong") or {}).get("scorers", {}).get(name)
    if entry is None or entry["low"] is None:
        return "–"
    return f"[{entry['low']:.4f}, {entry['high']:.4f}]"


def delong_tests_html(data: dict[str, Any]) -> Markup:
    """The paired DeLong tests of the ROC AUCs, and the notes (nothing without either)."""
    entry = data.get("roc_delong")
    if not entry or not (entry["comparisons"] or entry["notes"]):
        return Markup()
    level = entry["level"]
    head = ["A − B", "ROC AUC of A", "ROC AUC of B", "difference", f"{level:.0%} CI",
            "p-value (two-sided)"]  # fmt: skip
    rows = [
        [code(c["a"]) + " − " + code(c["b"]), f"{c['auc_a']:.4f}", f"{c['auc_b']:.4f}",
         f"{c['difference']:+.4f}", f"[{c['low']:.4f}, {c['high']:.4f}]", _p_value(c["p_value"])]
        for c in entry["comparisons"]
    ]  # fmt: skip
    rows_used = (
        f"all {entry['n']:,} rows"
        if entry["rows"] >= entry["n"]
        else f"a stratified random subsample of {entry['rows']:,} of the {entry['n']:,} rows "
        "(the standard errors scaled to all rows; see the note)"
    )
    return render(
        "binary/delong.html", head=head, rows=rows, rows_used=rows_used, notes=entry["notes"]
    )
