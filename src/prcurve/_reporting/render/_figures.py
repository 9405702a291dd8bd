"""The report's figures: the overview and one three-panel figure per scorer.

Drawn with matplotlib's object API (no pyplot), from the analysis's results: curves reach the
Display objects thinned where that changes nothing visible, and legends quote the areas the
analysis computed, so nothing is computed twice.  Legends go below the panels, where they cannot
cover a curve.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from threading import Event
from typing import Any

from ..._core._disk import release_all, release_rows, take
from ..._core._empirical import PRCurve, ROCCurve
from ..._prg._curve import PRGCurve
from .._before_fork import register
from ..analysis._analysis import Analysis
from ._layout import fixed_layout
from ._png import figure_png

__all__ = [
    "Figure",
    "FiguresAhead",
    "FiguresStopped",
    "draw_figures",
    "finish_panels",
    "render_figures",
]


@dataclass(frozen=True)
class Figure:
    """One embedded figure."""

    key: str
    title: str
    caption: str
    png: bytes


@dataclass(frozen=True)
class _KnownAreas(PRCurve):
    """A PR curve that answers :meth:`auc` from the analysis instead of recomputing it.

    The figures' legends quote AUC-PR values the analysis has already computed; on 10⁷ rows
    recomputing the Davis–Goadrich area for each legend took seconds.
    """

    known: dict[str, float] = field(default_factory=dict, compare=False, repr=False)
    drawn: tuple[Any, Any] | None = field(default=None, compare=False, repr=False)

    def interpolate(self, recall: Any = None, *, num: int = 200) -> tuple[Any, Any]:
        """As :meth:`PRCurve.interpolate`; the default path thinned for the report's panels."""
        if recall is None and num == 200 and self.drawn is not None:
            return self.drawn
        return super().interpolate(recall, num=num)

    def auc(
        self,
        method: str = "average_precision",
        *,
        recall_range: tuple[float, float] | None = None,
        normalize: bool = False,
    ) -> float:
        value = self.known.get(method) if recall_range is None else None
        if value is not None:
            return float(value)
        return super().auc(method, recall_range=recall_range, normalize=normalize)


def _known_areas(curve: PRCurve, areas: dict[str, float], *, thin: bool = False) -> PRCurve:
    """``curve`` answering :meth:`auc` from ``areas``; with ``thin``, drawn thinned.

    With ``thin`` its :meth:`interpolate` path is :func:`prcurve.plot._thin.thin_pr_path` over
    the report's recall axis (the unit square's, which the PR panels never zoom): the image of
    the full Davis–Goadrich path, without building it.
    """
    drawn = None
    if thin:
        from ...plot._thin import thin_pr_path

        drawn = thin_pr_path(curve, *_UNIT_LIM)
    return _KnownAreas(
        **{f.name: getattr(curve, f.name) for f in fields(PRCurve)}, known=areas, drawn=drawn
    )


#: The x and y range of a unit-square panel (:func:`prcurve.plot._style.unit_square`), its ticks.
_UNIT_LIM = (-0.02, 1.02)
_UNIT_TICKS = (0.0, 0.2, 0.4, 0.6, 0.8, 1.0)


@dataclass(frozen=True)
class _DrawnPRG(PRGCurve):
    """A PRG curve whose default :meth:`path` is thinned for its panel, with the full curve's
    area and best-F₁ point (computed once, before thinning)."""

    drawn: tuple[Any, Any] = field(default=(None, None), compare=False, repr=False)
    area: float = field(default=float("nan"), compare=False, repr=False)
    best: Any = field(default=None, compare=False, repr=False)

    def path(self, *, from_zero: bool = True) -> tuple[Any, Any]:
        return self.drawn if from_zero else super().path(from_zero=from_zero)

    def auc(self) -> float:
        return self.area

    def best_f_threshold(self, beta: float = 1) -> Any:
        return self.best if beta == 1 else super().best_f_threshold(beta)


def _thin_prg(prg: PRGCurve, best: Any, xlim: tuple[float, float], area: float) -> PRGCurve:
    """``prg`` for a panel spanning ``xlim``: its path thinned per pixel column
    (:func:`prcurve.plot._thin.thin_indices`; straight lines are exact in PRG space), with the
    full curve's AUPRG ``area`` and best-F₁ point ``best`` (both from the analysis)."""
    import numpy as np

    from ...plot._thin import COLUMNS, thin_indices

    j, y0 = prg._start()  # path() is (0, y0) and then these points (views, not copies)
    x, y = prg.recall_gain[j:], prg.precision_gain[j:]
    if x.shape[0] <= 4 * COLUMNS:
        return prg
    keep = thin_indices(x, y, *xlim)
    x, y = x[keep], y[keep]
    if x[0] > 0:  # thinning the joined path would keep no point this one lacks
        x, y = np.r_[0.0, x], np.r_[y0, y]
    arrays = {f.name: getattr(prg, f.name) for f in fields(PRGCurve)}
    release_all()  # a curve on disk: the pages the scattered reads mapped go back
    return _DrawnPRG(**arrays, drawn=(x, y), area=area, best=best)


def _thin_roc(roc: ROCCurve, area: float) -> ROCCurve:
    """The operating points of a ROC curve that a figure can show, with the full curve's AUC.

    A ROC curve is drawn as straight segments, so keeping each pixel column's first, last,
    lowest and highest point (:func:`prcurve.plot._thin.thin_indices`) draws the same image;
    handing the display the thinned curve spares matplotlib millions of points.  Its
    ``full_auc`` keeps ``area``, the whole curve's (from the analysis), for the legend.
    """
    from ...plot._thin import thin_indices

    keep = thin_indices(roc.fpr, roc.tpr, 0.0, 1.0)
    arrays = {f.name: getattr(roc, f.name) for f in fields(ROCCurve)}
    if keep.shape[0] < roc.fpr.shape[0]:
        # gathered a chunk at a time from a curve on disk (its pages handed back as it goes)
        arrays.update({k: take(arrays[k], keep) for k in ("thresholds", "tp", "fp", "fpr", "tpr")})
    arrays["full_auc"] = area
    release_all()  # a curve on disk: the pages the scattered reads mapped go back
    return ROCCurve(**arrays)


class FiguresStopped(Exception):
    """Drawing was stopped (:class:`FiguresAhead` left on an error or Ctrl-C)."""


def render_figures(analysis: Analysis, *, stop: Event | None = None) -> list[Figure]:
    """The overview and one three-panel figure per scorer, as PNG (see :func:`draw_figures`).

    ``stop`` (set from another thread) ends the drawing between two figures, and between
    drawing a figure and encoding it, with :class:`FiguresStopped`.
    """
    out = []
    for key, title, caption, fig in _drawn(analysis):  # drawn one at a time
        if stop is not None and stop.is_set():
            raise FiguresStopped
        out.append(Figure(key, title, caption, figure_png(fig)))
        release_all()  # a curve on disk: the pages drawing it mapped go back
        fig.clear()  # its lines' data freed now, not when the garbage collector finds the cycles
    return out


class FiguresAhead:
    """The page's figures drawn in a background thread while the report's steps still run.

    Use it as a context manager around computing and writing the report: :meth:`start` (given
    as ``figures_ready`` to ``analyse``) starts :func:`render_figures` in one thread on what
    the figures draw; :meth:`figures` waits for them (None if never started: draw them then).
    Leaving the block stops the drawing (between two steps of it: on an error or Ctrl-C the
    report ends within about one figure's drawing) and joins the thread, so no thread outlives
    the report.
    """

    def __init__(self) -> None:
        self._pool: Any = None
        self._future: Any = None
        self._stop = Event()

    def __enter__(self) -> FiguresAhead:
        from concurrent.futures import ThreadPoolExecutor

        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="prcurve-figures")
        return self

    def load_modules(self) -> None:
        """Start loading matplotlib and Pillow (about 0.3 s of imports) in the drawing thread,
        so that drawing starts at once when :meth:`start` comes.  Called once the worker
        processes are forked: loaded before, matplotlib's pages would be inherited by the
        workers and copied as the main process's heap changes (measured: 30-40 MB more
        at the peak at 10⁶ rows)."""
        if self._pool is None:
            raise ValueError("figures: FiguresAhead is used as a context manager; expected with")
        register(self._pool.submit(_load_drawing_modules))  # a later fork waits for it

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def start(self, analysis: Analysis) -> None:
        """Start drawing the figures of ``analysis`` (each scorer's curves, areas and band)."""
        if self._future is not None:
            raise ValueError("analysis: the figures are being drawn already; expected one start")
        if self._pool is None:
            raise ValueError("figures: FiguresAhead is used as a context manager; expected with")
        self._future = self._pool.submit(render_figures, analysis, stop=self._stop)

    def figures(self) -> list[Figure] | None:
        """The figures (raising the drawing's error), or None if :meth:`start` was not called."""
        return None if self._future is None else self._future.result()

    def close(self) -> None:
        """Stop the drawing if still running and join the thread."""
        self._stop.set()  # figures() has returned, or the report is abandoned
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)


def _load_drawing_modules() -> None:
    """Import what drawing and encoding the figures need (done once per process)."""
    import matplotlib.figure  # noqa: F401
    import PIL.Image  # noqa: F401

    from ...plot import PRCurveDisplay, PRCurvesDisplay, PRGCurveDisplay, ROCCurveDisplay

    del PRCurveDisplay, PRCurvesDisplay, PRGCurveDisplay, ROCCurveDisplay  # loaded (PEP 562)


def _legend_below(ax: Any) -> None:
    """Move the axes' legend under the panel, where it cannot cover a curve."""
    handles, labels = ax.get_legend_handles_labels()
    old = ax.get_legend()
    if old is not None:
        old.remove()
    if handles:
        ax.legend(
            handles, labels, loc="upper center", bbox_to_anchor=(0.5, -0.13), fontsize="small",
            frameon=False,
        )  # fmt: skip


def finish_panels(fig: Any, axes: Any) -> None:
    """Thin long lines, put legends below the panels (where they cannot cover a curve), lay the
    figure out."""
    from ...plot._thin import thin_axes

    for ax in axes:
        thin_axes(ax)
        _legend_below(ax)
        if ax.get_xlim() == _UNIT_LIM and ax.get_ylim() == _UNIT_LIM:
            # the ticks the automatic locator finds on a unit square, without the two outside
            # the view on each axis that it would also make (tick objects are slow to create)
            ax.set_xticks(_UNIT_TICKS)
            ax.set_yticks(_UNIT_TICKS)
        # at the top of the panel, where matplotlib would put it after measuring every tick
        # label for one on top (there are none): placed, it is not measured at each draw
        ax.set_title(ax.get_title(), y=1.0)
    fixed_layout(fig, axes)


def _zoom_prg(ax: Any, prg: Any, best: Any = None) -> bool:
    """Zoom a PRG panel to its operating points when they crowd the top or right edge.

    At low prevalence every recall or precision well above the prevalence has a gain near 1,
    so the whole curve lies in a thin strip along the edges of the unit square.  Each axis whose
    operating points (those inside the unit square, 1 % quantile) start above 0.5 is zoomed to
    them (and to the best-F₁ point ``best``, by default computed); returns whether any axis was.
    """
    return _set_zoom(ax, *_prg_zoom(prg, best if best is not None else prg.best_f_threshold()))


def _set_zoom(ax: Any, xlim: Any, ylim: Any) -> bool:
    """Set the limits of :func:`_prg_zoom` that are not None; whether any was."""
    if xlim is not None:
        ax.set_xlim(*xlim)
    if ylim is not None:
        ax.set_ylim(*ylim)
    return xlim is not None or ylim is not None


def _prg_zoom(prg: Any, best: Any) -> tuple[Any, Any]:
    """The x and y limits of :func:`_zoom_prg` (None for an axis not zoomed)."""
    # the points with TP = 0 (left out of path(from_zero=False)) have gains -inf: never inside
    quantiles = _inside_quantiles(prg.recall_gain, prg.precision_gain, 0.01)
    if quantiles is None:
        return None, None
    out = []
    for q, mark in zip(quantiles, (best.recall_gain, best.precision_gain), strict=True):
        lo = min(q, float(mark))  # the best-F₁ marker stays in view
        out.append((lo - 0.04 * (1.0 - lo), 1.0 + 0.04 * (1.0 - lo)) if lo > 0.5 else None)
    return out[0], out[1]


def _inside_quantiles(
    x: Any, y: Any, q: float, *, bins: int = 1 << 14, block: int = 1 << 16
) -> tuple[float, float] | None:
    """The ``q``-quantiles (linear interpolation) of ``x`` and of ``y`` over the points inside
    the unit square (None when fewer than two), reading ``block`` points at a time.

    ``np.quantile(x[inside], q)`` and the same of ``y`` without copying the points: one pass
    counts them in ``bins`` equal bins, a second collects the bins that hold the two order
    statistics needed.
    """
    import numpy as np

    def inside(b: int) -> tuple[Any, ...]:
        xb, yb = x[b : b + block], y[b : b + block]
        keep = (xb >= 0) & (xb <= 1) & (yb >= 0) & (yb <= 1)
        xb, yb = xb[keep], yb[keep]
        release_rows(x, slice(b, b + block))  # a curve on disk: the block's pages go back
        release_rows(y, slice(b, b + block))
        return tuple((v, np.minimum((v * bins).astype(np.int64), bins - 1)) for v in (xb, yb))

    starts = range(0, x.shape[0], block)
    counts = np.zeros((2, bins), dtype=np.int64)
    for b in starts:
        for i, (_, where) in enumerate(inside(b)):
            counts[i] += np.bincount(where, minlength=bins)
    m = int(counts[0].sum())
    if m < 2:
        return None
    pos = q * (m - 1)
    k = int(np.floor(pos))
    ranks = (k, min(k + 1, m - 1))
    cum = np.cumsum(counts, axis=1)
    spans = [[int(np.searchsorted(c, r, side="right")) for r in ranks] for c in cum]
    picked: list[list[Any]] = [[], []]
    for b in starts:
        for i, (v, where) in enumerate(inside(b)):
            first, last = spans[i]
            picked[i].append(v[(where >= first) & (where <= last)])
    out = []
    for i in range(2):
        values = np.sort(np.concatenate(picked[i]))
        first = spans[i][0]
        before = int(cum[i][first - 1]) if first > 0 else 0
        lo, hi = (float(values[r - before]) for r in ranks)
        out.append(lo + (pos - k) * (hi - lo))
    return out[0], out[1]


def draw_figures(analysis: Analysis) -> list[tuple[str, str, str, Any]]:
    """Draw the figures: ``(key, title, caption, matplotlib Figure)`` each (no pyplot)."""
    return list(_drawn(analysis))


def _drawn(analysis: Analysis) -> Iterator[tuple[str, str, str, Any]]:
    """The figures of :func:`draw_figures`, drawn one by one as they are asked for."""
    from matplotlib.figure import Figure as MplFigure

    from ...plot import PRCurveDisplay, PRCurvesDisplay, PRGCurveDisplay, ROCCurveDisplay
    from ...plot._style import color_cycle

    rocs = {name: _thin_roc(sc.roc, sc.roc_auc) for name, sc in analysis.scorers.items()}
    prs = {name: _known_areas(sc.pr, sc.auc_pr, thin=True) for name, sc in analysis.scorers.items()}
    fig = MplFigure(figsize=(11, 6.6))
    ax_pr, ax_roc = fig.subplots(1, 2)
    # legend=False: _legend_below makes each panel's one legend
    PRCurvesDisplay(prs).plot(ax_pr, auc_method="average_precision", lower_bound=True, legend=False)
    for i, name in enumerate(analysis.scorers):
        ROCCurveDisplay(rocs[name], name=name).plot(
            ax_roc, color=color_cycle(i), chance=i == len(analysis.scorers) - 1, legend=False
        )  # the chance line drawn last: after every scorer in the legend
    ax_pr.set_title("Precision–recall (Davis–Goadrich interpolation)")
    ax_roc.set_title("ROC")
    finish_panels(fig, (ax_pr, ax_roc))
    yield (
        "overview",
        "All scorers",
        "Left: each scorer's PR curve, interpolated between operating points the "
        "Davis–Goadrich way; the dashed line is chance (the prevalence), the dotted curve the "
        "lowest achievable PR curve, grey curves iso-F₁. Right: the ROC curves.",
        fig,
    )
    for i, (name, sc) in enumerate(analysis.scorers.items()):
        fig = MplFigure(figsize=(15, 6.6))
        ax_pr, ax_roc, ax_prg = fig.subplots(1, 3)
        color = color_cycle(i)
        PRCurveDisplay(prs[name], name=name, achievable=sc.achievable, band=sc.band).plot(
            ax_pr, color=color, legend=False
        )
        ROCCurveDisplay(rocs[name], name=name, hull=sc.roc_hull).plot(
            ax_roc, color=color, legend=False
        )
        # the best-F₁ point is a hull vertex: read off the analysis's hull (whose own hull it
        # is), once for the marker and the zoom
        best = sc.prg_hull.best_f_threshold()
        full = sc.prg  # derived from the PR curve now (the analysis keeps no PRG curve)
        xlim, ylim = _prg_zoom(full, best)
        prg = _thin_prg(full, best, xlim or _UNIT_LIM, sc.auprg)  # thinned for the panel
        del full
        PRGCurveDisplay(prg, name=name, hull=sc.prg_hull).plot(ax_prg, color=color, legend=False)
        ax_pr.set_title("Precision–recall")
        ax_roc.set_title("ROC with convex hull")
        zoomed = _set_zoom(ax_prg, xlim, ylim)
        ax_prg.set_title("Precision–recall–gain" + (" (zoomed)" if zoomed else ""))
        finish_panels(fig, (ax_pr, ax_roc, ax_prg))
        yield (
            f"scorer-{i}",
            name,
            "Left: PR curve with the achievable curve (the ROC convex hull mapped to PR space, "
            "dashed)"
            + (
                f" and a {sc.band.level:.0%} simultaneous confidence band (shaded, "
                f"{sc.band.method.replace('_', ' ')}, recall "
                f"{sc.band.recall_range[0]:g}–{sc.band.recall_range[1]:g})"
                if sc.band is not None
                else ""
            )
            + ". Middle: ROC curve and its convex hull. Right: precision–recall–gain "
            "curve, its convex hull and iso-F-gain lines, with the best-F₁ operating point"
            " (zoomed to the operating points when they crowd an edge, as at low "
            "prevalence).",
            fig,
        )
