"""The command line's CSV reader: compression, text encoding, delimiter, quoting, line endings.

The rules, as ``prcurve report --help`` and docs/guide/report.md state them:

- **compression**: gzip, bzip2 and xz are recognised by their magic bytes, whatever the file's
  name and also on standard input; a ``.gz``/``.bz2``/``.xz`` name on other content is an error;
- **encoding**: UTF-8 (a byte-order mark is dropped; a UTF-16 byte-order mark is honoured) unless
  ``--encoding`` names another (e.g. ``latin-1``, ``cp1252``);
- **line endings**: ``\\n``, ``\\r\\n`` and ``\\r`` each end a line, mixed freely; empty lines
  are skipped;
- **delimiter**: ``--sep``, else the one of comma, semicolon and tab that splits the header line
  into the most fields (comma on a tie);
- **quoting**: double quotes as in RFC 4180: a quoted field may hold the delimiter, line breaks
  and doubled quotes (``""``); text after a closing quote or an unclosed quote is an error;
- **fields**: spaces and tabs around a value are ignored (also before an opening quote); every
  row has as many fields as the header (more or fewer is an error naming the line); a field may
  be of any length (the ``csv`` module's 128 KiB limit is lifted while it reads: pyarrow has
  none); columns not asked for are read but not used;
- **characters**: a NUL character anywhere is an error naming its line and place in the line
  (no text file holds one; a UTF-16 file read as UTF-8 is full of them);
- **numbers**: the grammar of :mod:`._numbers` (ASCII digits, a decimal point, an optional sign
  and exponent), the same on both paths.

Parsing uses pyarrow's CSV reader when pyarrow is installed and the file is plain (no quotes
after the header line: the fast path); Python's ``csv`` module otherwise, and always to report
a problem: every problem is one :class:`~._io.InputError` line naming the file, the line and
what is wrong.  Both give identical arrays (tested).
"""

from __future__ import annotations

import bz2
import codecs
import csv
import gzip
import io
import lzma
import re
import zlib
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._messages import plural

__all__ = [
    "DELIMITERS",
    "CsvColumns",
    "CsvError",
    "codec_name",
    "decode",
    "decompress",
    "read_csv_columns",
    "read_utf8_columns",
]

#: Delimiters found by detection, with the names messages use.
DELIMITERS = {",": "comma", ";": "semicolon", "\t": "tab"}

_MAGIC: dict[bytes, tuple[str, Callable[[bytes], bytes]]] = {
    b"\x1f\x8b": ("gzip", gzip.decompress),
    b"BZh": ("bzip2", bz2.decompress),
    b"\xfd7zXZ\x00": ("xz", lzma.decompress),
}
_SUFFIXES = {".gz": "gzip", ".gzip": "gzip", ".bz2": "bzip2", ".xz": "xz"}


class CsvError(ValueError):
    """A problem with CSV input (one-line message; turned into an ``InputError``)."""


@dataclass(frozen=True)
class CsvColumns:
    """The wanted columns of a CSV file.

    ``values`` maps each wanted column to an array (float64 when read by the fast path with a
    numeric type, else str); ``lines`` gives the line number of every row (None after the fast
    path, whose rows are re-read by the ``csv`` module when a message must name a line).
    """

    values: dict[str, np.ndarray]
    lines: np.ndarray | None
    delimiter: str


def decompress(data: bytes, source: str) -> tuple[bytes, str | None]:
    """Decompress gzip/bzip2/xz data recognised by its magic bytes; return (data, format)."""
    for magic, (name, unpack) in _MAGIC.items():
        if data.startswith(magic):
            try:
                return unpack(data), name
            except (OSError, EOFError, ValueError, lzma.LZMAError, zlib.error) as exc:
                reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                raise CsvError(
                    f"{source}: cannot decompress the {name} data ({reason}); "
                    "the file may be truncated or damaged"
                ) from None
    lower = source.lower()
    for suffix, name in _SUFFIXES.items():
        if lower.endswith(suffix):
            raise CsvError(
                f"{source}: the name ends in {suffix} but the content is not {name} data"
            )
    if data.startswith(b"PK\x03\x04"):
        raise CsvError(f"{source}: a zip archive, expected a CSV file; extract it first")
    return data, None


def codec_name(data: bytes, encoding: str | None) -> str:
    """The codec :func:`decode` uses: ``encoding`` (UTF-8 as ``utf-8-sig``, which drops a
    byte-order mark), or by default ``utf-16`` after a UTF-16 byte-order mark, else ``utf-8-sig``.
    """
    if encoding is None:
        return (
            "utf-16"
            if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
            else ("utf-8-sig")
        )
    name = codecs.lookup(encoding).name
    return "utf-8-sig" if name == "utf-8" else name


def decode(data: bytes, source: str, encoding: str | None) -> str:
    """Bytes to text in ``encoding`` (default UTF-8); a decoding error names the line."""
    name = codec_name(data, encoding)
    try:
        text = data.decode(name)
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + before.count(b"\r") - before.count(b"\r\n") + 1
        bad = data[exc.start : exc.start + 1].hex()
        shown = "UTF-8" if name == "utf-8-sig" else name
        raise CsvError(
            f"{source}: line {line} is not valid {shown} text (byte 0x{bad}); pass the file's "
            "encoding with --encoding, e.g. --encoding latin-1"
        ) from None
    text = text[1:] if text.startswith("\ufeff") else text
    nul = text.find("\x00")
    if nul != -1:
        raise CsvError(_nul_message(text, nul, source))
    return text


def _nul_message(text: str, pos: int, source: str) -> str:
    """Where the first NUL character of ``text`` is (line, and character in the line)."""
    before = text[:pos]
    line = before.count("\n") + before.count("\r") - before.count("\r\n") + 1
    column = pos - max(before.rfind("\n"), before.rfind("\r"))
    head = text[:1000]
    utf16 = head.count("\x00") * 4 >= len(head)  # every other character: UTF-16 read as UTF-8
    hint = "; a UTF-16 file without a byte-order mark? pass --encoding utf-16" if utf16 else ""
    return (
        f"{source}: line {line} has a NUL character (U+0000) at character {column}; expected "
        f"text without NUL characters{hint}"
    )


#: The ``csv`` module's field size limit while prcurve reads: the largest a C long holds on
#: every platform.  Its default, 128 KiB, refused fields that pyarrow reads.
FIELD_LIMIT = 2**31 - 1


@contextmanager
def _any_field_size() -> Iterator[None]:
    """Lift the ``csv`` module's (process-wide) field size limit, and restore it after."""
    old = csv.field_size_limit(FIELD_LIMIT)
    try:
        yield
    finally:
        csv.field_size_limit(old)


_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n|$)")
_NOT_NEWLINE = re.compile(r"[^\r\n]")


def _first_line(text: str, start: int = 0) -> str:
    match = _LINE.match(text, start)
    return match.group(0).rstrip("\r\n") if match else ""


def _head_lines(text: str) -> Any:
    """The lines of ``text`` with their endings, lazily (no copy of a large text)."""
    pos = 0
    while pos < len(text):
        match = _LINE.match(text, pos)
        assert match is not None  # the pattern matches at every position
        end = match.end() if match.end() > pos else len(text)
        yield text[pos:end]
        pos = end


def _choose_delimiter(text: str, sep: str | None) -> tuple[str, str]:
    """The delimiter and how it was chosen (for messages)."""
    if sep is not None:
        return sep, f"split at {DELIMITERS.get(sep, repr(sep))} as --sep says"
    first = _NOT_NEWLINE.search(text)
    line = _first_line(text, first.start() if first else 0)
    with _any_field_size():
        widths = {d: _width(line, d) for d in DELIMITERS}
    best = max(DELIMITERS, key=lambda d: widths[d])  # the first of equals: comma
    return best, f"split at {DELIMITERS[best]}, detected from the header line"


def _width(line: str, delimiter: str) -> int:
    """Fields of ``line`` split at ``delimiter`` (0 when the ``csv`` module cannot split it:
    the header is read again, and its problem reported, once the delimiter is chosen)."""
    try:
        return len(next(csv.reader([line], delimiter=delimiter), []))
    except csv.Error:
        return 0


def _reader(text: str, delimiter: str) -> Any:
    return csv.reader(
        io.StringIO(text, newline=""), delimiter=delimiter, strict=True, skipinitialspace=True
    )


def read_header(text: str, source: str, sep: str | None) -> tuple[list[str], str, str]:
    """Header fields (stripped), the delimiter, and how the delimiter was chosen."""
    if not text or text.isspace():
        raise CsvError(f"{source}: empty file, expected a CSV header line")
    delimiter, how = _choose_delimiter(text, sep)
    rows = csv.reader(_head_lines(text), delimiter=delimiter, strict=True, skipinitialspace=True)
    try:
        with _any_field_size():
            header = next(row for row in rows if row)
    except csv.Error as exc:
        raise CsvError(f"{source}: line {rows.line_num}: cannot read the header ({exc})") from None
    return [h.strip() for h in header], delimiter, how


def read_csv_columns(
    text: str,
    source: str,
    header: list[str],
    delimiter: str,
    wanted: Sequence[str],
    *,
    utf8: Any = None,
) -> CsvColumns:
    """The ``wanted`` columns (their names in ``header``) of CSV ``text``.

    ``utf8``, when given, is ``text`` as UTF-8 bytes (any buffer, e.g. the file's own bytes):
    the fast path parses it instead of encoding ``text`` again.
    """
    quoted = text.find('"', len(_first_line(text))) != -1
    fast = _read_fast(text, header, delimiter, wanted, utf8, quoted)
    if fast is not None:
        return CsvColumns(fast, None, delimiter)
    return read_csv_slow(text, source, header, delimiter, wanted)


#: Bytes of a UTF-8 file decoded for its header when it is read without decoding all of it.
HEAD_BYTES = 1 << 20


def read_utf8_columns(
    plain: bytes, bom: int, source: str, sep: str | None, wanted: Sequence[str],
    check: Callable[[list[str], str], None],
) -> tuple[CsvColumns, list[str]] | None:  # fmt: skip
    """The fast path without the file as one Python string (which costs as much memory as the
    file): ``plain`` is UTF-8 after ``bom`` bytes of byte-order mark.  Only the first
    :data:`HEAD_BYTES` are decoded (for the header); the rest is checked to be UTF-8 in pieces
    and handed to pyarrow as it is.  ``check(header, how)`` validates the header (raising).
    Returns the columns and the header, or None when the file is not plain or pyarrow is
    absent or objects: the caller then decodes the whole file and reads it as usual (so every
    message is the usual one).
    """
    cut = max(plain.rfind(b"\n", bom, bom + HEAD_BYTES), plain.rfind(b"\r", bom, bom + HEAD_BYTES))
    if cut < 0:
        return None
    try:
        head = plain[bom : cut + 1].decode("utf-8")
    except UnicodeDecodeError:
        return None
    if not head or head.isspace() or not _is_utf8(plain) or plain.find(b"\x00", bom) != -1:
        return None  # the whole text is decoded, and its problem reported, as usual
    header, delimiter, how = read_header(head, source, sep)
    check(header, how)
    first = _first_line(head)
    quoted = plain.find(b'"', bom + len(first.encode("utf-8"))) != -1
    fast = _read_fast(head, header, delimiter, wanted, memoryview(plain)[bom:], quoted)
    return None if fast is None else (CsvColumns(fast, None, delimiter), header)


def _is_utf8(data: bytes, piece: int = 1 << 24) -> bool:
    """Whether ``data`` is valid UTF-8, decoded piece by piece (no full-size string)."""
    if data.isascii():
        return True
    decoder = codecs.getincrementaldecoder("utf-8")()
    view = memoryview(data)
    try:
        for start in range(0, len(data), piece):
            decoder.decode(view[start : start + piece])
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def read_csv_slow(
    text: str, source: str, header: list[str], delimiter: str, wanted: Sequence[str]
) -> CsvColumns:
    """Read with the ``csv`` module, keeping every row's line number (for messages)."""
    with _any_field_size():
        return _read_rows(text, source, header, delimiter, wanted)


def _read_rows(
    text: str, source: str, header: list[str], delimiter: str, wanted: Sequence[str]
) -> CsvColumns:
    rows = _reader(text, delimiter)
    idx = [header.index(c) for c in wanted]
    width = len(header)
    cols: list[list[str]] = [[] for _ in wanted]
    lines: list[int] = []
    seen_header = False
    line_no = 0  # the line where the record being read starts
    try:
        while True:
            line_no = rows.line_num + 1
            row = next(rows, None)
            if row is None:
                break
            if not row:
                continue
            if not seen_header:
                seen_header = True
                continue
            if len(row) != width:
                raise CsvError(
                    f"{source}: line {line_no} has {plural(len(row), 'field')}, the header has "
                    f"{width} (split at {DELIMITERS.get(delimiter, repr(delimiter))})"
                )
            for col, i in zip(cols, idx, strict=True):
                col.append(row[i].strip(" \t"))  # only these: see _numbers
            lines.append(line_no)
    except csv.Error as exc:
        problem = str(exc)
        if "end of data" in problem:
            problem = "a quoted field starting on this line is not closed by the end of the file"
        raise CsvError(f"{source}: line {line_no}: {problem}") from None
    if not lines:
        raise CsvError(f"{source}: no data rows after the header")
    values = {name: np.array(col, dtype=str) for name, col in zip(wanted, cols, strict=True)}
    return CsvColumns(values, np.array(lines, dtype=np.int64), delimiter)


def _read_fast(
    text: str,
    header: list[str],
    delimiter: str,
    wanted: Sequence[str],
    utf8: Any,
    quoted_rows: bool,
) -> dict[str, np.ndarray] | None:
    """pyarrow's multi-threaded reader for a plain file; None when it is absent or objects.

    ``text`` holds at least the header line; ``quoted_rows`` says whether a double quote follows
    it; ``utf8`` is the whole file as UTF-8 (None: ``text`` is, and is encoded).

    Plain means: unique header names, no blank first line, and no double quote after the
    header line (quoting is left to the strict ``csv`` module).  The label column is read as
    text (as numbers when all are finite numbers) and the others as float64, so that the values
    are those the ``csv`` path would give; anything pyarrow rejects is read again by the ``csv``
    module.
    """
    if len(set(header)) != len(header) or text[:1] in ("\r", "\n"):
        return None
    if _first_line(text).count('"') % 2 or quoted_rows:
        return None  # quoted values: pyarrow is lenient ('"0"2' reads as 2.0), csv is strict
    try:
        import pyarrow as pa
        import pyarrow.csv as pacsv
    except ImportError:
        return None
    from ._lending import ArrowLoan

    label, *numeric = wanted
    # pyarrow's threads let go of the input before this returns (see ``_lending``)
    with ArrowLoan(text.encode("utf-8") if utf8 is None else utf8) as loan:
        # labels as numbers first (no Python or Arrow string per row); as text when they are not
        box = [_parse(pa, pacsv, loan.buffer(), header, delimiter, wanted, pa.float64())]
        labels = None
        if box[0] is not None and box[0].column(label).null_count == 0:
            labels = _float64_values(box, label)
        if labels is None or not np.isfinite(labels).all():
            box = [_parse(pa, pacsv, loan.buffer(), header, delimiter, wanted, pa.string())]
            if box[0] is None:
                return None
            labels = _label_values(box[0].column(label))
        return {label: labels, **{c: _float64_values(box, c) for c in numeric}}


def _parse(
    pa: Any, pacsv: Any, buffer: Any, header: list[str], delimiter: str,
    wanted: Sequence[str], label_type: Any,
) -> Any:  # fmt: skip
    """pyarrow's table of the wanted columns, or None when it rejects the data."""
    label, *numeric = wanted
    try:
        table = pacsv.read_csv(
            buffer,
            read_options=pacsv.ReadOptions(skip_rows=1, column_names=header),
            parse_options=pacsv.ParseOptions(delimiter=delimiter),
            convert_options=pacsv.ConvertOptions(
                include_columns=list(wanted),
                column_types={label: label_type, **dict.fromkeys(numeric, pa.float64())},
                strings_can_be_null=False,
            ),
        )
    except (pa.ArrowException, ValueError):
        return None
    if table.num_rows == 0 or any(table.column(c).null_count for c in numeric):
        return None
    return table


def _float64_values(box: list[Any], name: str) -> np.ndarray:
    """Column ``name`` (float64, no nulls) of the table in ``box`` as one NumPy array, copied
    straight from its buffers; the column is then dropped from the table, so its Arrow memory
    is freed before the next column is copied (the table is held only by ``box``).

    (``ChunkedArray.to_numpy`` gives the same values but leaves some 50 MB resident the first
    time it runs, measured with pyarrow 26.)
    """
    column = box[0].column(name)
    parts = [
        np.frombuffer(
            chunk.buffers()[1], dtype=np.float64, count=len(chunk), offset=8 * chunk.offset
        )
        for chunk in column.chunks
        if len(chunk)
    ]
    values = np.concatenate(parts) if parts else np.empty(0)
    del parts, column
    if name in box[0].column_names:
        box[0] = box[0].drop_columns([name])
    return values


def _label_values(column: Any) -> np.ndarray:
    """Labels that all read as finite numbers as float64 (as the ``csv`` path then takes them,
    without a Python string per row), else as text."""
    import pyarrow as pa
    import pyarrow.compute as pc

    try:
        numbers = pc.cast(column, pa.float64()).to_numpy()
    except (pa.ArrowException, ValueError):
        numbers = None
    if numbers is not None and np.isfinite(numbers).all():
        return np.asarray(numbers)
    return np.asarray(column.to_numpy(zero_copy_only=False).astype(str))
