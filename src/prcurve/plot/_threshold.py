"""The threshold view drawn: every metric against the threshold, with bands and chosen points.

Draws a computed :class:`~prcurve.ThresholdView` (nothing is recomputed here) and, optionally,
the operating points returned by :func:`prcurve.operating_point`: a vertical line at each
chosen threshold and a marker on every metric where the line crosses it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._core._disk import n_at_least
from .._core._operating import OperatingPoint
from .._decision._threshold_view import METRICS, ThresholdView, threshold_view
from ._estimator import EstimatorMixin, score_name
from ._style import REFERENCE_GREY, color_cycle, plain_text
from ._thin import COLUMNS, thin_axes, thin_indices

__all__ = ["ThresholdDisplay"]

#: Legend names of the metrics (F_β's is made from the view's β by ``_beta_label``).
LABELS = {
    "precision": "precision",
    "recall": "recall (TPR)",
    "f_beta": "F_β",
    "queue_rate": "queue rate (share flagged)",
    "fpr": "false-positive rate",
}
#: Colours (Okabe–Ito positions) and line styles: distinct without colour too.
STYLE = {
    "precision": (0, "-"),
    "recall": (1, "-"),
    "f_beta": (2, "--"),
    "queue_rate": (3, "-."),
    "fpr": (5, ":"),
}
CRITERION_LABELS = {
    "min_precision": "precision ≥ {:g}",
    "min_recall": "recall ≥ {:g}",
    "max_fpr": "FPR ≤ {:g}",
    "top_k": "top {:g}",
}


def _beta_label(beta: float) -> str:
    return "F₁" if beta == 1 else f"F_β (β = {beta:g})"


def _point_label(point: OperatingPoint) -> str:
    rule = CRITERION_LABELS.get(point.criterion, point.criterion + " {:g}").format(point.target)
    if not point.feasible:
        return f"{rule}: not met"
    return f"{rule}: t = {point.threshold:.4g}"


def _check_points(points: Any) -> tuple[OperatingPoint, ...]:
    if points is None:
        return ()
    if isinstance(points, OperatingPoint):
        return (points,)
    out = tuple(points) if isinstance(points, Sequence) else None
    if out is None or not all(isinstance(p, OperatingPoint) for p in out):
        raise TypeError(
            "operating_points: expected an OperatingPoint or a sequence of them "
            f"(from prcurve.operating_point), got {points!r}"
        )
    return out


def _check_metrics(metrics: Any) -> tuple[str, ...]:
    out = tuple(metrics)
    bad = [m for m in out if m not in METRICS]
    if bad or not out:
        options = ", ".join(repr(m) for m in METRICS)
        raise ValueError(f"metrics: expected a non-empty selection of {options}, got {metrics!r}")
    return out


def _drawn_steps(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The points of one metric's step line to hand matplotlib: all of them, or for a long
    view each x-column's first, last, lowest and highest point (:func:`._thin.thin_indices`).

    Drawn as steps, the kept points give each column the same vertical span and the same
    joins to its neighbours as every point would, so the image is the same; and a view of
    10⁸ thresholds (on disk, :mod:`prcurve._core._disk`) is read a block at a time instead of
    copied whole into the line, step-expanded and thinned afterwards.
    """
    if x.shape[0] <= 4 * COLUMNS or not x[0] < x[-1]:
        return x, y
    keep = thin_indices(x, y, float(x[0]), float(x[-1]))
    return x[keep], y[keep]


def _row_at(thresholds: np.ndarray, t: Any) -> int:
    """Row of the decreasing ``thresholds`` whose decision ``score >= thresholds[row]`` is
    the decision ``score >= t`` on these data (-1 when ``t`` is above every score)."""
    return int(n_at_least(thresholds, t)) - 1


class ThresholdDisplay(EstimatorMixin):
    """Precision, recall, F_β, queue rate and FPR against the threshold.

    Parameters
    ----------
    view : ThresholdView
        The computed view (:func:`prcurve.threshold_view`); its bands are drawn when it has
        them.
    name : str, optional
        Scorer name for the title.
    operating_points : OperatingPoint or sequence of them, optional
        Points chosen by :func:`prcurve.operating_point`: each chosen threshold is marked by a
        vertical line and a marker on every metric drawn; an infeasible point is listed in the
        legend as not met.

    Attributes
    ----------
    ax_, figure_ : matplotlib Axes and Figure
    lines_ : dict of str to Line2D
        One line per metric drawn.
    artists_ : dict of str to Artist
        ``"<metric>_band"`` (shaded bands), ``"points"`` (a list of vertical lines),
        ``"markers"`` (a list), ``"legend"``.

    Notes
    -----
    Each metric is a step function of the threshold: the decision ``score >= t`` is the same
    for every t between two consecutive distinct scores, so the lines are drawn as steps
    (value of the next distinct score at or above t); lines of more than a few thousand
    points are thinned for drawing without changing the image (``prcurve.plot._thin``).
    Bands are pointwise (see
    :func:`prcurve.threshold_view`).  The legend sits outside the axes, to the right, so it
    covers no data.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import operating_point
    >>> from prcurve.plot import ThresholdDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(600) < 0.2
    >>> s = rng.normal(size=600) + 1.5 * y
    >>> point = operating_point(y, s, min_precision=0.7)
    >>> disp = ThresholdDisplay.from_predictions(
    ...     y, s, n_resamples=100, rng=0, operating_points=[point])
    >>> sorted(disp.lines_)
    ['f_beta', 'fpr', 'precision', 'queue_rate', 'recall']
    """

    def __init__(
        self,
        view: ThresholdView,
        *,
        name: str | None = None,
        operating_points: Any = None,
    ) -> None:
        if not isinstance(view, ThresholdView):
            raise TypeError(f"view: expected a ThresholdView, got {type(view).__name__}")
        self.view = view
        self.name = name
        self.operating_points = _check_points(operating_points)

    @classmethod
    def from_view(
        cls,
        view: ThresholdView,
        *,
        name: str | None = None,
        operating_points: Any = None,
        ax: Any = None,
        **kwargs: Any,
    ) -> ThresholdDisplay:
        """Display of a computed view, plotted; ``kwargs`` go to :meth:`plot`."""
        return cls(view, name=name, operating_points=operating_points).plot(ax, **kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        sample_weight: Any = None,
        pos_label: Any = None,
        beta: float = 1.0,
        n_resamples: int = 0,
        level: float = 0.95,
        rng: Any = None,
        name: str | None = None,
        operating_points: Any = None,
        ax: Any = None,
        **kwargs: Any,
    ) -> ThresholdDisplay:
        """Compute the view with :func:`prcurve.threshold_view`, then plot.

        ``n_resamples > 0`` adds pointwise bootstrap bands.  A pandas Series of scores names
        the display when ``name`` is not given; ``kwargs`` go to :meth:`plot`.
        """
        view = threshold_view(
            y_true, y_score, sample_weight=sample_weight, pos_label=pos_label, beta=beta,
            n_resamples=n_resamples, level=level, rng=rng,
        )  # fmt: skip
        name = name if name is not None else score_name(y_score)
        return cls(view, name=name, operating_points=operating_points).plot(ax, **kwargs)

    def plot(
        self,
        ax: Any = None,
        *,
        metrics: Sequence[str] = METRICS,
        bands: bool = True,
        legend: bool = True,
    ) -> ThresholdDisplay:
        """Draw on ``ax`` (a new figure when None) and return ``self``.

        Parameters
        ----------
        metrics : sequence of str
            Which of ``"precision"``, ``"recall"``, ``"f_beta"``, ``"queue_rate"``, ``"fpr"``.
        bands : bool
            Shade the view's pointwise bands (when it has them).
        legend : bool
            A legend outside the axes, on the right.
        """
        chosen = _check_metrics(metrics)
        if ax is None:
            import matplotlib.pyplot as plt

            _, ax = plt.subplots(figsize=(7.5, 4.5), layout="constrained")
        view = self.view
        x = np.asarray(view.thresholds, dtype=np.float64)[::-1]  # increasing
        lines: dict[str, Any] = {}
        artists: dict[str, Any] = {}
        level = view.level
        for name in chosen:
            color = color_cycle(STYLE[name][0])
            label = _beta_label(view.beta) if name == "f_beta" else LABELS[name]
            band = view.band(name) if bands else None
            if band is not None and view.band_index is not None:
                bx = x[::-1][view.band_index][::-1]
                # every row has a band: steps, like the lines; a grid of rows: straight joins
                step = "pre" if bx.shape[0] == x.shape[0] else None
                artists[f"{name}_band"] = ax.fill_between(
                    bx, np.asarray(band.low)[::-1], np.asarray(band.high)[::-1], step=step,
                    color=color, alpha=0.16, linewidth=0, label="_band",
                )  # fmt: skip
            xs, ys = _drawn_steps(x, view.metric(name)[::-1])
            (lines[name],) = ax.plot(
                xs, ys, drawstyle="steps-pre", color=color, linestyle=STYLE[name][1],
                linewidth=1.6, label=label,
            )  # fmt: skip
        if bands and view.band_index is not None and level is not None:
            from matplotlib.patches import Patch

            artists["band_key"] = Patch(
                facecolor="#888888", alpha=0.3, label=f"{level:.0%} pointwise bootstrap band"
            )
        self._mark_points(ax, chosen, lines, artists)
        if x[0] < x[-1]:
            ax.set_xlim(x[0], x[-1])
        thin_axes(ax)  # a long view draws as fast as a short one, the same image
        ax.set_ylim(-0.02, 1.02)
        ax.set_xlabel("Threshold t (flag when score ≥ t)")
        ax.set_ylabel("Rate")
        ax.grid(True, color="#DDDDDD", linewidth=0.6)
        ax.set_axisbelow(True)
        if self.name:
            ax.set_title(plain_text(self.name))
        if legend:
            handles, _ = ax.get_legend_handles_labels()
            if "band_key" in artists:
                handles.append(artists["band_key"])
            artists["legend"] = ax.legend(
                handles=handles, loc="upper left", bbox_to_anchor=(1.02, 1.0),
                borderaxespad=0.0, fontsize="small", frameon=False,
            )  # fmt: skip
        self.ax_, self.figure_, self.lines_, self.artists_ = ax, ax.figure, lines, artists
        return self

    def _mark_points(
        self, ax: Any, chosen: tuple[str, ...], lines: dict[str, Any], artists: dict[str, Any]
    ) -> None:
        """A vertical line per chosen threshold, a marker on each metric where it crosses."""
        view = self.view
        verticals, markers = [], []
        for i, point in enumerate(self.operating_points):
            label = _point_label(point)
            if not point.feasible:  # nothing to mark: say so in the legend
                (line,) = ax.plot([], [], linestyle="none", marker="x", color=REFERENCE_GREY,
                                  label=label)  # fmt: skip
                verticals.append(line)
                continue
            t = float(point.threshold)
            ls = ("-", "--", "-.", ":")[i % 4]
            verticals.append(
                ax.axvline(t, color="#333333", linestyle=ls, linewidth=0.9, label=label)
            )
            row = _row_at(view.thresholds, point.threshold)
            if row < 0:
                continue
            for name in chosen:
                (m,) = ax.plot(
                    [t], [view.metric(name)[row]], "o", markersize=4.5,
                    color=lines[name].get_color(), markeredgecolor="#333333",
                    markeredgewidth=0.6, label="_marker", zorder=3,
                )  # fmt: skip
                markers.append(m)
        if verticals:
            artists["points"] = verticals
            artists["markers"] = markers
