"""The command line's reports: analysis, HTML page, files, input reading and progress.

Holds the report's analysis and its plain result types (``_analysis``), the page and its
figures (``_html``), ``summary.json`` and the curve files written atomically (``_write``), the
``population`` and ``simulate`` reports (``_population``), reading labelled scores from CSV,
Parquet or stdin (``_io``), the all-or-nothing file writer, which may stage files ahead while
the report is computed (``_output``), and the progress bar (``_progress``).  ``_analysis``
sits below ``_html`` and ``_write``, which import its types.

May import: every other part of prcurve, including :mod:`prcurve.plot`.  The top layer: only
:mod:`prcurve.cli` imports it, and nothing imports it at ``import prcurve``.
"""
