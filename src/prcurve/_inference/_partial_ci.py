"""Bootstrap intervals of partial AUC-PR and of AUC-PR at a deployment prevalence.

Reached through :func:`prcurve.auc_pr_ci` with ``recall_range=``, ``normalize=`` or
``prevalence=``.  The deployment prevalence is either known (a number π) or estimated from a
count ``(k, m)``: k positives among m deployment instances.  Known π: every replicate is
reweighted to π.  Estimated: every replicate also draws its own π* from the Jeffreys
distribution Beta(k + ½, m − k + ½) of the prevalence given the count, independently of the data
resample, so the interval carries both the test-set and the prevalence uncertainty (it widens as
m shrinks and tends to the known-π interval as m grows).
"""

from __future__ import annotations

import numbers
from typing import Any

import numpy as np

from .._core._area import batched_area
from .._core._partial import (
    area_with_options,
    batched_partial_area,
    check_prevalence,
    check_recall_limits,
    negative_factor,
)
from .._core._results import ConfidenceInterval
from ._resample import ProgressHook, SortedSample, bootstrap_blocks, positive_columns

__all__ = ["DeploymentPrevalence", "check_deployment_prevalence", "options_interval"]


class DeploymentPrevalence:
    """A deployment prevalence: known (``count is None``) or estimated from ``count = (k, m)``."""

    def __init__(self, value: float, count: tuple[int, int] | None = None):
        self.value, self.count = value, count

    def draw(self, rows: int, gen: np.random.Generator) -> np.ndarray | float:
        """The prevalence of ``rows`` replicates."""
        if self.count is None:
            return self.value
        k, m = self.count
        return gen.beta(k + 0.5, m - k + 0.5, size=rows)


def check_deployment_prevalence(prevalence: Any) -> DeploymentPrevalence:
    """A number in (0, 1) (known), or a pair ``(k, m)`` of counts with ``0 < k < m``."""
    if isinstance(prevalence, tuple | list):
        if len(prevalence) != 2 or not all(
            isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in prevalence
        ):
            raise TypeError(
                "prevalence: expected a number in (0, 1) or a pair (k, m) of integer counts, "
                f"got {prevalence!r}"
            )
        k, m = int(prevalence[0]), int(prevalence[1])
        if not 0 < k < m:
            raise ValueError(f"prevalence: expected counts (k, m) with 0 < k < m, got ({k}, {m})")
        return DeploymentPrevalence(k / m, (k, m))
    return DeploymentPrevalence(check_prevalence(prevalence))


def options_interval(
    sample: SortedSample,
    method: str,
    *,
    recall_range: Any,
    normalize: bool,
    prevalence: Any,
    level: float,
    n_resamples: int,
    gen: np.random.Generator,
    progress: ProgressHook | None,
    sampling: str = "instances",
) -> tuple[float, ConfidenceInterval, np.ndarray]:
    """Estimate, percentile interval and replicates of a partial and/or reweighted area."""
    c = sample.counts
    pi = None if prevalence is None else check_deployment_prevalence(prevalence)
    limits = None if recall_range is None else check_recall_limits(recall_range)
    theta = area_with_options(
        c.tp, c.fp, c.n_pos, c.n_neg, method, recall_range=recall_range, normalize=normalize,
        prevalence=None if pi is None else pi.value,
    )  # fmt: skip
    reps = []
    # average precision only changes where TP grows: the columns of original positives suffice
    cols = positive_columns(sample) if method == "average_precision" else None
    blocks = bootstrap_blocks(sample, n_resamples, gen, progress, cols, sampling=sampling)
    for tp, fp, npos, nneg in blocks:
        if pi is not None:
            f = negative_factor(npos, nneg, pi.draw(tp.shape[0], gen))
            fp = np.asarray(fp, dtype=np.float64) * np.asarray(f)[:, None]
        if limits is None:
            reps.append(batched_area(tp, fp, npos, method))
        else:
            low, high = limits
            area = batched_partial_area(tp, fp, npos, method, low, high)
            reps.append(area / (high - low) if normalize else area)
    values = np.concatenate(reps)
    lo, hi = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return theta, ConfidenceInterval(float(lo), float(hi), level), values
