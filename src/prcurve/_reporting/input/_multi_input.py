"""Reading the file of a multiclass or cross-validation report (``prcurve report
--score-prefix`` / ``--multiclass`` / ``--fold``) with pandas, imported lazily
(``pip install prcurve[pandas]``).  Every problem is one :class:`InputError` line."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO, TextIO

import numpy as np

from .._messages import column_list, plural
from ._io import InputError
from ._numbers import pandas_exact_floats

__all__ = ["MultiInput", "binary_labels", "read_multi_input"]

_TRUE = {"1", "true", "t", "yes", "y", "pos", "positive"}
_FALSE = {"0", "false", "f", "no", "n", "neg", "negative", "-1"}


@dataclass(frozen=True)
class MultiInput:
    """Columns read for a multiclass or cross-validation report.

    Attributes
    ----------
    source : str
    labels : ndarray of str, shape (n,)
        The label column as text (numbers written as ``1`` and ``1.0`` are one label).
    scores : dict of str to ndarray of float64
        Score columns by name, in order.
    folds : ndarray of str, shape (n,), or None
    weight : ndarray of float64, shape (n,), or None
        Non-negative sample weights.
    """

    source: str
    labels: np.ndarray
    scores: dict[str, np.ndarray]
    folds: np.ndarray | None
    weight: np.ndarray | None = None


def _text(values: Any) -> np.ndarray:
    """Labels as text; whole numbers without a decimal part."""
    out = []
    for v in values.tolist():
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        out.append(str(v).strip())
    return np.array(out, dtype=str)


def _read_frame(
    path: str | None, stdin: Any, sep: str | None, encoding: str | None
) -> tuple[Any, str]:
    try:
        import pandas as pd
    except ImportError:
        raise InputError(
            "a multiclass or cross-validation report reads its file with pandas; install it "
            "with 'pip install prcurve[pandas]'"
        ) from None
    if path is None:
        raise InputError("--score-prefix, --multiclass and --fold need a FILE")
    source = "<stdin>" if path == "-" else path
    if path != "-" and not os.path.isfile(path):
        raise InputError(f"{path}: no such file")
    try:
        if path.lower().endswith((".parquet", ".pq")):
            frame = pd.read_parquet(path)
        else:
            frame = pd.read_csv(
                stdin if path == "-" else path,
                skipinitialspace=True,
                sep=sep or ",",
                encoding=encoding or "utf-8-sig",
                **pandas_exact_floats(pd.__version__),  # as the binary reader: nearest float64
            )
    except Exception as exc:  # pandas and pyarrow raise many types for unreadable files
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"{source}: cannot read the file ({reason})") from None
    frame.columns = [str(c).strip() for c in frame.columns]
    if frame.shape[0] == 0:
        raise InputError(f"{source}: no data rows after the header")
    return frame, source


def read_multi_input(
    path: str | None,
    label: str,
    *,
    scores: Sequence[str] = (),
    score_prefix: str | None = None,
    fold: str | None = None,
    weight: str | None = None,
    stdin: TextIO | BinaryIO | None = None,
    sep: str | None = None,
    encoding: str | None = None,
) -> MultiInput:
    """Read the label column, the score columns (listed, or every column starting with
    ``score_prefix``) and optionally the fold and weight columns; every problem is an
    :class:`InputError`."""
    frame, source = _read_frame(path, stdin, sep, encoding)
    have = column_list([str(c) for c in frame.columns])
    if score_prefix is not None:
        scores = [c for c in frame.columns if c.startswith(score_prefix) and c != score_prefix]
        if not scores:
            raise InputError(
                f"{source}: no column starts with --score-prefix {score_prefix!r}; the columns "
                f"are {have}"
            )
    wanted = [label, *scores, *([fold] if fold else []), *([weight] if weight else [])]
    missing = [c for c in wanted if c not in frame.columns]
    if missing:
        raise InputError(f"{source}: no column {missing[0]!r}; the columns are {have}")
    if len(set(wanted)) != len(wanted):
        raise InputError(f"{source}: a column is named twice in the options: {wanted}")
    out: dict[str, np.ndarray] = {}
    for name in [label, *([fold] if fold else [])]:
        col = frame[name]
        if col.isna().any():
            i = int(np.flatnonzero(col.isna().to_numpy())[0])
            raise InputError(f"{source}: column {name!r} has a missing value at row {i + 1}")
    for name in [*scores, *([weight] if weight else [])]:
        col = frame[name]
        values = np.asarray(col.to_numpy(), dtype=object)
        try:
            s = values.astype(np.float64)
        except (TypeError, ValueError):
            bad = next(i for i, v in enumerate(values.tolist()) if not _is_number(v))
            raise InputError(
                f"{source}: column {name!r} has {values[bad]!r} at row {bad + 1}; expected a number"
            ) from None
        finite = np.isfinite(s)
        if not finite.all():
            i = int(np.flatnonzero(~finite)[0])
            raise InputError(
                f"{source}: column {name!r} has {float(s[i])!r} at row {i + 1}; expected a "
                "finite number"
            )
        out[name] = s
    w = out.pop(weight) if weight else None
    if w is not None and (w < 0).any():
        i = int(np.flatnonzero(w < 0)[0])
        raise InputError(
            f"{source}: column {weight!r} has {float(w[i])!r} at row {i + 1}; expected a "
            "weight >= 0"
        )
    folds = _text(frame[fold].to_numpy()) if fold else None
    return MultiInput(source, _text(frame[label].to_numpy()), out, folds, w)


def _is_number(v: Any) -> bool:
    try:
        float(v)
    except (TypeError, ValueError):
        return False
    return True


def binary_labels(data: MultiInput, column: str, pos_label: str | None) -> tuple[np.ndarray, str]:
    """Two-class labels as booleans (the positive label named, or 0/1, true/false, yes/no)."""
    names = sorted(set(data.labels.tolist()))
    if len(names) != 2:
        shown = ", ".join(repr(v) for v in names[:8])
        raise InputError(
            f"{data.source}: column {column!r} has {plural(len(names), 'distinct label')}, "
            f"expected two classes for a cross-validation report; found {shown}"
        )
    if pos_label is not None:
        if pos_label not in names:
            raise InputError(
                f"{data.source}: --pos-label {pos_label!r} is not a label in column {column!r}; "
                f"found {names[0]!r}, {names[1]!r}"
            )
        positive = pos_label
    elif names[0].lower() in _FALSE and names[1].lower() in _TRUE:
        positive = names[1]
    elif names[1].lower() in _FALSE and names[0].lower() in _TRUE:
        positive = names[0]
    else:
        raise InputError(
            f"{data.source}: cannot tell which label in column {column!r} is positive; found "
            f"{names[0]!r}, {names[1]!r}; pass --pos-label"
        )
    return data.labels == positive, positive
