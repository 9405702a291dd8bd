"""DeLong's inference beside the report's ROC AUC: each scorer's interval, each pair's test.

Each scorer's interval (:func:`prcurve.roc_auc_delong_from_counts`) needs only the counts per
distinct score — a positive's placement is the share of negatives below it plus half the tied
ones — so it is computed from the scorer's exact count table, on every engine.  The paired test
of two scorers (:func:`prcurve.delong_test`) needs each instance's two scores: the memory engine
gives it every row; an engine that holds only a subsample gives the subsample, and
:attr:`RocDeLong.rows` says so on the page.  DeLong's variance is defined for unweighted
instances: with sample weights nothing is computed and a note says why.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from ..._core._counts import BinaryCounts
from ..._inference._delong import DeLongAUC, DeLongTest, delong_test, roc_auc_delong_from_counts

__all__ = ["RocDeLong", "paired_delong", "roc_delong"]

#: Why a weighted report has no DeLong inference.
WEIGHTED = (
    "DeLong's interval and test of the ROC AUC: not computed, because DeLong's variance is "
    "defined for unweighted instances and the report's curves use the sample weights"
)


@dataclass(frozen=True)
class RocDeLong:
    """DeLong's interval of each scorer's ROC AUC and the paired test of each pair.

    Attributes
    ----------
    intervals : dict
        Scorer → :class:`prcurve.DeLongAUC` (from its exact counts).
    tests : list of (a, b, DeLongTest)
        The paired test of ``AUC_a − AUC_b``, for each pair of scorers.
    rows, n : int
        Rows the paired tests used, of the ``n`` rows of the data (fewer: a subsample).
    notes : list of str
        What was not computed, warnings, and where the tests come from.
    """

    intervals: dict[str, DeLongAUC]
    tests: list[tuple[str, str, DeLongTest]]
    rows: int
    n: int
    notes: list[str] = field(default_factory=list)


def _guarded(notes: list[str], what: str, func: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    """One computation; its warnings and data-dependent errors become notes."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = func(*args, **kw)
        except ValueError as exc:
            notes.append(f"{what}: not computed ({exc})")
            result = None
    notes.extend(f"{what}: {w.message}" for w in caught)
    return result


def paired_delong(
    y: np.ndarray, scores: Mapping[str, np.ndarray], *, level: float
) -> tuple[list[tuple[str, str, DeLongTest]], list[str]]:
    """The paired DeLong test of every pair of scorers on the rows ``y``, ``scores``."""
    tests: list[tuple[str, str, DeLongTest]] = []
    notes: list[str] = []
    for a, b in combinations(scores, 2):
        what = f"DeLong test of {a} and {b}"
        res = _guarded(notes, what, delong_test, y, scores[a], scores[b], level=level)
        if res is not None:
            tests.append((a, b, res))
    return tests, notes


def roc_delong(
    counts: Mapping[str, BinaryCounts | None],
    y: np.ndarray,
    scores: Mapping[str, np.ndarray],
    *,
    level: float,
    n: int,
    weighted: bool = False,
) -> RocDeLong:
    """Each scorer's DeLong interval from its exact counts (None: not exact, noted) and the
    paired tests on the rows ``y``, ``scores`` (``len(y)`` of the data's ``n`` rows: fewer
    when an engine holds only a subsample, which a note then says)."""
    if weighted:
        return RocDeLong({}, [], 0, n, [WEIGHTED])
    notes: list[str] = []
    intervals: dict[str, DeLongAUC] = {}
    for name, c in counts.items():
        what = f"DeLong interval of the ROC AUC of {name}"
        if c is None:
            notes.append(
                f"{what}: not computed, because this engine kept a thinned curve rather than "
                "the exact counts per distinct score"
            )
            continue
        res = _guarded(notes, what, roc_auc_delong_from_counts, c, level=level)
        if res is not None:
            intervals[name] = res
    tests, test_notes = paired_delong(y, scores, level=level)
    rows = int(y.shape[0])
    if tests and rows < n:
        test_notes.insert(
            0,
            f"The paired DeLong tests were computed on a uniform random subsample of {rows:,} "
            f"of the {n:,} rows (they need each row's scores under both scorers); the "
            "intervals of each ROC AUC use every row.",
        )
    return RocDeLong(intervals, tests, rows, n, notes + test_notes)
