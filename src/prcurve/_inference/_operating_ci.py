"""The operating point for a target (precision, recall, FPR or top-k), with bootstrap intervals."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._counts import count_sorted
from .._core._disk import n_at_least
from .._core._exact import exact_precision
from .._core._operating import (
    CRITERIA,
    OperatingPoint,
    TargetNotMetWarning,
    check_criterion,
    choose_on_counts,
    choose_rows,
)
from .._core._partial import negative_factor
from .._core._results import ConfidenceInterval
from .._core._validation import check_binary_problem, check_choice, check_level, check_rng
from ._coarse_fine import COARSE_FINE_CRITERIA, coarse_fine_replicates
from ._common import check_progress, check_resamples
from ._partial_ci import DeploymentPrevalence, check_deployment_prevalence
from ._resample import (
    ProgressHook,
    SortedSample,
    bootstrap_blocks,
    check_sampling,
    positive_columns,
    prepare,
    prepare_counted,
)

__all__ = ["operating_point", "operating_points"]


def _describe_failure(criterion: str, target: float, tp, fp, fps, n_neg) -> str:
    """Why no point meets the target (``fp`` the data's negatives, ``fps`` reweighted to π)."""
    if criterion == "min_precision":
        prec = tp / (tp + fps)
        i = int(np.argmax(prec))
        return (
            f"no threshold reaches precision >= {target:g}: the highest precision is "
            f"{prec[i]:.6g} (recall {tp[i] / tp[-1]:.6g})"
        )
    if criterion == "max_fpr":
        return (
            f"no threshold has false-positive rate <= {target:g}: the top-scoring tie group "
            f"alone has rate {fp[0] / n_neg:.6g}"
        )
    d = tp + fp
    return f"no threshold flags at most {target:g}: the top-scoring tie group holds {d[0]:.6g}"


def _point(
    counts: Any, criterion: str, target: float, factor: float, prevalence: float | None
) -> tuple[OperatingPoint, int]:
    """The point chosen on the data's counts; ``prevalence`` the deployment π (None: the data's).

    The choice is made on the counts themselves (see :func:`choose_rows`); ``factor`` (the
    negatives' weight at π) only rescales the reported ``fp`` and ``tn``.
    """
    tp, fp = counts.tp, counts.fp
    n_pos, n_neg = counts.n_pos, counts.n_neg * factor
    i, feasible = choose_on_counts(
        tp, fp, counts.n_pos, counts.n_neg, criterion, target, prevalence=prevalence
    )
    shown = counts.n_pos / (counts.n_pos + counts.n_neg) if prevalence is None else prevalence
    common: dict[str, Any] = dict(
        criterion=criterion, target=target, n_pos=n_pos, n_neg=n_neg, prevalence=shown
    )
    if not feasible:
        fps = np.multiply(fp, factor, dtype=np.float64) if factor != 1.0 else fp
        reason = _describe_failure(criterion, target, tp, fp, np.asarray(fps), counts.n_neg)
        fields = ("threshold", "precision", "recall", "fpr", "tp", "fp", "fn", "tn")
        none: dict[str, Any] = dict.fromkeys(fields)
        return OperatingPoint(feasible=False, reason=reason, **none, **common), -1
    # the negatives' count at π: the one product the whole rescaled column would hold here
    f = np.multiply(fp[i], factor, dtype=np.float64).item() if factor != 1.0 else fp[i].item()
    t = tp[i].item()
    totals = () if prevalence is None else (counts.n_pos, counts.n_neg, prevalence)
    return OperatingPoint(
        feasible=True,
        threshold=counts.thresholds[i].item(),
        precision=exact_precision(tp[i], fp[i], *totals),  # the value the rule compared
        recall=t / n_pos,
        fpr=float(fp[i] / counts.n_neg),
        tp=t,
        fp=f,
        fn=n_pos - t,
        tn=n_neg - f,
        **common,
    ), i


def _replicates(
    sample: SortedSample,
    specs: list[tuple[str, float, int, DeploymentPrevalence | None]],
    n_resamples: int,
    gen: np.random.Generator,
    progress: ProgressHook | None,
    sampling: str = "instances",
) -> list[tuple[np.ndarray, ...]]:
    """One bootstrap for several operating points.

    ``specs`` holds ``(criterion, target, chosen column, deployment prevalence or None)``; a
    prevalence estimated from a count is drawn once per replicate and shared by its specs.
    Returns, per
    spec, the replicates' thresholds (re-chosen), feasibility, and precision and recall at the
    chosen column (held fixed).
    """
    if sample.pos_weight is None and all(spec[0] in COARSE_FINE_CRITERIA for spec in specs):
        return coarse_fine_replicates(sample, specs, n_resamples, gen, progress, sampling)
    k = sample.n_groups
    if any(spec[0] == "top_k" for spec in specs):
        cols = np.arange(k)
    else:  # the chosen point of a replicate always starts a run of equal TP: a positive column
        cols = np.union1d(positive_columns(sample), [spec[2] for spec in specs])
    at = np.searchsorted(cols, [spec[2] for spec in specs])
    out: list[tuple[list, list, list, list]] = [([], [], [], []) for _ in specs]
    blocks = bootstrap_blocks(sample, n_resamples, gen, progress, cols, sampling=sampling)
    for tp, counted, npos, nneg0 in blocks:
        fp0 = np.asarray(counted, dtype=np.float64)
        nneg0 = np.asarray(nneg0, dtype=np.float64)
        # per deployment prevalence (by identity): each row's π and its reweighted negatives
        shifted: dict[int, tuple[Any, np.ndarray]] = {id(None): (None, fp0)}
        for (criterion, target, _, pi), col, (thr, oks, prec, rec) in zip(
            specs, at, out, strict=True
        ):
            if id(pi) not in shifted:
                assert pi is not None
                drawn = pi.draw(tp.shape[0], gen)
                f = np.asarray(negative_factor(npos, nneg0, drawn))
                shifted[id(pi)] = (drawn, fp0 * f[:, None])
            drawn, fp = shifted[id(pi)]
            idx, ok = choose_rows(tp, counted, npos, nneg0, criterion, target, prevalence=drawn)
            thr.append(sample.counts.thresholds[cols[idx]])
            oks.append(ok)
            t0, f0 = np.asarray(tp[:, col], dtype=np.float64), fp[:, col]
            d0 = t0 + f0
            prec.append(np.where(d0 > 0, t0 / np.where(d0 > 0, d0, 1.0), np.nan))
            rec.append(t0 / npos)
    return [tuple(np.concatenate(part) for part in parts) for parts in out]


def _with_intervals(
    point: OperatingPoint, reps: tuple, level: float, n_resamples: int
) -> OperatingPoint:
    """The point with percentile intervals from its replicates."""
    thr, ok, prec, rec = reps
    probs = [(1 - level) / 2, (1 + level) / 2]
    t_ci = None
    if ok.any():
        t_lo, t_hi = np.quantile(thr[ok], probs, method="inverted_cdf")
        t_ci = ConfidenceInterval(t_lo.item(), t_hi.item(), level)
    p_lo, p_hi = np.quantile(prec[np.isfinite(prec)], probs)
    r_lo, r_hi = np.quantile(rec, probs)
    return OperatingPoint(
        **{
            **point.__dict__,
            "threshold_interval": t_ci,
            "precision_interval": ConfidenceInterval(float(p_lo), float(p_hi), level),
            "recall_interval": ConfidenceInterval(float(r_lo), float(r_hi), level),
            "level": level,
            "n_resamples": n_resamples,
            "feasible_fraction": float(ok.mean()),
        }
    )


def _infeasible_message(point: OperatingPoint) -> str:
    share = 1 - (point.feasible_fraction or 0.0)
    return (
        f"{share:.1%} of the bootstrap replicates have no threshold meeting "
        f"{point.criterion}={point.target:g}; the threshold interval uses the other replicates"
    )


def _one_criterion(name: str, value: Any) -> tuple[str, float]:
    check_choice(name, "criterion", CRITERIA)
    given = dict.fromkeys(("min_precision", "min_recall", "top_k", "max_fpr"))
    given[name] = value
    return check_criterion(**given)


def _checked_targets(
    targets: Sequence[tuple[str, float]], prevalences: Sequence[Any]
) -> tuple[list[tuple[str, float]], list[DeploymentPrevalence | None]]:
    checked = [_one_criterion(name, value) for name, value in targets]
    pis = [None if pi is None else check_deployment_prevalence(pi) for pi in prevalences]
    if any(pi is not None for pi in pis) and any(c == "top_k" for c, _ in checked):
        raise ValueError(
            "prevalences: expected only None with top_k (k counts instances of the data at "
            f"hand), got {list(prevalences)!r}"
        )
    return checked, pis


def _chosen(
    counts: Any, checked: list[tuple[str, float]], pis: list[DeploymentPrevalence | None]
) -> list[tuple[OperatingPoint, int, DeploymentPrevalence | None]]:
    """Every target at every prevalence (prevalence-major): point, chosen column, π."""
    out = []
    for pi in pis:
        value = None if pi is None else pi.value
        factor = 1.0 if value is None else float(negative_factor(counts.n_pos, counts.n_neg, value))
        for criterion, target in checked:
            point, column = _point(counts, criterion, target, factor, value)
            out.append((point, column, pi))
    return out


def _points_from_counts(
    counts: Any, targets: Sequence[tuple[str, float]], prevalences: Sequence[Any] = (None,)
) -> list[OperatingPoint]:
    """The points :func:`operating_points` chooses, without intervals, from counts already had.

    ``counts`` is the engine's counts of the data or a :class:`~prcurve.PRCurve` built from them
    (``threshold_rule="ge"``): no sort, no resampling.
    """
    checked, pis = _checked_targets(targets, prevalences)
    return [point for point, _, _ in _chosen(counts, checked, pis)]


@dataclass(frozen=True)
class _Replicates:
    """The bootstrap replicates of one operating point (internal: the report rescales them).

    ``thresholds``/``feasible``: the target chosen again in every replicate (threshold NaN-free:
    0 where infeasible, masked by ``feasible``); ``precision``/``recall``: at the held threshold
    in every replicate; ``held_precision``/``held_recall``: at the held threshold on the data
    resampled (the replicates' centre; precision NaN when no row reaches it).  ``flagged``:
    the share of the resampled data's weight at or above each replicate's threshold, and
    ``own_flagged`` that at the threshold chosen on those data (NaN when they miss the target):
    the thresholds in rank coordinates.
    """

    thresholds: np.ndarray
    feasible: np.ndarray
    precision: np.ndarray
    recall: np.ndarray
    held_precision: float
    held_recall: float
    flagged: np.ndarray
    own_flagged: float

    def as_tuple(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.thresholds, self.feasible, self.precision, self.recall


def _flagged_share(counts: Any) -> np.ndarray:
    """Share of the total weight at or above each threshold, ``(tp + fp)/(n₊ + n₋)``."""
    tp = np.asarray(counts.tp, dtype=np.float64)
    return (tp + counts.fp) / (counts.n_pos + counts.n_neg)


def _held_column(thresholds: np.ndarray, t: float) -> int:
    """The column of the decreasing ``thresholds`` predicting ``score >= t`` (-1: none)."""
    return int(n_at_least(thresholds, t)) - 1


def _operating_bootstrap(
    y: np.ndarray,
    s: np.ndarray,
    w: np.ndarray | None,
    targets: Sequence[tuple[str, float]],
    *,
    prevalences: Sequence[Any] = (None,),
    n_resamples: int,
    rng: np.random.Generator,
    progress: ProgressHook | None = None,
    sampling: str = "instances",
    hold: Sequence[float | None] | None = None,
    counts: Any = None,
) -> tuple[list[OperatingPoint], list[_Replicates | None]]:
    """The points chosen on ``(y, s, w)`` (validated) and their bootstrap replicates.

    Without ``hold`` precision and recall are held at each point's own chosen threshold and
    infeasible points get no replicates (what :func:`operating_points` needs).  With ``hold``
    (one threshold or None per point, in the points' order) they are held at that threshold
    instead and every point with a held threshold gets replicates, feasible here or not: the
    report resamples a subsample this way, holding the thresholds chosen on all rows.
    ``counts``: the counts (or PR curve) of unweighted ``(y, s)`` if already had (no sort).
    """
    checked, pis = _checked_targets(targets, prevalences)
    sample = prepare(y, s, w) if counts is None or w is not None else prepare_counted(counts, y, s)
    counts = sample.counts
    chosen = _chosen(counts, checked, pis)
    if hold is not None and len(hold) != len(chosen):
        raise ValueError(f"hold: expected {len(chosen)} thresholds, got {len(hold)}")
    specs, held = [], []
    for i, (point, column, pi) in enumerate(chosen):
        if hold is None:
            if point.feasible:
                specs.append((point.criterion, point.target, column, pi))
                held.append((i, column))
        elif hold[i] is not None:
            col = _held_column(counts.thresholds, float(hold[i]))  # type: ignore[arg-type]
            specs.append((point.criterion, point.target, max(col, 0), pi))
            held.append((i, col))
    parts = _replicates(sample, specs, n_resamples, rng, progress, sampling) if specs else []
    reps: list[_Replicates | None] = [None] * len(chosen)
    share = _flagged_share(counts) if specs else None
    negated = -counts.thresholds if specs else None  # increasing, for the binary searches
    for (i, col), (thr, ok, prec, rec), (_, _, _, pi) in zip(held, parts, specs, strict=True):
        if col < 0:  # no row reaches the held threshold: nothing is predicted positive
            prec, rec, p0, r0 = np.full_like(prec, np.nan), np.zeros_like(rec), np.nan, 0.0
        else:
            f = 1.0 if pi is None else negative_factor(counts.n_pos, counts.n_neg, pi.value)
            t0, f0 = float(counts.tp[col]), float(counts.fp[col]) * float(f)
            p0, r0 = t0 / (t0 + f0) if t0 + f0 > 0 else np.nan, t0 / float(counts.n_pos)
        point = chosen[i][0]
        assert share is not None and negated is not None
        own = share[chosen[i][1]] if point.feasible else np.nan
        at = np.searchsorted(negated, -thr, side="right") - 1
        reps[i] = _Replicates(thr, ok, prec, rec, p0, r0, share[np.maximum(at, 0)], float(own))
    return [point for point, _, _ in chosen], reps


def operating_points(
    y_true: Any,
    y_score: Any,
    targets: Sequence[tuple[str, float]],
    *,
    prevalences: Sequence[Any] = (None,),
    level: float = 0.95,
    n_resamples: int = 1000,
    rng: Any = None,
    progress: ProgressHook | None = None,
    sample_weight: Any = None,
    sampling: str = "instances",
    counts: Any = None,
) -> tuple[list[OperatingPoint], list[str]]:
    """Several operating points with intervals from one shared bootstrap (internal; the report).

    Every ``(criterion, target)`` is chosen at every prevalence (``None``: the data's), the
    points in that order (prevalence-major); each point is what :func:`operating_point` returns
    with ``interval="bootstrap"`` given replicates of the same law.  Returns the points and
    notes (instead of :class:`TargetNotMetWarning`) for replicates that miss a target.
    ``counts``: the PR curve of unweighted data if already had (no second sort).
    """
    level = check_level(level)
    n_resamples = check_resamples(n_resamples)
    gen = check_rng(rng)
    sampling = check_sampling(sampling)
    _checked_targets(targets, prevalences)  # bad targets are reported before bad data
    y, s, w = check_binary_problem(y_true, y_score, sample_weight, None)
    points, reps = _operating_bootstrap(
        y, s, w, targets, prevalences=prevalences, n_resamples=n_resamples, rng=gen,
        progress=progress, sampling=sampling, counts=counts,
    )  # fmt: skip
    out, notes = [], []
    for point, rep in zip(points, reps, strict=True):
        if rep is not None:
            point = _with_intervals(point, rep.as_tuple(), level, n_resamples)
            if point.feasible_fraction is not None and point.feasible_fraction < 1:
                notes.append(_infeasible_message(point))
        out.append(point)
    return out, notes


def operating_point(
    y_true: Any,
    y_score: Any,
    *,
    min_precision: float | None = None,
    min_recall: float | None = None,
    top_k: float | None = None,
    max_fpr: float | None = None,
    sample_weight: Any = None,
    pos_label: Any = None,
    prevalence: Any = None,
    interval: str | None = None,
    level: float = 0.95,
    n_resamples: int = 1000,
    rng: Any = None,
    progress: ProgressHook | None = None,
    sampling: str = "instances",
) -> OperatingPoint:
    """The threshold that meets a target, its precision, recall, FPR and counts.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n,)
        Binary labels and scores (see :func:`prcurve.pr_curve`); predict positive when
        ``score >= threshold``.
    min_precision : float in (0, 1], optional
        The highest recall among thresholds whose precision is at least this; among equal
        recall the highest precision (the highest threshold).
    min_recall : float in (0, 1], optional
        The highest precision among thresholds whose recall is at least this; among equal
        precision the highest recall.
    top_k : float > 0, optional
        The lowest threshold that flags at most ``k`` instances (``TP + FP <= k``; total weight
        with sample weights).  Tied scores are never split, so a tie straddling ``k`` gives
        fewer than ``k``.
    max_fpr : float in [0, 1), optional
        The highest recall among thresholds whose false-positive rate is at most this; among
        equal recall the highest threshold.
    sample_weight : array-like of shape (n,), optional
    pos_label : optional
    prevalence : float in (0, 1) or (int, int), optional
        Deployment prevalence π: the target is met, and precision (and ``fp``/``tn``) given,
        with the negatives reweighted by ``n₊(1 − π)/(π n₋)`` (see
        :meth:`PRCurve.at_prevalence`); recall and FPR do not change.  A number is treated as
        known.  A pair ``(k, m)`` means π was estimated as k/m from k positives among m
        deployment instances: the point uses k/m, and every bootstrap replicate draws its own
        π from Beta(k + ½, m − k + ½), so the intervals include that uncertainty.  Not with
        ``top_k`` (a count in the data at hand).
    interval : {None, "bootstrap"}
        ``"bootstrap"``: percentile intervals from the instances resampled with the shared
        bootstrap engine (``prcurve._inference._resample``); for ``min_precision`` and
        ``min_recall`` without sample weights the replicates are drawn coarse to fine
        (``prcurve._inference._coarse_fine``: the same law, a fraction of the cost on large
        imbalanced data).
    level : float
        Confidence level in (0, 1).
    n_resamples : int
    rng : None, int or numpy.random.Generator
    progress : callable, optional
        ``progress(done, total)`` after each block of replicates.
    sampling : {"instances", "stratified"}
        Bootstrap sampling model (see :func:`prcurve.auc_pr_ci`): ``"instances"`` (default)
        resamples n rows, so the number of positives varies; ``"stratified"`` keeps the class
        counts (case–control designs).

    Returns
    -------
    OperatingPoint
        ``feasible=False`` (and a ``reason``) when no threshold meets the target; no exception.

    Warns
    -----
    TargetNotMetWarning
        Some replicates have no point meeting the target; the threshold interval uses the
        others (their share is ``feasible_fraction``).

    Notes
    -----
    Two kinds of interval answer two questions.  ``threshold_interval``: the criterion is
    applied again in every replicate, so it targets the population threshold that meets the
    target.  ``precision_interval`` and ``recall_interval``: the chosen threshold is held fixed
    and its precision and recall are recomputed in every replicate, so they target what that
    threshold delivers on new data from the same population.  They ignore that the threshold
    was selected on the same data (with ``min_precision`` the chosen point is the one whose
    sample precision barely clears the target), which makes the precision interval optimistic
    near the target.  Coverage is measured in ``examples/coverage_operating_point.py`` (table
    in docs/guide/operating-points.md): 0.92–0.97 with ``sampling="instances"``; with
    ``"stratified"`` on labels drawn at random, quantities depending on the sample's class mix
    under-cover (precision at the data prevalence of a low-precision point: about 0.83).
    The rules are listed in ``prcurve._core._operating``; every replicate applies the same rule
    (ties toward its own highest threshold).

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import operating_point
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(2000) < 0.2
    >>> s = rng.normal(size=2000) + 2 * y
    >>> op = operating_point(y, s, min_precision=0.8, interval="bootstrap", n_resamples=200, rng=1)
    >>> op.feasible, op.precision >= 0.8, round(op.recall, 3)
    (True, True, 0.549)
    >>> op.recall_interval.contains(op.recall)
    True
    >>> miss = operating_point([0, 1, 0, 1], [0.9, 0.8, 0.7, 0.6], min_precision=0.9)
    >>> miss.feasible, miss.threshold, miss.reason[:37]
    (False, None, 'no threshold reaches precision >= 0.9')
    """
    criterion, target = check_criterion(min_precision, min_recall, top_k, max_fpr)
    kind = None if interval is None else check_choice(interval, "interval", ("bootstrap",))
    sampling = check_sampling(sampling)
    deploy = None if prevalence is None else check_deployment_prevalence(prevalence)
    pi = None if deploy is None else deploy.value
    if pi is not None and criterion == "top_k":
        raise ValueError(
            "prevalence: expected None with top_k (k counts instances of the data at hand), "
            f"got {prevalence!r}"
        )
    if kind is not None:
        level = check_level(level)
        n_resamples = check_resamples(n_resamples)
        gen = check_rng(rng)
        progress = check_progress(progress)
    y, s, w = check_binary_problem(y_true, y_score, sample_weight, pos_label)
    sample = prepare(y, s, w) if kind is not None else None
    counts = sample.counts if sample is not None else count_sorted(y, s, w)
    factor = 1.0 if pi is None else float(negative_factor(counts.n_pos, counts.n_neg, pi))
    point, chosen = _point(counts, criterion, target, factor, pi)
    if sample is None or not point.feasible:
        return point
    spec = [(criterion, target, chosen, deploy)]
    reps = _replicates(sample, spec, n_resamples, gen, progress, sampling)
    result = _with_intervals(point, reps[0], level, n_resamples)
    if result.feasible_fraction is not None and result.feasible_fraction < 1:
        warnings.warn(_infeasible_message(result), TargetNotMetWarning, stacklevel=2)
    return result
