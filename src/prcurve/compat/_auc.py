"""``prcurve.compat.auc_pr``: one entry point, one validation, one count table for every tool.

The input is validated and counted once by the engine (:func:`prcurve.binary_counts`); each
tool's convention then reads the sorted counts (see :data:`prcurve.compat.TOOLS`).  Options are
the tool's own, with the tool's defaults; a tool that takes no sample weights refuses them
rather than silently dropping them.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core._area import area_from_counts
from .._core._counts import BinaryCounts, binary_counts
from ._binned import keras_area, spark_area, torchmetrics_area
from ._interpolated import auc_jar_area, precrec_area, prroc_dg_area
from ._rocr import rocr_area
from ._tools import TOOLS

__all__ = ["auc_pr", "auc_pr_from_counts", "check_counts", "prepare", "tool_area"]


def _count(name: str, value: Any, *, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < low:
        raise ValueError(f"{name}: expected an integer >= {low}, got {value!r}")
    return int(value)


def _torch_thresholds(value: Any) -> Any:
    if value is None or (isinstance(value, int | np.integer) and not isinstance(value, bool)):
        return None if value is None else _count("thresholds", value, low=2)
    grid = np.asarray(value) if np.ndim(value) == 1 else None
    if grid is None or grid.shape[0] < 1 or grid.dtype.kind not in "fiu":
        grid = None
    elif not np.isfinite(grid).all():
        grid = None
    if grid is None:
        raise ValueError(
            f"thresholds: expected None, an integer >= 2 or a list of finite numbers, got {value!r}"
        )
    # torchmetrics makes a list a float32 tensor (torch.tensor); an array keeps its float dtype
    keep = hasattr(value, "dtype") and grid.dtype == np.float64
    return grid.astype(np.float64 if keep else np.float32)


#: option -> its validator, per tool
_OPTION_CHECKS = {
    "spark": {"num_bins": lambda v: _count("num_bins", v, low=0)},
    "keras": {"num_thresholds": lambda v: _count("num_thresholds", v, low=2)},
    "torchmetrics": {"thresholds": _torch_thresholds},
    "torchmetrics_binned": {"thresholds": _torch_thresholds},
    "precrec": {"x_bins": lambda v: _count("x_bins", v, low=0)},
}


def _options(tool: str, given: dict[str, Any]) -> dict[str, Any]:
    allowed = TOOLS[tool].options
    unknown = sorted(set(given) - set(allowed))
    if unknown:
        takes = ", ".join(allowed) if allowed else "no options"
        raise TypeError(f"tool_options: {tool!r} takes {takes}, got {', '.join(unknown)}")
    merged = {**allowed, **given}
    checks = _OPTION_CHECKS.get(tool, {})
    return {k: checks[k](v) if k in checks else v for k, v in merged.items()}


def tool_area(counts: BinaryCounts, tool: str, options: dict[str, Any]) -> float:
    """The tool's AUC-PR from validated counts and options."""
    if tool in ("sklearn",):
        return area_from_counts(counts.tp, counts.fp, counts.n_pos, "average_precision")
    if tool == "prroc_integral":
        return area_from_counts(counts.tp, counts.fp, counts.n_pos, "davis_goadrich")
    if tool == "yardstick":
        return area_from_counts(counts.tp, counts.fp, counts.n_pos, "lower_trapezoid")
    if tool == "spark":
        return spark_area(counts, **options)
    if tool == "keras":
        return keras_area(counts, **options)
    if tool in ("torchmetrics", "torchmetrics_binned"):
        return torchmetrics_area(counts, **options)
    if tool == "precrec":
        return precrec_area(counts, **options)
    if tool == "prroc_dg":
        return prroc_dg_area(counts)
    if tool == "rocr":
        return rocr_area(counts)
    return auc_jar_area(counts)


def check_tool(tool: Any) -> str:
    """``tool`` is a name of :data:`TOOLS`."""
    if not isinstance(tool, str) or tool not in TOOLS:
        raise ValueError(f"tool: expected one of {', '.join(TOOLS)}, got {tool!r}")
    return tool


def check_counts(counts: Any) -> BinaryCounts:
    """``counts`` is the engine's count table with both classes present."""
    if not isinstance(counts, BinaryCounts):
        raise TypeError(
            f"counts: expected a prcurve.BinaryCounts (from prcurve.binary_counts or an "
            f"engine), got {type(counts).__name__}"
        )
    if not (counts.n_pos > 0 and counts.n_neg > 0) or counts.tp.shape[0] == 0:
        raise ValueError(
            f"counts: expected positives and negatives, got n_pos={counts.n_pos!r}, "
            f"n_neg={counts.n_neg!r}"
        )
    return counts


def prepare(tool: Any, tool_options: dict[str, Any], weighted: bool) -> tuple[str, dict]:
    """The checked tool name and options; a tool that takes no weights refuses weighted data."""
    tool = check_tool(tool)
    options = _options(tool, tool_options)
    if weighted and not TOOLS[tool].weights:
        raise ValueError(
            f"sample_weight: {TOOLS[tool].tool} takes no sample weights, so {tool!r} cannot "
            f"reproduce it with weights; expected None, got weights"
        )
    return tool, options


def auc_pr_from_counts(counts: BinaryCounts, *, tool: str, **tool_options: Any) -> float:
    """:func:`auc_pr` from the engine's sorted counts (any engine: memory, Dask, Spark).

    Every convention reads only the count table, so this equals :func:`auc_pr` on the rows the
    counts were made from.  Weighted (or soft-label) counts are refused by the tools that take
    no weights, as :func:`auc_pr` refuses ``sample_weight``.

    Examples
    --------
    >>> from prcurve import binary_counts, compat
    >>> counts = binary_counts([1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.7, 0.7, 0.1])
    >>> round(compat.auc_pr_from_counts(counts, tool="spark"), 4)
    0.7
    """
    counts = check_counts(counts)
    tool, options = prepare(tool, tool_options, counts.weighted)
    return tool_area(counts, tool, options)


def auc_pr(
    y_true: Any,
    y_score: Any,
    *,
    tool: str,
    sample_weight: Any = None,
    pos_label: Any = None,
    **tool_options: Any,
) -> float:
    """The AUC-PR another tool reports for these scores, computed as that tool computes it.

    Parameters
    ----------
    y_true, y_score : array-like, shape (n,)
        Labels (both classes present) and scores, larger = more positive.
    tool : str
        A name of :data:`prcurve.compat.TOOLS`: ``"sklearn"``, ``"torchmetrics"``,
        ``"torchmetrics_binned"``, ``"keras"``, ``"spark"``, ``"precrec"``,
        ``"prroc_integral"``, ``"prroc_dg"``, ``"rocr"``, ``"yardstick"``, ``"auc_jar"``.
    sample_weight : array-like, optional
        Only for tools that take weights (``TOOLS[tool].weights``); the others refuse them.
    pos_label : optional
        The label of the positive class.
    **tool_options
        The tool's options, defaults as in the tool (``TOOLS[tool].options``): ``num_bins``
        (Spark, 1000 as ``BinaryClassificationEvaluator``; 0 = no binning),
        ``num_thresholds`` (Keras, 200), ``thresholds`` (torchmetrics: None = exact, an
        integer T = ``linspace(0, 1, T)``, or a list), ``x_bins`` (precrec, 1000).

    Returns
    -------
    float
        The tool's value, reproduced from the tool's source (each convention cites its file
        and function; see :data:`prcurve.compat.TOOLS` for why it differs from AP and DG).

    Examples
    --------
    >>> from prcurve import compat
    >>> y, s = [1, 0, 1, 1, 0, 0], [0.9, 0.8, 0.7, 0.7, 0.7, 0.1]
    >>> round(compat.auc_pr(y, s, tool="sklearn"), 4), round(compat.auc_pr(y, s, tool="spark"), 4)
    (0.7333, 0.7)
    """
    tool, options = prepare(tool, tool_options, sample_weight is not None)
    counts = binary_counts(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
    if tool in ("torchmetrics", "torchmetrics_binned") and _is_half(y_score):
        options = {**options, "score_dtype": "float16"}  # torch's sigmoid runs in half
    return tool_area(counts, tool, options)


def _is_half(y_score: Any) -> bool:
    """Whether the scores are float16 (a NumPy array or a torch tensor; torch not imported)."""
    return str(getattr(y_score, "dtype", "")).removeprefix("torch.") == "float16"
