"""Plain-language parts of the report page: the ranking, "how to read this", p-values, notes.

Everything here works on the ``summary.json`` dictionary (so the page and the JSON agree);
the ranking is rendered from ``templates/binary/ranking.html`` and the "how to read" glossary is
``templates/binary/how_to_read.html``; ``_html`` places them.
"""

from __future__ import annotations

import math
from typing import Any

from markupsafe import Markup

from .._messages import plural
from ._templates import render

__all__ = ["WIDE_BAND", "band_note", "format_p_value", "ranking"]

#: A band half-width (precision units) above which the band is flagged as too wide to use.
WIDE_BAND = 0.25

#: The headline metric of the ranking.
HEADLINE = ("average_precision", "average precision (AP)")


def format_p_value(p: float, n_resamples: int) -> str:
    """A bootstrap p-value as text; at its floor ``1/(B+1)`` it reads ``< 0.005`` and the like.

    The smallest p-value ``B`` resamples can give is ``1/(B+1)``; printing it as a number would
    suggest a precision the bootstrap does not have, so it is shown as "below" the floor
    rounded up to one significant digit.

    >>> format_p_value(1 / 201, 200), format_p_value(1 / 1001, 1000), format_p_value(0.2345, 200)
    ('< 0.005', '< 0.001', '0.23')
    """
    floor = 1.0 / (n_resamples + 1)
    if p <= floor * (1 + 1e-9):
        digits = -math.floor(math.log10(floor))
        up = math.ceil(floor * 10**digits) / 10**digits
        return f"< {up:.{digits}f}".rstrip("0").rstrip(".")
    if p >= 0.01:
        return f"{p:.2f}"
    return f"{p:.2g}"


def ranking(data: dict[str, Any]) -> Markup:
    """The short ranking at the top of the page: who is best on AP, and is it significant."""
    key, metric = HEADLINE
    scorers = data["scorers"]
    order = sorted(scorers, key=lambda n: -(scorers[n]["auc_pr"][key] or 0.0))
    level = data["settings"]["level"]
    best = order[0]
    head = scorers[best].get("headline_auc_pr")  # the best-covering interval, named
    ci = (
        f" ({level:.0%} {head['interval'].replace('_', ' ')} interval {head['low']:.3f} to "
        f"{head['high']:.3f})"
        if head
        else ""
    )
    d = data["data"]
    others = []
    for other in order[1:]:
        c = _comparison(data, best, other)
        entry: dict[str, Any] = {
            "name": other,
            "ap": scorers[other]["auc_pr"][key],
            "gap": scorers[best]["auc_pr"][key] - scorers[other]["auc_pr"][key],
            "worse": _worse(scorers[other]),
            "comparison": None,
        }
        if c is not None:
            lo, hi = (c["low"], c["high"]) if c["a"] == best else (-c["high"], -c["low"])
            p = format_p_value(c["p_value"], c["n_resamples"])
            entry["comparison"] = {
                "significant": c["p_value"] < 1 - level and lo > 0,
                "p": p if p.startswith("<") else f"= {p}",
                "level": f"{level:.0%}",
                "low": lo,
                "high": hi,
            }
        others.append(entry)
    return render(
        "binary/ranking.html",
        metric=metric,
        best={
            "name": best,
            "ap": scorers[best]["auc_pr"][key],
            "ci": ci,
            "worse": _worse(scorers[best]),
        },
        # what the APs are measured against
        chance=d.get("weighted_prevalence") or d["prevalence"],
        share="the weighted share" if "weighted_prevalence" in d else "the share",
        others=others,
    )


def _worse(scorer: dict[str, Any]) -> bool:
    """Whether the ranking marks a scorer as significantly worse than chance."""
    return bool((scorer.get("chance") or {}).get("worse_than_chance"))


def _comparison(data: dict[str, Any], a: str, b: str) -> dict[str, Any] | None:
    for c in data["comparisons"]:
        if {c["a"], c["b"]} == {a, b}:
            return c  # type: ignore[no-any-return]
    return None


def band_note(band: dict[str, Any], n_pos: int) -> str | None:
    """A warning when the confidence band is too wide to be useful, and why."""
    if band["radius"] is None or band["radius"] <= WIDE_BAND:
        return None
    return (
        f"The band is wide (±{band['radius']:.2f} in precision): with only "
        f"{plural(n_pos, 'positive')} the PR curve is poorly determined, so differences of "
        "this size between curves may be chance. More positives narrow it roughly as "
        "1/√(number of positives)."
    )
