"""The argument parser of the ``prcurve`` command (options, their types, the help texts).

Kept apart from :mod:`prcurve.cli`, which runs the commands; building the parser imports nothing
heavy, so ``prcurve --help`` and usage errors stay fast.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any, NoReturn

from . import __version__

__all__ = ["CASE_NAMES", "build_parser", "command_parser"]

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

#: Backslashes doubled: the "line ends" row prints the escapes \n, \r\n and \r, not line breaks.
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
summary.json (every number in the page) and curves/*.csv (the operating points, thinned above
100,000 unless --all-points; summary.json lists each scorer's files and docs/guide/
report-files.md every file of each report shape).  Only these files are replaced; nothing
else in DIR is touched.

How CSV input is read:
  compression  gzip, bzip2 and xz, recognised by their magic bytes (any name, also stdin)
  encoding     UTF-8 (a byte-order mark is dropped) unless --encoding, e.g. latin-1, cp1252
  line ends    \\n, \\r\\n and \\r, mixed freely; empty lines are skipped
  delimiter    --sep, else comma, semicolon or tab: whichever splits the header line into
               the most fields (comma on a tie)
  quoting      double quotes (RFC 4180): a quoted field may hold the delimiter, line breaks
               and doubled quotes ""; an unclosed quote or text after a closing quote is an
               error
  fields       spaces and tabs around values are ignored; every row has as many fields
               as the header (an extra or a missing field is an error); fields of any
               length; other columns are ignored; a NUL character is an error
  numbers      ASCII: [+-] digits [. digits] [e [+-] digits] (also .5 and 5.; E for e),
               e.g. 0.25, -3, 1e-05; inf and nan are read, but scores and weights must be
               finite and weights >= 0; no decimal comma, no digit separators (1_000,
               1,000), no other digits or spaces
  labels       compared as numbers when every label is a number (1 and 1.0 are one class)
Every problem is one line naming the file, the line and what is wrong (exit status 1).
"""


class _Parser(argparse.ArgumentParser):
    """argparse with exit status 2 for every usage error (its default) and tidy help.

    A usage error is two lines: ``prcurve report: error: <what to fix>`` and where to read
    more, instead of argparse's usage block (nine lines for ``report``) before the one useful
    line.  Arguments a command does not know are that command's error, not the top level's.
    """

    #: The parsers of the subcommands, by name (empty on a subcommand's own parser).
    commands: dict[str, argparse.ArgumentParser]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = {}

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message}\nRun '{self.prog} --help' for usage.\n")

    def parse_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> argparse.Namespace:
        parsed, extra = self.parse_known_args(args, namespace)
        if extra:
            where = self.commands.get(getattr(parsed, "command", None) or "", self)
            where.error(f"unrecognized arguments: {' '.join(extra)}")
        return parsed


def command_parser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    """The parser of subcommand ``name`` of :func:`build_parser`'s parser (for its errors)."""
    return parser.commands[name] if isinstance(parser, _Parser) else parser


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


def _cost_ratio(text: str) -> float:
    from fractions import Fraction

    try:
        value = float(Fraction(text.strip()))
    except (ValueError, ZeroDivisionError):
        raise argparse.ArgumentTypeError(
            f"expected a cost ratio c_FP/c_FN > 0 such as 0.1 or 1/20, got {text!r}"
        ) from None
    if not 0.0 < value < float("inf"):
        raise argparse.ArgumentTypeError(f"expected a cost ratio c_FP/c_FN > 0, got {text}")
    return value


def _top_k(text: str) -> int | float:
    expected = "an integer number of rows >= 1 or a fraction of the rows in (0, 1)"
    try:
        return _positive_int(text)
    except argparse.ArgumentTypeError:
        pass
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text!r}") from None
    if not 0.0 < value < 1.0:
        raise argparse.ArgumentTypeError(f"expected {expected}, got {text}")
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
    """``--engine`` and the options of the Dask and Spark engines (data larger than memory)."""
    rep.add_argument(
        "--engine",
        choices=("auto", "memory", "dask", "spark"),
        default="auto",
        help="memory: read all rows; dask: exact curves and areas out of core with Dask "
        "(FILE may then be a directory or a glob of Parquet files), resampling parts on a "
        "stratified subsample; spark: the same with Spark (--master; needs prcurve[spark] and "
        "Java); auto (default): dask for a directory, a glob or files larger than "
        "--memory-budget (never spark)",
    )
    rep.add_argument(
        "--memory-budget",
        type=_positive_int,
        default=None,  # None: not given (it only steers --engine auto; refused elsewhere)
        metavar="MB",
        help="--engine auto only: input size on disk above which it uses Dask (default: 512)",
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
        help="Dask and Spark engines: rows of the stratified subsample (each class in its "
        "proportion) the "
        "intervals, band and comparisons resample from, rescaled to all rows (default: 200000); "
        "at least enough rows for 1000 positives (what a resampling step needs), or all rows",
    )
    rep.add_argument(
        "--workdir",
        metavar="DIR",
        default=None,
        help="Dask engine: where the sorted distinct scores are kept between passes (default: a "
        "temporary directory; with --scheduler ADDRESS, the workers' memory)",
    )
    rep.add_argument(
        "--master",
        metavar="URL",
        default=None,
        help="Spark engine: the Spark master (spark://host:7077, yarn, local[4], ...; default: "
        "local[*], Spark in this process on every core); the session is stopped after the "
        "report",
    )


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``prcurve`` (all subcommands; each built by its own function)."""
    parser = _Parser(
        prog="prcurve",
        description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="Run 'prcurve COMMAND --help' for the options of a command.",
    )
    parser.add_argument("--version", action="version", version=f"prcurve {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    rep = _add_report_parser(sub)
    pop = _add_population_parser(sub)
    sim = _add_simulate_parser(sub)
    from ._plan_cli import add_plan_parser  # `prcurve plan` (issue 27 item 4), own module

    types = {"prevalence": _prevalence, "level": _level, "seed": _seed, "size": _size}
    plan = add_plan_parser(sub, types)
    parser.commands = {"report": rep, "population": pop, "simulate": sim, "plan": plan}
    return parser


def _add_report_parser(sub: Any) -> argparse.ArgumentParser:
    """``prcurve report`` and its options, group by group."""
    rep = sub.add_parser(
        "report",
        help="curves, AUC-PR estimates and figures for score columns of a file",
        description=REPORT_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _add_input_options(rep)
    _add_resampling_options(rep)
    _add_operating_options(rep)
    _add_output_options(rep)
    _add_engine_options(rep)
    _add_multi_options(rep)
    return rep


def _add_input_options(rep: argparse.ArgumentParser) -> None:
    """The data: FILE, its columns, how the CSV is read, the positive label."""
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
        help="label of the positive class (needed unless labels are 0/1, -1/1, true/false, "
        "yes/no; not with --score-prefix or --multiclass, where each class is positive in turn)",
    )


def _add_resampling_options(rep: argparse.ArgumentParser) -> None:
    """Seed, resamples, confidence level and processes of the bootstrap."""
    rep.add_argument(
        "--seed",
        type=_seed,
        default=None,  # None: not given (refused by --fold reports, which do not resample)
        metavar="N",
        help="random seed of the bootstrap (default: 0; not with --fold, which does not resample)",
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
        help="processes for the bootstrap on large data (default: one fewer than the available "
        "CPUs, at least one: the main process keeps a CPU for the page's figures and files)",
    )


def _add_operating_options(rep: argparse.ArgumentParser) -> None:
    """Operating points, deployment prevalence and the threshold choice."""
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
    rep.add_argument(
        "--cost-ratio",
        type=_cost_ratio,
        default=None,
        metavar="R",
        help="cost of a false positive relative to a false negative, c_FP/c_FN (e.g. 0.05: a "
        "missed positive costs as much as 20 false alarms): the 'Choosing a threshold' section "
        "adds the threshold of least expected cost and its net benefit at p_t = R/(1+R), with "
        "intervals, at --prevalence if given (default with --prevalence alone: 1)",
    )
    rep.add_argument(
        "--top-k",
        type=_top_k,
        default=None,
        metavar="K",
        help="'Choosing a threshold' adds precision@K and recall@K with intervals: K rows "
        "(an integer) or a fraction of the rows (in (0, 1)); tied scores in random order",
    )


def _add_output_options(rep: argparse.ArgumentParser) -> None:
    """Where the report goes and what its curve files hold."""
    rep.add_argument(
        "--out",
        metavar="DIR",
        default="prcurve-report",
        help="output directory (default: ./prcurve-report); created if needed, and only the "
        "report's own files in it are replaced",
    )
    rep.add_argument(
        "--all-points",
        action="store_true",
        help="curve files with every operating point, and a Parquet file of each curve "
        "(default: curves of more than 100,000 points are thinned, keeping both ends and every "
        "ROC convex hull vertex; the page and summary.json give the precision-error bound)",
    )
    rep.add_argument("--quiet", action="store_true", help="no progress bar and no final message")


def _add_population_parser(sub: Any) -> argparse.ArgumentParser:
    """``prcurve population``."""
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
    return pop


def _add_simulate_parser(sub: Any) -> argparse.ArgumentParser:
    """``prcurve simulate``."""
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
    return sim


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
