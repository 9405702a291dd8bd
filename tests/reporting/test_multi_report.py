"""``prcurve report --score-prefix`` / ``--multiclass`` (one-vs-rest) and ``--fold``
(cross-validation): the numbers written equal the library's, and bad input is one clear line."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest
from sklearn.metrics import average_precision_score

from prcurve import auc_pr, cv_pr_curves
from prcurve.cli import main


@pytest.fixture
def multiclass_csv(tmp_path):
    rng = np.random.default_rng(5)
    n, names = 240, ["cat", "dog", "eel"]
    y = rng.integers(0, 3, size=n)
    s = rng.normal(size=(n, 3)) + 1.3 * (y[:, None] == np.arange(3))
    fold = np.arange(n) % 4
    lines = ["animal,p_cat,p_dog,p_eel,fold,is_cat"]
    for i in range(n):
        lines.append(
            f"{names[y[i]]},{','.join(repr(v) for v in s[i].tolist())},f{fold[i]},{int(y[i] == 0)}"
        )
    path = tmp_path / "mc.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, np.array(names)[y], s, fold


def test_multiclass_report_numbers(multiclass_csv, tmp_path):
    path, y, s, _ = multiclass_csv
    out = tmp_path / "rep"
    args = [str(path), "--label", "animal", "--score-prefix", "p_", "--out", str(out)]
    assert main(["report", *args, "--quiet", "--n-resamples", "200"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["kind"] == "multiclass" and list(summary["classes"]) == ["cat", "dog", "eel"]
    onehot = (y[:, None] == np.array(["cat", "dog", "eel"])).astype(int)
    for average in ("macro", "weighted", "micro"):
        entry = summary["averages"][average]
        ref = average_precision_score(onehot, s, average=average)
        assert entry["average_precision"] == pytest.approx(ref, rel=1e-12)
        assert entry["interval"][0] < ref < entry["interval"][1]
        assert entry["davis_goadrich"] == pytest.approx(
            auc_pr(y, s, labels=["cat", "dog", "eel"], average=average, method="davis_goadrich")
        )
    assert summary["classes"]["dog"]["support"] == int(np.sum(y == "dog"))
    written = {"report.html", "pr_curves.png", "curves/p_cat.csv", "curves/micro_average.csv"}
    assert written <= set(summary["files"])
    assert (out / "pr_curves.png").read_bytes()[:4] == b"\x89PNG"
    page = (out / "report.html").read_text()
    assert "Averaged AUC-PR" in page and "eel" in page
    # the class columns listed with --multiclass (named by their class): the same numbers
    named = tmp_path / "named.csv"
    named.write_text(path.read_text().replace("p_cat,p_dog,p_eel", "cat,dog,eel", 1))
    out2 = tmp_path / "rep2"
    cols = ["--score", "cat", "--score", "dog", "--score", "eel"]
    code = main(["report", str(named), "--label", "animal", "--multiclass", *cols,
                 "--out", str(out2), "--quiet", "--n-resamples", "200"])  # fmt: skip
    assert code == 0
    other = json.loads((out2 / "summary.json").read_text())
    assert other["averages"] == summary["averages"]


def test_cv_report_numbers(multiclass_csv, tmp_path):
    path, y, s, fold = multiclass_csv
    out = tmp_path / "cv"
    args = [str(path), "--label", "is_cat", "--score", "p_cat", "--fold", "fold"]
    assert main(["report", *args, "--out", str(out), "--quiet", "--level", "0.9"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["kind"] == "cross_validation" and summary["settings"]["positive_label"] == "1"
    ref = cv_pr_curves(y == "cat", s[:, 0], fold, level=0.9)
    for method, fa in ref.auc.items():
        entry = summary["scores"]["p_cat"]["auc"][method]
        assert entry["per_fold"] == pytest.approx(fa.per_fold.tolist(), rel=1e-12)
        assert entry["interval"] == pytest.approx([fa.interval.low, fa.interval.high], rel=1e-12)
        assert entry["pooled"] == pytest.approx(fa.pooled, rel=1e-12)
    assert summary["scores"]["p_cat"]["folds"] == ["f0", "f1", "f2", "f3"]
    table = (out / "curves" / "p_cat_vertical_average.csv").read_text().splitlines()
    assert table[0] == "recall,mean_precision,std_precision,band_low,band_high"
    got = np.array([[float(v) for v in row.split(",")] for row in table[1:]])
    np.testing.assert_array_equal(got[:, 1], ref.mean_precision)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--label", "animal", "--score-prefix", "q_"], "no column starts with --score-prefix"),
        (["--label", "nope", "--score-prefix", "p_"], "no column 'nope'"),
        (["--label", "animal", "--score", "p_cat", "--fold", "fold"], "3 distinct labels"),
        (["--label", "is_cat", "--score", "animal", "--fold", "fold"],
         "column 'animal' has 'eel' at line 2; expected a number"),
        (["--label", "is_cat", "--score", "p_cat", "--fold", "fold", "--pos-label", "x"],
         "--pos-label 'x' is not a label"),
    ],
)  # fmt: skip
def test_bad_input_is_one_line(multiclass_csv, tmp_path, capsys, extra, message):
    path, *_ = multiclass_csv
    out = tmp_path / "bad"
    assert main(["report", str(path), *extra, "--out", str(out), "--quiet"]) == 1
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_class_without_score_column(tmp_path, capsys):
    path = tmp_path / "x.csv"
    path.write_text("y,p_a,p_b\na,0.1,0.9\nb,0.8,0.2\nc,0.5,0.5\na,0.7,0.1\nb,0.2,0.3\n")
    assert main(["report", str(path), "--label", "y", "--score-prefix", "p_", "--quiet",
                 "--out", str(tmp_path / "o")]) == 1  # fmt: skip
    assert "label 'c' without a score column" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--score-prefix", "p_"], "need FILE and --label"),
        (["FILE", "--label", "y", "--score-prefix", "p_", "--score", "a"], "not both"),
        (["FILE", "--label", "y", "--fold", "f"], "--score COL"),
    ],
)
def test_usage_errors(multiclass_csv, capsys, args, message):
    path, *_ = multiclass_csv
    args = [str(path) if a == "FILE" else a for a in args]
    assert main(["report", *args, "--quiet"]) == 2
    assert message in capsys.readouterr().err


def test_stdin(multiclass_csv, tmp_path):
    path, y, s, _ = multiclass_csv
    out = tmp_path / "stdin"
    args = ["-", "--label", "animal", "--score-prefix", "p_", "--out", str(out), "--quiet"]
    code = main(["report", *args, "--n-resamples", "50"], stdin=io.StringIO(path.read_text()))
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["averages"]["macro"]["average_precision"] == pytest.approx(
        auc_pr(y, s, labels=["cat", "dog", "eel"]), rel=1e-12
    )


def test_more_file_errors(tmp_path, capsys):
    def fails(text, *args, name="x.csv"):
        path = tmp_path / name
        if text is not None:
            path.write_text(text)
        out = tmp_path / "o"
        assert main(["report", str(path), *args, "--quiet", "--out", str(out)]) == 1
        assert not out.exists()
        err = capsys.readouterr().err
        assert err.count("\n") == 1
        return err

    fold = ["--label", "y", "--score", "s", "--fold", "f"]
    assert "no such file" in fails(None, *fold, name="missing.csv")
    assert "no data rows after the header" in fails("y,s,f\n", *fold)
    assert "line 2 has 2 fields, the header has 3" in fails("y,s,f\n1,2\n3,4,5,6,7\n", *fold)
    text = "y,s,f\n1,0.5,a\n,0.2,a\n0,0.1,b\n1,0.7,b\n"
    assert "column 'y' has a missing label at line 3" in fails(text, *fold)
    text = "y,s,f\n1,0.5,a\n0,inf,a\n0,0.1,b\n1,0.7,b\n"
    assert "column 's' has inf at line 3; expected a finite number" in fails(text, *fold)
    text = "y,s,f\ncat,0.5,a\ndog,0.2,a\ncat,0.1,b\ndog,0.7,b\n"
    assert "cannot tell which label in column 'y' is positive" in fails(text, *fold)
    assert "named twice" in fails(text, "--label", "y", "--score", "s", "--fold", "s")
    text = "y,s,f\n1,0.5,a\n1,0.2,a\n0,0.1,b\n1,0.7,b\n"
    assert "scores in column 's': fold 'a': column 'y': expected both classes" in fails(text, *fold)


def test_weight_and_separator_columns(tmp_path):
    from prcurve._reporting._cv_report import write_cv_report
    from prcurve._reporting._multi_report import MultiOptions, write_multiclass_report
    from prcurve._reporting.input._multi_input import read_multi_input

    rng = np.random.default_rng(9)
    n = 120
    y = rng.integers(0, 3, size=n)
    s = rng.normal(size=(n, 3)) + (y[:, None] == np.arange(3))
    w = rng.random(n) * 2
    fold = np.arange(n) % 3
    lines = ["y;p_a;p_b;p_c;f;w"] + [
        ";".join([str(y[i]), *map(repr, s[i].tolist()), str(fold[i]), repr(float(w[i]))])
        for i in range(n)
    ]
    path = tmp_path / "w.csv"
    path.write_text("\n".join(lines) + "\n")
    data = read_multi_input(str(path), "y", score_prefix="p_", weight="w", sep=";")
    np.testing.assert_array_equal(data.weight, w)
    write_multiclass_report(
        data, "y", str(tmp_path / "m"), class_names=["0", "1", "2"],
        options=MultiOptions(n_resamples=50),
    )  # fmt: skip
    summary = json.loads((tmp_path / "m" / "summary.json").read_text())
    assert summary["settings"]["sample_weight"] is True
    onehot = (y[:, None] == np.arange(3)).astype(int)
    ref = average_precision_score(onehot, s, average="macro", sample_weight=w)
    assert summary["averages"]["macro"]["average_precision"] == pytest.approx(ref, rel=1e-12)
    binary = read_multi_input(str(path), "y", scores=["p_a"], fold="f", weight="w", sep=";")
    binary = type(binary)(binary.source, np.where(y == 0, "1", "0"), binary.scores,
                          binary.folds, binary.weight)  # fmt: skip
    write_cv_report(binary, "y", "f", str(tmp_path / "c"))
    got = json.loads((tmp_path / "c" / "summary.json").read_text())["scores"]["p_a"]["auc"]
    want = cv_pr_curves(y == 0, s[:, 0], fold, sample_weight=w).auc["average_precision"]
    assert got["average_precision"]["per_fold"] == pytest.approx(want.per_fold.tolist())
    bad = tmp_path / "neg.csv"
    bad.write_text("y,p_a,p_b,w\n0,0.1,0.2,1\n1,0.3,0.1,-2\n")
    from prcurve._reporting.input._io import InputError

    with pytest.raises(InputError, match=r"column 'w' has -2\.0 at line 3; expected a weight >= 0"):
        read_multi_input(str(bad), "y", score_prefix="p_", weight="w")
