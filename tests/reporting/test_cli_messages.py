"""The command's own words (issue 23), through the real entry point ``python -m prcurve``:
``--help`` as printed, usage errors of two lines, the file's columns when one is missing,
and counts with the right plural."""

from __future__ import annotations

import gzip
import os
import subprocess
import sys

import pytest

from prcurve._reporting.input._io import InputError, positive_class
from prcurve._reporting.input._multi_input import MultiInput, binary_labels
from prcurve._reporting.input._numbers import NUMBER
from prcurve._reporting.render._reading import band_note


def run(*args: str, cwd=None) -> subprocess.CompletedProcess:
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run(
        [sys.executable, "-m", "prcurve", *args],
        capture_output=True, text=True, env=env, timeout=300, cwd=cwd, stdin=subprocess.DEVNULL,
    )  # fmt: skip


def test_report_help_shows_escapes_not_line_break_characters():
    proc = run("report", "--help")
    assert proc.returncode == 0 and proc.stderr == ""
    assert "\r" not in proc.stdout
    line = "  line ends    \\n, \\r\\n and \\r, mixed freely; empty lines are skipped\n"
    assert line in proc.stdout


def test_report_help_states_the_number_grammar_the_reader_uses():
    """The examples --help gives are numbers to the reader, its counter-examples are not."""
    help_text = run("report", "--help").stdout
    grammar = "numbers      ASCII: [+-] digits [. digits] [e [+-] digits] (also .5 and 5.; E for e)"
    assert grammar in help_text
    for good in ("0.25", "-3", "1e-05", ".5", "5.", "inf", "nan"):
        assert good in help_text and NUMBER.fullmatch(good), good
    for bad in ("1_000", "1,000"):
        assert bad in help_text and not NUMBER.fullmatch(bad), bad


@pytest.mark.parametrize(
    ("args", "prog", "line"),
    [
        (["report", "--level", "1.5"], "prcurve report",
         "argument --level: expected a number in (0, 1), got 1.5"),
        (["report", "x.csv", "--label", "y", "--score", "s", "--bogus"], "prcurve report",
         "unrecognized arguments: --bogus"),
        (["simulate", "--case", "A"], "prcurve simulate",
         "the following arguments are required: --n"),
        (["report", "x.csv", "--fold", "f"], "prcurve report",
         "--score-prefix, --multiclass and --fold need FILE and --label COL"),
        ([], "prcurve", "the following arguments are required: COMMAND"),
    ],
)  # fmt: skip
def test_a_usage_error_is_the_fix_then_where_to_read_more(args, prog, line):
    proc = run(*args)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.splitlines() == [f"{prog}: error: {line}", f"Run '{prog} --help' for usage."]


@pytest.mark.parametrize(
    ("given", "need"),
    [
        (["--score", "a"], "--label COL is"),
        (["--label", "y"], "--score COL is"),
        ([], "--label COL and --score COL are"),
    ],
)
@pytest.mark.parametrize("packed", [False, True])
def test_a_missing_label_or_score_lists_the_files_columns(tmp_path, given, need, packed):
    text = "id,y,a,b\n1,1,0.5,0.2\n2,0,0.1,0.3\n"
    name = "scores.csv.gz" if packed else "scores.csv"
    (tmp_path / name).write_bytes(gzip.compress(text.encode()) if packed else text.encode())
    proc = run("report", name, *given, cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        f"prcurve report: error: {need} required with FILE; {name} has the columns 'id', 'y', "
        "'a', 'b'",
        "Run 'prcurve report --help' for usage.",
    ]


def test_a_missing_label_on_parquet_lists_its_columns_and_on_stdin_it_cannot(tmp_path):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table({"label": [0, 1], "score": [0.1, 0.9]}), tmp_path / "s.parquet")
    proc = run("report", "s.parquet", "--score", "score", cwd=tmp_path)
    assert proc.stderr.splitlines()[0] == (
        "prcurve report: error: --label COL is required with FILE; s.parquet has the columns "
        "'label', 'score'"
    )
    proc = run("report", "-", "--score", "score")  # stdin is not read for a usage error
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == "prcurve report: error: --label COL is required with FILE"


def test_a_long_list_of_columns_is_cut_short(tmp_path):
    names = [f"c{i}" for i in range(30)]
    (tmp_path / "wide.csv").write_text(",".join(["y", *names]) + "\n" + "0," * 30 + "1\n")
    proc = run("report", "wide.csv", "--label", "y", "--score", "s", cwd=tmp_path)
    shown = ", ".join(repr(c) for c in ["y", *names[:19]])
    assert proc.returncode == 1
    assert proc.stderr == (
        f"prcurve: error: wide.csv: no column 's'; the columns are {shown} and 11 more (split at "
        "comma, detected from the header line; pass --sep to choose)\n"
    )


def test_counts_of_one_are_singular(tmp_path):
    (tmp_path / "one.csv").write_text("y,s\n1,0.5\n0\n")
    proc = run("report", "one.csv", "--label", "y", "--score", "s", cwd=tmp_path)
    assert proc.stderr == (
        "prcurve: error: one.csv: line 3 has 1 field, the header has 2 (split at comma)\n"
    )
    with pytest.raises(InputError, match=r"^x: column 'y' has 1 distinct label, expected two "
                       r"classes; found '1' \(1 row\)$"):  # fmt: skip
        positive_class(["1"], [1], "y", "x", None)
    with pytest.raises(InputError, match=r"found 'a' \(1 row\), 'b' \(1,234 rows\); pass"):
        positive_class(["a", "b"], [1, 1234], "y", "x", None)
    data = MultiInput("x", __import__("numpy").array(["a", "a"]), {}, None)
    with pytest.raises(InputError, match=r"^x: column 'y' has 1 distinct label, expected two"):
        binary_labels(data, "y", None)
    note = band_note({"radius": 0.4}, 1)
    assert note is not None and "with only 1 positive the PR curve" in note
    assert "with only 2 positives the PR curve" in (band_note({"radius": 0.4}, 2) or "")
