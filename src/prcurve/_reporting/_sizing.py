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
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from .._core._batch import functional_precision
from .._core._empirical import PRCurve
from .._core._results import ConfidenceInterval
from .._inference._auc_ci import AUCPRInterval
from .._inference._band import PRConfidenceBand
from .._inference._compare import ComparisonResult

__all__ = ["COST", "MAX_RESAMPLES", "MIN_RESAMPLES", "WORK", "Plan", "plan", "subsample"]

#: Row-resamples (rows × replicates) per step with ``--n-resamples auto``; measured costs per
#: row-resample on one core (2026): bootstrap of AP ≈ 11 ns, paired comparison ≈ 60 ns,
#: smoothed-bootstrap band ≈ 95 ns, so each step takes about 0.3–0.6 s.
WORK = {"auc_pr_bootstrap": 3 * 10**7, "compare": 10**7, "band": 4 * 10**6}
#: Seconds per row-resample of each step on one core (measured as above), for planning.
#: The operating-point bootstrap (all rows, see ``_analysis._operating_resamples``) ≈ 15 ns.
COST = {"auc_pr_bootstrap": 11e-9, "compare": 60e-9, "band": 95e-9, "operating_points": 15e-9}
#: Replicates of a step that resamples all rows, at most (the former fixed default).
MAX_RESAMPLES = 1000
#: Replicates at least: percentile ends and p-values (floor 1/201) resolve 95 % and 0.05.
MIN_RESAMPLES = 200
#: A subsample keeps at least this many positives (so few positives means all rows).
MIN_POSITIVES = 1000


@dataclass(frozen=True)
class Plan:
    """The resampling of one inference step.

    Attributes
    ----------
    task : str
        ``"auc_pr_bootstrap"``, ``"band"`` or ``"compare"``.
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


def subsample(y: np.ndarray, rows: int, seed: np.random.SeedSequence) -> np.ndarray | None:
    """Sorted indices of a stratified random subsample of ``rows`` rows (None: all rows).

    Positives and negatives are drawn without replacement in the data's proportions, so the
    subsample has the data's prevalence (to within one row).
    """
    n = y.shape[0]
    if rows >= n:
        return None
    gen = np.random.default_rng(seed)
    pos = np.flatnonzero(y)
    neg = np.flatnonzero(~y)
    m_pos = min(pos.shape[0], max(2, round(rows * pos.shape[0] / n)))
    m_neg = min(neg.shape[0], max(2, rows - m_pos))
    idx = np.concatenate(
        [gen.choice(pos, m_pos, replace=False), gen.choice(neg, m_neg, replace=False)]
    )
    idx.sort()
    return idx


# --- from the subsample back to the data -------------------------------------------------------


def _centre(curve: PRCurve, grid: np.ndarray, ties: str) -> np.ndarray:
    """The functional estimator PR̂ of all rows on a recall grid (the band's centre)."""
    tp, fp = curve.tp.astype(np.float64), curve.fp.astype(np.float64)
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
