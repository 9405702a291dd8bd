"""Stage 3 of the report, **rendering**: the page, its figures and its tables.

The page (``_html``, with its plain-language parts in ``_reading`` and ``_chance``), the
figures drawn with :mod:`prcurve.plot` (``_figures``, placed by ``_layout``) and the pieces of
the small pages (``_page``).  Renders what the analysis computed; computes no statistic.

May import: the analysis and input stages, :mod:`prcurve.plot` and the common modules.
"""
