"""CountColumn: a column computed from counts where read behaves as the stored array."""

from __future__ import annotations

import pickle

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve._core import _columns
from prcurve._core._columns import CountColumn, read_rows
from prcurve._core._disk import derived_columns, is_on_disk


def column(values: np.ndarray, calls: list | None = None) -> CountColumn:
    def compute(rows):
        if calls is not None:
            calls.append(rows)
        return values[rows] * 2.0

    return CountColumn(compute, values.shape[0])


@settings(max_examples=200)
@given(
    n=st.integers(1, 60),
    start=st.integers(-70, 70),
    stop=st.integers(-70, 70),
    step=st.sampled_from([None, 1, 2, -1, -3]),
    data=st.data(),
)
def test_indexing_gives_the_values_of_the_stored_array(n, start, stop, step, data):
    values = np.arange(n, dtype=np.float64) ** 1.5
    col, want = column(values), values * 2.0
    part = slice(start, stop, step)
    np.testing.assert_array_equal(np.asarray(col[part]), want[part])
    i = data.draw(st.integers(-n, n - 1))
    assert col[i] == want[i]
    idx = np.asarray(data.draw(st.lists(st.integers(-n, n - 1), max_size=20)), dtype=np.intp)
    np.testing.assert_array_equal(col[idx], want[idx])
    mask = np.asarray(data.draw(st.lists(st.booleans(), min_size=n, max_size=n)))
    np.testing.assert_array_equal(col[mask], want[mask])
    np.testing.assert_array_equal(col >= want.mean(), want >= want.mean())
    np.testing.assert_array_equal(np.diff(col), np.diff(want))
    assert col.shape == (n,) and len(col) == n and col.dtype == np.float64
    assert is_on_disk(col)
    np.testing.assert_array_equal(col[:, np.newaxis], want[:, np.newaxis])  # as matplotlib does
    back = pickle.loads(pickle.dumps(col))
    assert type(back) is np.ndarray  # pickled as the array it stands for, as a memmap is
    np.testing.assert_array_equal(back, want)


def test_a_short_slice_is_computed_once_a_long_one_stays_a_column(monkeypatch):
    monkeypatch.setattr(_columns, "VIEW_ROWS", 10)
    calls: list = []
    col = column(np.arange(100.0), calls)
    block = col[5:15]
    assert isinstance(block, np.ndarray) and calls == [slice(5, 15)]
    view = col[3:90]
    assert isinstance(view, CountColumn) and len(calls) == 1  # nothing computed yet
    np.testing.assert_array_equal(view[2:12], np.arange(5.0, 15.0) * 2.0)
    assert calls[-1] == slice(5, 15)  # the view's rows in the counts' numbering


def test_computing_a_long_column_whole_is_counted(monkeypatch):
    monkeypatch.setattr(_columns, "LARGE", 50)
    monkeypatch.setattr(_columns, "whole_reads", [0])
    col = column(np.arange(100.0))
    np.asarray(col[:40])
    assert _columns.whole_reads == [0]
    float(np.sum(col))
    assert _columns.whole_reads == [1]


def test_bad_indices_are_refused_with_the_column_length():
    col = column(np.arange(5.0))
    with pytest.raises(IndexError, match="index 5 is out of bounds for a column of 5 rows"):
        col[5]
    with pytest.raises(IndexError, match="an index is out of bounds for a column of 5 rows"):
        col[np.array([0, 7])]
    with pytest.raises(IndexError, match=r"a mask of shape \(3,\) for a column of 5 rows"):
        col[np.array([True, False, True])]
    with pytest.raises(IndexError, match="indexed by integers or a mask, got float64"):
        col[np.array([0.5])]
    with pytest.raises(IndexError, match="indexed by integers or a mask, got a boolean scalar"):
        col[True]
    assert col[[]].shape == (0,) and col[np.array([], dtype=np.intp)].dtype == np.float64


def test_a_column_is_read_only():
    col = column(np.arange(5.0))
    with pytest.raises(TypeError):
        np.add(np.ones(5), 1.0, out=(col,))


def test_read_rows_gathers_in_any_order():
    a = np.arange(10.0) * 3
    idx = np.array([7, 2, 9, 2, 0])
    np.testing.assert_array_equal(read_rows(a, idx), a[idx])
    np.testing.assert_array_equal(read_rows(a, slice(2, 6)), a[2:6])


def test_derived_columns_in_memory_fill_blocks_in_order():
    """Blocks come in increasing order, so a running total carries from one to the next."""
    like = np.arange(10)
    total = [0.0]

    def running(part):
        out = np.cumsum(like[part].astype(float)) + total[0]
        total[0] = float(out[-1])
        return out, like[part] % 2 == 0

    cum, even = derived_columns(like, running, (np.float64, bool), block=3)
    np.testing.assert_array_equal(cum, np.cumsum(np.arange(10.0)))
    np.testing.assert_array_equal(even, np.arange(10) % 2 == 0)


def test_a_pass_over_a_column_reads_each_block_of_counts_once(tmp_path):
    """The blockwise passes over a ROC or PRG curve on disk compute each block of its columns
    once: handing a block's pages back does not compute the block again."""
    from prcurve._core._counts import count_sorted
    from prcurve._prg._curve import PRGCurve

    from .test_disk import data, on_disk

    mem = count_sorted(*data(600_000, 5)[:2])
    pr = __import__("prcurve._core._empirical", fromlist=["PRCurve"]).PRCurve.from_counts(
        on_disk(mem, tmp_path / "c")
    )
    n = pr.tp.shape[0]
    roc, prg = pr.to_roc(), PRGCurve.from_pr(pr)
    rows = [0]
    for c in (roc.fpr, roc.tpr, prg.precision_gain, prg.recall_gain):
        real = c._values

        def counted(r, real=real):
            rows[0] += r.stop - r.start if isinstance(r, slice) else r.shape[0]
            return real(r)

        c._values = counted
    roc.auc()
    assert rows[0] <= 2 * n + 10  # fpr and tpr, once each
    rows[0] = 0
    prg.auc()
    assert rows[0] <= 4 * n  # the start (a search) and both gains once


def test_a_short_curve_on_disk_plots(tmp_path):
    """matplotlib indexes what it plots with tuples (``x[:, np.newaxis]``): the PR curve of
    counts on disk (precision and recall computed where read) plots its points."""
    import matplotlib

    matplotlib.use("Agg")
    from prcurve._core._counts import BinaryCounts, count_sorted
    from prcurve._core._disk import counts_from_files
    from prcurve._core._empirical import PRCurve
    from prcurve.plot import PRCurveDisplay

    y = np.array([1, 0, 1, 1, 0, 0, 1, 0], dtype=bool)
    s = np.array([8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0])
    counts = count_sorted(y, s)
    for key in ("thresholds", "tp", "fp"):
        np.save(tmp_path / f"{key}.npy", getattr(counts, key))
    arrays = counts_from_files(tmp_path, ("thresholds", "tp", "fp"))
    on_disk = PRCurve.from_counts(BinaryCounts(*arrays, counts.n_pos, counts.n_neg))
    assert is_on_disk(on_disk.precision) and is_on_disk(on_disk.recall)
    display = PRCurveDisplay(on_disk).plot(points=True)
    (points,) = [line for line in display.ax_.lines if line.get_marker() == "o"]
    want = PRCurve.from_counts(counts)
    np.testing.assert_array_equal(points.get_xdata(), want.recall)
    np.testing.assert_array_equal(points.get_ydata(), want.precision)
