"""The report as a pipeline with one direction: input → analysis → rendering → output.

1. **input** (:mod:`.input`): read any source, on any engine, into the engine interface of
   :mod:`.input._engine` -- the exact counts of every scorer and a way to draw a stratified
   subsample of the rows (in memory: :func:`~.input._engine.memory_engine`; on Dask:
   :func:`~.input._dask.read_dask`; on Spark: :func:`~.input._spark.read_spark`);
2. **analysis** (:mod:`.analysis`): every number, one code path for every engine
   (:func:`~.analysis.analyse`);
3. **rendering** (:mod:`.render`): the page, its figures and its tables;
4. **output** (:mod:`.output`): ``summary.json``, the curve files and the page, written all or
   nothing (:func:`~.output._write.write_report`).

A stage imports only the stages before it (``tests/test_layering.py``); this module joins
the input stage's engines: :func:`read_engine` is where an engine is added.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .input._engine import EngineData, memory_engine

__all__ = ["ENGINE_ONLY", "engines_text", "read_engine"]

#: Options of some engines only: (flag, attribute, the engines that use it); any other engine
#: and the multiclass and fold shapes refuse them with one line.
ENGINE_ONLY = (
    ("--scheduler", "scheduler", ("dask",)),
    ("--subsample", "subsample", ("dask", "spark")),
    ("--workdir", "workdir", ("dask",)),
    ("--master", "master", ("spark",)),
)


def engines_text(engines: Sequence[str]) -> str:
    """``--engine dask`` or ``--engine dask or --engine spark``."""
    return " or ".join(f"--engine {e}" for e in engines)


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
    session: Any = None,
    progress: Any = None,
) -> EngineData:
    """Read the data on ``engine`` (``"memory"``, ``"dask"`` or ``"spark"``) into an
    :class:`EngineData`.

    ``subsample`` is the Dask and Spark engines' (``--subsample``), ``workdir`` and
    ``scheduler`` the Dask engine's (``--workdir``, ``--scheduler``), ``session`` the Spark
    engine's (a running ``SparkSession``, :func:`.input._spark.spark_session`).
    """
    if engine == "spark":
        from .input._dask import DEFAULT_SUBSAMPLE
        from .input._spark import read_spark

        assert path is not None and session is not None
        return read_spark(
            session, path, label, scores, pos_label=pos_label, weight=weight,
            subsample=subsample or DEFAULT_SUBSAMPLE, sep=sep, encoding=encoding,
            progress=progress,
        )  # fmt: skip
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
