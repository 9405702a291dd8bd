"""DeLong's inference on the page: the ROC AUC intervals and the paired tests, and their JSON.

:func:`roc_delong_entry` is ``summary.json``'s ``roc_delong`` key; :func:`roc_auc_interval`
gives the summary table's "ROC AUC CI (DeLong)" cell and :func:`delong_tests_html` the table
of paired tests, both from that entry (so the page and the JSON cannot disagree).
"""

from __future__ import annotations

import html
from typing import Any

from ..analysis._analysis import Analysis

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


def delong_tests_html(data: dict[str, Any]) -> str:
    """The paired DeLong tests of the ROC AUCs, and the notes ("" without either)."""
    entry = data.get("roc_delong")
    if not entry or not (entry["comparisons"] or entry["notes"]):
        return ""
    esc = html.escape
    parts = ['<h3 id="delong">ROC AUC: paired DeLong tests</h3>']
    if entry["comparisons"]:
        level = entry["level"]
        head = ["A − B", "ROC AUC of A", "ROC AUC of B", "difference", f"{level:.0%} CI",
                "p-value (two-sided)"]  # fmt: skip
        th = "".join(f"<th>{esc(h)}</th>" for h in head)
        rows = "".join(
            f"<tr><td><code>{esc(c['a'])}</code> − <code>{esc(c['b'])}</code></td>"
            f"<td>{c['auc_a']:.4f}</td><td>{c['auc_b']:.4f}</td><td>{c['difference']:+.4f}</td>"
            f"<td>[{c['low']:.4f}, {c['high']:.4f}]</td>"
            f"<td>{esc(_p_value(c['p_value']))}</td></tr>"
            for c in entry["comparisons"]
        )
        parts.append(f'<table class="delong"><thead><tr>{th}</tr></thead><tbody>{rows}</tbody>')
        parts.append("</table>")
        rows_used = (
            f"all {entry['n']:,} rows"
            if entry["rows"] >= entry["n"]
            else f"a uniform random subsample of {entry['rows']:,} of the {entry['n']:,} rows"
        )
        parts.append(
            '<p class="note">DeLong, DeLong &amp; Clarke-Pearson (1988), paired: the covariance '
            "of the two scorers' placement values on the same instances enters the standard "
            f"error of the difference (equal to pROC's <code>roc.test</code>). Computed on "
            f"{rows_used}.</p>"
        )
    if entry["notes"]:
        parts.append("<ul>" + "".join(f"<li>{esc(n)}</li>" for n in entry["notes"]) + "</ul>")
    return "\n".join(parts)
