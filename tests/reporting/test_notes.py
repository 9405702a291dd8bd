"""The report's note on Boyd's lower trapezoid when its assumed (0, 1) start dominates."""

from __future__ import annotations

import numpy as np
import pytest

import prcurve
from prcurve._reporting.analysis._analysis import _start_share_note
from prcurve._reporting.input._io import read_labelled_scores


def _areas(y, s):
    return {m: prcurve.auc_pr(y, s, method=m) for m in ("lower_trapezoid", "average_precision")}


def test_constant_score_lower_trapezoid_is_mostly_the_assumed_start():
    y = np.r_[np.ones(21, bool), np.zeros(79, bool)]  # prevalence 0.21
    s = np.full(100, 0.5)
    areas = _areas(y, s)
    assert areas["lower_trapezoid"] == pytest.approx((1 + 0.21) / 2)  # closed form: 0.605
    (note,) = _start_share_note(prcurve.pr_curve(y, s), areas)
    assert note.startswith("lower trapezoid: 100% of its value 0.605 is the segment from the ")
    assert "(recall 1.000, precision 0.210)" in note and "average precision: 0.210" in note


def test_built_in_example_notes_naive_bayes_only():
    data = read_labelled_scores(None, "is_nine", ["logistic_regression", "naive_bayes"])
    nb = data.scores["naive_bayes"]
    areas = _areas(data.y, nb)
    curve = prcurve.pr_curve(data.y, nb)
    r1, p1 = curve.recall[0], curve.precision[0]
    share = r1 * (1 + p1) / 2 / areas["lower_trapezoid"]  # brute force from the first point
    (note,) = _start_share_note(curve, areas)
    assert share > 0.5 and f"{share:.0%} of its value {areas['lower_trapezoid']:.3f}" in note
    lr = data.scores["logistic_regression"]
    assert _start_share_note(prcurve.pr_curve(data.y, lr), _areas(data.y, lr)) == []


def test_the_note_reaches_summary_and_page(tmp_path):
    import json

    from prcurve.cli import main

    rng = np.random.default_rng(1)
    y = rng.random(300) < 0.21
    coarse = np.where(rng.random(300) < 0.9, 1.0, 0.0)  # 90 % tied at the top score
    good = y + rng.normal(size=300)
    table = zip(y.tolist(), coarse.tolist(), good.tolist(), strict=True)
    rows = "".join(f"{int(a)},{b},{c!r}\n" for a, b, c in table)
    (tmp_path / "d.csv").write_text("y,coarse,good\n" + rows)
    args = ["report", str(tmp_path / "d.csv"), "--label", "y", "--score", "coarse", "--score",
            "good", "--n-resamples", "20", "--quiet", "--out", str(tmp_path / "o")]  # fmt: skip
    assert main(args) == 0
    summary = json.loads((tmp_path / "o" / "summary.json").read_text())
    coarse_notes = [n for n in summary["scorers"]["coarse"]["notes"] if "lower trapezoid" in n]
    assert len(coarse_notes) == 1 and "assumed start" in coarse_notes[0]
    assert not any("lower trapezoid" in n for n in summary["scorers"]["good"]["notes"])
    assert "assumed start (recall 0, precision 1)" in (tmp_path / "o" / "report.html").read_text()


def test_only_prcurve_warnings_become_report_notes():
    """Warning filters are process-wide: a third-party deprecation caught while a step runs
    (matplotlib < 3.7 importing pyparsing in the figures' thread) is not a note of the report;
    a warning attributed to prcurve's code is."""
    import os
    import warnings

    import prcurve
    from prcurve._reporting.analysis._intervals import _guarded

    inside = os.path.join(os.path.dirname(prcurve.__file__), "_core", "_area.py")

    def step():
        warnings.warn_explicit("'setParseAction' deprecated", DeprecationWarning,
                               "/site-packages/pyparsing/core.py", 1)  # fmt: skip
        warnings.warn_explicit("few positives", UserWarning, inside, 1)
        return 7

    notes: list[str] = []
    assert _guarded(notes, "bootstrap", step) == 7
    assert notes == ["bootstrap: few positives"]
