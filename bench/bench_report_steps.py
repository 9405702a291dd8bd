"""CPU time of the report's resampling steps (AP bootstrap, band, comparison, operating points).

Builds the steps exactly as ``prcurve report --n-resamples auto`` does
(``_reporting.analysis._steps._inference_tasks``: the ``_sizing.plan`` of each step,
its stratified
subsample) for two scorers on n rows, and runs each step in this process after the report's
worker set-up (``_parallel._ignore_interrupts``: the malloc thresholds of a worker).  Prints, per
step, the rows m it resamples, the replicates, the CPU seconds (median of ``--repeat``), the
nanoseconds per row-resample (CPU / (m × replicates)), the seconds ``_sizing.COST`` predicts,
and the ratios to ``numpy.sort`` of the n scores and to scikit-learn's curve and average
precision of one scorer, measured in the same run.

Data: ``--csv`` (columns y, model_a, model_b, as ``bench/bench_report.py`` writes) or, by
default, a binormal sample (negatives N(0, 1), positives N(1.5, 1) and N(1.2, 1), prevalence
0.05, ``--seed``).

Run:  python bench/bench_report_steps.py [--rows 1000000] [--csv /tmp/r1e6.csv] [--repeat 3]
      [--quick]

Measured (2026, 2 shared cores, so noisy; 10⁶ rows of /tmp/r1e6.csv, prevalence 0.0499):
see ``prcurve._reporting.analysis._sizing`` (the COST table and the module docstring).
"""

from __future__ import annotations

import argparse
import time
from statistics import median

import numpy as np

from prcurve import pr_curve
from prcurve._reporting.analysis import _parallel, _settings, _steps


def _data(args: argparse.Namespace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    if args.csv:
        import pandas as pd

        df = pd.read_csv(args.csv)
        return (
            df["y"].to_numpy().astype(bool),
            df["model_a"].to_numpy(np.float64),
            df["model_b"].to_numpy(np.float64),
        )
    gen = np.random.default_rng(args.seed)
    y = gen.random(args.rows) < 0.05
    return (
        y,
        gen.standard_normal(args.rows) + 1.5 * y,
        gen.standard_normal(args.rows) + 1.2 * y,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--csv", default=None)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quick", action="store_true", help="5,000 rows, one call each")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.repeat = 5_000, 1
    y, a, b = _data(args)
    _parallel._ignore_interrupts()  # a worker's malloc settings
    problems = {"model_a": (y, a, None), "model_b": (y, b, None)}
    settings = _settings.Settings(
        source="bench", label="y", scores=tuple(problems), positive_label="1",
        n_resamples_auto=True,
    )  # fmt: skip
    seeds = iter(np.random.SeedSequence(0).spawn(8))
    # the operating-point tables (every row, drawn coarse to fine), from the curves already had
    curves = {k: {"pr": pr_curve(yk, sk)} for k, (yk, sk, _) in problems.items()}
    distinct = {k: int(c["pr"].thresholds.shape[0]) for k, c in curves.items()}
    rows = (y.shape[0], int(np.count_nonzero(y)))  # the data's rows and positives
    tasks = _steps._inference_tasks(problems, settings, seeds, distinct, rows)
    tasks += _steps._operating_tasks(problems, curves, settings, rows)
    from sklearn.metrics import average_precision_score, precision_recall_curve

    def sklearn_one(y: np.ndarray, s: np.ndarray) -> None:
        precision_recall_curve(y, s)
        average_precision_score(y, s)

    sort_s = median(_cpu(np.sort, a) for _ in range(args.repeat))
    sk_s = median(_cpu(sklearn_one, y, a) for _ in range(args.repeat))
    print(
        f"n = {y.shape[0]:,}, prevalence {y.mean():.4f}; CPU s of numpy.sort of n scores "
        f"{sort_s:.3f}, of scikit-learn's precision_recall_curve + average_precision_score "
        f"{sk_s:.3f}; medians of {args.repeat}"
    )
    print(
        f"{'step':28s} {'rows m':>8s} {'reps':>5s} {'CPU s':>7s} {'ns/row-res':>10s} "
        f"{'COST s':>7s} {'/sort':>6s} {'/sklearn':>8s}"
    )
    total = 0.0
    for _, label, fn, fn_args, p in tasks:
        cpu = median(_cpu(fn, *fn_args) for _ in range(args.repeat))
        total += cpu
        print(
            f"{label:28s} {p.rows:8,d} {p.n_resamples:5d} {cpu:7.3f} "
            f"{1e9 * cpu / p.work:10.1f} {p.seconds:7.3f} {cpu / sort_s:6.1f} {cpu / sk_s:8.2f}"
        )
    print(f"{'total':28s} {'':8s} {'':5s} {total:7.3f}")


def _cpu(fn, *fn_args) -> float:
    start = time.process_time()
    fn(*fn_args)
    return time.process_time() - start


if __name__ == "__main__":
    main()
