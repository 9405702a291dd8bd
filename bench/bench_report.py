"""Time and peak memory of ``prcurve report`` against scikit-learn and ``numpy.sort``.

For each size (default 10⁵ and 10⁶ rows, two scorers, 5 % positives, scores with 7 significant
digits) a CSV is generated once; then each of these runs in a fresh Python process, which
reports its own wall time and peak resident memory (its own or its worker processes', the
larger):

* ``prcurve report`` with its defaults (``--n-resamples auto``, all CPUs), end to end: imports,
  reading, curves, every AUC-PR estimator, intervals, bands, comparison, figures, files;
* scikit-learn: reading the same CSV with prcurve's reader, then ``precision_recall_curve`` and
  ``average_precision_score`` for each scorer (one curve and one area, no inference);
* ``numpy.sort``: reading the same CSV, then sorting each score column.

The ratios divide the report's numbers by the other two, measured in the same run.

    python bench/bench_report.py [--rows 100000 --rows 1000000] [--pythonpath OTHER/src]

``--pythonpath`` runs the report with another checkout's code (e.g. an older commit exported
with ``git archive``) for a before/after table.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

import numpy as np

MEASURE = r"""
import json, resource, sys, time
t0 = time.perf_counter()
{body}
wall = time.perf_counter() - t0
own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({{"seconds": wall, "peak_mb": max(own, kids) / 1024}}))
"""

REPORT = """
from prcurve.cli import main
status = main(["report", {path!r}, "--label", "y", "--score", "model_a", "--score", "model_b",
               "--out", {out!r}, "--quiet"])
assert status == 0, status
"""

READ = """
from prcurve._reporting.input._io import read_labelled_scores
data = read_labelled_scores({path!r}, "y", ["model_a", "model_b"])
"""

SKLEARN = (
    READ
    + """
from sklearn.metrics import average_precision_score, precision_recall_curve
for s in data.scores.values():
    precision_recall_curve(data.y, s)
    average_precision_score(data.y, s)
"""
)

SORT = (
    READ
    + """
import numpy as np
for s in data.scores.values():
    np.sort(s)
"""
)


def make_csv(path: str, rows: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    y = rng.random(rows) < 0.05
    a = 1 / (1 + np.exp(-(rng.normal(size=rows) + 2.0 * y - 3)))
    b = 1 / (1 + np.exp(-(rng.normal(size=rows) + 1.0 * y - 3)))
    with open(path, "w") as f:
        f.write("y,model_a,model_b\n")
        for lo in range(0, rows, 10**6):  # in blocks: little memory at 10⁷ rows
            hi = min(rows, lo + 10**6)
            block = np.column_stack([y[lo:hi], a[lo:hi], b[lo:hi]])
            np.savetxt(f, block, delimiter=",", fmt=["%d", "%.7g", "%.7g"])


def measure(body: str, pythonpath: str | None) -> dict[str, float]:
    env = dict(os.environ, MPLBACKEND="Agg")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    proc = subprocess.run(
        [sys.executable, "-c", MEASURE.format(body=body)], env=env, capture_output=True, text=True
    )
    if proc.returncode != 0:
        sys.exit(f"benchmark step failed:\n{proc.stderr}")
    out = proc.stdout
    result: dict[str, float] = json.loads(out.strip().splitlines()[-1])
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, action="append")
    parser.add_argument("--pythonpath", help="PYTHONPATH for the report (default: as now)")
    args = parser.parse_args()
    sizes = args.rows or [100_000, 1_000_000]
    print(f"CPUs available: {len(os.sched_getaffinity(0))}")
    head = (
        f"{'rows':>10} {'what':<22} {'seconds':>8} {'peak MB':>8} "
        f"{'time ×':>8} {'mem ×':>7}   (× = report / this)"
    )
    print(head)
    with tempfile.TemporaryDirectory() as tmp:
        for rows in sizes:
            path = os.path.join(tmp, f"scores_{rows}.csv")
            make_csv(path, rows)
            out = os.path.join(tmp, f"report_{rows}")
            report = measure(REPORT.format(path=path, out=out), args.pythonpath)
            with open(os.path.join(out, "summary.json")) as f:
                used = json.load(f)["settings"]["n_resamples"]
            others = {
                "scikit-learn": measure(SKLEARN.format(path=path), None),
                "numpy.sort": measure(SORT.format(path=path), None),
            }
            label = f"prcurve report (B≤{used})"
            print(f"{rows:>10,} {label:<22} {report['seconds']:8.2f} {report['peak_mb']:8.0f}")
            for name, m in others.items():
                print(
                    f"{'':>10} {name:<22} {m['seconds']:8.2f} {m['peak_mb']:8.0f} "
                    f"{report['seconds'] / m['seconds']:8.1f} "
                    f"{report['peak_mb'] / m['peak_mb']:7.1f}"
                )


if __name__ == "__main__":
    main()
