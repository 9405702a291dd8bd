"""Reading labelled scores from CSV or Parquet files for the command line.

Every problem with the input becomes an :class:`InputError` whose message is one line naming the
file, the column and (for bad values) the row, so the CLI can print it and exit with status 1.
"""

from __future__ import annotations

import codecs
import glob
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, BinaryIO, TextIO

import numpy as np

from .._messages import column_list, plural
from ._csv import (
    HEAD_BYTES,
    CsvError,
    codec_name,
    decode,
    decompress,
    read_csv_columns,
    read_csv_slow,
    read_header,
    read_utf8_columns,
)
from ._numbers import is_number_text, parse_numbers, why_not_a_number

__all__ = [
    "BUILTIN_EXAMPLE",
    "InputError",
    "LabelledScores",
    "builtin_example_path",
    "data_files",
    "input_bytes",
    "is_collection",
    "positive_class",
    "read_labelled_scores",
]


#: The built-in example: file name in ``prcurve/data``, its label column and score columns.
@dataclass(frozen=True)
class _Example:
    file: str
    label: str
    scores: tuple[str, ...]
    description: str


BUILTIN_EXAMPLE = _Example(
    file="digits_9_vs_rest.csv",
    label="is_nine",
    scores=("logistic_regression", "naive_bayes", "decision_tree"),
    description=(
        "scikit-learn's bundled UCI handwritten digits (load_digits), digit 9 against the rest "
        "with two thirds of the 9s left out (3.6 % positives); out-of-fold scores of three "
        "scorers from 5-fold cross-validation"
    ),
)

_TRUE = {"1", "1.0", "true", "t", "yes", "y", "pos", "positive"}
_FALSE = {"0", "0.0", "false", "f", "no", "n", "neg", "negative", "-1", "-1.0"}


class InputError(ValueError):
    """Bad input data for the command line (one-line message)."""


@dataclass(frozen=True)
class LabelledScores:
    """Labels and one or more score columns read from a file.

    Attributes
    ----------
    source : str
        Where the data came from (file name, ``<stdin>`` or the built-in example).
    label_column : str
    y : ndarray of bool, shape (n,)
        True for positives.
    scores : dict of str to ndarray of float64, shape (n,)
        Finite scores, one entry per score column, in the order asked for.
    positive_label : str
        The label value taken as positive, as written in the file.
    weight_column : str or None
    weight : ndarray of float64, shape (n,), or None
        Finite non-negative sample weights (``--weight``), some positive in each class.
    """

    source: str
    label_column: str
    y: np.ndarray
    scores: dict[str, np.ndarray]
    positive_label: str
    weight_column: str | None = None
    weight: np.ndarray | None = None

    @property
    def n(self) -> int:
        return int(self.y.shape[0])


def builtin_example_path() -> Any:
    """The built-in example CSV shipped in the package (an importlib.resources Traversable)."""
    return resources.files("prcurve").joinpath("data").joinpath(BUILTIN_EXAMPLE.file)


def read_labelled_scores(
    path: str | None,
    label: str,
    scores: Sequence[str],
    *,
    pos_label: str | None = None,
    stdin: TextIO | BinaryIO | None = None,
    weight: str | None = None,
    sep: str | None = None,
    encoding: str | None = None,
) -> LabelledScores:
    """Read a label column, score columns and optionally a weight column.

    ``path`` is a CSV or Parquet file (either may be gzip/bzip2/xz-compressed CSV), ``-`` for
    CSV on ``stdin``, or None for the built-in example.  ``sep`` and ``encoding`` override the
    detected delimiter and UTF-8 (see ``prcurve._reporting.input._csv`` for the rules).
    """
    wanted = [label, *scores, *([weight] if weight is not None else [])]
    if path is None:
        source = f"built-in example {BUILTIN_EXAMPLE.file}"
        data = builtin_example_path().read_bytes()
    elif path == "-":
        source = "<stdin>"
        stream = stdin or sys.stdin
        raw_in = getattr(stream, "buffer", stream).read()
        data = raw_in.encode("utf-8") if isinstance(raw_in, str) else raw_in
    else:
        source = path
        if not os.path.exists(path):
            raise InputError(f"{path}: no such file")
        if os.path.isdir(path):
            raise InputError(f"{path}: is a directory, expected a CSV or Parquet file")
        try:
            with open(path, "rb") as f:
                data = f.read(4)  # a Parquet file is read by pyarrow, not into memory first
                parquet = data == b"PAR1" or path.lower().endswith((".parquet", ".pq"))
                data += b"" if parquet else f.read()
        except OSError as exc:
            raise InputError(f"{path}: cannot read the file ({_reason(exc)})") from None
        if parquet:
            raw, locate = _read_parquet(path, label, scores, weight)
            return _validated(raw, locate, source, label, scores, weight, pos_label)
    try:
        plain = decompress(data, source)[0]
        del data  # the compressed bytes (the same object when uncompressed)
        bom = _utf8_bom(plain, encoding)
        columns = None
        if bom is not None and len(plain) > HEAD_BYTES:  # a large file: no full-size string
            found = read_utf8_columns(
                plain,
                bom,
                source,
                sep,
                wanted,
                lambda h, how: _check_columns(h, wanted, source, how),
            )
            if found is not None:
                columns, header = found
        if columns is None:
            text = decode(plain, source, encoding)
            header, delimiter, how = read_header(text, source, sep)
            _check_columns(header, wanted, source, how)
            utf8 = None if bom is None else memoryview(plain)[bom:]
            columns = read_csv_columns(text, source, header, delimiter, wanted, utf8=utf8)
            del utf8
        try:
            return _validated(
                columns.values, _lines(columns.lines), source, label, scores, weight, pos_label
            )
        except InputError:
            if columns.lines is not None:
                raise
        # the fast reader keeps no line numbers: read again to name the line of the problem
        text = decode(plain, source, encoding)
        columns = read_csv_slow(text, source, header, columns.delimiter, wanted)
        return _validated(
            columns.values, _lines(columns.lines), source, label, scores, weight, pos_label
        )
    except CsvError as exc:
        raise InputError(str(exc)) from None


def _utf8_bom(plain: bytes, encoding: str | None) -> int | None:
    """Length of the UTF-8 byte-order mark (0 or 3) when ``plain`` is read as UTF-8, else None."""
    if codec_name(plain, encoding) != "utf-8-sig":
        return None
    return len(codecs.BOM_UTF8) if plain.startswith(codecs.BOM_UTF8) else 0


def _lines(lines: np.ndarray | None) -> Callable[[int], str]:
    if lines is None:
        return lambda i: f"row {i + 1}"
    return lambda i: f"line {int(lines[i])}"


def _validated(
    raw: dict[str, np.ndarray],
    locate: Callable[[int], str],
    source: str,
    label: str,
    scores: Sequence[str],
    weight: str | None,
    pos_label: str | None,
) -> LabelledScores:
    y, positive = _labels(raw[label], label, source, locate, pos_label)
    score_arrays = {name: _score_column(raw[name], name, source, locate) for name in scores}
    w = None
    if weight is not None:
        w = _score_column(raw[weight], weight, source, locate, what="weight")
        negative = np.flatnonzero(w < 0)
        if negative.size:
            i = int(negative[0])
            raise InputError(
                f"{source}: column {weight!r} has {float(w[i])!r} at {locate(i)}; expected a "
                "weight >= 0"
            )
        for cls, rows in (("positive", y), ("negative", ~y)):
            if not np.any(w[rows] > 0):
                raise InputError(
                    f"{source}: column {weight!r} gives every {cls} row weight 0; expected some "
                    f"{cls} row with a positive weight"
                )
    return LabelledScores(source, label, y, score_arrays, positive, weight, w)


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc).splitlines()[0]


def _check_columns(header: Sequence[str], wanted: Sequence[str], source: str, how: str) -> None:
    missing = [c for c in wanted if c not in header]
    if missing:
        have = column_list(header)
        what = "column" if len(missing) == 1 else "columns"
        miss = ", ".join(repr(c) for c in missing)
        hint = f" ({how}; pass --sep to choose)" if how else ""
        raise InputError(f"{source}: no {what} {miss}; the columns are {have}{hint}")
    if len(set(wanted)) != len(wanted):
        raise InputError(
            f"{source}: a column is named twice in --label/--score/--weight: {list(wanted)}"
        )
    for name in dict.fromkeys(wanted):
        if header.count(name) > 1:
            raise InputError(
                f"{source}: column {name!r} appears {header.count(name)} times in the header; "
                "expected unique column names"
            )


def _read_parquet(
    path: str, label: str, scores: Sequence[str], weight: str | None = None
) -> tuple[dict[str, np.ndarray], Callable[[int], str]]:
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
        header = list(pf.schema_arrow.names)
        wanted = [label, *scores, *([weight] if weight is not None else [])]
        _check_columns(header, wanted, path, "")
        table = read_columns(pf, wanted)  # batch by batch: Ctrl-C stops it
    except InputError:
        raise
    except Exception as exc:  # pyarrow raises many types for corrupt files
        raise InputError(f"{path}: cannot read the Parquet file ({_reason(exc)})") from None
    raw: dict[str, np.ndarray] = {}
    for name in wanted:
        col = table.column(name)
        if col.null_count:
            first = next(i for i, v in enumerate(col.to_pylist()) if v is None)
            raw[name] = np.array(["" if v is None else str(v) for v in col.to_pylist()])
            if name != label:
                raise InputError(
                    f"{path}: column {name!r} has a missing value at row {first + 1}; "
                    "expected a number in every row"
                )
        else:
            raw[name] = numpy_column(col)
        if raw[name].shape[0] == 0:
            raise InputError(f"{path}: no data rows")
    return raw, _lines(None)


def _score_column(
    values: np.ndarray,
    name: str,
    source: str,
    locate: Callable[[int], str],
    *,
    what: str = "number",
) -> np.ndarray:
    if values.dtype.kind == "b":
        values = values.astype(np.float64)
    if values.dtype.kind in "iuf":
        s = values.astype(np.float64, copy=False)
    else:
        s, first_bad = parse_numbers(values)
        if first_bad is not None:
            v = values[first_bad]
            shown = repr(str(v)) if v != "" else "an empty field"
            if isinstance(v, str) and _is_decimal_comma(v):
                expected = "number with a decimal point"
            else:
                why = why_not_a_number(v) if isinstance(v, str) else ""
                expected = what + (f" ({why})" if why else "")
            raise InputError(
                f"{source}: column {name!r} has {shown} at {locate(first_bad)}; expected a "
                f"{expected}"
            )
    bad = ~np.isfinite(s)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{source}: column {name!r} has {float(s[i])!r} at {locate(i)}; expected a "
            f"finite {what} ({plural(int(bad.sum()), 'non-finite value')} in total)"
        )
    return s


def _label_text(v: Any) -> str:
    if isinstance(v, float | np.floating) and float(v).is_integer():
        return str(int(v))
    return str(v)


def _is_decimal_comma(v: str) -> bool:
    return "," in v and is_number_text(v.replace(",", ".", 1))


def positive_class(
    names: Sequence[str], rows: Sequence[int], column: str, source: str, pos_label: str | None
) -> int:
    """Index of the positive class among a label column's two distinct values.

    ``names`` are the classes as text and ``rows`` how many rows each has (for the messages).
    Exactly two classes are required; ``pos_label`` names the positive one, otherwise a
    false/true pair (``0``/``1``, ``no``/``yes``, ...) decides.
    """
    found = ", ".join(
        f"{c!r} ({plural(k, 'row')})" for c, k in zip(names[:8], rows[:8], strict=False)
    )
    found += ", ..." if len(names) > 8 else ""
    if len(names) != 2:
        raise InputError(
            f"{source}: column {column!r} has {plural(len(names), 'distinct label')}, expected "
            f"two classes; found {found}"
        )
    if pos_label is not None:
        if pos_label not in names:
            raise InputError(
                f"{source}: --pos-label {pos_label!r} is not a label in column {column!r}; "
                f"found {found}"
            )
        return list(names).index(pos_label)
    lower = [c.lower() for c in names]
    if lower[0] in _FALSE and lower[1] in _TRUE:
        return 1
    if lower[1] in _FALSE and lower[0] in _TRUE:
        return 0
    raise InputError(
        f"{source}: cannot tell which label in column {column!r} is positive; found "
        f"{found}; pass --pos-label"
    )


def _labels(
    values: np.ndarray,
    name: str,
    source: str,
    locate: Callable[[int], str],
    pos_label: str | None,
) -> tuple[np.ndarray, str]:
    """Labels to a boolean array; two classes required."""
    if values.dtype.kind == "f" and np.isnan(values).any():
        i = int(np.flatnonzero(np.isnan(values))[0])
        raise InputError(f"{source}: column {name!r} has a missing label at {locate(i)}")
    if values.dtype.kind not in "iufb":
        values = np.char.strip(values.astype(str))
        empty = values == ""
        if empty.any():
            i = int(np.flatnonzero(empty)[0])
            raise InputError(f"{source}: column {name!r} has a missing label at {locate(i)}")
        # numeric labels read as text ("1" and "1.0" are one class), numbers as in _numbers
        as_numbers, first_bad = parse_numbers(values)
        if first_bad is None and np.isfinite(as_numbers).all():
            values = as_numbers
    classes, counts = np.unique(values, return_counts=True)
    names = [_label_text(c) for c in classes.tolist()]
    k = positive_class(names, counts.tolist(), name, source, pos_label)
    return np.asarray(values == classes[k]), names[k]


# --- inputs of the Dask engine (cheap: the CLI chooses the engine before importing SciPy) ---


def data_files(path: str) -> list[str]:
    """The data files of a file, a directory (of Parquet files) or a glob pattern."""
    if os.path.isdir(path):
        found = sorted(
            os.path.join(path, f)
            for f in os.listdir(path)
            if f.lower().endswith((".parquet", ".pq"))
        )
    elif any(c in path for c in "*?["):
        found = sorted(glob.glob(path))
    else:
        found = [path] if os.path.exists(path) else []
    if not found:
        raise InputError(f"{path}: no such file, or no Parquet files found there")
    return found


def input_bytes(path: str) -> int:
    """Total size on disk of the input's files (0 for stdin or the built-in example)."""
    try:
        return sum(os.path.getsize(f) for f in data_files(path))
    except (InputError, OSError):
        return 0


def is_collection(path: str) -> bool:
    """True for a directory or a glob pattern (only the Dask engine reads those)."""
    return os.path.isdir(path) or any(c in path for c in "*?[")
