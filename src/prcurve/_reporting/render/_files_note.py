"""The page's paragraph on the files written with it and what each curve file holds (every
point, or the thinned curve with its precision-error bound), from ``summary.json``'s ``files``
and ``curve_files`` (``output._write``); the text is ``templates/files_note.html``."""

from __future__ import annotations

from typing import Any

from markupsafe import Markup

from ._templates import render

__all__ = ["files_note"]


def files_note(data: dict[str, Any]) -> Markup:
    """The files written with the page, and what the curve files hold (one clause per kind)."""
    curve_files = data.get("curve_files") or {}
    entries = [
        e
        for s in curve_files.get("scorers", {}).values()
        for e in (s, s.get("at_prevalence"))
        if e is not None
    ]
    return render(
        "files_note.html",
        files=data["files"],
        full=[e["path"] for e in entries if not e["thinned"]],
        thinned=[e for e in entries if e["thinned"]],
        cap=curve_files.get("max_points"),
    )
