"""Displays for population models (Hughes-Oliver Figures 3-6) and the PR̂(x) study (7-11).

The statistics come from :func:`prcurve.population_curves` and :class:`prcurve.PRSimulation`;
this module only draws their arrays.  Matplotlib is imported lazily.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._population._curves import PopulationCurves, population_curves
from .._population._model import PopulationModel
from .._population._simulation import PRSimulation
from ._style import REFERENCE_GREY, color_cycle, plain_text, unit_square

__all__ = ["PRSimulationDisplay", "PopulationCurvesDisplay"]

NEGATIVE_COLOR = "#000000"
NORMAL_COLOR = "#CC79A7"  # Okabe-Ito reddish purple, as the paper's purple normal curves


def _new_axes(nrows: int, ncols: int, size: tuple[float, float]) -> Any:
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(nrows, ncols, figsize=size, squeeze=False)
    return fig, axes


def _fraction(p: float) -> str:
    inverse = 1 / p
    return f"1/{round(inverse)}" if abs(inverse - round(inverse)) < 1e-9 else f"{p:g}"


def _draw_law(
    ax: Any,
    scores: np.ndarray,
    dens: np.ndarray,
    discrete: bool,
    color: str,
    label: str,
    linestyle: str,
) -> list[Any]:
    """A density curve, or a stem plot of probability masses."""
    if discrete:
        return [
            ax.vlines(scores, 0, dens, color=color, linestyle=linestyle),
            ax.scatter(scores, dens, color=color, label=label, zorder=3, s=18),
        ]
    return list(ax.plot(scores, dens, color=color, linestyle=linestyle, label=label))


class PopulationCurvesDisplay:
    """Score densities, ROC curves and PR curves of population models, side by side.

    Panel (a) shows the densities (probability masses for discrete laws: negatives in black,
    positives in colour), (b) the ROC curves with the chance diagonal, then one PR panel per
    prevalence with the chance line π₊ and the achievable lower bound π₊x/(π₊x + π₋).

    Parameters
    ----------
    curves : PopulationCurves or sequence of PopulationCurves
        Computed with :func:`prcurve.population_curves`; all with the same prevalences.

    Attributes
    ----------
    axes_ : ndarray of Axes, shape (2 + p,)
    figure_ : Figure
    artists_ : dict of str to list of Artist

    Notes
    -----
    Hughes-Oliver, Figures 3-6 (Cases A-F) and properties P1-P6.

    Examples
    --------
    >>> from prcurve import cases
    >>> from prcurve.plot import PopulationCurvesDisplay
    >>> disp = PopulationCurvesDisplay.from_model(
    ...     [cases.D(), cases.E()], names=["D", "E"], prevalences=(0.5, 1 / 11)
    ... )
    >>> len(disp.axes_)
    4
    """

    def __init__(self, curves: PopulationCurves | Sequence[PopulationCurves]) -> None:
        items = [curves] if isinstance(curves, PopulationCurves) else list(curves)
        if not items or not all(isinstance(c, PopulationCurves) for c in items):
            raise TypeError(
                "curves: expected a PopulationCurves or a non-empty sequence of them, got "
                f"{type(curves).__name__}"
            )
        if len({c.prevalences for c in items}) > 1:
            raise ValueError("curves: expected the same prevalences for every model")
        self.curves = items

    @classmethod
    def from_model(
        cls,
        models: PopulationModel | Sequence[PopulationModel],
        *,
        names: Sequence[str] | None = None,
        prevalences: Sequence[float] | None = None,
        thresholds: Any = None,
        score_range: tuple[float, float] | None = None,
        **kwargs: Any,
    ) -> PopulationCurvesDisplay:
        """Compute :func:`prcurve.population_curves` for each model, then plot.

        ``prevalences`` defaults to each model's own prevalence (they must then agree).
        """
        items = [models] if isinstance(models, PopulationModel) else list(models)
        labels = list(names) if names is not None else [None] * len(items)
        if len(labels) != len(items):
            raise ValueError(
                f"names: expected {len(items)} names (one per model), got {len(labels)}"
            )
        curves = [
            population_curves(
                m, prevalences=prevalences, thresholds=thresholds, name=n, score_range=score_range
            )
            for m, n in zip(items, labels, strict=True)
        ]
        return cls(curves).plot(**kwargs)

    def plot(self, axes: Any = None, *, legend: bool = True) -> PopulationCurvesDisplay:
        """Draw on ``axes`` (a sequence of 2 + p Axes; a new figure when None), return self."""
        n_prev = len(self.curves[0].prevalences)
        if axes is None:
            _, grid = _new_axes(1, 2 + n_prev, (4.2 * (2 + n_prev), 4.2))
            axes = grid[0]
        axes = np.asarray(axes, dtype=object).ravel()
        if axes.size != 2 + n_prev:
            raise ValueError(f"axes: expected {2 + n_prev} Axes, got {axes.size}")
        artists: dict[str, list[Any]] = {"density": [], "roc": [], "pr": [], "reference": []}
        ax_d, ax_roc = axes[0], axes[1]
        neg_drawn = False
        for i, c in enumerate(self.curves):
            color = color_cycle(i)
            suffix = f" ({plain_text(c.name)})" if c.name else ""
            first = self.curves[0]
            same_negatives = np.array_equal(c.scores_negative, first.scores_negative) and (
                np.array_equal(c.density_negative, first.density_negative)
            )
            if not neg_drawn or not same_negatives:
                artists["density"] += _draw_law(
                    ax_d, c.scores_negative, c.density_negative, c.law_discrete[0], NEGATIVE_COLOR,
                    f"negatives{suffix}", "-" if not neg_drawn else ":",
                )  # fmt: skip
                neg_drawn = True
            artists["density"] += _draw_law(
                ax_d, c.scores_positive, c.density_positive, c.law_discrete[1], color,
                f"positives{suffix}", "-",
            )  # fmt: skip
            name = plain_text(c.name) if c.name else None
            artists["roc"] += ax_roc.plot(c.fpr, c.tpr, color=color, linewidth=1.8, label=name)
            if c.thresholds.size:
                artists["roc"].append(ax_roc.scatter(c.mark_fpr, c.mark_tpr, color=color, s=14))
                for t, xv, yv in zip(c.thresholds, c.mark_fpr, c.mark_tpr, strict=True):
                    ax_roc.annotate(
                        f"{t:g}", (xv, yv), fontsize=7, xytext=(3, -8), textcoords="offset points"
                    )
        ax_d.set_xlabel("score")
        ax_d.set_ylabel(
            "probability mass"
            if all(self.curves[0].law_discrete)
            else "density / probability"
            if any(self.curves[0].law_discrete)
            else "density"
        )
        ax_d.set_title("(a) score distributions")
        artists["reference"] += ax_roc.plot(
            [0, 1], [0, 1], color=REFERENCE_GREY, linestyle="--", linewidth=0.9, label="chance"
        )
        unit_square(ax_roc, "False positive rate", "True positive rate")
        ax_roc.set_title("(b) ROC")
        for j, prevalence in enumerate(self.curves[0].prevalences):
            ax = axes[2 + j]
            for i, c in enumerate(self.curves):
                artists["pr"] += ax.plot(
                    c.recall,
                    c.precision[j],
                    color=color_cycle(i),
                    linewidth=1.8,
                    label=plain_text(c.name) if c.name else None,
                )
                if c.thresholds.size:
                    artists["pr"].append(
                        ax.scatter(c.mark_tpr, c.mark_precision[j], color=color_cycle(i), s=14)
                    )
            first = self.curves[0]
            artists["reference"] += ax.plot(
                [0, 1],
                [prevalence, prevalence],
                color=REFERENCE_GREY,
                linestyle="--",
                linewidth=0.9,
                label="chance",
            )
            artists["reference"] += ax.plot(
                first.recall,
                first.lower_bound[j],
                color=REFERENCE_GREY,
                linewidth=0.9,
                label="achievable lower bound",
            )
            unit_square(ax, "Recall", "Precision")
            ax.set_title(f"({chr(ord('c') + j)}) PR, π₊ = {_fraction(prevalence)}")
        if legend:
            ax_d.legend(fontsize="x-small", loc="best")
            axes[-1].legend(fontsize="x-small", loc="lower left")
        self.axes_, self.figure_, self.artists_ = axes, axes[0].figure, artists
        return self


class PRSimulationDisplay:
    """Histograms of PR̂(x): one row per sample size, one column per recall level.

    Each panel shows the histogram (density scale), a Gaussian kernel density estimate (black),
    the normal approximation ``N(PR(x), σ²(x)/n)`` where it exists (purple), the population
    value PR(x) (dashed) and, optionally, a rug of the replicates.

    Parameters
    ----------
    simulations : PRSimulation or sequence of PRSimulation
        Results of :func:`prcurve.simulate_pr_estimator` with the same recall levels.
    bins : int
        Histogram bins over [0, 1].
    grid_size : int
        Points of the density curves.

    Attributes
    ----------
    axes_ : ndarray of Axes, shape (rows, m)
    figure_ : Figure

    Notes
    -----
    Hughes-Oliver, Figures 7-11; the statistics are :meth:`PRSimulation.histogram`,
    :meth:`PRSimulation.density` and :meth:`NormalApproximation.density`.

    Examples
    --------
    >>> from prcurve import cases, simulate_pr_estimator
    >>> from prcurve.plot import PRSimulationDisplay
    >>> sims = [simulate_pr_estimator(cases.A(1 / 11), n, [0.3, 0.6], n_replicates=200, rng=0)
    ...         for n in (100, 500)]
    >>> PRSimulationDisplay.from_simulation(sims).axes_.shape
    (2, 2)
    """

    def __init__(
        self,
        simulations: PRSimulation | Sequence[PRSimulation],
        *,
        bins: int = 30,
        grid_size: int = 201,
    ) -> None:
        sims = [simulations] if isinstance(simulations, PRSimulation) else list(simulations)
        if not sims or not all(isinstance(s, PRSimulation) for s in sims):
            raise TypeError(
                "simulations: expected a PRSimulation or a non-empty sequence of them, got "
                f"{type(simulations).__name__}"
            )
        if any(not np.array_equal(s.recall, sims[0].recall) for s in sims):
            raise ValueError("simulations: expected the same recall levels in every simulation")
        self.simulations = sims
        self.grid = np.linspace(0.0, 1.0, grid_size)
        self.histograms = [s.histogram(bins) for s in sims]
        self.kde = [s.density(self.grid) for s in sims]
        self.normal = [None if s.normal is None else s.normal.density(self.grid) for s in sims]

    @classmethod
    def from_simulation(
        cls,
        simulations: PRSimulation | Sequence[PRSimulation],
        *,
        bins: int = 30,
        **kwargs: Any,
    ) -> PRSimulationDisplay:
        """Build the display of computed simulations and plot it."""
        return cls(simulations, bins=bins).plot(**kwargs)

    def plot(
        self, axes: Any = None, *, rug: bool = True, title: str | None = None
    ) -> PRSimulationDisplay:
        """Draw on a (rows, m) array of Axes (a new figure when None) and return ``self``."""
        rows, cols = len(self.simulations), self.simulations[0].recall.shape[0]
        if axes is None:
            _, axes = _new_axes(rows, cols, (1.9 * cols, 1.9 * rows + 0.6))
        axes = np.asarray(axes, dtype=object).reshape(rows, cols)
        for r, sim in enumerate(self.simulations):
            dens, edges = self.histograms[r]
            normal = self.normal[r]
            interior = (
                {} if sim.normal is None else {float(x): k for k, x in enumerate(sim.normal.recall)}
            )
            for c, x in enumerate(sim.recall):
                ax = axes[r, c]
                ax.stairs(dens[c], edges, fill=True, color=color_cycle(4), alpha=0.6,
                          label="replicates (histogram)")  # fmt: skip
                if self.kde[r][c].any():
                    ax.plot(self.grid, self.kde[r][c], color="black", linewidth=1.0,
                            label="kernel density of the replicates")  # fmt: skip
                k = interior.get(float(x))
                if normal is not None and k is not None and normal[k].any():
                    ax.plot(self.grid, normal[k], color=NORMAL_COLOR, linewidth=1.2,
                            label="normal approximation")  # fmt: skip
                ax.axvline(sim.population[c], color=REFERENCE_GREY, linestyle="--", linewidth=0.8,
                           label="population precision")  # fmt: skip
                if rug:
                    ax.plot(
                        sim.estimates[:, c],
                        np.zeros(sim.n_replicates),
                        "|",
                        color="black",
                        markersize=4,
                        alpha=0.3,
                    )
                ax.set_xlim(0, 1)
                ax.set_xticks([0, 0.5, 1], ["0", "0.5", "1"])  # three labels stay readable
                ax.set_yticks([])
                ax.tick_params(labelsize=9)
                if r == 0:
                    ax.set_title(f"recall x = {x:g}", fontsize=10)
                if c == 0:
                    ax.set_ylabel(f"n = {sim.n}", fontsize=10)
                if r == rows - 1:
                    ax.set_xlabel("estimated PR̂(x)", fontsize=9)
        fig = axes[0, 0].figure
        if title:
            fig.suptitle(title, fontsize=11)
        labelled: dict[str, Any] = {}
        for ax in axes.flat:  # one legend for the figure, each kind of line once
            for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
                labelled.setdefault(label, handle)
        if labelled:
            fig.legend(list(labelled.values()), list(labelled), loc="lower center",
                       ncol=len(labelled), fontsize=9, frameon=False)  # fmt: skip
        self.axes_, self.figure_ = axes, fig
        return self
