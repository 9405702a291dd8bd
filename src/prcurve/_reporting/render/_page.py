"""The pieces every report page is made of, rendered from the templates (``_templates``).

:func:`page` puts sections into the one base layout shared by the binary, multiclass, fold and
population pages (``templates/base.html``); :func:`table`, :func:`img`, :func:`heading` and
:func:`note` render the common pieces.  Everything passed in is escaped unless it is
:class:`~markupsafe.Markup` (a rendered section, or a cell made by :func:`._templates.code`).
"""

from __future__ import annotations

import base64
from collections.abc import Sequence
from typing import Any

import numpy as np
from markupsafe import Markup

from ._templates import render

__all__ = ["heading", "img", "note", "num", "page", "png_data", "table"]


def num(x: Any) -> float | None:
    """A finite number for JSON, or None."""
    v = float(x)
    return v if np.isfinite(v) else None


def png_data(png: bytes) -> str:
    """PNG bytes as the base64 text of a ``data:`` URI (only ``A–Z a–z 0–9 + / =``)."""
    return base64.b64encode(png).decode("ascii")


def table(head: Sequence[Any], rows: Sequence[Sequence[Any]], cls: str = "") -> Markup:
    """An HTML table; heads and cells are escaped unless Markup."""
    return render("table.html", head=head, rows=rows, cls=cls)


def img(png: bytes, alt: str, *, caption: str | None = None, key: str | None = None) -> Markup:
    """A PNG inlined as a data URI, with its alt text (and caption, and ``id``)."""
    return render("figure.html", png=png_data(png), alt=alt, caption=caption, id=key)


def heading(text: str) -> Markup:
    """A section heading (``<h2>``)."""
    return render("text.html", tag="h2", text=text)


def note(text: str) -> Markup:
    """A note paragraph (``<p class="note">``)."""
    return render("text.html", tag="note", text=text)


def page(
    title: str, sections: Sequence[Markup], *, h1: str | None = None, made_by: bool = True
) -> str:
    """A whole page in the base layout: ``h1`` (default: the title) as its heading, the
    sections in order, and (``made_by``) the version that made it."""
    heading = title if h1 is None else h1
    return str(
        render("base.html", title=title, heading=heading, sections=sections, made_by=made_by)
    )
