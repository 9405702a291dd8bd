"""``summary.json``: every number of the report, as plain JSON-able data.

:func:`summary` turns an :class:`~..analysis.Analysis` into the dictionary that is written as
``summary.json`` and from which the page is rendered (so the page and the JSON cannot
disagree): settings, per scorer every AUC-PR estimate and interval, the band, the operating
points and the deployment prevalence (:func:`operating_summary`), the paired comparisons
(:func:`comparison_entry`, :func:`comparison_summary`) and the paths of the curve files.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ... import __version__
from ..._core._operating import OperatingPoint
from ..._inference._compare import ComparisonResult
from ..analysis._analysis import (
    FALLBACK_REASON,
    HEADLINE_KINDS,
    Analysis,
    headline_interval,
)
from ..analysis._intervals import headline_reason
from ..analysis._operating import OperatingAnalysis
from ..render._chance import chance_entry
from ..render._delong_html import roc_delong_entry
from ..render._other_tools_html import other_tools_entry
from ._choice_summary import choice_summary
from ._names import scorer_files

__all__ = ["comparison_entry", "comparison_summary", "operating_summary", "summary"]


def _num(x: Any) -> float | int | None:
    """A JSON-safe number (``None`` never happens for finite results)."""
    if isinstance(x, int | np.integer):
        return int(x)
    v = float(x)
    return v if np.isfinite(v) else None


def summary(analysis: Analysis) -> dict[str, Any]:
    """Every number in the report, as plain JSON-able data."""
    s = analysis.settings
    out: dict[str, Any] = {
        "prcurve_version": __version__,
        "settings": {
            "source": s.source,
            "label_column": s.label,
            "score_columns": list(s.scores),
            "positive_label": s.positive_label,
            "level": s.level,
            "n_resamples": s.n_resamples,
            "n_resamples_auto": s.n_resamples_auto,
            "seed": s.seed,
            "min_precision": list(s.min_precision),
            "min_recall": list(s.min_recall),
            "deployment_prevalence": (
                s.prevalence[0] / s.prevalence[1]
                if isinstance(s.prevalence, tuple)
                else s.prevalence
            ),
            "deployment_prevalence_count": (
                list(s.prevalence) if isinstance(s.prevalence, tuple) else None
            ),
            "weight_column": s.weight,
            "cost_ratio": s.cost_ratio,
            "top_k": s.top_k,
        },
        "engine": {
            "name": analysis.engine.name,
            "rows_resampled_from": analysis.engine.rows_at_hand,
            "note": analysis.engine.note,
        },
        "data": {
            "n": analysis.n,
            "n_pos": analysis.n_pos,
            "n_neg": analysis.n_neg,
            "prevalence": analysis.n_pos / analysis.n,
        },
        "scorers": {},
    }
    files = scorer_files(analysis)
    for name, sc in analysis.scorers.items():
        best = sc.best_f1
        out["scorers"][name] = {
            "n_thresholds": int(sc.pr.thresholds.shape[0]),
            "auc_pr": {m: _num(v) for m, v in sc.auc_pr.items()},
            "roc_auc": _num(sc.roc_auc),
            "roc_hull_auc": _num(sc.roc_hull.auc()),
            "achievable": {
                "n_points": int(sc.achievable.recall.shape[0]),
                "auc_pr_davis_goadrich": _num(sc.achievable.auc("davis_goadrich")),
            },
            "auprg": _num(sc.auprg),
            "auprg_hull": _num(sc.prg_hull.auc()),
            "best_f1": {
                "threshold": _num(best.threshold),
                "f1": _num(best.f_beta),
                "precision": _num(best.precision),
                "recall": _num(best.recall),
            },
            "auc_pr_ci": {
                method: {
                    kind: {
                        "low": _num(r.interval.low),
                        "high": _num(r.interval.high),
                        "level": r.level,
                        **({"n_resamples": r.n_resamples} if r.n_resamples else {}),
                    }
                    for kind, r in kinds.items()
                }
                for method, kinds in sc.auc_pr_ci.items()
            },
            "notes": list(sc.notes),
            "files": files[name],
            "chance": chance_entry(sc, positive_label=s.positive_label),
        }
        head = headline_interval(sc.auc_pr_ci)
        if head is not None:
            out["scorers"][name]["headline_auc_pr"] = {
                "estimator": head.method,
                "estimate": _num(head.estimate),
                "interval": head.kind,
                "low": _num(head.interval.low),
                "high": _num(head.interval.high),
                "level": head.level,
                "why": headline_reason(head.level)
                if head.kind == HEADLINE_KINDS[0]
                else FALLBACK_REASON,
            }
        if sc.operating is not None:
            out["scorers"][name].update(operating_summary(sc.operating))
        choice = choice_summary(sc)
        if choice is not None:
            out["scorers"][name]["threshold_choice"] = choice
        if sc.band is not None:
            band = sc.band
            out["scorers"][name]["confidence_band"] = {
                "method": band.method,
                "level": band.level,
                "recall_range": list(band.recall_range),
                "radius": _num(band.radius),
                "n_resamples": band.n_resamples,
                "bandwidth": None if band.bandwidth is None else [_num(h) for h in band.bandwidth],
                "effective_sample_size": _num(band.effective_sample_size),
                "grid_points": int(band.recall.shape[0]),
                "method_reason": sc.band_reason,
            }
    if s.weight is not None and analysis.scorers:
        first = next(iter(analysis.scorers.values())).pr
        out["data"]["weighted_prevalence"] = _num(first.prevalence)
    out["comparisons"] = [comparison_entry(a, b, r) for a, b, r in analysis.comparisons]
    if s.prevalence is not None:
        out["deployment_comparisons"] = comparison_summary(
            analysis.deployment_comparisons, analysis.deployment_notes
        )
    out["inference"] = [
        {
            "step": step.label,
            "n_resamples": step.plan.n_resamples,
            "rows": step.plan.rows,
            "n": step.plan.n,
        }
        for step in analysis.inference
    ]
    out["notes"] = list(analysis.notes)
    out["other_tools"] = other_tools_entry(analysis)
    out["roc_delong"] = roc_delong_entry(analysis)
    return out


def comparison_entry(a: str, b: str, r: Any) -> dict[str, Any]:
    """One paired comparison of scorers ``a`` and ``b`` as a ``summary.json`` entry."""
    return {
        "a": a,
        "b": b,
        "method": r.method,
        "estimate_a": _value(r.estimate_a),
        "estimate_b": _value(r.estimate_b),
        "difference": _value(r.difference),
        "low": _value(r.interval.low),
        "high": _value(r.interval.high),
        "level": r.level,
        "p_value": _value(r.p_value),
        "n_resamples": r.n_resamples,
        "bands_separate": bool(r.bands_separate),
    }


def comparison_summary(
    comparisons: Sequence[tuple[str, str, ComparisonResult]], notes: Sequence[str] = ()
) -> dict[str, Any]:
    """``summary.json``'s ``deployment_comparisons`` entry."""
    return {
        "comparisons": [
            {
                **comparison_entry(a, b, r),
                "prevalence": r.prevalence,
                "prevalence_count": None
                if r.prevalence_count is None
                else list(r.prevalence_count),
            }
            for a, b, r in comparisons
        ],
        "notes": list(notes),
    }


def _value(x: Any) -> Any:
    """A JSON-safe value: numbers (non-finite → ``None``), and booleans and text as they are."""
    if x is None or isinstance(x, bool | str):
        return x
    if isinstance(x, int | np.integer):
        return int(x)
    v = float(x)
    return v if np.isfinite(v) else None


def _interval(ci: Any) -> dict[str, Any] | None:
    return None if ci is None else {"low": _value(ci.low), "high": _value(ci.high)}


def _point_entry(p: OperatingPoint) -> dict[str, Any]:
    return {
        "criterion": p.criterion,
        "target": p.target,
        "prevalence": p.prevalence,
        "feasible": p.feasible,
        "reason": p.reason,
        **{k: _value(getattr(p, k)) for k in ("threshold", "precision", "recall", "fpr")},
        **{k: _value(getattr(p, k)) for k in ("tp", "fp", "fn", "tn")},
        "threshold_interval": _interval(p.threshold_interval),
        "precision_interval": _interval(p.precision_interval),
        "recall_interval": _interval(p.recall_interval),
        "feasible_fraction": p.feasible_fraction,
    }


def operating_summary(op: OperatingAnalysis) -> dict[str, Any]:
    """The scorer's ``operating_points`` (and ``deployment``) entries of ``summary.json``."""
    out: dict[str, Any] = {
        "operating_points": [_point_entry(p) for p in op.points],
        "operating_notes": list(op.notes),
    }
    if op.deployed is not None:
        ci = op.deployed_ap_ci
        out["deployment"] = {
            "prevalence": op.deployment_prevalence,
            "prevalence_count": None if op.deployment_count is None else list(op.deployment_count),
            "auc_pr": {m: _value(v) for m, v in op.deployed_auc_pr.items()},
            "achievable_auc_pr_davis_goadrich": _value(
                op.deployed_other["achievable_auc_pr_davis_goadrich"]
            ),
            "auprg": _value(op.deployed_other["auprg"]),
            "best_f1": {k: _value(v) for k, v in op.deployed_other["best_f1"].items()},
            "confidence_band": None
            if op.deployed_band is None
            else {
                "method": op.deployed_band.method,
                "level": op.deployed_band.level,
                "recall_range": list(op.deployed_band.recall_range),
                "radius": _value(op.deployed_band.radius),
                "n_resamples": op.deployed_band.n_resamples,
                "grid_points": int(op.deployed_band.recall.shape[0]),
            },
            "average_precision_bootstrap": None
            if ci is None
            else {
                "low": _value(ci.interval.low),
                "high": _value(ci.interval.high),
                "level": ci.level,
                "n_resamples": ci.n_resamples,
            },
        }
    return out
