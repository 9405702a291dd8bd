"""``prcurve report --engine dask``: the same numbers as the in-memory report, clear errors."""

from __future__ import annotations

import json
import sys

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("dask.dataframe")

import prcurve
from prcurve._core._area import AUC_PR_METHODS
from prcurve.cli import main


def write_parts(folder, rng, *, n=3000, parts=3, labels=(0, 1), ties=True):
    """A directory of Parquet files; returns it and the concatenated rows."""
    folder.mkdir()
    frames = []
    for i in range(parts):
        y = rng.random(n) < 0.15
        a = rng.normal(size=n) + 1.2 * y
        frame = pd.DataFrame(
            {
                "y": np.where(y, labels[1], labels[0]),
                "a": np.round(a, 1) if ties else a,
                "b": np.where(rng.random(n) < 0.9, 0.0, rng.normal(size=n) + y),  # 90 % tied
            }
        )
        frame.to_parquet(folder / f"part{i}.parquet", index=False)
        frames.append(frame)
    return folder, pd.concat(frames, ignore_index=True)


def report(*args):
    code = main(["report", *map(str, args), "--quiet"])
    return code


def flat(value, prefix=""):
    """A nested JSON value as {path: leaf} (so numbers compare with pytest.approx)."""
    if isinstance(value, dict):
        return {k: v for key, sub in value.items() for k, v in flat(sub, f"{prefix}/{key}").items()}
    if isinstance(value, list):
        return {k: v for i, sub in enumerate(value) for k, v in flat(sub, f"{prefix}/{i}").items()}
    return {prefix: value}


def assert_same_numbers(got, ref):
    got, ref = flat(got), flat(ref)
    assert got.keys() == ref.keys()
    for key, value in ref.items():
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, abs=1e-12), key
        else:
            assert got[key] == value, key


def summary(out):
    return json.loads((out / "summary.json").read_text())


def test_all_rows_sampled_gives_the_in_memory_report(tmp_path, rng):
    """With a subsample as large as the data, every number equals the in-memory report's."""
    folder, rows = write_parts(tmp_path / "data", rng)
    single = tmp_path / "all.parquet"
    rows.to_parquet(single, index=False)
    common = ["--label", "y", "--score", "a", "--score", "b", "--n-resamples", "50"]
    assert report(folder, *common, "--engine", "dask", "--out", tmp_path / "d") == 0
    assert report(single, *common, "--engine", "memory", "--out", tmp_path / "m") == 0
    got, ref = summary(tmp_path / "d"), summary(tmp_path / "m")
    assert got["data"] == ref["data"]
    for name in ("a", "b"):
        g, r = got["scorers"][name], ref["scorers"][name]
        for method in AUC_PR_METHODS:
            assert g["auc_pr"][method] == pytest.approx(r["auc_pr"][method], abs=1e-12)
        for key in ("roc_auc", "roc_hull_auc", "auprg", "auprg_hull", "n_thresholds"):
            assert g[key] == pytest.approx(r[key], abs=1e-12)
        assert_same_numbers(g["auc_pr_ci"], r["auc_pr_ci"])
    assert "the resampling drew from all 9,000 rows" in got["engine"]["note"]
    assert got["comparisons"]
    assert_same_numbers(got["comparisons"], ref["comparisons"])
    # more: every number of summary.json is the same to the last bit (the Dask engine's count
    # tables are on disk and read in blocks, the memory engine's are not: the same block sums)
    got, ref = flat(got), flat(ref)
    engine_own = {"/engine/name", "/engine/note", "/settings/source"}
    assert got.keys() == ref.keys()
    assert {k: v for k, v in got.items() if k not in engine_own} == {
        k: v for k, v in ref.items() if k not in engine_own
    }


def test_subsample_keeps_exact_areas_and_says_what_was_sampled(tmp_path, rng):
    folder, rows = write_parts(tmp_path / "data", rng, n=4000, ties=False)
    out = tmp_path / "o"
    code = report(folder, "--label", "y", "--score", "a", "--subsample", "8000",
                  "--n-resamples", "20", "--out", out)  # fmt: skip
    assert code == 0  # --engine auto: a directory goes to Dask
    got = summary(out)
    y, a = rows["y"].to_numpy() == 1, rows["a"].to_numpy()
    full = prcurve.pr_curve(y, a)
    assert got["data"]["n"] == 12_000 and got["data"]["n_pos"] == int(y.sum())
    sc = got["scorers"]["a"]
    for method in AUC_PR_METHODS:
        assert sc["auc_pr"][method] == pytest.approx(full.auc(method), abs=1e-12)
    assert sc["roc_auc"] == pytest.approx(full.to_roc().auc(), abs=1e-12)
    assert sc["roc_hull_auc"] == pytest.approx(full.to_roc().convex_hull().auc(), abs=1e-12)
    # 12,000 distinct scores: the analysis has every one (the engine's exact counts)
    assert sc["n_thresholds"] == full.tp.shape[0] == 12_000
    assert "stratified random subsample of 8,000 of those 12,000 rows" in got["engine"]["note"]
    logit = prcurve.auc_pr_interval(full.auc(), int(y.sum()), interval="logit")
    assert sc["auc_pr_ci"]["average_precision"]["logit"]["low"] == pytest.approx(
        logit.interval.low, abs=1e-12
    )


def test_glob_text_labels_and_the_sync_scheduler(tmp_path, rng):
    folder, rows = write_parts(tmp_path / "data", rng, labels=("ok", "fraud"))
    out = tmp_path / "o"
    code = report(str(folder / "part*.parquet"), "--label", "y", "--score", "b",
                  "--pos-label", "fraud", "--scheduler", "sync", "--n-resamples", "20",
                  "--out", out)  # fmt: skip
    assert code == 0
    got = summary(out)
    y = rows["y"].to_numpy() == "fraud"
    assert got["settings"]["positive_label"] == "fraud"
    assert got["scorers"]["b"]["auc_pr"]["average_precision"] == pytest.approx(
        prcurve.auc_pr(y, rows["b"].to_numpy()), abs=1e-12
    )


def test_auto_engine_uses_memory_for_a_small_file_and_dask_above_the_budget(tmp_path, rng):
    from prcurve.cli import _engine, build_parser

    folder, _ = write_parts(tmp_path / "data", rng)
    one = str(folder / "part0.parquet")
    parser = build_parser()
    args = parser.parse_args(["report", one, "--label", "y", "--score", "a"])
    assert _engine(args)[0] == "memory"
    args = parser.parse_args(["report", str(folder), "--label", "y", "--score", "a"])
    assert _engine(args)[0] == "dask"
    args = parser.parse_args(["report", one, "--label", "y", "--score", "a", "--memory-budget",
                              "1"])  # fmt: skip
    assert _engine(args)[0] == "memory"  # a file under 1 MB
    big = tmp_path / "big.parquet"
    pd.DataFrame({"y": np.arange(300_000) % 2, "a": rng.random(300_000)}).to_parquet(big)
    assert big.stat().st_size > 2**20
    args = parser.parse_args(["report", str(big), "--label", "y", "--score", "a",
                              "--memory-budget", "1"])  # fmt: skip
    assert _engine(args)[0] == "dask"


def test_auto_engine_without_dask(tmp_path, rng, monkeypatch, capsys):
    """Without the dask extra a big file is read in memory; a directory is a clear error."""
    from prcurve.cli import _engine, build_parser

    folder, _ = write_parts(tmp_path / "data", rng, n=200, parts=1)
    monkeypatch.setitem(sys.modules, "dask", None)  # import fails
    one = str(folder / "part0.parquet")
    args = build_parser().parse_args(["report", one, "--label", "y", "--score", "a",
                                      "--memory-budget", "1"])  # fmt: skip
    args.memory_budget = 0  # any file is "big"
    assert _engine(args)[0] == "memory"
    code = main(["report", str(folder), "--label", "y", "--score", "a", "--quiet",
                 "--out", str(tmp_path / "o")])  # fmt: skip
    assert code == 1
    err = capsys.readouterr().err
    assert "--engine dask needs Dask; install it with 'pip install prcurve[dask]'" in err
    assert not (tmp_path / "o").exists()


BAD = [
    pytest.param(["--score", "zzz"], {}, r"no column .zzz. in .*p.parquet; the columns", id="col"),
    pytest.param(["--score", "a"], {"labels3": True}, r"3 distinct labels, expected two", id="3"),
    pytest.param(["--score", "a", "--pos-label", "7"], {}, r"--pos-label '7' is not", id="pos"),
    pytest.param(
        ["--score", "a"],
        {"nan": True},
        r"p\.parquet: column 'a' has nan at row 8; expected a finite number$",
        id="nan",
    ),
    pytest.param(
        ["--score", "a"], {"text": True}, r"cannot tell which label in column 'y' is", id="text"
    ),
]


@pytest.mark.parametrize(("extra", "spoil", "message"), BAD)
def test_bad_input_is_one_clear_line_and_no_output(tmp_path, rng, capsys, extra, spoil, message):
    folder = tmp_path / "data"
    folder.mkdir()
    n = 200
    frame = pd.DataFrame({"y": (rng.random(n) < 0.3).astype(int), "a": rng.normal(size=n)})
    if spoil.get("labels3"):
        frame.loc[5, "y"] = 2
    if spoil.get("nan"):
        frame.loc[7, "a"] = np.nan
    if spoil.get("text"):
        frame["y"] = np.where(frame["y"] == 1, "cat", "dog")
    frame.to_parquet(folder / "p.parquet", index=False)
    out = tmp_path / "o"
    code = main(["report", str(folder), "--label", "y", *extra, "--out", str(out), "--quiet"])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.startswith("prcurve: error: ") and err.count("\n") == 1
    assert __import__("re").search(message, err), err
    assert not out.exists()


def test_no_files_matched_is_an_error(tmp_path, capsys):
    code = main(["report", str(tmp_path / "nothing*.parquet"), "--label", "y", "--score", "a",
                 "--out", str(tmp_path / "o"), "--quiet"])  # fmt: skip
    assert code == 1
    assert "no such file, or no Parquet files found there" in capsys.readouterr().err


def test_scheduler_address_runs_on_the_cluster_with_scores_in_worker_memory(tmp_path, rng):
    distributed = pytest.importorskip("distributed")
    folder, rows = write_parts(tmp_path / "data", rng, n=1000, parts=2)
    out = tmp_path / "o"
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        code = report(folder, "--label", "y", "--score", "a", "--scheduler",
                      cluster.scheduler_address, "--n-resamples", "20", "--out", out)  # fmt: skip
    assert code == 0
    y = rows["y"].to_numpy() == 1
    got = summary(out)["scorers"]["a"]["auc_pr"]["davis_goadrich"]
    assert got == pytest.approx(prcurve.auc_pr(y, rows["a"].to_numpy(), method="davis_goadrich"))


def test_csv_glob(tmp_path, rng):
    _, rows = write_parts(tmp_path / "data", rng, n=800, parts=2)
    for i, half in enumerate((rows.iloc[:800], rows.iloc[800:])):
        half.to_csv(tmp_path / f"c{i}.csv", index=False)
    out = tmp_path / "o"
    code = report(str(tmp_path / "c*.csv"), "--label", "y", "--score", "a", "--engine", "dask",
                  "--n-resamples", "20", "--out", out)  # fmt: skip
    assert code == 0
    got = summary(out)["scorers"]["a"]["auc_pr"]["interpolated_median"]
    want = prcurve.auc_pr(rows["y"] == 1, rows["a"], method="interpolated_median")
    assert got == pytest.approx(want, abs=1e-12)


def test_a_long_curve_on_disk_is_read_in_blocks_never_whole(tmp_path, rng, monkeypatch):
    """The ROC and PRG columns of a curve on disk are computed from its counts where read
    (prcurve._core._columns): no step of the report, the figures or the files computes one
    whole.  With the threshold for "whole" just above the largest block any pass reads, a
    curve of 300,000 distinct scores shows a pass that does; and the page equals the in-memory
    engine's."""
    import prcurve._core._columns as columns
    import prcurve._reporting.output._sized as sized

    monkeypatch.setattr(columns, "LARGE", (1 << 17) + 1)
    monkeypatch.setattr(columns, "whole_reads", [0])
    monkeypatch.setattr(sized, "FILE_CHUNK", 1 << 16)  # every point written, a chunk at a time
    data, rows = write_parts(tmp_path / "data", rng, n=100_000, parts=3, ties=False)
    out = tmp_path / "dask"
    assert report(data, "--label", "y", "--score", "a", "--engine", "dask", "--out", out) == 0
    assert columns.whole_reads == [0]
    every = tmp_path / "every"
    assert report(data, "--label", "y", "--score", "a", "--engine", "dask", "--all-points",
                  "--out", every) == 0  # fmt: skip
    assert columns.whole_reads == [0]
    written = pd.read_parquet(every / "curves" / "a.parquet")
    assert written.shape[0] == 300_000 and written["fpr"].dtype == np.float64
    one = tmp_path / "all.parquet"
    rows.to_parquet(one, index=False)
    mem = tmp_path / "mem"
    assert report(one, "--label", "y", "--score", "a", "--engine", "memory", "--out", mem) == 0
    got, want = summary(out), summary(mem)
    assert got["scorers"]["a"]["roc_auc"] == want["scorers"]["a"]["roc_auc"]
    assert got["scorers"]["a"]["auprg"] == want["scorers"]["a"]["auprg"]
    assert got["scorers"]["a"]["best_f1"] == want["scorers"]["a"]["best_f1"]


def _parquet(path, columns, *, row_group_size=None):
    import pyarrow as pa
    import pyarrow.parquet as pq

    pq.write_table(pa.table(columns), path, row_group_size=row_group_size)
    return str(path)


@pytest.mark.parametrize(
    ("values", "expected"),
    [
        pytest.param(np.array([0, 1, 1, 0], dtype=np.int8), [0, 1], id="int8"),
        pytest.param(np.array([1, 2, 2, 1], dtype=np.int64), [1, 2], id="1-2"),
        pytest.param(np.array([0, 1, 1, 0], dtype=np.uint8), [0, 1], id="uint8"),
        pytest.param(np.array([True, False, True, True]), [False, True], id="bool"),
        pytest.param(np.array([0, 2, 2, 0]), None, id="gap"),
        pytest.param(np.array([0, 1, 2, 1]), None, id="three"),
        pytest.param(np.array([1, 1, 1, 1]), None, id="one-value"),
        pytest.param(np.array([0.0, 1.0, 1.0, 0.0]), None, id="float"),
        pytest.param(np.array(["no", "yes", "no", "no"]), None, id="text"),
    ],
)
def test_labels_read_from_parquet_statistics(tmp_path, values, expected):
    from prcurve._reporting.input._dask import _labels_in_statistics

    path = _parquet(tmp_path / "f.parquet", {"y": values, "s": np.arange(4.0)})
    assert _labels_in_statistics([path], "y") == expected


def test_labels_from_statistics_span_row_groups_and_files_and_need_every_group(tmp_path):
    from prcurve._reporting.input._dask import _labels_in_statistics

    zeros = _parquet(tmp_path / "a.parquet", {"y": np.zeros(6, dtype=np.int8)})
    ones = _parquet(tmp_path / "b.parquet", {"y": np.ones(6, dtype=np.int8)})
    assert _labels_in_statistics([zeros], "y") is None  # one value: the value counts say so
    assert _labels_in_statistics([zeros, ones], "y") == [0, 1]
    grouped = _parquet(tmp_path / "c.parquet", {"y": np.array([0, 0, 1, 1])}, row_group_size=2)
    assert _labels_in_statistics([grouped], "y") == [0, 1]
    import pyarrow as pa
    import pyarrow.parquet as pq

    missing = tmp_path / "d.parquet"
    pq.write_table(pa.table({"y": pa.array([0, None, 1], pa.int8())}), missing)
    assert _labels_in_statistics([str(missing), ones], "y") is None  # a null: value counts
    nostats = tmp_path / "e.parquet"
    pq.write_table(pa.table({"y": np.array([0, 1])}), nostats, write_statistics=False)
    assert _labels_in_statistics([str(nostats)], "y") is None
    csv = tmp_path / "f.csv"
    csv.write_text("y\n0\n1\n")
    assert _labels_in_statistics([str(csv)], "y") is None
    # types stored as integers but read as something else: their value counts say what they are
    seconds = tmp_path / "g.parquet"
    pq.write_table(pa.table({"y": pa.array([0, 1, 1], pa.duration("s"))}), seconds)
    assert _labels_in_statistics([str(seconds)], "y") is None
    truth = _parquet(tmp_path / "h.parquet", {"y": np.array([False, True])})
    assert _labels_in_statistics([truth, ones], "y") is None  # bool in one file, int8 in another
    # a row group without rows states nothing, and says nothing about the labels
    schema = pa.schema([("y", pa.int64())])
    empty_group = tmp_path / "i.parquet"
    with pq.ParquetWriter(empty_group, schema) as writer:
        writer.write_table(pa.table({"y": [0, 1, 1]}, schema=schema))
        writer.write_table(pa.table({"y": pa.array([], pa.int64())}, schema=schema))
    assert pq.ParquetFile(empty_group).metadata.num_row_groups == 2
    assert _labels_in_statistics([str(empty_group)], "y") == [0, 1]


@pytest.mark.parametrize("pos_label", [None, "0"])
def test_labels_from_statistics_give_the_value_counts_report(tmp_path, rng, monkeypatch, pos_label):
    """The classes, rows and every number are the same whether the labels come from the
    files' statistics (the label column not read for its counts) or from the value counts."""
    import dask.dataframe as dd

    import prcurve._reporting.input._dask as engine

    folder, _ = write_parts(tmp_path / "data", rng)
    args = ["--label", "y", "--score", "a", "--score", "b", "--engine", "dask",
            "--n-resamples", "20", *(["--pos-label", pos_label] if pos_label else [])]  # fmt: skip
    counted = []
    value_counts = dd.Series.value_counts
    monkeypatch.setattr(
        dd.Series, "value_counts", lambda *a, **k: counted.append(1) or value_counts(*a, **k)
    )
    assert report(folder, *args, "--out", tmp_path / "stats") == 0
    assert counted == []  # the labels came from the statistics
    monkeypatch.setattr(engine, "_labels_in_statistics", lambda files, label: None)
    assert report(folder, *args, "--out", tmp_path / "counts") == 0
    assert counted == [1]
    got, ref = summary(tmp_path / "stats"), summary(tmp_path / "counts")
    assert got["data"] == ref["data"]
    assert flat(got) == flat(ref)


def test_pos_label_not_a_label_still_names_the_rows_with_statistics(tmp_path, rng, capsys):
    folder, rows = write_parts(tmp_path / "data", rng)
    out = tmp_path / "o"
    code = main(["report", str(folder), "--label", "y", "--score", "a", "--engine", "dask",
                 "--pos-label", "7", "--out", str(out), "--quiet"])  # fmt: skip
    assert code == 1
    n_pos = int((rows["y"] == 1).sum())
    assert f"'1' ({n_pos:,} rows)" in capsys.readouterr().err
    assert not out.exists()


@pytest.mark.parametrize("start", ["fork", "forkserver"])
def test_curves_on_disk_go_to_and_from_worker_processes(tmp_path, rng, monkeypatch, start):
    """The Dask engine's curves are on disk, their ratios computed where read: with worker
    processes (forked, or started fresh as on Python 3.12+ and macOS, where every step's curve
    is pickled to the worker) and ``--prevalence`` (the curve at the deployment prevalence
    pickled back), the report equals the one computed in this process."""
    import multiprocessing

    import prcurve._reporting.analysis._parallel as parallel

    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"no {start} start method here")
    folder, _ = write_parts(tmp_path / "data", rng, ties=False)
    args = ["--label", "y", "--score", "a", "--score", "b", "--engine", "dask",
            "--prevalence", "0.05", "--n-resamples", "20"]  # fmt: skip
    assert report(folder, *args, "--jobs", "1", "--out", tmp_path / "here") == 0
    monkeypatch.setattr(parallel, "PARALLEL_MIN_SECONDS", 0.0)
    monkeypatch.setattr(parallel, "_start_method", lambda: start)
    made = []
    real_executor = parallel._executor
    monkeypatch.setattr(parallel, "_executor", lambda n: made.append(n) or real_executor(n))
    assert report(folder, *args, "--jobs", "2", "--out", tmp_path / "workers") == 0
    assert made == [2]
    got, ref = summary(tmp_path / "workers"), summary(tmp_path / "here")
    assert got["scorers"]["a"]["operating_points"] == ref["scorers"]["a"]["operating_points"]
    assert flat(got) == flat(ref)
