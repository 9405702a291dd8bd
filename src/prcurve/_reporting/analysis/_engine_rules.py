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

__all__ = ["check_engine_options", "engine_notes"]


def check_engine_options(engine: EngineData, at_hand: int, settings: Settings) -> None:
    """Refuse, with one line, an option that needs every row when fewer are at hand."""
    if at_hand >= engine.n:
        return
    where = (
        f"--engine {engine.engine.lower()} hands the analysis a stratified subsample of "
        f"{at_hand:,} of the {engine.n:,} rows"
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


def engine_notes(
    engine: EngineData, at_hand: int, comparisons: bool, settings: Settings
) -> list[str]:
    """The report-wide notes about the engine and the weights (page and summary.json)."""
    notes = [settings.engine_reason] if settings.engine_reason else []
    if engine.engine != "memory":
        exact = (
            f"{engine.engine} engine: every curve, AUC-PR estimate, operating point, ROC AUC, "
            f"hull and closed-form interval is exact over all {engine.n:,} rows"
        )
        if at_hand < engine.n:
            notes.append(
                f"{exact}; the resampling (bootstrap intervals, bands, comparisons, operating-"
                f"point and threshold-choice intervals) drew its subsamples from a stratified "
                f"random subsample of {at_hand:,} of the {engine.n:,} rows (--subsample), "
                "sized and rescaled by √(m/n) as in memory"
            )
        else:
            notes.append(f"{exact}; the resampling used all {engine.n:,} rows, as in memory")
    if engine.weighted:
        notes.append(_weights_note(engine.weight_column or "?", comparisons))
    return notes


def _weights_note(column: str, comparisons: bool) -> str:
    return (
        f"sample weights (column {column!r}) are used by the curves, every AUC-PR estimate, "
        "the binomial and logit intervals (with Kish's effective number of positives) and the "
        "bootstrap interval (rows resampled with their weights)"
        + (", and the paired comparisons" if comparisons else "")
        + "; the confidence band is not computed (it takes no weights); rows of weight 0 "
        "are left out"
    )
