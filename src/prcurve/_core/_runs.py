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

Memory: two runs are merged one column at a time into a fresh array, the inputs' column dropped
before the next is built, so a merge needs the state plus one column of the result (8 bytes per
score) and two boolean masks: at most about 1.42 times the state.

Runs are never changed in place once built (merges build new arrays), so an accumulator can
share runs with another one it merged, and a reader of ``scores`` can be handed the array itself
(read-only).
"""

from __future__ import annotations

import numpy as np

from ._counts import _run_starts

__all__ = ["Run", "collapse", "freeze", "push"]

#: ``[scores, pos, neg]``: scores strictly increasing; pos/neg int64 counts or float64 weights.
Run = list


def freeze(run: Run) -> Run:
    """Mark the run's arrays read-only (runs are shared, never changed) and return it."""
    for a in run:
        a.flags.writeable = False
    return run


def push(runs: list[Run], run: Run) -> None:
    """Push ``run`` on the stack and merge by size until the invariants hold again."""
    runs.append(freeze(run))
    while len(runs) > 1:
        top, below = runs[-1][0].shape[0], runs[-2][0].shape[0]
        if below > top and (len(runs) < 3 or runs[-3][0].shape[0] > below + top):
            break
        b, a = runs.pop(), runs.pop()
        runs.append(freeze(merge_two(a, b)))


def collapse(runs: list[Run]) -> None:
    """Merge all runs into one, in place (smallest first, so each merge is as cheap as can be)."""
    while len(runs) > 1:
        b, a = runs.pop(), runs.pop()
        runs.append(freeze(merge_two(a, b)))


#: Elements of each run per block of a merge: a block pair (at most ``2 * BLOCK`` elements) stays
#: in the CPU caches, and its merge order fits in 16 bits.
BLOCK = 1 << 14


def merge_two(a: Run, b: Run) -> Run:
    """One run holding both; ``a`` and ``b`` are emptied as their columns are used up.

    The two runs are cut into aligned blocks (every ``BLOCK``-th score of either run is a cut,
    placed in both by binary search, equal scores on the same side), and each block pair is
    merged by a stable sort of its concatenation (timsort: one linear merge of two runs).  A
    first pass builds the scores and keeps each block's merge order (2 bytes an element) and
    where a score repeats the one before it (the same score in both runs); each weight column is
    then gathered through that order and its input dropped, so the peak is the inputs plus one
    output column and the orders: at most about 1.42 times the state.
    """
    if a[0].dtype != b[0].dtype:  # e.g. int64 and float64 scores: promote, then merge by sorting
        return _merge_by_sort(a, b)
    sa, sb = a[0], b[0]
    cuts = np.union1d(sa[::BLOCK], sb[::BLOCK])
    ia = np.append(np.searchsorted(sa, cuts), sa.shape[0])
    ib = np.append(np.searchsorted(sb, cuts), sb.shape[0])
    ia[0] = ib[0] = 0
    orders = np.empty(sa.shape[0] + sb.shape[0], dtype=np.uint16)
    scores = np.empty(orders.shape[0], dtype=sa.dtype)
    repeats: dict[int, np.ndarray] = {}  # block -> positions (in the block) of repeated scores
    kept = 0
    for k in range(ia.shape[0] - 1):
        both = np.concatenate([sa[ia[k] : ia[k + 1]], sb[ib[k] : ib[k + 1]]])
        order = np.argsort(both, kind="stable")
        merged = both[order]
        lo = ia[k] + ib[k]
        orders[lo : lo + order.shape[0]] = order
        rep = np.flatnonzero(merged[1:] == merged[:-1]) + 1
        if rep.shape[0]:
            repeats[k] = rep
            merged = np.delete(merged, rep)
        scores[kept : kept + merged.shape[0]] = merged
        kept += merged.shape[0]
    del sa, sb
    a[0] = b[0] = None
    scores.resize(kept, refcheck=False)  # in place (shorter when scores repeat)
    out: Run = [scores]
    for col in (1, 2):
        ca, cb = a[col], b[col]
        a[col] = b[col] = None
        values = np.empty(kept, dtype=ca.dtype)
        at = 0
        for k in range(ia.shape[0] - 1):
            lo, hi = ia[k] + ib[k], ia[k + 1] + ib[k + 1]
            both = np.concatenate([ca[ia[k] : ia[k + 1]], cb[ib[k] : ib[k + 1]]])
            block = both[orders[lo:hi]]
            dup = repeats.get(k)
            if dup is not None:  # a repeated score: its weight goes to the one before it
                block[dup - 1] += block[dup]
                block = np.delete(block, dup)
            values[at : at + block.shape[0]] = block
            at += block.shape[0]
        del ca, cb
        out.append(values)
    return out


def _merge_by_sort(a: Run, b: Run) -> Run:
    """Merge runs whose scores differ in dtype (promoted, as one array of all the data would be)."""
    both = np.concatenate([a[0], b[0]])
    order = np.argsort(both, kind="stable")
    merged = both[order]
    first = np.flatnonzero(_run_starts(merged))
    pos = np.add.reduceat(np.concatenate([a[1], b[1]])[order], first)
    neg = np.add.reduceat(np.concatenate([a[2], b[2]])[order], first)
    return [merged[first], pos, neg]
