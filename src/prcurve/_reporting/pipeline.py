"""The report as a pipeline with one direction: input → analysis → rendering → output.

1. **input** (:mod:`.input`): read any source, on any engine, into the engine interface of
   :mod:`.input._engine` -- the exact counts of every scorer and a way to draw a stratified
   subsample of the rows (in memory: :func:`~.input._engine.memory_engine`; on Dask:
   :func:`~.input._dask.read_dask`);
2. **analysis** (:mod:`.analysis`): every number, one code path for every engine
   (:func:`~.analysis.analyse`);
3. **rendering** (:mod:`.render`): the page, its figures and its tables;
4. **output** (:mod:`.output`): ``summary.json``, the curve files and the page, written all or
   nothing (:func:`~.output._write.write_report`).

A stage imports only the stages before it (``tests/test_layering.py``); this module joins
the input stage's engines: :func:`read_engine` is where a new engine (``--engine spark``) is
added.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .input._engine import EngineData, memory_engine

__all__ = ["read_engine"]


def read_engine(
    engine: str,
    path: str | None,
    label: str,
    scores: Sequence[str],
    *,
    pos_label: str | None = None,
    weight: str | None = None,
    sep: str | None = None,
    encoding: str | None = None,
    stdin: Any = None,
    subsample: int | None = None,
    workdir: str | None = None,
    scheduler: Any = None,
    progress: Any = None,
) -> EngineData:
    """Read the data on ``engine`` (``"memory"`` or ``"dask"``) into an :class:`EngineData`.

    ``subsample``, ``workdir`` and ``scheduler`` are the Dask engine's (``--subsample``,
    ``--workdir``, ``--scheduler``).
    """
    if engine == "dask":
        from .input._dask import DEFAULT_SUBSAMPLE, read_dask

        assert path is not None
        return read_dask(
            path, label, scores, pos_label=pos_label, weight=weight,
            subsample=subsample or DEFAULT_SUBSAMPLE, workdir=workdir, scheduler=scheduler,
            sep=sep, encoding=encoding, progress=progress,
        )  # fmt: skip
    from .input._io import read_labelled_scores

    if progress is not None:
        progress.start("reading")
    data = read_labelled_scores(
        path, label, scores, pos_label=pos_label, stdin=stdin, weight=weight, sep=sep,
        encoding=encoding,
    )  # fmt: skip
    if progress is not None:
        progress(1, 1)
    return memory_engine(data)
