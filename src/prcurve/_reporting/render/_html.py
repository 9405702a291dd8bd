"""The self-contained HTML page of ``prcurve report`` (its figures are drawn in ``_figures``).

Every figure is a PNG embedded as a ``data:`` URI, so ``report.html`` is one file that opens
anywhere, offline.  Every number shown comes from the ``summary.json`` dictionary, so the page
and the JSON cannot disagree.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Callable
from typing import Any

from ..analysis._analysis import Analysis
from ._choice_html import choice_html
from ._delong_html import delong_tests_html, roc_auc_interval
from ._figures import Figure, draw_figures, render_figures
from ._files_note import files_note
from ._operating_html import deployment_html, operating_html
from ._other_tools_html import other_tools_html
from ._reading import HOW_TO_READ, band_note, format_p_value, ranking

__all__ = ["Figure", "draw_figures", "render_figures", "render_html"]

METHOD_NAMES = {
    "average_precision": "Average precision (step)",
    "davis_goadrich": "Davis–Goadrich interpolated area",
    "lower_trapezoid": "Lower trapezoid (Boyd et al.)",
    "interpolated_median": "Interpolated median (Boyd et al.)",
    "trapezoid": "Linear trapezoid (for comparison)",
}


def _fmt(x: Any, digits: int = 4) -> str:
    if x is None:
        return "–"
    if isinstance(x, int):
        return f"{x:,}"
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _ci(entry: dict[str, Any] | None) -> str:
    if not entry:
        return "–"
    return f"[{_fmt(entry['low'])}, {_fmt(entry['high'])}]"


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def _resamples(cis: dict[str, Any]) -> str:
    boot = cis.get("average_precision", {}).get("bootstrap_percentile")
    return "not computed" if not boot else f"{boot['n_resamples']:,} resamples"


def _img(fig: Figure) -> str:
    data = base64.b64encode(fig.png).decode("ascii")
    alt = html.escape(f"{fig.title}: {fig.caption}")
    return (
        f'<figure id="{fig.key}"><img src="data:image/png;base64,{data}" alt="{alt}">'
        f"<figcaption>{html.escape(fig.caption)}</figcaption></figure>"
    )


CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1b1b1b;
background:#fafafa;line-height:1.45}
main{max-width:1200px;margin:0 auto;padding:24px 32px 64px;background:#fff}
h1{font-size:1.7em;margin:0.2em 0}h2{margin-top:1.8em;border-bottom:2px solid #0072B2;
padding-bottom:4px}h3{margin-top:1.4em}
table{border-collapse:collapse;margin:12px 0;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d9d9d9;padding:4px 10px;text-align:right}
th{background:#f0f4f8}td:first-child,th:first-child{text-align:left}
.warn{background:#fff4e5;border-left:4px solid #D55E00;padding:6px 10px}
dl.glossary dt{font-weight:600;margin-top:0.6em}dl.glossary dd{margin:0.1em 0 0 1.2em}
ul.ranking{font-size:1.08em}
figure{margin:16px 0}figure img{max-width:100%;height:auto;border:1px solid #eee}
figcaption{font-size:0.9em;color:#555;margin-top:4px}
table.text td{text-align:left}.meta{color:#555}.note{font-size:0.9em;color:#555;max-width:900px}
code{background:#f3f3f3;padding:1px 4px;border-radius:3px}
table.choice th{vertical-align:bottom}.ci{font-size:0.85em;color:#555;white-space:nowrap}
"""


#: Under the comparison table: what "bands separate" means and why "no" can sit beside p < 0.001.
BANDS_SEPARATE_NOTE = (
    "Paired bootstrap: each resample draws the same instances for both scorers. A p-value "
    "written &lt; x is at the smallest value the number of resamples can give. "
    '"Bands separate": the two scorers\' simultaneous naive-bootstrap bands are disjoint at some '
    'recall. It is a much stricter criterion than the test, so "no" beside a small p-value is '
    "not a contradiction: the test compares one number (the difference of AP) and uses the "
    "pairing (both scorers err on the same hard instances, so their difference varies far less "
    "than either curve), while each band must cover its whole curve at once, alone. Read the "
    "p-value and the interval of the difference for which scorer is better; separate bands "
    "say more: one curve is above the other at some recall even allowing for the uncertainty "
    "of the whole curves."
)


def _prevalence_text(d: dict[str, Any]) -> str:
    """The header's prevalence: the weighted one with ``--weight`` (what every number uses)."""
    weighted = d.get("weighted_prevalence")
    if weighted is None:
        return f"prevalence π₊ = {d['prevalence']:.4f}"
    return (
        f"weighted prevalence π₊ = {weighted:.4f} (the share of the positives' weight; "
        f"unweighted {d['prevalence']:.4f})"
    )


def _chance_html(data: dict[str, Any]) -> list[str]:
    """A warning paragraph for each scorer significantly worse than chance."""
    out = []
    for s in data["scorers"].values():
        warning = (s.get("chance") or {}).get("warning")
        if warning:
            out.append(f'<p class="warn chance"><b>Warning:</b> {html.escape(warning)}</p>')
    return out


#: What the page says under the band table, by band method.
BAND_CAPTIONS = {
    "smoothed_bootstrap": "Clémençon &amp; Vayatis (2009), Algorithm 1: smoothed bootstrap of "
    "the functional PR estimator (kernel-smoothed class score distributions), sup-norm over "
    "the recall range.",
    "bootstrap": "Naive bootstrap band: instances resampled with replacement (no smoothing, so "
    "tied scores stay tied), the functional PR estimator recomputed on each resample, sup-norm "
    "over the recall range (the band of Clémençon &amp; Vayatis 2009, Algorithm 1, without its "
    "smoothing step).",
}


def render_html(
    analysis: Analysis,
    data: dict[str, Any],
    figures: list[Figure],
    *,
    check: Callable[[], None] | None = None,
) -> str:
    """The report page: one string, everything inline.

    ``check`` is called before each figure drawn here (the threshold views): it raises to stop
    the drawing when the report is abandoned (an error or Ctrl-C elsewhere).
    """
    st, d = data["settings"], data["data"]
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>prcurve report — {esc(st['source'])}</title>",
        f"<style>{CSS}</style></head><body><main>",
        "<h1>Precision–recall report</h1>",
        f'<p class="meta">Data: <code>{esc(st["source"])}</code> — {d["n"]:,} rows, '
        f"{d['n_pos']:,} positives (label <code>{esc(st['positive_label'])}</code> in column "
        f"<code>{esc(st['label_column'])}</code>), {d['n_neg']:,} negatives, "
        f"{_prevalence_text(d)}. Made by prcurve {esc(data['prcurve_version'])}.</p>",
        "<h2>Which scorer is best?</h2>",
        ranking(data),
        *_chance_html(data),
        '<p class="meta">New to these numbers? See <a href="#how-to-read">how to read this '
        "report</a>.</p>",
        "<h2>Summary</h2>",
    ]
    level = st["level"]
    head = [
        "scorer",
        "AP",
        f"AP {level:.0%} CI (method)",
        "DG area",
        "achievable DG area",
        "ROC AUC",
        f"ROC AUC {level:.0%} CI (DeLong)",
        "AUPRG",
        "best F₁",
    ]
    rows = []
    for name, s in data["scorers"].items():
        headline = s.get("headline_auc_pr")
        rows.append(
            [
                esc(name),
                _fmt(s["auc_pr"]["average_precision"]),
                _ci(headline)
                + (f" ({esc(headline['interval'].replace('_', ' '))})" if headline else ""),
                _fmt(s["auc_pr"]["davis_goadrich"]),
                _fmt(s["achievable"]["auc_pr_davis_goadrich"]),
                _fmt(s["roc_auc"]),
                roc_auc_interval(data, name),
                _fmt(s["auprg"]),
                _fmt(s["best_f1"]["f1"]),
            ]
        )
    parts.append(_table(head, rows, "summary"))
    heads = {
        s["headline_auc_pr"]["why"] for s in data["scorers"].values() if s.get("headline_auc_pr")
    }
    for why in sorted(heads):
        parts.append(f'<p class="note">AP interval in this table: {esc(why)}.</p>')
    links = [
        f'<a href="#section-{fig.key}">{esc(name)}</a>'
        for fig, name in zip(figures[1:], data["scorers"], strict=True)
    ]
    if any("threshold_choice" in s for s in data["scorers"].values()):
        links.append('<a href="#choosing">choosing a threshold</a>')
    if data["comparisons"]:
        links.append('<a href="#comparisons">pairwise comparisons</a>')
    if data.get("other_tools"):
        links.append('<a href="#other-tools">what other tools would report</a>')
    links.append('<a href="#settings">settings</a>')
    parts.append(f'<p class="meta">Sections: {" · ".join(links)}</p>')
    parts.append(_img(figures[0]))
    parts.append(deployment_html(analysis, data))
    for fig, (name, s) in zip(figures[1:], data["scorers"].items(), strict=True):
        parts.append(f'<h2 id="section-{fig.key}">Scorer <code>{esc(name)}</code></h2>')
        warning = (s.get("chance") or {}).get("warning")
        if warning:
            parts.append(f'<p class="warn chance"><b>Warning:</b> {esc(warning)}</p>')
        parts.append(_img(fig))
        parts.append("<h3>AUC-PR estimators</h3>")
        kinds = ("binomial", "logit", "bootstrap_percentile")
        rows = [
            [METHOD_NAMES[m], _fmt(v)] + [_ci(s["auc_pr_ci"].get(m, {}).get(k)) for k in kinds]
            for m, v in s["auc_pr"].items()
        ]
        parts.append(
            _table(
                [
                    "estimator",
                    "estimate",
                    f"{level:.0%} CI binomial",
                    f"{level:.0%} CI logit",
                    f"{level:.0%} CI bootstrap",
                ],
                rows,
            )
        )
        parts.append(
            '<p class="note">Binomial and logit intervals: Boyd, Eng &amp; Page (2013). The '
            "percentile bootstrap (instances resampled with replacement, so the prevalence "
            f"varies; {_resamples(s['auc_pr_ci'])}) is computed for average precision.</p>"
        )
        op_step = [st for st in analysis.inference if st.key == (name, "operating_points")]
        parts.append(operating_html(s, level, subsampled=any(st.plan.subsampled for st in op_step)))
        band = s.get("confidence_band")
        if band is not None:
            parts.append("<h3>Confidence band</h3>")
            bw = band["bandwidth"]
            rows = [
                ["method", esc(band["method"].replace("_", " "))],
                ["why this method", esc(band.get("method_reason", ""))],
                ["simultaneous level", f"{band['level']:g}"],
                ["recall range", f"{band['recall_range'][0]:g} – {band['recall_range'][1]:g}"],
                ["half-width (precision units)", _fmt(band["radius"])],
                ["bootstrap resamples", _fmt(band["n_resamples"])],
                [
                    "kernel bandwidths (positives, negatives)",
                    "–" if bw is None else f"{bw[0]:.4g}, {bw[1]:.4g}",
                ],
            ]
            parts.append(_table(["band", "value"], rows))
            wide = band_note(band, d["n_pos"])
            if wide is not None:
                parts.append(f'<p class="warn">{esc(wide)}</p>')
            caption = BAND_CAPTIONS.get(band["method"], esc(band["method"]))
            parts.append(f'<p class="note">{caption}</p>')
        if s["notes"]:
            parts.append("<h3>Notes</h3><ul>")
            parts.extend(f"<li>{esc(n)}</li>" for n in s["notes"])
            parts.append("</ul>")
        best = s["best_f1"]
        rows = [
            ["distinct thresholds (operating points)", _fmt(s["n_thresholds"])],
            ["ROC AUC", _fmt(s["roc_auc"])],
            ["ROC convex hull AUC", _fmt(s["roc_hull_auc"])],
            ["achievable curve: points", _fmt(s["achievable"]["n_points"])],
            ["achievable curve: AUC-PR (DG)", _fmt(s["achievable"]["auc_pr_davis_goadrich"])],
            ["AUPRG", _fmt(s["auprg"])],
            ["AUPRG of the PRG convex hull", _fmt(s["auprg_hull"])],
            [
                "best F₁ (threshold)",
                f"{_fmt(best['f1'])} (score ≥ {best['threshold']:.6g}; precision "
                f"{_fmt(best['precision'], 3)}, recall {_fmt(best['recall'], 3)})",
            ],
        ]
        parts.append("<h3>Other numbers</h3>")
        parts.append(_table(["quantity", "value"], rows))
    parts.append(choice_html(analysis, data, check=check))
    if data["comparisons"]:
        parts.append('<h2 id="comparisons">Pairwise comparisons</h2>')
        rows = []
        for c in data["comparisons"]:
            rows.append(
                [
                    f"<code>{esc(c['a'])}</code> − <code>{esc(c['b'])}</code>",
                    _fmt(c["estimate_a"]),
                    _fmt(c["estimate_b"]),
                    _fmt(c["difference"]),
                    _ci(c),
                    esc(format_p_value(c["p_value"], c["n_resamples"])),
                    "yes" if c["bands_separate"] else "no",
                ]
            )
        parts.append(
            _table(
                [
                    "A − B",
                    "AP of A",
                    "AP of B",
                    "difference",
                    f"{level:.0%} CI",
                    "p-value",
                    "bands separate",
                ],
                rows,
            )
        )
        parts.append(f'<p class="note">{BANDS_SEPARATE_NOTE}</p>')
    parts.append(delong_tests_html(data))
    parts.append(other_tools_html(data))
    if data["notes"]:
        parts.append("<h3>Notes</h3><ul>")
        parts.extend(f"<li>{esc(n)}</li>" for n in data["notes"])
        parts.append("</ul>")
    parts.append(HOW_TO_READ)
    parts.append('<h2 id="settings">Settings</h2>')
    rows = [
        ["input", f"<code>{esc(st['source'])}</code>"],
        ["engine", esc(data["engine"]["note"])],
        ["label column", f"<code>{esc(st['label_column'])}</code>"],
        ["positive label", f"<code>{esc(st['positive_label'])}</code>"],
        ["score columns", ", ".join(f"<code>{esc(c)}</code>" for c in st["score_columns"])],
        ["confidence level", f"{st['level']:g}"],
        [
            "bootstrap resamples",
            f"{st['n_resamples']:,}"
            + (
                " at most (auto: sized per step, see below; set --n-resamples)"
                if st["n_resamples_auto"]
                else ""
            ),
        ],
        ["random seed", esc(str(st["seed"]))],
    ]
    if st.get("weight_column") is not None:  # --weight: what uses the weights is in the notes
        rows.insert(4, ["sample weights", f"<code>{esc(st['weight_column'])}</code>"])
    parts.append(_table(["setting", "value"], rows, "text"))
    if analysis.inference:
        parts.append("<h3>Resampling used by each step</h3>")
        rows = []
        for step in analysis.inference:
            p = step.plan
            sub = " (stratified subsample; widths scaled by √(rows/n))" if p.subsampled else ""
            rows.append(
                [esc(step.label), f"{p.n_resamples:,}", f"{p.rows:,} of {p.n:,}{sub}",
                 f"{step.seconds:.2f}"]
            )  # fmt: skip
        parts.append(_table(["step", "resamples", "rows resampled", "seconds"], rows, "text"))
    files = ", ".join(f"<code>{esc(f)}</code>" for f in data["files"])
    parts.append(
        f'<p class="note">Files written with this page: {files}. <code>summary.json</code> holds '
        f"every number shown here. {files_note(data.get('curve_files'))}</p>"
    )
    parts.append(
        '<p class="note">Conventions: an instance is predicted positive when its score is at '
        "least the threshold; tied scores form one operating point. Between operating points "
        "the PR curve is interpolated in count space (Davis &amp; Goadrich 2006), which is not "
        "a straight line in PR space; the linear trapezoid lies above it where precision "
        "falls between points (below where it rises) and is shown only for comparison.</p>"
    )
    parts.append("</main></body></html>")
    return "\n".join(parts)
