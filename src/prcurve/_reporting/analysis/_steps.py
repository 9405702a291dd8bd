"""The report's resampling steps, each sized on the data and capped at the rows at hand.

Every step (paired comparisons, AP bootstrap, band, operating points, threshold view and
choice, comparisons at π) is planned by :mod:`._sizing` on the rows and positives of the data
-- whatever the engine -- and draws its own stratified subsample from the rows the engine
handed over (:mod:`..input._engine`), with its own random stream.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import numpy as np

from ..._decision._depth import check_depth
from ._choice import STREAM as CHOICE_STREAM
from ._choice import choice_task, flagged_rows, view_task
from ._intervals import _band_task, _bootstrap_task, _compare_task
from ._operating import ESTIMATED_PI_ALL_ROWS, fewest_flagged, operating_targets, operating_task
from ._operating import STREAM as OPERATING_STREAM
from ._parallel import Task
from ._settings import Settings
from ._sizing import (
    MAX_RESAMPLES,
    MIN_RESAMPLES,
    Plan,
    capped,
    plan,
    plan_operating,
    plan_operating_exact,
    subsample,
)
from ._topk import EXACT_ROWS as TOP_K_EXACT_ROWS

__all__ = ["Problem", "Task"]

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
    problems: dict[str, Problem],
    curves: dict[str, dict[str, Any]],
    settings: Settings,
    data_rows: tuple[int, int],
) -> list[Task]:
    """The operating-point bootstraps as steps beside the others (so they run in parallel).

    ``problems`` hold the rows the engine handed over, ``data_rows`` the rows and positives of
    the data.  Unweighted data with every row at hand: the points resample every row, coarse
    to fine (:func:`._sizing.plan_operating_exact`), from the curve already had (no sort).
    Otherwise (weights, or an engine handing over a subsample): sized by
    :func:`._sizing.plan_operating`, on large data a stratified subsample whose widths are
    rescaled.  The interval and band at a known π (``--prevalence``) are sized by
    :func:`._sizing.plan` (a subsample on large data, rescaled); with ``--prevalence-count``
    every row is resampled, :func:`_operating_resamples` times (the uncertainty of an estimated
    π does not shrink with n).  Each task gets the rows and the indices of its subsample.
    """
    tasks: list[Task] = []
    b_user = None if settings.n_resamples_auto else settings.n_resamples
    targets = operating_targets(settings.min_precision, settings.min_recall)
    prevalences = (None,) if settings.prevalence is None else (None, settings.prevalence)
    estimated = isinstance(settings.prevalence, tuple)
    n, n_pos = data_rows
    for index, (name, (y, s, w)) in enumerate(problems.items()):
        pr, at_hand = curves[name]["pr"], y.shape[0]
        all_rows = Plan("operating_points", _operating_resamples(settings, n), n, n)
        centres = None
        if w is None and at_hand == n:
            p = plan_operating_exact(n, n_pos, b_user)
            deploy = plan("operating_points", n, n_pos, b_user)
            note = estimated and deploy.subsampled
            deploy = all_rows if estimated else deploy
        else:
            flagged, centres = fewest_flagged(s, pr, targets, prevalences)
            p = plan_operating(n, n_pos, round(flagged * n / at_hand), b_user)
            note = estimated and p.subsampled
            p = deploy = all_rows if estimated else p
        if settings.prevalence is None:
            deploy = p  # no step at π
        p, deploy = capped(p, at_hand), capped(deploy, at_hand)
        stream = np.random.SeedSequence(settings.seed, spawn_key=(OPERATING_STREAM, index, 3))
        idx = subsample(y, deploy.rows, stream) if deploy.rows < at_hand else None
        options = dict(
            min_precision=settings.min_precision, min_recall=settings.min_recall,
            prevalence=settings.prevalence, level=settings.level, n_resamples=p.n_resamples,
            seed=settings.seed, index=index, plan=p, all_rows_note=note,
            centres=centres if p.subsampled else None, subsample_rows=idx, deploy_plan=deploy,
            n_neg_rows=n - n_pos,
        )  # fmt: skip
        key, args = (name, "operating_points"), (y, s, w, pr, options)
        tasks.append((key, f"{name}: operating points", operating_task, args, p))
    return tasks


def _choice_tasks(
    problems: dict[str, Problem],
    curves: dict[str, dict[str, Any]],
    settings: Settings,
    data_rows: tuple[int, int],
) -> list[Task]:
    """The "Choosing a threshold" steps (:mod:`._choice`) of each scorer, beside the others.

    The threshold view's bands are sized by :func:`._sizing.plan` (``"threshold_view"``: a
    stratified subsample on large data, rescaled).  With ``--cost-ratio``, ``--prevalence`` or
    ``--top-k``, a second step, sized like the operating points of weighted data
    (:func:`._sizing.plan_operating` with ``task="threshold_choice"``): on large data a
    stratified subsample keeping on average :data:`._sizing.MIN_FLAGGED` of the rows the
    cost-optimal threshold and the top K flag; with ``--prevalence-count`` every row (the
    uncertainty of π does not shrink with n), :func:`_operating_resamples` times.  Every plan
    is :func:`._sizing.capped` at the rows the engine handed over (``problems``).
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
    n, n_pos = data_rows
    for index, (name, (y, s, w)) in enumerate(problems.items()):
        pr, at_hand = curves[name]["pr"], y.shape[0]
        p = capped(plan("threshold_view", n, n_pos, b_user), at_hand)
        stream = np.random.SeedSequence(settings.seed, spawn_key=(CHOICE_STREAM, index, 3))
        idx = subsample(y, p.rows, stream) if p.rows < at_hand else None
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
                top_k=settings.top_k, n_rows=n,
            )  # fmt: skip
            p = plan_operating(n, n_pos, flagged, b_user, task="threshold_choice")
        p = capped(p, at_hand)
        stream = np.random.SeedSequence(settings.seed, spawn_key=(CHOICE_STREAM, index, 2))
        idx = subsample(y, p.rows, stream) if p.rows < at_hand else None
        options = dict(
            level=settings.level, plan=p, seed=settings.seed, index=index, subsample_rows=idx,
            n_rows=n, **choose,
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
    problems: dict[str, Problem], settings: Settings, data_rows: tuple[int, int]
) -> tuple[dict[tuple[str, str], Plan], list[str]]:
    """The resampling of each paired comparison at π, and a note when π's count forces all rows.

    A known π (``--prevalence``) is sized like the in-sample comparison (:func:`._sizing.plan`:
    a subsample on large data, rescaled); π estimated from a count (``--prevalence-count``)
    resamples every row, :func:`_operating_resamples` times, because the uncertainty of π does
    not shrink with n and would be wrongly scaled by √(m/n).  Plans are capped at the rows the
    engine handed over.
    """
    plans: dict[tuple[str, str], Plan] = {}
    b_user = None if settings.n_resamples_auto else settings.n_resamples
    notes: list[str] = []
    n, n_pos = data_rows
    for a, b in combinations(problems, 2):
        plans[(a, b)] = plan("compare", n, n_pos, b_user)
        if isinstance(settings.prevalence, tuple):
            if plans[(a, b)].subsampled and not notes:
                notes.append(ESTIMATED_PI_ALL_ROWS.format(what="the comparisons at π"))
            plans[(a, b)] = Plan("compare", _operating_resamples(settings, n), n, n)
        plans[(a, b)] = capped(plans[(a, b)], problems[a][0].shape[0])
    return plans, notes


def _inference_tasks(
    problems: dict[str, Problem],
    settings: Settings,
    seeds: Any,
    distinct: dict[str, int],
    data_rows: tuple[int, int],
) -> list[Task]:
    """The resampling steps, sized by :func:`._sizing.plan`, the costliest first.

    A step planned on a subsample gets the subsample's rows (drawn with its own seed), so the
    work it ships to a worker process is small too.  ``distinct`` is each scorer's number of
    distinct scores in all the data (named beside the subsample's in the band's reason).
    Weighted data get no band step (the band takes no weights, :data:`BAND_IGNORES_WEIGHTS`),
    so the steps listed on the page are those that ran.  ``problems`` hold the rows the engine
    handed over and ``data_rows`` the data's rows and positives: each plan is sized on the data
    and :func:`._sizing.capped` at the rows at hand.
    """
    level = settings.level
    b_user = None if settings.n_resamples_auto else settings.n_resamples
    names = list(problems)

    def sized(task: str, y: np.ndarray) -> tuple[Plan, Any, np.ndarray | None]:
        p, seed = capped(plan(task, *data_rows, b_user), y.shape[0]), next(seeds)
        idx = subsample(y, p.rows, seed.spawn(1)[0]) if p.rows < y.shape[0] else None
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
            whole = None if not p.subsampled else (data_rows[0], distinct[name])
            y, s, w = _take(idx, y, s, w)
            args = (y, s, w, level, p.n_resamples, seed) + ((whole,) if key == "band" else ())
            tasks.append(((name, key), f"{name}: {label}", fn, args, p))
    tasks.sort(key=lambda t: -t[4].seconds)
    return tasks
