"""Small helpers shared by the inference modules: option checks and warnings."""

from __future__ import annotations

import numbers
from typing import Any

from .._core._results import PRCurveWarning
from .._core._validation import check_positive_int

__all__ = [
    "DegenerateBootstrapWarning",
    "LowEffectiveSampleSizeWarning",
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
    try:
        low, high = recall_range
    except (TypeError, ValueError):
        raise TypeError(
            f"recall_range: expected a pair (low, high) of numbers, got {recall_range!r}"
        ) from None
    for v in (low, high):
        if isinstance(v, bool) or not isinstance(v, numbers.Real):
            raise TypeError(
                f"recall_range: expected a pair (low, high) of numbers, got {recall_range!r}"
            )
    low, high = float(low), float(high)
    if not (0 < low < 1 and 0 < high < 1):
        raise ValueError(f"recall_range: expected both ends inside (0, 1), got ({low!r}, {high!r})")
    if not low < high:
        raise ValueError(f"recall_range: expected low < high, got ({low!r}, {high!r})")
    return low, high


class DegenerateBootstrapWarning(PRCurveWarning):
    """The bootstrap distribution is degenerate for the requested interval; a fallback is used."""
