"""Reading the file of a multiclass or cross-validation report (``prcurve report
--score-prefix`` / ``--multiclass`` / ``--fold``).

The file is read by the binary report's reader (:mod:`._csv`, :mod:`._numbers`,
:mod:`._io`), so both shapes of report follow one set of rules: numbers in the one grammar,
the delimiter detected from the header, gzip/bzip2/xz recognised by their magic bytes (on
standard input too), ``NA`` an ordinary label, and every problem one :class:`InputError` line
naming the column and the line (CSV) or row (Parquet).  Only the columns asked for are read:
the score columns once the header is known (``--score-prefix`` picks them from it).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import BinaryIO, TextIO

import numpy as np

from .._messages import column_list, plural
from ._csv import CsvError, decode, decompress, read_csv_columns, read_csv_slow, read_header
from ._io import InputError, _check_columns, _label_text, _lines, _score_column
from ._numbers import parse_numbers

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


@dataclass(frozen=True)
class _Wanted:
    """The columns to read, worked out from the header (``--score-prefix`` needs it)."""

    label: str
    scores: list[str]
    fold: str | None
    weight: str | None

    @property
    def columns(self) -> list[str]:
        """Label first, then the numeric columns (the order the CSV fast path expects), then
        the fold column (text or numbers)."""
        return [self.label, *self.scores, *([self.weight] if self.weight else []),
                *([self.fold] if self.fold else [])]  # fmt: skip


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
    if path is None:
        raise InputError("--score-prefix, --multiclass and --fold need a FILE")
    source = "<stdin>" if path == "-" else path

    def pick(header: Sequence[str], how: str) -> _Wanted:
        chosen = list(scores)
        if score_prefix is not None:
            chosen = [c for c in header if c.startswith(score_prefix) and c != score_prefix]
            if not chosen:
                hint = f" ({how}; pass --sep to choose)" if how else ""
                raise InputError(
                    f"{source}: no column starts with --score-prefix {score_prefix!r}; the "
                    f"columns are {column_list(list(header))}{hint}"
                )
        wanted = _Wanted(label, chosen, fold, weight)
        _check_columns(header, wanted.columns, source, how)
        return wanted

    try:
        if path != "-":
            parquet = _parquet_path(path)
            if parquet:
                return _read_parquet(path, pick)
            with open(path, "rb") as f:
                data = f.read()
        else:
            stream = stdin or sys.stdin
            raw_in = getattr(stream, "buffer", stream).read()
            data = raw_in.encode("utf-8") if isinstance(raw_in, str) else raw_in
    except OSError as exc:
        reason = getattr(exc, "strerror", None) or str(exc)
        raise InputError(f"{source}: cannot read the file ({reason})") from None
    try:
        text = decode(decompress(data, source)[0], source, encoding)
        del data
        header, delimiter, how = read_header(text, source, sep)
        wanted = pick(header, how)
        columns = read_csv_columns(text, source, header, delimiter, wanted.columns)
        if columns.lines is None:
            try:
                return _validated(columns.values, _lines(None), source, wanted)
            except InputError:
                pass  # read again to name the line of the problem
            columns = read_csv_slow(text, source, header, delimiter, wanted.columns)
        return _validated(columns.values, _lines(columns.lines), source, wanted)
    except CsvError as exc:
        raise InputError(str(exc)) from None


def _parquet_path(path: str) -> bool:
    """Whether ``path`` is a Parquet file (by name or magic bytes); a missing file is an error."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, expected a CSV or Parquet file")
    with open(path, "rb") as f:
        return f.read(4) == b"PAR1" or path.lower().endswith((".parquet", ".pq"))


def _read_parquet(path: str, pick: Callable[[Sequence[str], str], _Wanted]) -> MultiInput:
    from ._parquet import numpy_column, read_columns

    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise InputError(
            f"{path}: reading Parquet needs pyarrow; install it with "
            "'pip install prcurve[parquet]' (or convert the file to CSV)"
        ) from None
    try:
        pf = pq.ParquetFile(path)
        wanted = pick(list(pf.schema_arrow.names), "")
        table = read_columns(pf, wanted.columns)
    except InputError:
        raise
    except Exception as exc:  # pyarrow raises many types for corrupt files
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise InputError(f"{path}: cannot read the Parquet file ({reason})") from None
    if table.num_rows == 0:
        raise InputError(f"{path}: no data rows")
    raw: dict[str, np.ndarray] = {}
    for name in wanted.columns:
        col = table.column(name)
        if col.null_count:
            first = next(i for i, v in enumerate(col.to_pylist()) if v is None)
            raise InputError(f"{path}: column {name!r} has a missing value at row {first + 1}")
        raw[name] = numpy_column(col)
    return _validated(raw, _lines(None), path, wanted)


def _validated(
    raw: dict[str, np.ndarray], locate: Callable[[int], str], source: str, wanted: _Wanted
) -> MultiInput:
    labels = _as_text(raw[wanted.label], wanted.label, source, locate, "label")
    folds = (
        _as_text(raw[wanted.fold], wanted.fold, source, locate, "fold id") if wanted.fold else None
    )
    scores = {name: _score_column(raw[name], name, source, locate) for name in wanted.scores}
    w = None
    if wanted.weight:
        w = _score_column(raw[wanted.weight], wanted.weight, source, locate, what="weight")
        negative = np.flatnonzero(w < 0)
        if negative.size:
            i = int(negative[0])
            raise InputError(
                f"{source}: column {wanted.weight!r} has {float(w[i])!r} at {locate(i)}; "
                "expected a weight >= 0"
            )
    return MultiInput(source, labels, scores, folds, w)


def _as_text(
    values: np.ndarray, name: str, source: str, locate: Callable[[int], str], what: str
) -> np.ndarray:
    """A label or fold column as text, the binary reader's way: an empty field is missing
    (``NA`` is a label like any other), and when every value is a number in the grammar of
    :mod:`._numbers` they are read as numbers, so ``1`` and ``1.0`` are one class."""
    if values.dtype.kind not in "iufb":
        values = np.char.strip(values.astype(str))
        empty = np.flatnonzero(values == "")
        if empty.size:
            raise InputError(
                f"{source}: column {name!r} has a missing {what} at {locate(int(empty[0]))}"
            )
        numbers, first_bad = parse_numbers(values)
        if first_bad is None and np.isfinite(numbers).all():
            values = numbers
    elif values.dtype.kind == "f" and not np.isfinite(values).all():
        i = int(np.flatnonzero(~np.isfinite(values))[0])
        raise InputError(
            f"{source}: column {name!r} has {float(values[i])!r} at {locate(i)}; expected a {what}"
        )
    if values.dtype.kind == "b":
        values = values.astype(np.int64)
    return np.array([_label_text(v) for v in values.tolist()], dtype=str)


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
