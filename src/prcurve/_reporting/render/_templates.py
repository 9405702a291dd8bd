"""The report pages' templates: Jinja2 with autoescaping, shipped in ``templates/``.

Every page (binary, multiclass, folds, population) is ``templates/base.html`` filled with
sections, each rendered from its own template.  Autoescaping is on for every template, so a
value placed with ``{{ ... }}`` (a column name, a label, a file name: all user strings) reaches
the page as text whatever it contains.  Markup reaches a template unescaped only as
:class:`markupsafe.Markup`, and the only places that make it are here: :func:`render` (the
output of an autoescaped template), :func:`code`, :func:`code_list` and :func:`with_ci`
(literal tags around arguments that :meth:`Markup.format` and :meth:`Markup.join` escape);
elsewhere markup is only combined (``code(a) + " − " + code(b)`` escapes the plain string).
So no name can reach the page unescaped, and a reader checks the page's safety in this one file
(``grep -rn "Markup(" src/prcurve``; ``tests/reporting/test_templates.py`` checks it too).

Jinja2 is imported on the first page rendered: ``import prcurve`` and the CLI's start do not
pay for it.
"""

from __future__ import annotations

import functools
from typing import Any

from markupsafe import Markup

from ... import __version__

__all__ = ["code", "code_list", "render", "with_ci"]


@functools.lru_cache(maxsize=1)
def _environment() -> Any:
    """The one Jinja2 environment: package templates, autoescaping, undefined names refused.

    ``StrictUndefined`` makes a misspelt variable an error rather than an empty string on the
    page; ``trim_blocks``/``lstrip_blocks`` keep the block tags' own lines out of the output.
    """
    from jinja2 import Environment, PackageLoader, StrictUndefined

    env = Environment(
        loader=PackageLoader("prcurve._reporting.render", "templates"),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.globals["version"] = __version__
    return env


def render(name: str, /, **context: Any) -> Markup:
    """Template ``name`` rendered with ``context``: HTML whose values were all escaped."""
    return Markup(_environment().get_template(name).render(**context))


def code(text: Any) -> Markup:
    """``<code>text</code>``, the text escaped (a name in a table cell)."""
    return Markup("<code>{}</code>").format(text)


def code_list(texts: Any) -> Markup:
    """``<code>a</code>, <code>b</code>, …``, each text escaped."""
    return Markup(", ").join(code(t) for t in texts)


def with_ci(value: Any, ci: Any) -> Markup:
    """A value with its interval below it, smaller (one table cell for both); both escaped."""
    return Markup('{}<br><span class="ci">{}</span>').format(value, ci)
