"""Stage 1 of the report, **input**: read any source, on any engine, into labelled scores.

CSV (``_csv``, with the one number grammar of ``_numbers``), Parquet (``_parquet``) and
standard input become :class:`~._io.LabelledScores` (``_io``); the multiclass and fold files a
:class:`~._multi_input.MultiInput`; on Dask (``_dask``), the exact curves per scorer and a
random subsample.  Every problem with the input is one :class:`~._io.InputError` line.

May import: the statistics of prcurve and the report's common modules (``_messages``,
``_progress``); no later stage.
"""
