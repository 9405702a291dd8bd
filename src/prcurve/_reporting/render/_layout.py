"""Placing a report figure's panels and legends from the font size, without measuring text.

``Figure.tight_layout`` measures the text extent of every tick label, title and legend entry to
find the margins, which took a third of the report's figure time; the report's panels are all
alike (unit squares or the PRG panel, legends below), so their margins are known in advance.
"""

from __future__ import annotations

from typing import Any

__all__ = ["fixed_layout"]


# The layout in units of the font size (rcParams "font.size"), for matplotlib's default font
# (DejaVu Sans) and sizes: the margins that tick labels (up to four characters, "−1.0" or
# "0.85"), axis labels and titles need, measured once with ``Axes.get_tightbbox``.
_PAD = 1.08  # between the figure's edge and the panels, and between panels (as tight_layout)
_LEFT = 4.75  # y tick labels and the y label (at least; more for longer tick labels)
_RIGHT = 0.75  # the last x tick label's overhang
_TOP = 1.6  # the title
_BELOW = 3.7  # x tick labels, the x label and a gap, above the legend
_LINE = 1.105  # height of a line of text per point of font size (DejaVu Sans)
_MIN_SIDE = 3.0  # inches: a panel never gets smaller; the figure grows taller instead
_CHAR = 0.62  # widest average width of a character, per point of font size (DejaVu Sans)


def _wrap_legend(ax: Any, width: float) -> None:
    """Break the axes' legend labels into lines that fit ``width`` inches (estimated)."""
    import textwrap

    legend = ax.get_legend()
    if legend is None:
        return
    size = legend.prop.get_size_in_points()
    handle = (legend.handlelength + legend.handletextpad + 2.0 * legend.borderpad) * size
    chars = max(12, int((72.0 * width - handle) / (_CHAR * size)))
    for text in legend.texts:
        label = text.get_text()
        if len(label) > chars:
            text.set_text("\n".join(textwrap.wrap(label, chars, break_on_hyphens=False)))


def _left_margin(ax: Any) -> float:
    """The room the axes' y tick labels and y label need, in units of the font size.

    From the labels the axis will draw (its locator and formatter, no text measured): a digit
    is 0.65 of the font size wide, a minus sign 0.85.
    """
    lo, hi = sorted(ax.get_ylim())
    locs = [v for v in ax.yaxis.get_majorticklocs() if lo <= v <= hi]
    labels = ax.yaxis.get_major_formatter().format_ticks(locs) if locs else []
    chars = max((len(t) + 0.3 * t.count("\u2212") for t in labels), default=0.0)
    return max(_LEFT, 2.2 + 0.65 * chars)


def _legend_height(ax: Any) -> float:
    """Height in points of the axes' one-column legend (0 without one), from its font size."""
    legend = ax.get_legend()
    if legend is None or not legend.texts:
        return 0.0
    size = legend.prop.get_size_in_points()
    rows = sum(t.get_text().count("\n") + 1 for t in legend.texts)
    spacing, border = legend.labelspacing, legend.borderpad
    return size * (rows * (_LINE + spacing) - spacing + 2.0 * border + 0.3)


def fixed_layout(fig: Any, axes: Any) -> None:
    """Place the panels side by side, legends below, from the known font sizes.

    What ``fig.tight_layout()`` would find by measuring every tick label's text (a third of
    the figures' time), computed from the font size instead: equal columns, each panel as tall as
    the tallest legend below it allows, square panels (equal aspect) centred in their column.
    Legend labels too long for their column are broken into lines; the figure grows taller when
    the legends would leave a panel less than ``_MIN_SIDE``.
    """
    import matplotlib as mpl

    font = mpl.rcParams["font.size"] / 72.0  # inches
    left = max(_left_margin(ax) for ax in axes) * font
    pad, right, top, below = (v * font for v in (_PAD, _RIGHT, _TOP, _BELOW))
    width, height = fig.get_size_inches()
    n = len(axes)
    cell = (width - (n + 1) * pad) / n
    wide = cell - left - right
    for ax in axes:  # a legend centred under its panel may reach into the gaps on either side
        _wrap_legend(ax, wide + 2 * right + pad)
    legend = max(_legend_height(ax) for ax in axes) / 72.0
    chrome = 2 * pad + top + below + legend
    side = min(wide, height - chrome)
    if side < min(wide, _MIN_SIDE):
        side = min(wide, _MIN_SIDE)
        height = side + chrome
        fig.set_size_inches(width, height)
    axes_top = (height + top + side + below + legend) / 2 - top  # the block centred vertically
    for i, ax in enumerate(axes):
        square = ax.get_aspect() == 1.0
        w = side if square else wide
        x0 = pad + i * (cell + pad) + left + (wide - w) / 2
        ax.set_position([x0 / width, (axes_top - side) / height, w / width, side / height])
        if ax.get_legend() is not None:
            ax.get_legend().set_bbox_to_anchor((0.5, -below / side), transform=ax.transAxes)
