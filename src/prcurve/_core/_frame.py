"""Tidy export of results to a pandas DataFrame (pandas is optional and imported lazily)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["curves_frame", "data_frame", "import_pandas"]


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
    """A DataFrame with the given columns (arrays of one length), in order.  A column computed
    from counts on disk (:class:`._columns.CountColumn`, which pandas would take for a single
    value) is computed whole here: a DataFrame holds every value in memory anyway."""
    return import_pandas().DataFrame(
        {
            k: np.asarray(v) if hasattr(v, "__array__") and not isinstance(v, np.ndarray) else v
            for k, v in columns.items()
        }
    )


def curves_frame(key: str, names: Sequence[Any], curves: Sequence[Any]) -> Any:
    """The operating points of several PR curves stacked, a ``key`` column naming each curve.

    Columns ``key``, ``threshold``, ``tp``, ``fp``, ``precision``, ``recall`` (float64).
    """
    sizes = [c.recall.shape[0] for c in curves]
    return data_frame(
        {
            key: np.repeat(np.array(list(names), dtype=object), sizes),
            "threshold": np.concatenate([c.thresholds.astype(np.float64) for c in curves]),
            "tp": np.concatenate([np.asarray(c.tp, np.float64) for c in curves]),
            "fp": np.concatenate([np.asarray(c.fp, np.float64) for c in curves]),
            "precision": np.concatenate([c.precision for c in curves]),
            "recall": np.concatenate([c.recall for c in curves]),
        }
    )
