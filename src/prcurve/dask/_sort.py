"""Ties collapsed and distinct scores sorted out of core, in two passes of Dask tasks.

Dask's own ``groupby(...).sum(split_out=...)`` followed by ``sort_values`` shuffles the rows
twice, and its local disk shuffle keeps a large in-memory buffer (about 4 GB of peak memory for
10⁸ rows).  Here the shuffle is one pass over the rows and one over score ranges, each task
holding one partition or one range:

1. **Runs.**  Each partition is reduced to its sorted distinct scores (ties within the
   partition summed: one row per distinct score, so one enormous tie costs one row per
   partition), written as ``.npy`` files, and a few of its values (evenly spaced in the run)
   are returned.  Counts (unweighted hard labels) are kept per class: each class's distinct
   scores, and their counts only where some score repeats -- 8 bytes a row for continuous
   scores, where a table of (score, positives, negatives) took 24.  Weights keep the table.
2. **Ranges.**  From those values the client picks score boundaries splitting the runs' rows
   into ranges of about ``target_rows``; each range's task reads its slice of every run (a
   binary search in a memory-mapped file, so only the slice is read), sorts the slices
   together and sums the ties across partitions.  Equal scores always fall in the same range,
   so the result is exact.

The ranges, in decreasing score order, are the sorted table of distinct scores:
:func:`sort_distinct` writes each range's table (highest first) for the passes of
:mod:`prcurve.dask._passes` to read one at a time; :func:`sort_to_counts` writes the whole
count table (thresholds, TP, FP) straight into three files, each range appended after the
one above it.

Measured on 10⁸ continuous scores (10 partitions, 2 cores): the per-class runs and the join
of two classes by binary search took pass 1 from 0.49 to about 0.2 s a partition; writing
the counts from the ranges directly saved writing, reading and copying 2.4 GB of range tables.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["TARGET_ROWS", "collapse", "range_boundaries", "sort_distinct", "sort_to_counts"]

#: Rows (distinct scores of one partition) per range: about 24 MB per range in memory.
TARGET_ROWS = 1_000_000
#: Values sampled from each run to choose the range boundaries.
_SAMPLES = 256
_FIELDS = ("s", "pos", "neg")
#: The files of a run of counts: each class's distinct scores and (where some repeat) counts.
_CLASS_FILES = ("p", "pc", "n", "nc")


def collapse(
    s: np.ndarray, pos: np.ndarray, neg: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Distinct scores in increasing order with the summed weights of their rows.

    Rows of hard labels without weights (each row's ``pos`` and ``neg`` 0 and 1, from the
    engine's own table) take :func:`_collapse_rows`.  Otherwise one (unstable: equal scores
    are summed in any order) ``argsort``.
    """
    if s.shape[0] == 0:
        return s, pos, neg
    if pos.dtype.kind in "iu" and neg.dtype.kind in "iu" and _one_row_each(pos, neg):
        (vp, cp), (vn, cn) = _class_counts(s, pos.astype(bool))
        return join(vp, cp, vn, cn)
    order = np.argsort(s)
    s = s[order]
    starts = np.flatnonzero(np.concatenate([[True], s[1:] != s[:-1]]))
    if starts.shape[0] == s.shape[0]:
        return s, pos[order], neg[order]
    return s[starts], np.add.reduceat(pos[order], starts), np.add.reduceat(neg[order], starts)


def _one_row_each(pos: np.ndarray, neg: np.ndarray) -> bool:
    """Whether every row is one instance: a positive (1, 0) or a negative (0, 1)."""
    return bool(np.all((pos + neg) == 1) and np.all((pos == 0) | (pos == 1)))


def _distinct(sorted_scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The distinct values of a sorted array and how many times each occurs."""
    if sorted_scores.shape[0] == 0:
        return sorted_scores, np.empty(0, dtype=np.int64)
    starts = np.flatnonzero(np.concatenate([[True], sorted_scores[1:] != sorted_scores[:-1]]))
    counts = np.diff(np.append(starts, sorted_scores.shape[0]))
    return sorted_scores[starts], counts


def _class_counts(
    s: np.ndarray, is_pos: np.ndarray
) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
    """Each class's distinct scores (increasing) and their counts, of unweighted rows: each
    class sorted on its own with ``np.sort`` (a vectorised sort, about 15 times faster than an
    ``argsort`` carrying the counts along)."""
    return _distinct(np.sort(s[is_pos])), _distinct(np.sort(s[~is_pos]))


def join(
    vp: np.ndarray, cp: np.ndarray, vn: np.ndarray, cn: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The table (distinct scores increasing, positive and negative count) of two classes'
    tables of distinct scores ``v`` and counts ``c``.

    The smaller table is placed in the larger by binary search and both are scattered into
    place: linear in the larger table (0.07 s for 10⁷ negatives and 10⁵ positives, where
    sorting the union and searching both tables in it took 0.31 s).
    """
    if vp.shape[0] > vn.shape[0]:
        s, neg, pos = join(vn, cn, vp, cp)
        return s, pos, neg
    dtype = np.result_type(vp.dtype, vn.dtype)
    big, small = vn.astype(dtype, copy=False), vp.astype(dtype, copy=False)
    at = np.searchsorted(big, small)  # big values below each small one
    shared = at < big.shape[0]
    shared[shared] = big[at[shared]] == small[shared]
    new = np.flatnonzero(~shared)
    # each big value moves up by the number of new small values below it
    shift = np.cumsum(np.bincount(at[new], minlength=big.shape[0] + 1))[: big.shape[0]]
    big_at = np.arange(big.shape[0]) + shift
    new_at = at[new] + np.arange(new.shape[0])
    m = big.shape[0] + new.shape[0]
    s = np.empty(m, dtype=dtype)
    pos = np.zeros(m, dtype=np.result_type(cp.dtype, cn.dtype))
    neg = np.zeros(m, dtype=pos.dtype)
    s[big_at], neg[big_at] = big, cn
    s[new_at], pos[new_at] = small[new], cp[new]
    pos[big_at[at[shared]]] = cp[shared]
    return s, pos, neg


def write_run(rows: Any, prefix: str) -> dict[str, Any]:
    """Pass 1 on one partition of (s, pos, neg) rows: its sorted distinct scores, on disk.

    Counts are written per class (:data:`_CLASS_FILES`: ``prefix.p.npy`` the positives'
    distinct scores, ``prefix.pc.npy`` their counts only where one repeats; ``n``, ``nc`` the
    negatives'); weights as one table (``prefix.s/pos/neg.npy``).
    """
    s, pos, neg = rows["s"].to_numpy(), rows["pos"].to_numpy(), rows["neg"].to_numpy()
    facts = _facts(s, pos, neg)  # what validating the rows needs (prcurve.dask._input)
    if facts["n_bad"]:  # nothing to sort: the caller raises
        return {"prefix": prefix, "kind": "none", "n": 0} | facts | _sample(())
    if pos.dtype.kind in "iu" and neg.dtype.kind in "iu":
        if _one_row_each(pos, neg):
            classes = _class_counts(s, pos.astype(bool))
        else:  # counts of several rows each (not from the engine's own table)
            s, pos, neg = collapse(s, pos, neg)
            classes = ((s[pos > 0], pos[pos > 0]), (s[neg > 0], neg[neg > 0]))
        repeats = []
        for name, (values, counts) in zip(("p", "n"), classes, strict=True):
            np.save(f"{prefix}.{name}.npy", values)
            repeats.append(bool(counts.shape[0]) and int(counts.max()) > 1)
            if repeats[-1]:
                np.save(f"{prefix}.{name}c.npy", counts)
        (vp, _), (vn, _) = classes
        run = {"prefix": prefix, "kind": "classes", "n": vp.shape[0] + vn.shape[0],
               "sizes": (vp.shape[0], vn.shape[0]), "repeats": tuple(repeats),
               "dtype": vp.dtype}  # fmt: skip
        return run | facts | _sample((vp, vn))
    s, pos, neg = collapse(s, pos, neg)
    for name, values in zip(_FIELDS, (s, pos, neg), strict=True):
        np.save(f"{prefix}.{name}.npy", values)
    return {"prefix": prefix, "kind": "table", "n": s.shape[0]} | facts | _sample((s,))


def _facts(s: np.ndarray, pos: np.ndarray, neg: np.ndarray) -> dict[str, Any]:
    """The rows of a partition, its non-finite scores (and NaNs among them) and its positive
    and negative totals."""
    bad = int(np.count_nonzero(~np.isfinite(s))) if s.dtype.kind == "f" else 0
    return {
        "rows": s.shape[0],
        "n_bad": bad,
        "n_nan": int(np.count_nonzero(np.isnan(s))) if bad else 0,
        "pos_rows": pos.sum(),
        "neg_rows": neg.sum(),
    }


def _sample(runs: tuple[np.ndarray, ...]) -> dict[str, np.ndarray]:
    """Evenly spaced values of sorted arrays, each standing for the rows around it."""
    values, weights = [], []
    for run in runs:
        n = run.shape[0]
        if n == 0:
            continue
        at = np.unique(np.linspace(0, n - 1, min(n, _SAMPLES)).round().astype(np.int64))
        values.append(run[at])
        weights.append(np.full(at.shape[0], n / at.shape[0]))
    if not values:
        return {"sample": np.empty(0), "weights": np.empty(0)}
    return {"sample": np.concatenate(values), "weights": np.concatenate(weights)}


def range_boundaries(runs: list[dict[str, Any]], target_rows: int) -> np.ndarray:
    """Increasing score boundaries ``b`` such that the ranges (−∞, b₀], (b₀, b₁], …, (b_last, ∞)
    each hold about ``target_rows`` rows of the runs (from the runs' samples)."""
    total = sum(r["n"] for r in runs)
    k = -(-total // target_rows)
    if k <= 1:
        return np.empty(0)
    values = np.concatenate([r["sample"] for r in runs if r["n"]])
    weights = np.concatenate([r["weights"] for r in runs if r["n"]])
    order = np.argsort(values, kind="stable")
    values, cum = values[order], np.cumsum(weights[order])
    at = np.searchsorted(cum, total * np.arange(1, k) / k)
    return np.unique(values[np.minimum(at, values.shape[0] - 1)])


def _rows_in(v: np.ndarray, low: Any, high: Any) -> slice:
    """The rows of the sorted array ``v`` with values in (low, high] (None: unbounded)."""
    lo = 0 if low is None else int(np.searchsorted(v, low, side="right"))
    hi = v.shape[0] if high is None else int(np.searchsorted(v, high, side="right"))
    return slice(lo, max(lo, hi))


def _class_in_range(
    runs: list[dict[str, Any]], name: str, low: Any, high: Any, dtype: np.dtype
) -> tuple[np.ndarray, np.ndarray]:
    """One class's distinct scores in (low, high] over every run, with their counts."""
    which = 0 if name == "p" else 1
    values, counts = [], []
    for run in runs:
        if run["sizes"][which] == 0:
            continue
        prefix = run["prefix"]
        v = np.load(f"{prefix}.{name}.npy", mmap_mode="r")  # only the range's rows are read
        rows = _rows_in(v, low, high)
        if rows.stop > rows.start:
            values.append(np.array(v[rows]))
            repeats = run["repeats"][which]
            c = np.load(f"{prefix}.{name}c.npy", mmap_mode="r") if repeats else None
            counts.append(None if c is None else np.array(c[rows]))
    if not values:
        return np.empty(0, dtype=dtype), np.empty(0, dtype=np.int64)
    v = np.concatenate(values)
    if all(c is None for c in counts):  # no score repeats within a run: sort the scores alone
        v.sort()
        return _distinct(v)
    c = np.concatenate([np.ones(a.shape[0], np.int64) if b is None else b
                        for a, b in zip(values, counts, strict=True)])  # fmt: skip
    order = np.argsort(v)  # unstable: integer counts sum the same in any order
    v, c = v[order], c[order]
    starts = np.flatnonzero(np.concatenate([[True], v[1:] != v[:-1]]))
    return v[starts], np.add.reduceat(c, starts)


def range_table(
    runs: list[dict[str, Any]], low: Any, high: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Pass 2 on one score range (low, high]: the distinct scores of every run in it (highest
    first) and their summed positive and negative counts or weights; None when empty."""
    runs = [r for r in runs if r["n"]]
    if not runs:
        return None
    if runs[0]["kind"] == "classes":
        dtype = runs[0]["dtype"]
        vp, cp = _class_in_range(runs, "p", low, high, dtype)
        vn, cn = _class_in_range(runs, "n", low, high, dtype)
        if vp.shape[0] + vn.shape[0] == 0:
            return None
        s, pos, neg = join(vp, cp, vn, cn)
    else:
        pieces: list[list[np.ndarray]] = [[], [], []]
        for run in runs:
            prefix = run["prefix"]
            v = np.load(f"{prefix}.s.npy", mmap_mode="r")
            rows = _rows_in(v, low, high)
            if rows.stop == rows.start:
                continue
            for i, name in enumerate(_FIELDS):
                column = v if i == 0 else np.load(f"{prefix}.{name}.npy", mmap_mode="r")
                pieces[i].append(np.array(column[rows]))
        if not pieces[0]:
            return None
        s, pos, neg = collapse(*(np.concatenate(p) for p in pieces))
    return s[::-1], pos[::-1], neg[::-1]


def merge_range(
    runs: list[dict[str, Any]], low: Any, high: Any, path: str
) -> dict[str, Any] | None:
    """Pass 2 on one score range (low, high] (:func:`range_table`), written as a table
    highest first; returns the range's totals (None when empty)."""
    got = range_table(runs, low, high)
    if got is None:
        return None
    s, pos, neg = got
    table = np.empty(s.shape[0], dtype=[("s", s.dtype), ("pos", pos.dtype), ("neg", neg.dtype)])
    table["s"], table["pos"], table["neg"] = s, pos, neg
    np.save(path, table)
    starts = np.flatnonzero(pos > 0)
    return {
        "source": path,
        "n": s.shape[0],
        "pos": pos.sum(),
        "neg": neg.sum(),
        "first_start": int(starts[0]) if starts.size else -1,
        "last_start": int(starts[-1]) if starts.size else -1,
    }


def _runs_and_edges(
    rows: Any,
    folder: Path,
    target_rows: int | None,
    check: Callable[[list[dict[str, Any]]], None] | None = None,
) -> tuple[list, list]:
    """Pass 1 (the runs, written into ``folder``) and the ranges' edges, highest range first.

    ``check(runs)`` may raise on what the runs found (their files are then removed)."""
    import dask

    parts = rows.to_delayed()
    runs = list(
        dask.compute(
            *[dask.delayed(write_run)(p, str(folder / f"run.{i:06d}")) for i, p in enumerate(parts)]
        )
    )
    if check is not None:
        try:
            check(runs)
        except BaseException:
            _remove_runs(runs)
            raise
    bounds = range_boundaries(runs, target_rows or TARGET_ROWS)
    edges: list[Any] = [None, *bounds.tolist(), None]
    return runs, [(edges[j], edges[j + 1]) for j in reversed(range(len(edges) - 1))]


def _remove_runs(runs: list[dict[str, Any]]) -> None:
    for run in runs:
        for name in (*_FIELDS, *_CLASS_FILES):
            Path(f"{run['prefix']}.{name}.npy").unlink(missing_ok=True)


def sort_distinct(
    rows: Any, folder: Path, target_rows: int | None = None
) -> tuple[list[str], list[dict[str, Any]]]:
    """The sorted table of distinct scores of a dask DataFrame of (s, pos, neg) rows.

    Returns the range files (``.npy`` tables, highest scores first) and their totals (the
    ``summary`` of :mod:`prcurve.dask._passes`); ``folder`` must be readable and writable by
    every worker.  The run files are removed once the ranges are written.  ``target_rows``
    defaults to :data:`TARGET_ROWS`.
    """
    import dask

    runs, ranges = _runs_and_edges(rows, folder, target_rows)
    tasks = [
        dask.delayed(merge_range)(runs, low, high, str(folder / f"range.{j:06d}.npy"))
        for j, (low, high) in enumerate(ranges)
    ]
    done = [r for r in dask.compute(*tasks) if r is not None]
    _remove_runs(runs)
    return [r["source"] for r in done], done


#: The count table's columns, as :func:`sort_to_counts` writes them into its folder.
COUNT_COLUMNS = ("thresholds", "tp", "fp")


def sort_to_counts(
    rows: Any,
    folder: Path,
    dtypes: tuple[Any, Any],
    target_rows: int | None = None,
    *,
    check: Callable[[list[dict[str, Any]]], None] | None = None,
) -> tuple[int, Any, Any]:
    """The whole count table of a dask DataFrame of (s, pos, neg) rows, written into the raw
    files ``folder/thresholds``, ``tp`` and ``fp`` (``dtypes``: the scores' and the counts'):
    every distinct score, highest first, with the TP and FP at it.

    Each range's table (:func:`range_table`) goes straight to its place: the ranges are
    computed in parallel, and each is appended (by a chain of small tasks, in score order)
    after the one above it, which says where it ended and the counts above it.  The files
    are made as long as the runs' rows (sparse) and cut to the distinct scores at the end.
    Returns the number of distinct scores and the positive and negative totals.  ``check``
    validates the rows from what the first pass found (:func:`_runs_and_edges`).
    """
    import dask

    runs, ranges = _runs_and_edges(rows, folder, target_rows, check)
    capacity = max(1, sum(r["n"] for r in runs))
    for name, dtype in zip(COUNT_COLUMNS, (dtypes[0], dtypes[1], dtypes[1]), strict=True):
        with open(folder / name, "wb") as f:
            f.truncate(capacity * np.dtype(dtype).itemsize)
    zero = np.dtype(dtypes[1]).type(0)
    state: Any = (0, zero, zero)
    for low, high in ranges:
        table = dask.delayed(range_table)(runs, low, high)
        state = dask.delayed(_append_counts)(table, state, str(folder), dtypes)
    try:
        k, n_pos, n_neg = dask.compute(state)[0]
    finally:
        _remove_runs(runs)
    for name, dtype in zip(COUNT_COLUMNS, (dtypes[0], dtypes[1], dtypes[1]), strict=True):
        os.truncate(folder / name, max(k, 1) * np.dtype(dtype).itemsize)
    return k, n_pos, n_neg


def _append_counts(
    table: tuple[np.ndarray, np.ndarray, np.ndarray] | None,
    state: tuple[int, Any, Any],
    folder: str,
    dtypes: tuple[Any, Any],
) -> tuple[int, Any, Any]:
    """Write one range's rows of the count table after the rows above it (``state``: where
    they end and their TP and FP); return the state after this range."""
    offset, tp_before, fp_before = state
    if table is None:
        return state
    s, pos, neg = table
    n = s.shape[0]
    columns = (s, tp_before + np.cumsum(pos), fp_before + np.cumsum(neg))
    for name, dtype, values in zip(COUNT_COLUMNS, (dtypes[0], dtypes[1], dtypes[1]), columns,
                                   strict=True):  # fmt: skip
        item = np.dtype(dtype).itemsize
        out = np.memmap(
            Path(folder) / name, dtype=dtype, mode="r+", offset=offset * item, shape=(n,)
        )
        out[:] = values  # in the page cache: every mapping of the file sees it, no msync
        del out
    # the last row's counts (not tp_before + pos.sum(): with weights a pairwise sum may differ
    # from the cumulative one by an ulp, and the next range's TP would step down)
    return offset + n, columns[1][-1], columns[2][-1]
