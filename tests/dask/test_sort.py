import numpy as np
import pandas as pd
import pytest

dask = pytest.importorskip("dask")
dd = pytest.importorskip("dask.dataframe")

from prcurve.dask._sort import collapse, range_boundaries, sort_distinct  # noqa: E402


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
        {"n": 1000, "sample": np.linspace(0, 1, 101), "weight": 1000 / 101},
        {"n": 0, "sample": np.empty(0), "weight": 0.0},
    ]
    bounds = range_boundaries(runs, 250)
    np.testing.assert_allclose(bounds, [0.25, 0.5, 0.75], atol=0.011)
    assert range_boundaries(runs, 1000).shape == (0,)
