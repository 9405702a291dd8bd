"""The report's warning about a scorer significantly worse than chance, in words.

The test is :func:`prcurve._inference._chance.below_chance_test` (computed by the analysis,
kept in :attr:`ScorerAnalysis.chance`).  A scorer it flags usually has its scores running the
wrong way: the positive label is the other class, or the score is a probability of the
negative class (or a distance, where smaller means more positive).  The same sentence goes on
the page, into ``summary.json`` and to stderr, so none of them ranks such a scorer silently.
"""

from __future__ import annotations

from typing import Any

from ..analysis._analysis import Analysis, ScorerAnalysis

__all__ = ["chance_entry", "chance_warning", "chance_warnings"]


def _p_text(p: float) -> str:
    """A p-value for the sentence (underflow to 0 reads as below the smallest double's scale)."""
    return "p < 1e-300" if p < 1e-300 else f"p = {p:.1g}"


def chance_warning(sc: ScorerAnalysis, *, positive_label: str) -> str | None:
    """The warning for one scorer, or None when it is not significantly worse than chance."""
    test = sc.chance
    if test is None or not test.below:
        return None
    pi = float(sc.pr.prevalence)
    ap = sc.auc_pr.get("average_precision")
    ap_text = ""
    if ap is not None and ap < pi:
        ap_text = (
            f"; its average precision {ap:.3f} is below the share of positives {pi:.3f}, "
            "which a random ranking gets"
        )
    label = f" (now --pos-label {positive_label!r})" if positive_label else " (--pos-label)"
    return (
        f"scorer {sc.name!r} ranks significantly worse than chance: ROC AUC "
        f"{test.roc_auc:.3f}, below 0.5 (one-sided Mann–Whitney test, z = {test.z:.1f}, "
        f"{_p_text(test.p_value)}, flagged at p < {test.alpha:g}){ap_text}. Likely cause: the "
        f"positive label should be the other class{label}, or the score runs the wrong "
        "way (larger must mean more likely positive; e.g. a probability of the negative class: "
        f"use 1 − score). Reversed, its ROC AUC would be {1.0 - test.roc_auc:.3f}."
    )


def chance_entry(sc: ScorerAnalysis, *, positive_label: str) -> dict[str, Any] | None:
    """The test and its warning, for ``summary.json`` (None when it was not computed)."""
    test = sc.chance
    if test is None:
        return None
    return {
        "test": "one-sided Mann-Whitney (ROC AUC < 0.5), tie-corrected normal approximation",
        "roc_auc": test.roc_auc,
        "z": test.z,
        "p_value": test.p_value,
        "alpha": test.alpha,
        "worse_than_chance": test.below,
        "weighted_approximation": test.weighted,
        "warning": chance_warning(sc, positive_label=positive_label),
    }


def chance_warnings(analysis: Analysis) -> list[str]:
    """Every scorer's warning (for stderr), in the order of the scorers."""
    label = analysis.settings.positive_label
    out = [chance_warning(sc, positive_label=label) for sc in analysis.scorers.values()]
    return [w for w in out if w is not None]
