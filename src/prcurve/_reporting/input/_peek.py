"""The column names of an input file, from its first lines only, for usage messages.

``prcurve report scores.csv`` without ``--label`` or ``--score`` is a usage error; the message
that fixes it lists the file's columns.  Reading them must not cost what reading the file does:
only the first :data:`~._csv.HEAD_BYTES` of a CSV file are read (decompressed as a stream) and
only the schema of a Parquet file.  When the columns cannot be had this way (standard input,
a missing or unreadable file, a header longer than that) the message goes without them: the
real reading reports the file's own problems once the options are right.
"""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
from collections.abc import Sequence
from typing import Any

from .._messages import column_list
from ._csv import HEAD_BYTES, CsvError, decode, read_header

__all__ = ["file_columns", "missing_options_message"]

_OPENERS: dict[bytes, Any] = {b"\x1f\x8b": gzip.open, b"BZh": bz2.open, b"\xfd7zXZ\x00": lzma.open}


def file_columns(path: str | None, *, sep: str | None, encoding: str | None) -> list[str] | None:
    """The column names of ``path`` (a CSV, compressed CSV or Parquet file, or the first
    Parquet file of a directory or glob), or None when they cannot be read cheaply."""
    from ._io import data_files, is_collection

    if path is None or path == "-":
        return None
    try:
        if is_collection(path):
            path = data_files(path)[0]
        if not os.path.isfile(path):
            return None
        with open(path, "rb") as f:
            magic = f.read(6)
        if magic.startswith(b"PAR1") or path.lower().endswith((".parquet", ".pq")):
            return _parquet_columns(path)
        opener = next((o for m, o in _OPENERS.items() if magic.startswith(m)), open)
        with opener(path, "rb") as f:
            head = f.read(HEAD_BYTES)
        return _csv_columns(head, path, sep, encoding)
    except Exception:  # any problem: the message goes without the columns (see above)
        return None


def _csv_columns(head: bytes, path: str, sep: str | None, encoding: str | None) -> list[str] | None:
    if len(head) == HEAD_BYTES:  # more follows: keep whole lines only
        cut = max(head.rfind(b"\n"), head.rfind(b"\r"))
        if cut < 0:
            return None
        head = head[: cut + 1]
    try:
        return read_header(decode(head, path, encoding), path, sep)[0]
    except CsvError:
        return None


def _parquet_columns(path: str) -> list[str] | None:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        return None
    return list(pq.read_schema(path).names)


def missing_options_message(
    path: str | None,
    label: str | None,
    scores: Sequence[str] | None,
    *,
    sep: str | None = None,
    encoding: str | None = None,
) -> str:
    """The usage error of a report on FILE without ``--label`` or ``--score``: what to add
    and, when they can be read, the file's columns to choose from."""
    need = [*(["--label COL"] if not label else []), *(["--score COL"] if not scores else [])]
    text = " and ".join(need) + (" is" if len(need) == 1 else " are") + " required with FILE"
    columns = file_columns(path, sep=sep, encoding=encoding)
    if columns:
        text += f"; {path} has the columns {column_list(columns)}"
    return text
