"""Dask inputs: one frame of (label, score, weight) columns, validated before any sort.

Validation is one pass of reductions over the rows (distinct labels, non-finite scores, bad
weights, class totals); the labels are then checked by the shared helper of
``prcurve._core._validation``, so the messages are the in-memory ones.  Soft labels
(probabilities of being positive) are checked in the same pass, with the in-memory messages
and row indices, and summed into positive and negative masses.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._validation import (
    check_binary_problem,
    check_not_row_vector,
    check_soft_pos_label,
    soft_dtype_message,
    soft_label_message,
    soft_mass_message,
)

__all__ = ["Checked", "check_dask_problem", "dask_frame"]

#: Partitions with more distinct labels than this stop listing them (the problem is not binary).
_LABEL_LIMIT = 8


def _as_series(value: Any, name: str) -> Any:
    import dask.array as da
    import dask.dataframe as dd

    if isinstance(value, da.Array):
        check_not_row_vector(name, value.shape)
        if value.ndim == 2 and value.shape[1] == 1:
            value = value.reshape(-1)
        if value.ndim != 1:
            raise ValueError(f"{name}: expected a 1-D dask array, got shape {value.shape}")
        return dd.from_dask_array(value)
    if isinstance(value, dd.DataFrame) and len(value.columns) == 1:
        return value[value.columns[0]]
    if isinstance(value, dd.Series):
        return value
    raise TypeError(
        f"{name}: expected a dask array or a dask dataframe column, got {type(value).__name__}"
    )


def dask_frame(y_true: Any, y_score: Any, sample_weight: Any = None) -> Any:
    """A dask DataFrame with columns ``y``, ``s`` (and ``w``), partitions aligned."""
    s = _as_series(y_score, "y_score")
    y = _as_series(y_true, "y_true")
    frame = s.rename("s").to_frame()
    try:
        frame = frame.assign(y=y.rename("y"))
        if sample_weight is not None:
            frame = frame.assign(w=_as_series(sample_weight, "sample_weight").rename("w"))
    except (ValueError, NotImplementedError) as err:
        raise ValueError(
            "y_true, y_score, sample_weight: expected columns of one dask DataFrame or dask "
            f"arrays with the same chunks, got misaligned inputs ({err})"
        ) from None
    return frame


def _partition_stats(part: Any, soft: bool = False) -> dict[str, Any]:
    """Reductions of one partition (a pandas DataFrame with y, s[, w])."""
    s = part["s"].to_numpy()
    out: dict[str, Any] = {"n": s.shape[0]}
    if s.dtype.kind not in "biuf":
        try:
            s = s.astype(np.float64)
        except (TypeError, ValueError):
            out["not_numbers"] = True
            return out
    bad = ~np.isfinite(s) if s.dtype.kind == "f" else np.zeros(s.shape[0], bool)
    out["n_bad"] = int(bad.sum())
    out["n_nan"] = int(np.isnan(s).sum()) if s.dtype.kind == "f" else 0
    y = part["y"].to_numpy()
    w = part["w"].to_numpy().astype(np.float64) if "w" in part else None
    if w is not None:
        out["w_bad"] = int((~np.isfinite(w)).sum())
        out["w_neg"] = int((w < 0).sum())
    if soft:
        out.update(_soft_stats(y, w))
        if out.get("soft_dtype") or out["soft_bad"] or not out["soft_hard"]:
            return out  # the labels are not hard: no class table
    labels, inverse = np.unique(y, return_inverse=True)
    out["labels"] = labels[:_LABEL_LIMIT]
    out["n_labels"] = labels.shape[0]
    if w is not None:
        if labels.shape[0] <= _LABEL_LIMIT:
            out["w_sum"] = np.bincount(inverse, weights=w, minlength=labels.shape[0])
            out["w_sq"] = np.bincount(inverse, weights=w * w, minlength=labels.shape[0])
    else:
        out["count"] = np.bincount(inverse, minlength=labels.shape[0])
    return out


def _soft_stats(y: np.ndarray, w: np.ndarray | None) -> dict[str, Any]:
    """Soft labels of one partition: invalid values, whether all are 0/1, and the masses
    (positive ``Σ p·w``, negative ``Σ (1 − p)·w``, and ``Σ (p·w)²`` for Kish's effective
    number of positives) of the rows of positive weight."""
    if y.dtype.kind not in "biuf":
        return {"soft_dtype": str(y.dtype)}
    p = y.astype(np.float64)
    bad = ~((p >= 0) & (p <= 1))
    out: dict[str, Any] = {"soft_bad": int(bad.sum()), "soft_hard": True}
    if out["soft_bad"]:
        first = int(np.flatnonzero(bad)[0])
        out["soft_first"] = (first, p[first])
        return out
    out["soft_hard"] = bool(((p == 0) | (p == 1)).all())
    if w is not None:
        w = w.astype(np.float64)
        keep = np.isfinite(w) & (w > 0)
        p, w = p[keep], w[keep]
    pos = p if w is None else p * w
    neg = 1.0 - p if w is None else (1.0 - p) * w
    out["soft_pos"], out["soft_neg"] = float(pos.sum()), float(neg.sum())
    out["soft_sq"] = float(np.dot(pos, pos))
    out["soft_any"] = (bool((p > 0).any()), bool((p < 1).any()))
    return out


def _check_soft(stats: list[dict[str, Any]], pos_label: Any) -> bool:
    """Validate soft labels across partitions (in-memory messages and row indices); True
    when every label is 0 or 1, so that the ordinary hard-label path takes over."""
    check_soft_pos_label(pos_label)
    offset = 0
    for st in stats:
        if st.get("soft_dtype"):
            raise TypeError(soft_dtype_message(st["soft_dtype"]))
        if st["soft_bad"]:
            first, value = st["soft_first"]
            n_bad = sum(x.get("soft_bad", 0) for x in stats)
            raise ValueError(soft_label_message(value, offset + first, n_bad))
        offset += st["n"]
    return all(st["soft_hard"] for st in stats)


@dataclass(frozen=True)
class Checked:
    """The outcome of validation: which labels are positive, and class totals."""

    positive_labels: list[Any]
    weighted: bool
    n_rows: int
    n_pos: float
    n_neg: float
    n_pos_effective: float
    soft: bool = False


def check_dask_problem(frame: Any, pos_label: Any = None, soft_labels: bool = False) -> Checked:
    """One pass of reductions over the rows; raise clear errors before anything is sorted.

    With ``soft_labels`` the labels are probabilities of being positive; labels that are all
    0 or 1 are checked and counted as ordinary hard labels (the ordinary curve, exactly).
    """
    import dask

    if not isinstance(soft_labels, bool | np.bool_):
        raise TypeError(f"soft_labels: expected True or False, got {soft_labels!r}")
    stats = dask.compute(
        *[dask.delayed(_partition_stats)(p, bool(soft_labels)) for p in frame.to_delayed()]
    )
    n_rows = sum(st["n"] for st in stats)
    if n_rows == 0:
        raise ValueError("y_true: expected at least one sample, got an empty array")
    if any(st.get("not_numbers") for st in stats):
        raise TypeError("y_score: expected numbers, got a non-numeric column")
    n_bad = sum(st["n_bad"] for st in stats)
    if n_bad:
        n_nan = sum(st["n_nan"] for st in stats)
        raise ValueError(_not_finite(n_bad, n_nan, "nothing was sorted"))
    if soft_labels and not _check_soft(stats, pos_label):
        return _soft_checked(stats, n_rows, weighted="w" in frame.columns)
    if any(st["n_labels"] > _LABEL_LIMIT for st in stats):
        raise ValueError(f"y_true: expected two classes, got more than {_LABEL_LIMIT}")
    labels = np.unique(np.concatenate([np.asarray(st["labels"]) for st in stats]))
    # the shared helper decides what the labels mean (pos_label, {-1, 1}, booleans, errors)
    is_pos, _, _ = check_binary_problem(
        labels, np.zeros(labels.shape[0]), None, pos_label, require_both=False
    )
    positive = [v.item() if hasattr(v, "item") else v for v in labels[is_pos]]
    weighted = "w_sum" in stats[0] or "w_bad" in stats[0]
    pos_total: float = 0
    neg_total: float = 0
    pos_sq = 0.0
    for st in stats:
        if st["n"] == 0:
            continue
        mask = np.isin(st["labels"], labels[is_pos])
        if weighted:
            if st["w_bad"] or st["w_neg"]:
                problem = "finite" if st["w_bad"] else "non-negative"
                raise ValueError(
                    f"sample_weight: expected {problem} weights, got some that are not"
                )
            pos_total += float(st["w_sum"][mask].sum())
            neg_total += float(st["w_sum"][~mask].sum())
            pos_sq += float(st["w_sq"][mask].sum())
        else:
            pos_total += int(st["count"][mask].sum())
            neg_total += int(st["count"][~mask].sum())
    if weighted and pos_total + neg_total == 0:
        raise ValueError("sample_weight: expected some positive weight, got all zeros")
    if pos_total == 0 or neg_total == 0:
        raise ValueError(_one_class(pos_total == 0, weighted))
    n_eff = pos_total**2 / pos_sq if weighted else pos_total
    return Checked(positive, weighted, n_rows, pos_total, neg_total, n_eff)


def _not_finite(n_bad: int, n_nan: int, consequence: str) -> str:
    kind = "NaN" if n_nan else "infinite value"
    return (
        f"y_score: expected finite numbers, got {kind}s "
        f"({n_bad} non-finite value{'s' if n_bad > 1 else ''} in total, {n_nan} NaN); "
        f"{consequence}"
    )


def _one_class(no_positive: bool, weighted: bool) -> str:
    missing = "positive" if no_positive else "negative"
    return (
        f"y_true: expected both classes, got only "
        f"{'negatives' if no_positive else 'positives'} (no {missing} sample"
        f"{' with positive weight' if weighted else ''})"
    )


#: What :func:`checked_in_the_sort` knows before any pass: positives are the True labels.
BOOLEAN_LABELS = Checked([True], False, 0, 0.0, 0.0, 0.0)


def checked_in_the_sort(frame: Any) -> bool:
    """Whether the rows of ``frame`` can be validated by the sort's first pass instead of a
    pass of their own (:func:`check_runs`): boolean labels without weights (what the report
    hands over: which labels are positive is settled) and numeric scores."""
    return (
        "w" not in frame.columns
        and frame["y"].dtype == np.dtype(bool)
        and frame["s"].dtype.kind in "biuf"
    )


def check_runs(runs: list[dict[str, Any]]) -> None:
    """The errors of :func:`check_dask_problem` from the counts the sort's runs return
    (``prcurve.dask._sort.write_run``): no rows, non-finite scores, one class only."""
    if sum(r["rows"] for r in runs) == 0:
        raise ValueError("y_true: expected at least one sample, got an empty array")
    n_bad = sum(r["n_bad"] for r in runs)
    if n_bad:
        n_nan = sum(r["n_nan"] for r in runs)
        raise ValueError(_not_finite(n_bad, n_nan, "no curve was computed"))
    pos, neg = (sum(r[key] for r in runs) for key in ("pos_rows", "neg_rows"))
    if pos == 0 or neg == 0:
        raise ValueError(_one_class(pos == 0, False))


def _soft_checked(stats: list[dict[str, Any]], n_rows: int, weighted: bool) -> Checked:
    """Totals of valid soft labels: weights checked, then both masses required."""
    if weighted:
        for st in stats:
            if st["w_bad"] or st["w_neg"]:
                problem = "finite" if st["w_bad"] else "non-negative"
                raise ValueError(
                    f"sample_weight: expected {problem} weights, got some that are not"
                )
    pos = sum(st["soft_pos"] for st in stats if st["n"])
    neg = sum(st["soft_neg"] for st in stats if st["n"])
    if weighted and pos + neg == 0:
        raise ValueError("sample_weight: expected some positive weight, got all zeros")
    has = [st["soft_any"] for st in stats if st["n"]]
    message = soft_mass_message(any(h[0] for h in has), any(h[1] for h in has), weighted=weighted)
    if message:
        raise ValueError(message)
    sq = sum(st["soft_sq"] for st in stats if st["n"])
    return Checked([], True, n_rows, pos, neg, pos**2 / sq, soft=True)
