"""Where a bad value is, when the Dask engine finds one: the memory engine's message.

The Dask engine reads the data as typed columns and sorts scores out of core; a value that is
not a number, not finite or a negative weight stops it with a library error naming a parameter
(``sample_weight: ...``) or a pandas dtype table.  Only then, :func:`first_problem` reads the
files again (CSV as text, so every value is judged by the grammar of :mod:`._numbers`),
partition by partition on Dask, and words the first problem as the memory engine does: the
file, the column, the value and its row (rows counted from 1 after the header, in each file).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from ._io import InputError, _score_column
from ._numbers import parse_numbers

__all__ = ["first_problem"]

_IN_TOTAL = re.compile(r" \(\d+ non-finite values? in total\)$")


def _first_bad(values: np.ndarray, weight: bool) -> int | None:
    """Index of the first value that is not a finite number (or a negative ``weight``)."""
    if values.dtype.kind in "iufb":
        s = values.astype(np.float64)
    else:
        s, bad = parse_numbers(values)
        if bad is not None:
            return bad
    wrong = ~np.isfinite(s) | ((s < 0) if weight else False)
    return int(np.flatnonzero(wrong)[0]) if wrong.any() else None


def _missing(values: np.ndarray) -> int | None:
    """Index of the first missing label (null, NaN or an empty field)."""
    gone = np.array([v is None or v != v or str(v).strip() == "" for v in values.tolist()])
    return int(np.flatnonzero(gone)[0]) if gone.any() else None


def _part_problems(
    part: Any, label: str, numbers: Sequence[str], weight: str | None
) -> tuple[int, dict[str, int]]:
    """Rows of one partition, and the first bad row of each column that has one."""
    found: dict[str, int] = {}
    i = _missing(part[label].to_numpy(dtype=object))
    if i is not None:
        found[label] = i
    for name in numbers:
        values = part[name].to_numpy()
        j = _first_bad(
            values if values.dtype.kind != "O" else values.astype(object), name == weight
        )
        if j is not None:
            found[name] = j
    return len(part), found


def _file_frame(path: str, columns: list[str], sep: str | None, encoding: str | None) -> Any:
    import dask.dataframe as dd

    if path.lower().endswith((".parquet", ".pq")):
        return dd.read_parquet(path, columns=columns)
    return dd.read_csv(path, blocksize="64MB", sep=sep or ",", encoding=encoding or "utf-8",
                       usecols=columns, dtype=str, keep_default_na=False)  # fmt: skip


def first_problem(
    files: Sequence[str], label: str, scores: Sequence[str], weight: str | None,
    sep: str | None = None, encoding: str | None = None,
) -> str | None:  # fmt: skip
    """The memory engine's message for the first bad label, score or weight, or None."""
    import dask

    numbers = [*scores, *([weight] if weight else [])]
    columns = list(dict.fromkeys([label, *numbers]))
    for path in files:
        frame = _file_frame(path, columns, sep, encoding)
        parts = frame.to_delayed()
        results = dask.compute(
            *[dask.delayed(_part_problems)(p, label, numbers, weight) for p in parts]
        )
        for name in columns:  # the memory engine's order: label, scores, weight
            offset = 0
            for k, (rows, found) in enumerate(results):
                if name in found:
                    return _message(parts[k].compute(), path, name, label, weight, offset)
                offset += rows
    return None


def _message(part: Any, source: str, name: str, label: str, weight: str | None, offset: int) -> str:
    """The memory engine's words for the problem in column ``name`` of one partition."""

    def locate(i: int) -> str:
        return f"row {offset + i + 1}"

    values = part[name].to_numpy()
    if name == label:
        i = _missing(values.astype(object))
        return f"{source}: column {label!r} has a missing label at {locate(int(i or 0))}"
    what = "weight" if name == weight else "number"
    try:
        w = _score_column(values.astype(object) if values.dtype.kind == "O" else values,
                          name, source, locate, what=what)  # fmt: skip
    except InputError as exc:  # its count of non-finite values is this partition's only
        return _IN_TOTAL.sub("", str(exc))
    i = int(np.flatnonzero(w < 0)[0])
    return f"{source}: column {name!r} has {float(w[i])!r} at {locate(i)}; expected a weight >= 0"
