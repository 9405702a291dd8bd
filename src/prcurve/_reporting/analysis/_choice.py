"""The report's "Choosing a threshold": the threshold view, the cost-optimal threshold, top K.

For one scorer, :func:`analyse_choice` computes

* the **threshold view** (:func:`prcurve.threshold_view`): precision, recall, F₁, queue rate
  and FPR at every threshold, read off the scorer's one sorted count table, with pointwise
  bootstrap bands;
* with ``--cost-ratio R`` (R = c_FP/c_FN; 1 when only ``--prevalence`` is given) the
  **cost-optimal threshold** at the prevalence π (the deployment one, else the data's): the
  threshold of least expected cost ``π·FNR + (1 − π)·R·FPR`` per row, in units of c_FN
  (:func:`prcurve.expected_cost` with ``cost_fp=R, cost_fn=1``), its **net benefit**
  ``π·TPR − (1 − π)·R·FPR`` at threshold probability ``p_t = R/(1 + R)`` (Vickers & Elkin
  2006; the largest over thresholds, :attr:`prcurve.NetBenefitCurve.best_net_benefit`, since
  expected cost = π − net benefit) and that of treating everyone;
* with ``--top-k K`` precision@K and recall@K (:func:`prcurve.precision_at_k`, ties in random
  order).

Every point value comes from the count table of all rows (no second sort, except that
precision@K of weighted data needs the rows per tie group,
:func:`prcurve._decision._depth.ranking`).
The intervals come from one bootstrap of the shared engine
(:func:`prcurve._inference._resample.bootstrap_blocks`), on every row or, on large data, on a
stratified subsample sized like the operating points (:func:`._sizing.plan_operating` with
``task="threshold_choice"``), the replicates' spread rescaled around the values of all rows:
by √(m/n) for the view's bands, the expected cost, the net benefits and precision/recall@K
(ratios of means at a held threshold or depth, √n-consistent), and by (m/n)^(1/3) for the
threshold itself (below).

The cost-optimal threshold is re-chosen in every replicate (the held-threshold quantities keep
the threshold of all rows).  It is the minimiser of an empirical step function, a cube-root
estimator (Kim & Pollard 1990, "Cube root asymptotics", Ann. Statist. 18): its fluctuations
shrink as n^(-1/3), hence the (m/n)^(1/3) rescaling of the flagged share, and the plain
bootstrap does not reproduce its limiting law exactly (Abrevaya & Huang 2005, Econometrica
73), so its interval says how sharply the data pin the threshold down rather than carrying a
guaranteed coverage; the page says so.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..._core._columns import counts_column
from ..._core._counts import BinaryCounts
from ..._core._disk import is_on_disk, n_at_least, release, release_all
from ..._core._empirical import PRCurve
from ..._core._results import ConfidenceInterval
from ..._decision._cost import expected_cost_of_counts
from ..._decision._depth import Ranking, check_depth, ranking
from ..._decision._threshold_view import METRICS, ThresholdView, _metrics, threshold_view
from ..._inference._partial_ci import check_deployment_prevalence
from ..._inference._resample import (
    bootstrap_blocks,
    positive_columns,
    prepare,
    prepare_counted,
)
from ._intervals import report_warnings
from ._sizing import Plan
from ._topk import EXACT_ROWS, depth_counts, top_k_replicates

__all__ = [
    "STREAM",
    "CostChoice",
    "ThresholdChoice",
    "TopKChoice",
    "ViewBands",
    "analyse_choice",
    "choice_task",
    "flagged_rows",
    "full_view",
    "metric_blocks",
    "view_task",
]

#: Stream key of the threshold-choice bootstrap (independent of the report's other streams).
STREAM = 16

#: Why the threshold's interval is a guide, not a calibrated interval (page and summary.json).
THRESHOLD_INTERVAL_CAVEAT = (
    "the cost-optimal threshold is chosen again in every bootstrap replicate; it minimises a "
    "step function of the data, an estimator whose bootstrap intervals carry no coverage "
    "guarantee (Abrevaya & Huang 2005), so read its interval as how sharply the data pin the "
    "threshold down; the expected cost and net benefit hold the threshold of all rows fixed"
)


@dataclass(frozen=True)
class CostChoice:
    """The cost-optimal threshold at one cost ratio and prevalence, with intervals.

    Costs are in units of a false negative's cost (c_FN = 1, c_FP = ``cost_ratio``).
    ``threshold`` is ``+inf`` when flagging nothing is cheapest.
    """

    cost_ratio: float
    prevalence: float
    prevalence_source: str  # "data", "known" (--prevalence) or "count" (--prevalence-count)
    threshold: float
    expected_cost: float
    net_benefit: float
    treat_all: float
    precision: float | None
    recall: float
    fpr: float
    queue_rate: float
    threshold_interval: ConfidenceInterval | None = None
    expected_cost_interval: ConfidenceInterval | None = None
    net_benefit_interval: ConfidenceInterval | None = None
    treat_all_interval: ConfidenceInterval | None = None

    @property
    def threshold_probability(self) -> float:
        """``p_t = R/(1 + R)``: the threshold probability of the net benefit."""
        return self.cost_ratio / (1.0 + self.cost_ratio)


@dataclass(frozen=True)
class TopKChoice:
    """Precision and recall in the top ``k`` rows (ties in random order), with intervals."""

    k: int | float
    depth: float  # rows
    threshold: float  # the score of the row at the depth (flag score >= it: ≈ the top k)
    precision: float
    recall: float
    precision_interval: ConfidenceInterval | None = None
    recall_interval: ConfidenceInterval | None = None
    rows_resampled: int = 0  # every row, or the subsample's (0: no interval)


@dataclass(frozen=True)
class ThresholdChoice:
    """The cost-optimal threshold and the top K of one scorer (the options asked for)."""

    cost: CostChoice | None = None
    top_k: TopKChoice | None = None
    notes: list[str] = field(default_factory=list)


def choice_task(
    y: np.ndarray,
    score: np.ndarray,
    w: np.ndarray | None,
    pr: PRCurve,
    options: dict[str, Any],
    progress: Any = None,
) -> tuple[ThresholdChoice, list[str]]:
    """:func:`analyse_choice` as one of the report's inference steps (a worker may run it)."""
    return analyse_choice(y, score, w, pr, progress=progress, **options), []


def view_task(
    y: np.ndarray,
    score: np.ndarray,
    w: np.ndarray | None,
    pr: PRCurve,
    options: dict[str, Any],
    progress: Any = None,
) -> tuple[ViewBands, list[str]]:
    """The bands of the threshold view of all rows (:class:`ViewBands`), as an inference step:
    ``options`` hold ``level``, ``plan``, ``seed``, ``index`` and ``subsample_rows`` (the
    plan's stratified subsample, None: every row).  Returns the bands and the notes (the
    warnings of :func:`prcurve.threshold_view`)."""
    plan: Plan = options["plan"]
    idx = options["subsample_rows"]
    ys, ss, ws = _rows(idx, y, score, w)
    stream = np.random.SeedSequence(options["seed"], spawn_key=(STREAM, options["index"], 0))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sub = threshold_view(
            ys, ss, sample_weight=ws, n_resamples=plan.n_resamples, level=options["level"],
            rng=np.random.default_rng(stream),
        )  # fmt: skip
    notes = [f"threshold view: {c.message}" for c in report_warnings(caught)]
    return _view_bands(sub, pr, plan), notes


def _rows(idx: np.ndarray | None, y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> Any:
    if idx is None:
        return y, s, w
    return y[idx], s[idx], None if w is None else w[idx]


def _counts(pr: Any) -> BinaryCounts:
    return BinaryCounts(pr.thresholds, pr.tp, pr.fp, pr.n_pos, pr.n_neg)


def _held(thresholds: np.ndarray, t: float) -> int:
    """Column of the decreasing ``thresholds`` deciding ``score >= t`` (-1: flags nothing)."""
    return int(n_at_least(thresholds, float(t))) - 1


def _cost_point(counts: Any, ratio: float, pi: float) -> tuple[float, int, float, float]:
    """Cost-optimal threshold, its column, and TPR and FPR there."""
    ec = expected_cost_of_counts(counts, ratio, 1.0, pi)
    col = _held(counts.thresholds, ec.threshold)
    if col < 0:
        return ec.threshold, col, 0.0, 0.0
    return (
        ec.threshold,
        col,
        float(counts.tp[col] / counts.n_pos),
        float(counts.fp[col] / counts.n_neg),
    )


def _share(counts: Any, col: int) -> float:
    """Share of the weight flagged at column ``col`` (0 at -1)."""
    if col < 0:
        return 0.0
    return float((counts.tp[col] + counts.fp[col]) / (counts.n_pos + counts.n_neg))


def _rank(counts: BinaryCounts, y: np.ndarray, s: np.ndarray, w: np.ndarray | None) -> Ranking:
    """Rows flagged per tie group: TP + FP unweighted (no sort); weighted, one more count."""
    if w is None:
        return Ranking(counts, np.add(counts.tp, counts.fp, dtype=np.int64))
    return ranking(y, s, sample_weight=w)


def _at_depth(rank: Ranking, depth: float) -> tuple[float, float]:
    """Precision and recall at ``depth`` rows, as :func:`prcurve.precision_at_k` computes."""
    tp, fp = rank.expected(depth)
    return float(tp / (tp + fp)), float(tp / rank.counts.n_pos)


def flagged_rows(
    y: np.ndarray,
    score: np.ndarray,
    w: np.ndarray | None,
    pr: PRCurve,
    *,
    cost_ratio: float | None,
    prevalence: float | tuple[int, int] | None,
    top_k: int | float | None,
    n_rows: int | None = None,
) -> int:
    """The fewest rows the chosen thresholds flag (the cost-optimal one, the top K): the
    subsample keeps on average :data:`._sizing.MIN_FLAGGED` of them
    (:func:`._sizing.plan_operating`).  None chosen: all rows.

    ``(y, score, w)`` are the rows an engine handed over; with ``n_rows`` (the data's rows)
    they are a stratified subsample, and a weighted count on them is scaled up to the data."""
    n = int(y.shape[0]) if n_rows is None else n_rows
    per_row = n / max(int(y.shape[0]), 1)
    out = [n]
    if cost_ratio is not None or prevalence is not None:
        pi = _pi(pr, prevalence)
        t, col, _, _ = _cost_point(pr, 1.0 if cost_ratio is None else cost_ratio, pi)
        if col >= 0:
            rows = pr.tp[col] + pr.fp[col] if w is None else np.count_nonzero(score >= t) * per_row
            out.append(int(rows))
    if top_k is not None and (w is not None or check_depth(top_k, n) > EXACT_ROWS):
        out.append(math.ceil(check_depth(top_k, n)))  # (shallower: every row, ._topk)
    return max(min(out), 1)


def _pi(pr: Any, prevalence: float | tuple[int, int] | None) -> float:
    if prevalence is None:
        return float(pr.n_pos / (pr.n_pos + pr.n_neg))
    return float(check_deployment_prevalence(prevalence).value)


@dataclass(frozen=True)
class ViewBands:
    """The bands of a scorer's threshold view (what its step computes and returns).

    The view itself — five metrics at every distinct threshold — is derived from the
    scorer's PR curve when drawn (:func:`full_view`), as the report's ROC and PRG curves are:
    kept, or shipped back from a worker process, it would add eight arrays as long as the curve
    per scorer (≈ 130 MB for two scorers at 10⁶ distinct scores).
    """

    band_index: np.ndarray
    bands: dict[str, ConfidenceInterval]
    precision_defined: np.ndarray
    level: float
    n_resamples: int
    sampling: str
    beta: float


def full_view(pr: PRCurve, vb: ViewBands, rows: np.ndarray | None = None) -> ThresholdView:
    """The threshold view of all rows: metrics read off ``pr``'s counts, with the bands.

    With ``rows`` (increasing indices of ``pr``'s thresholds, holding every row of
    ``vb.band_index``) the view of those rows only: the same values there, read at those rows
    (how a figure shows the view of a curve on disk, :func:`metric_blocks`).
    """
    args = (float(pr.n_pos), float(pr.n_neg), vb.beta * vb.beta)
    thresholds, tp, fp, band_index = pr.thresholds, pr.tp, pr.fp, vb.band_index
    if rows is not None:
        thresholds, tp, fp = thresholds[rows], tp[rows], fp[rows]
        if band_index is not None:
            band_index = np.searchsorted(rows, band_index)
        release_all()  # (a curve on disk: the pages the scattered reads mapped go back)
    if is_on_disk(tp):  # a whole curve longer than memory: each metric computed where read
        values = {m: _metric_on_disk(tp, fp, args, m) for m in METRICS}
    else:
        values = _metrics(tp, fp, *args)
    return ThresholdView(
        thresholds=thresholds, tp=tp, fp=fp, n_pos=pr.n_pos, n_neg=pr.n_neg,
        beta=vb.beta, band_index=band_index, precision_defined=vb.precision_defined,
        level=vb.level, n_resamples=vb.n_resamples, sampling=vb.sampling,
        precision=values["precision"], recall=values["recall"], f_beta=values["f_beta"],
        queue_rate=values["queue_rate"], fpr=values["fpr"],
        **{f"{m}_band": band for m, band in vb.bands.items()},
    )  # fmt: skip


def _metric_on_disk(
    tp: np.ndarray, fp: np.ndarray, args: tuple[float, float, float], metric: str
) -> Any:
    """One metric of the view of counts on disk, computed from them where read (never
    written: :class:`~..._core._columns.CountColumn`)."""

    return counts_column(lambda t, f: _metrics(t, f, *args)[metric], tp, fp)


def metric_blocks(
    pr: PRCurve, beta: float
) -> Callable[[slice], tuple[np.ndarray, tuple[np.ndarray, ...]]]:
    """The threshold view's columns a slice at a time, in increasing-threshold order (what
    :func:`prcurve.plot._thin.thin_lines` reads): ``read(part)`` gives the thresholds (as
    float64) and each metric of :data:`METRICS` on those rows, computed from the counts, so
    the view of a curve on disk is thinned for its figure without writing its metrics
    anywhere, and each block of counts is read once for all the metrics."""
    k = pr.tp.shape[0]
    totals = (float(pr.n_pos), float(pr.n_neg), beta * beta)

    def read(part: slice) -> tuple[np.ndarray, tuple[np.ndarray, ...]]:
        lo, hi, _ = part.indices(k)
        rows = slice(k - hi, k - lo)  # the same points in the curve's decreasing order
        thresholds = np.asarray(pr.thresholds[rows], dtype=np.float64)[::-1]
        values = _metrics(pr.tp[rows], pr.fp[rows], *totals)
        for a in (pr.thresholds, pr.tp, pr.fp):
            release(a[rows])
        return thresholds, tuple(values[m][::-1] for m in METRICS)

    return read


def _view_bands(sub: ThresholdView, pr: PRCurve, p: Plan) -> ViewBands:
    """The bands of the view of all rows: those of ``sub`` (the view of the plan's rows) at
    the same thresholds of all rows; from a subsample, moved to the values of all rows there
    with their spread × √(m/n)."""
    assert sub.band_index is not None and sub.band_thresholds is not None
    assert sub.precision_defined is not None and sub.level is not None and sub.sampling
    cols = n_at_least(pr.thresholds, np.asarray(sub.band_thresholds, np.float64))
    cols = cols - 1  # every score of the rows resampled is a threshold of all rows
    tp, fp = pr.tp[cols], pr.fp[cols]
    values = _metrics(tp, fp, float(pr.n_pos), float(pr.n_neg), sub.beta * sub.beta)
    bands: dict[str, ConfidenceInterval] = {}
    for m in METRICS:
        band = sub.band(m)
        assert band is not None
        if p.subsampled:
            here = sub.metric(m)[sub.band_index]
            lo, hi = (np.clip(values[m] + p.scale * (e - here), 0, 1) for e in band)
            band = ConfidenceInterval(lo, hi, band.level)
        bands[m] = band
    return ViewBands(
        cols, bands, sub.precision_defined, sub.level, sub.n_resamples, sub.sampling, sub.beta
    )


def _interval(
    reps: np.ndarray, centre: float, sub_value: float, scale: float, level: float
) -> ConfidenceInterval:
    """Percentile interval of ``centre + scale·(replicate − sub_value)``."""
    lo, hi = np.quantile(centre + scale * (reps - sub_value), [(1 - level) / 2, (1 + level) / 2])
    return ConfidenceInterval(float(lo), float(hi), level)


def analyse_choice(
    y: np.ndarray,
    score: np.ndarray,
    w: np.ndarray | None,
    pr: PRCurve,
    *,
    cost_ratio: float | None,
    prevalence: float | tuple[int, int] | None,
    top_k: int | float | None,
    level: float,
    plan: Plan,
    seed: int | None,
    index: int,
    subsample_rows: np.ndarray | None = None,
    n_rows: int | None = None,
    progress: Any = None,
) -> ThresholdChoice:
    """Every "Choosing a threshold" number of one scorer (``index`` picks its random stream).

    ``(y, score, w)`` are the rows the engine handed over (all rows, or with ``n_rows`` the
    rows of the data, a stratified subsample of them) and ``pr`` the curve of all rows;
    ``subsample_rows`` the plan's stratified subsample of those (None: all of them).  The
    precision and recall at the top K of weighted data need every row (their tie groups).
    """
    ys, ss, ws = _rows(subsample_rows, y, score, w)
    notes: list[str] = []
    want_cost = cost_ratio is not None or prevalence is not None
    counts = _counts(pr)
    sample = (
        prepare_counted(pr, ys, ss) if ws is None and not plan.subsampled else prepare(ys, ss, ws)
    )
    gen = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(STREAM, index, 1)))
    deploy = None if prevalence is None else check_deployment_prevalence(prevalence)
    ratio = 1.0 if cost_ratio is None else float(cost_ratio)
    # the threshold of all rows, held in the resampled rows
    held = _held(sample.counts.thresholds, _cost_point(counts, ratio, _pi(pr, prevalence))[0])
    n_all, n_sub = int(y.shape[0]) if n_rows is None else n_rows, int(ys.shape[0])
    depth = None if top_k is None else check_depth(top_k, n_all)
    depth_sub = None if depth is None else depth * n_sub / n_all
    exact_top = depth is not None and w is None and depth <= EXACT_ROWS
    deep_top = depth is not None and not exact_top and ws is None  # in this pass: every group
    r = _replicates(
        sample, plan.n_resamples, gen, progress, held=held, ratio=ratio, deploy=deploy,
        want_cost=want_cost, depth_sub=depth_sub if deep_top else None,
    )  # fmt: skip
    if exact_top and depth is not None:  # every row, the top rows only (._topk)
        top_gen = np.random.default_rng(np.random.SeedSequence(seed, spawn_key=(STREAM, index, 4)))
        r["precision_at_k"], r["recall_at_k"] = top_k_replicates(
            pr.tp, pr.fp, depth, plan.n_resamples, top_gen
        )
    cost = None
    if want_cost:
        cost = _cost_choice(r, pr, sample.counts, ratio, prevalence, deploy, held, plan, level)
    topk = None
    if depth is not None and top_k is not None and depth_sub is not None:
        if exact_top:
            resampled, sub_rank = n_all, None
        elif ws is None:
            resampled, sub_rank = n_sub, _rank(sample.counts, ys, ss, None)
        else:
            resampled, sub_rank = 0, None
            notes.append(
                "precision@K and recall@K: no interval with sample weights (the bootstrap would "
                "need the rows of each replicate's tie groups)"
            )
        topk = _top_k_choice(
            r, _rank(counts, y, score, w), sub_rank, top_k, depth, depth_sub, resampled,
            plan.scale, level,
        )  # fmt: skip
    return ThresholdChoice(cost, topk, notes)


def _replicates(
    sample: Any,
    n_resamples: int,
    gen: np.random.Generator,
    progress: Any,
    *,
    held: int,
    ratio: float,
    deploy: Any,
    want_cost: bool,
    depth_sub: float | None,
) -> dict[str, np.ndarray]:
    """The bootstrap replicates of the resampled rows ``sample``, one pass: with ``want_cost``
    each replicate's cost-optimal threshold and flagged share, the net benefit at the held
    column ``held`` (-1: flag nothing), treat-all and π; with ``depth_sub`` precision and recall
    at that depth (every tie group needed)."""
    sub_counts = sample.counts
    # a replicate's least cost lies at a group holding one of its positives (below a group
    # without, the cost only grows), so the groups holding a positive and the held threshold's
    # are the only columns needed: exact, and about n₊/n of them on imbalanced data
    cols = None
    if depth_sub is None:
        cols = np.union1d(positive_columns(sample), [held] if held >= 0 else []).astype(np.intp)
    where = np.arange(sub_counts.thresholds.shape[0]) if cols is None else cols
    thresholds_sub = np.concatenate(
        [[np.inf], np.asarray(sub_counts.thresholds, np.float64)[where]]
    )
    h = -1 if held < 0 else int(np.searchsorted(where, held))  # the held column among them
    passes = want_cost or depth_sub is not None
    blocks = bootstrap_blocks(sample, n_resamples, gen, progress, cols) if passes else ()
    reps: dict[str, list[np.ndarray]] = {}
    for tp, fp, npos, nneg in blocks:
        npos = np.asarray(npos, dtype=np.float64)
        nneg = np.asarray(nneg, dtype=np.float64)
        if want_cost:
            pi = npos / (npos + nneg) if deploy is None else deploy.draw(npos.shape[0], gen)
            pi = np.broadcast_to(np.asarray(pi, dtype=np.float64), npos.shape)[:, None]
            tpr, fpr = tp / npos[:, None], fp / nneg[:, None]
            costs = np.concatenate([pi, pi * (1 - tpr) + (1 - pi) * ratio * fpr], axis=1)
            best = np.argmin(costs, axis=1)  # 0: flag nothing; ties: the highest threshold
            rows = np.arange(best.shape[0])
            at = np.maximum(best - 1, 0)
            flagged = np.where(best > 0, (tp[rows, at] + fp[rows, at]), 0.0)
            reps.setdefault("threshold", []).append(thresholds_sub[best])
            reps.setdefault("share", []).append(flagged / (npos + nneg))
            nb = np.zeros(npos.shape[0]) if h < 0 else (
                pi[:, 0] * tpr[:, h] - (1 - pi[:, 0]) * ratio * fpr[:, h]
            )  # fmt: skip
            reps.setdefault("net_benefit", []).append(nb)
            reps.setdefault("treat_all", []).append(pi[:, 0] - (1 - pi[:, 0]) * ratio)
            reps.setdefault("pi", []).append(pi[:, 0].copy())
        if depth_sub is not None:
            tp_k = depth_counts(tp, tp + fp, depth_sub)
            reps.setdefault("precision_at_k", []).append(tp_k / depth_sub)
            reps.setdefault("recall_at_k", []).append(tp_k / npos)
    return {key: np.concatenate(v) for key, v in reps.items()}


def _cost_choice(
    r: dict[str, np.ndarray],
    pr: PRCurve,
    sub_counts: Any,
    ratio: float,
    prevalence: float | tuple[int, int] | None,
    deploy: Any,
    held: int,
    plan: Plan,
    level: float,
) -> CostChoice:
    """The cost-optimal threshold of all rows and its intervals from the replicates ``r`` of
    the resampled rows (counts ``sub_counts``, the threshold of all rows at column ``held``)."""
    counts = _counts(pr)
    pi_all, pi_sub = _pi(pr, prevalence), _pi(sub_counts, prevalence)
    t_all, col_all, tpr_all, fpr_all = _cost_point(counts, ratio, pi_all)
    col_sub = _cost_point(sub_counts, ratio, pi_sub)[1]
    scale = plan.scale
    nb_all = pi_all * tpr_all - (1 - pi_all) * ratio * fpr_all
    nb_sub = 0.0 if held < 0 else (
        pi_sub * float(sub_counts.tp[held] / sub_counts.n_pos)
        - (1 - pi_sub) * ratio * float(sub_counts.fp[held] / sub_counts.n_neg)
    )  # fmt: skip
    ec = expected_cost_of_counts(counts, ratio, 1.0, pi_all)
    treat = pi_all - (1 - pi_all) * ratio
    return CostChoice(
        cost_ratio=ratio,
        prevalence=pi_all,
        prevalence_source=_prevalence_source(deploy),
        threshold=t_all,
        expected_cost=ec.minimum,
        net_benefit=nb_all,
        treat_all=treat,
        precision=None if col_all < 0 else _precision_at(counts, col_all, pi_all),
        recall=tpr_all,
        fpr=fpr_all,
        queue_rate=pi_all * tpr_all + (1 - pi_all) * fpr_all,  # the share flagged at π
        threshold_interval=_threshold_interval(
            r, counts, _share(counts, col_all), _share(sub_counts, col_sub), plan, level
        ),
        # expected cost = π − net benefit (units of c_FN), replicate by replicate
        expected_cost_interval=_interval(
            r["pi"] - r["net_benefit"], ec.minimum, pi_sub - nb_sub, scale, level
        ),
        net_benefit_interval=_interval(r["net_benefit"], nb_all, nb_sub, scale, level),
        treat_all_interval=_interval(
            r["treat_all"], treat, pi_sub - (1 - pi_sub) * ratio, scale, level
        ),
    )


def _prevalence_source(deploy: Any) -> str:
    """Where the cost's π comes from: the data, a known deployment π, or an estimated one."""
    if deploy is None:
        return "data"
    return "known" if deploy.count is None else "count"


def _top_k_choice(
    r: dict[str, np.ndarray],
    rank: Any,
    sub_rank: Any,
    top_k: int | float,
    depth: float,
    depth_sub: float,
    resampled: int,
    scale: float,
    level: float,
) -> TopKChoice:
    """Precision and recall at the top K rows of all rows (``rank``), with their intervals
    from the replicates ``r``: of every row (``sub_rank`` None, ``resampled`` rows), of a
    subsample ranked ``sub_rank`` (rescaled by ``scale``), or none (``resampled`` 0)."""
    prec, rec = _at_depth(rank, depth)
    p_ci = r_ci = None
    if resampled and sub_rank is None:
        p_ci = _interval(r["precision_at_k"], prec, prec, 1.0, level)
        r_ci = _interval(r["recall_at_k"], rec, rec, 1.0, level)
    elif resampled:
        p_sub, r_sub = _at_depth(sub_rank, depth_sub)
        p_ci = _interval(r["precision_at_k"], prec, p_sub, scale, level)
        r_ci = _interval(r["recall_at_k"], rec, r_sub, scale, level)
    g = min(int(np.searchsorted(rank.rows, depth, side="left")), rank.rows.shape[0] - 1)
    at = float(rank.counts.thresholds[g])  # the tie group holding the row at the depth
    return TopKChoice(top_k, depth, at, prec, rec, p_ci, r_ci, resampled)


def _precision_at(counts: Any, col: int, pi: float) -> float:
    """Precision of column ``col`` at prevalence π (TPR and FPR kept)."""
    tpr, fpr = counts.tp[col] / counts.n_pos, counts.fp[col] / counts.n_neg
    return float(pi * tpr / (pi * tpr + (1 - pi) * fpr))


def _threshold_interval(
    r: dict[str, np.ndarray],
    counts: Any,
    share_all: float,
    share_sub: float,
    p: Plan,
    level: float,
) -> ConfidenceInterval:
    """Percentile interval of the threshold re-chosen in every replicate (``+inf``: flag
    nothing).

    Every row resampled: the replicates' thresholds (scores of the data).  A subsample: in
    rank coordinates, as :func:`._sizing.rescale_points` does — the flagged share
    ``q_all + (m/n)^(1/3)·(q_replicate − q_subsample)`` (the cube-root rate, module docstring),
    its percentile ends mapped back through the shares of all rows to the nearest thresholds
    outward.
    """
    probs = [(1 - level) / 2, (1 + level) / 2]
    if not p.subsampled:
        lo, hi = np.quantile(r["threshold"], probs, method="inverted_cdf")
        return ConfidenceInterval(float(lo), float(hi), level)
    q = share_all + (p.rows / p.n) ** (1 / 3) * (r["share"] - share_sub)
    q_lo, q_hi = np.quantile(q, probs, method="inverted_cdf")
    tp = np.asarray(counts.tp, dtype=np.float64)
    share = np.concatenate([[0.0], (tp + counts.fp) / (counts.n_pos + counts.n_neg)])
    thresholds = np.concatenate([[np.inf], np.asarray(counts.thresholds, dtype=np.float64)])
    k = share.shape[0] - 1
    low = min(int(np.searchsorted(share, q_hi, side="left")), k)  # flags at least q_hi
    high = max(int(np.searchsorted(share, q_lo, side="right")) - 1, 0)  # at most q_lo
    return ConfidenceInterval(float(thresholds[low]), float(thresholds[high]), level)
