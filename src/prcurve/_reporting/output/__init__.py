"""Stage 4 of the report, **output**: every file of a report written all or nothing.

``summary.json``, the curve files and the page (``_write``) through the atomic writer
(``_output``), which may stage files ahead while the report is still computed.

May import: every earlier stage.
"""
