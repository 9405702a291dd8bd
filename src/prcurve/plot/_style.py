"""Shared drawing helpers: the colour-blind-safe palette, axes creation, reference lines.

Matplotlib is imported inside the functions only, so importing :mod:`prcurve.plot` stays cheap.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

__all__ = [
    "OKABE_ITO",
    "REFERENCE_GREY",
    "color_cycle",
    "get_axes",
    "iso_f_precision",
    "plain_text",
    "unit_square",
]

#: The Okabe–Ito palette (Okabe & Ito 2008), safe for the common colour-vision deficiencies.
#: Black is left out of the cycle; it is used for reference lines.
OKABE_ITO: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#56B4E9",  # sky blue
    "#D55E00",  # vermillion
    "#F0E442",  # yellow
)
REFERENCE_GREY = "#6E6E6E"


def plain_text(text: Any) -> str:
    """A user-given string (a scorer, column or class name) as literal text for matplotlib.

    Matplotlib parses a string holding an even number of ``$`` as mathtext, so a column named
    ``$\\foo$`` raised a mathtext error and ``$x$`` would be typeset.  Escaping every ``$`` as
    ``\\$`` turns math mode off, and matplotlib then draws each ``\\$`` as ``$``: the text
    appears exactly as given (``_``, ``^``, ``%``, ``<`` and backslashes are literal outside
    math mode).  Names go through this wherever they reach a title, label or legend.
    """
    return str(text).replace("$", r"\$")


def color_cycle(i: int) -> str:
    """The ``i``-th colour of the palette (cycling)."""
    return OKABE_ITO[i % len(OKABE_ITO)]


def get_axes(ax: Any = None, *, figsize: tuple[float, float] = (5.0, 5.0)) -> Any:
    """``ax`` itself, or the axes of a new figure (pyplot imported lazily)."""
    if ax is not None:
        return ax
    import matplotlib.pyplot as plt

    _, new_ax = plt.subplots(figsize=figsize)
    return new_ax


def unit_square(ax: Any, xlabel: str, ylabel: str, *, low: float = 0.0) -> None:
    """Square axes over ``[low, 1]``² with a light grid and the given labels."""
    pad = 0.02 * (1.0 - low)
    ax.set_xlim(low - pad, 1.0 + pad)
    ax.set_ylim(low - pad, 1.0 + pad)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_aspect("equal", adjustable="box")
    ax.grid(True, color="#DDDDDD", linewidth=0.6)
    ax.set_axisbelow(True)


def iso_f_precision(f: float, recall: np.ndarray, beta: float = 1.0) -> np.ndarray:
    """Precision along the iso-F_β curve of value ``f`` (NaN where the curve does not exist).

    From ``F_β = (1 + β²) P R / (β² P + R)``: ``P = f R / ((1 + β²) R − β² f)``, defined for
    ``R > β² f / (1 + β²)``; only the part with ``P <= 1`` is kept.  For drawing only: NaN
    breaks the line and never leaves the plot.
    """
    b2 = beta * beta
    r = np.asarray(recall, dtype=np.float64)
    den = (1.0 + b2) * r - b2 * f
    with np.errstate(divide="ignore", invalid="ignore"):
        p = np.where(den > 0, f * r / np.where(den > 0, den, 1.0), np.nan)
    return np.where((p >= 0) & (p <= 1.0 + 1e-12), p, np.nan)


def check_levels(levels: Sequence[float] | None, name: str) -> tuple[float, ...]:
    """A tuple of values in (0, 1) (``None`` gives an empty tuple)."""
    if levels is None:
        return ()
    out = tuple(float(v) for v in levels)
    for v in out:
        if not 0.0 < v < 1.0:
            raise ValueError(f"{name}: expected values in (0, 1), got {v!r}")
    return out
