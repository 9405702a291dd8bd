"""Curves on disk (prcurve._core._disk): the same numbers as in memory, in bounded memory.

A curve whose counts are memory-mapped files (the Dask and Spark engines' exact counts) is
read block by block.  Every quantity the report takes from it is checked against the same
curve in memory: bit for bit where the additions are the same (hull vertices, thinning,
segment sums, the threshold view), to rounding where block sums change their order (average
precision, ROC and PRG areas, the chance test).  Long curves (more than two blocks) exercise
the blocks themselves; a traced-memory check bounds what a long curve's analysis holds.
"""

import tracemalloc
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from prcurve._core._area import AUC_PR_METHODS
from prcurve._core._counts import BinaryCounts, count_sorted
from prcurve._core._disk import (
    block_sum,
    counts_from_files,
    derived_on_disk,
    first_index,
    is_on_disk,
    release,
)
from prcurve._core._empirical import PRCurve
from prcurve._inference._chance import below_chance_test
from prcurve._prg._curve import PRGCurve
from prcurve.compat import compare_tools_from_counts

REL = 1e-12  # block sums add the same terms in another order


def on_disk(counts: BinaryCounts, folder: Path) -> BinaryCounts:
    """``counts`` written to ``folder`` and mapped back, as the Dask engine hands them over."""
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("thresholds", "tp", "fp"):
        np.save(folder / f"{name}.npy", getattr(counts, name))
    arrays = counts_from_files(folder, ("thresholds", "tp", "fp"))
    return BinaryCounts(*arrays, counts.n_pos, counts.n_neg)


def data(n: int, seed: int, *, weighted: bool = False, ties: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.1
    s = rng.normal(size=n) + 1.2 * y
    if ties:
        s = np.round(s * ties) / ties
    w = rng.exponential(size=n) if weighted else None
    return y, s, w


def same_numbers(mem: BinaryCounts, disk: BinaryCounts) -> None:
    a, b = PRCurve.from_counts(mem), PRCurve.from_counts(disk)
    assert is_on_disk(b.precision) and is_on_disk(b.recall)
    assert np.array_equal(a.precision, b.precision) and np.array_equal(a.recall, b.recall)
    for m in AUC_PR_METHODS:
        assert b.auc(m) == pytest.approx(a.auc(m), rel=REL, abs=1e-15), m
    ra, rb = a.to_roc(), b.to_roc()
    assert is_on_disk(rb.fpr)
    assert np.array_equal(np.asarray(rb.fpr), ra.fpr) and np.array_equal(rb.tpr[:], ra.tpr)
    assert rb.auc() == pytest.approx(ra.auc(), rel=REL)
    assert np.array_equal(ra.convex_hull().tp, rb.convex_hull().tp)
    assert np.array_equal(a.achievable().thresholds, b.achievable().thresholds)
    ga, gb = PRGCurve.from_pr(a), PRGCurve.from_pr(b)
    assert is_on_disk(gb.recall_gain)
    assert np.array_equal(np.asarray(gb.recall_gain), ga.recall_gain)
    assert np.array_equal(np.asarray(gb.precision_gain), ga.precision_gain)
    assert gb.y0 == ga.y0
    assert gb.auc() == pytest.approx(ga.auc(), rel=REL, abs=1e-15)
    assert gb.best_f_threshold() == ga.best_f_threshold()
    ta, tb = a.thin(300), b.thin(300)
    assert np.array_equal(ta.tp, tb.tp) and np.array_equal(ta.thresholds, tb.thresholds)
    if ta.thinning is not None:
        assert ta.thinning.max_precision_error == tb.thinning.max_precision_error
    eff = None if not mem.weighted else (10.0, 50.0)
    ca, cb = (below_chance_test(c.tp, c.fp, effective_counts=eff) for c in (a, b))
    assert cb.roc_auc == pytest.approx(ca.roc_auc, rel=REL) and cb.z == pytest.approx(
        ca.z, rel=1e-9
    )
    tools_a, tools_b = compare_tools_from_counts(mem), compare_tools_from_counts(disk)
    for ra_, rb_ in zip(tools_a.rows, tools_b.rows, strict=True):
        if ra_.value is None:
            assert rb_.value is None
        else:
            assert rb_.value == pytest.approx(ra_.value, rel=1e-11, abs=1e-15), ra_.tool


@pytest.mark.parametrize(
    ("n", "weighted", "ties"),
    [(400_000, False, 0), (300_000, False, 50), (300_000, True, 0), (300_000, True, 20)],
)
def test_long_curve_on_disk_gives_the_numbers_of_memory(tmp_path, n, weighted, ties):
    y, s, w = data(n, 3, weighted=weighted, ties=ties)
    mem = count_sorted(y, s, w)
    assert mem.tp.shape[0] > 2 * (1 << 16) or ties  # more than two blocks (not when tied)
    same_numbers(mem, on_disk(mem, tmp_path / "c"))


@settings(max_examples=40, deadline=None)
@given(
    n=st.integers(2, 300),
    seed=st.integers(0, 2**16),
    weighted=st.booleans(),
    ties=st.sampled_from([0, 1, 3, 100]),
)
def test_any_small_curve_on_disk_gives_the_numbers_of_memory(tmp_path_factory, n, seed,
                                                             weighted, ties):  # fmt: skip
    y, s, w = data(n, seed, weighted=weighted, ties=ties)
    y[0], y[-1] = True, False  # both classes
    same_numbers(
        count_sorted(y, s, w), on_disk(count_sorted(y, s, w), tmp_path_factory.mktemp("c"))
    )


def test_release_keeps_the_data_and_gives_the_pages_back(tmp_path):
    np.save(tmp_path / "a.npy", np.arange(3_000_000, dtype=np.int64))
    (a,) = counts_from_files(tmp_path, ("a",))
    assert is_on_disk(a) and is_on_disk(np.asarray(a)[5:9]) and not is_on_disk(a + 1)
    total = block_sum(a.shape[0], lambda b: a[b], a)
    assert total == 3_000_000 * 2_999_999 / 2
    release(np.asarray(a)[10:1_000_000])
    assert int(a[123_456]) == 123_456 and int(a[-1]) == 2_999_999
    release(np.arange(5))  # in memory: nothing to do
    assert first_index(a.shape[0], lambda b: a[b] >= 2_500_000, a) == 2_500_000
    assert first_index(a.shape[0], lambda b: a[b] < 0, a) == a.shape[0]
    doubled = derived_on_disk(a, lambda b: a[b] * 2.0)
    assert is_on_disk(doubled) and doubled[-1] == 2 * 2_999_999.0


def test_the_folder_goes_with_the_counts(tmp_path):
    folder = tmp_path / "counts"
    disk = on_disk(count_sorted(*data(1000, 1)[:2]), folder)
    assert folder.exists()
    del disk
    import gc

    gc.collect()
    assert not folder.exists()


def test_a_long_curve_on_disk_is_analysed_in_bounded_memory(tmp_path):
    """The report's quantities of 4·10⁶ points (1 % positives; 96 MB of counts) hold a chunk
    of points and one array per recall level at a time: the traced peak stays under 40 MB,
    where one pass over whole arrays makes at least two temporaries of 32 MB."""
    from prcurve._reporting.analysis._analysis import derived_curves

    rng = np.random.default_rng(7)
    y = rng.random(4_000_000) < 0.01
    s = rng.normal(size=y.shape[0]) + 1.5 * y
    disk = on_disk(count_sorted(y, s), tmp_path / "c")
    del y, s
    tracemalloc.start()
    try:
        pr = PRCurve.from_counts(disk)
        derived_curves(pr)
        {m: pr.auc(m) for m in AUC_PR_METHODS}
        pr.thin(1000)
        below_chance_test(pr.tp, pr.fp)
        compare_tools_from_counts(disk)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 40 * 2**20, f"{peak / 2**20:.1f} MiB"


@pytest.mark.parametrize(
    ("chunk", "span"), [(4, 1 << 20), (1 << 16, 64), (3, 40), (1 << 16, 1 << 25)]
)
def test_take_from_disk_in_chunks_of_bounded_count_and_span(tmp_path, monkeypatch, chunk, span):
    """Gathers from a table on disk go a chunk at a time, each chunk holding at most
    TAKE_CHUNK indices over at most TAKE_SPAN bytes (its pages handed back after it): the same
    values as one gather, whatever the chunking."""
    import prcurve._core._disk as disk

    monkeypatch.setattr(disk, "TAKE_CHUNK", chunk)
    monkeypatch.setattr(disk, "TAKE_SPAN", span)
    mem = count_sorted(*data(5000, 1)[:2])
    tp = on_disk(mem, tmp_path / "c").tp
    spans = []
    real = disk.release

    def release(view, *, exact=False):
        if exact:
            spans.append(view.nbytes)
        real(view, exact=exact)

    monkeypatch.setattr(disk, "release", release)
    rng = np.random.default_rng(2)
    idx = np.unique(rng.integers(0, tp.shape[0], 300))
    np.testing.assert_array_equal(disk.take(tp, idx), mem.tp[idx])
    assert spans and max(spans) <= max(span, tp.itemsize) and len(spans) >= len(idx) / chunk


def test_remembered_computes_once_per_table_even_when_asked_at_once(tmp_path):
    """Two threads asking for the same pass over a table on disk: one computes, the other
    waits and gets the same (read-only) result; arrays in memory are computed every time."""
    import threading
    import time

    from prcurve._core._disk import remembered

    mem = count_sorted(*data(2000, 4)[:2])
    disk = on_disk(mem, tmp_path / "c")
    calls = []

    def compute():
        calls.append(1)
        time.sleep(0.2)
        return np.arange(3)

    got = []
    threads = [
        threading.Thread(target=lambda: got.append(remembered((disk.tp, disk.fp), "k", compute)))
        for _ in range(2)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(calls) == 1 and got[0] is got[1] and not got[0].flags.writeable
    assert remembered((disk.tp, disk.fp), "other", lambda: 5) == 5
    assert remembered((disk.fp, disk.tp), "k", lambda: 7) == 7  # another pair of arrays
    remembered((mem.tp, mem.fp), "k", compute)
    remembered((mem.tp, mem.fp), "k", compute)
    assert len(calls) == 3


def test_curves_on_disk_export_their_computed_columns(tmp_path):
    """to_frame of the ROC and PRG curves of a curve on disk: the columns computed from its
    counts are exported as numbers (pandas would take a lazy column for one value)."""
    pd = pytest.importorskip("pandas")
    mem = count_sorted(*data(3000, 6)[:2])
    a = PRCurve.from_counts(mem)
    b = PRCurve.from_counts(on_disk(mem, tmp_path / "c"))
    pd.testing.assert_frame_equal(b.to_roc().to_frame(), a.to_roc().to_frame())
    pd.testing.assert_frame_equal(PRGCurve.from_pr(b).to_frame(), PRGCurve.from_pr(a).to_frame())


def test_the_memo_of_a_curve_goes_with_it(tmp_path):
    """Once a curve on disk is gone, its memo entry (which holds its other arrays) is gone
    too, so no mapping of its deleted files stays open."""
    import gc

    import prcurve._core._disk as disk

    mem = count_sorted(*data(3000, 7)[:2])
    counts = on_disk(mem, tmp_path / "c")
    PRCurve.from_counts(counts).auc()  # remembered for (tp, fp)
    assert any(e[0]() is counts.tp for e in disk._memos)
    del counts
    gc.collect()
    assert all(e[0]() is not None for e in disk._memos)
    assert not (tmp_path / "c").exists()
