"""The ``prcurve`` command through its real entry points: exit codes, messages, no leftovers."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_array_equal

from prcurve import auc_pr
from prcurve.cli import main

EXAMPLE_SCORES = ("logistic_regression", "naive_bayes", "decision_tree")


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    """``python -m prcurve ARGS`` in a subprocess."""
    env = dict(os.environ, MPLBACKEND="Agg")
    return subprocess.run(
        [sys.executable, "-m", "prcurve", *args],
        capture_output=True,
        text=True,
        input=stdin,
        env=env,
        timeout=300,
    )


@pytest.fixture
def csv_file(tmp_path):
    rng = np.random.default_rng(3)
    n = 300
    y = (rng.random(n) < 0.2).astype(int)
    a = rng.normal(size=n) + 1.5 * y
    b = rng.normal(size=n) + 0.5 * y
    path = tmp_path / "scores.csv"
    rows = zip(y.tolist(), a.tolist(), b.tolist(), strict=True)
    lines = ["id,y,a,b"] + [f"{i},{yi},{ai!r},{bi!r}" for i, (yi, ai, bi) in enumerate(rows)]
    path.write_text("\n".join(lines) + "\n")
    return path, y, a, b


def no_partial_output(parent, out_name: str) -> bool:
    """Neither the report directory nor a staging directory exists."""
    names = os.listdir(parent)
    return out_name not in names and not any(n.startswith(".prcurve-") for n in names)


def test_help_reads_well(capsys):
    proc = run("--help")
    assert proc.returncode == 0
    assert "prcurve report" in proc.stdout and "COMMAND --help" in proc.stdout
    assert main(["report", "--help"]) == 0
    out = capsys.readouterr().out
    for option in ("--label COL", "--score COL", "--out DIR", "--seed", "--quiet", "--level"):
        assert option in out
    assert "built-in example" in out


def test_report_on_the_builtin_example_by_default(tmp_path):
    out = tmp_path / "rep"
    proc = run("report", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == f"Report written to {out / 'report.html'}"
    assert proc.stderr == ""  # stderr is not a TTY: no progress bar
    data = json.loads((out / "summary.json").read_text())
    assert list(data["scorers"]) == list(EXAMPLE_SCORES)
    assert data["data"] == {"n": 1677, "n_pos": 60, "n_neg": 1617, "prevalence": 60 / 1677}
    assert (out / "report.html").stat().st_size > 50_000
    assert sorted(os.listdir(out / "curves")) == sorted(
        f"{s}{suffix}.csv" for s in EXAMPLE_SCORES for suffix in ("", "_achievable", "_band")
    )


def test_report_on_a_csv_file_quiet(tmp_path, csv_file, capsys):
    path, y, a, b = csv_file
    out = tmp_path / "out"
    code = main(["report", str(path), "--label", "y", "--score", "a", "--score", "b",
                 "--out", str(out), "--quiet"])  # fmt: skip
    assert code == 0
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""  # --quiet: nothing at all
    data = json.loads((out / "summary.json").read_text())
    assert data["scorers"]["a"]["auc_pr"]["average_precision"] == pytest.approx(auc_pr(y, a))
    assert data["scorers"]["b"]["auc_pr"]["davis_goadrich"] == pytest.approx(
        auc_pr(y, b, method="davis_goadrich")
    )


def test_stdin_csv(tmp_path, csv_file):
    path, y, a, _ = csv_file
    out = tmp_path / "o"
    proc = run("report", "-", "--label", "y", "--score", "a", "--out", str(out),
               stdin=path.read_text())  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    data = json.loads((out / "summary.json").read_text())
    assert data["settings"]["source"] == "<stdin>"
    assert data["scorers"]["a"]["auc_pr"]["average_precision"] == pytest.approx(auc_pr(y, a))


def test_parquet_input(tmp_path, csv_file):
    import pyarrow as pa
    import pyarrow.parquet as pq

    _, y, a, _ = csv_file
    path = tmp_path / "scores.parquet"
    pq.write_table(pa.table({"label": np.where(y == 1, "fraud", "ok"), "a": a}), path)
    out = tmp_path / "o"
    code = main(["report", str(path), "--label", "label", "--score", "a", "--pos-label",
                 "fraud", "--out", str(out), "--quiet"])  # fmt: skip
    assert code == 0
    data = json.loads((out / "summary.json").read_text())
    assert data["settings"]["positive_label"] == "fraud"
    assert data["scorers"]["a"]["auc_pr"]["average_precision"] == pytest.approx(auc_pr(y, a))


def test_parquet_without_pyarrow_is_a_clear_error(tmp_path, monkeypatch, capsys):
    path = tmp_path / "x.parquet"
    path.write_bytes(b"PAR1")
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)  # import fails
    out = tmp_path / "o"
    code = main(["report", str(path), "--label", "y", "--score", "s", "--out", str(out)])
    assert code == 1
    err = capsys.readouterr().err
    assert err.startswith("prcurve: error: ") and err.count("\n") == 1
    assert "reading Parquet needs pyarrow" in err and "pip install prcurve[parquet]" in err
    assert no_partial_output(tmp_path, "o")


def _write(tmp_path, text: str):
    path = tmp_path / "bad.csv"
    path.write_text(text)
    return path


BAD_INPUTS = [
    pytest.param("y,s\n", ["--score", "s"], r"no data rows after the header", id="no-rows"),
    pytest.param(
        "y,s\n1,0.5\n0,0.2\n",
        ["--score", "score"],
        r"no column 'score'; the columns are 'y', 's'",
        id="missing-column",
    ),
    pytest.param(
        "y,s\n1,0.5\n0,abc\n1,0.3\n",
        ["--score", "s"],
        r"column 's' has 'abc' at line 3; expected a number",
        id="non-numeric-score",
    ),
    pytest.param(
        "y,s\n1,0.5\n0,0.1\n1,nan\n0,nan\n",
        ["--score", "s"],
        r"column 's' has nan at line 4; expected a finite number \(2 non-finite values",
        id="nan-score",
    ),
    pytest.param(
        "y,s\n1,0.5\n0,\n1,0.3\n",
        ["--score", "s"],
        r"column 's' has an empty field at line 3; expected a number",
        id="empty-score",
    ),
    pytest.param(
        "y,s\n0,0.5\n1,0.1\n2,0.3\n",
        ["--score", "s"],
        r"column 'y' has 3 distinct labels, expected two classes; found '0' \(1 row\), "
        r"'1' \(1 row\), '2' \(1 row\)",
        id="three-classes",
    ),
    pytest.param(
        "y,s\n1,0.5\n1,0.1\n",
        ["--score", "s"],
        r"column 'y' has 1 distinct label, expected two classes; found '1' \(2 rows\)",
        id="one-class",
    ),
    pytest.param(
        "y,s\ncat,0.5\ndog,0.1\n",
        ["--score", "s"],
        r"cannot tell which label in column 'y' is positive; found 'cat' \(1 row\), 'dog' "
        r"\(1 row\); pass --pos-label",
        id="ambiguous-labels",
    ),
    pytest.param(
        "y,s\ncat,0.5\ndog,0.1\n",
        ["--score", "s", "--pos-label", "cow"],
        r"--pos-label 'cow' is not a label in column 'y'",
        id="bad-pos-label",
    ),
    pytest.param(
        "y,s\n1,0.5\n,0.1\n",
        ["--score", "s"],
        r"column 'y' has a missing label at line 3",
        id="missing-label",
    ),
    pytest.param(
        "y,s\n1,0.5\n0,0.1,7\n",
        ["--score", "s"],
        r"line 3 has 3 fields, the header has 2",
        id="ragged-row",
    ),
    pytest.param(
        "y,s,s\n1,0.5,1\n0,0.1,2\n",
        ["--score", "s"],
        r"column 's' appears 2 times in the header; expected unique column names",
        id="duplicate-column",
    ),
]


@pytest.mark.parametrize(("text", "args", "match"), BAD_INPUTS)
def test_bad_input_is_one_line_exit_1_and_no_output(tmp_path, capsys, text, args, match):
    import re

    path = _write(tmp_path, text)
    out = tmp_path / "report"
    code = main(["report", str(path), "--label", "y", *args, "--out", str(out)])
    err = capsys.readouterr().err
    assert code == 1
    assert err.startswith(f"prcurve: error: {path}: ")
    assert err.count("\n") == 1, err
    assert re.search(match, err), err
    assert no_partial_output(tmp_path, "report")


def test_missing_file(tmp_path):
    proc = run("report", str(tmp_path / "nope.csv"), "--label", "y", "--score", "s",
               "--out", str(tmp_path / "o"))  # fmt: skip
    assert proc.returncode == 1
    assert proc.stderr == f"prcurve: error: {tmp_path / 'nope.csv'}: no such file\n"
    assert no_partial_output(tmp_path, "o")


def test_bad_input_through_the_console_entry_point(tmp_path):
    path = _write(tmp_path, "y,s\n1,0.5\n0,oops\n")
    proc = run("report", str(path), "--label", "y", "--score", "s", "--out", str(tmp_path / "o"))
    assert proc.returncode == 1
    assert proc.stderr.splitlines() == [
        f"prcurve: error: {path}: column 's' has 'oops' at line 3; expected a number"
    ]
    assert proc.stdout == ""
    assert no_partial_output(tmp_path, "o")


def test_output_directory_that_is_a_file(tmp_path, csv_file, capsys):
    target = tmp_path / "taken"
    target.write_text("not a directory")
    code = main(["report", str(csv_file[0]), "--label", "y", "--score", "a", "--out", str(target)])
    assert code == 1
    err = capsys.readouterr().err
    expected = f"cannot write the report to {target}: it exists and is not a directory"
    assert err == f"prcurve: error: {expected}\n"
    assert target.read_text() == "not a directory"


@pytest.mark.parametrize("where", ["file-parent", "proc"])
def test_output_directory_that_cannot_be_written(tmp_path, csv_file, capsys, where):
    if where == "file-parent":
        (tmp_path / "plain").write_text("x")
        target = tmp_path / "plain" / "sub"
    else:
        target = "/proc/prcurve-report-test"  # not writable, even by root
    code = main(["report", str(csv_file[0]), "--label", "y", "--score", "a", "--out", str(target)])
    assert code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"prcurve: error: cannot write the report to {target}: ")
    assert err.count("\n") == 1
    assert not os.path.exists(target)


def test_existing_files_in_the_output_directory_are_kept(tmp_path, csv_file):
    out = tmp_path / "o"
    out.mkdir()
    (out / "notes.txt").write_text("mine")
    (out / "curves").mkdir()
    (out / "curves" / "stale.csv").write_text("old")
    assert main(["report", str(csv_file[0]), "--label", "y", "--score", "a", "--out", str(out),
                 "--quiet"]) == 0  # fmt: skip
    assert (out / "notes.txt").read_text() == "mine"
    assert (out / "curves" / "stale.csv").read_text() == "old"
    assert sorted(os.listdir(out / "curves")) == [
        "a.csv", "a_achievable.csv", "a_band.csv", "stale.csv"
    ]  # fmt: skip
    assert sorted(os.listdir(out)) == ["curves", "notes.txt", "report.html", "summary.json"]


@pytest.mark.parametrize(
    ("args", "prog", "match"),
    [
        ([], "prcurve", "the following arguments are required: COMMAND"),
        (["frobnicate"], "prcurve", "invalid choice: 'frobnicate'"),
        (["report", "x.csv"], "prcurve report",
         "--label COL and --score COL are required with FILE"),
        (["report", "--level", "1.5"], "prcurve report",
         r"argument --level: expected a number in \(0, 1\), got 1.5"),
        (["report", "--n-resamples", "0"], "prcurve report",
         "argument --n-resamples: expected an integer >= 1"),
        (["report", "--seed", "x"], "prcurve report",
         "argument --seed: expected a non-negative integer, got 'x'"),
        (["report", "--bogus"], "prcurve report", "unrecognized arguments: --bogus"),
        (["simulate", "--case", "Z"], "prcurve simulate", "argument --case: invalid choice: 'Z'"),
    ],
)  # fmt: skip
def test_usage_errors_exit_2(capsys, args, prog, match):
    """The line with the fix and where to read more; no usage block (issue 23)."""
    assert main(args) == 2
    first, second = capsys.readouterr().err.splitlines()
    assert first.startswith(f"{prog}: error: ") and re.search(match, first), first
    assert second == f"Run '{prog} --help' for usage."


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.startswith("prcurve 0.")


@settings(max_examples=40, deadline=None)
@given(
    rows=st.lists(
        st.tuples(
            st.booleans(),
            st.floats(allow_nan=False, allow_infinity=False, width=64),
            st.text(alphabet='ab, "', max_size=4),
        ),
        min_size=2,
        max_size=30,
    ).filter(lambda r: len({y for y, _, _ in r}) == 2)
)
def test_csv_round_trip_is_exact(rows):
    """Scores written with repr read back bit for bit, on the fast and the csv-module path."""
    import csv as csv_module

    from prcurve._reporting.input._io import read_labelled_scores

    for with_text in (False, True):
        buf = io.StringIO()
        writer = csv_module.writer(buf, lineterminator="\n")
        writer.writerow(["label", "score"] + (["note"] if with_text else []))
        for y, s, note in rows:
            writer.writerow([int(y), repr(s)] + ([note] if with_text else []))
        data = read_labelled_scores("-", "label", ["score"], stdin=io.StringIO(buf.getvalue()))
        assert_array_equal(data.y, [y for y, _, _ in rows])
        assert_array_equal(data.scores["score"], [s for _, s, _ in rows])


def test_report_entry_of_the_wrong_kind_is_an_error_before_anything_moves(
    tmp_path, csv_file, capsys
):
    out = tmp_path / "out"
    (out / "summary.json").mkdir(parents=True)
    path, *_ = csv_file
    code = main(["report", str(path), "--label", "y", "--score", "a", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err.strip()
    assert code == 1 and "\n" not in err
    assert re.search(r"summary\.json exists and is a directory", err)
    assert sorted(os.listdir(out)) == ["summary.json"]  # nothing moved in, nothing left over


def test_failed_move_restores_the_previous_report(tmp_path, csv_file, monkeypatch, capsys):
    """A move that fails half-way is undone: the older report is back, nothing new stays."""
    out = tmp_path / "out"
    path, *_ = csv_file
    args = ["report", str(path), "--label", "y", "--score", "a", "--out", str(out), "--quiet"]
    assert main(args) == 0
    before = {p: (out / p).read_bytes() for p in ("report.html", "summary.json")}
    real_replace = os.replace
    calls = {"n": 0}

    def flaky_replace(src, dst):
        calls["n"] += 1
        if calls["n"] == 4:  # after some entries of the new report are in place
            raise OSError(28, "No space left on device", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", flaky_replace)
    assert main([*args, "--seed", "5"]) == 1
    monkeypatch.setattr(os, "replace", real_replace)
    assert "No space left on device" in capsys.readouterr().err
    assert {p: (out / p).read_bytes() for p in before} == before
    assert not [n for n in os.listdir(out) if n.startswith(".prcurve-")]


def test_numeric_labels_written_differently_are_one_class(tmp_path, capsys):
    """'1' and '1.0' are one label even when the slow (quoted-field) reader is used."""
    path = tmp_path / "labels.csv"
    path.write_text('y,s,note\n1,0.9,"a, b"\n1.0,0.8,x\n0,0.2,y\n0.0,0.1,z\n')
    out = tmp_path / "out"
    code = main(["report", str(path), "--label", "y", "--score", "s", "--out", str(out),
                 "--quiet"])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["data"]["n_pos"] == 2 and summary["data"]["n_neg"] == 2


@pytest.mark.parametrize(
    ("flag", "value"), [("--scheduler", "sync"), ("--subsample", "5000"), ("--workdir", "w")]
)
def test_dask_only_option_on_the_memory_engine(tmp_path, csv_file, capsys, flag, value):
    """Refused in one line with ``--engine memory``; with ``--engine auto`` choosing memory,
    the run goes on and stderr says the option is not used (never silently dropped)."""
    out = tmp_path / "refused"
    args = ["report", str(csv_file[0]), "--label", "y", "--score", "a", flag, value]
    assert main([*args, "--engine", "memory", "--out", str(out), "--quiet"]) == 1
    engines = "--engine dask or --engine spark" if flag == "--subsample" else "--engine dask"
    assert capsys.readouterr().err == (
        f"prcurve: error: {flag}: used only by {engines}; drop it or use {engines}\n"
    )
    assert not out.exists()
    out = tmp_path / "noted"
    assert main([*args, "--out", str(out), "--n-resamples", "20"]) == 0
    err = capsys.readouterr().err
    assert f"prcurve: note: {flag} is not used: --engine auto reads this input in memory\n" in err
    assert (out / "report.html").exists()


def test_program_entry_runs_main_then_freezes_what_is_left(monkeypatch):
    """``prcurve.cli.run`` (the console script, ``python -m prcurve``) returns main's status and
    leaves every object frozen for the exit (no last full collections over them)."""
    import gc

    import prcurve.cli as cli

    calls = []
    monkeypatch.setattr(cli, "main", lambda: calls.append(gc.get_freeze_count()) or 3)
    gc.unfreeze()
    try:
        assert cli.run() == 3
        assert calls == [0]  # frozen after the command, not before it
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()  # this test process goes on collecting


def test_console_script_is_the_program_entry():
    from importlib.metadata import entry_points

    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "prcurve"]
    assert script.value == "prcurve.cli:run"
