"""Running ``prcurve report`` for the multiclass and cross-validation shapes (``--score-prefix``,
``--multiclass``, ``--fold``): which options each shape supports, and the run itself.

Every ``report`` option either works on these shapes or is refused here with one line naming
it (exit status 1, before anything is read or written); none is silently dropped.
"""

from __future__ import annotations

import argparse
from typing import Any, BinaryIO, TextIO

from .input._io import InputError
from .pipeline import ENGINE_ONLY, engines_text

__all__ = ["refused_options", "run_multi_report"]

#: Report options these shapes do not support, and why (the line printed when one is given).
_REFUSED = {
    "cost_ratio": ("--cost-ratio", "the threshold choice is made for one binary problem"),
    "top_k": ("--top-k", "the threshold choice is made for one binary problem"),
    "prevalence_count": (
        "--prevalence-count",
        "an estimated prevalence is carried into intervals only by the binary report; use "
        "--prevalence",
    ),
}


def _shape(args: argparse.Namespace) -> str:
    multiclass = bool(args.score_prefix or args.multiclass)
    if multiclass and args.fold:
        return "multiclass cross-validation (--fold)"
    return "multiclass" if multiclass else "cross-validation (--fold)"


def refused_options(args: argparse.Namespace) -> list[str]:
    """One line per option given that the report's shape refuses (empty: all supported)."""
    shape = _shape(args)
    lines = [
        f"{flag}: not supported by a {shape} report ({why})"
        for key, (flag, why) in _REFUSED.items()
        if getattr(args, key, None) is not None
    ]
    if args.engine in ("dask", "spark"):
        lines.append(
            f"--engine {args.engine}: not supported by a {shape} report; use --engine memory"
        )
    for flag, key, engines in ENGINE_ONLY:
        if getattr(args, key, None) is not None:
            lines.append(
                f"{flag}: used only by {engines_text(engines)}, which a {shape} report does not use"
            )
    if getattr(args, "memory_budget", None) is not None:
        lines.append(
            f"--memory-budget: steers only the binary report's --engine auto, which a {shape} "
            "report does not use (it reads in memory); drop --memory-budget"
        )
    if args.pos_label is not None and (args.score_prefix or args.multiclass):
        lines.append(
            f"--pos-label: a {shape} report has no single positive class (each class is "
            "positive in turn, one against the rest); drop --pos-label"
        )
    if args.fold and getattr(args, "seed", None) is not None:
        lines.append(
            f"--seed: a {shape} report does not resample (its intervals are Student-t over "
            "folds); drop --seed"
        )
    if getattr(args, "jobs", None) is not None:
        lines.append(f"--jobs: a {shape} report runs in one process; drop --jobs")
    if args.fold and args.n_resamples != "auto":
        lines.append(
            f"--n-resamples: a {shape} report has no bootstrap (its intervals are Student-t "
            "over folds); drop --n-resamples"
        )
    return lines


def _targets(args: argparse.Namespace) -> tuple[tuple[str, float], ...]:
    from .analysis._operating import DEFAULT_MIN_PRECISION, DEFAULT_MIN_RECALL

    precision = DEFAULT_MIN_PRECISION if args.min_precision is None else args.min_precision
    recall = DEFAULT_MIN_RECALL if args.min_recall is None else args.min_recall
    return (
        *(("min_precision", float(p)) for p in precision),
        *(("min_recall", float(r)) for r in recall),
    )


def run_multi_report(
    args: argparse.Namespace, parser: argparse.ArgumentParser, stdin: TextIO | BinaryIO,
    progress: Any, check_output: Any,
) -> dict[str, str]:  # fmt: skip
    """Check the options, read the file and write the report; return the written paths.

    ``check_output()`` checks the output directory (the CLI's own check) before reading.
    """
    from ._interrupts import interrupts_deferred

    with interrupts_deferred():  # a Ctrl-C while modules load: raised after (see _interrupts)
        from ._cv_report import write_cv_report
        from ._multi_report import MultiOptions, write_multiclass_report
        from .analysis._analysis import auto_resamples
        from .input._multi_input import read_multi_input

    multiclass = bool(args.score_prefix or args.multiclass)
    if args.file is None or not args.label:
        parser.error("--score-prefix, --multiclass and --fold need FILE and --label COL")
    if args.score_prefix and args.score:
        parser.error("give either --score-prefix or --score columns, not both")
    if not args.score_prefix and not args.score:
        parser.error("--score COL (or --score-prefix PREFIX) is required")
    for line in refused_options(args):
        raise InputError(line)
    check_output()
    progress.start("reading")
    data = read_multi_input(
        args.file, args.label, scores=args.score or (), score_prefix=args.score_prefix,
        fold=args.fold, stdin=stdin, weight=args.weight, sep=args.sep, encoding=args.encoding,
    )  # fmt: skip
    progress(1, 1)
    n_res = auto_resamples(data.labels.shape[0] * len(data.scores))
    opts = MultiOptions(
        level=args.level, n_resamples=n_res if args.n_resamples == "auto" else args.n_resamples,
        seed=args.seed or 0, targets=_targets(args), prevalence=args.prevalence, weight=args.weight,
        all_points=args.all_points,
    )  # fmt: skip
    cut = len(args.score_prefix or "")
    classes = [c[cut:] for c in data.scores] if multiclass else None
    if args.fold:
        return write_cv_report(
            data, args.label, args.fold, args.out, pos_label=args.pos_label,
            class_names=classes, options=opts, progress=progress,
        )  # fmt: skip
    assert classes is not None
    return write_multiclass_report(
        data, args.label, args.out, class_names=classes, options=opts, progress=progress
    )
