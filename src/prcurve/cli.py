"""The ``prcurve`` command line.

Exit status: 0 on success, 1 for bad input (a one-line message on stderr, and no partial
output), 2 for wrong usage (argparse's message).
"""

from __future__ import annotations

import argparse
import contextlib
import math
import os
import sys
from collections.abc import Sequence
from functools import partial
from typing import Any, BinaryIO, TextIO

from ._cli_parser import build_parser, command_parser

__all__ = ["main", "run"]

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130
#: ``--memory-budget`` when not given (MB of input above which ``--engine auto`` uses Dask).
DEFAULT_MEMORY_BUDGET = 512


def _engine(args: argparse.Namespace) -> tuple[str, str]:
    """The engine to read the data with, and why when ``--engine auto`` chose Dask (announced
    on stderr and on the page)."""
    if args.engine != "auto":
        return args.engine, ""
    if args.file is None or args.file == "-":
        return "memory", ""
    from ._reporting.input._io import input_bytes, is_collection

    budget = DEFAULT_MEMORY_BUDGET if args.memory_budget is None else args.memory_budget
    if not is_collection(args.file):
        size = input_bytes(args.file)
        if size <= budget * 2**20:
            return "memory", ""
        try:  # a big file without the dask extra: the in-memory engine still works
            import dask  # noqa: F401
        except ImportError:
            return "memory", ""
        return "dask", (
            f"--engine auto chose the Dask engine: the input is {size / 2**20:,.0f} MB, above "
            f"--memory-budget {budget:g} MB (--engine memory reads it in memory)"
        )
    return "dask", (
        "--engine auto chose the Dask engine: the input is a directory or pattern of files "
        "(--engine memory reads one file)"
    )


def _check_output(args: argparse.Namespace, scores: Sequence[str] | None = None) -> None:
    """``--out`` can be written and none of the files the report writes there is an input
    (before any work).  With ``scores``, the files of the binary report of those score columns;
    otherwise every file a report may own there (``_output.report_owned``)."""
    from ._reporting.input._io import InputError, data_files
    from ._reporting.output._output import check_input_kept, check_writable

    check_writable(args.out)
    inputs = [] if args.file is None or args.file == "-" else [args.file]
    if inputs and not os.path.isfile(args.file):
        try:  # a directory or pattern of Parquet files (the Dask engine)
            inputs = data_files(args.file)
        except InputError:
            inputs = []  # reading says what is missing

    def writes(rel: str) -> bool:  # asked only when an input is there: SciPy loads then
        from ._reporting.output._names import report_writes

        return scores is None or report_writes(list(scores), rel)

    check_input_kept(inputs, args.out, writes=writes)


def _read(
    args: argparse.Namespace, engine: str, label: str, scores: list[str], stdin: Any,
    progress: Any, session: Any = None,
) -> Any:  # fmt: skip
    """The data on ``engine`` as the analysis's engine interface (``_reporting.input._engine``)."""
    from ._reporting.input._io import InputError
    from ._reporting.pipeline import read_engine

    options: dict[str, Any] = {}
    if engine == "dask":
        try:
            import dask  # noqa: F401
        except ImportError:
            raise InputError(
                "--engine dask needs Dask; install it with 'pip install prcurve[dask]'"
            ) from None
        # a scheduler address: a cluster, whose workers may not share this machine's temp folder
        cluster = args.scheduler if args.scheduler and ":" in args.scheduler else None
        options = dict(
            subsample=args.subsample, scheduler=args.scheduler,
            workdir=args.workdir or (None if cluster is None else "memory"),
        )  # fmt: skip
    if engine == "spark":
        options = dict(subsample=args.subsample, session=session)
    try:
        return read_engine(
            engine, args.file, label, scores, pos_label=args.pos_label, weight=args.weight,
            sep=args.sep, encoding=args.encoding, stdin=stdin, progress=progress, **options,
        )  # fmt: skip
    except OSError as exc:  # e.g. no scheduler at the address
        if engine != "dask" or not args.scheduler:
            raise
        raise InputError(f"--scheduler {args.scheduler}: {exc}") from None


def _run_population(args: argparse.Namespace) -> int:
    from ._reporting._population import write_population
    from ._reporting._progress import ProgressBar
    from ._reporting.output._output import check_writable

    check_writable(args.out, "the population report")
    prevalences = args.prevalence or [0.5, 1 / 11]
    bar = ProgressBar(enabled=not args.quiet)
    paths = write_population(list(dict.fromkeys(args.case)), prevalences, args.out, progress=bar)
    bar.finish()
    if not args.quiet:
        print(f"Report written to {paths['report']}")
    return EXIT_OK


def _run_simulate(args: argparse.Namespace) -> int:
    from ._population._simulation import PAPER_RECALL
    from ._reporting._population import write_simulation
    from ._reporting._progress import ProgressBar
    from ._reporting.output._output import check_writable

    check_writable(args.out, "the simulation report")
    bar = ProgressBar(enabled=not args.quiet)
    paths = write_simulation(
        args.case,
        args.prevalence,
        sorted(set(args.n)),
        args.recall or PAPER_RECALL.tolist(),
        args.out,
        n_replicates=args.replicates,
        class_counts=args.class_counts,
        seed=args.seed,
        progress=bar,
    )
    bar.finish()
    if not args.quiet:
        print(f"Report written to {paths['report']}")
    return EXIT_OK


def _choice_options(args: argparse.Namespace) -> list[str]:
    """The "Choosing a threshold" options given (refused where not supported)."""
    given = (("--cost-ratio", args.cost_ratio), ("--top-k", args.top_k))
    return [option for option, value in given if value is not None]


def _engine_only_options(args: argparse.Namespace, engine: str) -> None:
    """An option of another engine: refused with one line when the user chose the engine;
    when ``--engine auto`` chose memory for this input, a Dask option is said on stderr to be
    unused (it would have applied to a bigger input) -- never silently dropped.  ``--engine
    auto`` never chooses Spark, so ``--master`` needs ``--engine spark``."""
    from ._reporting.input._io import InputError
    from ._reporting.pipeline import ENGINE_ONLY, engines_text

    if args.memory_budget is not None and args.engine != "auto":
        raise InputError(
            f"--memory-budget: steers only --engine auto (which engine reads the file), but "
            f"--engine {args.engine} was given; drop one of them"
        )
    for flag, key, engines in ENGINE_ONLY:
        if getattr(args, key) is None or engine in engines:
            continue
        if args.engine != "auto":
            raise InputError(
                f"{flag}: used only by {engines_text(engines)}; drop it or use "
                f"{engines_text(engines)}"
            )
        if "dask" not in engines:
            raise InputError(
                f"{flag}: used only by {engines_text(engines)}, which --engine auto never "
                f"chooses; add {engines_text(engines)}"
            )
        if not args.quiet:
            print(
                f"prcurve: note: {flag} is not used: --engine auto reads this input in memory",
                file=sys.stderr,
            )


def _check_spark_input(args: argparse.Namespace, engine: str) -> None:
    """Spark reads files: standard input and the built-in example are refused."""
    if engine != "spark" or args.file not in (None, "-"):
        return
    from ._reporting.input._io import InputError

    got = "standard input (-)" if args.file == "-" else "no FILE (the built-in example)"
    raise InputError(
        f"--engine spark: expected FILE (a file, a directory or a glob pattern of Parquet or "
        f"CSV files), got {got}"
    )


def _check_top_k(k: int | float | None, data: Any) -> None:
    """An integer ``--top-k`` must not exceed the rows (of positive weight) read."""
    if not isinstance(k, int):
        return
    from ._reporting.input._io import InputError

    rows = data.n
    if k > rows:
        raise InputError(
            f"--top-k: expected an integer number of rows in [1, {rows}] or a fraction of the "
            f"rows in (0, 1), got {k}"
        )


def _subsample_floor(n: int, n_pos: int) -> int:
    """The fewest rows a stratified subsample of ``n`` rows with ``n_pos`` positives may have:
    enough for the positives a resampling step needs (``_sizing.MIN_POSITIVES``, the floor
    the analysis sizes every step on), or all rows when the data hold fewer positives."""
    from ._reporting.analysis._sizing import MIN_POSITIVES

    return min(n, math.ceil(MIN_POSITIVES * n / max(n_pos, 1)))


def _check_subsample(rows: int | None, data: Any) -> None:
    """A given ``--subsample`` must keep the positives a resampling step needs: fewer would
    make every interval, band and comparison rest on a handful of positives, rescaled to all
    rows without a word (the analysis never asks for fewer than that many)."""
    if rows is None:
        return
    from ._reporting.input._io import InputError

    n, n_pos = data.n, data.n_pos_rows
    floor = _subsample_floor(n, n_pos)
    if rows < floor:
        from ._reporting.analysis._sizing import MIN_POSITIVES

        raise InputError(
            f"--subsample: expected at least {floor} rows (a stratified subsample keeps the "
            f"{n_pos / n:.3%} positives of the {n} rows; a resampling step needs "
            f"{MIN_POSITIVES} positives, or all rows), got {rows}"
        )


def _operating_settings(args: argparse.Namespace) -> dict[str, Any]:
    """``Settings`` fields of the operating-point table, the deployment prevalence and the
    threshold choice."""
    out: dict[str, Any] = {
        "prevalence": args.prevalence_count or args.prevalence,
        "cost_ratio": args.cost_ratio,
        "top_k": args.top_k,
    }
    if args.min_precision is not None:
        out["min_precision"] = args.min_precision
    if args.min_recall is not None:
        out["min_recall"] = args.min_recall
    return out


def _run_multi_report(
    args: argparse.Namespace, parser: argparse.ArgumentParser, stdin: TextIO | BinaryIO
) -> int:
    """The multiclass and cross-validation shapes (``prcurve._reporting._multi_cli``)."""
    from ._reporting._multi_cli import run_multi_report
    from ._reporting._progress import ProgressBar

    progress = ProgressBar(enabled=not args.quiet)
    paths = run_multi_report(args, parser, stdin, progress, partial(_check_output, args))
    progress.finish()
    if not args.quiet:
        print(f"Report written to {paths['report']}")
    return EXIT_OK


def _run_report(
    args: argparse.Namespace, parser: argparse.ArgumentParser, stdin: TextIO | BinaryIO
) -> int:
    if args.score_prefix or args.multiclass or args.fold:
        return _run_multi_report(args, parser, stdin)
    from ._reporting._memory import lean_report_memory

    lean_report_memory()  # before pyarrow loads: its memory pool
    from ._reporting._progress import ProgressBar
    from ._reporting.input._io import BUILTIN_EXAMPLE

    if args.file is None:
        label = args.label or BUILTIN_EXAMPLE.label
        scores = args.score or list(BUILTIN_EXAMPLE.scores)
    else:
        if not args.label or not args.score:
            from ._reporting.input._peek import missing_options_message

            parser.error(
                missing_options_message(
                    args.file, args.label, args.score, sep=args.sep, encoding=args.encoding
                )
            )
        label, scores = args.label, args.score
    progress = ProgressBar(enabled=not args.quiet)
    _check_output(args, scores)
    engine, why = _engine(args)
    if why and not args.quiet:
        print(f"prcurve: {why}", file=sys.stderr)
    _engine_only_options(args, engine)
    _check_spark_input(args, engine)
    with contextlib.ExitStack() as stack:
        stack.callback(_discard_disk_files)
        session = None
        if engine == "spark":  # one session for the reading and the subsample, then stopped
            from ._reporting.input._spark import DEFAULT_MASTER, spark_session

            session = stack.enter_context(spark_session(args.master or DEFAULT_MASTER))
        _report_body(args, engine, why, label, scores, stdin, progress, session)
    return EXIT_OK


def _discard_disk_files() -> None:
    """Remove the count tables an engine kept on disk (the Dask engine's; see
    ``_core._disk``) as the report ends, rather than when they are garbage collected."""
    disk = sys.modules.get("prcurve._core._disk")
    if disk is not None:
        disk.discard_files()


def _load_readers(path: str | None) -> None:
    """Load pyarrow's readers now, a Ctrl-C held back until they have loaded (see
    ``_reporting._interrupts``), when there is something to read (a missing file's error
    needs no pyarrow); without pyarrow the pure-Python reader needs nothing."""
    import os

    from ._reporting._interrupts import interrupts_deferred

    if path not in (None, "-") and not os.path.isfile(path):
        return
    with interrupts_deferred():
        try:
            import pyarrow.compute
            import pyarrow.csv
            import pyarrow.parquet  # noqa: F401
        except ImportError:
            pass


def _report_body(
    args: argparse.Namespace, engine: str, why: str, label: str, scores: list[str],
    stdin: TextIO | BinaryIO, progress: Any, session: Any,
) -> None:  # fmt: skip
    """Read, analyse and write the binary report (the engine chosen and its session open)."""
    from ._reporting._interrupts import interrupts_deferred
    from ._reporting._memory import trim_memory

    _load_readers(args.file)
    data = _read(args, engine, label, scores, stdin, progress, session)
    _check_top_k(args.top_k, data)
    _check_subsample(None if engine == "memory" else args.subsample, data)
    trim_memory()  # the parser's free memory back to the system before the curves
    # imported only now, so that a bad input fails without waiting for SciPy; a Ctrl-C while
    # the extension modules load is held back to the end of the imports (see _interrupts)
    with interrupts_deferred():
        from ._reporting.analysis._analysis import (
            Settings,
            analyse,
            auto_resamples,
            available_cpus,
        )
        from ._reporting.output._output import FilesAhead
        from ._reporting.output._write import start_curve_files, write_report
        from ._reporting.render._figures import FiguresAhead

    settings = Settings(
        source=data.source, label=label, scores=tuple(scores),
        positive_label=data.positive_label, level=args.level,
        n_resamples=auto_resamples(data.n) if args.n_resamples == "auto" else args.n_resamples,
        n_resamples_auto=args.n_resamples == "auto", jobs=args.jobs or available_cpus(),
        jobs_auto=args.jobs is None,
        seed=args.seed or 0, out=args.out, weight=args.weight, engine=engine, engine_reason=why,
        **_operating_settings(args),
    )  # fmt: skip
    # the curve files are written (and matplotlib loaded) while the workers resample, and the
    # figures drawn once the bands are in; committed with the rest, or removed (on any error
    # or Ctrl-C) when the block ends
    with FilesAhead(args.out) as ahead, FiguresAhead() as figures:

        def ready(curves: Any) -> None:  # the workers are forked: threads may start
            figures.load_modules()
            start_curve_files(ahead, curves, all_points=args.all_points)

        analysis = analyse(
            data, settings, progress=progress, curves_ready=ready, figures_ready=figures.start,
        )  # fmt: skip
        del data  # the analysis keeps what it needs
        trim_memory()
        paths = write_report(
            analysis, args.out, progress=progress, ahead=ahead, figures=figures,
            all_points=args.all_points,
        )  # fmt: skip
    progress.finish()
    _warn_worse_than_chance(analysis)
    if not args.quiet:
        print(f"Report written to {paths['report']}")


def _warn_worse_than_chance(analysis: Any) -> None:
    """On stderr, also with --quiet: each scorer significantly worse than chance (the page and
    summary.json say the same)."""
    from ._reporting.render._chance import chance_warnings

    for line in chance_warnings(analysis):
        print(f"prcurve: warning: {line}", file=sys.stderr)


def main(argv: Sequence[str] | None = None, *, stdin: TextIO | BinaryIO | None = None) -> int:
    """Run the ``prcurve`` command line; return the exit status.

    Parameters
    ----------
    argv : sequence of str, optional
        Arguments without the program name (default: ``sys.argv[1:]``).
    stdin : file, optional
        Where ``-`` reads from (default: ``sys.stdin``).
    """
    try:
        return _main(argv, stdin)
    except KeyboardInterrupt:  # Ctrl-C anywhere: one line, status 130, no partial output
        print("prcurve: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED


def run() -> int:
    """The ``prcurve`` program (its console script and ``python -m prcurve``): :func:`main` on
    ``sys.argv``, then the process is left to end.

    Once the command is done, every object left is frozen (``gc.freeze``): the interpreter's
    exit then frees them without the collector's last full passes over them, about 0.2 s after
    a report on 10⁶ rows (every file is closed by then, and the standard streams are flushed
    by the exit).  Only for the program: a caller of :func:`main` keeps its collector.
    """
    import gc

    status = main()
    gc.freeze()
    return status


def _main(argv: Sequence[str] | None, stdin: TextIO | BinaryIO | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) and usage errors (2)
        return int(exc.code or 0)
    from ._reporting._memory import single_blas_thread

    single_blas_thread()  # before numpy loads (just below): its BLAS on one thread
    from ._reporting._interrupts import interrupts_deferred

    with interrupts_deferred():  # NumPy loads here: a Ctrl-C is raised after it has
        from ._reporting.input._io import InputError
        from ._reporting.output._output import OutputError

    try:
        if args.command == "report":
            return _run_report(args, command_parser(parser, "report"), stdin or sys.stdin)
        if args.command == "population":
            return _run_population(args)
        if args.command == "simulate":
            return _run_simulate(args)
        if args.command == "plan":
            from ._plan_cli import run_plan

            return run_plan(args, command_parser(parser, "plan"))
    except SystemExit as exc:
        return int(exc.code or 0)
    except (InputError, OutputError) as exc:
        print(f"prcurve: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    parser.error(f"unknown command {args.command!r}")
    return EXIT_USAGE  # not reached
