"""The command line's reports, as a pipeline of four stages (see :mod:`.pipeline`).

``input/`` reads any source on any engine; ``analysis/`` computes every number, engine-
independent (no matplotlib, no HTML); ``render/`` makes the page, its figures and its tables;
``output/`` writes every file all or nothing.  Beside them: the common pieces every stage may
use (``_messages``, ``_progress`` and the process's memory settings, ``_memory``);
:mod:`.pipeline`, which joins the stages for the engines; and the small
``population``/``simulate`` (``_population``) and multiclass/fold (``_multi_report``) reports,
which use every stage.

May import: every other part of prcurve, including :mod:`prcurve.plot`.  The top layer: only
:mod:`prcurve.cli` imports it, and nothing imports it at ``import prcurve``.
"""
