"""Regressions from the QA run-through of the report page (findings 5, 7, 8, 9, 11).

Each test runs the real entry point (``python -m prcurve report``) and checks the page or
``summary.json`` against values recomputed here from the rows.
"""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys

import numpy as np
import pytest

from prcurve import compat

from ..conftest import STRICT_WARNINGS


def _report(tmp_path, csv, *args: str) -> tuple[dict, str]:
    out = tmp_path / "out"
    env = {**os.environ, "PYTHONWARNINGS": STRICT_WARNINGS}
    done = subprocess.run(
        [sys.executable, "-m", "prcurve", "report", str(csv), "--label", "y",
         "--n-resamples", "50", "--out", str(out), *args],
        capture_output=True, text=True, check=False, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    page = html.unescape(re.sub(r"<[^>]+>", "", (out / "report.html").read_text()))
    return json.loads((out / "summary.json").read_text()), page


def _write(path, y, **scores) -> None:
    cols = list(scores)
    rows = [",".join([str(int(v))] + [repr(float(scores[c][i])) for c in cols]) for i, v in
            enumerate(y)]  # fmt: skip
    path.write_text("y," + ",".join(cols) + "\n" + "\n".join(rows) + "\n")


def _largest(y, s) -> tuple[str, float]:
    ap = compat.compare_tools(y, s).average_precision
    values = {t: compat.auc_pr(y, s, tool=t) - ap for t in compat.TOOLS}
    tool = max(values, key=lambda t: abs(values[t]))
    return tool, values[tool]


def test_largest_difference_gives_the_tools_own_reason(tmp_path):
    # scores far outside [0, 1]: Keras clips them into one bin, the largest difference by far,
    # and its reason is the clipping, not the start point (the first point is at recall ~0)
    rng = np.random.default_rng(5)
    y = rng.random(2000) < 0.2
    s = rng.normal(size=2000) * 4 + 3 * y
    _write(tmp_path / "d.csv", y, a=s)
    tool, diff = _largest(y, s)
    assert tool == "keras"
    _, page = _report(tmp_path, tmp_path / "d.csv", "--score", "a")
    sentence = re.search(r"Largest difference for a:[^\n]*", page)
    assert sentence is not None
    text = sentence.group(0)
    assert f"keras, {diff:+.4f} from AP" in text
    assert compat.TOOLS["keras"].convention in text
    assert "start point" not in text and "first operating point" not in text
    # the binned tools' rows give their number of bins / thresholds
    assert "num_thresholds = 200" in page
    assert "thresholds = 100" in page
    assert "num_bins = 1,000" in page and "x_bins = 1,000" in page


def test_largest_difference_from_the_start_point_names_the_first_point(tmp_path):
    # a quarter of the rows tied at the top score with precision 1/2: ROCR's start at (0, 1)
    # and the rectangle conventions part from AP there
    rng = np.random.default_rng(6)
    n = 400
    y = rng.random(n) < 0.5
    s = np.where(np.arange(n) < 100, 0.99, rng.random(n) * 0.5)
    _write(tmp_path / "d.csv", y, a=s)
    tool, diff = _largest(y, s)
    assert tool in {"spark", "precrec", "prroc_dg", "rocr", "yardstick", "auc_jar"}
    top = s == s.max()
    _, page = _report(tmp_path, tmp_path / "d.csv", "--score", "a")
    text = re.search(r"Largest difference for a:[^\n]*", page).group(0)
    assert f"{tool}, {diff:+.4f} from AP" in text
    assert compat.TOOLS[tool].convention in text
    assert f"shared by {top.sum()} row(s)" in text
    assert f"recall {y[top].sum() / y.sum():.3f}, precision {y[top].mean():.3f}" in text


def _negative_zeros(obj) -> list:
    """Every -0.0 anywhere in a JSON document."""
    if isinstance(obj, dict):
        return [z for v in obj.values() for z in _negative_zeros(v)]
    if isinstance(obj, list):
        return [z for v in obj for z in _negative_zeros(v)]
    return [obj] if isinstance(obj, float) and obj == 0 and np.signbit(obj) else []


@pytest.mark.parametrize("engine", ["memory", "dask"])  # the test extra installs Dask
def test_negative_zero_prints_as_zero_on_memory_and_dask(tmp_path, engine):
    # scores 0.0 and -0.0 (one score), -0.0 first so the engine that keeps the first spelling
    # keeps -0.0; recall >= 0.9 needs the threshold 0
    rng = np.random.default_rng(9)
    n = 600
    y = rng.random(n) < 0.3
    zero = rng.random(n) < 0.5
    s = np.where(y & ~zero, 1.0, np.where(zero, 0.0, -0.1))
    s = np.where(zero & (rng.random(n) < 0.5), -0.0, s)
    s[0], y[0] = -0.0, True
    lines = "".join(f"{int(u)},{'-0.0' if v == 0 and np.signbit(v) else repr(float(v))}\n"
                    for u, v in zip(y, s, strict=True))  # fmt: skip
    (tmp_path / "z.csv").write_text("y,a\n" + lines)
    summary, page = _report(
        tmp_path / engine, tmp_path / "z.csv", "--score", "a", "--engine", engine,
        "--min-recall", "0.9", "--min-precision", "none",
    )  # fmt: skip
    assert not re.search(r"-0(?![.\d])", page), engine
    assert _negative_zeros(summary) == [], engine
    point = summary["scorers"]["a"]["operating_points"][0]
    assert point["threshold"] == 0.0
    assert "recall ≥ 0.9" in page


def _scores_csv(path, n=1500, seed=3):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    _write(path, y, a=rng.normal(size=n) + 1.2 * y)
    return path


def test_no_operating_points_no_pointer_to_them(tmp_path):
    csv = _scores_csv(tmp_path / "d.csv")
    common = ("--score", "a", "--prevalence", "0.05")
    summary, page = _report(tmp_path / "none", csv, *common, "--min-precision", "none",
                            "--min-recall", "none")  # fmt: skip
    assert not summary["scorers"]["a"].get("operating_points")
    assert "At deployment prevalence π = 0.05" in page
    assert "Operating points at π" not in page
    summary, page = _report(tmp_path / "some", csv, *common, "--min-recall", "0.5")
    assert any(p["prevalence"] == 0.05 for p in summary["scorers"]["a"]["operating_points"])
    assert "Operating points at π are in each scorer's table." in page


def test_headline_reason_follows_the_level(tmp_path):
    csv = _scores_csv(tmp_path / "d.csv")
    summary, page = _report(tmp_path / "l90", csv, "--score", "a", "--level", "0.9")
    head = summary["scorers"]["a"]["headline_auc_pr"]
    assert head["level"] == 0.9 and head["interval"] == "logit"
    assert "nominal 95 %" not in head["why"] and "nominal 95 %" not in page
    assert "this report's level is 90 %" in head["why"] and "this report's level is 90 %" in page
    summary, _ = _report(tmp_path / "l95", csv, "--score", "a")
    assert "nominal 95 %" in summary["scorers"]["a"]["headline_auc_pr"]["why"]


def test_weighted_page_names_rows_and_weights(tmp_path):
    rng = np.random.default_rng(8)
    n = 1200
    y = rng.random(n) < 0.25
    s = rng.normal(size=n) + 1.0 * y
    s[:30], y[:30] = 10.0 + np.arange(30), True  # the top 30 rows are positives: FP = 0 there
    w = rng.uniform(0.5, 3.0, n)
    w[30:230] = 0.0  # 200 rows of weight zero
    body = "".join(f"{int(u)},{v!r},{x!r}\n" for u, v, x in
                   zip(y, s.tolist(), w.tolist(), strict=True))  # fmt: skip
    (tmp_path / "w.csv").write_text("y,a,w\n" + body)
    summary, page = _report(
        tmp_path, tmp_path / "w.csv", "--score", "a", "--weight", "w", "--prevalence", "0.05",
        "--min-precision", "1", "--min-recall", "none",
    )  # fmt: skip
    neg_rows, neg_kept = int((~y).sum()), int((~y & (w > 0)).sum())
    assert f"{neg_rows:,} negative rows (rows read, weight zero included" in page
    assert "a single false positive" not in page
    mean = w[~y & (w > 0)].mean()
    point = next(p for p in summary["scorers"]["a"]["operating_points"]
                 if p["prevalence"] != 0.05)  # fmt: skip
    assert point["fp"] == 0
    one = point["tp"] / (point["tp"] + mean)
    assert (f"one negative row of the negatives' mean weight (their weighted sum "
            f"{w[~y].sum():,.4g} over {neg_kept:,} negative rows of positive weight) would "
            f"give precision {one:.4f}") in page  # fmt: skip
    # the band at π takes no weights: the resampling table must not list it
    steps = [st["step"] for st in summary["inference"]]
    assert "a: AP interval at π" in steps
    assert not any("band at π" in st for st in steps)
    assert "a: AP interval at π" in page and "AP interval and band at π" not in page
