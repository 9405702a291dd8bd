"""The report's table "What other tools would report for these scores", and its JSON entry.

:func:`other_tools_entry` turns the analysis's :class:`~..analysis._other_tools.OtherTools` into
``summary.json``'s ``other_tools`` key; :func:`other_tools_html` draws the table from that
entry (so the page and the JSON cannot disagree): one row per tool convention, per scorer the
tool's value and its difference from prcurve's average precision, and why it differs.
"""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ...compat import TOOLS
from ..analysis._analysis import Analysis
from ..analysis._other_tools import START_POINT_TOOLS, bin_options
from ._templates import code, render

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
                "bins": bin_options(r.tool),
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
            else {
                "tool": largest["tool"],
                "minus_ap": largest["minus_ap"],
                "why": largest["why"],
                "start_point": largest["tool"] in START_POINT_TOOLS,
            },
        }
    return {"scorers": scorers, "notes": list(found.notes)}


def _cell(t: dict[str, Any]) -> str:
    if t["value"] is None:
        return "–"
    return f"{t['value']:.4f} ({t['minus_ap']:+.4f})"


def other_tools_html(data: dict[str, Any]) -> Markup:
    """The section, from ``summary.json``'s ``other_tools`` entry (nothing without one)."""
    entry = data.get("other_tools")
    if not entry or not (entry["scorers"] or entry["notes"]):
        return Markup()
    scorers = entry["scorers"]
    names = list(scorers)
    head = ["tool (call)"] + [f"{n}: AUC-PR (− AP)" for n in names] + ["why it differs"]
    rows: list[list[Any]] = []
    largest = []
    if names:
        rows.append(
            ["prcurve average precision (AP)"]
            + [f"{scorers[n]['average_precision']:.4f}" for n in names]
            + [""]
        )
        for i, t in enumerate(scorers[names[0]]["tools"]):
            bins = "".join(f"; {k} = {v:,}" for k, v in t["bins"].items())
            call = code(t["tool"]) + f" ({t['call']}{bins})"
            rows.append([call] + [_cell(scorers[n]["tools"][i]) for n in names] + [t["why"]])
        for n in names:
            big, top = scorers[n]["largest_difference"], scorers[n]["first_operating_point"]
            if big is not None:
                largest.append({
                    "name": n, "tool": big["tool"], "minus_ap": f"{big['minus_ap']:+.4f}",
                    "why": big["why"], "start_point": big["start_point"],
                    "rows": f"{top['rows']:,.0f}", "recall": f"{top['recall']:.3f}",
                    "precision": f"{top['precision']:.3f}",
                })  # fmt: skip
    return render(
        "binary/other_tools.html", head=head, rows=rows, largest=largest, notes=entry["notes"]
    )
