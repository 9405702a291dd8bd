"""How much resampling each inference step of a report gets, and subsampling for large data.

Every bootstrap replicate of the report's inference steps costs time proportional to the rows it
resamples, so a report on millions of rows with 1000 replicates per step would take minutes.
With ``--n-resamples auto`` each step gets a *work budget* of row-resamples (rows × replicates,
:data:`WORK`): up to the budget it resamples all rows, with between :data:`MIN_RESAMPLES` and
:data:`MAX_RESAMPLES` replicates; beyond it, it resamples a stratified random subsample of ``m``
rows (same prevalence, at least :data:`MIN_POSITIVES` positives) with :data:`MIN_RESAMPLES`
replicates, and the fluctuations are rescaled by ``√(m/n)`` around the full-data estimate.

Why the rescaling is sound: each statistic here (AUC-PR, a difference of AUC-PRs, the sup-norm
deviation of the PR curve) is √n-consistent with a limiting law that does not depend on n
(Clémençon & Vayatis 2009, Theorem 1 and eq. 9; Boyd et al. 2013 for AUC-PR), so the law of
``√m (θ*_m − θ̂_m)`` from the subsample estimates that of ``√n (θ̂_n − θ)``; this is the
subsampling / m-out-of-n idea (Politis & Romano 1994; Bickel, Götze & van Zwet 1997).  The
centres (estimates, curves) always come from all rows; only the widths come from ``m`` rows.

Budgets and coverage (``bench/coverage_report_subsample.py``, the report's own code path:
binormal, negatives N(0, 1), scorer A's positives N(1.5, 1), B and C correlated with A (ρ = 0.5)
with positives N(1.2, 1) and N(1.5, 1), prevalence 0.05; 95 % intervals from 200 replicates;
rate ± binomial s.e.; every column on the same samples):

=====================  =====  ====================  ===================  ====================
interval               n      before (2× budget)    now                  every row
=====================  =====  ====================  ===================  ====================
AP                     4·10⁵  0.927 ± 0.015 (150k)  0.923 ± 0.015 (75k)  0.937 ± 0.014 (400k)
AP                     2·10⁶  0.935 ± 0.017 (150k)  0.935 ± 0.017 (75k)
band (simultaneous)    4·10⁵  0.917 ± 0.016 (20k)   0.910 ± 0.017 (20k)  0.913 ± 0.016 (80k)
band (simultaneous)    2·10⁶  0.930 ± 0.018 (20k)   0.930 ± 0.018 (20k)
band (simultaneous)    4·10⁴                        0.933 ± 0.014 (20k)  0.960 ± 0.011 (40k)
difference A − B       4·10⁵  0.933 ± 0.014 (50k)   0.933 ± 0.014 (25k)
difference A − B       2·10⁶  0.935 ± 0.017 (50k)   0.930 ± 0.018 (25k)
difference A − B       4·10⁴                        0.947 ± 0.013 (25k)  0.947 ± 0.013 (40k)
size A vs C, p < 0.05  4·10⁵  0.057 ± 0.013 (50k)   0.053 ± 0.013 (25k)
size A vs C, p < 0.05  2·10⁶  0.065 ± 0.017 (50k)   0.070 ± 0.018 (25k)
size A vs C, p < 0.05  4·10⁴                        0.060 ± 0.014 (25k)  0.060 ± 0.014 (40k)
=====================  =====  ====================  ===================  ====================

(rows resampled in brackets; 300 samples at 4·10⁵ and 4·10⁴, 200 at 2·10⁶; the band's 20k is
the :data:`MIN_POSITIVES` floor at 5 % positives, the same for both budgets; its "every row"
entry at 4·10⁵ is a larger subsample, 80,000 rows.  Commands, with today's budgets:
``--n 400000 --repetitions 300 --budget 2 1 --min-positives 1000 500``, the same with
``--n 2000000 --repetitions 200``, ``--n 400000 --repetitions 300 --budget 8 --steps
auc_pr_bootstrap band`` and ``--n 40000 --repetitions 300 --budget 1 4 --steps band compare``;
about 12, 8, 10 and 4 minutes of one core.)

Halving a budget changed no rate by more than its Monte Carlo error, and not the mean widths
(AP 0.0136 at 4·10⁵ for all three sizes, difference 0.0129 against 0.0127): the √(m/n)-scaled
width estimates the width of n rows whatever m is, only its own noise grows as m shrinks (and
200 replicates already put ≈ 10 % of noise on a percentile end).  A band from 10,000 rows (500
positives, what the halved budget gives when the floor does not bind) covered 0.917 ± 0.016 at
4·10⁵ and 0.915 ± 0.020 at 2·10⁶.
So the AP, band and comparison budgets were halved (2026).  The AP interval and the comparison
cover as with every row (AP 0.937, difference 0.947, size 0.060); all sit a little below 95 %
at these n.  The smoothed band from a subsample runs 0.02–0.04 below the band of every row
(0.933 against 0.960 at 4·10⁴, its radius 1.4 % narrower; 0.91–0.93 at 4·10⁵ and 2·10⁶ from
20,000 or 80,000 rows alike): that comes with the rescaling, whatever m, not with the budget.

The operating points of unweighted data resample every row, drawn coarse to fine
(:func:`plan_operating_exact`, :mod:`prcurve._inference._coarse_fine`): their cost follows the
positives, not n.  With sample weights they are sized like the other steps
(:func:`plan_operating`, :func:`rescale_points`):
Precision and recall at a fixed threshold are ratios of empirical means, √n-consistent with a
normal limit; the threshold meeting a precision or recall target is a smooth functional of the
class score distributions where the population curve crosses the target with non-zero slope (as
a quantile is), √n-consistent too.  The subsample also keeps, on average, at least
:data:`MIN_FLAGGED` of the rows each chosen threshold flags, so a point high on the curve (few
rows above its threshold) is not estimated from a handful of subsample rows.  Known-prevalence
points at π are the same functionals of reweighted counts.  A prevalence *estimated* from a
count k/m is different: its uncertainty comes from m, not n, and would wrongly shrink with
``√(m/n)``, so with ``--prevalence-count`` the operating points resample every row.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from ..._core._batch import functional_precision
from ..._core._disk import is_on_disk, release_all, sorted_position
from ..._core._empirical import PRCurve
from ..._core._operating import OperatingPoint
from ..._core._results import ConfidenceInterval
from ..._inference._auc_ci import AUCPRInterval
from ..._inference._band import PRConfidenceBand
from ..._inference._compare import ComparisonResult
from ..._inference._operating_ci import _held_column, _Replicates
from ..input._engine import subsample

__all__ = [
    "COST",
    "MAX_RESAMPLES",
    "MIN_FLAGGED",
    "MIN_RESAMPLES",
    "WORK",
    "Plan",
    "capped",
    "plan",
    "plan_operating",
    "plan_operating_exact",
    "rescale_points",
    "snap_interval",
    "subsample",
]

#: Row-resamples (rows × replicates) per step with ``--n-resamples auto``.  The AP bootstrap,
#: band and comparison budgets were halved in 2026 after measuring that the coverage of their
#: rescaled subsample intervals does not depend on m at these sizes (see "Budgets and coverage"
#: in the module docstring); at 10⁶ rows, 5 % positives, they resample 75,000 (AP), 25,000
#: (comparison) and 20,035 rows (band: the :data:`MIN_POSITIVES` floor) 200 times: 0.07, 0.07
#: and 0.11–0.14 s of one core (``bench/bench_report_steps.py``; 1.29 s for the five steps of
#: two scorers before, 0.46 s after).  The operating-point bootstrap (every
#: target of one scorer from one bootstrap) ≈ 7 ns per row-resample (1.45 s for 200 resamples
#: of 10⁶ rows), and its budget (60,000 rows × 200; more rows when a chosen threshold flags
#: few, see :func:`plan_operating`) keeps that step near 0.1–0.25 s at 10⁶ rows.
#: The operating points of unweighted data are resampled on every row, coarse to fine
#: (:func:`plan_operating_exact`): about 30 ns per positive-resample (10⁶ rows, 5 % positives,
#: six targets: 0.3 s for 200 replicates), so 10⁷ positive-resamples take about 0.3 s.
WORK = {
    "auc_pr_bootstrap": 15 * 10**6,
    "compare": 5 * 10**6,
    "band": 2 * 10**6,
    "operating_points": 12 * 10**6,
    "operating_points_exact": 10**7,
    "threshold_view": 5 * 10**6,
    "threshold_choice": 5 * 10**6,
}
#: Seconds per row-resample of each step on one core, for planning (ordering the steps, and
#: whether worker processes pay).  Measured with ``bench/bench_report_steps.py`` at the 10⁶-row
#: report's sizes, in a worker's settings (fixed costs — the subsample's sort, the band's
#: smoothed reference curve — included; 2 shared CPUs, so ± 15 %): AP 4.6 ns, comparison 15 ns,
#: band 31 ns.  Before the 2026 speed-ups (a BLAS thread spinning after each AP estimate, the
#: comparison's (b, k) count matrices, heap pages faulted in again for every block): AP 11 ns,
#: comparison 60 ns, band 95 ns (and 9, 46, 37 ns measured just before them).
#: ``operating_points_exact``: per positive-resample (see :data:`WORK`).
COST = {
    "auc_pr_bootstrap": 4.6e-9,
    "compare": 15e-9,
    "band": 31e-9,
    "operating_points": 7e-9,
    "operating_points_exact": 30e-9,
    "threshold_view": 10e-9,
    "threshold_choice": 30e-9,
}
#: Replicates of a step that resamples all rows, at most (the former fixed default).
MAX_RESAMPLES = 1000
#: Replicates at least: percentile ends and p-values (floor 1/201) resolve 95 % and 0.05.
MIN_RESAMPLES = 200
#: A subsample keeps at least this many positives (so few positives means all rows).
MIN_POSITIVES = 1000
#: The operating points' subsample keeps, on average, at least this many of the rows each
#: chosen threshold flags (``score >= threshold``): the threshold interval's coverage depends
#: on the flagged rows resampled (``bench/coverage_operating_subsample.py``, binormal,
#: ``min_precision=0.8``: 0.87 with about 200 of them, 0.905 with 400, 0.90 with 1000 in a
#: subsample, 0.94 with 800 when every row is resampled; see :func:`rescale_points`).
MIN_FLAGGED = 1000


@dataclass(frozen=True)
class Plan:
    """The resampling of one inference step.

    Attributes
    ----------
    task : str
        A key of :data:`WORK`.
    n_resamples : int
        Bootstrap replicates.
    rows : int
        Rows resampled: all ``n``, or the size ``m`` of a stratified subsample.
    n : int
        Rows of the data.
    """

    task: str
    n_resamples: int
    rows: int
    n: int
    positives: int = field(default=0, repr=False, compare=False)  # cost of the exact task

    @property
    def subsampled(self) -> bool:
        return self.rows < self.n

    @property
    def scale(self) -> float:
        """``√(m/n)``: the factor applied to the subsample's fluctuations."""
        return math.sqrt(self.rows / self.n)

    @property
    def work(self) -> int:
        """Row-resamples (the cost is proportional to it)."""
        return self.rows * self.n_resamples

    @property
    def seconds(self) -> float:
        """Expected seconds on one core (from :data:`COST`)."""
        if self.task == "operating_points_exact":  # its cost follows the positives
            return self.positives * self.n_resamples * COST[self.task]
        return self.work * COST[self.task]


def plan(task: str, n: int, n_pos: int, n_resamples: int | None = None) -> Plan:
    """The resampling of ``task`` on ``n`` rows with ``n_pos`` positives.

    ``n_resamples`` given (``--n-resamples N``): that many replicates of all rows.  Otherwise
    the work budget :data:`WORK` decides, as described in the module docstring.

    >>> plan("band", 1797, 60)
    Plan(task='band', n_resamples=1000, rows=1797, n=1797)
    >>> p = plan("band", 10**6, 5 * 10**4)
    >>> p.n_resamples, p.rows, round(p.scale, 4)
    (200, 20000, 0.1414)
    """
    if n_resamples is not None:
        return Plan(task, int(n_resamples), n, n)
    work = WORK[task]
    if n * MIN_RESAMPLES <= work:
        return Plan(task, int(min(MAX_RESAMPLES, work // n)), n, n)
    rows = max(work // MIN_RESAMPLES, math.ceil(MIN_POSITIVES * n / max(n_pos, 1)))
    return Plan(task, MIN_RESAMPLES, int(min(rows, n)), n)


def capped(p: Plan, available: int) -> Plan:
    """``p`` on at most the ``available`` rows an engine hands over (:mod:`..input._engine`).

    An engine that cannot hand over every row (Dask above ``--subsample`` rows) gives the
    analysis a stratified subsample of ``available`` rows: a step planned on more rows (or on
    all of them) resamples those, and its fluctuations are rescaled by √(m/n) as any
    subsampled step's (the module docstring says why that is sound).  In memory every row is
    available and ``p`` is returned unchanged.
    """
    if p.rows <= available:
        return p
    return replace(p, rows=int(available))


# --- from the subsample back to the data -------------------------------------------------------


def _centre(curve: PRCurve, grid: np.ndarray, ties: str) -> np.ndarray:
    """The functional estimator PR̂ of all rows on a recall grid (the band's centre)."""
    tp, fp = curve.tp, curve.fp
    if not is_on_disk(tp):  # (on disk: read at the grid's points only, no copy)
        tp, fp = tp.astype(np.float64), fp.astype(np.float64)
    n_pos = np.array([curve.n_pos])
    return functional_precision(tp[None, :], fp[None, :], n_pos, grid, ties=ties)[0]


def rescale_band(band: PRConfidenceBand, curve: PRCurve, p: Plan) -> PRConfidenceBand:
    """A band computed on a subsample, recentred on all rows with radius × √(m/n)."""
    if not p.subsampled:
        return band
    centre = _centre(curve, band.recall, band.ties)
    radius = float(band.radius * p.scale)
    return replace(
        band,
        estimate=centre,
        band=ConfidenceInterval(
            low=np.clip(centre - radius, 0.0, 1.0),
            high=np.clip(centre + radius, 0.0, 1.0),
            level=band.level,
        ),
        radius=radius,
        n=float(p.n),
    )


def rescale_interval(res: AUCPRInterval, estimate: float, n_pos: float, p: Plan) -> AUCPRInterval:
    """A bootstrap interval computed on a subsample, moved to the full-data estimate."""
    if not p.subsampled or res.replicates is None:
        return res
    reps = estimate + p.scale * (res.replicates - res.estimate)
    lo, hi = np.quantile(reps, [(1 - res.level) / 2, (1 + res.level) / 2])
    return replace(
        res,
        estimate=float(estimate),
        interval=ConfidenceInterval(low=float(lo), high=float(hi), level=res.level),
        n_pos=float(n_pos),
        replicates=reps,
    )


def rescale_comparison(
    res: ComparisonResult, curve_a: PRCurve, curve_b: PRCurve, p: Plan
) -> ComparisonResult:
    """A paired comparison computed on a subsample, moved to the full-data estimates."""
    if not p.subsampled:
        return res
    est = np.array([curve_a.auc(res.method), curve_b.auc(res.method)])
    sub = np.array([res.estimate_a, res.estimate_b])
    reps = est[None, :] + p.scale * (res.replicates - sub[None, :])
    diff = float(est[0] - est[1])
    d = reps[:, 0] - reps[:, 1]
    lo, hi = np.quantile(d, [(1 - res.level) / 2, (1 + res.level) / 2])
    p_value = (1 + np.count_nonzero(np.abs(d - diff) >= abs(diff))) / (res.n_resamples + 1)
    band_a = rescale_band(res.band_a, curve_a, p)
    band_b = rescale_band(res.band_b, curve_b, p)
    return replace(
        res,
        estimate_a=float(est[0]),
        estimate_b=float(est[1]),
        difference=diff,
        interval=ConfidenceInterval(low=float(lo), high=float(hi), level=res.level),
        p_value=float(min(1.0, p_value)),
        replicates=reps,
        band_a=band_a,
        band_b=band_b,
        bands_separate=band_a.separated_from(band_b),
    )


# --- operating points ------------------------------------------------------------------------


def plan_operating(
    n: int,
    n_pos: int,
    flagged: int,
    n_resamples: int | None = None,
    *,
    estimated_pi: bool = False,
    task: str = "operating_points",
) -> Plan:
    """The resampling of the operating-point step of weighted data (every target of one scorer).

    As :func:`plan` for ``"operating_points"``, with two more rules: the subsample holds on
    average at least :data:`MIN_FLAGGED` of the ``flagged`` rows (the fewest any chosen
    threshold flags), else every row; and with a prevalence estimated from a count
    (``estimated_pi``) every row is resampled (see the module docstring).  ``task``: the key of
    :data:`WORK` (``"threshold_choice"`` sizes the report's threshold view and cost-optimal
    threshold by the same rules).

    >>> plan_operating(10**6, 5 * 10**4, 10**5)
    Plan(task='operating_points', n_resamples=200, rows=60000, n=1000000)
    >>> plan_operating(10**6, 5 * 10**4, 10**4).rows  # a point flags 10⁴ rows: 1000 in 10⁵
    100000
    """
    p = plan(task, n, n_pos, n_resamples)
    if not p.subsampled:
        return p
    if estimated_pi:
        return Plan(p.task, p.n_resamples, n, n)
    rows = max(p.rows, math.ceil(MIN_FLAGGED * n / max(flagged, 1)))
    return Plan(p.task, p.n_resamples, int(min(rows, n)), n)


def plan_operating_exact(n: int, n_pos: int, n_resamples: int | None = None) -> Plan:
    """The resampling of the operating points of unweighted data: every row, drawn coarse to
    fine (:mod:`prcurve._inference._coarse_fine`).

    Its cost per replicate grows with the positives (drawn in full), about
    :data:`COST` ``["operating_points_exact"]`` seconds each, not with n: the replicates are
    :data:`WORK` ``["operating_points_exact"]`` positive-resamples, between
    :data:`MIN_RESAMPLES` and :data:`MAX_RESAMPLES`.  ``n_resamples`` given: that many.

    >>> plan_operating_exact(10**6, 5 * 10**4)
    Plan(task='operating_points_exact', n_resamples=200, rows=1000000, n=1000000)
    >>> plan_operating_exact(10**5, 5000).n_resamples
    1000
    """
    if n_resamples is None:
        b = WORK["operating_points_exact"] // max(n_pos, 1)
        n_resamples = int(min(MAX_RESAMPLES, max(MIN_RESAMPLES, b)))
    return Plan("operating_points_exact", int(n_resamples), n, n, positives=n_pos)


def snap_interval(low: float, high: float, thresholds: np.ndarray) -> tuple[float, float]:
    """``[low, high]`` widened to attainable thresholds: the nearest distinct scores outside.

    ``thresholds`` are the data's distinct scores (any order).  ``low`` moves down to the
    largest score ≤ ``low`` and ``high`` up to the smallest score ≥ ``high``; an end beyond the
    scores stops at the lowest or highest score (no row has a score outside them).

    >>> snap_interval(0.25, 0.61, np.array([0.9, 0.6, 0.3, 0.2, 0.1]))
    (0.2, 0.9)
    >>> snap_interval(-1.0, 0.3, np.array([0.9, 0.6, 0.3, 0.2, 0.1]))
    (0.1, 0.3)
    """
    asc = np.sort(thresholds) if thresholds[0] <= thresholds[-1] else thresholds[::-1]
    i = max(int(np.searchsorted(asc, low, side="right")) - 1, 0)
    j = min(int(np.searchsorted(asc, high, side="left")), asc.shape[0] - 1)
    return asc[i].item(), asc[j].item()


def _threshold_ends(
    c: OperatingPoint,
    sub: OperatingPoint,
    r: _Replicates,
    p: Plan,
    curve: PRCurve,
    probs: list[float],
    space: str,
) -> tuple[float, float]:
    """The rescaled threshold interval of one point, its ends attainable thresholds of
    ``curve`` (see :func:`rescale_points`)."""
    ok = r.feasible
    if space == "score":
        t = c.threshold + p.scale * (r.thresholds[ok] - sub.threshold)
        lo, hi = np.quantile(t, probs, method="inverted_cdf")
        return snap_interval(float(lo), float(hi), curve.thresholds)
    # the share flagged, increasing along the curve's decreasing thresholds: read where the
    # searches look (as _flagged_share computes it), not made whole for a curve of any length
    tp, fp, total = curve.tp, curve.fp, curve.n_pos + curve.n_neg

    def share(i: int) -> float:
        return float((np.float64(tp[i]) + fp[i]) / total)

    centre = share(_held_column(curve.thresholds, c.threshold))
    q = centre + p.scale * (r.flagged[ok] - r.own_flagged)
    q_lo, q_hi = np.quantile(q, probs, method="inverted_cdf")
    k = tp.shape[0] - 1
    # the most rows flagged ↔ the lowest threshold: the first one flagging at least q_hi
    low = min(sorted_position(k + 1, share, q_hi, "left"), k)
    # the fewest rows flagged ↔ the highest threshold: the last one flagging at most q_lo
    high = max(sorted_position(k + 1, share, q_lo, "right") - 1, 0)
    release_all()  # (a curve on disk: the pages the searches mapped go back)
    return curve.thresholds[low].item(), curve.thresholds[high].item()


def rescale_points(
    centres: Sequence[OperatingPoint],
    sub_points: Sequence[OperatingPoint],
    reps: Sequence[_Replicates | None],
    p: Plan,
    curve: PRCurve,
    level: float,
    *,
    space: str = "rank",
) -> tuple[list[OperatingPoint], list[str]]:
    """Operating points of all rows with intervals from a subsample's replicates.

    ``centres`` are the points chosen on all rows (kept exactly); ``sub_points`` the same
    targets chosen on the subsample of ``p.rows`` rows and ``reps`` its replicates, precision
    and recall held at the centres' thresholds; ``curve`` is the PR curve of all rows.

    Precision and recall: the ends are percentiles of ``centre + √(m/n)(replicate − subsample
    value)``, the subsample value being that at the held threshold; clipped to [0, 1].

    Threshold: thresholds are score values, and an interval should name thresholds some row
    has.  With ``space="rank"`` (the report) the threshold is rescaled in rank coordinates —
    the share q of the data's weight at or above it: the ends are percentiles of
    ``q_all + √(m/n)(q_replicate − q_subsample)``, mapped back through the curve of all rows to
    the nearest attainable thresholds outward (the lower end is the highest threshold that
    flags at least the upper share, the upper end the lowest threshold flagging at most the
    lower share).  So the interval does not depend on the scale of the scores (like the PR
    curve, it is the same for any increasing transform of them) and its ends are scores of the
    data by construction, which keeps it meaningful with ties and discrete scores.
    ``space="score"`` rescales the score itself and snaps each end outward to a distinct score
    of the data (:func:`snap_interval`); on the binormal model of
    ``bench/coverage_operating_subsample.py`` both cover alike.

    Measured coverage (that script: binormal, positives N(1.5, 1), prevalence 0.05, targets
    precision 0.5/0.8 and recall 0.5/0.8, 95 % intervals): precision and recall intervals
    0.91–0.965, thresholds of the recall targets and of precision 0.5 0.92–0.94, as with every
    row resampled (0.91–0.955).  The threshold interval of ``min_precision=0.8``, a target met
    high on the curve, under-covers: 0.87 ± 0.02 with about 200 of its flagged rows in the
    subsample (n = 4·10⁵, m = 10⁵), 0.905 with 400 (m = 2·10⁵), 0.90 ± 0.02 with 1000
    (n = 2·10⁶, m = 5·10⁵), against 0.94 with all 4·10⁵ rows (800 flagged): its rescaled
    spread is about 10 % narrower than the bootstrap of every row; re-centring the replicates
    on their median instead of the subsample's point did not help (0.875).  Hence the
    subsample keeps :data:`MIN_FLAGGED` flagged rows, and ``--n-resamples N`` (every row) is
    the choice when that threshold interval matters.

    Returns the points and notes (replicates missing a target; a target the subsample itself
    misses, which leaves the threshold without an interval).
    """
    probs = [(1 - level) / 2, (1 + level) / 2]
    out: list[OperatingPoint] = []
    notes: list[str] = []
    for c, sub, r in zip(centres, sub_points, reps, strict=True):
        if not c.feasible or r is None:
            out.append(c)
        else:
            out.append(_rescale_point(c, sub, r, p, curve, level, probs, space, notes))
    return out, notes


def _rescale_point(
    c: OperatingPoint,
    sub: OperatingPoint,
    r: _Replicates,
    p: Plan,
    curve: PRCurve,
    level: float,
    probs: list[float],
    space: str,
    notes: list[str],
) -> OperatingPoint:
    """One feasible point of all rows ``c`` with the intervals its subsample's point ``sub`` and
    replicates ``r`` give (see :func:`rescale_points`); what is missing goes to ``notes``."""
    what = f"{c.criterion}={c.target:g} at prevalence {c.prevalence:.4g}"
    t_ci = None
    if sub.feasible and r.feasible.any():
        lo, hi = _threshold_ends(c, sub, r, p, curve, probs, space)
        t_ci = ConfidenceInterval(lo, hi, level)
    else:
        notes.append(
            f"{what}: no threshold interval, because the stratified subsample of "
            f"{p.rows:,} rows its width is estimated from does not meet the target"
        )
    ok = np.isfinite(r.precision)
    p_ci = None
    precision, recall = float(c.precision or 0.0), float(c.recall or 0.0)  # feasible: set
    if ok.any() and np.isfinite(r.held_precision):
        prec = np.clip(precision + p.scale * (r.precision[ok] - r.held_precision), 0, 1)
        p_lo, p_hi = np.quantile(prec, probs)
        p_ci = ConfidenceInterval(float(p_lo), float(p_hi), level)
    rec = np.clip(recall + p.scale * (r.recall - r.held_recall), 0, 1)
    r_lo, r_hi = np.quantile(rec, probs)
    share = float(r.feasible.mean())
    if share < 1:
        notes.append(
            f"{1 - share:.1%} of the bootstrap replicates (of a {p.rows:,}-row subsample) "
            f"have no threshold meeting {c.criterion}={c.target:g}; the threshold interval "
            "uses the other replicates"
        )
    return OperatingPoint(
        **{
            **c.__dict__,
            "threshold_interval": t_ci,
            "precision_interval": p_ci,
            "recall_interval": ConfidenceInterval(float(r_lo), float(r_hi), level),
            "level": level,
            "n_resamples": p.n_resamples,
            "feasible_fraction": share,
        }
    )
