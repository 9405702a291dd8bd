"""Tidy export of results to a pandas DataFrame (pandas is optional and imported lazily)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["data_frame", "import_pandas"]


def import_pandas() -> Any:
    """The pandas module, or an ImportError saying how to get it."""
    try:
        import pandas
    except ImportError as exc:  # pragma: no cover - pandas is installed in the test environment
        raise ImportError(
            "to_frame: pandas is needed for a DataFrame export; install it with "
            "`pip install prcurve[pandas]`"
        ) from exc
    return pandas


def data_frame(columns: Mapping[str, Any]) -> Any:
    """A DataFrame with the given columns (arrays of one length), in order."""
    return import_pandas().DataFrame(dict(columns))
