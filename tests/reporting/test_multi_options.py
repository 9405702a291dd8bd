"""Multiclass and cross-validation reports as first-class as the binary one (issue 24 item 4):
every report option works on both shapes (checked against scikit-learn and brute force) or is
refused in one line; ``--fold`` with ``--multiclass``; every file written is documented."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats
from sklearn.metrics import average_precision_score, precision_recall_curve

from prcurve.cli import main

from ._helpers import two_scorer_csv

NAMES = ["cat", "dog", "eel"]
DOC = Path(__file__).resolve().parents[2] / "docs" / "guide" / "report-files.md"


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    rng = np.random.default_rng(24)
    n = 1200
    y = rng.integers(0, 3, size=n)
    s = rng.normal(size=(n, 3)) + 1.3 * (y[:, None] == np.arange(3))
    w = rng.random(n) * 2
    fold = np.arange(n) % 4
    lines = ["animal,p_cat,p_dog,p_eel,fold,w,is_cat"]
    for i in range(n):
        cols = [NAMES[y[i]], *map(repr, s[i].tolist()), f"f{fold[i]}", repr(float(w[i]))]
        lines.append(",".join([*cols, str(int(y[i] == 0))]))
    path = tmp_path_factory.mktemp("multi") / "mc.csv"
    path.write_text("\n".join(lines) + "\n")
    return path, np.array(NAMES)[y], s, w, np.array([f"f{f}" for f in fold])


SHAPES = {
    "multiclass": ["--label", "animal", "--score-prefix", "p_", "--n-resamples", "50"],
    "folds": ["--label", "is_cat", "--score", "p_cat", "--score", "p_dog", "--fold", "fold"],
    "multiclass_folds": ["--label", "animal", "--score-prefix", "p_", "--fold", "fold"],
}


def _report(data, tmp_path, shape, *extra):
    out = tmp_path / shape
    assert main(["report", str(data[0]), *SHAPES[shape], *extra, "--out", str(out), "--quiet"]) == 0
    return out, json.loads((out / "summary.json").read_text())


def _problems(data, shape):
    """(name in summary, labels as booleans, scores) of each binary problem of a shape."""
    _, y, s, _, _ = data
    if shape == "folds":
        return [("p_cat", y == "cat", s[:, 0]), ("p_dog", y == "cat", s[:, 1])]
    return [(c, y == c, s[:, j]) for j, c in enumerate(NAMES)]


def _entries(summary, shape):
    return summary["scores" if shape == "folds" else "classes"]


def _best_recall(y, s, w, p_min):
    """Brute force: the highest recall among thresholds with precision >= p_min (None: none)."""
    precision, recall, _ = precision_recall_curve(y, s, sample_weight=w)
    ok = precision[:-1] >= p_min
    return float(recall[:-1][ok].max()) if ok.any() else None


def _t(values, level=0.95):
    v = np.asarray(values, dtype=float)
    half = stats.t.ppf((1 + level) / 2, v.size - 1) * v.std(ddof=1) / np.sqrt(v.size)
    return v.mean(), v.mean() - half, v.mean() + half


def test_fold_with_multiclass_brute_force(data, tmp_path):
    _, y, s, w, fold = data
    _, summary = _report(data, tmp_path, "multiclass_folds", "--weight", "w")
    assert summary["kind"] == "multiclass_cross_validation"
    ids = ["f0", "f1", "f2", "f3"]
    per_class = {}
    for j, cls in enumerate(NAMES):
        got = summary["classes"][cls]["auc"]["average_precision"]
        want = [
            average_precision_score(
                y[fold == f] == cls, s[fold == f, j], sample_weight=w[fold == f]
            )
            for f in ids
        ]
        np.testing.assert_allclose(got["per_fold"], want, rtol=1e-12)
        mean, low, high = _t(want)
        assert got["mean"] == pytest.approx(mean, rel=1e-12)
        assert got["interval"] == pytest.approx([low, high], rel=1e-12)
        pooled = average_precision_score(y == cls, s[:, j], sample_weight=w)
        assert got["pooled"] == pytest.approx(pooled, rel=1e-12)
        assert summary["classes"][cls]["support"] == int(np.sum(y == cls))
        per_class[cls] = want
    macro = np.mean(list(per_class.values()), axis=0)
    got = summary["macro"]["average_precision"]
    np.testing.assert_allclose(got["per_fold"], macro, rtol=1e-12)
    mean, low, high = _t(macro)
    assert got["mean"] == pytest.approx(mean, rel=1e-12)
    assert got["interval"] == pytest.approx([low, high], rel=1e-12)


@pytest.mark.parametrize("shape", ["multiclass", "folds", "multiclass_folds"])
def test_operating_points_and_prevalence(data, tmp_path, shape):
    _, y, _, w, fold = data
    pi = 0.02
    out, summary = _report(data, tmp_path, shape, "--min-precision", "0.6,0.97", "--min-recall",
                           "none", "--prevalence", "1/50", "--weight", "w")  # fmt: skip
    assert summary["settings"]["weight_column"] == "w" and summary["settings"]["prevalence"] == pi
    for name, yy, ss in _problems(data, shape):
        e = _entries(summary, shape)[name]
        assert [p["target"] for p in e["points"]] == [0.6, 0.97]

        def at_pi(m, yy=yy):  # the negatives reweighted to prevalence pi
            n_pos, n_neg = w[m][yy[m]].sum(), w[m][~yy[m]].sum()
            return np.where(yy[m], w[m], w[m] * n_pos * (1 - pi) / (pi * n_neg))

        if shape == "multiclass":
            m = np.ones(y.size, dtype=bool)
            p = e["points"][0]
            assert p["recall"] == pytest.approx(_best_recall(yy, ss, w, 0.6), rel=1e-12)
            assert p["precision"] >= 0.6
            ap = average_precision_score(yy, ss, sample_weight=at_pi(m))
            assert e["deployment"]["auc_pr"]["average_precision"] == pytest.approx(ap, rel=1e-9)
            got = e["deployment"]["points"][0]["recall"]
            assert got == pytest.approx(_best_recall(yy, ss, at_pi(m), 0.6), rel=1e-12)
            assert (out / "curves" / f"p_{name}_at_prevalence.csv").exists()
            continue
        recalls, aps = [], []
        for f in ["f0", "f1", "f2", "f3"]:
            m = fold == f
            recalls.append(_best_recall(yy[m], ss[m], w[m], 0.6))
            aps.append(average_precision_score(yy[m], ss[m], sample_weight=at_pi(m)))
        got = e["points"][0]["recall"]
        assert [v is None for v in got["per_fold"]] == [r is None for r in recalls]
        pairs = [(v, r) for v, r in zip(got["per_fold"], recalls, strict=True) if r is not None]
        assert all(v == pytest.approx(r, rel=1e-12) for v, r in pairs)
        assert e["points"][0]["feasible_folds"] == sum(r is not None for r in recalls)
        have = [r for r in recalls if r is not None]
        if len(have) >= 2:
            mean, low, high = _t(have)
            assert got["mean"] == pytest.approx(mean, rel=1e-12)
            assert got["interval"] == pytest.approx([max(low, 0), min(high, 1)], rel=1e-12)
        got = e["deployment"]["auc_pr"]["average_precision"]
        np.testing.assert_allclose(got["per_fold"], aps, rtol=1e-9)
    page = (out / "report.html").read_text()
    assert "Operating points" in page and "At deployment prevalence π = 0.02" in page
    assert "precision ≥ 0.97" in page


@pytest.mark.parametrize("shape", ["multiclass", "folds", "multiclass_folds"])
def test_page_sections_names_and_separators(data, tmp_path, shape):
    out, summary = _report(data, tmp_path, shape, "--min-precision", "none", "--min-recall", "none")
    page = (out / "report.html").read_text()
    for section in ('id="ranking"', 'id="how-to-read"', 'id="settings"'):
        assert section in page
    assert "1,200 rows" in page
    assert "Average precision (step)" in page and "Davis–Goadrich interpolated area" in page
    text = re.sub(r"<[^>]+>", " ", re.sub(r"data:image/png;base64,[^\"]+", "", page))
    assert "average_precision" not in text and "davis_goadrich" not in text
    assert "Operating points" not in page  # both lists 'none'
    assert not [f for f in summary["files"] if "score_" in f]
    stems = {"folds": ["p_cat", "p_dog"]}.get(shape, ["p_cat", "p_dog", "p_eel"])
    want = (
        [f"curves/{c}.csv" for c in stems]
        if shape == "multiclass"
        else [f"curves/{c}_folds.csv" for c in stems]
    )
    assert set(want) <= set(summary["files"])


REFUSED = [
    (["--cost-ratio", "0.1"], "--cost-ratio: not supported by a {} report"),
    (["--top-k", "10"], "--top-k: not supported by a {} report"),
    (["--prevalence-count", "3/100"], "--prevalence-count: not supported by a {} report"),
    (["--engine", "dask"], "--engine dask: not supported by a {} report; use --engine memory"),
    (["--scheduler", "sync"], "--scheduler: used only by --engine dask, which a {} report"),
    (
        ["--subsample", "5000"],
        "--subsample: used only by --engine dask or --engine spark, which a {} report",
    ),
    (["--workdir", "w"], "--workdir: used only by --engine dask, which a {} report"),
    (["--engine", "spark"], "--engine spark: not supported by a {} report; use --engine memory"),
    (["--master", "local[2]"], "--master: used only by --engine spark, which a {} report"),
    (["--jobs", "2"], "--jobs: a {} report runs in one process; drop --jobs"),
]
SHAPE_TEXT = {
    "multiclass": "multiclass",
    "folds": "cross-validation (--fold)",
    "multiclass_folds": "multiclass cross-validation (--fold)",
}


@pytest.mark.parametrize("shape", ["multiclass", "folds", "multiclass_folds"])
@pytest.mark.parametrize(("extra", "message"), REFUSED)
def test_refused_in_one_line(data, tmp_path, capsys, shape, extra, message):
    out = tmp_path / "no"
    args = ["report", str(data[0]), *SHAPES[shape], *extra, "--out", str(out), "--quiet"]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"prcurve: error: {message.format(SHAPE_TEXT[shape])}")
    assert err.count("\n") == 1 and not out.exists()


def test_n_resamples_refused_on_folds(data, tmp_path, capsys):
    out = tmp_path / "no"
    args = ["report", str(data[0]), *SHAPES["folds"], "--n-resamples", "99", "--out", str(out)]
    assert main([*args, "--quiet"]) == 1
    err = capsys.readouterr().err
    assert re.fullmatch(r"prcurve: error: --n-resamples: a cross-validation \(--fold\) report has "
                        r"no bootstrap .*; drop --n-resamples\n", err)  # fmt: skip


def _documented() -> list[re.Pattern[str]]:
    names = re.findall(r"^\| `([^`]+)` \|", DOC.read_text(encoding="utf-8"), flags=re.M)
    files = [n for n in names if "." in n and not n.startswith("--")]
    return [re.compile(re.escape(n).replace(re.escape("<stem>"), r"[^/]+")) for n in files]


def test_every_file_written_is_documented(data, tmp_path):
    assert DOC.read_text(encoding="utf-8").startswith("# ")
    patterns = _documented()
    outs = [_report(data, tmp_path, shape, "--prevalence", "0.05")[0] for shape in SHAPES]
    binary = tmp_path / "binary"
    src = two_scorer_csv(tmp_path / "in.csv")
    args = ["report", str(src), "--label", "y", "--score", "a", "--score", "b", "--prevalence",
            "0.05", "--all-points", "--n-resamples", "20", "--out", str(binary),
            "--quiet"]  # fmt: skip
    assert main(args) == 0
    outs.append(binary)
    for out in outs:
        written = [p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file()]
        listed = json.loads((out / "summary.json").read_text())["files"]
        assert sorted(written) == sorted(listed)
        for rel in written:
            assert any(p.fullmatch(rel) for p in patterns), f"{rel} is not in {DOC.name}"
