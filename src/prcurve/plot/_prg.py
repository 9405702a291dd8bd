"""Precision-recall-gain curve Display, with its convex hull and iso-F_β lines."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .._prg._curve import PRGCurve, prg_curve
from ._hull_display import HullCurveDisplay
from ._style import REFERENCE_GREY, check_levels, color_cycle, get_axes, plain_text

__all__ = ["PRGCurveDisplay"]

DEFAULT_ISO_FG = (0.2, 0.4, 0.6, 0.8)


class PRGCurveDisplay(HullCurveDisplay):
    """Draw a precision-recall-gain curve, its convex hull and iso-F_β-gain lines.

    Parameters
    ----------
    curve : PRGCurve
        The computed curve (:func:`prcurve.prg_curve` or ``PRGCurve.from_pr``).
    name : str, optional
        Scorer name for the legend.
    hull : PRGCurve, optional
        Its convex hull (:meth:`PRGCurve.convex_hull`), drawn dashed when given.

    Attributes
    ----------
    ax_, figure_ : matplotlib Axes and Figure
    line_ : Line2D
        The curve over recall gain [0, 1] (:meth:`PRGCurve.path`).
    artists_ : dict of str to Artist
        ``"curve"``, ``"hull"``, ``"best_f"``, ``"iso_f"`` (a list), ``"baseline"``.

    Notes
    -----
    Flach & Kull (2015): straight lines are exact interpolations in PRG space (Theorem 1), and
    F_β-gain is linear there, ``FG_β = (precG + β² recG)/(1 + β²)``, so its level lines are
    straight with slope −β² (Theorem 4).  The best-F_β point (marked) is a hull vertex.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve.plot import PRGCurveDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.2
    >>> disp = PRGCurveDisplay.from_predictions(y, rng.normal(size=500) + 1.5 * y, name="m")
    >>> sorted(disp.artists_)
    ['baseline', 'best_f', 'curve', 'hull', 'iso_f']
    """

    curve: PRGCurve
    hull: PRGCurve | None
    _curve_type = PRGCurve
    _compute = staticmethod(prg_curve)

    def plot(
        self,
        ax: Any = None,
        *,
        iso_f: Sequence[float] | None = DEFAULT_ISO_FG,
        beta: float = 1.0,
        best_f: bool = True,
        color: str | None = None,
        legend: bool = True,
    ) -> PRGCurveDisplay:
        """Draw on ``ax`` (a new figure when None) and return ``self``.

        Parameters
        ----------
        iso_f : sequence of float, optional
            F_β-gain values whose level lines (slope −β²) are drawn; None for none.
        beta : float
            β of the iso lines and of the marked best-F_β point.
        best_f : bool
            Mark the operating point of maximal F_β.
        """
        levels = check_levels(iso_f, "iso_f")
        if not (isinstance(beta, int | float) and np.isfinite(beta) and beta > 0):
            raise ValueError(f"beta: expected a positive number, got {beta!r}")
        ax = get_axes(ax)
        color = color or color_cycle(0)
        c = self.curve
        artists: dict[str, Any] = {}
        label = f"AUPRG = {c.auc():.3f}"
        label = f"{plain_text(self.name)} ({label})" if self.name else label
        x, y = c.path()
        (artists["curve"],) = ax.plot(x, y, color=color, linewidth=1.8, label=label)
        if self.hull is not None:
            hx, hy = self.hull.path()
            (artists["hull"],) = ax.plot(
                hx, hy, color=color_cycle(5), linestyle="--", linewidth=1.2,
                label=f"convex hull (AUPRG = {self.hull.auc():.3f})",
            )  # fmt: skip
        if best_f:
            best = c.best_f_threshold(beta)
            best_label = f"best F{beta:g} = {best.f_beta:.3f} (t = {best.threshold:.4g})"
            (artists["best_f"],) = ax.plot(
                [best.recall_gain], [best.precision_gain], "D", color=color_cycle(3),
                markersize=6, label=best_label,
            )  # fmt: skip
        b2 = beta * beta
        iso = []
        grid = np.linspace(0.0, 1.0, 2)
        for fg in levels:
            (line,) = ax.plot(
                grid, (1.0 + b2) * fg - b2 * grid, color="#BBBBBB", linewidth=0.7, zorder=0,
                label="_iso_f",
            )  # fmt: skip
            iso.append(line)
            top = ((1.0 + b2) * fg - 1.0) / b2  # where the line leaves through precision gain 1
            at = (top, 1.0) if top >= 0 else (0.0, (1.0 + b2) * fg)
            ax.annotate(
                f"FG={fg:g}", at, xytext=(2, -2), textcoords="offset points", fontsize="x-small",
                color="#888888", va="top",
            )  # fmt: skip
        if iso:
            artists["iso_f"] = iso
        artists["baseline"] = ax.axhline(0.0, color=REFERENCE_GREY, linewidth=0.8)
        low = float(min(0.0, max(np.min(y), -1.0)))
        pad = 0.02 * (1.0 - low)
        ax.set_xlim(-0.02, 1.02)
        ax.set_ylim(low - pad, 1.0 + pad)
        ax.set_xlabel("Recall gain")
        ax.set_ylabel("Precision gain")
        ax.grid(True, color="#DDDDDD", linewidth=0.6)
        ax.set_axisbelow(True)
        if legend:
            ax.legend(loc="lower left", fontsize="small", framealpha=0.9)
        self.ax_, self.figure_, self.line_, self.artists_ = ax, ax.figure, artists["curve"], artists
        return self
