"""The report's interval steps: closed-form intervals, the AP bootstrap, the band and the paired
comparison, each a task a worker process may run (``(result, notes)``), and the rules choosing
the headline interval and the band's method.
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from ..._inference._auc_ci import AUCPRInterval, auc_pr_ci, auc_pr_interval
from ..._inference._band import pr_confidence_band
from ..._inference._compare import compare

__all__ = [
    "BAND_IGNORES_WEIGHTS",
    "BOOTSTRAP_METHOD",
    "FALLBACK_REASON",
    "HEADLINE_KINDS",
    "HEADLINE_REASON",
    "band_method",
    "closed_form_intervals",
    "headline_interval",
    "headline_reason",
]


#: Closed-form intervals computed for every AUC-PR estimator.
CLOSED_FORM_INTERVALS = ("binomial", "logit")
#: The estimator that also gets a bootstrap interval (the bootstrap of the others is costlier).
BOOTSTRAP_METHOD = "average_precision"


#: The package's folder: a warning attributed to a line in it is prcurve's.
_PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def report_warnings(caught: list[warnings.WarningMessage]) -> list[warnings.WarningMessage]:
    """The caught warnings that prcurve issued (attributed to a line of prcurve, as its own
    warnings and NumPy's and SciPy's on its calls are), in order.

    Warning filters are process-wide: while a step records its warnings, a third-party
    deprecation raised elsewhere at the same moment (the figures are drawn in a thread, and
    matplotlib < 3.7 calls deprecated pyparsing names) is caught too.  It says nothing about the
    data, so it is not made a note of the report.
    """
    return [w for w in caught if os.path.abspath(w.filename).startswith(_PACKAGE + os.sep)]


def _guarded(notes: list[str], what: str, func: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    """Run one inference step; its warnings and data-dependent errors become report notes."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = func(*args, **kw)
        except ValueError as exc:
            notes.append(f"{what}: not computed ({exc})")
            result = None
    for w in report_warnings(caught):
        notes.append(f"{what}: {w.message}")
    return result


def closed_form_intervals(
    auc_pr: dict[str, float], n_pos: float, level: float
) -> tuple[dict[str, dict[str, AUCPRInterval]], list[str]]:
    """Binomial and logit intervals of every AUC-PR estimate (from the curve: no re-sort)."""
    notes: list[str] = []
    cis: dict[str, dict[str, AUCPRInterval]] = {}
    for method, estimate in auc_pr.items():
        for kind in CLOSED_FORM_INTERVALS:
            res = _guarded(
                notes, f"{kind} interval of {method}", auc_pr_interval, estimate, n_pos,
                interval=kind, level=level, method=method,
            )  # fmt: skip
            if res is not None:
                cis.setdefault(method, {})[kind] = res
    return cis, notes


def _bootstrap_task(
    y: np.ndarray,
    score: np.ndarray,
    w: np.ndarray | None,
    level: float,
    b: int,
    seed: Any,
    progress: Any = None,
) -> tuple[Any, list[str]]:
    notes: list[str] = []
    res = _guarded(
        notes, f"bootstrap interval of {BOOTSTRAP_METHOD}", auc_pr_ci, y, score,
        method=BOOTSTRAP_METHOD, interval="bootstrap_percentile", level=level, n_resamples=b,
        rng=np.random.default_rng(seed), progress=progress, sample_weight=w,
    )  # fmt: skip
    return res, notes


#: The headline AP interval and the fallbacks, best-covering first (see :func:`headline_interval`).
HEADLINE_KINDS = ("logit", "bootstrap_percentile", "binomial")


def headline_reason(level: float) -> str:
    """Why the headline interval is the logit one (the page and summary.json show it), at the
    report's ``--level``: its coverage was measured at 95 %, so another level says so rather
    than calling 95 % its nominal level."""
    nominal = f"{level * 100:.4g} %"
    measured = (
        f"its nominal {nominal}"
        if abs(level - 0.95) < 1e-12
        else f"its nominal level (measured at 95 %; this report's level is {nominal}, at which "
        "its coverage was not measured)"
    )
    return (
        "logit interval (Boyd, Eng & Page 2013): of the intervals the report computes it is the "
        f"one whose measured coverage stayed at or near {measured} in every setting measured — "
        "0.93–0.98 on binormal, Hughes-Oliver Case A and discrete scores at n = 1000, 0.96 at "
        "about 25 positives, 0.945 at π = 0.3, n = 200 (bench/coverage_intervals.py, "
        "bench/coverage_before_after.py) — while the percentile bootstrap fell to 0.92 at "
        "n = 200; it needs no resampling, so it is computed on all rows even when the bootstrap "
        "runs on a subsample"
    )


#: Why the headline interval is the logit one, at the default level 95 %.
HEADLINE_REASON = headline_reason(0.95)

#: Why, when the logit interval could not be computed (the notes say why), another is shown.
FALLBACK_REASON = (
    "the logit interval was not computed (see the notes), so the next best-covering interval "
    "the report has is shown"
)


def headline_interval(cis: dict[str, dict[str, AUCPRInterval]]) -> AUCPRInterval | None:
    """The report's headline interval of average precision: the first of
    :data:`HEADLINE_KINDS` that was computed (its ``kind`` names the method)."""
    ap = cis.get(BOOTSTRAP_METHOD, {})
    return next((ap[k] for k in HEADLINE_KINDS if k in ap), None)


#: Why a weighted report has no confidence band.
BAND_IGNORES_WEIGHTS = (
    "confidence band: not computed, because the smoothed bootstrap band (Clémençon & Vayatis "
    "2009) takes no sample weights in prcurve; an unweighted band would not be about the "
    "weighted curve drawn here"
)


#: The band step's result when there is none (weighted data): no band, the reason, no time.
NO_BAND: tuple[Any, list[str], float] = (None, [BAND_IGNORES_WEIGHTS], 0.0)
#: The result of a step that did not run (the threshold choice on the Dask engine's subsample).
NO_STEP: tuple[Any, list[str], float] = (None, [], 0.0)


#: The naive bootstrap band is used when a scorer has fewer distinct scores than
#: ``max(DISCRETE_MIN_DISTINCT, n / DISCRETE_ROWS_PER_SCORE)`` (see :func:`band_method`).
DISCRETE_MIN_DISTINCT = 50
DISCRETE_ROWS_PER_SCORE = 20


def band_method(score: np.ndarray, *, whole: tuple[int, int] | None = None) -> tuple[str, str]:
    """The band method for these scores, and why (written into the report).

    The smoothed bootstrap band (Clémençon & Vayatis 2009) resamples from kernel estimates of
    continuous class densities; on scores with a few distinct values (a decision tree's leaves,
    ratings) its replicates spread the atoms and the band misses the curve: measured coverage
    0.06 on Hughes-Oliver Case F (15 distinct scores) against 0.95 for the naive bootstrap
    band (``bench/coverage_intervals.py``, n = 1000).  So scores with fewer distinct values than
    max(50, n/20) — on average 20 or more rows per value — get ``method="bootstrap"``; others
    get the smoothed band, which covers 0.95–0.98 on continuous and on rounded scores (about 80
    values in 1000 rows).

    ``score`` are the rows the band resamples.  When they are a subsample of the data,
    ``whole = (rows, distinct scores)`` of all the data: the reason then names both, so the
    subsample is not mistaken for the data.
    """
    n = int(score.shape[0])
    distinct = int(np.unique(score).shape[0])
    limit = max(DISCRETE_MIN_DISTINCT, n / DISCRETE_ROWS_PER_SCORE)
    counted = f"{distinct:,} distinct scores in {n:,} rows"
    if whole is not None:
        counted = (
            f"{distinct:,} distinct scores in the {n:,} rows the band resamples (a stratified "
            f"subsample of all {whole[0]:,} rows, which have {whole[1]:,} distinct scores)"
        )
    if distinct < limit:
        return "bootstrap", (
            f"naive bootstrap: {counted} (fewer than "
            f"max({DISCRETE_MIN_DISTINCT}, n/{DISCRETE_ROWS_PER_SCORE}) = {limit:,.0f}); the "
            "smoothed band assumes continuous scores and under-covers on discrete ones "
            "(measured 0.06 against 0.95 for the naive band on a 15-valued score)"
        )
    return "smoothed_bootstrap", (
        f"smoothed bootstrap (Clémençon & Vayatis 2009): {counted} (at least "
        f"max({DISCRETE_MIN_DISTINCT}, n/{DISCRETE_ROWS_PER_SCORE}) = {limit:,.0f}), so the "
        "scores are treated as continuous"
    )


def _band_task(
    y: np.ndarray,
    score: np.ndarray,
    w: np.ndarray | None,
    level: float,
    b: int,
    seed: Any,
    whole: tuple[int, int] | None = None,
    progress: Any = None,
) -> tuple[Any, list[str]]:
    """The band and the reason for its method, ``((band, reason), notes)``; ``whole`` as in
    :func:`band_method` (the rows and distinct scores of all the data, when ``score`` is a
    subsample)."""
    if w is not None:
        return None, [BAND_IGNORES_WEIGHTS]
    notes: list[str] = []
    method, reason = band_method(score, whole=whole)
    res = _guarded(
        notes, "confidence band", pr_confidence_band, y, score, level=level, n_resamples=b,
        rng=np.random.default_rng(seed), progress=progress, method=method,
    )  # fmt: skip
    return (None if res is None else (res, reason)), notes


def _compare_task(
    y: np.ndarray,
    a: np.ndarray,
    b_score: np.ndarray,
    w: np.ndarray | None,
    level: float,
    b: int,
    seed: Any,
    what: str,
    progress: Any = None,
) -> tuple[Any, list[str]]:
    notes: list[str] = []
    res = _guarded(
        notes, what, compare, y, a, b_score, level=level, n_resamples=b,
        rng=np.random.default_rng(seed), progress=progress, sample_weight=w,
    )  # fmt: skip
    return res, notes
