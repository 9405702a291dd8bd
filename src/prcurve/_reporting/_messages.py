"""Pieces of the reader's and the command line's one-line messages.

A count with its noun in the right number ("1 field", "3 fields"), and a list of column names
cut short so that a file with thousands of columns still gives one readable line.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["COLUMNS_SHOWN", "NAME_SHOWN", "column_list", "plural"]

#: Column names shown in a message before the rest are only counted.
COLUMNS_SHOWN = 20


def plural(count: int, noun: str, nouns: str | None = None) -> str:
    """``count`` and ``noun``, or ``nouns`` (default ``noun + "s"``) unless ``count`` is 1.

    >>> plural(1, "field"), plural(3, "row"), plural(2, "class", "classes")
    ('1 field', '3 rows', '2 classes')
    """
    word = noun if count == 1 else (nouns or noun + "s")
    return f"{count:,} {word}"


#: Characters of a column name shown in a message; a longer name is cut and its length given.
NAME_SHOWN = 40


def column_list(names: Sequence[str], limit: int = COLUMNS_SHOWN) -> str:
    """Column names quoted and joined; after ``limit`` of them, how many more there are.

    >>> column_list(["y", "a"]), column_list(list("abcd"), limit=2)
    ("'y', 'a'", "'a', 'b' and 2 more")
    >>> column_list(["y", "s" * 100_000])
    "'y', 'ssssssssssssssssssssssssssssssssssssssss'... (100,000 characters)"
    """
    shown = ", ".join(map(_name, names[:limit]))
    rest = len(names) - limit
    return shown if rest <= 0 else f"{shown} and {rest:,} more"


def _name(name: str) -> str:
    if len(name) <= NAME_SHOWN:
        return repr(name)
    return f"{name[:NAME_SHOWN]!r}... ({len(name):,} characters)"
