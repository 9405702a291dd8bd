"""The small self-contained HTML pages of the population, multiclass and fold reports.

Shared pieces only (style sheet, tables, inline images, the page frame); the main report's page
is :mod:`._html`.
"""

from __future__ import annotations

import base64
import html
from collections.abc import Sequence
from typing import Any

import numpy as np

from ... import __version__

__all__ = ["CSS", "img", "num", "page", "table"]

CSS = """
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#1b1b1b;
background:#fafafa;line-height:1.45}main{max-width:1200px;margin:0 auto;padding:24px 32px 64px;
background:#fff}h2{border-bottom:2px solid #0072B2;padding-bottom:4px}
table{border-collapse:collapse;margin:12px 0;font-variant-numeric:tabular-nums}
th,td{border:1px solid #d9d9d9;padding:4px 10px;text-align:right}th{background:#f0f4f8}
td:first-child,th:first-child{text-align:left}figure img{max-width:100%;height:auto}
.note{font-size:0.9em;color:#555}
"""


def num(x: Any) -> float | None:
    """A finite number for JSON, or None."""
    v = float(x)
    return v if np.isfinite(v) else None


def table(head: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """An HTML table; ``head`` is escaped, cells are HTML already."""
    th = "".join(f"<th>{html.escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def img(png: bytes, alt: str) -> str:
    """A PNG inlined as a data URI."""
    data = base64.b64encode(png).decode("ascii")
    return f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt)}"></figure>'


def page(title: str, body: list[str]) -> str:
    """A whole page: title, the body's fragments, and the version that made it."""
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{html.escape(title)}</title><style>{CSS}</style></head><body><main>",
            f"<h1>{html.escape(title)}</h1>",
            *body,
            f'<p class="note">Made by prcurve {__version__}.</p>',
            "</main></body></html>",
        ]
    )
