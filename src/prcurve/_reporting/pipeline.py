"""The report as a pipeline with one direction: input → analysis → rendering → output.

1. **input** (:mod:`.input`): read any source, on any engine, into labelled scores
   (:func:`~.input._io.read_labelled_scores`) or, on Dask, into the exact curve of every
   scorer and a random subsample (:func:`~.input._dask.read_dask`);
2. **analysis** (:mod:`.analysis`): every number, engine-independent
   (:func:`~.analysis.analyse`, :func:`~.analysis.analyse_exact`);
3. **rendering** (:mod:`.render`): the page, its figures and its tables;
4. **output** (:mod:`.output`): ``summary.json``, the curve files and the page, written all or
   nothing (:func:`~.output._write.write_report`).

A stage imports only the stages before it (``tests/test_layering.py``); this module joins
them for the engines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .analysis import Analysis, Settings, analyse_exact
from .input._dask import DEFAULT_SUBSAMPLE, read_dask

__all__ = ["DEFAULT_SUBSAMPLE", "analyse_dask"]


def analyse_dask(
    path: str,
    label: str,
    scores: Sequence[str],
    settings: Settings,
    *,
    pos_label: str | None = None,
    subsample: int = DEFAULT_SUBSAMPLE,
    n_resamples: int | None = None,
    workdir: str | None = None,
    sep: str | None = None,
    encoding: str | None = None,
    progress: Any = None,
) -> Analysis:
    """The report's :class:`Analysis` of Parquet/CSV data on Dask: read by
    :func:`~.input._dask.read_dask`, analysed by :func:`~.analysis.analyse_exact`.

    ``settings.n_resamples`` is replaced by ``n_resamples`` (default: the automatic number for
    the subsample's size).  Run it inside ``prcurve.dask._curve.scheduler_context`` to choose
    the scheduler; ``workdir`` is passed to :func:`prcurve.dask.pr_curve`.
    """
    data = read_dask(
        path, label, scores, pos_label=pos_label, subsample=subsample, seed=settings.seed,
        workdir=workdir, sep=sep, encoding=encoding, progress=progress,
    )  # fmt: skip
    return analyse_exact(data, settings, n_resamples=n_resamples, progress=progress)
