"""The report's numbers, files and atomic writing, checked against independent computations."""

from __future__ import annotations

import io
import json
import os
import re

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy.special import expit, logit
from scipy.stats import norm
from sklearn.metrics import average_precision_score, precision_recall_curve, roc_auc_score

import prcurve._reporting.render._html
from prcurve import auc_pr, pr_curve, roc_curve
from prcurve._reporting._progress import ProgressBar
from prcurve._reporting.analysis._analysis import Settings, analyse
from prcurve._reporting.input._io import (
    BUILTIN_EXAMPLE,
    builtin_example_path,
    read_labelled_scores,
)
from prcurve._reporting.output._output import OutputError, write_tree
from prcurve._reporting.output._summary import summary
from prcurve._reporting.output._write import write_report
from prcurve.cli import main

N_RESAMPLES = 200


@pytest.fixture(scope="module")
def example():
    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    settings = Settings(
        data.source,
        data.label_column,
        tuple(data.scores),
        data.positive_label,
        n_resamples=N_RESAMPLES,
        seed=5,
    )
    return data, analyse(data, settings)


@pytest.fixture(scope="module")
def written(example, tmp_path_factory):
    out = tmp_path_factory.mktemp("report") / "out"
    write_report(example[1], str(out))
    return out


def test_builtin_example_is_the_documented_real_data():
    data = read_labelled_scores(None, BUILTIN_EXAMPLE.label, BUILTIN_EXAMPLE.scores)
    assert data.n == 1677 and int(data.y.sum()) == 60  # every third 9 of load_digits
    from sklearn.datasets import load_digits

    text = builtin_example_path().read_text()
    rows = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=1, usecols=(0,)).astype(int)
    digits = load_digits().target
    assert_array_equal(digits[rows] == 9, data.y)
    for s in data.scores.values():
        assert s.min() >= 0 and s.max() <= 1  # out-of-fold probabilities


def test_summary_numbers_match_independent_implementations(example):
    data, analysis = example
    out = summary(analysis)
    assert out["data"]["n_pos"] == 60 and out["data"]["n_neg"] == 1617
    for name, s in data.scores.items():
        entry = out["scorers"][name]
        assert entry["auc_pr"]["average_precision"] == pytest.approx(
            average_precision_score(data.y, s), abs=1e-12
        )
        assert entry["roc_auc"] == pytest.approx(roc_auc_score(data.y, s), abs=1e-12)
        for method in ("davis_goadrich", "lower_trapezoid", "interpolated_median", "trapezoid"):
            assert entry["auc_pr"][method] == auc_pr(data.y, s, method=method)
        # Boyd et al.'s logit interval, from its closed form
        theta = entry["auc_pr"]["average_precision"]
        half = norm.ppf(0.975) / np.sqrt(60 * theta * (1 - theta))
        ci = entry["auc_pr_ci"]["average_precision"]["logit"]
        assert ci["low"] == pytest.approx(expit(logit(theta) - half))
        assert ci["high"] == pytest.approx(expit(logit(theta) + half))
        binom = entry["auc_pr_ci"]["davis_goadrich"]["binomial"]
        t = entry["auc_pr"]["davis_goadrich"]
        half = norm.ppf(0.975) * np.sqrt(t * (1 - t) / 60)
        assert binom["low"] == pytest.approx(max(0, t - half))
        boot = entry["auc_pr_ci"]["average_precision"]["bootstrap_percentile"]
        assert boot["low"] < theta < boot["high"] and boot["n_resamples"] == N_RESAMPLES
        assert entry["confidence_band"]["n_resamples"] == N_RESAMPLES
        assert entry["achievable"]["auc_pr_davis_goadrich"] >= entry["auc_pr"]["davis_goadrich"]
    pairs = [(c["a"], c["b"]) for c in out["comparisons"]]
    assert pairs == [
        ("logistic_regression", "naive_bayes"),
        ("logistic_regression", "decision_tree"),
        ("naive_bayes", "decision_tree"),
    ]
    for c in out["comparisons"]:
        ap = {n: average_precision_score(data.y, data.scores[n]) for n in (c["a"], c["b"])}
        assert c["difference"] == pytest.approx(ap[c["a"]] - ap[c["b"]], abs=1e-12)
        assert c["low"] <= c["difference"] <= c["high"]
        assert 0 < c["p_value"] <= 1


def test_one_sort_per_scorer_gives_consistent_curves(example):
    data, analysis = example
    for name, s in data.scores.items():
        sc = analysis.scorers[name]
        ref = pr_curve(data.y, s)
        assert_array_equal(sc.pr.precision, ref.precision)
        assert_array_equal(sc.roc.fpr, roc_curve(data.y, s).fpr)
        assert_array_equal(sc.prg.tp, ref.tp)


def test_curve_csv_files_hold_every_operating_point(example, written):
    data, _ = example
    for name, s in data.scores.items():
        table = np.genfromtxt(written / "curves" / f"{name}.csv", delimiter=",", names=True)
        # scikit-learn's curve, reversed, without its artificial (recall 0, precision 1) end
        p, r, t = precision_recall_curve(data.y, s)
        assert_allclose(table["recall"], r[::-1][1:], rtol=0, atol=1e-15)
        assert_allclose(table["precision"], p[::-1][1:], rtol=0, atol=1e-15)
        assert_array_equal(table["threshold"], t[::-1])
        assert_array_equal(table["fpr"], roc_curve(data.y, s).fpr)
        hull = np.genfromtxt(
            written / "curves" / f"{name}_achievable.csv", delimiter=",", names=True
        )
        assert_array_equal(hull["tp"], pr_curve(data.y, s).achievable().tp)
        band = np.genfromtxt(written / "curves" / f"{name}_band.csv", delimiter=",", names=True)
        assert_allclose(band["estimate"], pr_curve(data.y, s).precision_at(band["recall"]))
        assert np.all(band["low"] <= band["estimate"]) and np.all(band["estimate"] <= band["high"])


def test_summary_json_is_the_source_of_the_page(written):
    data = json.loads((written / "summary.json").read_text())
    page = (written / "report.html").read_text()
    assert data["files"] == ["report.html", "summary.json"] + [
        f"curves/{n}{suffix}.csv"
        for n in BUILTIN_EXAMPLE.scores
        for suffix in ("", "_achievable", "_band")
    ]
    for name, s in data["scorers"].items():
        assert f"<code>{name}</code>" in page
        assert f"{s['auc_pr']['average_precision']:.4f}" in page
        assert f"{s['roc_auc']:.4f}" in page
        boot = s["auc_pr_ci"]["average_precision"]["bootstrap_percentile"]
        assert f"[{boot['low']:.4f}, {boot['high']:.4f}]" in page
    for c in data["comparisons"]:
        floor = 1 / (c["n_resamples"] + 1)
        shown = "&lt; 0.005" if c["p_value"] == floor else f"{c['p_value']:.2f}"
        assert c["n_resamples"] == N_RESAMPLES and shown in page


def test_page_is_self_contained(written):
    page = (written / "report.html").read_text()
    srcs = re.findall(r'<img src="([^"]+)"', page)
    # the overview, and per scorer its three panels and its threshold view
    assert len(srcs) == 1 + 2 * len(BUILTIN_EXAMPLE.scores)
    assert all(s.startswith("data:image/png;base64,") for s in srcs)
    assert not re.search(r'(src|href)="(https?:|//|file:)', page)
    assert "<script" not in page


def test_seed_makes_the_report_reproducible(example):
    data, analysis = example
    again = analyse(data, analysis.settings)
    assert summary(again) == summary(analysis)
    other = analyse(data, Settings(**{**analysis.settings.__dict__, "seed": 6}))
    a = summary(analysis)["scorers"]["decision_tree"]["auc_pr_ci"]["average_precision"]
    b = summary(other)["scorers"]["decision_tree"]["auc_pr_ci"]["average_precision"]
    assert a["logit"] == b["logit"]
    assert a["bootstrap_percentile"] != b["bootstrap_percentile"]


def test_parallel_inference_gives_the_same_numbers(example, monkeypatch):
    import prcurve._reporting.analysis._parallel

    data, analysis = example
    monkeypatch.setattr(prcurve._reporting.analysis._parallel, "PARALLEL_MIN_SECONDS", 0)
    parallel = analyse(data, Settings(**{**analysis.settings.__dict__, "jobs": 2}))
    assert summary(parallel) == summary(analysis)


@pytest.mark.parametrize(
    ("jobs", "auto", "workers"),
    [
        (2, True, 1),  # --jobs not given: the main process keeps a CPU
        (8, True, 7),
        (1, True, 1),
        (2, False, 2),  # --jobs asked for: as asked
        (1, False, 1),
    ],
)
def test_worker_count_keeps_a_cpu_for_the_main_process(jobs, auto, workers):
    from prcurve._reporting.analysis._parallel import worker_count

    assert worker_count(jobs, auto=auto) == workers


@pytest.mark.parametrize(
    ("jobs", "jobs_auto", "workers"), [(2, True, 1), (2, False, 2), (64, True, 15), (64, False, 15)]
)
def test_default_jobs_runs_one_worker_fewer_than_the_cpus(
    example, monkeypatch, jobs, jobs_auto, workers
):
    """``--jobs`` not given on 2 CPUs: one worker process beside the main one (which draws the
    figures meanwhile); asked for, as many as asked; never more workers than steps (the
    example's three scorers: 15 steps); the numbers are the same either way."""
    import prcurve._reporting.analysis._parallel as parallel

    data, analysis = example
    monkeypatch.setattr(parallel, "PARALLEL_MIN_SECONDS", 0)
    made = []
    real_executor = parallel._executor
    monkeypatch.setattr(parallel, "_executor", lambda n: made.append(n) or real_executor(n))
    settings = Settings(**{**analysis.settings.__dict__, "jobs": jobs, "jobs_auto": jobs_auto})
    got = analyse(data, settings)
    assert made == [workers]
    assert summary(got) == summary(analysis)


def test_failure_while_rendering_leaves_the_old_report_untouched(example, tmp_path, monkeypatch):
    out = tmp_path / "out"
    write_report(example[1], str(out))
    before = {p: (out / p).read_bytes() for p in ("report.html", "summary.json")}

    def broken(*args, **kwargs):
        raise RuntimeError("figure failed")

    monkeypatch.setattr(prcurve._reporting.render._html, "render_html", broken)
    with pytest.raises(RuntimeError, match="figure failed"):
        write_report(example[1], str(out))
    assert {p: (out / p).read_bytes() for p in before} == before
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".prcurve-")]


def test_write_tree_is_all_or_nothing(tmp_path, monkeypatch):
    out = tmp_path / "o"
    write_tree(str(out), {"a.txt": "1", "d/b.csv": "x\n", "p.png": b"\x89PNG"})
    assert (out / "a.txt").read_text() == "1" and (out / "p.png").read_bytes() == b"\x89PNG"
    (out / "mine.txt").write_text("keep")
    write_tree(str(out), {"a.txt": "2", "d/c.csv": "y\n"})
    assert sorted(os.listdir(out / "d")) == ["b.csv", "c.csv"]  # only written files replaced
    assert (out / "mine.txt").read_text() == "keep" and (out / "a.txt").read_text() == "2"

    real_open = open

    def failing_open(path, mode="r", *args, **kwargs):
        if str(path).endswith("z.txt"):
            raise OSError(28, "No space left on device")
        return real_open(path, mode, *args, **kwargs)

    monkeypatch.setattr("builtins.open", failing_open)
    with pytest.raises(OutputError, match=r"cannot write the report to .*: No space left"):
        write_tree(str(out), {"a.txt": "3", "z.txt": "boom"})
    monkeypatch.undo()
    assert (out / "a.txt").read_text() == "2"  # nothing moved
    assert not [n for n in os.listdir(tmp_path) if n.startswith(".prcurve-")]
    assert not [n for n in os.listdir(out) if n.startswith(".prcurve-")]


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_progress_bar_draws_only_on_a_terminal():
    tty = _Tty()
    bar = ProgressBar(stream=tty)
    bar.start("bootstrap")
    for done in (0, 250, 500, 1000):
        bar(done, 1000)
    bar.finish()
    text = tty.getvalue()
    assert text.startswith("\rbootstrap") and "100%" in text and text.endswith("\n")
    assert "[" + "#" * 30 + "]" in text
    quiet = _Tty()
    bar = ProgressBar(enabled=False, stream=quiet)
    bar(1, 2)
    bar.finish()
    assert quiet.getvalue() == ""
    pipe = io.StringIO()
    bar = ProgressBar(stream=pipe)
    bar(1, 2)
    bar.finish()
    assert pipe.getvalue() == ""


def test_population_command(tmp_path, capsys):
    out = tmp_path / "pop"
    code = main(["population", "--case", "A", "--case", "D", "--prevalence", "1/11",
                 "--out", str(out)])  # fmt: skip
    assert code == 0
    assert capsys.readouterr().out == f"Report written to {out / 'report.html'}\n"
    data = json.loads((out / "summary.json").read_text())
    d = data["cases"]["D"]["prevalences"][repr(1 / 11)]
    # Hughes-Oliver P2: Case D's PR curve ends at 2π₊/(π₊ + 1) and starts at 1
    assert d["pr_end"] == pytest.approx(2 * (1 / 11) / (1 / 11 + 1))
    assert d["pr_start"] == pytest.approx(1.0)
    pr = np.genfromtxt(out / "curves" / "case_A_pr_0.csv", delimiter=",", names=True)
    pi = 1 / 11
    assert_allclose(pr["lower_bound"], pi * pr["recall"] / (pi * pr["recall"] + 1 - pi))
    assert (out / "population.png").read_bytes().startswith(b"\x89PNG")
    assert 'src="data:image/png;base64,' in (out / "report.html").read_text()


def test_simulate_command(tmp_path):
    out = tmp_path / "sim"
    code = main(["simulate", "--case", "A", "--prevalence", "1/11", "--n", "200",
                 "--replicates", "300", "--recall", "0.3,0.6", "--seed", "3", "--out", str(out),
                 "--quiet"])  # fmt: skip
    assert code == 0
    data = json.loads((out / "summary.json").read_text())
    (res,) = data["results"]
    assert res["n"] == 200 and res["recall"] == [0.3, 0.6]
    est = np.genfromtxt(out / "estimates" / "n_200.csv", delimiter=",", skip_header=1)
    assert est.shape == (300, 2)
    assert_allclose(res["mean"], est.mean(axis=0))
    assert_allclose(res["scaled_variance"], 200 * est.var(axis=0, ddof=1))
    # population PR of Case A at π₊ = 1/11 and x = 0.6 (normal scores, shift 1.4)
    t = norm.ppf(1 - 0.6, loc=1.4)
    alpha = norm.sf(t)
    assert res["population"][1] == pytest.approx(
        (1 / 11) * 0.6 / ((1 / 11) * 0.6 + (10 / 11) * alpha)
    )


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["population"], "the following arguments are required: --case"),
        (["population", "--case", "Z"], "argument --case: invalid choice: 'Z'"),
        (["population", "--case", "A", "--prevalence", "3/2"], "expected a prevalence in"),
        (["simulate", "--case", "A"], "the following arguments are required: --n"),
        (["simulate", "--case", "A", "--n", "1"], "argument --n: expected an integer >= 2"),
        (["simulate", "--case", "A", "--n", "9", "--recall", "0,2"], "argument --recall"),
    ],
)
def test_statistician_commands_usage_errors(capsys, args, match):
    assert main(args) == 2
    assert re.search(match, capsys.readouterr().err)


def test_curve_csv_is_the_same_with_and_without_pyarrow(monkeypatch):
    import sys

    from prcurve._reporting.output._write import curve_csv

    cols = {
        "t": np.array([0.5, 1 / 3, -np.inf, 1e16, 2.5e-300]),
        "n": np.arange(5),
        "b": np.array([True, False, True, True, False]),
    }
    fast = curve_csv(cols)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    slow = curve_csv(cols)
    assert fast == slow
    assert slow.splitlines()[0] == "t,n,b"
    back = np.genfromtxt(io.StringIO(slow), delimiter=",", names=True)
    assert_array_equal(back["t"], cols["t"])
    assert_array_equal(back["b"], cols["b"])


def test_population_output_directory_that_cannot_be_written(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    code = main(["population", "--case", "A", "--out", str(tmp_path / "f" / "sub")])
    assert code == 1
    err = capsys.readouterr().err
    assert err.startswith(f"prcurve: error: cannot write the population report to {tmp_path}")
    assert err.count("\n") == 1


def test_curve_file_bytes_are_the_curve_csv_text(monkeypatch):
    """The report's bytes writer gives exactly :func:`curve_csv`'s text, with or without pyarrow."""
    import builtins

    from prcurve._reporting.output._write import _csv_bytes, curve_csv

    rng = np.random.default_rng(4)
    cols = {
        "threshold": rng.standard_normal(500) * 1e-300,
        "tp": np.arange(500),
        "flag": rng.random(500) < 0.5,
        "precision": rng.random(500),
    }
    text = curve_csv(cols)
    assert _csv_bytes(cols).decode("ascii") == text
    real_import = builtins.__import__

    def no_pyarrow(name, *args, **kwargs):
        if name.startswith("pyarrow"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pyarrow)
    assert _csv_bytes(cols).decode("ascii") == text
