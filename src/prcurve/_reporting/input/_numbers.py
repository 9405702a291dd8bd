"""The one grammar of numbers in input files: what a score, a weight or a numeric label may be.

Python's ``float`` (and NumPy's string casts) accept far more than anyone writes on purpose:
``1_000``, Arabic-Indic or full-width digits, a no-break space or any other Unicode space
around the value; NumPy's fixed-width strings also drop trailing NUL characters.  pyarrow's
reader accepts less.  The two CSV paths must read the same bytes to the same numbers or the
same error, so both follow this grammar, stated once here and in ``prcurve report --help``:

    [spaces or tabs] [+ or -] (digits [. [digits]] | . digits) [(e or E) [+ or -] digits]
    [spaces or tabs]

with ASCII digits only, or ``inf``, ``infinity`` or ``nan`` in any case and with an optional
sign (read, then refused where a finite number is needed).  Anything else is refused with a
message naming the character that is not part of a number.

pyarrow's float64 conversion (the fast path) accepts a subset of this grammar (it trims only
spaces and tabs and reads "nan" as missing, which sends the file to the ``csv`` module); a test
checks that every finite number it reads matches the grammar with the same value, so its
results need no second look.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

import numpy as np

__all__ = ["NUMBER", "is_number_text", "parse_numbers", "why_not_a_number"]

#: A number as the input files may write it (see the module docstring).
NUMBER = re.compile(
    r"[ \t]*[+-]?"
    r"(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?|(?i:inf|infinity|nan))"
    r"[ \t]*"
)

_ALLOWED = frozenset("0123456789+-.eE \tinfatyINFATY")


def is_number_text(text: str) -> bool:
    """Whether ``text`` is a number in the grammar."""
    return NUMBER.fullmatch(text) is not None


def parse_numbers(values: np.ndarray) -> tuple[np.ndarray, int | None]:
    """``values`` (text, or Python objects such as Parquet decimals) as float64.

    Returns the numbers and None, or a partial array and the index of the first value that is
    not a number in the grammar (text) or that ``float`` refuses (other objects).  Values are
    converted with Python's ``float``, which on the grammar's strings is exact (correctly
    rounded) and equal to pyarrow's conversion.
    """
    items: list[Any] = values.tolist()
    n = len(items)
    if values.dtype.kind == "U" and all(map(NUMBER.fullmatch, items)):  # the usual case
        return np.fromiter(map(float, items), dtype=np.float64, count=n), None
    out = np.empty(n, dtype=np.float64)
    for i, v in enumerate(items):
        if isinstance(v, str) and NUMBER.fullmatch(v) is None:
            return out, i
        try:
            out[i] = float(v)
        except (TypeError, ValueError):
            return out, i
    return out, None


def why_not_a_number(text: str) -> str:
    """A short reason why ``text`` is not a number, for the end of a message ("" if none).

    Names the first character that no number in the grammar holds (by its Unicode name when
    it is not printable ASCII), such as the ``_`` of ``1_000`` or the no-break space of
    ``"\\xa00.5"``; nothing for an ASCII letter (``abc`` is plainly not a number).
    """
    for pos, char in enumerate(text, start=1):
        if char not in _ALLOWED:
            if char.isascii() and char.isalpha():
                return ""
            if " " <= char <= "~":
                shown = repr(char)
            else:
                shown = f"U+{ord(char):04X} {unicodedata.name(char, 'control character')}"
            return f"character {pos}, {shown}, is not part of a number"
    return ""


def pandas_exact_floats(pandas_version: str) -> dict[str, str]:
    """``read_csv`` options that read every number to the nearest float64 on this pandas.

    pandas before 2.1 parsed decimals with a fast routine that could be one unit in the last
    place off (seen with pandas 2.0, the declared minimum with Dask), so there the round-trip
    parser is asked for; pandas 3 deprecates the option, its default being exact already.
    """
    major = int(pandas_version.split(".", 1)[0])
    return {"float_precision": "round_trip"} if major < 3 else {}
