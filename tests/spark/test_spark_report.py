"""``prcurve report FILE --engine spark`` gives the memory engine's page (issue 26, item 1).

One local Spark session (``local[2]``) serves the whole module: the reports run in process
(``main([...])`` with ``--master local[2]``), and the report uses the session already running
instead of starting its own; one test runs the real entry point in a subprocess, where the
report opens and stops its own session.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

import prcurve
from prcurve.cli import main

from ..engine_helpers import EVERY_OPTION, assert_same_summary, run, summary, tied_weighted
from .conftest import require_spark

require_spark()

SPARK = ["--engine", "spark", "--master", "local[2]"]


@pytest.fixture(scope="module", autouse=True)
def session(spark):
    """The module's session is running before any report (so every report reuses it)."""
    return spark


def one_line_error(capsys, code: int, pattern: str) -> None:
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1, err
    with pytest.raises(AssertionError, match=pattern):
        raise AssertionError(err.strip())


def test_memory_and_spark_give_the_same_summary(tmp_path):
    """Ties, weights (zeros among them), two scorers and every analysis option: the same keys,
    every number equal to the rounding of sums (Spark sums the weights per score in another
    order), intervals included: with every row at hand both engines resample the same rows,
    in the file's order, with the same streams."""
    frame = tied_weighted(3000, 0)
    path = tmp_path / "all.parquet"
    frame.to_parquet(path, index=False)
    common = ["--label", "y", "--score", "a", "--score", "b", "--weight", "w", *EVERY_OPTION,
              "--quiet"]  # fmt: skip
    assert main(["report", str(path), *common, "--engine", "memory",
                 "--out", str(tmp_path / "m")]) == 0  # fmt: skip
    assert main(["report", str(path), *common, *SPARK, "--out", str(tmp_path / "s")]) == 0
    got, ref = summary(tmp_path / "s"), summary(tmp_path / "m")
    assert_same_summary(got, ref, "spark")
    assert got["engine"]["note"].startswith("Spark engine: every curve, AUC-PR estimate")
    assert "exact over all 2,253 rows of positive weight" in got["engine"]["note"]
    kept = frame[frame["w"] > 0]
    assert got["engine"]["rows_resampled_from"] == len(kept) == 2253
    # the numbers are those of the library on the rows (an independent recomputation)
    want = prcurve.pr_curve(kept["y"] == 1, kept["b"], sample_weight=kept["w"])
    for method in ("average_precision", "davis_goadrich", "lower_trapezoid"):
        assert got["scorers"]["b"]["auc_pr"][method] == pytest.approx(want.auc(method), rel=1e-12)
    assert got["scorers"]["a"]["threshold_choice"]["cost_optimal"]["cost_ratio"] == 2
    assert got["scorers"]["b"]["deployment"]


def test_unweighted_counts_are_bit_identical_to_memory(spark, tmp_path):
    """The engine's counts of a glob of CSV files: the memory engine's thresholds and its int64
    counts bit for bit (scores written with 17 digits, read back to the same doubles)."""
    from prcurve._reporting.input._engine import memory_engine
    from prcurve._reporting.input._io import read_labelled_scores
    from prcurve._reporting.input._spark import read_spark

    frame = tied_weighted(3000, 1, weights=False)
    frame["c"] = np.random.default_rng(3).normal(size=len(frame)) + frame["y"]
    for i in range(3):
        frame.iloc[1000 * i : 1000 * (i + 1)].to_csv(
            tmp_path / f"p{i}.csv", index=False, float_format="%.17g"
        )
    frame.to_csv(tmp_path / "all.txt", index=False, float_format="%.17g")
    scores = ["a", "b", "c"]
    got = read_spark(spark, str(tmp_path / "p*.csv"), "y", scores, subsample=10**6)
    ref = memory_engine(read_labelled_scores(str(tmp_path / "all.txt"), "y", scores))
    assert (got.n_pos_rows, got.n_neg_rows, got.rows_read) == (
        ref.n_pos_rows, ref.n_neg_rows, ref.rows_read,
    )  # fmt: skip
    assert got.effective == ref.effective
    for name in scores:
        g, r = got.counts(name), ref.counts(name)
        # thresholds equal as numbers: a tie of 0.0 and -0.0 is one threshold, whose sign is
        # the first row's in memory and Spark's normalised 0.0
        np.testing.assert_array_equal(g.thresholds, r.thresholds)
        assert g.thresholds.dtype == r.thresholds.dtype
        for field in ("tp", "fp"):
            a, b = getattr(g, field), getattr(r, field)
            assert a.dtype == b.dtype and a.tobytes() == b.tobytes(), (name, field)
        assert (g.n_pos, g.n_neg) == (r.n_pos, r.n_neg)


def test_the_draw_is_stratified_exact_and_reproducible(spark, tmp_path):
    """``draw`` hands over exactly the rows per class that ``subsample`` draws, rows of positive
    weight only, in the data's order, the same rows for the same seed."""
    from prcurve._reporting.input._spark import read_spark

    n = 8000
    rng = np.random.default_rng(5)
    y = rng.random(n) < 0.15
    w = rng.choice([0.0, 1.0, 2.0], size=n)
    frame = pd.DataFrame({"y": y.astype(int), "id": np.arange(n, dtype=float), "w": w})
    frame.to_parquet(tmp_path / "d.parquet", index=False)
    engine = read_spark(spark, str(tmp_path / "d.parquet"), "y", ["id"], weight="w",
                        subsample=1000)  # fmt: skip
    pos, neg = int(np.sum(y & (w > 0))), int(np.sum(~y & (w > 0)))
    assert (engine.n_pos_rows, engine.n_neg_rows) == (pos, neg)
    m_pos = round(1000 * pos / (pos + neg))
    seed = np.random.SeedSequence(7)
    rows = engine.draw(1000, seed)
    ids = rows.scores["id"].astype(int)
    assert (int(rows.y.sum()), int((~rows.y).sum())) == (m_pos, 1000 - m_pos)
    assert np.all(np.diff(ids) > 0)  # the data's order, no row twice
    np.testing.assert_array_equal(rows.y, y[ids])
    np.testing.assert_array_equal(rows.weight, w[ids])
    assert np.all(w[ids] > 0)
    again = engine.draw(1000, np.random.SeedSequence(7))
    np.testing.assert_array_equal(again.scores["id"], rows.scores["id"])
    other = engine.draw(1000, np.random.SeedSequence(8))
    assert not np.array_equal(other.scores["id"], rows.scores["id"])
    every = engine.draw(10**6, seed)
    np.testing.assert_array_equal(every.scores["id"].astype(int), np.flatnonzero(w > 0))


def test_spark_on_a_subsample_keeps_exact_numbers_and_rescaled_widths(tmp_path):
    """20,000 rows, ``--subsample 8000``: every exact number equals the in-memory report's;
    each interval's width is within sampling error of the in-memory one (the Dask test's
    bound: two independent widths from 200 replicates differ by more than 35 % with
    probability about 1 %; the seeds are fixed, so the test is deterministic)."""
    frame = tied_weighted(20_000, 1, weights=False)
    frame["a"] = frame["a"] + np.random.default_rng(2).normal(scale=1e-3, size=len(frame))
    path = tmp_path / "all.parquet"
    frame.to_parquet(path, index=False)
    common = ["--label", "y", "--score", "a", "--score", "b", "--prevalence", "0.05",
              "--quiet", "--jobs", "1", "--n-resamples", "200"]  # fmt: skip
    assert main(["report", str(path), *common, "--engine", "memory",
                 "--out", str(tmp_path / "m")]) == 0  # fmt: skip
    assert main(["report", str(path), *common, *SPARK, "--subsample", "8000",
                 "--out", str(tmp_path / "s")]) == 0  # fmt: skip
    got, ref = summary(tmp_path / "s"), summary(tmp_path / "m")
    assert got["engine"]["rows_resampled_from"] == 8000
    assert "stratified random subsample of 8,000 of those 20,000 rows" in got["engine"]["note"]
    assert got["data"] == ref["data"]
    for name in ("a", "b"):
        g, r = got["scorers"][name], ref["scorers"][name]
        assert g["auc_pr"] == pytest.approx(r["auc_pr"], rel=1e-12)
        assert g["n_thresholds"] == r["n_thresholds"]
        for kind in ("logit", "binomial"):
            assert g["auc_pr_ci"]["average_precision"][kind] == pytest.approx(
                r["auc_pr_ci"]["average_precision"][kind], rel=1e-12
            )
        boot_g = g["auc_pr_ci"]["average_precision"]["bootstrap_percentile"]
        boot_r = r["auc_pr_ci"]["average_precision"]["bootstrap_percentile"]
        width = (boot_g["high"] - boot_g["low"]) / (boot_r["high"] - boot_r["low"])
        assert 1 / 1.35 < width < 1.35, (name, width)
        assert 1 / 1.35 < g["confidence_band"]["radius"] / r["confidence_band"]["radius"] < 1.35
    cg, cr = got["comparisons"][0], ref["comparisons"][0]
    for key in ("estimate_a", "estimate_b", "difference"):
        assert cg[key] == pytest.approx(cr[key], rel=1e-12)


def test_csv_options_pos_label_and_all_points_on_spark(tmp_path, capsys):
    """``--sep``, ``--encoding``, ``--pos-label`` (text labels) and ``--all-points`` on Spark:
    the in-memory numbers, and curve files of the same bytes; an encoding Spark cannot read is
    one line."""
    frame = tied_weighted(1500, 6, weights=False).rename(columns={"a": "scoré"})
    frame["y"] = np.where(frame["y"] == 1, "fraud", "ok")
    path = tmp_path / "d.csv"
    frame.to_csv(path, sep=";", index=False, encoding="latin-1")
    common = ["--label", "y", "--pos-label", "fraud", "--score", "scoré", "--score", "b",
              "--sep", ";", "--encoding", "latin-1", "--n-resamples", "40", "--quiet",
              "--all-points"]  # fmt: skip
    assert main(["report", str(path), *common, "--engine", "memory",
                 "--out", str(tmp_path / "m")]) == 0  # fmt: skip
    assert main(["report", str(path), *common, *SPARK, "--out", str(tmp_path / "s")]) == 0
    got, ref = summary(tmp_path / "s"), summary(tmp_path / "m")
    assert_same_summary(got, ref, "spark")
    assert got["settings"]["positive_label"] == "fraud"
    files = sorted(p.name for p in (tmp_path / "m" / "curves").iterdir())
    assert files == sorted(p.name for p in (tmp_path / "s" / "curves").iterdir())
    assert "b.parquet" in files  # every point (--all-points)
    for name in files:
        a = (tmp_path / "m" / "curves" / name).read_bytes()
        assert a == (tmp_path / "s" / "curves" / name).read_bytes(), name
    capsys.readouterr()
    code = main(["report", str(path), *common, *SPARK, "--encoding", "cp1252",
                 "--out", str(tmp_path / "e")])  # fmt: skip
    one_line_error(
        capsys, code, r"^prcurve: error: --encoding: expected an encoding Spark reads \(latin-1, "
        r"ascii, utf-8, utf-16, utf-16-be, utf-16-le, utf-32\), got 'cp1252'$",
    )  # fmt: skip


@pytest.fixture
def small(tmp_path):
    frame = tied_weighted(300, 8)
    path = tmp_path / "small.parquet"
    frame.to_parquet(path, index=False)
    return path, frame


def report(path, out, *extra):
    return main(["report", str(path), "--label", "y", "--score", "a", "--n-resamples", "20",
                 "--quiet", "--out", str(out), *map(str, extra)])  # fmt: skip


ERRORS = [
    pytest.param(
        ["--score", "nope", *SPARK],
        r"small\.parquet: no column 'nope'; the columns "
        r"are 'y', 'a', 'b', 'w'$",
        id="missing-column",
    ),
    pytest.param(
        [*SPARK, "--pos-label", "7"],
        r"--pos-label '7' is not a label in column "
        r"'y'; found '0' \(\d+ rows\), '1' \(\d+ rows\)$",
        id="pos-label",
    ),
    pytest.param(
        [*SPARK, "--scheduler", "sync"],
        r"^prcurve: error: --scheduler: used only by "
        r"--engine dask; drop it or use --engine dask$",
        id="scheduler",
    ),
    pytest.param(
        [*SPARK, "--workdir", "w"],
        r"^prcurve: error: --workdir: used only by "
        r"--engine dask; drop it or use --engine dask$",
        id="workdir",
    ),
    pytest.param(
        ["--engine", "memory", "--master", "local[2]"],
        r"^prcurve: error: --master: "
        r"used only by --engine spark; drop it or use --engine spark$",
        id="master-on-memory",
    ),
    pytest.param(
        ["--master", "local[2]"],
        r"^prcurve: error: --master: used only by --engine "
        r"spark, which --engine auto never chooses; add --engine spark$",
        id="master-on-auto",
    ),
    pytest.param(
        ["--engine", "spark", "--master", "local[3]"],
        r"^prcurve: error: --master: "
        r"expected the master of the Spark session already running in this process "
        r"\(local\[2\]\), got local\[3\]$",
        id="other-master",
    ),
    pytest.param(  # fewer than the 1000 positives a resampling step needs: every row
        [*SPARK, "--subsample", "100", "--prevalence-count", "5/100"],
        r"^prcurve: error: --subsample: expected at least 300 rows \(a stratified subsample "
        r"keeps the \d+\.\d{3}% positives of the 300 rows; a resampling step needs 1000 "
        r"positives, or all rows\), got 100$",
        id="subsample-below-the-positives-a-step-needs",
    ),
]


@pytest.mark.parametrize(("extra", "pattern"), ERRORS)
def test_errors_and_refused_options_are_one_line(small, tmp_path, capsys, extra, pattern):
    one_line_error(capsys, report(small[0], tmp_path / "o", *extra), pattern)
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("value", "problem"),
    [(-1.0, "non-negative"), (np.nan, "finite")],
    ids=["negative", "nan"],
)
def test_bad_weights_are_one_clear_line(tmp_path, capsys, value, problem):
    frame = tied_weighted(200, 5)
    frame.loc[3, "w"] = value
    frame.to_parquet(tmp_path / "p.parquet", index=False)
    code = report(tmp_path / "p.parquet", tmp_path / "o", "--weight", "w", *SPARK)
    one_line_error(
        capsys,
        code,
        rf"p\.parquet: columns 'a'/'w': weight_col: expected "
        rf"{problem} weights in 'w', got some that are not$",
    )


def test_three_labels_are_one_clear_line(tmp_path, capsys):
    frame = tied_weighted(200, 5)
    frame.loc[:9, "y"] = 2
    frame.to_parquet(tmp_path / "p.parquet", index=False)
    code = report(tmp_path / "p.parquet", tmp_path / "o", *SPARK)
    one_line_error(capsys, code, r"column 'y' has 3 distinct labels, expected two classes")


def test_standard_input_and_multiclass_refuse_spark(small, tmp_path, capsys):
    code = main(["report", "-", "--label", "y", "--score", "a", *SPARK, "--quiet",
                 "--out", str(tmp_path / "o")])  # fmt: skip
    one_line_error(
        capsys,
        code,
        r"--engine spark: expected FILE \(a file, a directory or a "
        r"glob pattern of Parquet or CSV files\), got standard input \(-\)$",
    )
    code = main(["report", str(small[0]), "--label", "y", "--score", "a", "--score", "b",
                 "--multiclass", *SPARK, "--out", str(tmp_path / "o")])  # fmt: skip
    one_line_error(
        capsys,
        code,
        r"--engine spark: not supported by a multiclass report; use "
        r"--engine memory$",
    )


def test_missing_pyspark_is_one_line_with_the_install_command(small, tmp_path, capsys,
                                                              monkeypatch):  # fmt: skip
    monkeypatch.setitem(sys.modules, "pyspark", None)  # import pyspark raises ImportError
    code = report(small[0], tmp_path / "o", *SPARK)
    one_line_error(
        capsys,
        code,
        r"^prcurve: error: --engine spark needs PySpark and Java; "
        r"install them with 'pip install prcurve\[spark\]' and a Java runtime",
    )


def test_missing_java_is_one_line_with_the_install_command(small, tmp_path):
    """The real entry point with no Java on PATH and no JAVA_HOME."""
    env = {k: v for k, v in os.environ.items() if k != "JAVA_HOME"}
    env["PATH"] = str(tmp_path)  # no java there
    cmd = [sys.executable, "-m", "prcurve", "report", str(small[0]), "--label", "y",
           "--score", "a", *SPARK, "--out", str(tmp_path / "o")]  # fmt: skip
    res = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=300, check=False)
    assert res.returncode == 1
    assert res.stderr == (
        "prcurve: error: --engine spark needs a Java runtime, none was found; install them "
        "with 'pip install prcurve[spark]' and a Java runtime (e.g. 'apt-get install "
        "openjdk-17-jre-headless')\n"
    )


def test_the_entry_point_opens_and_stops_its_own_session(small, tmp_path):
    """``python -m prcurve report --engine spark``: the report starts Spark, writes the memory
    engine's numbers and exits cleanly (the session stopped)."""
    path, frame = small
    res = run(path, "--label", "y", "--score", "a", "--weight", "w", *SPARK,
              "--n-resamples", "20", "--out", tmp_path / "o")  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert f"Report written to {tmp_path / 'o'}" in res.stdout
    got = summary(tmp_path / "o")
    kept = frame[frame["w"] > 0]
    want = prcurve.auc_pr(kept["y"] == 1, kept["a"], sample_weight=kept["w"])
    assert got["scorers"]["a"]["auc_pr"]["average_precision"] == pytest.approx(want, rel=1e-12)
    assert got["engine"]["name"] == "spark"
