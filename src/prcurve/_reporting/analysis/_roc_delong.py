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

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations

import numpy as np
from scipy.special import ndtr, ndtri

from ..._core._counts import BinaryCounts
from ..._core._results import ConfidenceInterval
from ..._inference._delong import DeLongAUC, DeLongTest, delong_test, roc_auc_delong_from_counts
from ._intervals import _guarded

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
        tests = [(a, b, _to_all_rows(t, intervals, a, b, rows / n, level)) for a, b, t in tests]
        test_notes.insert(
            0,
            f"The paired DeLong tests' standard errors were estimated on a stratified random "
            f"subsample of {rows:,} of the {n:,} rows (they need each row's scores under both "
            f"scorers) and scaled to all rows by √({rows:,}/{n:,}), as the report's other "
            "comparisons are; their AUCs and differences, and each ROC AUC's interval, use "
            "every row.",
        )
    return RocDeLong(intervals, tests, rows, n, notes + test_notes)


def _to_all_rows(
    test: DeLongTest, exact: Mapping[str, DeLongAUC], a: str, b: str, fraction: float,
    level: float,
) -> DeLongTest:  # fmt: skip
    """A paired test on a stratified subsample moved to all rows: the exact AUCs and their
    difference (from the counts), DeLong's standard error times √(m/n) (the variance of the
    U-statistic difference falls as 1/n at fixed class proportions), the statistic, p-value
    and interval recomputed from those.  Without both exact AUCs the test is kept as drawn."""
    if a not in exact or b not in exact or test.alternative != "two-sided":
        return test
    auc_a, auc_b = exact[a].auc, exact[b].auc
    diff = auc_a - auc_b
    se = test.standard_error * math.sqrt(fraction)
    stat = (0.0 if diff == 0 else math.copysign(math.inf, diff)) if se == 0 else diff / se
    z = float(ndtri(0.5 + level / 2))
    return replace(
        test, auc_a=auc_a, auc_b=auc_b, difference=diff, standard_error=se, statistic=stat,
        p_value=float(2 * ndtr(-abs(stat))), ci=ConfidenceInterval(diff - z * se, diff + z * se),
    )  # fmt: skip
