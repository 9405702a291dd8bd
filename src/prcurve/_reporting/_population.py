"""Outputs of ``prcurve population`` and ``prcurve simulate``: the statistician's views.

``population`` draws Hughes-Oliver's population curves (densities, ROC, PR at chosen
prevalences) for one or more of the paper's cases; ``simulate`` runs the small-sample study of the
functional estimator PR̂(x) (Hughes-Oliver Figures 7–11).  Both write a self-contained
``report.html``, ``summary.json``, the figure as PNG and the numbers as CSV, atomically.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .. import __version__, cases
from .._population._curves import population_curves
from .._population._simulation import simulate_pr_estimator
from .output._output import write_tree
from .output._write import curve_csv
from .render._page import heading as _heading
from .render._page import img as _img
from .render._page import note as _note
from .render._page import num as _num
from .render._page import page as _page
from .render._page import table as _table
from .render._png import figure_png

__all__ = ["write_population", "write_simulation"]

Progress = Callable[[int, int], None]


def _f(x: Any, digits: int = 4) -> str:
    if x is None:
        return "–"
    text = f"{x:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def write_population(
    case_names: Sequence[str],
    prevalences: Sequence[float],
    out_dir: str,
    *,
    progress: Any = None,
) -> dict[str, str]:
    """Population curves of the named cases at the given prevalences, written to ``out_dir``."""
    from matplotlib.figure import Figure

    from ..plot import PopulationCurvesDisplay

    if progress is not None:
        progress.start("population curves")
    curves = [
        population_curves(cases.CASES[c](0.5), prevalences=prevalences, name=f"Case {c}")
        for c in case_names
    ]
    fig = Figure(figsize=(4.2 * (2 + len(prevalences)), 4.4))
    axes = fig.subplots(1, 2 + len(prevalences))
    PopulationCurvesDisplay(curves).plot(axes)
    fig.tight_layout()
    png = figure_png(fig)
    summary: dict[str, Any] = {
        "prcurve_version": __version__,
        "settings": {"cases": list(case_names), "prevalences": list(prevalences)},
        "cases": {},
    }
    files: dict[str, str | bytes] = {"population.png": png}
    rows = []
    for name, c in zip(case_names, curves, strict=True):
        entry: dict[str, Any] = {"discrete": bool(c.discrete), "prevalences": {}}
        for j, p in enumerate(prevalences):
            model = cases.CASES[name](p)
            ends, shape = model.endpoints(), model.shape()
            entry["prevalences"][repr(p)] = {
                "pr_start": _num(ends.pr_start[1]),
                "pr_end": _num(ends.pr_end[1]),
                "chance_precision": _num(model.chance_precision),
                "pr_monotone": shape.pr_monotone,
                "pr_nonincreasing": shape.pr_nonincreasing,
            }
            rows.append(
                [
                    f"Case {name}",
                    f"{p:.4g}",
                    _f(_num(ends.pr_start[1])),
                    _f(_num(ends.pr_end[1])),
                    _f(_num(model.chance_precision)),
                    "yes" if shape.pr_monotone else "no",
                ]
            )
            files[f"curves/case_{name}_pr_{j}.csv"] = curve_csv(
                {
                    "recall": c.recall,
                    "precision": c.precision[j],
                    "lower_bound": c.lower_bound[j],
                }
            )
        entry["roc"] = {"fpr_grid_points": int(c.fpr.shape[0])}
        files[f"curves/case_{name}_roc.csv"] = curve_csv({"fpr": c.fpr, "tpr": c.tpr})
        summary["cases"][name] = entry
    summary["files"] = ["report.html", "summary.json", *files]
    body = [
        _img(png, "score densities, ROC and PR curves of the population models"),
        _heading("End points and shape (Hughes-Oliver P2, P3)"),
        _table(
            ["case", "prevalence π₊", "PR(0+)", "PR(1)", "chance π₊", "PR monotone"],
            rows,
        ),
        _note(
            "Population PR curve y(x) = π₊ / (π₊ + π₋·[1 − F₋(F₊⁻¹(1 − x))]/x) "
            "(Hughes-Oliver eq. 5); the grey dotted curve is the achievable lower bound "
            "π₊x/(π₊x + π₋). Curves on a grid are in curves/*.csv."
        ),
    ]
    files["report.html"] = _page("Population precision–recall curves", body)
    files["summary.json"] = json.dumps(summary, indent=2, allow_nan=False)
    if progress is not None:
        progress(1, 1)
    written = write_tree(out_dir, files, what="the population report")
    return {"report": written["report.html"]}


def write_simulation(
    case_name: str,
    prevalence: float,
    sizes: Sequence[int],
    recall: Sequence[float],
    out_dir: str,
    *,
    n_replicates: int,
    class_counts: str,
    seed: int,
    progress: Any = None,
) -> dict[str, str]:
    """The PR̂(x) simulation study for one case, written to ``out_dir``."""
    from matplotlib.figure import Figure

    from ..plot import PRSimulationDisplay

    model = cases.CASES[case_name](prevalence)
    gens = [np.random.default_rng(s) for s in np.random.SeedSequence(seed).spawn(len(sizes))]
    sims = []
    for n, gen in zip(sizes, gens, strict=True):
        if progress is not None:
            progress.start(f"simulating n = {n}")
        sims.append(
            simulate_pr_estimator(
                model, n, recall, n_replicates=n_replicates, class_counts=class_counts, rng=gen
            )
        )
        if progress is not None:
            progress(1, 1)
    x = sims[0].recall
    fig = Figure(figsize=(max(6.0, 1.9 * x.shape[0]), 1.9 * len(sims) + 0.8))
    axes = fig.subplots(len(sims), x.shape[0], squeeze=False)
    title = f"PR̂(x), Case {case_name}, π₊ = {prevalence:.4g}, {n_replicates:,} replicates"
    PRSimulationDisplay(sims).plot(axes, title=title)
    fig.tight_layout(rect=(0, 0.6 / fig.get_figheight(), 1, 1))  # room for the legend below
    png = figure_png(fig)
    files: dict[str, str | bytes] = {"simulation.png": png}
    results = []
    body = [_img(png, title)]
    for sim in sims:
        sd = np.full(x.shape[0], np.nan)
        if sim.normal is not None:
            idx = np.searchsorted(x, sim.normal.recall)
            sd[idx] = sim.normal.sd
        mean, bias, nvar = sim.mean(), sim.bias(), sim.scaled_variance()
        sigma2 = sim.n * sd**2
        results.append(
            {
                "n": sim.n,
                "recall": x.tolist(),
                "population": [_num(v) for v in sim.population],
                "mean": [_num(v) for v in mean],
                "bias": [_num(v) for v in bias],
                "scaled_variance": [_num(v) for v in nvar],
                "asymptotic_variance": [_num(v) for v in sigma2],
            }
        )
        files[f"estimates/n_{sim.n}.csv"] = curve_csv(
            {f"x={v:g}": sim.estimates[:, k] for k, v in enumerate(x)}
        )
        rows = [
            [
                f"{x[k]:g}",
                _f(_num(sim.population[k])),
                _f(_num(mean[k])),
                _f(_num(bias[k])),
                _f(_num(nvar[k]), 3),
                _f(_num(sigma2[k]), 3),
            ]
            for k in range(x.shape[0])
        ]
        body += [
            _heading(f"n = {sim.n:,}"),
            _table(["x", "PR(x)", "mean PR̂(x)", "bias", "n·Var PR̂(x)", "σ²(x)"], rows),
        ]
    body.append(
        _note(
            "Hughes-Oliver section 3.2: histograms of the functional estimator PR̂(x) over "
            "replicates, with a kernel density (black), the normal approximation "
            "N(PR(x), σ²(x)/n) with the corrected variance σ²(x) (purple, continuous laws "
            "only) and the population value (dashed). The replicates are in estimates/*.csv."
        )
    )
    summary = {
        "prcurve_version": __version__,
        "settings": {
            "case": case_name,
            "prevalence": prevalence,
            "sizes": list(sizes),
            "recall": x.tolist(),
            "n_replicates": n_replicates,
            "class_counts": class_counts,
            "seed": seed,
        },
        "results": results,
    }
    summary["files"] = ["report.html", "summary.json", *files]
    files["report.html"] = _page(f"Simulation of PR̂(x): Case {case_name}", body)
    files["summary.json"] = json.dumps(summary, indent=2, allow_nan=False)
    written = write_tree(out_dir, files, what="the simulation report")
    return {"report": written["report.html"]}
