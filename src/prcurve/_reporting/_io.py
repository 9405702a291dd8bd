"""Reading labelled scores from CSV or Parquet files for the command line.

Every problem with the input becomes an :class:`InputError` whose message is one line naming the
file, the column and (for bad values) the row, so the CLI can print it and exit with status 1.
"""

from __future__ import annotations

import csv
import errno
import io
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any, BinaryIO, TextIO

import numpy as np

__all__ = [
    "BUILTIN_EXAMPLE",
    "InputError",
    "LabelledScores",
    "OutputError",
    "builtin_example_path",
    "check_writable",
    "curve_csv",
    "figure_png",
    "read_labelled_scores",
    "write_tree",
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


class OutputError(RuntimeError):
    """The output could not be written (one-line message)."""


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
    """

    source: str
    label_column: str
    y: np.ndarray
    scores: dict[str, np.ndarray]
    positive_label: str

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
    stdin: TextIO | None = None,
) -> LabelledScores:
    """Read a label column and score columns from CSV/Parquet, ``-`` (stdin CSV) or the example.

    ``path=None`` reads the built-in example.
    """
    if path is None:
        source = f"built-in example {BUILTIN_EXAMPLE.file}"
        text = builtin_example_path().read_text(encoding="utf-8")
        raw, where = _read_csv_text(text, source, label, scores)
    elif path == "-":
        source = "<stdin>"
        text = (stdin or sys.stdin).read()
        raw, where = _read_csv_text(text, source, label, scores)
    else:
        source = path
        if not os.path.exists(path):
            raise InputError(f"{path}: no such file")
        if os.path.isdir(path):
            raise InputError(f"{path}: is a directory, expected a CSV or Parquet file")
        if path.lower().endswith((".parquet", ".pq")):
            raw, where = _read_parquet(path, label, scores)
        else:
            try:
                with open(path, encoding="utf-8-sig", newline="") as f:
                    text = f.read()
            except (OSError, UnicodeDecodeError) as exc:
                raise InputError(f"{path}: cannot read the file ({_reason(exc)})") from None
            raw, where = _read_csv_text(text, source, label, scores)
    y, positive = _labels(raw[label], label, source, where, pos_label)
    score_arrays = {name: _score_column(raw[name], name, source, where) for name in scores}
    return LabelledScores(source, label, y, score_arrays, positive)


def _reason(exc: BaseException) -> str:
    return getattr(exc, "strerror", None) or str(exc).splitlines()[0]


def _check_columns(header: Sequence[str], label: str, scores: Sequence[str], source: str) -> None:
    wanted = [label, *scores]
    missing = [c for c in wanted if c not in header]
    if missing:
        have = ", ".join(repr(c) for c in header)
        what = "column" if len(missing) == 1 else "columns"
        miss = ", ".join(repr(c) for c in missing)
        raise InputError(f"{source}: no {what} {miss}; the columns are {have}")
    if len(set(wanted)) != len(wanted):
        raise InputError(f"{source}: a column is named twice in --label/--score: {wanted}")


def _read_csv_text(
    text: str, source: str, label: str, scores: Sequence[str]
) -> tuple[dict[str, np.ndarray], str]:
    """Header and the wanted columns (float64 when all numeric, else str) of CSV text."""
    if text.startswith("\ufeff"):
        text = text[1:]
    first_line, _, _ = text.partition("\n")
    if not first_line.strip():
        raise InputError(f"{source}: empty file, expected a CSV header line")
    try:
        header = next(csv.reader([first_line]))
    except csv.Error as exc:
        raise InputError(f"{source}: cannot read the CSV header ({exc})") from None
    header = [h.strip() for h in header]
    _check_columns(header, label, scores, source)
    for name in dict.fromkeys([label, *scores]):
        if header.count(name) > 1:
            raise InputError(
                f"{source}: column {name!r} appears {header.count(name)} times in the header; "
                "expected unique column names"
            )
    if not text.partition("\n")[2].strip():
        raise InputError(f"{source}: no data rows after the header")
    wanted = [label, *scores]
    idx = [header.index(c) for c in wanted]
    raw: dict[str, np.ndarray] = {}
    try:  # fast path: every wanted column numeric
        data = np.loadtxt(
            io.StringIO(text),
            delimiter=",",
            skiprows=1,
            usecols=idx,
            dtype=np.float64,
            quotechar='"',
            ndmin=2,
        )
        if text.count(",") != (len(header) - 1) * (data.shape[0] + 1):
            raise ValueError("ragged rows or quoted commas: read with the csv module")
        for j, name in enumerate(wanted):
            raw[name] = data[:, j]
    except ValueError:
        rows = csv.reader(io.StringIO(text))
        next(rows)
        cols: list[list[str]] = [[] for _ in wanted]
        width = len(header)
        for line_no, row in enumerate(rows, start=2):
            if not row:
                continue
            if len(row) != width:
                raise InputError(
                    f"{source}: line {line_no} has {len(row)} fields, the header has {width}"
                ) from None
            for col, i in zip(cols, idx, strict=True):
                col.append(row[i].strip())
        for name, col in zip(wanted, cols, strict=True):
            raw[name] = np.array(col, dtype=str)
    if raw[label].shape[0] == 0:
        raise InputError(f"{source}: no data rows after the header")
    return raw, "line"


def _read_parquet(
    path: str, label: str, scores: Sequence[str]
) -> tuple[dict[str, np.ndarray], str]:
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
        _check_columns(header, label, scores, path)
        table = pf.read(columns=[label, *scores])
    except InputError:
        raise
    except Exception as exc:  # pyarrow raises many types for corrupt files
        raise InputError(f"{path}: cannot read the Parquet file ({_reason(exc)})") from None
    raw: dict[str, np.ndarray] = {}
    for name in [label, *scores]:
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
            raw[name] = col.to_numpy(zero_copy_only=False)
        if raw[name].shape[0] == 0:
            raise InputError(f"{path}: no data rows")
    return raw, "row"


def _location(index: int, where: str) -> str:
    """Human position of data row ``index`` (0-based): a CSV line or a Parquet row."""
    return f"line {index + 2}" if where == "line" else f"row {index + 1}"


def _score_column(values: np.ndarray, name: str, source: str, where: str) -> np.ndarray:
    if values.dtype.kind == "b":
        values = values.astype(np.float64)
    if values.dtype.kind in "iuf":
        s = values.astype(np.float64, copy=False)
    else:
        s = np.empty(values.shape[0], dtype=np.float64)
        for i, v in enumerate(values.tolist()):
            try:
                s[i] = float(v)
            except (TypeError, ValueError):
                shown = repr(v) if v != "" else "an empty field"
                raise InputError(
                    f"{source}: column {name!r} has {shown} at {_location(i, where)}; "
                    "expected a number"
                ) from None
    bad = ~np.isfinite(s)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        raise InputError(
            f"{source}: column {name!r} has {float(s[i])!r} at {_location(i, where)}; expected a "
            f"finite number ({int(bad.sum())} non-finite value{'s' if bad.sum() > 1 else ''} "
            "in total)"
        )
    return s


def _label_text(v: Any) -> str:
    if isinstance(v, float | np.floating) and float(v).is_integer():
        return str(int(v))
    return str(v)


def _labels(
    values: np.ndarray, name: str, source: str, where: str, pos_label: str | None
) -> tuple[np.ndarray, str]:
    """Labels to a boolean array; two classes required."""
    if values.dtype.kind == "f" and np.isnan(values).any():
        i = int(np.flatnonzero(np.isnan(values))[0])
        raise InputError(f"{source}: column {name!r} has a missing label at {_location(i, where)}")
    if values.dtype.kind not in "iufb":
        values = np.char.strip(values.astype(str))
        empty = values == ""
        if empty.any():
            i = int(np.flatnonzero(empty)[0])
            raise InputError(
                f"{source}: column {name!r} has a missing label at {_location(i, where)}"
            )
        try:  # numeric labels read as text ("1" and "1.0" are one class)
            as_numbers = values.astype(np.float64)
        except ValueError:
            pass
        else:
            if np.isfinite(as_numbers).all():
                values = as_numbers
    classes, counts = np.unique(values, return_counts=True)
    names = [_label_text(c) for c in classes.tolist()]
    found = ", ".join(f"{c!r} ({k} rows)" for c, k in zip(names[:8], counts[:8], strict=False))
    found += ", ..." if len(names) > 8 else ""
    if len(names) != 2:
        raise InputError(
            f"{source}: column {name!r} has {len(names)} distinct label"
            f"{'' if len(names) == 1 else 's'}, expected two classes; found {found}"
        )
    if pos_label is not None:
        if pos_label not in names:
            raise InputError(
                f"{source}: --pos-label {pos_label!r} is not a label in column {name!r}; "
                f"found {found}"
            )
        k = names.index(pos_label)
    else:
        lower = [c.lower() for c in names]
        if lower[0] in _FALSE and lower[1] in _TRUE:
            k = 1
        elif lower[1] in _FALSE and lower[0] in _TRUE:
            k = 0
        else:
            raise InputError(
                f"{source}: cannot tell which label in column {name!r} is positive; found "
                f"{found}; pass --pos-label"
            )
    return np.asarray(values == classes[k]), names[k]


# --- output ----------------------------------------------------------------------------------


def _column_text(values: np.ndarray) -> list[str]:
    if values.dtype.kind in "iub":
        return values.astype(np.int64).astype(str).tolist()
    return [repr(v) for v in values.astype(np.float64).tolist()]


def curve_csv(columns: Mapping[str, Any]) -> str:
    """CSV text of aligned 1-D arrays, floats in their shortest round-trip form.

    Uses pyarrow's C++ writer when pyarrow is installed (several times faster on millions of
    rows), else Python's ``repr``; both give numbers that read back exactly.
    """
    arrays = {name: np.asarray(v) for name, v in columns.items()}
    arrays = {k: v.astype(np.int64) if v.dtype == bool else v for k, v in arrays.items()}
    header = ",".join(arrays) + "\n"
    try:
        import pyarrow as pa
        import pyarrow.csv as pacsv
    except ImportError:
        texts = [_column_text(v) for v in arrays.values()]
        return header + "".join(line + "\n" for line in map(",".join, zip(*texts, strict=True)))
    buf = io.BytesIO()
    table = pa.table({f"c{i}": v for i, v in enumerate(arrays.values())})
    pacsv.write_csv(table, buf, pacsv.WriteOptions(include_header=False))
    return header + buf.getvalue().decode("ascii")


def figure_png(fig: Any, *, dpi: int = 110) -> bytes:
    """PNG bytes of a matplotlib Figure."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi)
    return buf.getvalue()


def check_writable(out_dir: str, what: str = "the report") -> None:
    """Fail early (before any computing) when ``out_dir`` cannot be written."""
    out_dir = os.path.abspath(out_dir)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise OutputError(f"cannot write {what} to {out_dir}: it exists and is not a directory")
    shutil.rmtree(_staging_dir(out_dir, what), ignore_errors=True)
    if os.path.isdir(out_dir) and not os.access(out_dir, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write {what} to {out_dir}: permission denied")


#: A file's content for :func:`write_tree`: text, bytes, or a function writing to a binary file
#: (so that large files stream to disk instead of being built in memory first).
Content = str | bytes | Callable[[BinaryIO], object]


def write_tree(
    out_dir: str, files: Mapping[str, Content], *, what: str = "the report"
) -> dict[str, str]:
    """Write ``files`` (relative path → content) into ``out_dir`` atomically.

    Everything is written into a temporary directory beside ``out_dir`` first; only when every
    file is complete are they moved into place.  Top-level files replace files of the same name;
    a top-level directory (e.g. ``curves/``) replaces the old one as a whole.  Other files already
    in ``out_dir`` are left alone.  On error nothing is left behind and an :class:`OutputError`
    is raised.  Returns relative path → absolute path.
    """
    out_dir = os.path.abspath(out_dir)
    if os.path.exists(out_dir) and not os.path.isdir(out_dir):
        raise OutputError(f"cannot write {what} to {out_dir}: it exists and is not a directory")
    staging = _staging_dir(out_dir, what)
    try:
        for rel, content in files.items():
            path = os.path.join(staging, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            if callable(content):
                with open(path, "wb") as fb:
                    content(fb)
            elif isinstance(content, bytes):
                with open(path, "wb") as fb:
                    fb.write(content)
            else:
                with open(path, "w", encoding="utf-8", newline="\n") as ft:
                    ft.write(content)
        _move_into_place(staging, out_dir)
    except OSError as exc:
        where = (
            f" ({exc.filename})" if exc.filename and exc.filename not in str(exc.strerror) else ""
        )
        raise OutputError(
            f"cannot write {what} to {out_dir}: {exc.strerror or exc}{where}"
        ) from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return {rel: os.path.join(out_dir, rel) for rel in files}


def _staging_dir(out_dir: str, what: str) -> str:
    """A fresh temporary directory in the nearest existing ancestor of ``out_dir``."""
    parent = os.path.dirname(out_dir)
    while parent and not os.path.isdir(parent):
        up = os.path.dirname(parent)
        if up == parent:
            break
        parent = up
    try:
        return tempfile.mkdtemp(prefix=".prcurve-", dir=parent)
    except OSError as exc:
        raise OutputError(
            f"cannot write {what} to {out_dir}: {exc.strerror or exc} ({parent})"
        ) from None


def _move_into_place(staging: str, out_dir: str) -> None:
    """Move the staged entries into ``out_dir``, all or nothing.

    A report entry may replace an older one of the same kind (file or directory); anything else
    in its place is an error found before moving anything.  If a move still fails, the entries
    already moved are taken out again and the older ones restored.
    """
    entries = sorted(os.listdir(staging))
    for entry in entries:
        src, dst = os.path.join(staging, entry), os.path.join(out_dir, entry)
        if os.path.lexists(dst) and os.path.isdir(dst) != os.path.isdir(src):
            kind = "a directory" if os.path.isdir(dst) else "a file"
            raise OSError(errno.EEXIST, f"{dst} exists and is {kind}", dst)
    created = not os.path.isdir(out_dir)
    os.makedirs(out_dir, exist_ok=True)
    backup = tempfile.mkdtemp(prefix=".prcurve-old-", dir=out_dir)
    moved: list[tuple[str, str | None, bool]] = []  # (destination, saved older entry, placed)
    try:
        for entry in entries:
            src, dst = os.path.join(staging, entry), os.path.join(out_dir, entry)
            saved = None
            if os.path.lexists(dst):
                saved = os.path.join(backup, entry)
                os.replace(dst, saved)
            moved.append((dst, saved, False))
            os.replace(src, dst)
            moved[-1] = (dst, saved, True)
    except OSError:
        for dst, saved, placed in reversed(moved):
            if placed:
                _remove(dst)
            if saved is not None:
                os.replace(saved, dst)
        shutil.rmtree(backup, ignore_errors=True)
        if created:
            shutil.rmtree(out_dir, ignore_errors=True)
        raise
    shutil.rmtree(backup, ignore_errors=True)


def _remove(path: str) -> None:
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)
