"""The names of a report's files: ``report.html``, ``summary.json`` and ``curves/<stem>*.csv``.

A scorer's file stem is its column name made safe for every file system (:func:`file_stems`);
the CLI asks :func:`report_writes` which files in the output directory a report may replace.
"""

from __future__ import annotations

import hashlib
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..analysis._analysis import Analysis

__all__ = ["CURVE_SUFFIXES", "DEPLOYMENT_SUFFIXES", "file_stems", "report_writes", "scorer_files"]


#: Suffixes of a scorer's curve files: ``<stem>.csv``, ``<stem>_achievable.csv``, ...
CURVE_SUFFIXES = {"curve": "", "achievable": "_achievable", "band": "_band"}
#: Suffixes of its files at the deployment prevalence (:func:`~._write.deployment_files`).
DEPLOYMENT_SUFFIXES = ("_at_prevalence", "_band_at_prevalence")
_MAX_STEM = 80


def report_writes(scores: list[str], rel: str) -> bool:
    """Whether the report of the score columns ``scores`` may write ``rel`` (a ``/``-separated
    path in its output directory): ``report.html``, ``summary.json`` or one of the curve files
    of a scorer (:data:`CURVE_SUFFIXES`, :data:`DEPLOYMENT_SUFFIXES`; ``<stem>.parquet`` with
    ``--all-points``)."""
    if rel in ("report.html", "summary.json"):
        return True
    folder, _, name = rel.rpartition("/")
    suffixes = [*CURVE_SUFFIXES.values(), *DEPLOYMENT_SUFFIXES]
    stems = file_stems(scores).values()
    return folder == "curves" and any(
        name == f"{stem}{suffix}.csv" or name == f"{stem}.parquet"
        for stem in stems
        for suffix in suffixes
    )


def scorer_files(analysis: Analysis) -> dict[str, dict[str, str]]:
    """Scorer → kind (curve, achievable, band) → path of its file relative to the report."""
    stems = file_stems(list(analysis.scorers))
    return {
        name: {
            kind: f"curves/{stems[name]}{suffix}.csv"
            for kind, suffix in CURVE_SUFFIXES.items()
            if kind != "band" or sc.band is not None
        }
        for name, sc in analysis.scorers.items()
    }


def file_stems(names: list[str]) -> dict[str, str]:
    """A file-name stem for every score column: unique, stable and safe on any file system.

    The stem is the column name with every run of characters other than ASCII letters,
    digits, ``_``, ``.`` and ``-`` replaced by ``_`` (at most 80 characters).  When that changed
    the name, or when two columns' files would then have the same name ignoring case (``a/b``
    and ``a_b``; ``S`` and ``s`` on a case-insensitive file system; ``a`` and ``a_band``), the
    stem gets ``-`` and the first 8 hex digits of the SHA-256 of the column name (UTF-8):
    the same column always gets the same file name, whatever the other columns are called,
    except where an unchanged name would collide.
    """
    stems = {name: _safe_stem(name) for name in names}
    hashed = {name for name in names if stems[name] != name}
    while True:
        for name in hashed:
            stems[name] = f"{_safe_stem(name)[:_MAX_STEM]}-{_digest(name)}"
        owner: dict[str, str] = {}
        clash: set[str] = set()
        for name in names:
            for suffix in CURVE_SUFFIXES.values():
                key = f"{stems[name]}{suffix}".casefold()
                if key in owner and owner[key] != name:
                    clash |= {name, owner[key]}
                owner.setdefault(key, name)
        if not clash - hashed:
            return stems
        hashed |= clash


def _safe_stem(name: str) -> str:
    stem = re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("._")[:_MAX_STEM]
    return stem or "score"


def _digest(name: str) -> str:
    return hashlib.sha256(name.encode("utf-8", "surrogatepass")).hexdigest()[:8]
