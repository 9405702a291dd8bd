"""Time ``prcurve report`` on a large CSV (default 10⁶ rows, 2 scorers), end to end.

Generates the CSV (5 % positives, two scorers of different quality, scores with 7 significant
digits like a model's probabilities), runs the real command in a subprocess with its default
settings (bootstrap intervals, confidence bands and the paired comparison included), and prints
the wall time; then repeats the computation in-process to print where the time goes (the
imports timed in fresh processes, median of three, less a bare interpreter's start), each stage
also as a ratio to ``numpy.sort`` of one score column and to scikit-learn's
``precision_recall_curve`` + ``average_precision_score`` of one scorer, measured in the same run.

    python bench/bench_cli.py [--rows 1000000] [--n-resamples auto] [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np


def make_csv(path: str, rows: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    y = rng.random(rows) < 0.05
    a = 1 / (1 + np.exp(-(rng.normal(size=rows) + 2.0 * y - 3)))
    b = 1 / (1 + np.exp(-(rng.normal(size=rows) + 1.0 * y - 3)))
    np.savetxt(
        path,
        np.column_stack([y, a, b]),
        delimiter=",",
        fmt=["%d", "%.7g", "%.7g"],
        header="y,model_a,model_b",
        comments="",
    )


IMPORTS = (
    "import prcurve.cli, prcurve._reporting.analysis._analysis, "
    "prcurve._reporting.input._io, prcurve._reporting.output._write"
)


def imports_seconds() -> float:
    """The report's imports in a fresh process, less a bare interpreter (median of three)."""

    def one(code: str) -> float:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        return time.perf_counter() - t0

    return statistics.median(one(IMPORTS) - one("pass") for _ in range(3))


def references(y, s) -> tuple[float, float]:
    """Seconds of numpy.sort of ``s`` and of scikit-learn's curve + AP (medians of three)."""
    from sklearn.metrics import average_precision_score, precision_recall_curve

    def one(fn) -> float:
        t0 = time.perf_counter()
        fn()
        return time.perf_counter() - t0

    def sk() -> None:
        precision_recall_curve(y, s)
        average_precision_score(y, s)

    sort = statistics.median(one(lambda: np.sort(s)) for _ in range(3))
    return sort, statistics.median(one(sk) for _ in range(3))


def breakdown(path: str, n_resamples: str, out: str) -> list[tuple[str, float]]:
    rows: list[tuple[str, float]] = [("imports (fresh process)", imports_seconds())]
    from prcurve._reporting.analysis._analysis import Settings, analyse, auto_resamples
    from prcurve._reporting.input._io import read_labelled_scores
    from prcurve._reporting.output._write import write_report

    t0 = time.perf_counter()
    data = read_labelled_scores(path, "y", ["model_a", "model_b"])
    rows.append(("read CSV", time.perf_counter() - t0))
    sort, sk = references(data.y, data.scores["model_a"])
    rows += [("numpy.sort of model_a", sort), ("scikit-learn curve + AP of model_a", sk)]
    b = auto_resamples(data.n) if n_resamples == "auto" else int(n_resamples)
    settings = Settings(
        data.source, "y", ("model_a", "model_b"), data.positive_label, n_resamples=b,
        n_resamples_auto=n_resamples == "auto",
    )  # fmt: skip
    t0 = time.perf_counter()
    analysis = analyse(data, settings)
    total = time.perf_counter() - t0
    for name, sc in analysis.scorers.items():
        for stage, secs in sc.timings.items():
            rows.append((f"{name}: {stage}", secs))
    for pair, secs in analysis.timings.items():
        rows.append((f"compare {pair}", secs))
    rows.append(("total analysis (one process)", total))
    t0 = time.perf_counter()
    write_report(analysis, out)
    rows.append(("figures + HTML + JSON + CSV", time.perf_counter() - t0))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--n-resamples", default="auto")
    parser.add_argument("--no-breakdown", action="store_true")
    parser.add_argument("--quick", action="store_true", help="2,000 rows, no breakdown")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.no_breakdown = 2_000, True
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "scores.csv")
        t0 = time.perf_counter()
        make_csv(path, args.rows)
        print(f"generated {args.rows:,} rows ({os.path.getsize(path) / 1e6:.0f} MB) "
              f"in {time.perf_counter() - t0:.1f} s")  # fmt: skip
        out = os.path.join(tmp, "report")
        cmd = [sys.executable, "-m", "prcurve", "report", path, "--label", "y",
               "--score", "model_a", "--score", "model_b", "--out", out, "--quiet",
               "--n-resamples", args.n_resamples]  # fmt: skip
        print(f"\n{'command (wall time)':<44} {'seconds':>8}")
        for jobs in ("default",) if args.quick else ("default", "1"):
            t0 = time.perf_counter()
            subprocess.run(cmd + ([] if jobs == "default" else ["--jobs", jobs]), check=True)
            wall = time.perf_counter() - t0
            with open(os.path.join(out, "summary.json")) as f:
                b = json.load(f)["settings"]["n_resamples"]
            label = f"prcurve report, {b} resamples, --jobs {jobs}"
            print(f"{label:<44} {wall:8.1f}")
        print(f"{'CPUs':<44} {os.cpu_count():>8}")
        if not args.no_breakdown:
            rows = dict(breakdown(path, args.n_resamples, out + "-2"))
            sort, sk = rows["numpy.sort of model_a"], rows["scikit-learn curve + AP of model_a"]
            print(f"\n{'stage (in-process)':<44} {'seconds':>8} {'/np.sort':>9} {'/sklearn':>9}")
            for stage, secs in rows.items():
                print(f"{stage:<44} {secs:8.2f} {secs / sort:9.1f} {secs / sk:9.2f}")


if __name__ == "__main__":
    main()
