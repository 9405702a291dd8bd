"""One place that turns user input into clean arrays or clear errors.

Every public function of prcurve validates through the helpers here, so that a bad input gets the
same kind of message everywhere: the parameter's name, what was expected and what was got.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "check_binary_problem",
    "check_choice",
    "check_fraction",
    "check_level",
    "check_not_row_vector",
    "check_positive_int",
    "check_rng",
    "check_soft_pos_label",
    "check_unit_interval_array",
    "moderate_shift",
    "soft_dtype_message",
    "soft_label_message",
    "soft_mass_message",
]


def _describe(values: Sequence[Any], limit: int = 6) -> str:
    shown = ", ".join(repr(v.item() if hasattr(v, "item") else v) for v in values[:limit])
    return f"[{shown}{', ...' if len(values) > limit else ''}]"


def _as_1d(name: str, value: Any) -> np.ndarray:
    if value is None:
        raise TypeError(f"{name}: expected an array-like of values, got None")
    arr = np.asarray(value)
    if arr.ndim == 0:
        raise ValueError(f"{name}: expected a 1-D array, got a scalar ({arr.item()!r})")
    if arr.ndim == 2 and arr.shape[1] == 1:  # a column vector, as scikit-learn accepts
        arr = arr.reshape(-1)
    if arr.ndim == 2 and arr.shape[1] == 2 and "score" in name:
        raise ValueError(
            f"{name}: expected a 1-D array of scores, got shape {arr.shape} (two columns, like "
            f"predict_proba's output); pass the positive class's column, {name}[:, 1]"
        )
    check_not_row_vector(name, arr.shape)
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a 1-D array, got an array of shape {arr.shape}")
    return arr


def check_not_row_vector(name: str, shape: tuple[int, ...]) -> None:
    """Refuse a row vector, shape ``(1, n)``, as scikit-learn refuses it (``column_or_1d``).

    A row of a matrix is one sample with ``n`` features, not ``n`` samples: reading it as a
    vector would silently change its meaning.  A column ``(n, 1)`` is accepted (its rows are
    the samples).  Every 1-D input of prcurve (in memory or on Dask) is checked here, so that
    the message is the same everywhere.
    """
    if len(shape) == 2 and shape[0] == 1 and shape[1] != 1:
        raise ValueError(
            f"{name}: expected a 1-D array or a column of shape (n, 1), got a row vector of "
            f"shape {tuple(shape)}; pass {name}.ravel() if its entries are the samples"
        )


def _check_finite_numbers(name: str, arr: np.ndarray) -> np.ndarray:
    if arr.dtype.kind == "c":
        raise TypeError(f"{name}: expected real numbers, got complex values")
    if arr.dtype == bool:
        return arr.astype(np.float64)
    if arr.dtype.kind in "iu":
        return arr
    if arr.dtype.kind != "f":
        try:
            arr = arr.astype(np.float64)
        except (TypeError, ValueError):
            bad = next((i for i, v in enumerate(arr) if not _is_number(v)), 0)
            raise TypeError(
                f"{name}: expected numbers, got {_plain(arr[bad])!r} "
                f"(type {type(_plain(arr[bad])).__name__}) "
                f"at index {bad}"
            ) from None
    finite = np.isfinite(arr)
    if not finite.all():
        where = np.flatnonzero(~finite)
        first = int(where[0])
        kind = "NaN" if np.isnan(arr[first]) else "infinite value"
        raise ValueError(
            f"{name}: expected finite numbers, got {kind} {_plain(arr[first])!r} "
            f"at index {first} "
            f"({where.size} non-finite value{'s' if where.size > 1 else ''} in total)"
        )
    return arr


def _plain(v: Any) -> Any:
    """A NumPy scalar as the Python value it holds (for readable messages)."""
    return v.item() if isinstance(v, np.generic) else v


def _is_number(v: Any) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def _binary_labels(y: np.ndarray, pos_label: Any, batch: bool = False) -> np.ndarray:
    """Map labels to a boolean "is positive" array.

    With ``batch`` (one batch of a stream) a single label other than ``pos_label`` means a
    batch of negatives: in an imbalanced stream most batches hold no positive.
    """
    if y.dtype == object:
        y = _object_labels(y)
    if y.dtype == bool and pos_label is None:
        return y
    if y.dtype.kind == "f" and not np.isfinite(y).all():
        bad = int(np.flatnonzero(~np.isfinite(y))[0])
        raise ValueError(f"y_true: expected class labels, got {_plain(y[bad])!r} at index {bad}")
    labels = _labels(y)
    if labels.size > 2:
        raise ValueError(
            f"y_true: expected two classes, got {labels.size}: {_describe(list(labels))}"
        )
    if pos_label is not None:
        if pos_label not in labels.tolist():
            if batch and labels.size == 1:
                return np.zeros(y.shape[0], dtype=bool)
            raise ValueError(
                f"pos_label: expected one of the labels in y_true {_describe(list(labels))}, "
                f"got {pos_label!r}"
            )
        return np.asarray(y == pos_label)
    if y.dtype == bool:
        return y
    as_list = labels.tolist()
    if y.dtype.kind in "iuf" and set(as_list) <= {0, 1, -1}:
        if set(as_list) == {-1, 0}:
            raise ValueError(
                "y_true: labels {-1, 0} are ambiguous; pass pos_label to say which is positive"
            )
        return np.asarray(y == 1)
    if labels.size == 1:
        if batch:
            raise ValueError(
                f"pos_label: expected the positive label for a batch with the single label "
                f"{as_list[0]!r} (not 0, 1, -1 or a boolean), got None"
            )
        raise ValueError(
            f"y_true: expected both classes, got a single label {as_list[0]!r}; "
            "pass pos_label if it is the positive class"
        )
    raise ValueError(
        f"y_true: labels {_describe(as_list)} are not {{0, 1}}, {{-1, 1}} or booleans; "
        "pass pos_label to say which one is positive"
    )


def _object_labels(y: np.ndarray) -> np.ndarray:
    """Labels held as Python objects: numbers become a numeric array; None is an error."""
    missing = np.flatnonzero([v is None for v in y])
    if missing.size:
        raise ValueError(f"y_true: expected class labels, got None at index {int(missing[0])}")
    if all(isinstance(v, numbers.Number) for v in y):
        return y.astype(np.float64)
    if all(isinstance(v, str) for v in y):
        return y.astype(str)
    kinds = sorted({type(v).__name__ for v in y})
    raise TypeError(f"y_true: expected labels of one kind, got a mix of {', '.join(kinds)}")


def _labels(y: np.ndarray) -> np.ndarray:
    """The distinct labels; numeric labels are found without sorting when there are two."""
    if y.dtype.kind in "biuf":
        lo, hi = np.min(y), np.max(y)
        if lo == hi:
            return np.array([lo])
        if np.count_nonzero(y == lo) + np.count_nonzero(y == hi) == y.shape[0]:
            return np.array([lo, hi])
    return np.unique(y)


def check_binary_problem(
    y_true: Any,
    y_score: Any,
    sample_weight: Any = None,
    pos_label: Any = None,
    *,
    score_name: str = "y_score",
    require_both: bool = True,
    batch: bool = False,
    soft_labels: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Validate a labelled-score problem.

    With ``soft_labels=True`` each label is the probability that its instance is positive
    (see :func:`_soft_labels`); the labels come back as float64 probabilities, or as booleans
    when they are all 0 or 1, so that hard labels passed as soft ones take the ordinary path of
    the engine and give the ordinary curve exactly.

    With ``batch=True`` the input is one batch of a stream (:class:`prcurve.PRAccumulator`):
    it may have no rows or only rows of zero weight (the arrays returned are then empty), a
    single class, and a ``pos_label`` absent from a single-label batch (all negatives); its
    weights are returned as given, not rescaled, since only the whole stream fixes the scale.

    Returns
    -------
    y : ndarray of bool, shape (n,)
        True for positives (with ``soft_labels``: float64 probabilities in [0, 1] unless all
        are 0 or 1).
    score : ndarray, shape (n,)
        Finite scores; float32/float64/integer dtypes are kept, anything else becomes float64.
    weight : ndarray of float64, shape (n,), or None
        Non-negative weights; samples of weight zero are removed from all three arrays.
    """
    y = _as_1d("y_true", y_true)
    s = _as_1d(score_name, y_score)
    if y.shape[0] != s.shape[0]:
        raise ValueError(
            f"y_true and {score_name}: expected the same length, got {y.shape[0]} and {s.shape[0]}"
        )
    if y.shape[0] == 0 and not batch:
        raise ValueError("y_true: expected at least one sample, got an empty array")
    s = _check_finite_numbers(score_name, s)
    if not isinstance(soft_labels, bool | np.bool_):
        raise TypeError(f"soft_labels: expected True or False, got {soft_labels!r}")
    if soft_labels:
        pos = _soft_labels(y, pos_label)
    else:
        pos = _binary_labels(y, pos_label, batch) if y.shape[0] else np.zeros(0, dtype=bool)
    w = None
    if sample_weight is not None:
        w = _as_1d("sample_weight", sample_weight)
        if w.shape[0] != y.shape[0]:
            raise ValueError(
                f"sample_weight: expected length {y.shape[0]} (like y_true), got {w.shape[0]}"
            )
        w = np.asarray(_check_finite_numbers("sample_weight", w), dtype=np.float64)
        if (w < 0).any():
            bad = int(np.flatnonzero(w < 0)[0])
            raise ValueError(
                f"sample_weight: expected non-negative weights, got {_plain(w[bad])!r} "
                f"at index {bad}"
            )
        keep = w > 0
        if not keep.any() and not batch:
            raise ValueError("sample_weight: expected some positive weight, got all zeros")
        if not keep.all():
            pos, s, w = pos[keep], s[keep], w[keep]
        if batch:
            return pos, s, w
        w = _moderate_scale(w)
    if require_both and not batch and pos.dtype.kind == "f":
        _check_soft_masses(pos, weighted=sample_weight is not None)
    elif require_both and not batch:
        n_pos = int(np.count_nonzero(pos))
        if n_pos == 0 or n_pos == pos.shape[0]:
            missing = "positive" if n_pos == 0 else "negative"
            raise ValueError(
                f"y_true: expected both classes, got only "
                f"{'negatives' if n_pos == 0 else 'positives'} (no {missing} sample"
                f"{' with positive weight' if sample_weight is not None else ''})"
            )
    return pos, s, w


def _soft_labels(y: np.ndarray, pos_label: Any) -> np.ndarray:
    """Soft labels: the probability of each instance being positive, in [0, 1].

    An instance with label ``p`` and weight ``w`` counts ``p·w`` as a positive and ``(1 − p)·w``
    as a negative (PRROC's weighted curves; Keilwagen, Grosse & Grau 2014).  Labels that are
    all 0 or 1 come back as booleans (the ordinary path of the engine).
    """
    check_soft_pos_label(pos_label)
    if y.dtype.kind not in "biuf":
        raise TypeError(soft_dtype_message(y.dtype))
    p = np.asarray(y, dtype=np.float64)
    bad = ~((p >= 0) & (p <= 1))  # NaN fails both comparisons
    if bad.any():
        first = int(np.flatnonzero(bad)[0])
        raise ValueError(soft_label_message(p[first], first, int(bad.sum())))
    if ((p == 0) | (p == 1)).all():
        return p == 1
    return p


def _check_soft_masses(p: np.ndarray, *, weighted: bool) -> None:
    """Soft labels must put some mass on each class (a curve needs n₊ > 0 and n₋ > 0)."""
    message = soft_mass_message(bool((p > 0).any()), bool((p < 1).any()), weighted=weighted)
    if message:
        raise ValueError(message)


def soft_mass_message(has_positive: bool, has_negative: bool, *, weighted: bool) -> str:
    """The error for soft labels without positive or without negative mass ("" if none);
    shared with the Dask engine, which finds the masses partition by partition."""
    for mass, present, bound, value in (
        ("positive", has_positive, "above 0", "0"),
        ("negative", has_negative, "below 1", "1"),
    ):
        if not present:
            return (
                f"y_true: expected some {mass} mass (a label probability {bound}"
                f"{' with positive weight' if weighted else ''}), got all label "
                f"probabilities {value}"
            )
    return ""


def check_soft_pos_label(pos_label: Any) -> None:
    """``pos_label`` has no meaning with soft labels (they are probabilities of "positive")."""
    if pos_label is not None:
        raise TypeError(
            "pos_label: not used with soft_labels=True (y_true holds the probability of the "
            f"positive class), got {pos_label!r}"
        )


def soft_dtype_message(dtype: Any) -> str:
    """The error for labels that are not numbers with ``soft_labels=True``."""
    return (
        "y_true: expected label probabilities in [0, 1] (soft_labels=True), got values of "
        f"dtype {dtype}"
    )


def soft_label_message(value: Any, index: int, n_bad: int) -> str:
    """The error for a label outside [0, 1] (or NaN) with ``soft_labels=True``."""
    return (
        "y_true: expected label probabilities in [0, 1] (soft_labels=True), got "
        f"{_plain(value)!r} at index {index} ({n_bad} invalid in total)"
    )


def _moderate_scale(w: np.ndarray) -> np.ndarray:
    """Rescale extreme positive weights by an exact power of two, leaving others alone.

    Every prcurve result is invariant to the scale of the weights, but cumulative sums of weights
    near 1e308 overflow, and weights near 1e-320 have lost their precision (and their products
    with a recall level underflow to 0).  Weights all within [2**-500, 2**500) are left alone
    (results keep the caller's units).  Otherwise the largest weight is brought into [0.5, 1)
    when that leaves the smallest at least 2**-500, and into [2**499, 2**500) when not (huge
    weights, or weights spread widely), so that the smallest weights become normal numbers
    whenever float64 can hold the spread.  Scaling by 2**k commutes exactly with every sum and
    ratio, so results do not depend on it.  Positive weights spread over more than float64 can
    hold (a ratio beyond about 2**1500, where scaling down would round the smallest towards
    zero) are an error, not a silent change of the data.
    """
    top, low = float(w.max()), float(w.min())
    shift = moderate_shift(top, low)
    if shift == 0:
        return w
    scaled = np.ldexp(w, shift)
    if shift < 0 and not np.array_equal(np.ldexp(scaled, -shift), w):
        raise ValueError(weight_spread_message(top, low))
    return scaled


def moderate_shift(top: float, low: float) -> int:
    """The power of two ``k`` by which :func:`_moderate_scale` multiplies weights whose largest
    is ``top`` and smallest ``low`` (0: left alone).  Shared with the accumulator, which must
    scale a stream of batches exactly as ``pr_curve`` scales all of its rows at once."""
    if 2.0**-500 <= low and top < 2.0**500:
        return 0
    exponent = int(np.frexp(top)[1])  # top in [2**(exponent-1), 2**exponent)
    shift = -exponent
    if top >= 2.0**500 or math.ldexp(low, shift) < 2.0**-500:
        shift = 500 - exponent
    return shift


def weight_spread_message(top: float, low: float, where: str = "") -> str:
    """The error for positive weights spread over more than float64 can hold."""
    return (
        "sample_weight: expected positive weights within a factor of about 2**1500 of one "
        f"another{where} (the range of float64 once the largest is scaled to 2**500), got "
        f"largest {_plain(top)!r} and smallest {_plain(low)!r}"
    )


def check_rng(rng: Any) -> np.random.Generator:
    """Normalise ``rng`` (None, int seed or Generator) as SPEC 7 asks."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, np.random.SeedSequence):
        return np.random.default_rng(rng)
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        return np.random.default_rng(int(rng))
    if isinstance(rng, np.random.BitGenerator):
        return np.random.Generator(rng)
    raise TypeError(
        f"rng: expected None, an int seed or a numpy.random.Generator, got {type(rng).__name__}"
    )


def check_level(level: Any, name: str = "level") -> float:
    """A confidence level strictly between 0 and 1."""
    return check_fraction(level, name, low_open=True, high_open=True)


def check_fraction(
    value: Any, name: str, *, low_open: bool = True, high_open: bool = True
) -> float:
    """A real number in an interval between 0 and 1 (open or closed at each end)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a number, got {type(value).__name__} {value!r}")
    v = float(value)
    lo_ok = v > 0 if low_open else v >= 0
    hi_ok = v < 1 if high_open else v <= 1
    if not (np.isfinite(v) and lo_ok and hi_ok):
        interval = f"{'(' if low_open else '['}0, 1{')' if high_open else ']'}"
        raise ValueError(f"{name}: expected a number in {interval}, got {value!r}")
    return v


def check_unit_interval_array(
    value: Any, name: str, *, low_open: bool = True, high_open: bool = False
) -> np.ndarray:
    """An array of numbers in an interval between 0 and 1 (e.g. recall levels in (0, 1])."""
    arr = np.asarray(value, dtype=np.float64) if _is_array_of_numbers(value) else None
    if arr is None:
        raise TypeError(f"{name}: expected numbers, got {value!r}")
    lo_bad = arr <= 0 if low_open else arr < 0
    hi_bad = arr >= 1 if high_open else arr > 1
    bad = ~np.isfinite(arr) | lo_bad | hi_bad
    if bad.any():
        interval = f"{'(' if low_open else '['}0, 1{')' if high_open else ']'}"
        first = arr[bad].ravel()[0].item()
        raise ValueError(f"{name}: expected values in {interval}, got {first!r}")
    return arr


def _is_array_of_numbers(value: Any) -> bool:
    try:
        arr = np.asarray(value)
    except (TypeError, ValueError):
        return False
    return arr.dtype.kind in "biuf"


def check_positive_int(value: Any, name: str, *, minimum: int = 1) -> int:
    """An integer >= ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name}: expected an integer, got {type(value).__name__} {value!r}")
    if value < minimum:
        raise ValueError(f"{name}: expected an integer >= {minimum}, got {value}")
    return int(value)


def check_choice(value: Any, name: str, choices: Sequence[str]) -> str:
    """One of a fixed set of option strings."""
    if value not in choices:
        options = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name}: expected one of {options}, got {value!r}")
    return str(value)
