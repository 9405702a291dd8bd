"""Library messages in the command line's terms: the columns, not the parameters.

The statistics functions name their parameters (``y_true: expected both classes ...``); a
report's reader knows which column each parameter came from, and its users never saw the
parameter names.  :func:`in_column_terms` rewrites the message's leading parameter names.
"""

from __future__ import annotations

import re

__all__ = ["in_column_terms"]

_PARAMETER = re.compile(r"\b(y_true and y_score|y_true|y_score|sample_weight): ")


def in_column_terms(message: str, columns: dict[str, str]) -> str:
    """``message`` with each ``y_true:``/``y_score:``/``sample_weight:`` (and ``y_true and
    y_score:``) replaced by the column it was read from (``columns`` maps parameter to column
    name); a parameter without a column keeps its name."""

    def named(match: re.Match[str]) -> str:
        params = match.group(1).split(" and ")
        if not all(p in columns for p in params):
            return match.group(0)
        shown = " and ".join(repr(columns[p]) for p in params)
        return f"{'columns' if len(params) > 1 else 'column'} {shown}: "

    return _PARAMETER.sub(named, message)
