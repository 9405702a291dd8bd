"""The report's table "What other tools would report for these scores", and its JSON entry.

:func:`other_tools_entry` turns the analysis's :class:`~..analysis._other_tools.OtherTools` into
``summary.json``'s ``other_tools`` key; :func:`other_tools_html` draws the table from that
entry (so the page and the JSON cannot disagree): one row per tool convention, per scorer the
tool's value and its difference from prcurve's average precision, and why it differs.
"""

from __future__ import annotations

import html
from typing import Any

from ...compat import TOOLS
from ..analysis._analysis import Analysis

__all__ = ["other_tools_entry", "other_tools_html"]


def _num(x: float | None) -> float | None:
    return None if x is None else float(x)


def other_tools_entry(analysis: Analysis) -> dict[str, Any] | None:
    """``summary.json``'s ``other_tools``: per scorer every tool's value, its difference from
    AP and from the Davis–Goadrich area, why, and the tool farthest from AP."""
    found = analysis.other_tools
    if found is None:
        return None
    scorers: dict[str, Any] = {}
    for name, table in found.tables.items():
        tools: list[dict[str, Any]] = [
            {
                "tool": r.tool,
                "call": TOOLS[r.tool].tool,
                "value": _num(r.value),
                "minus_ap": _num(r.minus_ap),
                "minus_dg": _num(r.minus_dg),
                "why": r.reason,
            }
            for r in table.rows
        ]
        valued = [t for t in tools if t["minus_ap"] is not None]
        largest = max(valued, key=lambda t: abs(t["minus_ap"])) if valued else None
        rows, recall, precision = found.first_points[name]
        scorers[name] = {
            "first_operating_point": {
                "rows": _num(rows),
                "recall": _num(recall),
                "precision": _num(precision),
            },
            "average_precision": float(table.average_precision),
            "davis_goadrich": float(table.davis_goadrich),
            "tools": tools,
            "largest_difference": None
            if largest is None
            else {"tool": largest["tool"], "minus_ap": largest["minus_ap"]},
        }
    return {"scorers": scorers, "notes": list(found.notes)}


def _cell(t: dict[str, Any]) -> str:
    if t["value"] is None:
        return "–"
    return f"{t['value']:.4f} ({t['minus_ap']:+.4f})"


def other_tools_html(data: dict[str, Any]) -> str:
    """The section, from ``summary.json``'s ``other_tools`` entry ("" without one)."""
    entry = data.get("other_tools")
    if not entry or not (entry["scorers"] or entry["notes"]):
        return ""
    esc = html.escape
    parts = [
        '<h2 id="other-tools">What other tools would report for these scores</h2>',
        '<p class="note">Each tool\'s AUC-PR for the same scores, computed as the tool computes '
        "it (its default options; <code>prcurve.compat</code> cites the source each convention "
        "was read from), and in brackets its difference from prcurve's average precision (AP). "
        "None of these is wrong about its own definition; they differ in how the curve is "
        "interpolated between operating points, where it starts, whether scores are binned "
        "and how ties are handled.</p>",
    ]
    scorers = entry["scorers"]
    if scorers:
        names = list(scorers)
        head = ["tool (call)"] + [f"{n}: AUC-PR (− AP)" for n in names] + ["why it differs"]
        first = scorers[names[0]]["tools"]
        rows = []
        for i, t in enumerate(first):
            cells = [_cell(scorers[n]["tools"][i]) for n in names]
            rows.append(
                f"<tr><td><code>{esc(t['tool'])}</code> ({esc(t['call'])})</td>"
                + "".join(f"<td>{c}</td>" for c in cells)
                + f'<td class="why">{esc(t["why"])}</td></tr>'
            )
        ap_row = "".join(f"<td>{scorers[n]['average_precision']:.4f}</td>" for n in names)
        th = "".join(f"<th>{esc(h)}</th>" for h in head)
        parts.append(
            f'<table class="other-tools"><thead><tr>{th}</tr></thead><tbody>'
            f"<tr><td>prcurve average precision (AP)</td>{ap_row}<td></td></tr>"
            + "".join(rows)
            + "</tbody></table>"
        )
        for n in names:
            big, top = scorers[n]["largest_difference"], scorers[n]["first_operating_point"]
            if big is not None:
                parts.append(
                    f'<p class="note">Largest difference for <code>{esc(n)}</code>: '
                    f"<code>{esc(big['tool'])}</code>, {big['minus_ap']:+.4f} from AP. The top "
                    f"score is shared by {top['rows']:,.0f} row(s) (first operating point: "
                    f"recall {top['recall']:.3f}, precision {top['precision']:.3f}); the tools' "
                    "start points — (0, 1), (0, first precision), a rectangle — part the more, "
                    "the further that point is from recall 0.</p>"
                )
    if entry["notes"]:
        parts.append("<ul>" + "".join(f"<li>{esc(n)}</li>" for n in entry["notes"]) + "</ul>")
    return "\n".join(parts)
