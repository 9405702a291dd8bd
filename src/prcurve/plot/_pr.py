"""Precision-recall curve Displays: one scorer in detail, or several scorers together."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import fields, is_dataclass
from typing import Any

import numpy as np

from .._core._empirical import PRCurve, pr_curve
from .._core._results import ConfidenceInterval
from .._core._validation import check_choice
from ._estimator import EstimatorMixin, score_name
from ._style import (
    REFERENCE_GREY,
    check_levels,
    color_cycle,
    get_axes,
    iso_f_precision,
    plain_text,
    unit_square,
)

__all__ = ["PRCurveDisplay", "PRCurvesDisplay", "band_arrays"]

STYLES = ("interpolated", "step", "both")
#: Short names of the AUC-PR estimators, for legends.
AUC_LABELS = {
    "average_precision": "AP",
    "davis_goadrich": "AUC-PR (DG)",
    "trapezoid": "AUC-PR (linear)",
    "lower_trapezoid": "AUC-PR (lower trap.)",
    "interpolated_median": "AUC-PR (interp. median)",
}
DEFAULT_ISO_F = (0.2, 0.4, 0.6, 0.8)


def _band_interval(band: Any) -> tuple[Any, Any]:
    """The recall grid and the interval (``low``/``high`` arrays) of a band result."""
    recall = getattr(band, "recall", None)
    if recall is None:
        raise TypeError(f"band: expected a band result with a 'recall' grid, got {band!r}")
    if hasattr(band, "low") and hasattr(band, "high"):
        return recall, band
    if is_dataclass(band):  # e.g. PRConfidenceBand.band
        for f in fields(band):
            value = getattr(band, f.name)
            if isinstance(value, ConfidenceInterval) and np.ndim(value.low) == 1:
                return recall, value
    raise TypeError(f"band: expected a band result with low/high arrays, got {type(band).__name__}")


def band_arrays(band: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(recall, low, high)`` arrays of a confidence-band result.

    Accepts any result with a ``recall`` grid and either ``low``/``high`` arrays or a
    :class:`~prcurve.ConfidenceInterval` attribute with array ends, such as the
    :class:`~prcurve.PRConfidenceBand` of :func:`prcurve.pr_confidence_band`.
    """
    recall, ci = _band_interval(band)
    r, lo, hi = (np.asarray(v, dtype=np.float64) for v in (recall, ci.low, ci.high))
    if not (r.shape == lo.shape == hi.shape and r.ndim == 1):
        raise ValueError(
            f"band: expected recall, low and high of one 1-D shape, got {r.shape}, {lo.shape}, "
            f"{hi.shape}"
        )
    return r, lo, hi


def step_path(curve: PRCurve) -> tuple[np.ndarray, np.ndarray]:
    """Vertices of the average-precision step function (draw with ``drawstyle='steps-pre'``).

    ``x = (0, R_1, …, R_k)``, ``y = (P_1, P_1, …, P_k)``: precision ``P_k`` on ``(R_{k−1}, R_k]``,
    the rectangle sum that is average precision.
    """
    x = np.concatenate([[0.0], curve.recall])
    y = np.concatenate([curve.precision[:1], curve.precision])
    return x, y


class PRCurveDisplay(EstimatorMixin):
    """Draw one precision-recall curve with its reference lines and (optional) band.

    Parameters
    ----------
    curve : PRCurve
        The computed curve (:func:`prcurve.pr_curve`).
    name : str, optional
        Scorer name for the legend.
    achievable : PRCurve, optional
        The achievable curve (:meth:`PRCurve.achievable`), drawn dashed when given.
    band : band result, optional
        A confidence band (:func:`prcurve.pr_confidence_band`): a ``recall`` grid with
        ``ConfidenceInterval`` array ends, drawn as a shaded region.

    Attributes
    ----------
    ax_, figure_ : matplotlib Axes and Figure
    line_ : Line2D
        The main curve.
    artists_ : dict of str to Artist
        Every element drawn, by role: ``"curve"``, ``"step"``, ``"linear"``, ``"points"``,
        ``"achievable"``, ``"band"``, ``"chance"``, ``"lower_bound"``, ``"iso_f"`` (a list).

    Notes
    -----
    The interpolated curve is the Davis & Goadrich (2006, section 4) path between operating
    points (:meth:`PRCurve.interpolate`); straight lines between PR points (``linear=True``) are
    drawn only for contrast: they are not achievable, and lie above the interpolated curve
    where precision falls between two points (below it where precision rises).  The chance
    level is the prevalence π₊ and the lowest PR curve any scorer can achieve is
    ``π₊x / (π₊x + π₋)`` (Hughes-Oliver, property P5).

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve import pr_curve
    >>> from prcurve.plot import PRCurveDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(500) < 0.2
    >>> s = rng.normal(size=500) + 1.5 * y
    >>> curve = pr_curve(y, s)
    >>> disp = PRCurveDisplay(curve, name="model", achievable=curve.achievable()).plot()
    >>> sorted(disp.artists_)[:3]
    ['achievable', 'chance', 'curve']
    """

    def __init__(
        self,
        curve: PRCurve,
        *,
        name: str | None = None,
        achievable: PRCurve | None = None,
        band: Any = None,
    ) -> None:
        if not isinstance(curve, PRCurve):
            raise TypeError(f"curve: expected a PRCurve, got {type(curve).__name__}")
        if achievable is not None and not isinstance(achievable, PRCurve):
            raise TypeError(f"achievable: expected a PRCurve, got {type(achievable).__name__}")
        if band is not None:
            band_arrays(band)  # fail early on something that is not a band
        self.curve = curve
        self.name = name
        self.achievable = achievable
        self.band = band

    @classmethod
    def from_curve(
        cls,
        curve: PRCurve,
        *,
        name: str | None = None,
        achievable: PRCurve | bool | None = None,
        band: Any = None,
        ax: Any = None,
        **kwargs: Any,
    ) -> PRCurveDisplay:
        """Display of a computed curve, plotted; ``kwargs`` go to :meth:`plot`.

        ``achievable=True`` draws the curve's own :meth:`PRCurve.achievable`.
        """
        hull = curve.achievable() if achievable is True else achievable or None
        return cls(curve, name=name, achievable=hull, band=band).plot(ax, **kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        y_score: Any,
        *,
        sample_weight: Any = None,
        pos_label: Any = None,
        name: str | None = None,
        achievable: bool = True,
        **kwargs: Any,
    ) -> PRCurveDisplay:
        """Compute the curve (and its achievable curve) with :func:`prcurve.pr_curve`, then plot.

        A pandas Series of scores names the curve when ``name`` is not given.
        """
        curve = pr_curve(y_true, y_score, sample_weight=sample_weight, pos_label=pos_label)
        hull = curve.achievable() if achievable else None
        name = name if name is not None else score_name(y_score)
        return cls(curve, name=name, achievable=hull).plot(**kwargs)

    def plot(
        self,
        ax: Any = None,
        *,
        style: str = "interpolated",
        linear: bool = False,
        points: bool | None = None,
        chance: bool = True,
        lower_bound: bool = True,
        iso_f: Sequence[float] | None = DEFAULT_ISO_F,
        auc_method: str | None = None,
        color: str | None = None,
        legend: bool = True,
    ) -> PRCurveDisplay:
        """Draw on ``ax`` (a new figure when None) and return ``self``.

        Parameters
        ----------
        style : {"interpolated", "step", "both"}
            Davis–Goadrich interpolated path, the average-precision step function, or both.
        linear : bool
            Also draw straight lines between operating points (for contrast; not achievable).
        points : bool, optional
            Mark the operating points; by default only when there are at most 60.
        chance, lower_bound : bool
            The prevalence line and the achievable lower bound ``π₊x/(π₊x+π₋)``.
        iso_f : sequence of float, optional
            Values of F₁ whose iso-curves are drawn; None for none.
        auc_method : str, optional
            AUC-PR estimator quoted in the legend (default: ``"davis_goadrich"`` for the
            interpolated style, ``"average_precision"`` for the step style).
        """
        check_choice(style, "style", STYLES)
        levels = check_levels(iso_f, "iso_f")
        if auc_method is None:
            auc_method = "average_precision" if style == "step" else "davis_goadrich"
        check_choice(auc_method, "auc_method", tuple(AUC_LABELS))
        ax = get_axes(ax)
        curve = self.curve
        color = color or color_cycle(0)
        artists: dict[str, Any] = {}
        label = f"{AUC_LABELS[auc_method]} = {curve.auc(auc_method):.3f}"
        label = f"{plain_text(self.name)} ({label})" if self.name else label

        if self.band is not None:
            r, lo, hi = band_arrays(self.band)
            level = getattr(_band_interval(self.band)[1], "level", None)
            band_label = f"{level:.0%} confidence band" if level else "confidence band"
            artists["band"] = ax.fill_between(
                r, lo, hi, color=color, alpha=0.18, linewidth=0, label=band_label
            )
        if style in ("interpolated", "both"):
            r, p = curve.interpolate()
            (artists["curve"],) = ax.plot(r, p, color=color, linewidth=1.8, label=label)
        if style in ("step", "both"):
            x, y = step_path(curve)
            step_label = label if style == "step" else "average-precision steps"
            (artists["step"],) = ax.plot(
                x,
                y,
                drawstyle="steps-pre",
                color=color,
                linewidth=1.0 if style == "both" else 1.8,
                alpha=0.7 if style == "both" else 1.0,
                linestyle=":" if style == "both" else "-",
                label=step_label,
            )
        main = artists["curve"] if "curve" in artists else artists["step"]
        if linear:
            (artists["linear"],) = ax.plot(
                curve.recall,
                curve.precision,
                color=color,
                linestyle=(0, (1, 2)),
                linewidth=1.0,
                label="linear interpolation (not achievable)",
            )
        if points is None:
            points = curve.recall.shape[0] <= 60
        if points:
            (artists["points"],) = ax.plot(
                curve.recall, curve.precision, "o", color=color, markersize=3.5, label="_points"
            )
        if self.achievable is not None:
            r, p = self.achievable.interpolate()
            (artists["achievable"],) = ax.plot(
                r, p, color=color_cycle(5), linestyle="--", linewidth=1.2,
                label=f"achievable (DG area {self.achievable.auc('davis_goadrich'):.3f})",
            )  # fmt: skip
        _reference_lines(ax, curve.prevalence, chance, lower_bound, levels, artists)
        unit_square(ax, "Recall", "Precision")
        if legend:
            ax.legend(loc="lower left", fontsize="small", framealpha=0.9)
        self.ax_, self.figure_, self.line_, self.artists_ = ax, ax.figure, main, artists
        return self


def _reference_lines(
    ax: Any,
    prevalence: float,
    chance: bool,
    lower_bound: bool,
    levels: tuple[float, ...],
    artists: dict[str, Any],
) -> None:
    if chance:
        artists["chance"] = ax.axhline(
            prevalence, color=REFERENCE_GREY, linestyle="--", linewidth=0.9,
            label=f"chance (π₊ = {prevalence:.3g})",
        )  # fmt: skip
    if lower_bound:
        x = np.linspace(0.0, 1.0, 201)
        y = prevalence * x / (prevalence * x + (1.0 - prevalence))
        (artists["lower_bound"],) = ax.plot(
            x, y, color=REFERENCE_GREY, linestyle=":", linewidth=1.0,
            label="lowest achievable π₊x/(π₊x+π₋)",
        )  # fmt: skip
    iso = []
    for f in levels:
        top = f / (2.0 - f)  # where the curve reaches precision 1
        r = np.linspace(top, 1.0, 200)
        p = iso_f_precision(f, r)
        (line,) = ax.plot(r, p, color="#BBBBBB", linewidth=0.7, zorder=0, label="_iso_f")
        ax.annotate(
            f"F₁={f:g}", (top, 1.0), xytext=(3, -3), textcoords="offset points",
            fontsize="x-small", color="#888888", va="top", ha="left",
        )  # fmt: skip
        iso.append(line)
    if iso:
        artists["iso_f"] = iso


class PRCurvesDisplay:
    """Several scorers' PR curves on one axes, the legend giving each one's AUC-PR.

    Parameters
    ----------
    curves : mapping of str to PRCurve
        Scorer name → curve, all on the same labels.

    Attributes
    ----------
    ax_, figure_ : matplotlib Axes and Figure
    lines_ : dict of str to Line2D
        One line per scorer.

    Examples
    --------
    >>> import numpy as np
    >>> from prcurve.plot import PRCurvesDisplay
    >>> rng = np.random.default_rng(0)
    >>> y = rng.random(400) < 0.2
    >>> scores = {"good": rng.normal(size=400) + 2 * y, "weak": rng.normal(size=400) + 0.5 * y}
    >>> disp = PRCurvesDisplay.from_predictions(y, scores)
    >>> list(disp.lines_)
    ['good', 'weak']
    """

    def __init__(self, curves: Mapping[str, PRCurve]) -> None:
        if not isinstance(curves, Mapping) or not curves:
            raise TypeError(
                f"curves: expected a non-empty mapping of names to PRCurve, got {curves!r}"
            )
        for key, c in curves.items():
            if not isinstance(c, PRCurve):
                raise TypeError(f"curves[{key!r}]: expected a PRCurve, got {type(c).__name__}")
        self.curves = dict(curves)

    @classmethod
    def from_curves(cls, curves: Mapping[str, PRCurve], **kwargs: Any) -> PRCurvesDisplay:
        """Display of computed curves; keyword arguments go to :meth:`plot`."""
        return cls(curves).plot(**kwargs)

    @classmethod
    def from_predictions(
        cls,
        y_true: Any,
        scores: Mapping[str, Any],
        *,
        sample_weight: Any = None,
        pos_label: Any = None,
        **kwargs: Any,
    ) -> PRCurvesDisplay:
        """Compute each scorer's curve with :func:`prcurve.pr_curve`, then plot."""
        curves = {
            name: pr_curve(y_true, s, sample_weight=sample_weight, pos_label=pos_label)
            for name, s in scores.items()
        }
        return cls(curves).plot(**kwargs)

    def plot(
        self,
        ax: Any = None,
        *,
        style: str = "interpolated",
        auc_method: str = "average_precision",
        chance: bool = True,
        lower_bound: bool = False,
        iso_f: Sequence[float] | None = DEFAULT_ISO_F,
        legend: bool = True,
    ) -> PRCurvesDisplay:
        """Draw every curve on ``ax`` (a new figure when None) and return ``self``.

        ``style`` is ``"interpolated"`` (Davis–Goadrich) or ``"step"``; ``auc_method`` names the
        AUC-PR estimator quoted in the legend.
        """
        check_choice(style, "style", STYLES[:2])
        check_choice(auc_method, "auc_method", tuple(AUC_LABELS))
        levels = check_levels(iso_f, "iso_f")
        ax = get_axes(ax)
        lines: dict[str, Any] = {}
        for i, (name, curve) in enumerate(self.curves.items()):
            label = f"{plain_text(name)} ({AUC_LABELS[auc_method]} = {curve.auc(auc_method):.3f})"
            if style == "interpolated":
                r, p = curve.interpolate()
                (lines[name],) = ax.plot(r, p, color=color_cycle(i), linewidth=1.8, label=label)
            else:
                x, y = step_path(curve)
                (lines[name],) = ax.plot(
                    x, y, drawstyle="steps-pre", color=color_cycle(i), linewidth=1.8, label=label
                )
        first = next(iter(self.curves.values()))
        artists: dict[str, Any] = {}
        _reference_lines(ax, first.prevalence, chance, lower_bound, levels, artists)
        unit_square(ax, "Recall", "Precision")
        if legend:
            ax.legend(loc="lower left", fontsize="small", framealpha=0.9)
        self.ax_, self.figure_, self.lines_, self.artists_ = ax, ax.figure, lines, artists
        return self
