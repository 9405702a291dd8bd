"""Operating-point bootstrap replicates drawn coarse to fine: exact, without every negative.

A bootstrap replicate of the operating points needs the replicate's TP and FP at the thresholds
holding a positive (:func:`._resample.positive_columns`).  Drawing the multiplicity of every
instance costs O(n) per replicate, dominated by the negatives on imbalanced data.  But the
multinomial law of the negatives' multiplicities factorises exactly:

1. the counts falling in consecutive *blocks* of negative positions (ranked by score) are
   Multinomial(n₋*; block sizes / n₋) — a few hundred binomial draws per replicate;
2. given its count K, the multiplicities inside a block are Multinomial(K; uniform over the
   block), independent of the other blocks.

Step 1 bounds every FP between the cumulative counts at the edges of its block, and so bounds
every precision.  Those bounds decide most of what a criterion asks: a threshold whose lower
precision bound clears ``min_precision`` is feasible, one whose upper bound misses it is not.
Step 2 is drawn only for the blocks where a criterion cannot be decided from the bounds (near
the crossing of the target, typically one or two per replicate) — exactly from their
conditional law, so each replicate has the law of the ordinary bootstrap (``_resample``), and
its chosen threshold is the one :func:`prcurve._core._operating.choose_rows` would choose on its
full counts (tested on the same draws refined everywhere).  The positives (few on imbalanced
data) are drawn in full.  Cost per replicate: O(n₊ + k₊ + √n₋) with k₊ thresholds holding a
positive, instead of O(n).

Used for ``min_precision`` and ``min_recall`` targets without sample weights (the report's
operating points); other criteria and weighted data take the ordinary bootstrap.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._core._binomial import conditional_binomial
from .._core._exact import precision_at_least
from .._core._partial import negative_factor
from ._resample import (
    ProgressHook,
    SortedSample,
    block_rows,
    masked_multiplicities,
    positional_cumulative,
    positive_columns,
    uniform_multiplicities,
)

__all__ = [
    "COARSE_FINE_CRITERIA",
    "Blocks",
    "choose_in_block",
    "coarse_fine_replicates",
    "negative_blocks",
]

#: The criteria decided from bounds (the others need every column: ordinary bootstrap).
COARSE_FINE_CRITERIA = ("min_precision", "min_recall")
#: Elements of one (replicates, columns) matrix per block of replicates.
BLOCK_ELEMENTS = 1 << 19


@dataclass(frozen=True)
class Blocks:
    """Negative positions cut into blocks, and where each needed column falls.

    ``edges`` (increasing, ``edges[0] = 0``, ``edges[-1] = n₋``) are block edges in negative
    positions (the j-th highest-scoring negative has position j); a column at position q (q
    negatives score at or above its threshold) lies in block ``block[j]`` at ``offset[j]``
    positions past its start; ``offset == 0``: the column is an edge, its FP known exactly.
    Block β holds the columns ``first[β]`` to ``last[β]`` (none when ``last < first``); one
    block per edge, the last one empty.
    """

    edges: np.ndarray
    block: np.ndarray
    offset: np.ndarray
    first: np.ndarray
    last: np.ndarray

    @property
    def sizes(self) -> np.ndarray:
        """Negatives in each block; the last block, at ``n₋`` itself, is empty (it holds the
        columns every negative scores at or above)."""
        return np.diff(self.edges, append=self.edges[-1])

    @property
    def exact(self) -> np.ndarray:
        return self.offset == 0


def negative_blocks(positions: np.ndarray, n_neg: int, exact: np.ndarray, width: int) -> Blocks:
    """Blocks of about ``width`` negative positions; ``exact`` positions are edges too.

    >>> b = negative_blocks(np.array([0, 3, 5, 9, 10]), 10, np.array([5]), 4)
    >>> b.edges.tolist(), b.block.tolist(), b.offset.tolist()
    ([0, 4, 5, 8, 10], [0, 0, 2, 3, 4], [0, 3, 0, 1, 0])
    >>> b.first.tolist(), b.last.tolist()  # block 1 ([4, 5)) holds no column
    ([0, 2, 2, 3, 4], [1, 1, 2, 3, 4])
    """
    edges = np.union1d(np.arange(0, n_neg, max(int(width), 1)), np.append(exact, n_neg))
    edges = edges.astype(np.int64)
    block = np.searchsorted(edges, positions, side="right") - 1
    ids = np.arange(edges.shape[0])
    first = np.searchsorted(block, ids, side="left")
    last = np.searchsorted(block, ids, side="right") - 1
    return Blocks(edges, block, positions - edges[block], first, last)


def _block_width(n_neg: int) -> int:
    """Block width balancing block draws (~100 ns each) against refined draws (~5 ns each,
    a few blocks per criterion)."""
    return max(16, math.isqrt(max(n_neg, 1)))


def _edge_counts(gen: np.random.Generator, n_neg: np.ndarray, blocks: Blocks, pool: int):
    """Cumulative resampled negatives at every block's start and after the last block: shape
    (b, B + 1) for B blocks (the empty last one included), an exact multinomial."""
    # the empty last block is left out of the draw: numpy gives the last category the
    # remainder, and a zero-probability last category can receive draws by rounding
    counts = gen.multinomial(n_neg, blocks.sizes[:-1] / pool)
    out = np.zeros((counts.shape[0], counts.shape[1] + 2), dtype=np.int64)
    np.cumsum(counts, axis=1, out=out[:, 1:-1])
    out[:, -1] = out[:, -2]
    return out


def _refine(
    gen: np.random.Generator, edge: np.ndarray, blocks: Blocks, rows: np.ndarray, which: np.ndarray
):
    """Draw the blocks ``(rows[p], which[p])`` in full; return a function giving the exact FP of
    (pair, column) entries, the column lying in the pair's block."""
    k = edge[rows, which + 1] - edge[rows, which]
    size = blocks.sizes[which]
    start = np.zeros(size.shape[0], dtype=np.int64)
    np.cumsum(size[:-1], out=start[1:])
    total = int(size.sum())
    draws = np.repeat(start, k) + gen.integers(0, np.repeat(size, k), dtype=np.int64)
    cum = np.zeros(total + 1, dtype=np.int64)
    np.cumsum(np.bincount(draws, minlength=total), out=cum[1:])

    def exact_fp(pair: np.ndarray, column: np.ndarray) -> np.ndarray:
        base = start[pair]
        inside = cum[base + blocks.offset[column]] - cum[base]
        return edge[rows[pair], which[pair]] + inside

    return exact_fp


def _precision(tp: np.ndarray, fp: np.ndarray) -> np.ndarray:
    """``tp / (tp + fp)`` as :func:`~prcurve._core._operating.choose_rows` computes it (0 where
    no instance is predicted positive)."""
    d = tp + fp
    return tp / np.where(d > 0, d, 1.0)


#: Relative slack of the bounds that compare different columns (floating-point rounding).
SLACK = 1e-9


def _class_totals(
    gen: np.random.Generator, rows: int, n_pos: int, n_neg: int, sampling: str
) -> tuple[np.ndarray, np.ndarray]:
    if sampling not in ("instances", "stratified"):
        raise ValueError(f"sampling: expected 'instances' or 'stratified', got {sampling!r}")
    if sampling == "stratified":
        return np.full(rows, n_pos, dtype=np.int64), np.full(rows, n_neg, dtype=np.int64)
    n = n_pos + n_neg
    k = conditional_binomial(gen, n, n_pos / n, rows, min_each=1)
    return k, n - k


def _factors(specs, npos, nneg, gen) -> dict[int, tuple[np.ndarray, np.ndarray | None]]:
    """Per deployment prevalence (by identity): every replicate's negatives' factor and π
    (None for the data's own prevalence)."""
    out: dict[int, tuple[np.ndarray, np.ndarray | None]] = {}
    for _, _, _, pi in specs:
        if id(pi) not in out:
            drawn = None if pi is None else pi.draw(npos.shape[0], gen)
            f = 1.0 if drawn is None else negative_factor(npos, nneg, drawn)
            out[id(pi)] = (
                np.broadcast_to(np.asarray(f, dtype=np.float64), npos.shape),
                None if drawn is None else np.broadcast_to(np.asarray(drawn), npos.shape),
            )
    return out


def _needed_blocks(
    criterion: str,
    target: float,
    tp: np.ndarray,
    tp_last: np.ndarray,
    e_lo: np.ndarray,
    e_hi: np.ndarray,
    has: np.ndarray,
    n_pos: np.ndarray,
    fp_hi: Any,
    first_at_least: Any,
    last_meets: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Blocks whose columns a criterion may need exactly (b, B), and a lower bound on the TP
    of the chosen column (min_precision; -1 otherwise).

    ``tp_last`` is the TP of each block's last column, ``e_lo``/``e_hi`` the FP (× factor at π
    for min_precision) at each block's edges; ``first_at_least(c)`` the first column of each
    row with TP ≥ ``c[row]``; ``last_meets`` (min_precision) whether each block's last column
    meets the target with the FP of the block's upper edge, decided as ``choose_rows`` decides
    (precision is decreasing in FP, so then that column is feasible).  Bounds over a block
    use its largest TP and get :data:`SLACK`.
    """
    hi = _precision(tp_last, e_lo)  # no column of the block has a higher precision
    if criterion == "min_precision":
        assert last_meets is not None
        sure = has & last_meets  # its last column is feasible
        deepest = np.where(sure, tp_last, -1.0).max(axis=1, keepdims=True)
        return has & (hi >= target * (1 - SLACK)) & (tp_last > deepest), deepest[:, 0]
    cand = has & (tp_last / n_pos[:, None] >= target)  # the block holds a candidate column
    j0 = np.minimum(first_at_least(_least_count(target, n_pos)), tp.shape[1] - 1)
    rows = np.arange(tp.shape[0])
    t0 = tp[rows, j0]
    best = np.maximum(
        np.where(cand, _precision(tp_last, e_hi), -np.inf).max(axis=1),
        _precision(t0, fp_hi(rows, j0)),
    )
    return cand & (hi >= best[:, None] * (1 - SLACK)), np.full(tp.shape[0], -1.0)


def _least_count(target: float, n_pos: np.ndarray) -> np.ndarray:
    """Per row, the least whole TP with ``TP / n_pos >= target`` in floating point."""
    c = np.ceil(target * n_pos)
    c = np.where((c - 1) / n_pos >= target, c - 1, c)
    return np.where(c / n_pos < target, c + 1, c)


def _entries(blocks: Blocks, rows: np.ndarray, which: np.ndarray):
    """Every (pair, column) of the refined blocks: pair index and column index."""
    first, count = blocks.first[which], blocks.last[which] - blocks.first[which] + 1
    count = np.maximum(count, 0)
    pair = np.repeat(np.arange(rows.shape[0]), count)
    start = np.zeros(count.shape[0], dtype=np.int64)
    np.cumsum(count[:-1], out=start[1:])
    column = np.arange(int(count.sum())) - np.repeat(start - first, count)
    return pair, column


def choose_in_block(
    specs: list[tuple[str, float, int, Any]],
    tp: np.ndarray,
    n_pos: np.ndarray,
    edge: np.ndarray,
    blocks: Blocks,
    refine: Any,
    factors: dict[int, tuple[np.ndarray, np.ndarray | None]],
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray]]:
    """Every spec's chosen column, feasibility and FP (× factor) at its held column, for one
    block of replicates.

    ``specs``: ``(criterion, target, held column, π)`` with column indices into ``tp``, held
    columns being block edges; ``tp`` (b, L) exact; ``edge`` (b, B + 1) the cumulative
    negatives at the block edges; ``refine(rows, which)`` draws the blocks
    ``(rows[p], which[p])`` in full and returns ``exact_fp(pair, column)``; ``factors`` from
    :func:`_factors`.  Returns what :func:`~prcurve._core._operating.choose_rows` returns on the
    full counts (index 0 where infeasible).
    """
    b, n_blocks = tp.shape[0], edge.shape[1] - 1
    has = (blocks.last >= blocks.first)[None, :]
    tp_last = tp[:, np.clip(blocks.last, 0, tp.shape[1] - 1)]
    # the TP rows, each shifted above the previous: one sorted array for every binary search
    shift = (np.arange(b) * (float(tp[:, -1].max()) + 2.0))[:, None]
    flat = (tp + shift).ravel()
    starts = np.arange(b) * tp.shape[1]

    def first_at_least(c: np.ndarray) -> np.ndarray:
        return np.searchsorted(flat, c + shift[:, 0]) - starts

    n_neg = edge[:, -1]  # the last edge counts every negative of the replicate
    tp_int = tp.astype(np.int64)  # whole counts: the exact decisions' fast path

    def meets(rows: Any, t: np.ndarray, fp: np.ndarray, target: float, drawn: Any) -> np.ndarray:
        """``choose_rows``'s decision "precision >= target" for entries of ``rows``."""
        if drawn is None:
            return precision_at_least(t, fp, target)
        at = dict(n_pos=n_pos[rows], n_neg=n_neg[rows], prevalence=drawn[rows])
        return precision_at_least(t, fp, target, **at)

    need = np.zeros((b, n_blocks), dtype=bool)
    deepest: list[np.ndarray] = []
    for criterion, target, _, pi in specs:
        f, drawn = factors[id(pi)]
        # at π only min_precision changes: the order of precisions (min_recall) does not
        scaled = pi is not None and criterion == "min_precision"
        e = edge * f[:, None] if scaled else edge.astype(np.float64)

        def fp_hi(r: np.ndarray, j: np.ndarray, e: np.ndarray = e) -> np.ndarray:
            return e[r, blocks.block[j] + ~blocks.exact[j]]

        last_meets = None
        if criterion == "min_precision":
            last = tp_int[:, np.clip(blocks.last, 0, tp.shape[1] - 1)]
            last_meets = meets((slice(None), None), last, edge[:, 1:], target, drawn)
        more, low = _needed_blocks(
            criterion, target, tp, tp_last, e[:, :-1], e[:, 1:], has, n_pos, fp_hi,
            first_at_least, last_meets,
        )  # fmt: skip
        need |= more
        deepest.append(low)
    rows, which = np.nonzero(need)
    exact_fp = refine(rows, which) if rows.shape[0] else None
    pair, column = _entries(blocks, rows, which)
    er = rows[pair]
    fp_int = exact_fp(pair, column) if exact_fp is not None else np.zeros(0, dtype=np.int64)
    tp_e = tp[er, column]
    out = []
    for (criterion, target, col, pi), low in zip(specs, deepest, strict=True):
        f, drawn = factors[id(pi)]
        if criterion == "min_precision":
            top = low.copy()
            ok = meets(er, tp_int[er, column], fp_int, target, drawn)
            np.maximum.at(top, er[ok], tp_e[ok])
            chosen, feasible = np.where(top > 0, first_at_least(top), 0), top > 0
        else:
            prec = _precision(tp_e, fp_int.astype(np.float64))  # the same order at every π
            cand = tp_e / n_pos[er] >= target
            best = np.full(b, -np.inf)
            np.maximum.at(best, er[cand], prec[cand])
            ok = cand & (prec == best[er])
            most = np.full(b, -1.0)
            np.maximum.at(most, er[ok], tp_e[ok])
            pick = ok & (tp_e == most[er])
            chosen = np.full(b, tp.shape[1], dtype=np.intp)
            np.minimum.at(chosen, er[pick], column[pick])
            feasible = chosen < tp.shape[1]
            chosen = np.where(feasible, chosen, 0)
        held = edge[:, blocks.block[col]].astype(np.float64)
        out.append((chosen, feasible, held * f if pi is not None else held))
    return out


def coarse_fine_replicates(
    sample: SortedSample,
    specs: list[tuple[str, float, int, Any]],
    n_resamples: int,
    gen: np.random.Generator,
    progress: ProgressHook | None = None,
    sampling: str = "instances",
    *,
    width: int | None = None,
) -> list[tuple[np.ndarray, ...]]:
    """What :func:`._operating_ci._replicates` returns, drawn coarse to fine (see the module).

    ``specs`` as there: ``(criterion, target, held column, deployment prevalence or None)``,
    criteria in :data:`COARSE_FINE_CRITERIA`, unweighted data.  ``width``: block width in
    negatives (default about √n₋).
    """
    counts = sample.counts
    n_p, n_n = sample.n_pos_instances, sample.n_neg_instances
    held = np.array([spec[2] for spec in specs], dtype=np.intp)
    cols = np.union1d(positive_columns(sample), held)
    at = np.searchsorted(cols, held)
    local = [(c, t, int(a), pi) for (c, t, _, pi), a in zip(specs, at, strict=True)]
    pos_at = sample.pos_ge[cols]
    blocks = negative_blocks(
        sample.neg_ge[cols].astype(np.int64), n_n, sample.neg_ge[held], width or _block_width(n_n)
    )
    out: list[tuple[list, list, list, list]] = [([], [], [], []) for _ in specs]
    widest = max(cols.shape[0], n_p, blocks.edges.shape[0])  # (b, L), (b, n₊), (b, B) arrays
    rows_per = block_rows(widest, n_resamples, BLOCK_ELEMENTS)
    all_pos, all_neg = _class_totals(gen, n_resamples, n_p, n_n, sampling)  # one call: cheaper
    done = 0
    while done < n_resamples:
        b = min(rows_per, n_resamples - done)
        npos, nneg = all_pos[done : done + b], all_neg[done : done + b]
        mp = (
            uniform_multiplicities(gen, b, n_p)
            if sampling == "stratified"
            else masked_multiplicities(gen, npos, n_p)
        )
        tp = positional_cumulative(mp)[:, pos_at].astype(np.float64)
        del mp
        edge = _edge_counts(gen, nneg, blocks, n_n)
        factors = _factors(specs, npos, nneg, gen)
        npos_f = npos.astype(np.float64)

        def refine(rows: np.ndarray, which: np.ndarray, edge: np.ndarray = edge) -> Any:
            return _refine(gen, edge, blocks, rows, which)

        chosen = choose_in_block(local, tp, npos_f, edge, blocks, refine, factors)
        for (idx, ok, f0), (_, _, col, _), (thr, oks, prec, rec) in zip(
            chosen, local, out, strict=True
        ):
            thr.append(counts.thresholds[cols[idx]])
            oks.append(ok)
            t0 = tp[:, col]
            d0 = t0 + f0
            prec.append(np.where(d0 > 0, t0 / np.where(d0 > 0, d0, 1.0), np.nan))
            rec.append(t0 / npos_f)
        done += b
        if progress is not None:
            progress(done, n_resamples)
    return [tuple(np.concatenate(part) for part in parts) for parts in out]
