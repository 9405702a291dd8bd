"""The self-contained HTML page of ``prcurve report`` (its figures are drawn in ``_figures``).

Every figure is a PNG embedded as a ``data:`` URI, so ``report.html`` is one file that opens
anywhere, offline.  Every number shown comes from the ``summary.json`` dictionary, so the page
and the JSON cannot disagree.  :func:`render_html` lists the page's sections in order; each is
rendered from its template under ``templates/binary/`` (autoescaped, see ``_templates``) and the
page is the base layout shared with the multiclass and fold pages.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from markupsafe import Markup

from ..analysis._analysis import Analysis
from ._choice_html import choice_html
from ._delong_html import delong_tests_html, roc_auc_interval
from ._figures import Figure, draw_figures, render_figures
from ._files_note import files_note
from ._operating_html import deployment_html, operating_html
from ._other_tools_html import other_tools_html
from ._page import img, page
from ._reading import band_note, format_p_value, ranking
from ._templates import code, code_list, render

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


def _resamples(cis: dict[str, Any]) -> str:
    boot = cis.get("average_precision", {}).get("bootstrap_percentile")
    return "not computed" if not boot else f"{boot['n_resamples']:,} resamples"


def _img(fig: Figure) -> Markup:
    return img(fig.png, f"{fig.title}: {fig.caption}", caption=fig.caption, key=fig.key)


def _prevalence_text(d: dict[str, Any]) -> str:
    """The header's prevalence: the weighted one with ``--weight`` (what every number uses)."""
    weighted = d.get("weighted_prevalence")
    if weighted is None:
        return f"prevalence π₊ = {d['prevalence']:.4f}"
    return (
        f"weighted prevalence π₊ = {weighted:.4f} (the share of the positives' weight; "
        f"unweighted {d['prevalence']:.4f})"
    )


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
    sections = [
        _header(data, figures),
        _img(figures[0]),
        deployment_html(analysis, data),
        *(
            _scorer(analysis, data, fig, name)
            for fig, name in zip(figures[1:], data["scorers"], strict=True)
        ),
        choice_html(analysis, data, check=check),
        _comparisons(data),
        delong_tests_html(data),
        other_tools_html(data),
        render("binary/notes.html", notes=data["notes"]),
        render("binary/how_to_read.html"),
        _settings(analysis, data),
    ]
    title = f"prcurve report — {data['settings']['source']}"
    return page(title, sections, h1="Precision–recall report", made_by=False)


def _header(data: dict[str, Any], figures: list[Figure]) -> Markup:
    """The data, the ranking, the chance warnings, the summary table and the section links."""
    st, level = data["settings"], data["settings"]["level"]
    head = ["scorer", "AP", f"AP {level:.0%} CI (method)", "DG area", "achievable DG area",
            "ROC AUC", f"ROC AUC {level:.0%} CI (DeLong)", "AUPRG", "best F₁"]  # fmt: skip
    rows = []
    for name, s in data["scorers"].items():
        headline = s.get("headline_auc_pr")
        method = f" ({headline['interval'].replace('_', ' ')})" if headline else ""
        rows.append(
            [name, _fmt(s["auc_pr"]["average_precision"]), _ci(headline) + method,
             _fmt(s["auc_pr"]["davis_goadrich"]), _fmt(s["achievable"]["auc_pr_davis_goadrich"]),
             _fmt(s["roc_auc"]), roc_auc_interval(data, name), _fmt(s["auprg"]),
             _fmt(s["best_f1"]["f1"])]
        )  # fmt: skip
    scorers = zip(figures[1:], data["scorers"], strict=True)
    links = [(f"section-{fig.key}", name) for fig, name in scorers]
    if any("threshold_choice" in s for s in data["scorers"].values()):
        links.append(("choosing", "choosing a threshold"))
    if data["comparisons"]:
        links.append(("comparisons", "pairwise comparisons"))
    if data.get("other_tools"):
        links.append(("other-tools", "what other tools would report"))
    links.append(("settings", "settings"))
    return render(
        "binary/header.html",
        source=st["source"], d=data["data"], positive_label=st["positive_label"],
        label_column=st["label_column"], prevalence=_prevalence_text(data["data"]),
        weighted=data["data"].get("weighted_prevalence") is not None,
        version=data["prcurve_version"], ranking=ranking(data),
        warnings=[w for s in data["scorers"].values() if (w := _chance(s))],
        head=head, rows=rows, links=links,
        whys=sorted(
            {s["headline_auc_pr"]["why"] for s in data["scorers"].values()
             if s.get("headline_auc_pr")}
        ),
    )  # fmt: skip


def _chance(s: dict[str, Any]) -> str | None:
    """The scorer's worse-than-chance warning, if any."""
    return (s.get("chance") or {}).get("warning")  # type: ignore[no-any-return]


def _scorer(analysis: Analysis, data: dict[str, Any], fig: Figure, name: str) -> Markup:
    """One scorer's section: figure, estimators, operating points, band, notes, other numbers."""
    s, level = data["scorers"][name], data["settings"]["level"]
    kinds = ("binomial", "logit", "bootstrap_percentile")
    estimators = [
        [METHOD_NAMES[m], _fmt(v)] + [_ci(s["auc_pr_ci"].get(m, {}).get(k)) for k in kinds]
        for m, v in s["auc_pr"].items()
    ]
    op_step = [st for st in analysis.inference if st.key == (name, "operating_points")]
    band = s.get("confidence_band")
    best = s["best_f1"]
    other = [
        ["distinct thresholds (operating points)", _fmt(s["n_thresholds"])],
        ["ROC AUC", _fmt(s["roc_auc"])],
        ["ROC convex hull AUC", _fmt(s["roc_hull_auc"])],
        ["achievable curve: points", _fmt(s["achievable"]["n_points"])],
        ["achievable curve: AUC-PR (DG)", _fmt(s["achievable"]["auc_pr_davis_goadrich"])],
        ["AUPRG", _fmt(s["auprg"])],
        ["AUPRG of the PRG convex hull", _fmt(s["auprg_hull"])],
        [
            "best F₁ (threshold)",
            f"{_fmt(best['f1'])} (score ≥ {best['threshold'] + 0.0:.6g}; precision "
            f"{_fmt(best['precision'], 3)}, recall {_fmt(best['recall'], 3)})",
        ],
    ]
    return render(
        "binary/scorer.html",
        key=fig.key, name=name, warning=_chance(s), figure=_img(fig),
        estimators_head=["estimator", "estimate", f"{level:.0%} CI binomial",
                         f"{level:.0%} CI logit", f"{level:.0%} CI bootstrap"],
        estimators=estimators, resamples=_resamples(s["auc_pr_ci"]),
        operating=operating_html(s, level, subsampled=any(st.plan.subsampled for st in op_step)),
        band=None if band is None else _band_rows(band),
        band_method=None if band is None else band["method"],
        wide=None if band is None else band_note(band, data["data"]["n_pos"]),
        scorer_notes=s["notes"], other=other,
    )  # fmt: skip


def _band_rows(band: dict[str, Any]) -> list[list[str]]:
    """The confidence band's table."""
    bw = band["bandwidth"]
    return [
        ["method", band["method"].replace("_", " ")],
        ["why this method", band.get("method_reason", "")],
        ["simultaneous level", f"{band['level']:g}"],
        ["recall range", f"{band['recall_range'][0]:g} – {band['recall_range'][1]:g}"],
        ["half-width (precision units)", _fmt(band["radius"])],
        ["bootstrap resamples", _fmt(band["n_resamples"])],
        [
            "kernel bandwidths (positives, negatives)",
            "–" if bw is None else f"{bw[0]:.4g}, {bw[1]:.4g}",
        ],
    ]


def _comparisons(data: dict[str, Any]) -> Markup:
    """The pairwise comparisons (nothing with one scorer)."""
    if not data["comparisons"]:
        return Markup()
    level = data["settings"]["level"]
    rows = [
        [code(c["a"]) + " − " + code(c["b"]), _fmt(c["estimate_a"]),
         _fmt(c["estimate_b"]), _fmt(c["difference"]), _ci(c),
         format_p_value(c["p_value"], c["n_resamples"]), "yes" if c["bands_separate"] else "no"]
        for c in data["comparisons"]
    ]  # fmt: skip
    head = ["A − B", "AP of A", "AP of B", "difference", f"{level:.0%} CI", "p-value",
            "bands separate"]  # fmt: skip
    return render("binary/comparisons.html", head=head, rows=rows)


def _settings(analysis: Analysis, data: dict[str, Any]) -> Markup:
    """The settings, the resampling of each step, the files written and the conventions."""
    st = data["settings"]
    rows = [
        ["input", code(st["source"])],
        ["engine", data["engine"]["note"]],
        ["label column", code(st["label_column"])],
        ["positive label", code(st["positive_label"])],
        ["score columns", code_list(st["score_columns"])],
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
        ["random seed", str(st["seed"])],
    ]
    if st.get("weight_column") is not None:  # --weight: what uses the weights is in the notes
        rows.insert(4, ["sample weights", code(st["weight_column"])])
    steps = []
    for step in analysis.inference:
        p = step.plan
        sub = " (stratified subsample; widths scaled by √(rows/n))" if p.subsampled else ""
        steps.append(
            [step.label, f"{p.n_resamples:,}", f"{p.rows:,} of {p.n:,}{sub}", f"{step.seconds:.2f}"]
        )
    return render("binary/settings.html", rows=rows, steps=steps, files=files_note(data))
