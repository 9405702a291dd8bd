"""``--out DIR`` replaces only the report's own files and stages them where they go."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from prcurve._reporting.output._output import OutputError, write_tree
from prcurve.cli import main

from ._helpers import staging_leftovers


def _scores_csv(path, n=200, seed=3):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.normal(size=n) + y
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(
        "y,s\n" + "".join(f"{a},{b!r}\n" for a, b in zip(y.tolist(), s.tolist(), strict=True))
    )
    return path


def _report(out, src, *extra):
    return main(["report", str(src), "--label", "y", "--score", "s", "--out", str(out),
                 "--quiet", "--n-resamples", "50", *extra])  # fmt: skip


def test_the_input_file_inside_curves_survives_out_dot(tmp_path):
    """``prcurve report curves/scores.csv --out .`` through the real entry point."""
    src = _scores_csv(tmp_path / "curves" / "scores.csv")
    original = src.read_bytes()
    (tmp_path / "README.txt").write_text("mine")
    (tmp_path / "curves" / "s.csv.bak").write_text("mine too")
    args = ["report", "curves/scores.csv", "--label", "y", "--score", "s", "--out", "."]
    proc = subprocess.run(
        [sys.executable, "-m", "prcurve", *args, "--n-resamples", "50"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env=dict(os.environ, MPLBACKEND="Agg"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert src.read_bytes() == original
    assert (tmp_path / "README.txt").read_text() == "mine"
    assert (tmp_path / "curves" / "s.csv.bak").read_text() == "mine too"
    assert sorted(os.listdir(tmp_path / "curves")) == [
        "s.csv", "s.csv.bak", "s_achievable.csv", "s_band.csv", "scores.csv"
    ]  # fmt: skip
    assert staging_leftovers(tmp_path) == []
    # a second run replaces the report's files and still keeps the others
    proc = subprocess.run(
        [sys.executable, "-m", "prcurve", *args, "--seed", "4", "--n-resamples", "50"],
        cwd=tmp_path, capture_output=True, text=True, timeout=300,
        env=dict(os.environ, MPLBACKEND="Agg"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert json.loads((tmp_path / "summary.json").read_text())["settings"]["seed"] == 4
    assert src.read_bytes() == original and staging_leftovers(tmp_path) == []


def test_write_tree_keeps_foreign_files_and_modes(tmp_path):
    out = tmp_path / "o"
    (out / "d").mkdir(parents=True)
    (out / "d" / "theirs.csv").write_text("t")
    (out / "mine.txt").write_text("m")
    written = write_tree(str(out), {"a.txt": "1", "d/b.csv": "x\n", "e/f/g.bin": b"\x00"})
    assert written["e/f/g.bin"] == str(out / "e" / "f" / "g.bin")
    assert (out / "d" / "theirs.csv").read_text() == "t" and (out / "mine.txt").read_text() == "m"
    assert (out / "e" / "f" / "g.bin").read_bytes() == b"\x00"
    umask = os.umask(0)
    os.umask(umask)
    assert (out / "a.txt").stat().st_mode & 0o777 == 0o666 & ~umask  # not mkstemp's 0600
    assert staging_leftovers(tmp_path) == []


def test_a_failure_removes_the_directories_it_made(tmp_path, monkeypatch):
    out = tmp_path / "o"
    real_replace = os.replace

    def failing(src, dst):
        if str(dst).endswith("z.txt"):
            raise OSError(errno.EIO, "Input/output error", str(dst))
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", failing)
    with pytest.raises(OutputError, match=r"cannot write the report to .*: Input/output error"):
        write_tree(str(out), {"a.txt": "1", "sub/deeper/z.txt": "2"})
    assert not out.exists()  # nothing left: not even the directories made for the report


def test_staging_never_crosses_a_directory(tmp_path, csv_rename_exdev):
    """Every rename stays within one directory, so no mount point is ever crossed."""
    out = tmp_path / "o"
    src = _scores_csv(tmp_path / "in.csv")
    assert _report(out, src) == 0
    assert _report(out, src, "--seed", "3") == 0  # replacing an older report, too
    assert json.loads((out / "summary.json").read_text())["settings"]["seed"] == 3
    assert csv_rename_exdev["renames"] > 0
    assert staging_leftovers(tmp_path) == []


@pytest.fixture
def csv_rename_exdev(monkeypatch):
    """``os.rename``/``os.replace`` that fail with EXDEV across directories (each directory as
    if it were a file system of its own, the worst case)."""
    state = {"renames": 0}
    real_replace, real_rename = os.replace, os.rename

    def guard(real):
        def move(src, dst, *args, **kwargs):
            if os.path.dirname(os.path.abspath(src)) != os.path.dirname(os.path.abspath(dst)):
                raise OSError(errno.EXDEV, "Invalid cross-device link", str(src), None, str(dst))
            state["renames"] += 1
            return real(src, dst, *args, **kwargs)

        return move

    monkeypatch.setattr(os, "replace", guard(real_replace))
    monkeypatch.setattr(os, "rename", guard(real_rename))
    return state


def _mount(*args: str) -> bool:
    if sys.platform != "linux":
        return False
    proc = subprocess.run(["mount", *args], capture_output=True, text=True)
    return proc.returncode == 0


@pytest.fixture
def read_only_parent(tmp_path):
    """``parent/out``: ``out`` a writable tmpfs inside a read-only tmpfs ``parent`` (a
    container volume in a read-only directory); read-only even for root.

    Where mounting is not allowed, the same situation is simulated: every change to the
    parent is refused by an audit hook, as a read-only file system would refuse it.
    """
    parent = tmp_path / "parent"
    parent.mkdir()
    out = parent / "out"
    mounted: list[str] = []
    if _mount("-t", "tmpfs", "-o", "size=64m", "tmpfs", str(parent)):
        mounted.append(str(parent))
        out.mkdir()
        if _mount("-t", "tmpfs", "-o", "size=64m", "tmpfs", str(out)):
            mounted.append(str(out))
            if _mount("-o", "remount,ro", str(parent)):
                yield parent, out, "mounted"
                for m in reversed(mounted):
                    subprocess.run(["umount", "-l", m], check=False)
                return
        for m in reversed(mounted):
            subprocess.run(["umount", "-l", m], check=False)
    out.mkdir(exist_ok=True)
    yield parent, out, _refuse_changes_in(parent)
    _REFUSED.clear()


_REFUSED: list[str] = []
_WRITE_EVENTS = {"os.mkdir", "os.rename", "os.remove", "os.rmdir", "os.symlink", "os.link"}


def _refuse_changes_in(parent) -> str:
    """Install (once per process) an audit hook refusing file changes directly in ``parent``."""
    if not _REFUSED:
        sys.addaudithook(_audit)
    _REFUSED[:] = [str(parent)]
    return "simulated"


def _audit(event: str, args: tuple) -> None:
    if not _REFUSED:
        return
    paths: list = []
    if event == "open" and args[1] is not None and any(c in str(args[1]) for c in "wxa+"):
        paths = [args[0]]
    elif event in _WRITE_EVENTS:
        paths = [a for a in args[:2] if isinstance(a, str | bytes | os.PathLike)]
    for p in paths:
        if isinstance(p, str) and os.path.dirname(os.path.abspath(p)) == _REFUSED[0]:
            raise OSError(errno.EROFS, "Read-only file system", p)


def test_out_in_a_read_only_parent_on_another_file_system(read_only_parent, tmp_path):
    parent, out, how = read_only_parent
    src = _scores_csv(tmp_path / "in.csv")
    if how == "mounted":  # the situation is real: the parent cannot be written, even by root
        with pytest.raises(OSError, match="Read-only file system"):
            (parent / "probe").write_text("x")
        assert os.stat(parent).st_dev != os.stat(out).st_dev
    assert _report(out, src) == 0
    assert _report(out, src, "--seed", "2") == 0
    assert sorted(os.listdir(out)) == ["curves", "report.html", "summary.json"]
    assert json.loads((out / "summary.json").read_text())["settings"]["seed"] == 2
    assert sorted(os.listdir(parent)) == ["out"]


def test_a_new_directory_in_a_read_only_place_is_a_clear_error(read_only_parent, tmp_path, capsys):
    parent, _, how = read_only_parent
    src = _scores_csv(tmp_path / "in.csv")
    assert _report(parent / "new", src) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"prcurve: error: cannot write the report to {parent / 'new'}: ")
    assert ("read-only file system" in err.lower()) or how == "simulated"
    assert err.count("\n") == 1
    assert sorted(os.listdir(parent)) == ["out"]


def test_ctrl_c_while_renaming_puts_the_older_report_back(tmp_path, monkeypatch):
    """A KeyboardInterrupt in the middle of the renames: old files back, nothing staged left."""
    out = tmp_path / "out"
    (out / "curves").mkdir(parents=True)
    (out / "summary.json").write_text("old summary")
    (out / "curves" / "a.csv").write_text("old a")
    real_replace, calls = os.replace, []

    def interrupted_replace(src, dst):
        calls.append(dst)
        if len(calls) == 4:  # after the first new file is in place
            raise KeyboardInterrupt
        real_replace(src, dst)

    monkeypatch.setattr(os, "replace", interrupted_replace)
    files = {"summary.json": "new", "curves/a.csv": "new a", "curves/b.csv": "new b"}
    with pytest.raises(KeyboardInterrupt):
        write_tree(str(out), files)
    monkeypatch.undo()
    assert (out / "summary.json").read_text() == "old summary"
    assert (out / "curves" / "a.csv").read_text() == "old a"
    assert sorted(os.listdir(out / "curves")) == ["a.csv"]
    assert staging_leftovers(tmp_path) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_exits_130_with_one_line_and_no_output(tmp_path, jobs):
    """SIGINT to the whole process group (as a terminal's Ctrl-C) during the bootstrap.

    The child imports prcurve (Python's own start-up, where a Ctrl-C is Python's business), says
    so, then runs the command's ``main`` exactly as the ``prcurve`` script does.
    """
    import signal
    import time

    out = tmp_path / "out"
    out.mkdir()
    (out / "summary.json").write_text("an older report")
    args = ["report", "--n-resamples", "50000", "--jobs", jobs, "--out", str(out)]
    code = (
        "import sys; import prcurve.cli; print('imported', flush=True); "
        f"sys.exit(prcurve.cli.main({args!r}))"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env=dict(os.environ, MPLBACKEND="Agg"), start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stdout.readline() == b"imported\n"
    started = time.monotonic()
    # wait until the bootstrap has begun: the worker processes exist (jobs 2), or 2 s (jobs 1)
    while time.monotonic() - started < 120 and proc.poll() is None:
        ps = ["ps", "-o", "pid=", "--ppid", str(proc.pid)]
        kids = subprocess.run(ps, capture_output=True, text=True).stdout.split()
        if len(kids) >= (2 if jobs == "2" else 0) and time.monotonic() - started > 2:
            break
        time.sleep(0.05)
    time.sleep(0.5)
    assert proc.poll() is None, proc.communicate()
    os.killpg(proc.pid, signal.SIGINT)
    sent = time.monotonic()
    _, err = proc.communicate(timeout=180)
    waited = time.monotonic() - sent
    assert (proc.returncode, err.decode()) == (130, "prcurve: interrupted\n")
    assert waited < 60, waited  # the workers are stopped, not waited for (a loaded machine)
    assert sorted(os.listdir(out)) == ["summary.json"]
    assert (out / "summary.json").read_text() == "an older report"
    assert staging_leftovers(tmp_path) == []
