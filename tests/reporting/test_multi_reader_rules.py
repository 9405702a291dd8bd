"""The multiclass and cross-validation reports read files by the binary report's rules
(number grammar, delimiter detection, compression by magic bytes, ``NA`` as a label, "line N"),
through the real entry point ``python -m prcurve``."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

CV = "y,s,f\n1,0.9,0\n0,0.1,0\n1,0.8,1\n0,0.3,1\n"
MULTI = "y,p_NA,p_b\nNA,0.9,0.1\nb,0.2,0.8\nNA,0.6,0.4\nb,0.3,0.7\nNA,0.4,0.5\nb,0.45,0.55\n"


def run(tmp_path, args, *, stdin=None):
    out = tmp_path / "out"
    resamples = [] if "--fold" in args else ["--n-resamples", "20"]
    proc = subprocess.run(
        [sys.executable, "-m", "prcurve", "report", *args, "--out", str(out), "--quiet",
         *resamples],
        input=stdin, capture_output=True, cwd=tmp_path, check=False,
    )  # fmt: skip
    return proc, out


def one_error(proc):
    err = proc.stderr.decode()
    assert proc.returncode == 1, err
    assert err.count("\n") == 1, err
    return err


def test_underscore_number_refused_with_the_binary_readers_reason(tmp_path):
    (tmp_path / "q.csv").write_text(CV + "0,1_000,1\n")
    proc, out = run(tmp_path, ["q.csv", "--label", "y", "--score", "s", "--fold", "f"])
    err = one_error(proc)
    assert "q.csv: column 's' has '1_000' at line 6; expected a number (character 2, '_'" in err
    assert not out.exists()


@pytest.mark.parametrize("sep", [";", "\t"])
def test_delimiter_detected_from_the_header(tmp_path, sep):
    (tmp_path / "q.csv").write_text(CV.replace(",", sep))
    proc, out = run(tmp_path, ["q.csv", "--label", "y", "--score", "s", "--fold", "f"])
    assert proc.returncode == 0, proc.stderr.decode()
    per_fold = json.loads((out / "summary.json").read_text())["scores"]["s"]["auc"]
    assert per_fold["average_precision"]["per_fold"] == pytest.approx([1.0, 1.0])


def test_gzip_by_magic_bytes_in_a_file_and_on_stdin(tmp_path):
    data = gzip.compress(MULTI.encode())
    (tmp_path / "m.data").write_bytes(data)
    args = ["--label", "y", "--score-prefix", "p_"]
    y = np.array([line.split(",")[0] for line in MULTI.splitlines()[1:]])
    s = np.array([[float(v) for v in line.split(",")[1:]] for line in MULTI.splitlines()[1:]])
    want = average_precision_score(y == "NA", s[:, 0])
    for file, stdin in (("m.data", None), ("-", data)):
        proc, out = run(tmp_path, [file, *args], stdin=stdin)
        assert proc.returncode == 0, proc.stderr.decode()
        summary = json.loads((out / "summary.json").read_text())
        got = summary["classes"]["NA"]["auc_pr"]["average_precision"]
        assert got == pytest.approx(want, rel=1e-12), summary["classes"]


def test_missing_label_named_by_line_and_na_is_a_label(tmp_path):
    (tmp_path / "q.csv").write_text(CV + "\n ,0.5,1\n")
    proc, _ = run(tmp_path, ["q.csv", "--label", "y", "--score", "s", "--fold", "f"])
    assert "q.csv: column 'y' has a missing label at line 7" in one_error(proc)


def test_cv_library_messages_name_columns_not_parameters(tmp_path):
    (tmp_path / "q.csv").write_text("y,s,f\n1,0.5,a\n1,0.2,a\n0,0.1,b\n1,0.7,b\n")
    proc, _ = run(tmp_path, ["q.csv", "--label", "y", "--score", "s", "--fold", "f"])
    err = one_error(proc)
    assert "scores in column 's': fold 'a': column 'y': expected both classes" in err
    assert "y_true" not in err


def test_multiclass_library_messages_name_columns_not_parameters(tmp_path):
    (tmp_path / "m.csv").write_text("y,p_a,p_b,w\na,0.5,0.1,1\nb,0.2,0.3,0\na,0.1,0.1,1\n")
    proc, _ = run(tmp_path, ["m.csv", "--label", "y", "--score-prefix", "p_", "--weight", "w"])
    err = one_error(proc)
    assert "m.csv: column 'y': class 'a' has no negative instance of positive weight" in err
    assert "y_true" not in err


def test_cv_page_names_the_fold_of_every_per_fold_value(tmp_path):
    import re

    rng = np.random.default_rng(4)
    n = 90
    y = rng.random(n) < 0.4
    s = rng.random(n) + 0.6 * y
    folds = np.array(["kA", "kB", "kC"])[np.arange(n) % 3]
    rows = [f"{int(a)},{b!r},{c}" for a, b, c in zip(y, s.tolist(), folds, strict=True)]
    (tmp_path / "cv.csv").write_text("y,s,f\n" + "\n".join(rows) + "\n")
    proc, out = run(tmp_path, ["cv.csv", "--label", "y", "--score", "s", "--fold", "f"])
    assert proc.returncode == 0, proc.stderr.decode()
    page = (out / "report.html").read_text()
    cells = re.findall(r"kA: ([0-9.]+), kB: ([0-9.]+), kC: ([0-9.]+)", page)
    assert cells, "no per-fold cell names its folds"
    want = [average_precision_score(y[folds == k], s[folds == k]) for k in ("kA", "kB", "kC")]
    shown = [float(v) for v in cells[0]]  # the first estimator's row: average precision
    assert shown == pytest.approx(want, abs=5e-5)  # printed with 4 decimals


def test_micro_curve_file_has_a_plain_key(tmp_path):
    (tmp_path / "m.csv").write_text(MULTI.replace("NA", "a"))
    proc, out = run(tmp_path, ["m.csv", "--label", "y", "--score-prefix", "p_"])
    assert proc.returncode == 0, proc.stderr.decode()
    scorers = json.loads((out / "summary.json").read_text())["curve_files"]["scorers"]
    assert list(scorers) == ["p_a", "p_b", "micro_average"]
    assert (out / scorers["micro_average"]["path"]).is_file()
