"""ROC curve Display, with the ROC convex hull."""

from __future__ import annotations

from typing import Any

import numpy as np

from .._core._empirical import ROCCurve, roc_curve
from ._hull_display import HullCurveDisplay
from ._style import REFERENCE_GREY, color_cycle, get_axes, plain_text, unit_square

__all__ = ["ROCCurveDisplay"]


class ROCCurveDisplay(HullCurveDisplay):
    """Draw an ROC curve and its convex hull.

    Parameters
    ----------
    curve : ROCCurve
        The computed curve (:func:`prcurve.roc_curve` or :meth:`PRCurve.to_roc`).
    name : str, optional
        Scorer name for the legend.
    hull : ROCCurve, optional
        Its convex hull (:meth:`ROCCurve.convex_hull`), drawn dashed when given.

    Attributes
    ----------
    ax_, figure_ : matplotlib Axes and Figure
    line_ : Line2D
        The curve, through the origin: ``x = (0, fpr…)``, ``y = (0, tpr…)``.
    artists_ : dict of str to Artist
        ``"curve"``, ``"hull"``, ``"chance"``.

    Notes
    -----
    The hull's vertices are the operating points of the achievable PR curve (Davis & Goadrich
    2006, Theorem 3.3 and section 4).

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve.plot import ROCCurveDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(300) < 0.3
    >>> disp = ROCCurveDisplay.from_predictions(y, rng.normal(size=300) + y, name="m")
    >>> sorted(disp.artists_)
    ['chance', 'curve', 'hull']
    """

    curve: ROCCurve
    hull: ROCCurve | None
    _curve_type = ROCCurve
    _compute = staticmethod(roc_curve)

    def plot(
        self,
        ax: Any = None,
        *,
        chance: bool = True,
        color: str | None = None,
        legend: bool = True,
    ) -> ROCCurveDisplay:
        """Draw on ``ax`` (a new figure when None) and return ``self``."""
        ax = get_axes(ax)
        color = color or color_cycle(0)
        c = self.curve
        label = f"AUC = {c.auc():.3f}"
        label = f"{plain_text(self.name)} ({label})" if self.name else label
        artists: dict[str, Any] = {}
        x = np.concatenate([[0.0], c.fpr])
        y = np.concatenate([[0.0], c.tpr])
        (artists["curve"],) = ax.plot(x, y, color=color, linewidth=1.8, label=label)
        if self.hull is not None:
            h = self.hull
            (artists["hull"],) = ax.plot(
                np.concatenate([[0.0], h.fpr]),
                np.concatenate([[0.0], h.tpr]),
                color=color_cycle(5),
                linestyle="--",
                linewidth=1.2,
                marker="o" if h.fpr.shape[0] <= 60 else None,
                markersize=3,
                label=f"convex hull (AUC = {h.auc():.3f})",
            )
        if chance:
            (artists["chance"],) = ax.plot(
                [0, 1], [0, 1], color=REFERENCE_GREY, linestyle="--", linewidth=0.9,
                label="chance",
            )  # fmt: skip
        unit_square(ax, "False positive rate", "True positive rate (recall)")
        if legend:
            ax.legend(loc="lower right", fontsize="small", framealpha=0.9)
        self.ax_, self.figure_, self.line_, self.artists_ = ax, ax.figure, artists["curve"], artists
        return self
