"""What an engine of ``prcurve report`` hands the analysis: exact counts and a way to draw rows.

The report runs on several engines (in memory, on Dask, and on Spark when ``prcurve.spark``
lands).  An engine only reads: everything after that -- areas, intervals, bands, comparisons,
operating points, the deployment prevalence, the threshold choice, the sizing of every
resampling step and the rescaling of its widths -- is one engine-independent code path,
:func:`prcurve._reporting.analysis.analyse`, so an option works the same on every engine or is
refused with one line.

An engine is an :class:`EngineData`: the facts of the data (names, rows per class, Kish's
effective numbers) and **two functions**:

``counts(name) -> BinaryCounts``
    The exact sorted cumulative counts of score column ``name`` over every row of positive
    weight (weights summed per distinct score with ``--weight``): the same
    :class:`prcurve._core._counts.BinaryCounts` the library's curves are built from.  The
    analysis calls it once per scorer.

``draw(rows, seed) -> LabelledScores``
    A random subsample of ``rows`` rows stratified by class (each class in the data's
    proportion, as :func:`subsample` draws), reproducible from ``seed`` (a
    ``numpy.random.SeedSequence``), rows in the data's order, zero-weight rows left out; with
    ``rows >= n`` every row.  The analysis calls it once, with at most :attr:`EngineData.row_limit`
    rows, and draws every step's own subsample from what it got.

A third engine plugs in by writing those two functions (and counting the rows per class once)::

    def spark_engine(frame, label, scores, ...) -> EngineData:
        return EngineData(engine="Spark", ..., counts=exact_counts_of, draw=stratified_rows_of)

and ``cli.py`` choosing it for ``--engine spark``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from ..._core._counts import BinaryCounts, count_sorted
from ..._core._validation import check_binary_problem
from ._io import LabelledScores

__all__ = ["EngineData", "memory_engine", "subsample"]


@dataclass(frozen=True)
class EngineData:
    """One engine's view of the data: facts, exact counts per scorer, a way to draw rows.

    Attributes
    ----------
    engine : str
        Its name on the page (``"memory"``, ``"Dask"``).
    source, label_column, positive_label, weight_column : str
        As in :class:`~._io.LabelledScores`.
    scores : tuple of str
        The score columns, in the order asked for.
    rows_read : tuple of int
        Rows of positives and of negatives read (rows of weight zero included).
    n_pos_rows, n_neg_rows : int
        Rows of positive weight of each class in the data (rows, not weights): what the
        resampling is sized on.
    effective : tuple of float
        Kish's effective numbers (Σw)²/Σw² of positives and negatives (the rows when
        unweighted): the n₊ of the binomial and logit intervals and of the chance test.
    row_limit : int
        The most rows :attr:`draw` hands over (all rows in memory; ``--subsample`` on Dask).
    counts, draw : callables
        The two functions described in the module docstring.
    """

    engine: str
    source: str
    label_column: str
    positive_label: str
    scores: tuple[str, ...]
    weight_column: str | None
    rows_read: tuple[int, int]
    n_pos_rows: int
    n_neg_rows: int
    effective: tuple[float, float]
    row_limit: int
    counts: Callable[[str], BinaryCounts]
    draw: Callable[[int, np.random.SeedSequence], LabelledScores]

    @property
    def n(self) -> int:
        """Rows of the data (of positive weight)."""
        return self.n_pos_rows + self.n_neg_rows

    @property
    def weighted(self) -> bool:
        return self.weight_column is not None


def subsample(y: np.ndarray, rows: int, seed: np.random.SeedSequence) -> np.ndarray | None:
    """Sorted indices of a stratified random subsample of ``rows`` rows (None: all rows).

    Positives and negatives are drawn without replacement in the data's proportions, so the
    subsample has the data's prevalence (to within one row).
    """
    n = y.shape[0]
    if rows >= n:
        return None
    gen = np.random.default_rng(seed)
    pos = np.flatnonzero(y)
    neg = np.flatnonzero(~y)
    m_pos = min(pos.shape[0], max(2, round(rows * pos.shape[0] / n)))
    m_neg = min(neg.shape[0], max(2, rows - m_pos))
    idx = np.concatenate(
        [gen.choice(pos, m_pos, replace=False), gen.choice(neg, m_neg, replace=False)]
    )
    idx.sort()
    return idx


def kish(w: np.ndarray) -> float:
    """Kish's effective number of rows of weights ``w``: (Σw)²/Σw²."""
    return float(w.sum() ** 2 / np.sum(w**2))


def memory_engine(data: LabelledScores) -> EngineData:
    """The in-memory engine: every row is here, so ``draw`` hands over any subsample (or every
    row, without a copy) and ``counts`` sorts one column (:func:`count_sorted`).

    Rows of weight zero are left out and the weights checked as every prcurve function does.
    """
    y, w = data.y, data.weight
    scores = data.scores
    read = int(np.count_nonzero(y))
    rows_read = (read, int(y.shape[0]) - read)
    if w is not None:
        checked = {name: check_binary_problem(y, s, w) for name, s in scores.items()}
        first = next(iter(checked.values()))
        y, w = first[0], first[2]
        scores = {name: c[1] for name, c in checked.items()}
    rows = LabelledScores(
        data.source, data.label_column, y, scores, data.positive_label, data.weight_column, w
    )
    n_pos = int(np.count_nonzero(y))
    effective = (float(n_pos), float(y.shape[0] - n_pos))
    if w is not None:
        effective = (kish(w[y]), kish(w[~y]))

    def counts(name: str) -> BinaryCounts:
        return count_sorted(y, scores[name], w)

    def draw(size: int, seed: np.random.SeedSequence) -> LabelledScores:
        idx = subsample(y, size, seed)
        if idx is None:
            return rows
        return LabelledScores(
            rows.source, rows.label_column, y[idx], {k: s[idx] for k, s in scores.items()},
            rows.positive_label, rows.weight_column, None if w is None else w[idx],
        )  # fmt: skip

    return EngineData(
        engine="memory", source=data.source, label_column=data.label_column,
        positive_label=data.positive_label, scores=tuple(scores),
        weight_column=(data.weight_column or "?") if w is not None else None, rows_read=rows_read,
        n_pos_rows=n_pos,
        n_neg_rows=int(y.shape[0]) - n_pos, effective=effective, row_limit=int(y.shape[0]),
        counts=counts, draw=draw,
    )  # fmt: skip
