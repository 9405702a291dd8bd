"""The page's sentence on what each curve file holds (every point, or the thinned curve with its
precision-error bound), from ``summary.json``'s ``curve_files`` (``output._write``)."""

from __future__ import annotations

import html
from typing import Any

__all__ = ["files_note"]


def files_note(curve_files: dict[str, Any] | None) -> str:
    """What the curve files hold, one clause per file kind; "" without ``curve_files``."""
    if not curve_files:
        return ""
    thinned, full = [], []
    entries = [e for s in curve_files["scorers"].values() for e in (s, s.get("at_prevalence"))]
    for e in entries:
        if e is None:
            continue
        path = f"<code>{html.escape(e['path'])}</code>"
        if e["thinned"]:
            thinned.append(
                f"{path} holds {e['points']:,} of the {e['operating_points']:,} operating points "
                f"(precision within {e['max_precision_error']:.2g} of the full curve at every "
                "recall)"
            )
        else:
            full.append(path)
    parts = []
    if full:
        parts.append(f"{', '.join(full)} hold every operating point.")
    if thinned:
        cap = curve_files.get("max_points")
        above = f"above {cap:,} points " if cap else ""
        parts.append(
            f"Curve files are thinned {above}(both ends and every ROC convex hull vertex kept; "
            "the bound is for the Davis–Goadrich interpolated curves): "
            + "; ".join(thinned)
            + ". Run with <code>--all-points</code> for every point (and a Parquet file)."
        )
    return " ".join(parts)
