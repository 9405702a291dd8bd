"""Sorted runs of distinct scores with their class weights, merged by size (a log-structured merge).

:class:`~prcurve._core._accumulator.PRAccumulator` keeps its state as a short stack of *runs*:
each run is ``[scores, pos, neg]``, the scores strictly increasing, with the positive and
negative count (or weight) at each.  A score may occur in several runs; its weight is the sum.

Why runs: merging every batch into one sorted state costs the size of the whole state per
batch, so a stream of continuous scores costs O(n²/batch).  Here a new batch is pushed as a run
and runs are merged only while the one below is not larger than the one on top, or the two on top
together outgrow the third (the invariants of timsort), so the sizes grow geometrically down the
stack: there are O(log n) runs, each element takes part in O(log n) merges, and the stream costs
O(n log n) -- the speed of one sort.  The runs are collapsed into one only when a caller needs the
whole state (a curve, the ``scores``/``pos``/``neg`` arrays).

Why k-way merges: in NumPy, merging two sorted runs costs about as much as sorting them afresh
(an ``argsort`` and a gather per column), so the number of passes over the data is what counts.
The run sizes alone say which top runs a push will merge (the invariants are replayed on the
sizes), and those runs are merged *in one pass*, whatever their number; reading the whole state
merges all the runs in one pass too.

Memory: the runs are merged one column at a time into a fresh array, the inputs' column dropped
before the next is built, so a merge needs the state plus one column of the result (8 bytes per
score) and the merge order (2 bytes per score): at most about 1.42 times the state.

Runs are never changed in place once built (merges build new arrays), so an accumulator can
share runs with another one it merged, and a reader of ``scores`` can be handed the array itself
(read-only).
"""

from __future__ import annotations

from typing import Literal

import numpy as np

from ._counts import _run_starts

__all__ = ["Run", "collapse", "freeze", "push"]

#: ``[scores, pos, neg]``: scores strictly increasing; pos/neg int64 counts or float64 weights.
Run = list

#: Elements per block of a merge (about): a block (at most ``2 * BLOCK`` elements) stays in the
#: CPU caches, and its merge order fits in 16 bits.
BLOCK = 1 << 15


def freeze(run: Run) -> Run:
    """Mark the run's arrays read-only (runs are shared, never changed) and return it."""
    for a in run:
        a.flags.writeable = False
    return run


def push(runs: list[Run], run: Run) -> None:
    """Push ``run`` on the stack and merge the top runs until the invariants hold again.

    The invariants are replayed on the sizes (a merge's size taken as the sum of its inputs'),
    which tells how many runs at the top end up merged together; they are merged in one pass.
    """
    runs.append(freeze(run))
    sizes = [r[0].shape[0] for r in runs]
    depth = 1
    while len(sizes) > 1:
        top, below = sizes[-1], sizes[-2]
        if below > top and (len(sizes) < 3 or sizes[-3] > below + top):
            break
        sizes[-2:] = [below + top]
        depth += 1
    if depth > 1:
        runs[-depth:] = [freeze(merge_runs(runs[-depth:]))]


def collapse(runs: list[Run]) -> None:
    """Merge all runs into one, in place, in one pass."""
    if len(runs) > 1:
        runs[:] = [freeze(merge_runs(runs))]


def merge_runs(runs: list[Run]) -> Run:
    """One run holding all of ``runs`` (at least two); their columns are emptied as used.

    The runs are cut into aligned blocks of about ``BLOCK`` elements in all (cut scores placed in
    every run by binary search, equal scores on the same side), and each block is merged by an
    ``argsort`` of its concatenation (in the caches; stable for two runs, where timsort merges
    them in one linear pass, NumPy's vectorised sort for more -- measured faster from four).
    A first pass builds the scores and keeps each block's merge order (2 bytes an element) and
    where a score repeats (the same score in several runs); each weight column is then gathered
    through that order, the weights of a repeated score summed, and the inputs' column dropped,
    so the peak is the inputs plus one output column and the orders: at most about 1.42 times
    the state.
    """
    columns = [list(r) for r in runs]  # the inputs' columns, dropped here once used
    for r in runs:  # (the arrays themselves may be shared with another accumulator's runs)
        r[:] = [None, None, None]
    if len({c[0].dtype for c in columns}) > 1:  # e.g. int64 and float64 scores
        return _merge_by_sort(columns)
    bounds = _block_bounds([c[0] for c in columns])  # (runs, blocks + 1) start of each block
    sizes = bounds[:, 1:] - bounds[:, :-1]
    starts = np.zeros(bounds.shape[1], dtype=np.int64)
    np.cumsum(sizes.sum(axis=0), out=starts[1:])
    widest = int((starts[1:] - starts[:-1]).max(initial=0))
    orders = np.empty(starts[-1], dtype=np.uint16 if widest <= 1 << 16 else np.uint32)
    scores = np.empty(starts[-1], dtype=columns[0][0].dtype)
    # two runs: timsort's one linear merge; more: the SIMD sort (timsort would take log2(k) passes)
    kind: Literal["stable", "quicksort"] = "stable" if len(columns) == 2 else "quicksort"
    firsts: dict[int, np.ndarray] = {}  # block -> first position of each distinct score
    kept = 0
    for k in range(bounds.shape[1] - 1):
        both = _block(columns, 0, bounds, k)
        order = np.argsort(both, kind=kind)
        merged = both[order]
        orders[starts[k] : starts[k + 1]] = order
        first = _run_starts(merged)
        if not first.all():
            firsts[k] = np.flatnonzero(first)
            merged = merged[first]
        scores[kept : kept + merged.shape[0]] = merged
        kept += merged.shape[0]
    for c in columns:
        c[0] = None
    scores.resize(kept, refcheck=False)  # in place (shorter when scores repeat)
    out: Run = [scores]
    for col in (1, 2):
        values = np.empty(kept, dtype=np.result_type(*(c[col] for c in columns)))
        at = 0
        for k in range(bounds.shape[1] - 1):
            block = _block(columns, col, bounds, k)[orders[starts[k] : starts[k + 1]]]
            if k in firsts:  # a repeated score: the weights of its copies summed
                block = np.add.reduceat(block, firsts[k])
            values[at : at + block.shape[0]] = block
            at += block.shape[0]
        for c in columns:
            c[col] = None
        out.append(values)
    return out


def _block_bounds(scores: list[np.ndarray]) -> np.ndarray:
    """Start of each block in each run, shape ``(runs, blocks + 1)`` (the last: the run's end).

    Candidate cuts are every ``step``-th score of each run, so that at most ``2 * step`` elements
    of one run, ``BLOCK`` elements in all, lie between two consecutive candidates; a cut is then
    kept where the number of elements below it passes the next multiple of ``BLOCK``, so every
    block holds at most ``2 * BLOCK`` elements.
    """
    step = max(1, BLOCK // (2 * len(scores)))
    candidates = np.unique(np.concatenate([s[::step] for s in scores]))
    below = np.zeros(candidates.shape[0], dtype=np.int64)
    for s in scores:
        below += np.searchsorted(s, candidates)
    total = sum(s.shape[0] for s in scores)
    pick = np.searchsorted(below, np.arange(BLOCK, total, BLOCK), side="right") - 1
    cuts = candidates[np.unique(pick[pick >= 0])]
    out = np.empty((len(scores), cuts.shape[0] + 2), dtype=np.int64)
    for i, s in enumerate(scores):
        out[i, 0], out[i, -1] = 0, s.shape[0]
        out[i, 1:-1] = np.searchsorted(s, cuts)
    return out


def _block(columns: list[list], col: int, bounds: np.ndarray, k: int) -> np.ndarray:
    """Block ``k`` of column ``col`` of every run, concatenated (run after run)."""
    return np.concatenate([c[col][bounds[i, k] : bounds[i, k + 1]] for i, c in enumerate(columns)])


def _merge_by_sort(columns: list[list]) -> Run:
    """Merge runs whose scores differ in dtype (promoted, as one array of all the data would be)."""
    both = np.concatenate([c[0] for c in columns])
    order = np.argsort(both, kind="stable")
    merged = both[order]
    first = np.flatnonzero(_run_starts(merged))
    pos = np.add.reduceat(np.concatenate([c[1] for c in columns])[order], first)
    neg = np.add.reduceat(np.concatenate([c[2] for c in columns])[order], first)
    return [merged[first], pos, neg]
