"""``prcurve plan``: sample size for an AP interval, and power of a paired AP comparison.

Kept apart from :mod:`prcurve._cli_parser` and :mod:`prcurve.cli` (each has a two-line hook):
:func:`add_plan_parser` adds the subcommand (importing nothing heavy, so ``--help`` stays
fast) and :func:`run_plan` runs it with :func:`prcurve.plan_ap_precision`,
:func:`prcurve.ap_half_width` and :func:`prcurve.plan_ap_power`, printing small tables whose
every number carries its Monte Carlo error.
"""

from __future__ import annotations

import argparse
import math
from typing import Any

__all__ = ["add_plan_parser", "run_plan"]

PLAN_HELP = """\
Plan a study of average precision (AP) by simulation, from an assumed binormal model
(--binormal-shift D: positives N(D, 1), negatives N(0, 1)) or a binormal fit to pilot data
(--pilot FILE --label COL --score COL).  Every study simulated has the planned number of
positives and negatives at the model's prevalence.

  how many positives for AP +-0.05?
    prcurve plan --binormal-shift 1.5 --prevalence 0.05 --half-width 0.05
  the half-width at given sizes:
    prcurve plan --binormal-shift 1.5 --prevalence 0.05 --n-pos 200 --n-pos 400
  power to tell two paired scorers apart (AP difference 0.05, score correlation 0.5):
    prcurve plan --binormal-shift 1.5 --prevalence 0.05 --difference 0.05 \\
        --correlation 0.5 --n-pos 300 --n-pos 600
  from pilot data (two score columns: power of their comparison):
    prcurve plan --pilot pilot.csv --label y --score a --half-width 0.05

The two scores of a case are joined by a Gaussian copula (bivariate binormal) with correlation
--correlation in each class; with two pilot score columns it is estimated from their
within-class Spearman correlation.  Each simulated comparison is a two-sided Wald test with
the paired influence-function standard error.
"""


def _number(low: float, high: float, what: str) -> Any:
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None
        if not (math.isfinite(value) and low < value < high):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text}")
        return value

    return parse


def _replicates(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected an integer >= 10, got {text!r}") from None
    if value < 10:
        raise argparse.ArgumentTypeError(f"expected an integer >= 10, got {value}")
    return value


def add_plan_parser(sub: Any, types: dict[str, Any]) -> argparse.ArgumentParser:
    """Add ``plan`` to the subparsers ``sub``; ``types`` are the parser's shared option types
    (``prevalence``, ``level``, ``seed``, ``size``)."""
    plan = sub.add_parser(
        "plan",
        help="sample size for an AP interval, or power of a paired AP comparison",
        description=PLAN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    model = plan.add_argument_group("model (one of)")
    model.add_argument(
        "--binormal-shift",
        type=_number(-1e6, 1e6, "a number"),
        metavar="D",
        help="positives N(D, 1), negatives N(0, 1) (needs --prevalence)",
    )
    model.add_argument("--pilot", metavar="FILE", help="pilot data (CSV or Parquet)")
    model.add_argument("--label", metavar="COL", help="pilot label column")
    model.add_argument(
        "--score",
        metavar="COL",
        action="append",
        default=[],
        help="pilot score column (twice: the two scorers to compare)",
    )
    model.add_argument(
        "--prevalence",
        type=types["prevalence"],
        metavar="P",
        help="prevalence of the planned study (default with --pilot: the pilot's)",
    )
    goal = plan.add_argument_group("what to plan")
    goal.add_argument(
        "--half-width",
        type=_number(0, 1, "a half-width in (0, 1)"),
        metavar="H",
        help="positives needed for an AP interval of +-H",
    )
    goal.add_argument(
        "--n-pos",
        type=types["size"],
        action="append",
        default=[],
        metavar="N",
        help="positives per study (repeat): half-width, or power, at each size",
    )
    goal.add_argument(
        "--level",
        type=types["level"],
        default=0.95,
        metavar="L",
        help="confidence level of the interval (default: 0.95)",
    )
    goal.add_argument(
        "--method",
        choices=("sampling", "binomial", "logit"),
        default="sampling",
        help="half-width of: z*SD(AP) (default), or Boyd's binomial / logit interval",
    )
    comp = plan.add_argument_group("power of a paired comparison (one of)")
    comp.add_argument(
        "--compare-shift",
        type=_number(-1e6, 1e6, "a number"),
        metavar="D2",
        help="second scorer: positives N(D2, 1) (with --binormal-shift)",
    )
    comp.add_argument(
        "--difference",
        type=_number(-1, 1, "a number in (-1, 1)"),
        metavar="D",
        help="AP difference to detect (the second scorer's positives shifted)",
    )
    comp.add_argument(
        "--correlation",
        type=_number(-1, 1, "a number in (-1, 1)"),
        metavar="R",
        help="correlation of the two scores of a case (default: 0, or estimated "
        "from two pilot score columns)",
    )
    comp.add_argument(
        "--alpha",
        type=types["level"],
        default=0.05,
        metavar="A",
        help="significance level of the two-sided test (default: 0.05)",
    )
    plan.add_argument(
        "--replicates",
        type=_replicates,
        default=2000,
        metavar="R",
        help="simulated studies per size (default: 2000)",
    )
    plan.add_argument(
        "--seed", type=types["seed"], default=0, metavar="N", help="random seed (default: 0)"
    )
    return plan


def _pilot_models(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[Any, ...]:
    """Binormal fits to the pilot's score columns, the correlation and a description."""
    import numpy as np
    from scipy import stats

    from . import fit_binormal
    from ._reporting.input._io import InputError, read_labelled_scores

    if not args.label or not args.score:
        parser.error("--pilot needs --label COL and --score COL")
    if len(args.score) > 2:
        parser.error(f"--score: expected one or two pilot score columns, got {len(args.score)}")
    data = read_labelled_scores(args.pilot, args.label, args.score)
    fits = []
    for col in args.score:
        try:
            fit = fit_binormal(data.y, data.scores[col])
        except ValueError as exc:
            raise InputError(f"{args.pilot}: --score {col}: no binormal fit ({exc})") from None
        fits.append(fit if args.prevalence is None else fit.with_prevalence(args.prevalence))
    rho = args.correlation
    if rho is None and len(fits) == 2:
        # Gaussian copula: ρ = 2 sin(π ρ_S / 6), within each class, weighted by class size
        parts = []
        for cls in (data.y, ~data.y):
            a, b = data.scores[args.score[0]][cls], data.scores[args.score[1]][cls]
            parts.append((cls.sum(), float(stats.spearmanr(a, b).statistic)))
        spearman = sum(n * r for n, r in parts) / sum(n for n, _ in parts)
        rho = float(np.clip(2 * np.sin(np.pi * spearman / 6), -0.999, 0.999))
    names = " and ".join(args.score)
    text = (
        f"binormal fit to {args.pilot} ({int(data.y.sum())} positives, "
        f"{int((~data.y).sum())} negatives), column{'s' if len(args.score) > 1 else ''} {names}"
    )
    return fits, rho, text


def _models(args: argparse.Namespace, parser: argparse.ArgumentParser) -> tuple[Any, ...]:
    from scipy import stats

    from . import PopulationModel

    if (args.binormal_shift is None) == (args.pilot is None):
        parser.error("give the model: either --binormal-shift D or --pilot FILE")
    if args.pilot is not None:
        if args.compare_shift is not None:
            parser.error(
                "--compare-shift goes with --binormal-shift; with --pilot give a "
                "second --score column or --difference"
            )
        return _pilot_models(args, parser)
    if args.prevalence is None:
        parser.error("--binormal-shift needs --prevalence P")
    models = [
        PopulationModel(
            stats.norm(0, 1), stats.norm(args.binormal_shift, 1), prevalence=args.prevalence
        )
    ]
    if args.compare_shift is not None:
        models.append(
            PopulationModel(
                stats.norm(0, 1), stats.norm(args.compare_shift, 1), prevalence=args.prevalence
            )
        )
    text = f"binormal, positives N({args.binormal_shift:g}, 1), negatives N(0, 1)" + (
        ""
        if args.compare_shift is None
        else f"; second scorer positives N({args.compare_shift:g}, 1)"
    )
    return models, args.correlation, text


def _row(*cells: str) -> str:
    return "  ".join(f"{c:>11}" for c in cells)


def _precision_lines(args: argparse.Namespace, model: Any) -> list[str]:
    from . import ap_half_width, plan_ap_precision

    out: list[str] = []
    level = f"{args.level * 100:g} %"
    if args.half_width is not None:
        plan = plan_ap_precision(
            model,
            half_width=args.half_width,
            level=args.level,
            method=args.method,
            n_sim=args.replicates,
            rng=args.seed,
        )
        points = plan.curve
        out.append(
            f"Positives for a {level} AP interval of +-{args.half_width:g} "
            f"(half-width: {args.method})"
        )
    else:
        import numpy as np

        gen = np.random.default_rng(args.seed)
        points = tuple(
            ap_half_width(
                model, k, level=args.level, method=args.method, n_sim=args.replicates, rng=gen
            )
            for k in sorted(set(args.n_pos))
        )
        out.append(f"Half-width of a {level} AP interval (half-width: {args.method})")
    out.extend(
        [
            f"population AP {model.auc_pr():.4f}; {args.replicates} simulated studies "
            f"per size, seed {args.seed}",
            "",
        ]
    )
    out.append(_row("positives", "negatives", "mean AP", "half-width", "MC error"))
    for p in points:
        out.append(
            _row(
                str(p.n_pos),
                str(p.n_neg),
                f"{p.mean_ap:.4f}",
                f"{p.half_width:.5f}",
                f"{p.half_width_se:.5f}",
            )
        )
    if args.half_width is None:
        return out
    out.append("")
    out.append(
        f"required positives: {plan.n_pos} (MC error +-{plan.n_pos_se:.2g}), "
        f"negatives {plan.n_neg}, total {plan.n}"
    )
    out.append(
        f"half-width at {plan.n_pos} positives: {plan.predicted_half_width:.5f} +- "
        f"{plan.predicted_half_width_se:.5f} (MC error)"
    )
    if plan.asymptotic_n_pos is not None:
        source = "influence-function variance" if args.method == "sampling" else "Boyd"
        out.append(f"large-sample answer ({source}): {plan.asymptotic_n_pos:.1f} positives")
    return out


def _power_lines(args: argparse.Namespace, models: list[Any], rho: float | None) -> list[str]:
    from . import plan_ap_power

    out: list[str] = []
    second = models[1] if len(models) > 1 else None
    res = plan_ap_power(
        models[0],
        second,
        difference=args.difference if second is None else None,
        n_pos=sorted(set(args.n_pos)),
        correlation=rho or 0.0,
        alpha=args.alpha,
        n_sim=args.replicates,
        rng=args.seed,
    )
    out.append(
        f"Power of the paired AP test at alpha {args.alpha:g}: AP difference "
        f"{res.difference:.4f}, correlation {res.correlation:.3f}"
    )
    out.extend([f"{args.replicates} simulated studies per size, seed {args.seed}", ""])
    out.append(_row("positives", "negatives", "power", "MC error", "SD of diff", "mean SE"))
    for i, k in enumerate(res.n_pos):
        out.append(
            _row(
                str(k),
                str(res.n_neg[i]),
                f"{res.power[i]:.4f}",
                f"{res.power_se[i]:.4f}",
                f"{res.sd_difference[i]:.5f}",
                f"{res.mean_standard_error[i]:.5f}",
            )
        )
    return out


def run_plan(args: argparse.Namespace, parser: argparse.ArgumentParser) -> int:
    """Run ``prcurve plan``; bad input raises ``InputError`` (exit status 1)."""
    from ._reporting.input._io import InputError

    comparing = (
        args.compare_shift is not None or args.difference is not None or len(args.score) == 2
    )
    if comparing and args.half_width is not None:
        parser.error("--half-width plans one scorer's AP; for a comparison give --n-pos N")
    if comparing and not args.n_pos:
        parser.error("the power of a comparison needs --n-pos N (repeat for several sizes)")
    if args.half_width is None and not args.n_pos:
        parser.error("say what to plan: --half-width H, or --n-pos N")
    models, rho, text = _models(args, parser)
    try:
        lines = _power_lines(args, models, rho) if comparing else _precision_lines(args, models[0])
    except ValueError as exc:  # the library's one-line messages name its parameters
        message = str(exc)
        for name in ("half_width", "difference", "n_sim"):
            if message.startswith(f"{name}:"):
                option = "--replicates" if name == "n_sim" else "--" + name.replace("_", "-")
                message = option + message[len(name) :]
        raise InputError(message) from None
    print("\n".join([f"model: {text}; prevalence {models[0].prevalence:.4g}", *lines]))
    return 0
