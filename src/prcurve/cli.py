"""The ``prcurve`` command line.

Exit status: 0 on success, 1 for bad input (a one-line message on stderr, and no partial
output), 2 for wrong usage (argparse's message).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, BinaryIO, TextIO

from . import __version__

__all__ = ["main"]

EXIT_OK, EXIT_INPUT, EXIT_USAGE, EXIT_INTERRUPTED = 0, 1, 2, 130

#: ``sorted(prcurve.cases.CASES)``, written out so that building the parser (``--help``) does
#: not import SciPy; a test keeps the two equal.
CASE_NAMES = ("A", "A_star", "B", "C", "D", "E", "F")

DESCRIPTION = """\
Precision-recall analysis from the command line.

  prcurve report                      the full report on the built-in example
  prcurve report scores.csv --label y --score model_a --score model_b
  prcurve population --case A --case D --prevalence 1/11
  prcurve simulate --case A --prevalence 1/11 --n 100 --n 500 --replicates 5000
"""

POPULATION_HELP = """\
Population ROC and PR curves of Hughes-Oliver's score models (Cases A, A_star, B-F): score
densities, the ROC curve and the PR curve at each prevalence, with the chance line and the
achievable lower bound.  Writes report.html, summary.json, population.png and curves/*.csv.
"""

SIMULATE_HELP = """\
Small-sample behaviour of the functional PR estimator PR^(x) under one of the paper's cases
(Hughes-Oliver Figures 7-11): replicate samples of size n, histograms of PR^(x) at each recall
x, the normal approximation with the corrected variance, bias and n*Var against sigma^2(x).
Writes report.html, summary.json, simulation.png and estimates/*.csv.
"""

REPORT_HELP = """\
Read labels and one or more score columns from a CSV file (or Parquet, or '-' for CSV on
standard input) and write a report: for every score column the PR, ROC and
precision-recall-gain curves, the achievable PR curve, every AUC-PR estimator with confidence
intervals and a simultaneous confidence band; with several score columns, a paired comparison
of every pair; and figures of it all.

Without FILE the report is made for the built-in example: real handwritten digits
(scikit-learn's bundled copy of the UCI digits), "is it a 9?" with 3.6 % positives, scored by
three models.

Output, in --out (default ./prcurve-report): report.html (one self-contained page),
summary.json (every number in the page) and curves/*.csv (every operating point; summary.json
lists each scorer's files).  Only these files are replaced; nothing else in DIR is touched.

How CSV input is read:
  compression  gzip, bzip2 and xz, recognised by their magic bytes (any name, also stdin)
  encoding     UTF-8 (a byte-order mark is dropped) unless --encoding, e.g. latin-1, cp1252
  line ends    \n, \r\n and \r, mixed freely; empty lines are skipped
  delimiter    --sep, else comma, semicolon or tab: whichever splits the header line into
               the most fields (comma on a tie)
  quoting      double quotes (RFC 4180): a quoted field may hold the delimiter, line breaks
               and doubled quotes ""; an unclosed quote or text after a closing quote is an
               error
  fields       spaces around values are ignored; every row has as many fields as the
               header (an extra or a missing field is an error); other columns are ignored
  numbers      a decimal point, not a comma; scores and weights finite, weights >= 0
Every problem is one line naming the file, the line and what is wrong (exit status 1).
"""


class _Parser(argparse.ArgumentParser):
    """argparse with exit status 2 for every usage error (its default) and tidy help."""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected an integer >= 1, got {value}")
    return value


def _resamples(text: str) -> int | str:
    if text == "auto":
        return text
    value = _positive_int(text)
    if value < 2:
        raise argparse.ArgumentTypeError(f"expected 'auto' or an integer >= 2, got {value}")
    return value


def _prevalence(text: str) -> float:
    from fractions import Fraction

    try:
        value = float(Fraction(text.strip()))
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(
            f"expected a number or fraction in (0, 1) such as 0.2 or 1/11, got {text!r}"
        ) from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"expected a prevalence in (0, 1), got {text}")
    return value


def _recall_list(text: str) -> list[float]:
    try:
        values = [float(v) for v in text.split(",") if v.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated numbers in (0, 1], got {text!r}"
        ) from None
    if not values or not all(0.0 < v <= 1.0 for v in values):
        raise argparse.ArgumentTypeError(
            f"expected comma-separated numbers in (0, 1], got {text!r}"
        )
    return sorted(set(values))


def _target_list(text: str) -> tuple[float, ...]:
    if text.strip().lower() == "none":
        return ()
    return tuple(_recall_list(text))


def _count_pair(text: str) -> tuple[int, int]:
    try:
        k, m = (int(v) for v in text.split("/"))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected counts K/M such as 12/10000, got {text!r}"
        ) from None
    if not 0 < k < m:
        raise argparse.ArgumentTypeError(f"expected counts K/M with 0 < K < M, got {text!r}")
    return k, m


def _size(text: str) -> int:
    value = _positive_int(text)
    if value < 2:
        raise argparse.ArgumentTypeError(f"expected an integer >= 2, got {value}")
    return value


def _level(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"expected a number in (0, 1), got {text}")
    return value


def _separator(text: str) -> str:
    sep = {"tab": "\t", "\\t": "\t", "semicolon": ";", "comma": ","}.get(text.lower(), text)
    if len(sep) != 1 or sep in '"\r\n':
        raise argparse.ArgumentTypeError(
            f"expected one character other than a quote or line break, or 'tab', got {text!r}"
        )
    return sep


def _encoding(text: str) -> str:
    import codecs

    try:
        info = codecs.lookup(text)
    except LookupError:
        raise argparse.ArgumentTypeError(
            f"expected a text encoding such as utf-8, latin-1 or cp1252, got {text!r}"
        ) from None
    if not getattr(info, "_is_text_encoding", True):
        raise argparse.ArgumentTypeError(f"expected a text encoding, got {text!r}")
    return info.name


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a non-negative integer, got {value}")
    return value


def _add_engine_options(rep: argparse.ArgumentParser) -> None:
    """``--engine`` and the options of the Dask engine (data larger than memory)."""
    rep.add_argument(
        "--engine",
        choices=("auto", "memory", "dask"),
        default="auto",
        help="memory: read all rows; dask: exact curves and areas out of core with Dask "
        "(FILE may then be a directory or a glob of Parquet files), resampling parts on a "
        "uniform subsample; auto (default): dask for a directory, a glob or files larger than "
        "--memory-budget",
    )
    rep.add_argument(
        "--memory-budget",
        type=_positive_int,
        default=512,
        metavar="MB",
        help="input size on disk above which --engine auto uses Dask (default: 512)",
    )
    rep.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        default=None,
        help="Dask engine: a dask.distributed scheduler address (tcp://host:8786), or "
        "threads/processes/sync (default: Dask's local threaded scheduler)",
    )
    rep.add_argument(
        "--subsample",
        type=_size,
        default=None,
        metavar="N",
        help="Dask engine: rows of the uniform subsample for the bootstrap interval, band and "
        "comparisons (default: 200000)",
    )
    rep.add_argument(
        "--workdir",
        metavar="DIR",
        default=None,
        help="Dask engine: where the sorted distinct scores are kept between passes (default: a "
        "temporary directory; with --scheduler ADDRESS, the workers' memory)",
    )


def _engine(args: argparse.Namespace) -> str:
    if args.engine != "auto":
        return args.engine
    if args.file is None or args.file == "-":
        return "memory"
    from ._reporting._io import input_bytes, is_collection

    if not is_collection(args.file):
        if input_bytes(args.file) <= args.memory_budget * 2**20:
            return "memory"
        try:  # a big file without the dask extra: the in-memory engine still works
            import dask  # noqa: F401
        except ImportError:
            return "memory"
    return "dask"


def _run_report_dask(args: argparse.Namespace, progress: Any, settings: Any) -> Any:
    """The report's analysis on the Dask engine (``prcurve._reporting._dask``)."""
    from ._reporting._dask import DEFAULT_SUBSAMPLE, analyse_dask
    from ._reporting._io import InputError

    if args.weight:
        raise InputError("--weight: not supported by --engine dask yet; use --engine memory")

    try:
        import dask  # noqa: F401
    except ImportError:
        raise InputError(
            "--engine dask needs Dask; install it with 'pip install prcurve[dask]'"
        ) from None
    from .dask._curve import scheduler_context

    # a scheduler address: a cluster, whose workers may not share this machine's temp folder
    cluster = args.scheduler if args.scheduler and ":" in args.scheduler else None
    try:
        with scheduler_context(args.scheduler):
            return analyse_dask(
                args.file,
                args.label,
                args.score,
                settings,
                pos_label=args.pos_label,
                subsample=args.subsample or DEFAULT_SUBSAMPLE,
                n_resamples=None if args.n_resamples == "auto" else args.n_resamples,
                workdir=args.workdir or (None if cluster is None else "memory"),
                sep=args.sep,
                encoding=args.encoding,
                progress=progress,
            )
    except OSError as exc:  # e.g. no scheduler at the address
        raise InputError(f"--scheduler {args.scheduler}: {exc}") from None


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``prcurve`` (all subcommands)."""
    parser = _Parser(
        prog="prcurve",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'prcurve COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"prcurve {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    rep = sub.add_parser(
        "report",
        help="curves, AUC-PR estimates and figures for score columns of a file",
        description=REPORT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rep.add_argument(
        "file",
        nargs="?",
        metavar="FILE",
        help="CSV or Parquet (.parquet/.pq) file, or '-' for CSV on stdin; "
        "omit it to use the built-in example",
    )
    rep.add_argument("--label", metavar="COL", help="column of class labels (two classes)")
    rep.add_argument(
        "--score",
        metavar="COL",
        action="append",
        help="column of scores, larger = more likely positive; repeat for several scorers",
    )
    rep.add_argument(
        "--weight",
        metavar="COL",
        help="column of sample weights (>= 0): importance weights for the curves, areas, "
        "intervals and comparisons (the page says what does not use them)",
    )
    rep.add_argument(
        "--sep",
        type=_separator,
        metavar="CHAR",
        help="CSV delimiter: one character, or 'tab' (default: detected: comma, semicolon or tab)",
    )
    rep.add_argument(
        "--encoding",
        type=_encoding,
        metavar="NAME",
        help="text encoding of the CSV file, e.g. latin-1 or cp1252 (default: utf-8)",
    )
    rep.add_argument(
        "--pos-label",
        metavar="VALUE",
        help="label of the positive class (needed unless labels are 0/1, -1/1, true/false, yes/no)",
    )
    rep.add_argument(
        "--out",
        metavar="DIR",
        default="prcurve-report",
        help="output directory (default: ./prcurve-report); created if needed, and only the "
        "report's own files in it are replaced",
    )
    rep.add_argument(
        "--seed",
        type=_seed,
        default=0,
        metavar="N",
        help="random seed of the bootstrap (default: 0)",
    )
    rep.add_argument(
        "--n-resamples",
        type=_resamples,
        default="auto",
        metavar="N",
        help="bootstrap resamples for intervals, bands and comparisons (default: auto = up to "
        "1000 each, sized per step; on large data each step resamples a stratified subsample "
        "with 200 and rescales its widths; the report says what each step used)",
    )
    rep.add_argument(
        "--level",
        type=_level,
        default=0.95,
        help="confidence level of intervals and bands (default: 0.95)",
    )
    rep.add_argument(
        "--jobs",
        type=_positive_int,
        default=None,
        metavar="N",
        help="processes for the bootstrap on large data (default: the available CPUs)",
    )
    rep.add_argument(
        "--min-precision",
        type=_target_list,
        default=None,
        metavar="P,P,...",
        help="operating-point table: the highest-recall threshold with precision >= each P "
        "(default: 0.5,0.8,0.9; 'none' for no such rows)",
    )
    rep.add_argument(
        "--min-recall",
        type=_target_list,
        default=None,
        metavar="R,R,...",
        help="operating-point table: the highest-precision threshold with recall >= each R "
        "(default: 0.5,0.8,0.9; 'none' for no such rows)",
    )
    deploy = rep.add_mutually_exclusive_group()
    deploy.add_argument(
        "--prevalence",
        type=_prevalence,
        default=None,
        metavar="PI",
        help="deployment prevalence, e.g. 0.001 or 1/1000, treated as known: also show the PR "
        "curves, AUC-PR and operating points at PI (negatives reweighted; true- and "
        "false-positive rates kept)",
    )
    deploy.add_argument(
        "--prevalence-count",
        type=_count_pair,
        default=None,
        metavar="K/M",
        help="like --prevalence K/M, but the prevalence was estimated from K positives among M "
        "deployment cases: the intervals include its uncertainty",
    )
    rep.add_argument("--quiet", action="store_true", help="no progress bar and no final message")
    _add_engine_options(rep)
    _add_multi_options(rep)

    pop = sub.add_parser(
        "population",
        help="population ROC and PR curves of the papers' score models",
        description=POPULATION_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    pop.add_argument(
        "--case",
        action="append",
        choices=CASE_NAMES,
        required=True,
        help="score model (repeat to overlay several)",
    )
    pop.add_argument(
        "--prevalence",
        action="append",
        type=_prevalence,
        metavar="P",
        help="prevalence of a PR panel, e.g. 1/11 (repeatable; default: 1/2 and 1/11)",
    )
    pop.add_argument(
        "--out",
        metavar="DIR",
        default="prcurve-population",
        help="output directory (default: ./prcurve-population)",
    )
    pop.add_argument("--quiet", action="store_true", help="no progress and no final message")

    sim = sub.add_parser(
        "simulate",
        help="simulation study of the empirical PR estimator under a score model",
        description=SIMULATE_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sim.add_argument("--case", choices=CASE_NAMES, required=True, help="score model")
    sim.add_argument(
        "--prevalence",
        type=_prevalence,
        default=1 / 11,
        metavar="P",
        help="prevalence, e.g. 1/11 (default: 1/11)",
    )
    sim.add_argument(
        "--n",
        type=_size,
        action="append",
        required=True,
        metavar="N",
        help="sample size n = n+ + n- (repeat for several rows of panels)",
    )
    sim.add_argument(
        "--replicates",
        type=_size,
        default=5000,
        metavar="R",
        help="Monte Carlo replicates per sample size (default: 5000)",
    )
    sim.add_argument(
        "--recall",
        type=_recall_list,
        default=None,
        metavar="X,X,...",
        help="recall levels (default: 0.1,0.2,...,1)",
    )
    sim.add_argument(
        "--class-counts",
        choices=("binomial", "fixed"),
        default="binomial",
        help="n+ ~ Binomial(n, prevalence) as in the paper (default), or fixed at n*prevalence",
    )
    sim.add_argument("--seed", type=_seed, default=0, metavar="N", help="random seed (default: 0)")
    sim.add_argument(
        "--out",
        metavar="DIR",
        default="prcurve-simulation",
        help="output directory (default: ./prcurve-simulation)",
    )
    sim.add_argument("--quiet", action="store_true", help="no progress and no final message")
    return parser


def _run_population(args: argparse.Namespace) -> int:
    from ._reporting._io import check_writable
    from ._reporting._population import write_population
    from ._reporting._progress import ProgressBar

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
    from ._reporting._io import check_writable
    from ._reporting._population import write_simulation
    from ._reporting._progress import ProgressBar

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


def _operating_settings(args: argparse.Namespace) -> dict[str, Any]:
    """``Settings`` fields of the operating-point table and the deployment prevalence."""
    out: dict[str, Any] = {"prevalence": args.prevalence_count or args.prevalence}
    if args.min_precision is not None:
        out["min_precision"] = args.min_precision
    if args.min_recall is not None:
        out["min_recall"] = args.min_recall
    return out


def _add_multi_options(rep: argparse.ArgumentParser) -> None:
    """Options of the multiclass and cross-validation reports (issue 15)."""
    group = rep.add_argument_group(
        "multiclass and cross-validation reports",
        "one-vs-rest curves with macro/weighted/micro AUC-PR, or fold curves with their "
        "vertical average (these read FILE with pandas)",
    )
    group.add_argument(
        "--score-prefix",
        metavar="PREFIX",
        help="multiclass: every column named PREFIX<class> holds the scores of <class> "
        "(e.g. --score-prefix p_ for p_cat, p_dog, ...)",
    )
    group.add_argument(
        "--multiclass",
        action="store_true",
        help="multiclass: the --score columns are per-class scores, each named by its class",
    )
    group.add_argument(
        "--fold",
        metavar="COL",
        help="cross-validation: column of fold ids; the scores are out-of-fold predictions",
    )


def _run_multi_report(
    args: argparse.Namespace, parser: argparse.ArgumentParser, stdin: TextIO | BinaryIO
) -> int:
    from ._reporting._analysis import auto_resamples
    from ._reporting._io import check_writable
    from ._reporting._multi_input import read_multi_input
    from ._reporting._multi_report import write_cv_report, write_multiclass_report
    from ._reporting._progress import ProgressBar

    multiclass = bool(args.score_prefix or args.multiclass)
    if args.file is None or not args.label:
        parser.error("report: --score-prefix, --multiclass and --fold need FILE and --label COL")
    if args.score_prefix and args.score:
        parser.error("report: give either --score-prefix or --score columns, not both")
    if not args.score_prefix and not args.score:
        parser.error("report: --score COL (or --score-prefix PREFIX) is required")
    if multiclass and args.fold:
        parser.error("report: --fold cannot be combined with a multiclass report yet")
    progress = ProgressBar(enabled=not args.quiet)
    check_writable(args.out)
    progress.start("reading")
    data = read_multi_input(
        args.file, args.label, scores=args.score or (), score_prefix=args.score_prefix,
        fold=args.fold, stdin=stdin, weight=getattr(args, "weight", None),
        sep=getattr(args, "sep", None), encoding=getattr(args, "encoding", None),
    )  # fmt: skip
    progress(1, 1)
    if multiclass:
        cut = len(args.score_prefix or "")
        n_res = auto_resamples(data.labels.shape[0] * len(data.scores))
        paths = write_multiclass_report(
            data, args.label, args.out, class_names=[c[cut:] for c in data.scores],
            level=args.level, n_resamples=n_res if args.n_resamples == "auto" else args.n_resamples,
            seed=args.seed, progress=progress,
        )  # fmt: skip
    else:
        paths = write_cv_report(
            data, args.label, args.fold, args.out, pos_label=args.pos_label, level=args.level,
            progress=progress,
        )  # fmt: skip
    progress.finish()
    if not args.quiet:
        print(f"Report written to {paths['report']}")
    return EXIT_OK


def _run_report(
    args: argparse.Namespace, parser: argparse.ArgumentParser, stdin: TextIO | BinaryIO
) -> int:
    if args.score_prefix or args.multiclass or args.fold:
        return _run_multi_report(args, parser, stdin)
    from ._reporting._io import BUILTIN_EXAMPLE, check_writable, read_labelled_scores
    from ._reporting._progress import ProgressBar

    if args.file is None:
        label = args.label or BUILTIN_EXAMPLE.label
        scores = args.score or list(BUILTIN_EXAMPLE.scores)
    else:
        if not args.label or not args.score:
            parser.error("report: with FILE, --label COL and at least one --score COL are required")
        label, scores = args.label, args.score
    from ._reporting._memory import lean_report_memory

    lean_report_memory()  # large freed arrays go back to the system
    progress = ProgressBar(enabled=not args.quiet)
    check_writable(args.out)
    if args.file is not None and _engine(args) == "dask":
        from ._reporting._analysis import Settings, available_cpus
        from ._reporting._write import write_report

        settings = Settings(
            source=args.file, label=label, scores=tuple(scores), positive_label="",
            level=args.level, n_resamples_auto=args.n_resamples == "auto",
            jobs=args.jobs or available_cpus(), seed=args.seed, out=args.out,
        )  # fmt: skip
        analysis = _run_report_dask(args, progress, settings)
        paths = write_report(analysis, args.out, progress=progress)
        progress.finish()
        if not args.quiet:
            print(f"Report written to {paths['report']}")
        return EXIT_OK
    progress.start("reading")
    data = read_labelled_scores(
        args.file,
        label,
        scores,
        pos_label=args.pos_label,
        stdin=stdin,
        weight=args.weight,
        sep=args.sep,
        encoding=args.encoding,
    )
    progress(1, 1)
    # imported only now, so that a bad input fails without waiting for SciPy
    from ._reporting._analysis import Settings, analyse, auto_resamples, available_cpus
    from ._reporting._write import write_report

    settings = Settings(
        source=data.source,
        label=label,
        scores=tuple(scores),
        positive_label=data.positive_label,
        level=args.level,
        n_resamples=auto_resamples(data.n) if args.n_resamples == "auto" else args.n_resamples,
        n_resamples_auto=args.n_resamples == "auto",
        jobs=args.jobs or available_cpus(),
        seed=args.seed,
        out=args.out,
        weight=args.weight,
        **_operating_settings(args),
    )
    analysis = analyse(data, settings, progress=progress)
    paths = write_report(analysis, args.out, progress=progress)
    progress.finish()
    if not args.quiet:
        print(f"Report written to {paths['report']}")
    return EXIT_OK


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


def _main(argv: Sequence[str] | None, stdin: TextIO | BinaryIO | None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help, --version (0) and usage errors (2)
        return int(exc.code or 0)
    from ._reporting._io import InputError, OutputError

    try:
        if args.command == "report":
            return _run_report(args, parser, stdin or sys.stdin)
        if args.command == "population":
            return _run_population(args)
        if args.command == "simulate":
            return _run_simulate(args)
    except SystemExit as exc:
        return int(exc.code or 0)
    except (InputError, OutputError) as exc:
        print(f"prcurve: error: {exc}", file=sys.stderr)
        return EXIT_INPUT
    parser.error(f"unknown command {args.command!r}")
    return EXIT_USAGE  # not reached
