"""Small helpers shared by the inference modules: option checks and warnings."""

from __future__ import annotations

from typing import Any

from .._core._partial import check_recall_limits
from .._core._results import PRCurveWarning
from .._core._validation import check_positive_int

__all__ = [
    "DegenerateBootstrapWarning",
    "LowEffectiveSampleSizeWarning",
    "SmoothingFallbackWarning",
    "check_progress",
    "check_recall_range",
    "check_resamples",
]


class LowEffectiveSampleSizeWarning(PRCurveWarning):
    """Importance weights are so uneven that few bootstrap replicates carry the estimate."""


def check_resamples(n_resamples: Any) -> int:
    """Number of bootstrap replicates (at least 2)."""
    return check_positive_int(n_resamples, "n_resamples", minimum=2)


def check_progress(progress: Any) -> Any:
    """``None`` or a callable ``progress(done, total)``."""
    if progress is not None and not callable(progress):
        raise TypeError(
            f"progress: expected None or a callable (done, total), got {type(progress).__name__}"
        )
    return progress


def check_recall_range(recall_range: Any) -> tuple[float, float]:
    """A pair ``(low, high)`` with ``0 < low < high < 1``."""
    return check_recall_limits(recall_range, open_ends=True)


class DegenerateBootstrapWarning(PRCurveWarning):
    """The bootstrap distribution is degenerate for the requested interval; a fallback is used."""


class SmoothingFallbackWarning(PRCurveWarning):
    """The kernel smoothing asked for cannot be carried out in float64 (a class's scores spread
    over a subnormal width); the unsmoothed (naive bootstrap) result is returned instead."""
