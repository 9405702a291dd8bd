"""The analysis behind ``prcurve report``: every number, computed once, on any engine.

:func:`analyse` takes an engine's exact counts and the rows it hands over
(:mod:`..input._engine`), computes for every score column the PR, ROC and PRG curves, every
AUC-PR estimator and the achievable curve, runs the resampling steps (:mod:`._steps`, sized by
:mod:`._sizing`, run by :mod:`._parallel`) and returns one :class:`~._results.Analysis`.
Rendering and writing live in later stages, which import these types; nothing here imports
them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from itertools import combinations
from typing import Any

import numpy as np

from ..._core._area import AUC_PR_METHODS
from ..._core._counts import BinaryCounts
from ..._core._disk import derived_on_disk, is_on_disk, n_at_least, release_all
from ..._core._empirical import PRCurve
from ..._inference._chance import below_chance_test
from ..._inference._compare import ComparisonResult
from .._progress import Progress, Stage
from ..input._engine import EngineData, memory_engine, subsample
from ..input._io import LabelledScores
from ._engine_rules import check_engine_options, engine_note, weights_notes
from ._intervals import (
    BAND_IGNORES_WEIGHTS,
    BOOTSTRAP_METHOD,
    FALLBACK_REASON,
    HEADLINE_KINDS,
    HEADLINE_REASON,
    NO_BAND,
    NO_STEP,
    band_method,
    closed_form_intervals,
    headline_interval,
)
from ._operating import deployment_comparisons
from ._other_tools import exact_counts, other_tools
from ._parallel import Results, Task, _run_tasks, available_cpus
from ._results import Analysis, EngineFacts, InferenceStep, ScorerAnalysis, prg_of, roc_of
from ._roc_delong import roc_delong
from ._settings import Settings
from ._sizing import WORK, Plan, plan, rescale_band, rescale_comparison, rescale_interval
from ._steps import (
    Problem,
    _choice_tasks,
    _deployment_plans,
    _inference_tasks,
    _operating_resamples,
    _operating_tasks,
)

__all__ = [
    "BAND_IGNORES_WEIGHTS",
    "FALLBACK_REASON",
    "HEADLINE_KINDS",
    "HEADLINE_REASON",
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


def auto_resamples(n: int) -> int:
    """The most replicates any step gets with ``--n-resamples auto`` on ``n`` rows.

    Each step is sized separately (:func:`._sizing.plan`: a work budget per step, a stratified
    subsample on large data); :attr:`Analysis.inference` records what each step used.
    """
    return max(plan(task, n, max(n // 2, 1)).n_resamples for task in WORK)


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


def derived_curves(pr: PRCurve) -> dict[str, Any]:
    """What the report keeps of the ROC and PRG curves of ``pr``: hulls, areas, best F₁ (and
    the achievable PR curve); the curves themselves are freed (see :class:`ScorerAnalysis`)."""
    on_disk = is_on_disk(pr.tp)
    # one derived curve alive at a time (each is two arrays of the curve's length)
    roc = roc_of(pr)
    # (a curve on disk: its ROC AUC remembered for the curve file's thinning)
    out = {"roc_hull": roc.convex_hull(), "roc_auc": pr._roc_auc() if on_disk else roc.auc()}
    del roc
    prg = prg_of(pr)
    out.update(prg_hull=prg.convex_hull(), auprg=prg.auc(), best_f1=prg.best_f_threshold())
    del prg
    out["achievable"] = pr.achievable()
    release_all()  # a curve on disk: the pages these passes mapped go back
    return out


#: Stream key of the rows an engine hands over (independent of the report's other streams).
ROWS_STREAM = 17
#: The stratified subsample DeLong's paired tests estimate their standard errors on, and its
#: size: the test's difference is exact (from the counts) and only its standard error is
#: estimated there and scaled to all rows, as the report's other comparisons are; from 200,000
#: rows its relative error is well under 1 % at a few per cent positives, and the test costs
#: O(200,000) instead of a sort of every row (about 5 s at 10⁷ rows).
DELONG_STREAM = 18
DELONG_ROWS = 200_000


def analyse(
    data: LabelledScores | EngineData,
    settings: Settings,
    *,
    progress: Progress | None = None,
    curves_ready: Callable[[dict[str, PRCurve]], None] | None = None,
    figures_ready: Callable[[Analysis], None] | None = None,
) -> Analysis:
    """Compute every curve and number of the report (no drawing, no writing), on any engine.

    ``data`` is an engine's :class:`~..input._engine.EngineData` (labelled scores in memory
    are read by :func:`~..input._engine.memory_engine`).  Each scorer's curves come from the
    engine's exact counts (PR from the counts, ROC and PRG from the PR curve).  The rows the
    resampling needs are drawn from the engine once (every row in memory; a stratified
    subsample of at most ``row_limit`` rows elsewhere); each step is sized on the data
    (:mod:`._sizing`), draws its own subsample from those rows and is rescaled to the data.
    The steps are independent tasks, each with its own random stream spawned from
    ``settings.seed``, so the results are the same whether they run one after the other or,
    for large data, in ``settings.jobs`` processes.  ``curves_ready`` is called once with
    every scorer's PR curve, while the steps run in the worker processes (once all are
    started, so it may start threads) or before the steps run here; the CLI starts writing the
    curve files then, in a thread.  ``figures_ready`` is called once, as soon as every
    scorer's band is in, with an :class:`Analysis` holding only what the figures draw (each
    scorer's curves, areas and band; equal to the final analysis's); the CLI starts drawing
    the page's figures then, in a thread, while the other steps run.
    """
    engine = data if isinstance(data, EngineData) else memory_engine(data)
    rows = engine.draw(
        min(engine.n, engine.row_limit),
        np.random.SeedSequence(settings.seed, spawn_key=(ROWS_STREAM,)),
    )
    check_engine_options(engine, rows.n, settings)
    curves = _exact_curves(engine, progress)
    problems = {name: (rows.y, rows.scores[name], rows.weight) for name in engine.scores}
    data_rows = (engine.n, engine.n_pos_rows)
    names = list(engine.scores)
    seeds = iter(np.random.SeedSequence(settings.seed).spawn(len(names) * (len(names) + 3) // 2))
    distinct = {name: int(c["pr"].thresholds.shape[0]) for name, c in curves.items()}
    tasks = _inference_tasks(problems, settings, seeds, distinct, data_rows)
    plans = {key: p for key, _, _, _, p in tasks}
    everything = tasks + _operating_tasks(problems, curves, settings, data_rows)
    everything += _choice_tasks(problems, curves, settings, data_rows)
    views = _FigureViews(engine, settings, curves, plans, figures_ready)

    counts_key = ("", "other_tools_delong")  # the counts-only steps, beside the resampling

    def the_rest_of_the_curves() -> None:  # while the workers resample (they need only "pr")
        if curves_ready is not None:
            curves_ready({name: c["pr"] for name, c in curves.items()})
        for name, c in curves.items():
            with Stage(progress, f"{name}: curves", c["timings"], "derived_curves"):
                pr = c["pr"]
                c.update(derived_curves(pr), auc_pr={m: pr.auc(m) for m in AUC_PR_METHODS})
                release_all()  # a curve on disk: the pages these passes mapped go back

    # the bands first: the page's figures wait for them (``figures_ready``), then the longest
    results = _run_tasks(
        sorted(everything, key=lambda t: (t[0][1] != "band", -t[4].seconds)), settings.jobs,
        progress, meanwhile=the_rest_of_the_curves, on_result=views.bands_done,
        side=[(counts_key, "other tools and DeLong", _counts_steps,
               _counts_inputs(curves, rows, settings, engine))], jobs_auto=settings.jobs_auto,
    )  # fmt: skip
    extra = results.pop(counts_key)[0]
    scorers = {
        name: _scorer_result(name, engine, settings, curves[name], plans, results, views)
        for name in names
    }
    comparisons, notes, compare_timings = _comparisons(curves, plans, results)
    notes = weights_notes(engine, len(names) > 1) + notes
    steps = _steps(everything, results, settings)
    at_pi, at_pi_notes, at_pi_steps = _at_prevalence(
        problems, curves, settings, data_rows, progress
    )
    n_pos, n_neg = engine.rows_read
    return Analysis(
        settings, n_pos + n_neg, n_pos, n_neg, scorers, comparisons, notes,
        compare_timings, steps + at_pi_steps, at_pi, at_pi_notes,
        engine=EngineFacts(settings.engine, rows.n, engine_note(engine, rows.n, settings)),
        other_tools=extra["other_tools"], roc_delong=extra["roc_delong"],
    )  # fmt: skip


def _counts_inputs(
    curves: dict[str, dict[str, Any]], rows: LabelledScores, settings: Settings,
    engine: EngineData,
) -> tuple[Any, ...]:  # fmt: skip
    """The arguments of :func:`_counts_steps`: each scorer's exact counts, and the rows of
    DeLong's paired tests (a stratified subsample of at most :data:`DELONG_ROWS`)."""
    counts = {name: exact_counts(c["pr"]) for name, c in curves.items()}
    y, scores = rows.y, rows.scores
    if not engine.weighted and len(scores) > 1:
        seed = np.random.SeedSequence(settings.seed, spawn_key=(DELONG_STREAM,))
        idx = subsample(y, DELONG_ROWS, seed)
        if idx is not None:
            y, scores = y[idx], {name: s[idx] for name, s in scores.items()}
    return counts, y, scores, settings.level, engine.n, engine.weighted


def _counts_steps(
    counts: dict[str, BinaryCounts | None], y: np.ndarray, scores: dict[str, np.ndarray],
    level: float, n: int, weighted: bool,
) -> tuple[dict[str, Any], list[str]]:  # fmt: skip
    """The steps that need no resampling (run beside them, in a worker when there are
    workers): other tools' AUC-PR from each scorer's exact counts, DeLong's interval of each
    ROC AUC (counts) and paired tests (the rows given)."""
    delong = roc_delong(counts, y, scores, level=level, n=n, weighted=weighted)
    return {"other_tools": other_tools(counts), "roc_delong": delong}, []


def _exact_curves(engine: EngineData, progress: Progress | None) -> dict[str, dict[str, Any]]:
    """Each scorer's PR curve from the engine's exact counts, and the time it took."""
    curves: dict[str, dict[str, Any]] = {}
    for name in engine.scores:
        timings: dict[str, float] = {}
        with Stage(progress, f"{name}: curves", timings, "curves"):
            pr = PRCurve.from_counts(_no_negative_zero(engine.counts(name)))
            curves[name] = {"pr": pr, "timings": timings}
    return curves


def _no_negative_zero(counts: BinaryCounts) -> BinaryCounts:
    """The counts with a threshold of −0.0 written 0.0.

    −0.0 and 0.0 are one score (``-0.0 == 0.0``), counted as one distinct threshold, but which
    of the two spellings stands for it depends on which row an engine meets first: the memory
    engine's sort keeps one, Dask's partitions may keep the other, and the page, summary.json
    and curve files would print "0" on one engine and "-0" on the other.  Normalising here, in
    the counts every report step reads (rather than in each formatter), makes every output
    agree whatever the engine; adding 0.0 maps −0.0 to 0.0 and leaves every other value as it is.
    """
    th = counts.thresholds  # decreasing: its zeros are one run, found by two searches
    zeros = th[n_at_least(th, 0.0, strict=True) : n_at_least(th, 0.0)]
    if not np.signbit(zeros).any():
        return counts
    if is_on_disk(th):  # a curve on disk gets its thresholds rewritten on disk
        return replace(counts, thresholds=derived_on_disk(th, lambda b: th[b] + 0.0, th.dtype))
    return replace(counts, thresholds=th + 0.0)


class _FigureViews:
    """Each scorer's curves, areas and band (all its figures draw), built once; and the call of
    ``figures_ready`` as soon as every band is in."""

    def __init__(
        self,
        engine: EngineData,
        settings: Settings,
        curves: dict[str, dict[str, Any]],
        plans: dict[tuple[str, str], Plan],
        figures_ready: Callable[[Analysis], None] | None,
    ) -> None:
        self.engine, self.settings, self.curves, self.plans = engine, settings, curves, plans
        self.figures_ready = figures_ready
        self.views: dict[str, ScorerAnalysis] = {}
        self.band_keys = [key for key in plans if key[1] == "band"]  # none with weights

    def __call__(self, name: str, results: Results) -> ScorerAnalysis:
        if name in self.views:
            return self.views[name]
        c = self.curves[name]
        band_reason, _, _ = results.get((name, "band"), NO_BAND)
        band, band_why = (None, "") if band_reason is None else band_reason
        if band is not None:
            band = rescale_band(band, c["pr"], self.plans[(name, "band")])
        keep = ("pr", "achievable", "roc_hull", "prg_hull", "roc_auc", "auprg", "best_f1", "auc_pr")
        self.views[name] = ScorerAnalysis(
            name=name, band=band, band_reason=band_why, **{k: c[k] for k in keep}
        )
        return self.views[name]

    def bands_done(self, results: Results) -> None:  # once: the figures may be drawn from here
        if self.figures_ready is None or not all(key in results for key in self.band_keys):
            return
        view = {name: self(name, results) for name in self.curves}
        e = self.engine
        self.figures_ready(
            Analysis(self.settings, sum(e.rows_read), e.rows_read[0], e.rows_read[1], view)
        )
        self.figures_ready = None


def _scorer_result(
    name: str,
    engine: EngineData,
    settings: Settings,
    c: dict[str, Any],
    plans: dict[tuple[str, str], Plan],
    results: Results,
    views: _FigureViews,
) -> ScorerAnalysis:
    """One scorer's results: the views' curves and band, the intervals, the steps' results."""
    timings = c["timings"]
    started = time.perf_counter()
    cis, n1 = closed_form_intervals(c["auc_pr"], engine.effective[0], settings.level)
    timings["auc_pr_ci"] = time.perf_counter() - started
    boot, n2, timings["auc_pr_bootstrap"] = results[(name, "auc_pr_bootstrap")]
    _, n3, timings["band"] = results.get((name, "band"), NO_BAND)
    pr = c["pr"]
    if boot is not None:
        p = plans[(name, "auc_pr_bootstrap")]
        boot = rescale_interval(boot, c["auc_pr"][BOOTSTRAP_METHOD], pr.n_pos, p)
        cis.setdefault(BOOTSTRAP_METHOD, {})["bootstrap_percentile"] = boot
    notes = n1 + n2 + n3 + _start_share_note(pr, c["auc_pr"])
    operating, _, timings["operating_points"] = results[(name, "operating_points")]
    view, n4, timings["threshold_view"] = results.get((name, "threshold_view"), NO_STEP)
    choice, _, timings["threshold_choice"] = results.get((name, "threshold_choice"), NO_STEP)
    effective = engine.effective if engine.weighted else None
    return replace(
        views(name, results), auc_pr_ci=cis, notes=notes + n4, timings=timings,
        operating=operating, view_bands=view, choice=choice,
        chance=below_chance_test(pr.tp, pr.fp, effective_counts=effective),
    )  # fmt: skip


def _comparisons(
    curves: dict[str, dict[str, Any]], plans: dict[tuple[str, str], Plan], results: Results
) -> tuple[list[tuple[str, str, ComparisonResult]], list[str], dict[str, float]]:
    """The paired comparisons, moved back to all rows; their notes and times."""
    comparisons = []
    notes: list[str] = []
    timings: dict[str, float] = {}
    for a, other in combinations(curves, 2):
        res, more, timings[f"{a} vs {other}"] = results[(a, other)]
        notes += more
        if res is not None:
            res = rescale_comparison(res, curves[a]["pr"], curves[other]["pr"], plans[(a, other)])
            comparisons.append((a, other, res))
    return comparisons, notes, timings


def _steps(everything: list[Task], results: Results, settings: Settings) -> list[InferenceStep]:
    """Every resampling step as the page lists it (the operating steps' interval and band at
    π as steps of their own)."""
    steps = [InferenceStep(key, label, p, results[key][2]) for key, label, _, _, p in everything]
    if settings.prevalence is None:
        return steps
    for key, _, _, args, _ in everything:
        if key[1] == "operating_points":
            op = results[key][0]
            i = next(i for i, st in enumerate(steps) if st.key == key)
            steps[i] = replace(steps[i], seconds=steps[i].seconds - op.seconds_at_prevalence)
            # the band at π is listed only when it was computed (weights: not, see the notes)
            what = "AP interval" if op.deployed_band is None else "AP interval and band"
            steps.insert(i + 1, InferenceStep(
                (key[0], "operating_at_prevalence"), f"{key[0]}: {what} at π",
                args[-1]["deploy_plan"], op.seconds_at_prevalence,
            ))  # fmt: skip
    return steps


def _at_prevalence(
    problems: dict[str, Problem],
    curves: dict[str, dict[str, Any]],
    settings: Settings,
    data_rows: tuple[int, int],
    progress: Progress | None,
) -> tuple[list[tuple[str, str, ComparisonResult]], list[str], list[InferenceStep]]:
    """The paired comparisons at the deployment prevalence (``--prevalence``), their notes and
    steps."""
    if settings.prevalence is None or len(problems) < 2:
        return [], [], []
    plans, sizing = _deployment_plans(problems, settings, data_rows)
    took: dict[str, float] = {}
    with Stage(progress, "comparisons at π", took, "at_prevalence"):
        at_pi, notes = deployment_comparisons(
            problems, prevalence=settings.prevalence, level=settings.level, seed=settings.seed,
            n_resamples=_operating_resamples(settings, data_rows[0]), progress=progress,
            curves={name: c["pr"] for name, c in curves.items()}, plans=plans,
        )  # fmt: skip
    steps = [
        InferenceStep((f"{a} vs {b}", "compare_at_prevalence"), f"compare {a} vs {b} at π",
                      p, took["at_prevalence"] / len(plans))
        for (a, b), p in plans.items()
    ]  # fmt: skip
    return at_pi, sizing + notes, steps
