import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

dask = pytest.importorskip("dask")
da = pytest.importorskip("dask.array")
dd = pytest.importorskip("dask.dataframe")

import prcurve  # noqa: E402
import prcurve.dask  # noqa: E402
from prcurve._core._area import AUC_PR_METHODS  # noqa: E402

from ..core.test_thin import observed_error  # noqa: E402


@pytest.fixture(autouse=True, params=[40, None], ids=["small-ranges", "default-ranges"])
def range_rows(request, monkeypatch):
    """Sort the distinct scores in ranges of about 40 rows (many ranges, so the passes cross
    range edges, ties and recall groups included), and with the default size (one range)."""
    if request.param is not None:
        monkeypatch.setattr("prcurve.dask._sort.TARGET_ROWS", request.param)
    return request.param


def make(kind, rng, n=6000):
    y = rng.random(n) < 0.1
    y[:2] = True, False
    s = rng.normal(size=n) + 1.5 * y
    w = None
    if kind == "ties":
        s = np.round(s * 4) / 4
    elif kind == "weights":
        s = np.round(s, 1)
        w = rng.choice([0.0, 0.5, 1.0, 2.5], size=n)
        w[:2] = 1.0
    elif kind == "dominant_tie":  # 90 % of the rows at score 0
        s = np.where(rng.random(n) < 0.9, 0.0, np.round(s, 2))
    elif kind == "constant":
        s = np.full(n, 0.25)
    elif kind == "continuous":
        pass
    elif kind == "integers":
        s = np.floor(s * 3).astype(np.int64)
    return y, s, w


def as_dask(v, parts):
    return None if v is None else da.from_array(v, chunks=-(-v.shape[0] // parts))


def assert_areas(got, full):
    for method in AUC_PR_METHODS:
        assert got.auc(method) == pytest.approx(full.auc(method), abs=1e-12), method


@pytest.mark.parametrize("kind", ["ties", "weights", "dominant_tie", "constant", "integers"])
@pytest.mark.parametrize("parts", [1, 3, 7])
def test_equals_in_memory_exactly(rng, kind, parts):
    y, s, w = make(kind, rng)
    full = prcurve.pr_curve(y, s, sample_weight=w)
    got = prcurve.dask.pr_curve(
        as_dask(y, parts), as_dask(s, parts), sample_weight=as_dask(w, parts)
    )
    assert got.thinning is None
    np.testing.assert_array_equal(got.thresholds, full.thresholds)
    assert got.thresholds.dtype == full.thresholds.dtype
    if w is None:
        np.testing.assert_array_equal(got.tp, full.tp)
        np.testing.assert_array_equal(got.fp, full.fp)
        assert got.tp.dtype == np.int64 and (got.n_pos, got.n_neg) == (full.n_pos, full.n_neg)
    else:
        np.testing.assert_allclose(got.tp, full.tp, rtol=1e-12)
        np.testing.assert_allclose(got.fp, full.fp, rtol=1e-12)
    assert_areas(got, full)


@pytest.mark.parametrize("kind", ["continuous", "weights_continuous", "dominant_tie"])
@pytest.mark.parametrize("parts", [1, 4, 9])
def test_thinned_curve_carries_the_exact_areas_and_hull(rng, kind, parts):
    y, s, w = make("continuous", rng, n=8000)
    if kind == "weights_continuous":
        w = rng.random(y.size) * 2
    elif kind == "dominant_tie":
        s = np.where(rng.random(y.size) < 0.9, 0.0, s)
    full = prcurve.pr_curve(y, s, sample_weight=w)
    got = prcurve.dask.pr_curve(
        as_dask(y, parts), as_dask(s, parts), sample_weight=as_dask(w, parts), max_points=150
    )
    info = got.thinning
    assert info.n_points == full.tp.shape[0] > 150
    assert got.tp.shape[0] <= max(150, full.achievable().tp.shape[0] + 1)
    assert_areas(got, full)
    assert info.roc_auc == pytest.approx(full.to_roc().auc(), abs=1e-12)
    a, b = got.achievable(), full.achievable()
    np.testing.assert_array_equal(a.thresholds, b.thresholds)
    np.testing.assert_allclose(a.tp, b.tp, rtol=1e-12)
    assert got.thresholds[0] == full.thresholds[0] and got.thresholds[-1] == full.thresholds[-1]
    assert observed_error(full, got) <= info.max_precision_error + 1e-12
    # the in-memory thinning of the same curve has the same kind of bound
    assert info.max_precision_error < 4 * full.thin(150).thinning.max_precision_error + 1e-9


def test_interpolated_median_groups_spanning_many_partitions(rng):
    """Long runs of negative-only scores cross partitions: the medians are found across them."""
    n = 3000
    s = np.arange(n, dtype=np.float64)[::-1]
    y = np.zeros(n, bool)
    y[[0, 5, 1200, 2999]] = True
    full = prcurve.pr_curve(y, s)
    for parts in (2, 13, 50):
        got = prcurve.dask.pr_curve(as_dask(y, parts), as_dask(s, parts), max_points=20)
        assert_areas(got, full)


def test_dataframe_columns_pos_label_and_curve_path(rng, tmp_path):
    y, s, _ = make("continuous", rng, n=5000)
    pdf = pd.DataFrame({"label": np.where(y, "fraud", "ok"), "score": s})
    ddf = dd.from_pandas(pdf, npartitions=5)
    got = prcurve.dask.pr_curve(
        ddf["label"], ddf["score"], pos_label="fraud", max_points=100, curve_path=tmp_path / "c"
    )
    full = prcurve.pr_curve(y, s)
    assert_areas(got, full)
    written = pd.read_parquet(tmp_path / "c").sort_values("threshold", ascending=False)
    np.testing.assert_array_equal(written["threshold"], full.thresholds)
    np.testing.assert_array_equal(written["tp"], full.tp)
    np.testing.assert_array_equal(written["fp"], full.fp)
    np.testing.assert_allclose(written["precision"], full.precision, rtol=1e-15)


def test_auc_pr_and_intervals_weighted(rng):
    y, s, w = make("weights", rng)
    ref = prcurve.auc_pr_ci(y, s, sample_weight=w, method="davis_goadrich", interval="binomial")
    got = prcurve.dask.auc_pr_ci(
        as_dask(y, 3),
        as_dask(s, 3),
        sample_weight=as_dask(w, 3),
        method="davis_goadrich",
        interval="binomial",
    )
    assert got.estimate == pytest.approx(ref.estimate, abs=1e-12)
    assert got.n_pos == pytest.approx(ref.n_pos, rel=1e-12)
    assert got.interval.low == pytest.approx(ref.interval.low, abs=1e-12)
    for method in AUC_PR_METHODS:
        assert prcurve.dask.auc_pr(
            as_dask(y, 4), as_dask(s, 4), sample_weight=as_dask(w, 4), method=method
        ) == pytest.approx(prcurve.auc_pr(y, s, sample_weight=w, method=method), abs=1e-12)


def test_workdir_memory_and_distributed_client(rng):
    distributed = pytest.importorskip("distributed")
    y, s, _ = make("ties", rng, n=3000)
    full = prcurve.pr_curve(y, s)
    with distributed.Client(
        processes=False, n_workers=1, threads_per_worker=1, dashboard_address=None
    ) as client:
        got = prcurve.dask.pr_curve(
            as_dask(y, 3), as_dask(s, 3), scheduler=client, workdir="memory"
        )
    np.testing.assert_array_equal(got.tp, full.tp)
    got = prcurve.dask.pr_curve(as_dask(y, 3), as_dask(s, 3), scheduler="sync")
    np.testing.assert_array_equal(got.fp, full.fp)


def test_errors(rng):
    y, s, _ = make("ties", rng, n=100)
    bad = s.copy()
    bad[[3, 50]] = np.nan
    with pytest.raises(
        ValueError, match=r"y_score: expected finite numbers, got NaNs \(2 non-finite"
    ):
        prcurve.dask.pr_curve(as_dask(y, 2), as_dask(bad, 2))
    with pytest.raises(ValueError, match="y_true: expected both classes, got only negatives"):
        prcurve.dask.pr_curve(as_dask(np.zeros(100, bool), 2), as_dask(s, 2))
    with pytest.raises(ValueError, match="y_true: expected two classes, got 3"):
        prcurve.dask.pr_curve(as_dask(np.arange(100) % 3, 2), as_dask(s, 2))
    with pytest.raises(ValueError, match="pos_label: expected one of the labels"):
        prcurve.dask.pr_curve(as_dask(y, 2), as_dask(s, 2), pos_label=7)
    with pytest.raises(
        TypeError, match="y_score: expected a dask array or a dask dataframe column, got ndarray"
    ):
        prcurve.dask.pr_curve(as_dask(y, 2), s)
    with pytest.raises(ValueError, match="sample_weight: expected non-negative weights"):
        prcurve.dask.pr_curve(as_dask(y, 2), as_dask(s, 2), sample_weight=as_dask(-np.ones(100), 2))
    with pytest.raises(ValueError, match="max_points: expected an integer >= 2"):
        prcurve.dask.pr_curve(as_dask(y, 2), as_dask(s, 2), max_points=1)
    with pytest.raises(ValueError, match="method: expected one of"):
        prcurve.dask.auc_pr(as_dask(y, 2), as_dask(s, 2), method="roc")
    # a row vector is refused with the in-memory message; a column is read as a vector
    row = da.from_array(y.reshape(1, -1), chunks=(1, 50))
    with pytest.raises(
        ValueError, match=r"y_true: expected a 1-D array or a column of shape \(n, 1\), got a row"
    ):
        prcurve.dask.pr_curve(row, as_dask(s, 2))
    column = da.from_array(y.reshape(-1, 1), chunks=(50, 1))
    want = prcurve.auc_pr(y, s)
    assert prcurve.dask.auc_pr(column, as_dask(s, 2)) == pytest.approx(want, rel=1e-12)


def test_import_prcurve_does_not_import_dask():
    code = "import sys, prcurve; assert 'dask' not in sys.modules, 'dask imported'"
    subprocess.run([sys.executable, "-c", code], check=True)


def _soft(rng, n=6000, weighted=False):
    p = rng.beta(0.4, 0.6, size=n)
    p[:300] = 0.0
    p[300:400] = 1.0
    s = np.round(rng.normal(size=n) + 1.5 * p, 2)  # ties across partitions
    w = rng.random(n) * 3 if weighted else None
    if weighted:
        w[::17] = 0.0
    return p, s, w


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("parts", [1, 5])
def test_soft_labels_equal_in_memory(rng, weighted, parts):
    """Soft labels on Dask give the in-memory soft curve: the same thresholds, and masses
    equal to rounding (sums of up to 6000 terms in another order: relative error < 1e-12)."""
    p, s, w = _soft(rng, weighted=weighted)
    dw = None if w is None else as_dask(w, parts)
    full = prcurve.pr_curve(p, s, sample_weight=w, soft_labels=True)
    got = prcurve.dask.pr_curve(
        as_dask(p, parts), as_dask(s, parts), sample_weight=dw, soft_labels=True,
        max_points=10**6,
    )  # fmt: skip
    np.testing.assert_array_equal(got.thresholds, full.thresholds)
    np.testing.assert_allclose(got.tp, full.tp, rtol=1e-12)
    np.testing.assert_allclose(got.fp, full.fp, rtol=1e-12)
    thin = prcurve.dask.pr_curve(
        as_dask(p, parts), as_dask(s, parts), sample_weight=dw, soft_labels=True, max_points=50
    )
    for method in AUC_PR_METHODS:
        assert thin.auc(method) == pytest.approx(full.auc(method), abs=1e-12), method
        assert prcurve.dask.auc_pr(
            as_dask(p, parts), as_dask(s, parts), sample_weight=dw, method=method,
            soft_labels=True,
        ) == pytest.approx(full.auc(method), abs=1e-12)  # fmt: skip


def test_soft_labels_prroc_value_hard_labels_and_interval(rng):
    """PRROC's published soft-label area on Dask; hard labels given as soft give the ordinary
    (integer) curve; the interval's n_pos is Kish's (Σp)²/Σp², as for the split data."""
    from ..core._r_rng import RRandom

    r = RRandom(113)
    scores = np.concatenate([r.rnorm(100, 2.0), r.rnorm(100, 0.0)])
    wfg = np.concatenate([r.runif(100, 0.5, 1.0), r.runif(100, 0.0, 0.5)])
    area = prcurve.dask.auc_pr(
        as_dask(wfg, 3), as_dask(scores, 3), method="davis_goadrich", soft_labels=True
    )
    assert area == pytest.approx(0.7053830324, abs=1e-10)
    y, s, _ = make("ties", rng)
    hard = prcurve.dask.pr_curve(as_dask(y.astype(float), 3), as_dask(s, 3), soft_labels=True)
    ordinary = prcurve.pr_curve(y, s)
    assert hard.tp.dtype == ordinary.tp.dtype == np.int64
    np.testing.assert_array_equal(hard.tp, ordinary.tp)
    np.testing.assert_array_equal(hard.fp, ordinary.fp)
    got = prcurve.dask.auc_pr_ci(as_dask(wfg, 3), as_dask(scores, 3), soft_labels=True)
    split = prcurve.auc_pr_ci(
        np.r_[np.ones(200), np.zeros(200)], np.r_[scores, scores], sample_weight=np.r_[wfg, 1 - wfg]
    )
    assert got.n_pos == pytest.approx(wfg.sum() ** 2 / (wfg**2).sum(), rel=1e-12)
    assert got.n_pos == pytest.approx(split.n_pos, rel=1e-12)
    assert got.interval.low == pytest.approx(split.interval.low, abs=1e-12)


def test_soft_label_errors_are_the_in_memory_ones(rng):
    p, s, _ = _soft(rng, n=100)
    bad = p.copy()
    bad[[57, 80]] = 1.5, np.nan
    with pytest.raises(
        ValueError,
        match=r"^y_true: expected label probabilities in \[0, 1\] \(soft_labels=True\), got "
        r"1\.5 at index 57 \(2 invalid in total\)$",
    ):
        prcurve.dask.pr_curve(as_dask(bad, 4), as_dask(s, 4), soft_labels=True)
    with pytest.raises(TypeError, match=r"^pos_label: not used with soft_labels=True"):
        prcurve.dask.auc_pr(as_dask(p, 2), as_dask(s, 2), pos_label=1, soft_labels=True)
    with pytest.raises(TypeError, match=r"^soft_labels: expected True or False, got 1$"):
        prcurve.dask.pr_curve(as_dask(p, 2), as_dask(s, 2), soft_labels=1)
    ones = np.ones(100)
    ones[10] = 0.5
    weight = np.ones(100)
    weight[10] = 0.0
    with pytest.raises(
        ValueError,
        match=r"^y_true: expected some negative mass \(a label probability below 1 with positive "
        r"weight\), got all label probabilities 1$",
    ):
        prcurve.dask.pr_curve(
            as_dask(ones, 2), as_dask(s, 2), sample_weight=as_dask(weight, 2), soft_labels=True
        )
    with pytest.raises(ValueError, match=r"^sample_weight: expected non-negative weights"):
        prcurve.dask.pr_curve(
            as_dask(p, 2), as_dask(s, 2), sample_weight=as_dask(-weight, 2), soft_labels=True
        )


@pytest.mark.parametrize("kind", ["ties", "weights", "dominant_tie", "constant", "integers"])
@pytest.mark.parametrize("parts", [1, 3, 7])
def test_exact_counts_on_disk_equal_memory(rng, tmp_path, kind, parts):
    """The report's Dask engine: every partition writes its rows of the count table into
    files, mapped by the counts (prcurve._core._disk), never gathered in memory; the counts
    equal the in-memory engine's, and the folder is in ``workdir`` until discarded."""
    from prcurve._core._counts import count_sorted
    from prcurve._core._disk import discard_files, is_on_disk
    from prcurve.dask._curve import compute_counts

    y, s, w = make(kind, rng)
    kept = slice(None) if w is None else w > 0  # rows of weight 0 are left out, as in memory
    full = count_sorted(y[kept], s[kept], None if w is None else w[kept])
    got = compute_counts(
        as_dask(y, parts), as_dask(s, parts), sample_weight=as_dask(w, parts),
        workdir=str(tmp_path),
    )  # fmt: skip
    assert all(is_on_disk(a) for a in (got.thresholds, got.tp, got.fp))
    np.testing.assert_array_equal(got.thresholds, full.thresholds)
    assert got.thresholds.dtype == full.thresholds.dtype and got.tp.dtype == full.tp.dtype
    if w is None:
        np.testing.assert_array_equal(got.tp, full.tp)
        np.testing.assert_array_equal(got.fp, full.fp)
        assert (got.n_pos, got.n_neg) == (full.n_pos, full.n_neg)
    else:
        np.testing.assert_allclose(got.tp, full.tp, rtol=1e-12)
        np.testing.assert_allclose(got.fp, full.fp, rtol=1e-12)
    assert [p.name.startswith("prcurve-counts-") for p in tmp_path.iterdir()] == [True]
    discard_files()
    assert list(tmp_path.iterdir()) == []
    np.testing.assert_array_equal(got.tp[-3:], full.tp[-3:])  # still mapped (POSIX)


@pytest.mark.parametrize("kind", ["ties", "weights", "integers"])
def test_exact_counts_with_the_table_in_worker_memory_are_written_here(rng, kind):
    """``workdir="memory"`` (a cluster's workers may not share a folder with the client): the
    partitions are brought to the client one at a time and written there; the same counts."""
    from prcurve._core._counts import count_sorted
    from prcurve._core._disk import is_on_disk
    from prcurve.dask._curve import compute_counts

    y, s, w = make(kind, rng)
    kept = slice(None) if w is None else w > 0
    full = count_sorted(y[kept], s[kept], None if w is None else w[kept])
    got = compute_counts(
        as_dask(y, 4), as_dask(s, 4), sample_weight=as_dask(w, 4), workdir="memory"
    )
    assert is_on_disk(got.tp)
    np.testing.assert_array_equal(got.thresholds, full.thresholds)
    np.testing.assert_allclose(got.tp, full.tp, rtol=1e-12)
    np.testing.assert_allclose(got.fp, full.fp, rtol=1e-12)


@pytest.mark.parametrize(
    ("spoil", "error", "message"),
    [
        ("nan", ValueError, r"expected finite numbers, got NaNs \(2 non-finite values in total, "
                            r"2 NaN\); no curve was computed"),
        ("inf", ValueError, r"got infinite values \(1 non-finite value in total, 0 NaN\)"),
        ("negatives", ValueError, r"y_true: expected both classes, got only negatives"),
        ("positives", ValueError, r"y_true: expected both classes, got only positives"),
    ],
)  # fmt: skip
def test_boolean_labels_are_validated_by_the_sorts_first_pass(
    rng, tmp_path, monkeypatch, spoil, error, message
):
    """The report's rows (boolean labels, no weights) skip the validation pass: the sort's
    first pass counts what it needs, the same errors are raised after it, and nothing is left
    in ``workdir``; the counts are those of the other path."""
    import prcurve.dask._curve as curve

    y = rng.random(3000) < 0.2
    s = rng.normal(size=3000)
    if spoil == "nan":
        s[[5, 2900]] = np.nan
    elif spoil == "inf":
        s[17] = -np.inf
    elif spoil == "negatives":
        y[:] = False
    elif spoil == "positives":
        y[:] = True
    real = curve.check_dask_problem

    def no_validation_pass(*args, **kwargs):
        raise AssertionError("a validation pass of its own")

    monkeypatch.setattr(curve, "check_dask_problem", no_validation_pass)
    with pytest.raises(error, match=message):
        curve.compute_counts(as_dask(y, 3), as_dask(s, 3), workdir=str(tmp_path))
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(curve, "check_dask_problem", real)
    with pytest.raises(error, match=message.split(r"\)")[0]):  # the same error otherwise
        curve.compute_counts(as_dask(y.astype(int), 3), as_dask(s, 3), workdir=str(tmp_path))
