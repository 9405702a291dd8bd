"""One analysis for every engine (issue 24, items 1 and 2): ``--engine memory`` and
``--engine dask`` give the same ``summary.json``; every option of the binary report works on
Dask or is refused with one line."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("dask.dataframe")

import prcurve
from prcurve.cli import main

from ..engine_helpers import (
    EVERY_OPTION,
    assert_same_summary,
    flat,
    note_keys,
    run,
    summary,
    tied_weighted,
)


def test_memory_and_dask_give_the_same_summary(tmp_path):
    """Ties, weights (zeros among them), two scorers and every analysis option: the same keys,
    and every number equal to the rounding of sums (Dask sums the weights per partition in
    another order: 1e-9 relative), intervals included: with every row at hand both engines
    resample the same rows with the same streams."""
    data = tmp_path / "d"
    data.mkdir()
    frame = tied_weighted(3000, 0)
    for i in range(3):  # three files: Dask reads three partitions
        frame.iloc[1000 * i : 1000 * (i + 1)].to_parquet(data / f"p{i}.parquet", index=False)
    frame.to_parquet(tmp_path / "all.parquet", index=False)
    common = ["--label", "y", "--score", "a", "--score", "b", "--weight", "w", *EVERY_OPTION]
    mem = run(tmp_path / "all.parquet", *common, "--engine", "memory", "--out", tmp_path / "m")
    dsk = run(data, *common, "--engine", "dask", "--out", tmp_path / "k")
    assert mem.returncode == 0 and dsk.returncode == 0, mem.stderr + dsk.stderr
    assert_same_summary(summary(tmp_path / "k"), summary(tmp_path / "m"), "dask")
    got = flat(summary(tmp_path / "k"))
    assert "exact over all 2,253 rows of positive weight" in str(got["/engine/note"])
    kept = frame[frame["w"] > 0]
    assert got["/engine/rows_resampled_from"] == len(kept) == 2253
    # the numbers are those of the library on the rows (an independent recomputation)
    want = prcurve.auc_pr(kept["y"] == 1, kept["a"], sample_weight=kept["w"])
    assert got["/scorers/a/auc_pr/average_precision"] == pytest.approx(want, rel=1e-12)
    assert any(k.startswith("/scorers/a/operating_points/") for k in got)
    assert any(k.startswith("/scorers/b/deployment/") for k in got)
    assert any(k.startswith("/scorers/a/threshold_choice/") for k in got)


def test_dask_on_a_subsample_keeps_exact_numbers_and_rescaled_widths(tmp_path):
    """60,000 rows, ``--subsample 30000``: every exact number equals the in-memory report's;
    each interval's width is within sampling error of the in-memory one.  Bound: a width from
    200 bootstrap replicates has about 10 % noise per percentile end (``_sizing``'s docstring),
    so two independent widths differ by more than 35 % (≈ 2.5 combined standard errors) with
    probability about 1 %; the seeds are fixed, so the test is deterministic."""
    data = tmp_path / "d"
    data.mkdir()
    frame = tied_weighted(60_000, 1, weights=False)
    frame["a"] = frame["a"] + np.random.default_rng(2).normal(scale=1e-3, size=len(frame))
    for i in range(2):
        frame.iloc[30_000 * i : 30_000 * (i + 1)].to_parquet(data / f"p{i}.parquet", index=False)
    frame.to_parquet(tmp_path / "all.parquet", index=False)
    common = ["--label", "y", "--score", "a", "--score", "b", "--prevalence", "0.05",
              "--quiet", "--jobs", "1"]  # fmt: skip
    assert main(["report", str(tmp_path / "all.parquet"), *common, "--engine", "memory",
                 "--out", str(tmp_path / "m")]) == 0  # fmt: skip
    assert main(["report", str(data), *common, "--engine", "dask", "--subsample", "30000",
                 "--out", str(tmp_path / "k")]) == 0  # fmt: skip
    got, ref = summary(tmp_path / "k"), summary(tmp_path / "m")
    assert note_keys(flat(got)) == note_keys(flat(ref))
    # DeLong's intervals come from the exact counts; its paired test from the rows at hand,
    # which the subsample's note says
    # (scaled to all rows by √(m/n), as the other comparisons are)
    dl_got, dl_ref = got["roc_delong"], ref["roc_delong"]
    assert flat(dl_got["scorers"]) == pytest.approx(flat(dl_ref["scorers"]), rel=1e-12)
    assert any("30,000 of the 60,000 rows" in n for n in dl_got["notes"])
    (t_got,), (t_ref,) = dl_got["comparisons"], dl_ref["comparisons"]
    for key in ("auc_a", "auc_b", "difference"):
        assert t_got[key] == pytest.approx(t_ref[key], rel=1e-12), key
    # DeLong's SE from 30,000 of 60,000 rows: its relative noise is about 1/√(2·#positives)
    # ≈ 0.6 % per estimate here; 5 % is far outside it and far inside the √2 of no scaling
    assert t_got["standard_error"] == pytest.approx(t_ref["standard_error"], rel=0.05)
    assert got["engine"]["rows_resampled_from"] == 30_000
    assert "stratified random subsample of 30,000 of those 60,000 rows" in got["engine"]["note"]
    assert got["data"] == ref["data"]  # rows of the data, not of the subsample
    for name in ("a", "b"):
        g, r = got["scorers"][name], ref["scorers"][name]
        assert g["auc_pr"] == pytest.approx(r["auc_pr"], rel=1e-12)
        assert g["n_thresholds"] == r["n_thresholds"]  # distinct thresholds of the data
        for kind in ("logit", "binomial"):
            assert g["auc_pr_ci"]["average_precision"][kind] == pytest.approx(
                r["auc_pr_ci"]["average_precision"][kind], rel=1e-12
            )
        boot_g = g["auc_pr_ci"]["average_precision"]["bootstrap_percentile"]
        boot_r = r["auc_pr_ci"]["average_precision"]["bootstrap_percentile"]
        width = (boot_g["high"] - boot_g["low"]) / (boot_r["high"] - boot_r["low"])
        assert 1 / 1.35 < width < 1.35, (name, width)
        band_g, band_r = g["confidence_band"], r["confidence_band"]
        # the band's reason names the rows it resampled and the data's (item 2)
        assert "subsample of all 60,000 rows" in band_g["method_reason"]
        assert 1 / 1.35 < band_g["radius"] / band_r["radius"] < 1.35
    cg, cr = got["comparisons"][0], ref["comparisons"][0]
    for key in ("estimate_a", "estimate_b", "difference"):  # of all rows, not the subsample
        assert cg[key] == pytest.approx(cr[key], rel=1e-12)
    assert cg["estimate_a"] == pytest.approx(got["scorers"]["a"]["auc_pr"]["average_precision"])
    ratio = (cg["high"] - cg["low"]) / (cr["high"] - cr["low"])
    assert 1 / 1.35 < ratio < 1.35, ratio


@pytest.fixture(scope="module")
def big_folder(tmp_path_factory):
    """16,000 weighted rows in two Parquet files (larger than ``--subsample 6000``, which holds
    the 1000 positives a resampling step needs: the least ``--subsample`` taken)."""
    folder = tmp_path_factory.mktemp("big")
    frame = tied_weighted(16_000, 4)
    frame.iloc[:8000].to_parquet(folder / "p0.parquet", index=False)
    frame.iloc[8000:].to_parquet(folder / "p1.parquet", index=False)
    return folder


REFUSED = [
    pytest.param(
        ["--prevalence-count", "5/100"],
        r"^prcurve: error: --prevalence-count: expected every row to be resampled .* got a "
        r"subsample: --engine dask hands the analysis a stratified subsample of 6,000 of the "
        r"1\d,\d{3} rows of positive weight; give --prevalence, raise --subsample",
        id="prevalence-count",
    ),
    pytest.param(
        ["--weight", "w", "--top-k", "50"],
        r"^prcurve: error: --top-k with --weight: expected every row .* got a subsample: "
        r"--engine dask hands the analysis a stratified subsample of 6,000 of the 1\d,\d{3} rows "
        r"of positive weight; raise --subsample",
        id="top-k-weighted",
    ),
]


@pytest.mark.parametrize(("extra", "message"), REFUSED)
def test_options_needing_every_row_are_refused_on_a_subsample(big_folder, tmp_path, capsys,
                                                              extra, message):  # fmt: skip
    code = main(["report", str(big_folder), "--label", "y", "--score", "a", "--weight", "w",
                 "--engine", "dask", "--subsample", "6000", "--n-resamples", "20", "--quiet",
                 "--out", str(tmp_path / "o"), *extra])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1
    assert err.count("\n") == 1
    with pytest.raises(AssertionError, match=message):
        raise AssertionError(err.strip())
    assert not (tmp_path / "o").exists()


def test_options_needing_every_row_work_when_every_row_is_at_hand(big_folder, tmp_path):
    """The same options with ``--subsample`` above the rows: every row at hand, as in memory."""
    code = main(["report", str(big_folder), "--label", "y", "--score", "a", "--weight", "w",
                 "--engine", "dask", "--subsample", "20000", "--n-resamples", "20", "--quiet",
                 "--prevalence-count", "5/100", "--top-k", "50",
                 "--out", str(tmp_path / "o")])  # fmt: skip
    assert code == 0
    got = summary(tmp_path / "o")
    assert got["settings"]["deployment_prevalence_count"] == [5, 100]
    assert got["scorers"]["a"]["threshold_choice"]["top_k"]["k"] == 50


def test_weighted_subsample_report_on_dask(big_folder, tmp_path):
    """``--weight`` on Dask with a subsample: the areas are the weighted library's; the
    resampling drew from the rows of positive weight."""
    frame = pd.concat([pd.read_parquet(p) for p in sorted(big_folder.glob("*.parquet"))])
    code = main(["report", str(big_folder), "--label", "y", "--score", "a", "--score", "b",
                 "--weight", "w", "--engine", "dask", "--subsample", "6000",
                 "--n-resamples", "30", "--min-recall", "0.5", "--prevalence", "0.1",
                 "--cost-ratio", "3", "--quiet", "--out", str(tmp_path / "o")])  # fmt: skip
    assert code == 0
    got = summary(tmp_path / "o")
    for name in ("a", "b"):
        want = prcurve.pr_curve(frame["y"] == 1, frame[name], sample_weight=frame["w"])
        for method in ("average_precision", "davis_goadrich", "lower_trapezoid"):
            assert got["scorers"][name]["auc_pr"][method] == pytest.approx(
                want.auc(method), rel=1e-12
            )
        assert got["scorers"][name]["deployment"]
        assert got["scorers"][name]["threshold_choice"]["cost_optimal"]["cost_ratio"] == 3
    assert got["engine"]["rows_resampled_from"] == 6000
    assert got["data"]["n"] == 16_000  # rows read (weight 0 included)
    assert any("sample weights (column 'w')" in n for n in got["notes"])


def test_bad_weights_on_dask_are_one_clear_line(tmp_path, capsys):
    folder = tmp_path / "d"
    folder.mkdir()
    frame = tied_weighted(200, 5)
    frame.loc[3, "w"] = -1.0
    frame.to_parquet(folder / "p.parquet", index=False)
    code = main(["report", str(folder), "--label", "y", "--score", "a", "--weight", "w",
                 "--engine", "dask", "--quiet", "--out", str(tmp_path / "o")])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert err.endswith("p.parquet: column 'w' has -1.0 at row 4; expected a weight >= 0\n"), err


def test_csv_separator_encoding_workdir_and_jobs_on_dask(tmp_path):
    """``--sep``, ``--encoding``, ``--workdir`` and ``--jobs 2`` on Dask: the in-memory numbers;
    the working folder is left empty."""
    frame = tied_weighted(1500, 6, weights=False).rename(columns={"a": "scoré"})
    path = tmp_path / "d.csv"
    frame.to_csv(path, sep=";", index=False, encoding="latin-1")
    work = tmp_path / "work"
    work.mkdir()
    common = ["--label", "y", "--score", "scoré", "--score", "b", "--sep", ";", "--encoding",
              "latin-1", "--n-resamples", "40", "--quiet"]  # fmt: skip
    assert main(["report", str(path), *common, "--engine", "memory",
                 "--out", str(tmp_path / "m")]) == 0  # fmt: skip
    assert main(["report", str(path), *common, "--engine", "dask", "--workdir", str(work),
                 "--jobs", "2", "--out", str(tmp_path / "k")]) == 0  # fmt: skip
    got, ref = summary(tmp_path / "k"), summary(tmp_path / "m")
    assert got["scorers"]["scoré"]["auc_pr"] == ref["scorers"]["scoré"]["auc_pr"]
    assert got["scorers"]["b"]["auc_pr_ci"] == ref["scorers"]["b"]["auc_pr_ci"]
    assert got["comparisons"] == ref["comparisons"]
    assert list(work.iterdir()) == []


def test_an_automatic_switch_is_announced_on_stderr_and_on_the_page(tmp_path):
    folder = tmp_path / "d"
    folder.mkdir()
    tied_weighted(400, 7, weights=False).to_parquet(folder / "p.parquet", index=False)
    res = run(folder, "--label", "y", "--score", "a", "--n-resamples", "20",
              "--out", tmp_path / "o")  # fmt: skip
    assert res.returncode == 0, res.stderr
    line = (
        "prcurve: --engine auto chose the Dask engine: the input is a directory or pattern of "
        "files (--engine memory reads one file)\n"
    )
    assert res.stderr.startswith(line)
    got = summary(tmp_path / "o")
    assert got["engine"]["name"] == "dask"
    assert got["engine"]["note"].startswith("--engine auto chose the Dask engine")
    page = (tmp_path / "o" / "report.html").read_text(encoding="utf-8")
    assert "--engine auto chose the Dask engine" in page


@pytest.mark.parametrize("extra", [[], ["--all-points"]], ids=["thinned", "all-points"])
def test_curve_files_are_the_same_on_both_engines(tmp_path, extra):
    """Curve files above the size cap (thinned, with their bound) and ``--all-points`` (every
    point, and Parquet) hold the same bytes whichever engine computed the counts."""
    rng = np.random.default_rng(26)
    n = 110_000  # distinct scores: above the 100,000-point cap of a curve file
    y = rng.random(n) < 0.05
    frame = pd.DataFrame({"y": y.astype(int), "s": rng.normal(size=n) + 1.5 * y})
    path = tmp_path / "big.csv"
    frame.to_csv(path, index=False, float_format="%.17g")
    outs = {}
    for engine in ("memory", "dask"):
        outs[engine] = out = tmp_path / engine
        res = run(path, "--label", "y", "--score", "s", "--out", out, "--engine", engine,
                  "--quiet", "--n-resamples", "20", *extra)  # fmt: skip
        assert res.returncode == 0, res.stderr
    mem, dsk = (summary(outs[e])["curve_files"] for e in ("memory", "dask"))
    assert mem == dsk
    assert mem["scorers"]["s"]["thinned"] is not bool(extra)
    names = ["s.csv", "s.parquet"] if extra else ["s.csv"]
    for name in names:
        a = (outs["memory"] / "curves" / name).read_bytes()
        assert a == (outs["dask"] / "curves" / name).read_bytes(), name
