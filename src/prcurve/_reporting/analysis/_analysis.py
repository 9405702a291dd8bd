"""The analysis behind ``prcurve report``: every number, computed once, as plain result types.

:func:`analyse` computes, for every score column, the PR, ROC and PRG curves from one sort, every
AUC-PR estimator and the achievable curve, the intervals, the band and the paired comparisons,
and returns an :class:`Analysis`.  Rendering and writing live in ``_html`` and ``_write``, which
import these types; nothing here imports them.
"""

from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import combinations
from typing import Any

import numpy as np

from ..._core._area import AUC_PR_METHODS
from ..._core._counts import count_sorted
from ..._core._empirical import PRCurve, ROCCurve
from ..._core._validation import check_binary_problem
from ..._decision._depth import check_depth
from ..._decision._threshold_view import ThresholdView
from ..._inference._auc_ci import AUCPRInterval, auc_pr_ci, auc_pr_interval
from ..._inference._band import PRConfidenceBand, pr_confidence_band
from ..._inference._chance import BelowChanceTest, below_chance_test
from ..._inference._compare import ComparisonResult, compare
from ..._prg._curve import FBetaOptimum, PRGCurve
from .._progress import Progress, Stage, announce
from ..input._io import LabelledScores
from ._choice import STREAM as CHOICE_STREAM
from ._choice import ThresholdChoice, ViewBands, choice_task, flagged_rows, full_view, view_task
from ._operating import (
    DEFAULT_MIN_PRECISION,
    DEFAULT_MIN_RECALL,
    ESTIMATED_PI_ALL_ROWS,
    OperatingAnalysis,
    deployment_comparisons,
    fewest_flagged,
    operating_targets,
    operating_task,
)
from ._operating import STREAM as OPERATING_STREAM
from ._other_tools import OtherTools, exact_counts, other_tools
from ._roc_delong import RocDeLong, roc_delong
from ._sizing import (
    MAX_RESAMPLES,
    MIN_RESAMPLES,
    WORK,
    Plan,
    plan,
    plan_operating,
    plan_operating_exact,
    rescale_band,
    rescale_comparison,
    rescale_interval,
    subsample,
)
from ._topk import EXACT_ROWS as TOP_K_EXACT_ROWS

__all__ = [
    "Analysis",
    "InferenceStep",
    "ScorerAnalysis",
    "Settings",
    "analyse",
    "auto_resamples",
    "available_cpus",
    "band_method",
    "closed_form_intervals",
    "derived_curves",
    "headline_interval",
]

#: Closed-form intervals computed for every AUC-PR estimator.
CLOSED_FORM_INTERVALS = ("binomial", "logit")
#: The estimator that also gets a bootstrap interval (the bootstrap of the others is costlier).
BOOTSTRAP_METHOD = "average_precision"


def auto_resamples(n: int) -> int:
    """The most replicates any step gets with ``--n-resamples auto`` on ``n`` rows.

    Each step is sized separately (:func:`._sizing.plan`: a work budget per step, a stratified
    subsample on large data); :attr:`Analysis.inference` records what each step used.
    """
    return max(plan(task, n, max(n // 2, 1)).n_resamples for task in WORK)


@dataclass(frozen=True)
class Settings:
    """What the user asked for; written into the report."""

    source: str
    label: str
    scores: tuple[str, ...]
    positive_label: str
    level: float = 0.95
    n_resamples: int = 1000
    seed: int | None = 0
    out: str = "prcurve-report"
    n_resamples_auto: bool = False
    jobs: int = 1
    min_precision: tuple[float, ...] = DEFAULT_MIN_PRECISION
    min_recall: tuple[float, ...] = DEFAULT_MIN_RECALL
    prevalence: float | tuple[int, int] | None = None  # --prevalence or --prevalence-count
    weight: str | None = None
    cost_ratio: float | None = None  # --cost-ratio: c_FP/c_FN
    top_k: int | float | None = None  # --top-k: rows, or a fraction of them
    #: The "Choosing a threshold" step (threshold view, cost-optimal threshold, top K); the
    #: Dask engine's subsample analysis leaves it out (its options are refused there).
    threshold_choice: bool = True


@dataclass(frozen=True)
class ScorerAnalysis:
    """Every computed result for one score column.

    The ROC and PRG curves are not kept: each has as many points as the PR curve, and on
    millions of rows keeping both for every scorer would double the report's memory.  They are
    derived from ``pr`` when drawn or written (:attr:`roc`, :attr:`prg`; cheap, no sort), while
    the numbers quoted from them (``roc_auc``, ``auprg``, ``best_f1``) and their hulls are kept.
    """

    name: str
    pr: PRCurve
    achievable: PRCurve
    roc_hull: ROCCurve
    prg_hull: PRGCurve
    roc_auc: float
    auprg: float
    best_f1: FBetaOptimum
    auc_pr: dict[str, float]
    auc_pr_ci: dict[str, dict[str, AUCPRInterval]] = field(default_factory=dict)
    band: PRConfidenceBand | None = None
    band_reason: str = ""  # why the band has its method (see band_method)
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    operating: OperatingAnalysis | None = None
    #: The one-sided test of "worse than chance" (:mod:`.._inference._chance`).
    chance: BelowChanceTest | None = None
    #: "Choosing a threshold" (:mod:`._choice`): the threshold view with bands, and with
    #: ``--cost-ratio``/``--prevalence``/``--top-k`` the cost-optimal threshold and top K.
    view_bands: ViewBands | None = None
    choice: ThresholdChoice | None = None

    @property
    def roc(self) -> ROCCurve:
        """The ROC curve of ``pr`` (computed on each access)."""
        return self.pr.to_roc()

    @property
    def threshold_view(self) -> ThresholdView | None:
        """The threshold view of ``pr`` with its bands (computed on each access; None
        without the "Choosing a threshold" step)."""
        return None if self.view_bands is None else full_view(self.pr, self.view_bands)

    @property
    def prg(self) -> PRGCurve:
        """The precision-recall-gain curve of ``pr`` (computed on each access)."""
        return PRGCurve.from_pr(self.pr)


@dataclass(frozen=True)
class InferenceStep:
    """One resampling step of the report: what it resampled and how long it took.

    ``key`` is ``(scorer, "band")``, ``(scorer, "auc_pr_bootstrap")``,
    ``(scorer, "operating_points")``, ``(scorer, "threshold_view")``,
    ``(scorer, "threshold_choice")``, ``(scorer, "operating_at_prevalence")`` (its interval
    and band at π), ``(a, b)`` for the comparison of scorers a and b, or
    ``("a vs b", "compare_at_prevalence")`` for their comparison at π (``--prevalence``; its
    seconds are the stage's, shared equally among the pairs).
    """

    key: tuple[str, str]
    label: str
    plan: Plan
    seconds: float


@dataclass(frozen=True)
class Analysis:
    """The whole report's results."""

    settings: Settings
    n: int
    n_pos: int
    n_neg: int
    scorers: dict[str, ScorerAnalysis]
    comparisons: list[tuple[str, str, ComparisonResult]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    inference: list[InferenceStep] = field(default_factory=list)
    #: Paired comparisons at the deployment prevalence (``--prevalence``) and their notes.
    deployment_comparisons: list[tuple[str, str, ComparisonResult]] = field(default_factory=list)
    deployment_notes: list[str] = field(default_factory=list)
    #: "What other tools would report" and DeLong's ROC inference, from the exact counts.
    other_tools: OtherTools | None = None
    roc_delong: RocDeLong | None = None


def _timed(task: Callable[..., tuple[Any, list[str]]], *args: Any, **kw: Any) -> Any:
    """Run a task; return its result, its notes and its wall time (measured where it runs)."""
    t0 = time.perf_counter()
    res, notes = task(*args, **kw)
    return res, notes, time.perf_counter() - t0


def _guarded(notes: list[str], what: str, func: Callable[..., Any], *args: Any, **kw: Any) -> Any:
    """Run one inference step; its warnings and data-dependent errors become report notes."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = func(*args, **kw)
        except ValueError as exc:
            notes.append(f"{what}: not computed ({exc})")
            result = None
    for w in caught:
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
#: Why the headline interval is the logit one (the page and summary.json show it).
HEADLINE_REASON = (
    "logit interval (Boyd, Eng & Page 2013): of the intervals the report computes it is the one "
    "whose measured coverage stayed at or near its nominal 95 % in every setting measured — "
    "0.93–0.98 on binormal, Hughes-Oliver Case A and discrete scores at n = 1000, 0.96 at about "
    "25 positives, 0.945 at π = 0.3, n = 200 (bench/coverage_intervals.py, "
    "bench/coverage_before_after.py) — while the percentile bootstrap fell to 0.92 at n = 200; "
    "it needs no resampling, so it is computed on all rows even when the bootstrap runs on a "
    "subsample"
)

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


#: Below this many expected seconds of resampling (one core, ``_sizing.COST``) the steps run in
#: this process: starting worker processes costs something.  Forked workers are cheap: on 2 shared
#: CPUs the report took as long or less with them at 3000, 10⁴, 10⁵ and 10⁶ rows (2026); 0.3
#: keeps the small reports (≈ 0.2 expected seconds at a few thousand rows) in this process.
PARALLEL_MIN_SECONDS = 0.3


def available_cpus() -> int:
    """CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _start_method() -> str:
    import multiprocessing

    # fork is fastest, but from Python 3.12 forking a process with threads is deprecated
    if sys.platform.startswith("linux") and sys.version_info < (3, 12):
        return "fork"
    if "forkserver" in multiprocessing.get_all_start_methods():
        return "forkserver"
    return "spawn"


#: The steps a forked worker runs, inherited from the main process instead of pickled: each
#: step's arrays would otherwise be copied into a pickle per step (the main process's peak).
_FORKED_STEPS: list[tuple[Callable[..., Any], tuple[Any, ...]]] = []


def _forked_step(index: int) -> Any:
    """Run step ``index`` of :data:`_FORKED_STEPS` (in a forked worker)."""
    fn, args = _FORKED_STEPS[index]
    return _timed(fn, *args)


def _executor(jobs: int) -> Any:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    method = _start_method()
    return ProcessPoolExecutor(
        max_workers=jobs,
        mp_context=multiprocessing.get_context(method),
        initializer=_ignore_interrupts,
    )


def _ignore_interrupts() -> None:
    """Workers leave Ctrl-C to the main process (which stops them): no traceback from each."""
    import signal

    from .._memory import THRESHOLD, set_mmap_threshold, single_blas_thread

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    set_mmap_threshold(THRESHOLD)  # blocks re-use freed memory (see ._memory)
    single_blas_thread()  # no BLAS helper thread spinning on another worker's CPU


def _stop_workers(pool: Any) -> None:
    """Cancel what has not started, end the workers now (on Ctrl-C) and join the pool's
    manager thread: left running, it raced the interpreter's exit (``concurrent.futures``'
    exit hook woke it through a pipe it had closed: "Exception ignored ... Bad file
    descriptor" after the one-line message)."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # shutdown forgets them
    manager = getattr(pool, "_executor_manager_thread", None)  # and its thread
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in workers:
        proc.terminate()
    for proc in workers:
        proc.join(STOP_SECONDS)
    if manager is not None:
        manager.join(STOP_SECONDS)  # it ends once it sees the workers gone


#: How long stopping waits for each terminated worker and for the pool's thread.
STOP_SECONDS = 5.0


def _weighted_problem(
    y: np.ndarray, score: np.ndarray, w: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Rows of positive weight, the weights rescaled as every prcurve function does."""
    if w is None:
        return y, score, None
    return check_binary_problem(y, score, w)


def _start_share_note(pr: PRCurve, auc_pr: dict[str, float]) -> list[str]:
    """A note when most of the lower trapezoid comes from its assumed (0, 1) start."""
    value = auc_pr.get("lower_trapezoid", 0.0)
    r1, p1 = float(pr.recall[0]), float(pr.precision[0])
    start = r1 * (1.0 + p1) / 2.0
    if not value > 0 or start <= 0.5 * value:
        return []
    return [
        f"lower trapezoid: {start / value:.0%} of its value {value:.3f} is the segment from "
        f"the assumed start (recall 0, precision 1) to the first operating point (recall "
        f"{r1:.3f}, precision {p1:.3f}), not data; with the first operating point at such a "
        f"high recall read it with care (average precision: "
        f"{auc_pr.get('average_precision', float('nan')):.3f})"
    ]


def _effective_positives(y: np.ndarray, score: np.ndarray, w: np.ndarray | None) -> float:
    """n₊ of the binomial/logit intervals: Kish's effective number (Σw₊)²/Σw₊² with weights."""
    if w is None:
        return float(np.count_nonzero(y))
    wp = w[y]
    return float(wp.sum() ** 2 / np.sum(wp**2))


def _effective_counts(y: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """Kish's effective numbers (Σw)²/Σw² of the positives and of the negatives."""
    wp, wn = w[y], w[~y]
    return float(wp.sum() ** 2 / np.sum(wp**2)), float(wn.sum() ** 2 / np.sum(wn**2))


def _weights_note(column: str, comparisons: bool) -> str:
    return (
        f"sample weights (column {column!r}) are used by the curves, every AUC-PR estimate, "
        "the binomial and logit intervals (with Kish's effective number of positives) and the "
        "bootstrap interval (rows resampled with their weights)"
        + (", and the paired comparisons" if comparisons else "")
        + "; the confidence band is not computed (it takes no weights); rows of weight 0 "
        "are left out"
    )


Task = tuple[tuple[str, str], str, Callable[..., Any], tuple[Any, ...], Plan]
Problem = tuple[np.ndarray, np.ndarray, "np.ndarray | None"]


def _take(idx: np.ndarray | None, *arrays: Any) -> tuple[Any, ...]:
    """The rows ``idx`` of each array (None stays None; ``idx`` None: every row)."""
    if idx is None:
        return arrays
    return tuple(None if a is None else a[idx] for a in arrays)


def _operating_resamples(settings: Settings, n: int) -> int:
    """Replicates of a step at the deployment prevalence that resamples all ``n`` rows.

    ``--n-resamples N`` gives N; ``auto`` keeps rows × resamples near 10⁸, between
    :data:`._sizing.MIN_RESAMPLES` and :data:`._sizing.MAX_RESAMPLES`.  (The in-sample operating
    points are sized by :func:`._sizing.plan_operating`.)
    """
    if not settings.n_resamples_auto:
        return settings.n_resamples
    return int(min(MAX_RESAMPLES, max(MIN_RESAMPLES, 10**8 // max(n, 1))))


def _operating_tasks(
    problems: dict[str, Problem], curves: dict[str, dict[str, Any]], settings: Settings
) -> list[Task]:
    """The operating-point bootstraps as steps beside the others (so they run in parallel).

    Unweighted data: the points resample every row, coarse to fine
    (:func:`._sizing.plan_operating_exact`), from the curve already had (no sort).  Weighted
    data: sized by :func:`._sizing.plan_operating`, on large data a stratified subsample whose
    widths are rescaled.  The interval and band at a known π (``--prevalence``) are sized by
    :func:`._sizing.plan` (a subsample on large data, rescaled); with ``--prevalence-count``
    every row is resampled, :func:`_operating_resamples` times (the uncertainty of an estimated
    π does not shrink with n).  Each task gets every row and the indices of its subsample.
    """
    tasks: list[Task] = []
    b_user = None if settings.n_resamples_auto else settings.n_resamples
    targets = operating_targets(settings.min_precision, settings.min_recall)
    prevalences = (None,) if settings.prevalence is None else (None, settings.prevalence)
    estimated = isinstance(settings.prevalence, tuple)
    for index, (name, (y, s, w)) in enumerate(problems.items()):
        n, pr, n_pos = y.shape[0], curves[name]["pr"], int(np.count_nonzero(y))
        all_rows = Plan("operating_points", _operating_resamples(settings, n), n, n)
        centres = None
        if w is None:
            p = plan_operating_exact(n, n_pos, b_user)
            deploy = plan("operating_points", n, n_pos, b_user)
            note = estimated and deploy.subsampled
            deploy = all_rows if estimated else deploy
        else:
            flagged, centres = fewest_flagged(s, pr, targets, prevalences)
            p = plan_operating(n, n_pos, flagged, b_user)
            note = estimated and p.subsampled
            p = deploy = all_rows if estimated else p
        if settings.prevalence is None:
            deploy = p  # no step at π
        stream = np.random.SeedSequence(settings.seed, spawn_key=(OPERATING_STREAM, index, 3))
        idx = subsample(y, deploy.rows, stream) if deploy.subsampled else None
        options = dict(
            min_precision=settings.min_precision, min_recall=settings.min_recall,
            prevalence=settings.prevalence, level=settings.level, n_resamples=p.n_resamples,
            seed=settings.seed, index=index, plan=p, all_rows_note=note,
            centres=centres if p.subsampled else None, subsample_rows=idx, deploy_plan=deploy,
        )  # fmt: skip
        key, args = (name, "operating_points"), (y, s, w, pr, options)
        tasks.append((key, f"{name}: operating points", operating_task, args, p))
    return tasks


def _choice_tasks(
    problems: dict[str, Problem], curves: dict[str, dict[str, Any]], settings: Settings
) -> list[Task]:
    """The "Choosing a threshold" steps (:mod:`._choice`) of each scorer, beside the others.

    The threshold view's bands are sized by :func:`._sizing.plan` (``"threshold_view"``: a
    stratified subsample on large data, rescaled).  With ``--cost-ratio``, ``--prevalence`` or
    ``--top-k``, a second step, sized like the operating points of weighted data
    (:func:`._sizing.plan_operating` with ``task="threshold_choice"``): on large data a
    stratified subsample keeping on average :data:`._sizing.MIN_FLAGGED` of the rows the
    cost-optimal threshold and the top K flag; with ``--prevalence-count`` every row (the
    uncertainty of π does not shrink with n), :func:`_operating_resamples` times.
    """
    if not settings.threshold_choice:
        return []
    tasks: list[Task] = []
    b_user = None if settings.n_resamples_auto else settings.n_resamples
    choose = dict(
        cost_ratio=settings.cost_ratio, prevalence=settings.prevalence, top_k=settings.top_k
    )
    wanted = any(v is not None for v in choose.values())
    estimated = isinstance(settings.prevalence, tuple)
    for index, (name, (y, s, w)) in enumerate(problems.items()):
        n, pr, n_pos = y.shape[0], curves[name]["pr"], int(np.count_nonzero(y))
        p = plan("threshold_view", n, n_pos, b_user)
        stream = np.random.SeedSequence(settings.seed, spawn_key=(CHOICE_STREAM, index, 3))
        idx = subsample(y, p.rows, stream) if p.subsampled else None
        options: dict[str, Any] = dict(
            level=settings.level, plan=p, seed=settings.seed, index=index, subsample_rows=idx
        )
        args: tuple[Any, ...] = (y, s, w, pr, options)
        tasks.append(((name, "threshold_view"), f"{name}: threshold view", view_task, args, p))
        if not wanted:
            continue
        cost = settings.cost_ratio is not None or settings.prevalence is not None
        if estimated:
            p = Plan("threshold_choice", _operating_resamples(settings, n), n, n)
        elif not cost and w is None and check_depth(settings.top_k, n) <= TOP_K_EXACT_ROWS:
            # top K alone, shallow: every row, from the top rows only (._topk)
            b = plan("threshold_choice", n, n_pos, b_user).n_resamples
            p = Plan("threshold_choice", b, n, n)
        else:
            flagged = flagged_rows(
                y, s, w, pr, cost_ratio=settings.cost_ratio, prevalence=settings.prevalence,
                top_k=settings.top_k,
            )  # fmt: skip
            p = plan_operating(n, n_pos, flagged, b_user, task="threshold_choice")
        stream = np.random.SeedSequence(settings.seed, spawn_key=(CHOICE_STREAM, index, 2))
        idx = subsample(y, p.rows, stream) if p.subsampled else None
        options = dict(
            level=settings.level, plan=p, seed=settings.seed, index=index, subsample_rows=idx,
            **choose,
        )  # fmt: skip
        key, args = (name, "threshold_choice"), (y, s, w, pr, options)
        what = " and ".join(
            w for w, on in (("cost-optimal threshold", settings.cost_ratio is not None
                             or settings.prevalence is not None),
                            ("top K", settings.top_k is not None)) if on
        )  # fmt: skip
        tasks.append((key, f"{name}: {what}", choice_task, args, p))
    return tasks


def _deployment_plans(
    problems: dict[str, Problem], settings: Settings
) -> tuple[dict[tuple[str, str], Plan], list[str]]:
    """The resampling of each paired comparison at π, and a note when π's count forces all rows.

    A known π (``--prevalence``) is sized like the in-sample comparison (:func:`._sizing.plan`:
    a subsample on large data, rescaled); π estimated from a count (``--prevalence-count``)
    resamples every row, :func:`_operating_resamples` times, because the uncertainty of π does
    not shrink with n and would be wrongly scaled by √(m/n).
    """
    plans: dict[tuple[str, str], Plan] = {}
    b_user = None if settings.n_resamples_auto else settings.n_resamples
    notes: list[str] = []
    for a, b in combinations(problems, 2):
        y = problems[a][0]
        n = y.shape[0]
        plans[(a, b)] = plan("compare", n, int(np.count_nonzero(y)), b_user)
        if isinstance(settings.prevalence, tuple):
            if plans[(a, b)].subsampled and not notes:
                notes.append(ESTIMATED_PI_ALL_ROWS.format(what="the comparisons at π"))
            plans[(a, b)] = Plan("compare", _operating_resamples(settings, n), n, n)
    return plans, notes


def _inference_tasks(
    problems: dict[str, Problem],
    settings: Settings,
    seeds: Any,
    distinct: dict[str, int],
) -> list[Task]:
    """The resampling steps, sized by :func:`._sizing.plan`, the costliest first.

    A step planned on a subsample gets the subsample's rows (drawn with its own seed), so the
    work it ships to a worker process is small too.  ``distinct`` is each scorer's number of
    distinct scores in all the data (named beside the subsample's in the band's reason).
    Weighted data get no band step (the band takes no weights, :data:`BAND_IGNORES_WEIGHTS`),
    so the steps listed on the page are those that ran.
    """
    level = settings.level
    b_user = None if settings.n_resamples_auto else settings.n_resamples
    names = list(problems)

    def sized(task: str, y: np.ndarray) -> tuple[Plan, Any, np.ndarray | None]:
        p, seed = plan(task, y.shape[0], int(np.count_nonzero(y)), b_user), next(seeds)
        idx = subsample(y, p.rows, seed.spawn(1)[0]) if p.subsampled else None
        return p, seed, idx

    tasks: list[Task] = []
    for a, other in combinations(names, 2):
        (y, sa, w), sb = problems[a], problems[other][1]
        p, seed, idx = sized("compare", y)
        y, sa, sb, w = _take(idx, y, sa, sb, w)
        what = f"comparison of {a} and {other}"
        args: tuple[Any, ...] = (y, sa, sb, w, level, p.n_resamples, seed, what)
        tasks.append(((a, other), f"compare {a} vs {other}", _compare_task, args, p))
    for name in names:
        for key, label, fn in (
            ("band", "confidence band", _band_task),
            ("auc_pr_bootstrap", "bootstrap", _bootstrap_task),
        ):
            y, s, w = problems[name]
            p, seed, idx = sized(key, y)  # drawn also when unused: the same seeds either way
            if key == "band" and w is not None:
                continue
            whole = None if idx is None else (y.shape[0], distinct[name])
            y, s, w = _take(idx, y, s, w)
            args = (y, s, w, level, p.n_resamples, seed) + ((whole,) if key == "band" else ())
            tasks.append(((name, key), f"{name}: {label}", fn, args, p))
    tasks.sort(key=lambda t: -t[4].seconds)
    return tasks


Results = dict[tuple[str, str], tuple[Any, list[str], float]]


def _run_tasks(
    tasks: list[Task],
    jobs: int,
    progress: Any,
    meanwhile: Callable[[], None] | None = None,
    on_result: Callable[[Results], None] | None = None,
) -> Results:
    """Run the steps, in ``jobs`` processes when the work is large enough to pay for them.

    ``meanwhile`` is work of the main process that the steps do not need: it runs while the
    worker processes resample (before the steps, when they run here).  ``on_result(results)``
    is called after each step's result is in (the results so far).
    """
    results: Results = {}
    jobs = min(jobs, len(tasks))
    if jobs > 1 and sum(t[4].seconds for t in tasks) >= PARALLEL_MIN_SECONDS:
        from concurrent.futures import as_completed

        announce(progress, f"bootstrap ({jobs} processes)")
        forked = _start_method() == "fork"
        if forked:  # set before the pool forks its workers
            _FORKED_STEPS[:] = [(fn, args) for _, _, fn, args, _ in tasks]
        try:
            with _executor(jobs) as pool:
                try:
                    futures = {
                        pool.submit(_forked_step, i)
                        if forked
                        else pool.submit(_timed, fn, *args): key
                        for i, (key, _, fn, args, _) in enumerate(tasks)
                    }
                    if meanwhile is not None:  # with fork, all workers exist now: may start threads
                        meanwhile()
                        announce(progress, f"bootstrap ({jobs} processes)")
                    for done, fut in enumerate(as_completed(futures), start=1):
                        results[futures[fut]] = fut.result()
                        if on_result is not None:
                            on_result(results)
                        if progress is not None:
                            progress(done, len(tasks))
                except KeyboardInterrupt:
                    _stop_workers(pool)
                    raise
        finally:
            _FORKED_STEPS.clear()
    else:
        if meanwhile is not None:
            meanwhile()
        for key, label, fn, args, _ in tasks:
            announce(progress, label)
            results[key] = _timed(fn, *args, progress=progress)
            if on_result is not None:
                on_result(results)
            if progress is not None:
                progress(1, 1)
    return results


def derived_curves(pr: PRCurve) -> dict[str, Any]:
    """What the report keeps of the ROC and PRG curves of ``pr``: hulls, areas, best F₁ (and
    the achievable PR curve); the curves themselves are freed (see :class:`ScorerAnalysis`)."""
    roc = pr.to_roc()
    prg = PRGCurve.from_pr(pr)
    return {
        "achievable": pr.achievable(),
        "roc_hull": roc.convex_hull(),
        "prg_hull": prg.convex_hull(),
        "roc_auc": roc.auc(),
        "auprg": prg.auc(),
        "best_f1": prg.best_f_threshold(),
    }


def analyse(
    data: LabelledScores,
    settings: Settings,
    *,
    progress: Progress | None = None,
    curves_ready: Callable[[dict[str, PRCurve]], None] | None = None,
    figures_ready: Callable[[Analysis], None] | None = None,
) -> Analysis:
    """Compute every curve and number of the report (no drawing, no writing).

    Each scorer's curves come from one sort of its scores (PR from the counts, ROC and PRG from
    the PR curve).  The inference steps (intervals, bootstrap, band, comparisons) are independent
    tasks, each with its own random stream spawned from ``settings.seed``, so the results are the
    same whether they run one after the other or, for large data, in ``settings.jobs``
    processes.  ``curves_ready`` is called once with every scorer's PR curve, while the steps
    run in the worker processes (once all are started, so it may start threads) or before the
    steps run here; the CLI starts writing the curve files then, in a thread.
    ``figures_ready`` is called once, as soon as every scorer's band is in, with an
    :class:`Analysis` holding only what the figures draw (each scorer's curves, areas and band;
    equal to the final analysis's); the CLI starts drawing the page's figures then, in a thread,
    while the other steps run.
    """
    level = settings.level
    names = list(data.scores)
    pairs = list(combinations(names, 2))
    seeds = iter(np.random.SeedSequence(settings.seed).spawn(2 * len(names) + len(pairs)))
    curves: dict[str, dict[str, Any]] = {}
    problems = {name: _weighted_problem(data.y, s, data.weight) for name, s in data.scores.items()}
    for name, (y_k, score, w_k) in problems.items():
        timings: dict[str, float] = {}
        with Stage(progress, f"{name}: curves", timings, "curves"):
            # the one sort of this scorer's curves
            curves[name] = {"pr": PRCurve.from_counts(count_sorted(y_k, score, w_k))}
            curves[name]["timings"] = timings

    def the_rest_of_the_curves() -> None:  # while the workers resample (they need only "pr")
        if curves_ready is not None:
            curves_ready({name: c["pr"] for name, c in curves.items()})
        for name, c in curves.items():
            with Stage(progress, f"{name}: curves", c["timings"], "derived_curves"):
                pr = c["pr"]
                c.update(derived_curves(pr), auc_pr={m: pr.auc(m) for m in AUC_PR_METHODS})

    distinct = {name: int(c["pr"].thresholds.shape[0]) for name, c in curves.items()}
    tasks = _inference_tasks(problems, settings, seeds, distinct)
    plans = {key: p for key, _, _, _, p in tasks}
    everything = tasks + _operating_tasks(problems, curves, settings)
    everything += _choice_tasks(problems, curves, settings)
    n_pos = int(np.count_nonzero(data.y))

    band_keys = [key for key in plans if key[1] == "band"]  # none with weights
    views: dict[str, ScorerAnalysis] = {}  # each built once, for the figures or at the end

    def curves_and_band(name: str, results: Results) -> ScorerAnalysis:
        """A scorer's curves, areas and band: all its figures draw."""
        if name in views:
            return views[name]
        c = curves[name]
        band_reason, _, _ = results.get((name, "band"), NO_BAND)
        band, band_why = (None, "") if band_reason is None else band_reason
        if band is not None:
            band = rescale_band(band, c["pr"], plans[(name, "band")])
        keep = ("pr", "achievable", "roc_hull", "prg_hull", "roc_auc", "auprg", "best_f1", "auc_pr")
        views[name] = ScorerAnalysis(
            name=name, band=band, band_reason=band_why, **{k: c[k] for k in keep}
        )
        return views[name]

    def bands_done(results: Results) -> None:  # once: the figures may be drawn from here on
        nonlocal figures_ready
        if figures_ready is not None and all(key in results for key in band_keys):
            view = {name: curves_and_band(name, results) for name in names}
            figures_ready(Analysis(settings, data.n, n_pos, data.n - n_pos, view))
            figures_ready = None

    results = _run_tasks(
        sorted(everything, key=lambda t: -t[4].seconds), settings.jobs, progress,
        meanwhile=the_rest_of_the_curves, on_result=bands_done,
    )  # fmt: skip

    scorers: dict[str, ScorerAnalysis] = {}
    for name in names:
        c = curves[name]
        timings = c["timings"]
        started = time.perf_counter()
        cis, n1 = closed_form_intervals(c["auc_pr"], _effective_positives(*problems[name]), level)
        timings["auc_pr_ci"] = time.perf_counter() - started
        boot, n2, timings["auc_pr_bootstrap"] = results[(name, "auc_pr_bootstrap")]
        _, n3, timings["band"] = results.get((name, "band"), NO_BAND)
        pr = c["pr"]
        if boot is not None:
            p = plans[(name, "auc_pr_bootstrap")]
            boot = rescale_interval(boot, c["auc_pr"][BOOTSTRAP_METHOD], pr.n_pos, p)
        notes = n1 + n2 + n3 + _start_share_note(pr, c["auc_pr"])
        if boot is not None:
            cis.setdefault(BOOTSTRAP_METHOD, {})["bootstrap_percentile"] = boot
        operating, _, timings["operating_points"] = results[(name, "operating_points")]
        view, n4, timings["threshold_view"] = results.get((name, "threshold_view"), NO_STEP)
        notes += n4
        choice, _, timings["threshold_choice"] = results.get((name, "threshold_choice"), NO_STEP)
        y_k, _, w_k = problems[name]
        effective = None if w_k is None else _effective_counts(y_k, w_k)
        scorers[name] = replace(
            curves_and_band(name, results),
            auc_pr_ci=cis,
            notes=notes,
            timings=timings,
            operating=operating,
            view_bands=view,
            choice=choice,
            chance=below_chance_test(pr.tp, pr.fp, effective_counts=effective),
        )
    comparisons = []
    common_notes: list[str] = []
    compare_timings: dict[str, float] = {}
    for a, other in pairs:
        res, notes, compare_timings[f"{a} vs {other}"] = results[(a, other)]
        common_notes += notes
        if res is not None:
            p = plans[(a, other)]
            res = rescale_comparison(res, curves[a]["pr"], curves[other]["pr"], p)
            comparisons.append((a, other, res))
    steps = [InferenceStep(key, label, p, results[key][2]) for key, label, _, _, p in everything]
    if settings.prevalence is not None:  # the operating steps' interval and band at π
        for key, _, _, args, _ in everything:
            if key[1] == "operating_points":
                op = results[key][0]
                i = next(i for i, st in enumerate(steps) if st.key == key)
                steps[i] = replace(steps[i], seconds=steps[i].seconds - op.seconds_at_prevalence)
                steps.insert(i + 1, InferenceStep(
                    (key[0], "operating_at_prevalence"), f"{key[0]}: AP interval and band at π",
                    args[-1]["deploy_plan"], op.seconds_at_prevalence,
                ))  # fmt: skip
    if data.weight is not None:
        common_notes.insert(0, _weights_note(data.weight_column or "?", bool(pairs)))
    at_pi: list[tuple[str, str, ComparisonResult]] = []
    at_pi_notes: list[str] = []
    if settings.prevalence is not None and pairs:
        at_pi_plans, at_pi_sizing = _deployment_plans(problems, settings)
        at_pi_time: dict[str, float] = {}
        with Stage(progress, "comparisons at π", at_pi_time, "at_prevalence"):
            at_pi, at_pi_notes = deployment_comparisons(
                problems, prevalence=settings.prevalence, level=level, seed=settings.seed,
                n_resamples=_operating_resamples(settings, data.n), progress=progress,
                curves={name: c["pr"] for name, c in curves.items()}, plans=at_pi_plans,
            )  # fmt: skip
        at_pi_notes = at_pi_sizing + at_pi_notes
        steps += [
            InferenceStep((f"{a} vs {b}", "compare_at_prevalence"), f"compare {a} vs {b} at π",
                          p, at_pi_time["at_prevalence"] / len(at_pi_plans))
            for (a, b), p in at_pi_plans.items()
        ]  # fmt: skip
    counts = {name: exact_counts(c["pr"]) for name, c in curves.items()}
    return Analysis(
        settings, data.n, n_pos, data.n - n_pos, scorers, comparisons, common_notes,
        compare_timings, steps, at_pi, at_pi_notes, other_tools(counts),
        roc_delong(counts, data.y, data.scores, level=level, n=data.n,
                   weighted=data.weight is not None),
    )  # fmt: skip
