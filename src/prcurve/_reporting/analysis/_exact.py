"""The analysis of exact curves computed elsewhere, with the resampling done on a subsample.

An engine that cannot hold every row in memory (``--engine dask``) computes, out of core, what
needs only the sorted distinct scores: each scorer's exact curve.  :func:`analyse_exact` takes
those curves and a random subsample of the rows and returns the report's :class:`Analysis`:
every AUC-PR estimate, the ROC AUC and hull, the achievable curve and the binomial/logit
intervals from the exact curves; the bootstrap interval, the confidence band and the paired
comparisons (which need the raw rows) from :func:`analyse` of the subsample, and notes saying
which is which.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..._core._area import AUC_PR_METHODS
from ..._inference._chance import below_chance_test
from ..input._dask import DaskInput
from ._analysis import (
    Analysis,
    ScorerAnalysis,
    Settings,
    analyse,
    auto_resamples,
    closed_form_intervals,
    derived_curves,
)
from ._other_tools import exact_counts, other_tools
from ._roc_delong import roc_delong

__all__ = ["analyse_exact"]


def analyse_exact(
    data: DaskInput,
    settings: Settings,
    *,
    n_resamples: int | None = None,
    engine: str = "Dask",
    progress: Any = None,
) -> Analysis:
    """The report's :class:`Analysis` of ``data``'s exact curves and subsample.

    ``settings.n_resamples`` is replaced by ``n_resamples`` (default: the automatic number for
    the subsample's size); ``engine`` names the engine in the notes.
    """
    sub, n = data.sample, data.n_rows
    b = n_resamples or auto_resamples(sub.n)
    settings = dataclasses.replace(
        settings,
        positive_label=sub.positive_label,
        n_resamples=b,
        source=sub.source,
        threshold_choice=False,  # not offered on this engine (its options are refused)
    )
    approx = analyse(sub, settings, progress=progress)
    where = (
        f"on a uniform random subsample of {sub.n:,} of the {n:,} rows (seed {settings.seed})"
        if data.sampled
        else f"on all {n:,} rows"
    )
    scorers = {}
    for name, result in data.exact.items():
        part = approx.scorers[name]
        pr = result.curve
        cis, ci_notes = closed_form_intervals(
            {m: pr.auc(m) for m in AUC_PR_METHODS}, result.n_pos_effective, settings.level
        )
        boot = part.auc_pr_ci.get("average_precision", {}).get("bootstrap_percentile")
        if boot is not None:
            cis.setdefault("average_precision", {})["bootstrap_percentile"] = boot
        notes = [
            f"{engine} engine: curves, every AUC-PR estimate, the ROC AUC and hull and the "
            f"binomial and logit intervals are exact over all {n:,} rows "
            f"({result.n_distinct:,} distinct scores); the bootstrap interval and the confidence "
            f"band were computed {where}."
        ]
        if pr.thinning is not None:
            notes.append(
                f"The curves shown and written have {pr.tp.shape[0]:,} of the "
                f"{pr.thinning.n_points:,} operating points (ROC hull vertices and end points "
                f"kept); their precision differs from the full curve's by at most "
                f"{pr.thinning.max_precision_error:.2g}; AUPRG is that of these points."
            )
        scorers[name] = ScorerAnalysis(
            name=name,
            pr=pr,
            **derived_curves(pr),
            auc_pr={m: pr.auc(m) for m in AUC_PR_METHODS},
            auc_pr_ci=cis,
            band=part.band,
            band_reason=part.band_reason,
            notes=notes + ci_notes + part.notes,
            timings=part.timings,
            chance=below_chance_test(pr.tp, pr.fp, ties=pr.thinning is None),
        )
    common = list(approx.notes)
    if approx.comparisons:
        common.insert(0, f"{engine} engine: the paired comparisons were computed {where}.")
    n_pos = round(float(next(iter(data.exact.values())).curve.n_pos))
    counts = {name: exact_counts(result.curve) for name, result in data.exact.items()}
    return Analysis(
        settings, n, n_pos, n - n_pos, scorers, approx.comparisons, common, approx.timings,
        other_tools=other_tools(counts),
        roc_delong=roc_delong(counts, sub.y, sub.scores, level=settings.level, n=n,
                              weighted=sub.weight is not None),
    )  # fmt: skip
