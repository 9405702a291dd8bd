"""What the analysis can do with the rows an engine hands over, and what the page says of it.

Every engine gives the exact counts of every row (:mod:`..input._engine`), so every area,
curve, operating point, closed-form interval and chance test is that of all rows on every
engine.  The resampling needs rows: in memory every row is at hand; an engine that hands over
at most ``row_limit`` rows (Dask: ``--subsample``) gives a stratified subsample, and every step
is sized on the data and rescaled from the rows at hand (:func:`._sizing.capped`).  Two
results need every row and cannot be rescaled; they are refused with one line when only a
subsample is at hand:

* a deployment prevalence estimated from a count (``--prevalence-count``): its uncertainty
  does not shrink with n, so √(m/n) would scale it wrongly;
* precision and recall at the top K of weighted data: the rows of each tie group and their
  weights.
"""

from __future__ import annotations

from ..input._engine import EngineData
from ..input._io import InputError
from ._settings import Settings

__all__ = ["check_engine_options", "engine_note", "weights_notes"]


def check_engine_options(engine: EngineData, at_hand: int, settings: Settings) -> None:
    """Refuse, with one line, an option that needs every row when fewer are at hand."""
    if at_hand >= engine.n:
        return
    where = (
        f"--engine {engine.engine.lower()} hands the analysis a stratified subsample of "
        f"{at_hand:,} of the {engine.n:,} rows" + (" of positive weight" if engine.weighted else "")
    )
    fix = "raise --subsample to the number of rows, or use --engine memory"
    if isinstance(settings.prevalence, tuple):
        raise InputError(
            f"--prevalence-count: expected every row to be resampled (the uncertainty of a "
            f"prevalence estimated from a count does not shrink with the rows), got a "
            f"subsample: {where}; give --prevalence, {fix}"
        )
    if settings.top_k is not None and engine.weighted:
        raise InputError(
            f"--top-k with --weight: expected every row (the weights of each tie group at the "
            f"depth), got a subsample: {where}; {fix}"
        )


def engine_note(engine: EngineData, at_hand: int, settings: Settings) -> str:
    """What the engine computed exactly and which rows the resampling drew from, preceded by
    why ``--engine auto`` chose it (the page's settings and summary.json's ``engine``)."""
    rows = f"{engine.n:,} rows" + (" of positive weight" if engine.weighted else "")
    if engine.engine == "memory":
        note = f"memory engine: every number from all {rows}, held in memory"
    else:
        exact = (
            f"{engine.engine} engine: every curve, AUC-PR estimate, operating point, ROC AUC, "
            f"hull and closed-form interval is exact over all {rows}"
        )
        if at_hand < engine.n:
            note = (
                f"{exact}; the resampling (bootstrap intervals, bands, comparisons, operating-"
                f"point and threshold-choice intervals) drew its subsamples from a stratified "
                f"random subsample of {at_hand:,} of those {engine.n:,} rows (--subsample), "
                "sized on all rows and rescaled by √(m/n) as in memory"
            )
        else:
            note = f"{exact}; the resampling drew from all {rows}, as in memory"
    return f"{settings.engine_reason}. {note}" if settings.engine_reason else note


def weights_notes(engine: EngineData, comparisons: bool) -> list[str]:
    """The report-wide note on what uses the weights (none without weights)."""
    if not engine.weighted:
        return []
    return [_weights_note(engine.weight_column or "?", comparisons)]


def _weights_note(column: str, comparisons: bool) -> str:
    return (
        f"sample weights (column {column!r}) are used by the curves, every AUC-PR estimate, "
        "the binomial and logit intervals (with Kish's effective number of positives) and the "
        "bootstrap interval (rows resampled with their weights)"
        + (", and the paired comparisons" if comparisons else "")
        + "; the confidence band is not computed (it takes no weights); rows of weight 0 "
        "are left out"
    )
