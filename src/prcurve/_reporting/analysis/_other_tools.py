"""The report's "what other tools would report for these scores": every tool's AUC-PR, per scorer.

A user who gets 0.43 from prcurve and 0.47 from an old pipeline needs to see which convention
gives which number.  For each scorer this step runs :func:`prcurve.compat.compare_tools_from_counts`
on the scorer's exact sorted counts — the same count table every curve of the report comes
from — so it needs no rows and works on every engine (memory, Dask, Spark) alike.  Each tool's
value comes with its difference from prcurve's average precision and the one-line reason
(interpolation, start point, binning, ties).

Counts that are not exact (a curve an engine has thinned for the page) would give other values
than the tools give on the data, so such a scorer gets no table and a note saying why; with
sample weights the tools that take none get no value (they cannot be run on weighted data).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from ..._core._counts import BinaryCounts
from ..._core._empirical import PRCurve
from ...compat import TOOLS, ToolComparison, compare_tools_from_counts

__all__ = ["START_POINT_TOOLS", "OtherTools", "bin_options", "exact_counts", "other_tools"]

#: The tools whose convention differs from AP at the start of the curve (where it begins: from
#: (0, 1), from (0, first precision), a rectangle up to the first point, the first instance):
#: only for these do the first operating point's facts explain a difference.  The others differ
#: by interpolation, binning, clipping or ties, which the first point says nothing about.
START_POINT_TOOLS = frozenset({"spark", "precrec", "prroc_dg", "rocr", "yardstick", "auc_jar"})


def bin_options(tool: str) -> dict[str, int]:
    """A tool's default numbers of bins or thresholds (``{"num_thresholds": 200}`` for Keras;
    empty for the tools that do not bin), so a binned tool's row can say how many it used."""
    return {
        k: v
        for k, v in TOOLS[tool].options.items()
        if isinstance(v, int) and not isinstance(v, bool)
    }


@dataclass(frozen=True)
class OtherTools:
    """Every reproduced tool's AUC-PR for each scorer.

    Attributes
    ----------
    tables : dict
        Scorer → its :class:`prcurve.compat.ToolComparison` (scorers without exact counts are
        absent; :attr:`notes` says why).
    notes : list of str
        What was not computed, and why.
    """

    tables: dict[str, ToolComparison]
    notes: list[str] = field(default_factory=list)
    #: Scorer → (rows tied at its top score, recall, precision) of its first operating point:
    #: where the tools' start-point conventions (from (0, 1), from the first precision, a
    #: rectangle) part, the further the more rows share the top score.
    first_points: dict[str, tuple[float, float, float]] = field(default_factory=dict)


def exact_counts(pr: PRCurve) -> BinaryCounts | None:
    """The count table a report curve was built from, or None when the curve is not exact.

    A curve made by :meth:`PRCurve.from_counts` with the ``score >= t`` rule holds the counts
    unchanged (thresholds are the distinct scores); a thinned curve has lost operating points.
    """
    if pr.thinning is not None or pr.threshold_rule != "ge":
        return None
    return BinaryCounts(pr.thresholds, pr.tp, pr.fp, pr.n_pos, pr.n_neg)


def other_tools(counts: Mapping[str, BinaryCounts | None]) -> OtherTools:
    """Each scorer's tool table from its exact counts (None: not exact, noted)."""
    tables: dict[str, ToolComparison] = {}
    first: dict[str, tuple[float, float, float]] = {}
    notes: list[str] = []
    for name, c in counts.items():
        if c is None:
            notes.append(
                f"what other tools would report: not computed for {name!r}, because this "
                "engine kept a thinned curve rather than the exact counts per distinct score, "
                "and the tools' values depend on every operating point"
            )
            continue
        tables[name] = compare_tools_from_counts(c)
        tp, fp = float(c.tp[0]), float(c.fp[0])
        first[name] = (tp + fp, tp / float(c.n_pos), tp / (tp + fp))
    return OtherTools(tables, notes, first)
