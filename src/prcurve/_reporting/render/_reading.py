"""Plain-language parts of the report page: the ranking, "how to read this", p-values, notes.

Everything here works on the ``summary.json`` dictionary (so the page and the JSON agree) and
returns HTML fragments; ``_html`` places them.
"""

from __future__ import annotations

import html
import math
from typing import Any

from .._messages import plural

__all__ = ["HOW_TO_READ", "WIDE_BAND", "band_note", "format_p_value", "ranking"]

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


def ranking(data: dict[str, Any]) -> str:
    """The short ranking at the top of the page: who is best on AP, and is it significant."""
    esc = html.escape
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
    ap = scorers[best]["auc_pr"][key]
    d = data["data"]
    pi = d.get("weighted_prevalence") or d["prevalence"]  # what the APs are measured against
    share = "the weighted share" if "weighted_prevalence" in d else "the share"
    items = [
        f"<li><b>Best by {metric}: <code>{esc(best)}</code></b>, AP = {ap:.3f}{ci}"
        f"{_worse(scorers[best])}. A scorer that ranks at random gets about {pi:.3f}, "
        f"{share} of positives.</li>"
    ]
    for other in order[1:]:
        c = _comparison(data, best, other)
        gap = scorers[best]["auc_pr"][key] - scorers[other]["auc_pr"][key]
        text = (
            f"<code>{esc(other)}</code>: AP = {scorers[other]['auc_pr'][key]:.3f}, {gap:.3f} lower"
            + _worse(scorers[other])
        )
        if c is not None:
            lo, hi = (c["low"], c["high"]) if c["a"] == best else (-c["high"], -c["low"])
            p = format_p_value(c["p_value"], c["n_resamples"])
            significant = c["p_value"] < 1 - level and lo > 0
            verdict = (
                "the difference is significant"
                if significant
                else "the difference is <b>not</b> significant: the data cannot tell them apart"
            )
            p_text = p if p.startswith("<") else f"= {p}"
            text += (
                f"; {verdict} (p {p_text}; {level:.0%} interval of the difference "
                f"{lo:.3f} to {hi:.3f})"
            )
        items.append(f"<li>{text}.</li>")
    return '<ul class="ranking">' + "".join(items) + "</ul>"


def _worse(scorer: dict[str, Any]) -> str:
    """A mark in the ranking for a scorer significantly worse than chance."""
    if not (scorer.get("chance") or {}).get("worse_than_chance"):
        return ""
    return " <b>(worse than chance: see the warning below)</b>"


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


HOW_TO_READ = """
<h2 id="how-to-read">How to read this report</h2>
<dl class="glossary">
<dt>Precision–recall (PR) curve</dt>
<dd>Each point is one threshold on the score: <b>recall</b> is the share of positives found,
<b>precision</b> the share of flagged cases that are positive. Up and to the right is better.
Use it when positives are rare and false alarms matter.</dd>
<dt>AP (average precision)</dt>
<dd>The headline number: the precision averaged over the positives as the threshold is
lowered (the area under the step-shaped PR curve). 1 is perfect; a random scorer gets about
the share of positives. Use it to rank scorers.</dd>
<dt>Davis–Goadrich area (DG)</dt>
<dd>The area under the PR curve drawn correctly between thresholds (precision does not change
linearly between two points). Close to AP on large data; prefer it when the curve has few
points.</dd>
<dt>Achievable curve and achievable AUC-PR</dt>
<dd>The best PR curve reachable by randomly mixing two thresholds of the same scorer (the ROC
convex hull shown in PR space). A large gap to the real curve means some thresholds are never
worth using.</dd>
<dt>AUPRG (area under the precision–recall–gain curve)</dt>
<dd>PR rescaled so that a random scorer sits at 0 and a perfect one at 1, which makes areas
comparable across data sets with different shares of positives. Use it to compare across data
sets; use AP within one data set.</dd>
<dt>Confidence interval and confidence band</dt>
<dd>The interval gives the plausible range of AP had other cases been sampled. The shaded
band covers the whole PR curve at once with the stated probability; a wide band means too few
positives to pin the curve down.</dd>
<dt>Comparison (p-value)</dt>
<dd>Both scorers are re-evaluated on the same resampled cases; the p-value is how often a
difference as large as the one seen would appear if the scorers were equally good. Below 0.05
(and an interval of the difference not containing 0): the better AP is not chance.</dd>
<dt>ROC curve, ROC AUC and best F₁</dt>
<dd>ROC plots recall against the false-positive rate; its area ignores how rare positives are,
so it can look good when precision is poor. Best F₁ is the threshold that balances precision
and recall best.</dd>
</dl>
"""
