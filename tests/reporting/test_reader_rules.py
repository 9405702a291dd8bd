"""The CSV reader's rules (issue 23): one number grammar, fields of any length, no NUL
characters, on every path: pyarrow's reader, pyarrow on a large file (not decoded whole) and the
``csv`` module (pyarrow hidden).  The same bytes give the same arrays or the same message."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal
from sklearn.metrics import average_precision_score

from prcurve._reporting.input import _csv, _io
from prcurve._reporting.input._csv import decode, read_csv_columns, read_header
from prcurve._reporting.input._io import InputError, read_labelled_scores
from prcurve._reporting.input._numbers import NUMBER

PATHS = ("pyarrow", "pyarrow-large", "csv")


def read(content: bytes, path: str, *, label="y", scores=("s",), weight=None):
    """``read_labelled_scores`` on stdin ``content`` on one reader path: its result or its
    message."""
    with pytest.MonkeyPatch.context() as mp:
        if path == "csv":
            mp.setitem(sys.modules, "pyarrow", None)  # import fails: the csv module reads
        if path == "pyarrow-large":  # only the head is decoded; pyarrow reads the bytes
            mp.setattr(_csv, "HEAD_BYTES", 8)
            mp.setattr(_io, "HEAD_BYTES", 8)
        try:
            return read_labelled_scores(
                "-", label, list(scores), stdin=io.BytesIO(content), weight=weight
            )
        except InputError as exc:
            return str(exc)


def read_all(content: bytes, **kwargs):
    return [read(content, path, **kwargs) for path in PATHS]


def the_same_message(content: bytes, **kwargs) -> str:
    messages = read_all(content, **kwargs)
    assert all(isinstance(m, str) for m in messages), messages
    assert messages[0] == messages[1] == messages[2], messages
    return messages[0]


def is_fast(content: bytes, scores=("s",)) -> bool:
    """Whether pyarrow's reader (not the csv module) reads the columns of ``content``."""
    text = decode(content, "x", None)
    header, delimiter, _ = read_header(text, "x", None)
    return read_csv_columns(text, "x", header, delimiter, ["y", *scores]).lines is None


# --- numbers ----------------------------------------------------------------------------------

NOT_NUMBERS = [
    ("1_000", "character 2, '_', is not part of a number"),
    ("\u0661\u0662", "character 1, U+0661 ARABIC-INDIC DIGIT ONE, is not part of a number"),
    ("\uff11", "character 1, U+FF11 FULLWIDTH DIGIT ONE, is not part of a number"),
    ("\xa00.5", "character 1, U+00A0 NO-BREAK SPACE, is not part of a number"),
    ("0.5\xa0", "character 4, U+00A0 NO-BREAK SPACE, is not part of a number"),
    ("0.5\u2000", "character 4, U+2000 EN QUAD, is not part of a number"),
    ("0.5\x0b", "character 4, U+000B control character, is not part of a number"),
    ("\u22121", "character 1, U+2212 MINUS SIGN, is not part of a number"),
    ("1.2.3", ""),
    ("0.5abc", ""),  # an ASCII letter: plainly not a number, nothing to add
    ("e5", ""),
]


@pytest.mark.parametrize(("value", "why"), NOT_NUMBERS)
def test_a_number_outside_the_grammar_is_the_same_error_on_every_path(value, why):
    """Python's float reads all of these (1000.0, 12.0, 1.0, 0.5, ...); the reader refuses
    them, naming the column, the line and the character, whichever path reads the file."""
    content = f"y,s\n1,0.9\n0,{value}\n1,0.3\n0,0.1\n".encode()
    expected = f"<stdin>: column 's' has {value!r} at line 3; expected a number"
    expected += f" ({why})" if why else ""
    assert the_same_message(content) == expected


def test_a_weight_outside_the_grammar_is_the_same_error_on_every_path():
    content = b"y,s,w\n1,0.9,1\n0,0.5,1_0\n"
    assert the_same_message(content, weight="w") == (
        "<stdin>: column 'w' has '1_0' at line 3; expected a weight (character 2, '_', is not "
        "part of a number)"
    )


def test_labels_outside_the_grammar_are_text_on_every_path():
    """A full-width 1 is not the number 1: the two labels are text, and neither is known."""
    content = "y,s\n0,0.9\n\uff11,0.5\n0,0.2\n\uff11,0.1\n".encode()
    assert the_same_message(content) == (
        "<stdin>: cannot tell which label in column 'y' is positive; found '0' (2 rows), "
        "'\uff11' (2 rows); pass --pos-label"
    )


GRAMMAR = ["+0.5", "5.", ".5", "-.5", "1E+05", "1e-5", "1.e3", "00.5", " 0.5 ", "\t-2\t", "-0",
           "7", "12345678901234567890", "2.5e-308", "0.10000000000000000555"]  # fmt: skip


@pytest.mark.parametrize("path", PATHS)
def test_numbers_in_the_grammar_read_exactly_on_every_path(path):
    scores = [*GRAMMAR, "0.25"]
    labels = [i % 2 for i in range(len(scores))]
    body = "".join(f"{y},{s}\n" for y, s in zip(labels, scores, strict=True))
    content = ("y,s\n" + body).encode()
    assert is_fast(content)  # pyarrow takes every one of them (no second look)
    got = read(content, path)
    assert not isinstance(got, str), got
    assert_array_equal(got.scores["s"], [float(s) for s in scores])  # correctly rounded
    assert_array_equal(got.y, np.array(labels, dtype=bool))


@pytest.mark.parametrize("value", ["inf", "-Infinity", "nan", "+NaN"])
def test_inf_and_nan_are_read_then_refused_as_scores(value):
    content = f"y,s\n1,0.9\n0,{value}\n".encode()
    shown = repr(float(value))
    assert the_same_message(content) == (
        f"<stdin>: column 's' has {shown} at line 3; expected a finite number (1 non-finite "
        "value in total)"
    )


TRICKY = "0123456789+-.eE_ \tinfatyINFATYx\xa0\u0661\uff11\u2212"


@settings(max_examples=120, deadline=None, derandomize=True)
@given(st.text(alphabet=TRICKY, min_size=0, max_size=8))
def test_any_field_reads_alike_on_every_path(value):
    """Whatever a score field holds, the three paths give the same numbers or message; what
    they read is exactly the grammar's numbers, with Python's correctly rounded value."""
    content = f"y,s\n1,0.9\n0,{value}\n1,0.3\n".encode()
    results = read_all(content)
    kinds = {type(r) for r in results}
    assert len(kinds) == 1, results
    if isinstance(results[0], str):
        assert results[0] == results[1] == results[2]
    else:
        assert NUMBER.fullmatch(value.strip(" \t")) is not None
        for r in results:
            assert_array_equal(r.scores["s"], [0.9, float(value), 0.3])


# --- characters and field sizes ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "where"),
    [
        (b"y,s\n1,0.9\n0,0.5\x00\n1,0.3\n", "line 3 has a NUL character (U+0000) at character 6"),
        (b"y,s,note\r\n1,0.9,a\x00b\r\n0,0.5,c\r\n", "line 2 has a NUL character (U+0000) at "
         "character 8"),
    ],
)  # fmt: skip
def test_a_nul_character_is_the_same_error_on_every_path(content, where):
    """Even in a column not asked for: NumPy's strings would drop a trailing NUL silently."""
    assert the_same_message(content) == (f"<stdin>: {where}; expected text without NUL characters")


def test_utf16_without_a_byte_order_mark_is_told_to_pass_the_encoding():
    content = "y,s\n1,0.9\n0,0.5\n".encode("utf-16-le")
    assert the_same_message(content).endswith(
        "expected text without NUL characters; a UTF-16 file without a byte-order mark? pass "
        "--encoding utf-16"
    )


@pytest.mark.parametrize("size", [140_000, 3 << 20])  # past the csv module's 128 KiB default
@pytest.mark.parametrize("where", ["header", "data"])
def test_fields_of_any_length_read_alike_on_every_path(size, where):
    """The csv module refused fields over 128 KiB that pyarrow read; now no path has a limit
    (and the csv module's own limit is left as it was)."""
    long = "n" * size
    name = long if where == "header" else "note"
    note = "short" if where == "header" else long
    content = f"y,s,{name}\n1,0.9,{note}\n0,0.5,x\n1,0.3,x\n0,0.7,x\n".encode()
    before = csv.field_size_limit()
    results = read_all(content)
    assert csv.field_size_limit() == before
    for r in results:
        assert not isinstance(r, str), r
        assert_array_equal(r.scores["s"], [0.9, 0.5, 0.3, 0.7])
        assert_array_equal(r.y, [True, False, True, False])


def test_a_header_field_over_128_kib_through_the_command(tmp_path):
    rng = np.random.default_rng(4)
    y = np.tile([0, 1], 30)
    s = np.round(rng.normal(size=y.size) + y, 6)
    rows = "".join(f"{a},{b!r},x\n" for a, b in zip(y.tolist(), s.tolist(), strict=True))
    path = tmp_path / "wide.csv"
    path.write_text("y,s," + "n" * 140_000 + "\n" + rows)
    out = tmp_path / "o"
    proc = subprocess.run(
        [sys.executable, "-m", "prcurve", "report", str(path), "--label", "y", "--score", "s",
         "--out", str(out), "--n-resamples", "20", "--quiet"],
        capture_output=True, text=True, env=dict(os.environ, MPLBACKEND="Agg"), timeout=300,
    )  # fmt: skip
    assert proc.returncode == 0 and proc.stderr == "", proc.stderr
    summary = __import__("json").loads((out / "summary.json").read_text())
    ap = summary["scorers"]["s"]["auc_pr"]["average_precision"]
    assert ap == pytest.approx(average_precision_score(y, s), rel=1e-12)


def test_a_bad_byte_is_reported_before_a_missing_column_on_every_path():
    """The large-file path checked the header before the bytes: another message than the
    other paths for the same file."""
    content = b"y,t\n1,0.5\n0,0.25\n1,0.\xff\n"
    assert the_same_message(content) == (
        "<stdin>: line 4 is not valid UTF-8 text (byte 0xff); pass the file's encoding with "
        "--encoding, e.g. --encoding latin-1"
    )
