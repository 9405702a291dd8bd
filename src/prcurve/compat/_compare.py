"""``compare_tools``: what every reproduced tool would report for one set of scores.

The table answers "I get 0.43 from prcurve and 0.47 from my old pipeline: which is right, and
why?"  Each row holds a tool's value, its difference from prcurve's average precision (AP, the
step sum) and from the exact Davis–Goadrich area (DG, the integral of the correctly
interpolated curve), and the one-line convention that explains the difference.  The input is
counted once; every tool reads the same count table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .._core._area import area_from_counts
from .._core._counts import BinaryCounts, binary_counts
from .._core._disk import release_all
from .._core._results import compact_repr
from ._auc import _options, check_counts, tool_area
from ._tools import TOOLS

__all__ = ["ToolComparison", "ToolValue", "compare_tools", "compare_tools_from_counts"]


@compact_repr
@dataclass(frozen=True)
class ToolValue:
    """One tool's AUC-PR on the compared scores.

    Attributes
    ----------
    tool : str
        The name in :data:`prcurve.compat.TOOLS`.
    value : float or None
        The tool's value; None when the tool cannot take the sample weights given.
    minus_ap, minus_dg : float or None
        ``value`` minus prcurve's average precision / Davis–Goadrich area.
    reason : str
        Why it differs (the tool's convention, or why there is no value).
    """

    tool: str
    value: float | None
    minus_ap: float | None
    minus_dg: float | None
    reason: str


@compact_repr
@dataclass(frozen=True)
class ToolComparison:
    """Every tool's value for one set of scores, against AP and DG.

    Attributes
    ----------
    rows : tuple of ToolValue
        One per tool, in the order of :data:`prcurve.compat.TOOLS`.
    average_precision, davis_goadrich : float
        prcurve's ``auc_pr(method="average_precision")`` and ``method="davis_goadrich"``.
    """

    rows: tuple[ToolValue, ...]
    average_precision: float
    davis_goadrich: float

    def value(self, tool: str) -> float | None:
        """The value of one tool (by name)."""
        for row in self.rows:
            if row.tool == tool:
                return row.value
        raise KeyError(
            f"tool: expected one of {', '.join(r.tool for r in self.rows)}, got {tool!r}"
        )

    def largest_difference(self) -> ToolValue:
        """The row farthest from the exact Davis–Goadrich area."""
        return max(
            (r for r in self.rows if r.minus_dg is not None), key=lambda r: abs(r.minus_dg or 0.0)
        )

    def to_markdown(self, digits: int = 4) -> str:
        """A Markdown table: tool, value, value − AP, value − DG, why it differs."""
        lines = [
            f"AP = {self.average_precision:.{digits}f}, DG = {self.davis_goadrich:.{digits}f}",
            "",
            "| tool | AUC-PR | − AP | − DG | why it differs |",
            "|---|---|---|---|---|",
        ]
        for r in self.rows:
            if r.value is None:
                lines.append(f"| {r.tool} | – | – | – | {r.reason} |")
            else:
                lines.append(
                    f"| {r.tool} | {r.value:.{digits}f} | {r.minus_ap:+.{digits}f} "
                    f"| {r.minus_dg:+.{digits}f} | {r.reason} |"
                )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_markdown()


def compare_tools(
    y_true: Any, y_score: Any, *, sample_weight: Any = None, pos_label: Any = None
) -> ToolComparison:
    """What every tool of :data:`prcurve.compat.TOOLS` reports for these scores (its default
    options), beside prcurve's AP and Davis–Goadrich area.

    With ``sample_weight``, tools that take no weights get no value (``None``) and say so.

    Examples
    --------
    >>> from prcurve import compat
    >>> table = compat.compare_tools([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.7, 0.7, 0.1])
    >>> table.value("rocr") - table.davis_goadrich > 0
    True
    """
    counts = binary_counts(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    return _compare(counts, weighted=sample_weight is not None)


def compare_tools_from_counts(counts: BinaryCounts) -> ToolComparison:
    """:func:`compare_tools` from the engine's sorted counts (any engine: memory, Dask, Spark).

    Weighted (or soft-label) counts get no value from the tools that take no weights, as
    :func:`compare_tools` with ``sample_weight``.

    Examples
    --------
    >>> from prcurve import binary_counts, compat
    >>> counts = binary_counts([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.7, 0.7, 0.1])
    >>> round(compat.compare_tools_from_counts(counts).value("spark"), 4)
    0.7
    """
    counts = check_counts(counts)
    return _compare(counts, weighted=counts.weighted)


def _compare(counts: BinaryCounts, *, weighted: bool) -> ToolComparison:
    ap = area_from_counts(counts.tp, counts.fp, counts.n_pos, "average_precision")
    dg = area_from_counts(counts.tp, counts.fp, counts.n_pos, "davis_goadrich")
    rows = []
    for name, entry in TOOLS.items():
        if weighted and not entry.weights:
            rows.append(ToolValue(name, None, None, None, f"{entry.tool} takes no sample weights"))
            continue
        value = tool_area(counts, name, _options(name, {}))
        release_all()  # counts on disk: the pages the tool's reads mapped go back
        rows.append(ToolValue(name, value, value - ap, value - dg, entry.convention))
    return ToolComparison(tuple(rows), ap, dg)
