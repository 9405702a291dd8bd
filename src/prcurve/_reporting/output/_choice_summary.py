"""The ``threshold_choice`` entry of each scorer in ``summary.json``.

What the page's "Choosing a threshold" section shows (``render._choice_html`` reads it from
here, so the page and the JSON agree): the threshold view's size and bands, and with
``--cost-ratio``/``--prevalence`` the cost-optimal threshold, its expected cost and net benefit,
with ``--top-k`` precision@K and recall@K, each with its interval.  Non-finite numbers become
``null``: a threshold of ``+inf`` ("flag nothing") is ``null`` with ``flags_nothing: true``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..analysis._analysis import ScorerAnalysis
from ..analysis._choice import THRESHOLD_INTERVAL_CAVEAT, CostChoice, TopKChoice

__all__ = ["choice_summary"]


def _value(x: Any) -> Any:
    if x is None:
        return None
    v = float(x)
    return v if np.isfinite(v) else None


def _interval(ci: Any) -> dict[str, Any] | None:
    return None if ci is None else {"low": _value(ci.low), "high": _value(ci.high)}


def _cost_entry(c: CostChoice) -> dict[str, Any]:
    return {
        "cost_ratio": c.cost_ratio,
        "threshold_probability": c.threshold_probability,
        "prevalence": c.prevalence,
        "prevalence_source": c.prevalence_source,
        "threshold": _value(c.threshold),
        "flags_nothing": bool(np.isinf(c.threshold)),
        "threshold_interval": _interval(c.threshold_interval),
        "threshold_interval_note": THRESHOLD_INTERVAL_CAVEAT,
        "expected_cost": _value(c.expected_cost),
        "expected_cost_interval": _interval(c.expected_cost_interval),
        "net_benefit": _value(c.net_benefit),
        "net_benefit_interval": _interval(c.net_benefit_interval),
        "treat_all_net_benefit": _value(c.treat_all),
        "treat_all_interval": _interval(c.treat_all_interval),
        "precision": _value(c.precision),
        "recall": _value(c.recall),
        "fpr": _value(c.fpr),
        "queue_rate": _value(c.queue_rate),
    }


def _top_k_entry(t: TopKChoice) -> dict[str, Any]:
    return {
        "k": t.k,
        "depth_rows": t.depth,
        "threshold": _value(t.threshold),
        "precision_at_k": _value(t.precision),
        "precision_at_k_interval": _interval(t.precision_interval),
        "recall_at_k": _value(t.recall),
        "recall_at_k_interval": _interval(t.recall_interval),
        "rows_resampled": t.rows_resampled,
    }


def choice_summary(sc: ScorerAnalysis) -> dict[str, Any] | None:
    """The scorer's ``threshold_choice`` entry (None without a threshold view)."""
    view = sc.view_bands
    if view is None:
        return None
    choice = sc.choice
    return {
        "threshold_view": {
            "n_thresholds": int(sc.pr.thresholds.shape[0]),
            "band_points": int(view.band_index.shape[0]),
            "level": view.level,
            "n_resamples": view.n_resamples,
            "beta": view.beta,
        },
        "cost_optimal": None if choice is None or choice.cost is None else _cost_entry(choice.cost),
        "top_k": None if choice is None or choice.top_k is None else _top_k_entry(choice.top_k),
        "notes": [] if choice is None else list(choice.notes),
    }
