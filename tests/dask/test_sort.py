import numpy as np
import pandas as pd
import pytest

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")

from prcurve._core._disk import counts_from_files  # noqa: E402
from prcurve.dask._sort import (  # noqa: E402
    COUNT_COLUMNS,
    collapse,
    join,
    range_boundaries,
    sort_distinct,
    sort_to_counts,
)


def brute_force(s, pos, neg):
    """Distinct scores, highest first, with summed weights: a dictionary, no sorting tricks."""
    acc = {}
    for v, p, q in zip(s.tolist(), pos.tolist(), neg.tolist(), strict=True):
        a = acc.setdefault(v, [0, 0])
        a[0] += p
        a[1] += q
    keys = sorted(acc, reverse=True)
    return np.array(keys), np.array([acc[k][0] for k in keys]), np.array([acc[k][1] for k in keys])


def rows_frame(s, y, parts):
    p = y.astype(np.int64)
    frame = pd.DataFrame({"s": s, "pos": p, "neg": 1 - p})
    return dd.from_pandas(frame, npartitions=parts, sort=False)


@pytest.mark.parametrize("kind", ["ties", "dominant_tie", "constant", "continuous", "integers"])
@pytest.mark.parametrize("target", [1, 37, 10**6])
def test_ranges_are_the_sorted_distinct_scores(rng, tmp_path, kind, target):
    n = 3000
    y = rng.random(n) < 0.2
    s = rng.normal(size=n)
    if kind == "ties":
        s = np.round(s, 1)
    elif kind == "dominant_tie":  # 90 % of the rows at one score
        s = np.where(rng.random(n) < 0.9, 0.0, s)
    elif kind == "constant":
        s = np.full(n, -1.5)
    elif kind == "integers":
        s = rng.integers(-50, 50, size=n)
    p = y.astype(np.int64)
    sources, stats = sort_distinct(rows_frame(s, y, 6), tmp_path, target_rows=target)
    tables = [np.load(f) for f in sources]
    got = np.concatenate([t["s"] for t in tables])
    want_s, want_pos, want_neg = brute_force(s, p, 1 - p)
    np.testing.assert_array_equal(got, want_s)
    assert got.dtype == s.dtype
    np.testing.assert_array_equal(np.concatenate([t["pos"] for t in tables]), want_pos)
    np.testing.assert_array_equal(np.concatenate([t["neg"] for t in tables]), want_neg)
    for t, st in zip(tables, stats, strict=True):
        assert st["n"] == t.shape[0] > 0
        assert (st["pos"], st["neg"]) == (t["pos"].sum(), t["neg"].sum())
        starts = np.flatnonzero(t["pos"] > 0)
        assert st["first_start"] == (starts[0] if starts.size else -1)
    # the run files are gone; only the ranges remain
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f.rsplit("/", 1)[-1] for f in sources
    )
    if kind == "continuous" and target == 37:
        # ranges near the target size (sampled boundaries): many ranges, none huge
        assert len(sources) > 30 and max(st["n"] for st in stats) < 4 * 37


def test_dominant_tie_costs_one_row_per_partition(rng, tmp_path):
    """A tie holding most rows is summed inside each partition before the ranges are formed."""
    n = 20_000
    s = np.where(rng.random(n) < 0.95, 0.0, rng.normal(size=n))
    y = rng.random(n) < 0.1
    _, stats = sort_distinct(rows_frame(s, y, 10), tmp_path, target_rows=200)
    distinct = np.unique(s).shape[0]
    assert sum(st["n"] for st in stats) == distinct
    assert max(st["n"] for st in stats) < 4 * 200


def test_collapse_sums_weights_of_equal_scores():
    s = np.array([0.5, -0.0, 0.5, 0.0, 2.0])
    pos = np.array([1.5, 0.0, 2.0, 1.0, 0.25])
    neg = np.array([0.0, 3.0, 1.0, 0.0, 0.0])
    got = collapse(s, pos, neg)
    np.testing.assert_array_equal(got[0], [0.0, 0.5, 2.0])
    np.testing.assert_array_equal(got[1], [1.0, 3.5, 0.25])
    np.testing.assert_array_equal(got[2], [3.0, 1.0, 0.0])


def test_boundaries_split_by_sampled_rows():
    runs = [
        {"n": 1000, "sample": np.linspace(0, 1, 101), "weights": np.full(101, 1000 / 101)},
        {"n": 0, "sample": np.empty(0), "weights": np.empty(0)},
    ]
    bounds = range_boundaries(runs, 250)
    np.testing.assert_allclose(bounds, [0.25, 0.5, 0.75], atol=0.011)
    assert range_boundaries(runs, 1000).shape == (0,)


@pytest.mark.parametrize("sizes", [(0, 0), (0, 5), (5, 0), (1, 1), (40, 3), (3, 40), (200, 200)])
def test_join_is_the_table_of_both_classes(rng, sizes):
    """Two classes' distinct scores and counts joined: equal to a dictionary's union, whichever
    class is larger, with shared scores, scores only in one class and both ends."""
    grid = np.arange(60, dtype=np.float64) / 4
    vp = np.sort(rng.choice(grid, size=min(sizes[0], 60), replace=False))
    vn = np.sort(rng.choice(grid, size=min(sizes[1], 60), replace=False))
    cp, cn = rng.integers(1, 5, vp.shape[0]), rng.integers(1, 5, vn.shape[0])
    s, pos, neg = join(vp, cp, vn, cn)
    want = {}
    for v, c in zip(vp.tolist(), cp.tolist(), strict=True):
        want.setdefault(v, [0, 0])[0] += c
    for v, c in zip(vn.tolist(), cn.tolist(), strict=True):
        want.setdefault(v, [0, 0])[1] += c
    keys = sorted(want)
    np.testing.assert_array_equal(s, keys)
    np.testing.assert_array_equal(pos, [want[k][0] for k in keys])
    np.testing.assert_array_equal(neg, [want[k][1] for k in keys])


@pytest.mark.parametrize("kind", ["ties", "dominant_tie", "continuous", "integers", "weights"])
@pytest.mark.parametrize("target", [1, 37, 10**6])
def test_sort_to_counts_writes_the_count_table(rng, tmp_path, kind, target):
    """The files hold every distinct score highest first with the cumulative counts, equal to
    a brute-force table's cumulative sums (exactly: integer counts; weights to rounding)."""
    n = 3000
    y = rng.random(n) < 0.2
    s = rng.normal(size=n)
    p = y.astype(np.int64)
    if kind == "ties":
        s = np.round(s, 1)
    elif kind == "dominant_tie":
        s = np.where(rng.random(n) < 0.9, 0.0, s)
    elif kind == "integers":
        s = rng.integers(-50, 50, size=n)
    elif kind == "weights":
        s = np.round(s, 1)
        w = rng.choice([0.5, 1.0, 2.5], size=n)
        p = np.where(y, w, 0.0)
    neg = (w - p) if kind == "weights" else 1 - p
    frame = dd.from_pandas(pd.DataFrame({"s": s, "pos": p, "neg": neg}), npartitions=6, sort=False)
    dtypes = (s.dtype, p.dtype)
    k, n_pos, n_neg = sort_to_counts(frame, tmp_path, dtypes, target_rows=target)
    want_s, want_pos, want_neg = brute_force(s, p, neg)
    assert k == want_s.shape[0]
    assert sorted(f.name for f in tmp_path.iterdir()) == sorted(COUNT_COLUMNS)  # runs removed
    thresholds, tp, fp = counts_from_files(
        tmp_path, COUNT_COLUMNS, raw=((s.dtype, p.dtype, p.dtype), k)
    )
    np.testing.assert_array_equal(thresholds, want_s)
    if kind == "weights":
        np.testing.assert_allclose(tp, np.cumsum(want_pos), rtol=1e-12)
        np.testing.assert_allclose(fp, np.cumsum(want_neg), rtol=1e-12)
        assert n_pos == pytest.approx(want_pos.sum(), rel=1e-12)
    else:
        np.testing.assert_array_equal(tp, np.cumsum(want_pos))
        np.testing.assert_array_equal(fp, np.cumsum(want_neg))
        assert (n_pos, n_neg) == (want_pos.sum(), want_neg.sum())
    for name in COUNT_COLUMNS:  # cut to the distinct scores
        assert (tmp_path / name).stat().st_size == k * 8


def test_runs_of_counts_keep_a_tie_as_one_row_per_partition(rng, tmp_path, monkeypatch):
    """Per-class runs sum ties too: a tie holding most rows costs one row per partition and
    class (its count written beside), and the ranges' table is the brute-force one."""
    import prcurve.dask._sort as sort

    runs = []

    def write_run(rows, prefix):
        runs.append(real(rows, prefix))
        return runs[-1]

    real = sort.write_run
    monkeypatch.setattr(sort, "write_run", write_run)
    n = 20_000
    s = np.where(rng.random(n) < 0.95, 0.0, rng.normal(size=n))
    y = rng.random(n) < 0.1
    k, _, _ = sort_to_counts(rows_frame(s, y, 10), tmp_path, (s.dtype, np.dtype(np.int64)), 200)
    assert k == np.unique(s).shape[0]
    assert len(runs) == 10 and all(r["kind"] == "classes" for r in runs)
    assert all(r["repeats"] == (True, True) for r in runs)  # the tie, in both classes
    assert sum(r["n"] for r in runs) <= (n - (s == 0).sum()) + 2 * 10


def test_weighted_counts_on_disk_never_step_down(rng, tmp_path):
    """Each range goes on from the last cumulative count of the range above it, so TP and FP
    never decrease across range edges, and the totals are the last counts exactly."""
    n = 4000
    s = np.round(rng.normal(size=n), 2)
    w = rng.exponential(size=n)
    y = rng.random(n) < 0.3
    p = np.where(y, w, 0.0)
    frame = dd.from_pandas(pd.DataFrame({"s": s, "pos": p, "neg": w - p}), npartitions=5)
    k, n_pos, n_neg = sort_to_counts(frame, tmp_path, (s.dtype, p.dtype), target_rows=50)
    _, tp, fp = counts_from_files(tmp_path, COUNT_COLUMNS, raw=((s.dtype, p.dtype, p.dtype), k))
    assert np.all(np.diff(tp) >= 0) and np.all(np.diff(fp) >= 0)
    assert (n_pos, n_neg) == (tp[-1], fp[-1])
