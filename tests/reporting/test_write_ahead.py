"""The curve files written while the workers resample (``_output.FilesAhead``): the same bytes
as written at the end, committed all or nothing, and removed (thread joined first) on any error
or Ctrl-C."""

from __future__ import annotations

import multiprocessing
import os
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

import prcurve._reporting.analysis._parallel as parallel_module
import prcurve._reporting.analysis._steps as steps_module
import prcurve._reporting.output._write as write_module
from prcurve._reporting.analysis._analysis import Settings, analyse
from prcurve._reporting.input._io import read_labelled_scores
from prcurve._reporting.output._output import AHEAD_THREAD, FilesAhead, OutputError, write_tree
from prcurve._reporting.output._write import write_report
from prcurve.cli import main

from ._helpers import staging_leftovers, two_scorer_csv


def _cli(src, out, *extra):
    args = ["--quiet", "--n-resamples", "40", "--seed", "7", *extra]
    return main(["report", str(src), "--label", "y", "--score", "a", "--score", "b",
                 "--out", str(out), *args])  # fmt: skip


def _ahead_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith(AHEAD_THREAD)]


def _tree(root) -> dict[str, bytes]:
    paths = [os.path.join(d, n) for d, _, names in os.walk(root) for n in names]
    return {os.path.relpath(p, root): Path(p).read_bytes() for p in paths}


@pytest.fixture
def parallel(monkeypatch):
    """Steps in two worker processes even on small data (the path where writing ahead pays)."""
    monkeypatch.setattr(parallel_module, "PARALLEL_MIN_SECONDS", 0.0)


@pytest.fixture
def staged_before_resampling_ends(monkeypatch):
    """Spy on the CLI's ``start_curve_files``: it waits until the files are staged, and records
    the hidden temporary files then in the output's ``curves`` folder."""
    seen: dict[str, list[str]] = {}
    real = write_module.start_curve_files

    def spy(ahead, curves, **kw):
        real(ahead, curves, **kw)
        ahead.wait([f"curves/{name}.csv" for name in curves])
        folder = os.path.join(ahead.out_dir, "curves")
        seen["staged"] = sorted(n.split("-", 2)[2] for n in os.listdir(folder) if n[0] == ".")
        seen["threads"] = [t.name for t in _ahead_threads()]
        seen["workers"] = len(multiprocessing.active_children())  # forked before any thread

    monkeypatch.setattr(write_module, "start_curve_files", spy)
    return seen


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_files_written_ahead_are_the_bytes_written_at_the_end(
    tmp_path, parallel, staged_before_resampling_ends, jobs
):
    src = two_scorer_csv(tmp_path / "in.csv")
    assert _cli(src, tmp_path / "ahead", "--jobs", jobs) == 0
    assert staged_before_resampling_ends["staged"] == ["a.csv", "b.csv"]
    assert staged_before_resampling_ends["threads"]  # written in the background thread
    assert staged_before_resampling_ends["workers"] == (2 if jobs == "2" else 0)
    assert _ahead_threads() == [] and staging_leftovers(tmp_path) == []
    # the old way: every file written by write_report at the end, nothing ahead
    data = read_labelled_scores(str(src), "y", ["a", "b"])
    settings = Settings(data.source, "y", ("a", "b"), data.positive_label, n_resamples=40, seed=7,
                        out=str(tmp_path / "end"))  # fmt: skip
    write_report(analyse(data, settings), str(tmp_path / "end"))
    ahead, end = _tree(tmp_path / "ahead"), _tree(tmp_path / "end")
    assert sorted(ahead) == sorted(end)
    for name in ahead:
        if name != "report.html":  # the page shows each step's seconds
            assert ahead[name] == end[name], name
    # and they hold the curve exactly (every value read back as written)
    curve = np.genfromtxt(tmp_path / "ahead" / "curves" / "a.csv", delimiter=",", names=True)
    pr = analyse(data, settings).scorers["a"].pr
    np.testing.assert_array_equal(curve["threshold"], pr.thresholds)
    np.testing.assert_array_equal(curve["precision"], pr.precision)
    np.testing.assert_array_equal(curve["fpr"], pr.to_roc().fpr)


def _older_report(out):
    (out / "curves").mkdir(parents=True)
    (out / "summary.json").write_text("older summary")
    (out / "curves" / "a.csv").write_text("older a")
    (out / "curves" / "theirs.csv").write_text("not the report's")
    (out / "mine.txt").write_text("mine")
    return _tree(out)


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_an_error_while_resampling_leaves_the_older_files_only(
    tmp_path, monkeypatch, parallel, staged_before_resampling_ends, jobs, error
):
    def failing_band(*args, **kwargs):
        raise error("while resampling")

    monkeypatch.setattr(steps_module, "_band_task", failing_band)
    src = two_scorer_csv(tmp_path / "in.csv")
    out = tmp_path / "out"
    before = _older_report(out)
    if error is KeyboardInterrupt:
        assert _cli(src, out, "--jobs", jobs) == 130
    else:
        with pytest.raises(RuntimeError, match="while resampling"):
            _cli(src, out, "--jobs", jobs)
    assert staged_before_resampling_ends["staged"] == ["a.csv", "b.csv"]
    assert _ahead_threads() == []  # joined
    assert _tree(out) == before and staging_leftovers(tmp_path) == []


def test_an_error_while_resampling_removes_the_folders_made_ahead(
    tmp_path, monkeypatch, staged_before_resampling_ends
):
    def failing_band(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(steps_module, "_band_task", failing_band)
    out = tmp_path / "new" / "report"
    assert _cli(two_scorer_csv(tmp_path / "in.csv"), out) == 130
    assert staged_before_resampling_ends["staged"] == ["a.csv", "b.csv"]
    assert sorted(os.listdir(tmp_path)) == ["in.csv"]


def test_a_file_where_the_curves_folder_goes_is_one_clear_error(tmp_path, capsys):
    out = tmp_path / "out"
    out.mkdir()
    (out / "curves").write_text("a file")
    assert _cli(two_scorer_csv(tmp_path / "in.csv"), out) == 1
    err = capsys.readouterr().err
    assert (
        err == f"prcurve: error: cannot write the report to {out}: {out / 'curves'} exists "
        "and is not a directory\n"
    )
    assert os.listdir(out) == ["curves"] and (out / "curves").read_text() == "a file"


def test_an_error_staging_ahead_is_raised_by_write_tree(tmp_path):
    out = tmp_path / "out"
    (out / "curves" / "a.csv").mkdir(parents=True)  # a directory where the file goes
    with FilesAhead(str(out)) as ahead:
        ahead.start("curves/a.csv", "x\n")
        ahead.start("curves/b.csv", "y\n")
        with pytest.raises(OutputError, match=r"cannot write the report to .*a\.csv exists and"):
            write_tree(str(out), {"summary.json": "{}", "curves/b.csv": "", "curves/a.csv": ""},
                       ahead=ahead)  # fmt: skip
        staged = staging_leftovers(out)  # b.csv's, until the block ends
        assert len(staged) == 1 and staged[0].endswith("-b.csv")
    assert sorted(os.listdir(out / "curves")) == ["a.csv"] and staging_leftovers(tmp_path) == []
    assert os.listdir(out) == ["curves"]


def test_a_failing_file_at_the_end_removes_the_files_staged_ahead(tmp_path):
    out = tmp_path / "out"

    def broken(f):
        raise RuntimeError("figure failed")

    with FilesAhead(str(out)) as ahead:
        ahead.start("curves/a.csv", b"a\n")
        with pytest.raises(RuntimeError, match="figure failed"):
            write_tree(str(out), {"report.html": broken, "curves/a.csv": b""}, ahead=ahead)
    assert not out.exists() and _ahead_threads() == []


def test_files_ahead_are_committed_with_the_rest(tmp_path):
    out = tmp_path / "out"
    before = _older_report(out)
    with FilesAhead(str(out)) as ahead:
        ahead.start("curves/a.csv", lambda f: f.write(b"new a\n"))
        ahead.start("curves/spare.csv", "staged but not in the report\n")
        written = write_tree(str(out), {"summary.json": "{}", "curves/a.csv": "not this"},
                             ahead=ahead)  # fmt: skip
    assert written["curves/a.csv"] == str(out / "curves" / "a.csv")
    after = _tree(out)
    assert after.pop(os.path.join("curves", "a.csv")) == b"new a\n"
    assert after.pop("summary.json") == b"{}"
    assert after == {k: v for k, v in before.items() if k not in ("summary.json", "curves/a.csv")}
    assert staging_leftovers(tmp_path) == [] and _ahead_threads() == []


def test_the_thread_is_joined_before_the_files_are_removed(tmp_path, monkeypatch):
    """A file still being written when the block ends (a Ctrl-C, also while joining) is
    stopped at its next write, a file not started is never written, the thread is joined, and
    then both are removed."""
    out = tmp_path / "out"
    release, started, finished = threading.Event(), threading.Event(), []

    def slow(f):
        started.set()
        release.wait(10)
        f.write(b"slow\n")  # the block has ended: WriteStopped
        finished.append(True)

    real_shutdown, calls = ThreadPoolExecutor.shutdown, []

    def interrupted_shutdown(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 1:  # the first join is interrupted by a second Ctrl-C
            threading.Timer(0.2, release.set).start()
            raise KeyboardInterrupt
        return real_shutdown(self, *args, **kwargs)

    monkeypatch.setattr(ThreadPoolExecutor, "shutdown", interrupted_shutdown)
    with pytest.raises(KeyboardInterrupt), FilesAhead(str(out)) as ahead:
        ahead.start("curves/a.csv", slow)
        ahead.start("curves/b.csv", "never\n")
        assert started.wait(10)  # being written when the block ends
        raise KeyboardInterrupt
    assert finished == [] and len(calls) == 2
    assert _ahead_threads() == [] and not out.exists()


def test_files_staged_for_another_folder_are_written_here(tmp_path):
    with FilesAhead(str(tmp_path / "elsewhere")) as ahead:
        ahead.start("a.csv", "staged elsewhere\n")
        write_tree(str(tmp_path / "out"), {"a.csv": "written here\n"}, ahead=ahead)
    assert (tmp_path / "out" / "a.csv").read_text() == "written here\n"
    assert sorted(os.listdir(tmp_path)) == ["out"]
