"""Time and peak memory of ``prcurve report`` against scikit-learn and ``numpy.sort``.

For each size (default 10⁵ and 10⁶ rows, two scorers, 5 % positives, scores with 7 significant
digits) a CSV is generated once; then each of these runs in a fresh Python process, ``--runs``
times (medians printed; a shared machine is noisy), with and without pyarrow (``--install``;
without it the report reads and writes CSV with its pure-Python path, pyarrow hidden):

* ``prcurve report`` with its defaults (``--n-resamples auto``, all CPUs), end to end: imports,
  reading, curves, every AUC-PR estimator, intervals, bands, comparison, figures, files;
* scikit-learn: reading the same CSV with prcurve's reader, then ``precision_recall_curve`` and
  ``average_precision_score`` for each scorer (one curve and one area, no inference);
* ``numpy.sort``: reading the same CSV, then sorting each score column.

Each run is made twice: once timed with nothing sampled, once sampled for memory
(``_measure.time_and_memory``: the sampler's reads take CPU from what it measures).  Memory is
measured two ways: the peak RSS of the main process, and
the peak of the RSS summed over the process tree (the report resamples in worker processes on
large inputs; also as proportional set sizes, which count pages shared by forked workers once).
The ratios divide the report's numbers by the other two, measured in the same
run with the same install.

    python bench/bench_report.py [--rows 100000 --rows 1000000] [--runs 3]
                                 [--install both|arrow|plain] [--pythonpath OTHER/src] [--quick]
                                 [--report-args '...']

``--report-args '--cost-ratio 0.1 --top-k 1000'`` adds options to the report (e.g. to time the
"Choosing a threshold" steps).  ``--pythonpath`` runs the report with another checkout's code
(e.g. an older commit exported with ``git archive``) for a before/after table.  ``--quick``:
2,000 rows, one run, one install (a smoke test).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile

import numpy as np
from _measure import Measured, cpus, has_pyarrow, median_runs, time_and_memory

#: Put first in a measured process to run it as if pyarrow were not installed: every import of
#: it fails (scikit-learn, too, then takes its path without pyarrow).
HIDE_PYARROW = """
import sys
class _NoPyarrow:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "pyarrow":
            raise ModuleNotFoundError("No module named 'pyarrow' (hidden)", name=name)
sys.meta_path.insert(0, _NoPyarrow())
"""

REPORT = """
import sys
try:
    from prcurve.cli import run  # the program, as the console script runs it
except ImportError:  # an older checkout (--pythonpath): its console script ran main
    from prcurve.cli import main as run
sys.argv = ["prcurve", "report", {path!r}, "--label", "y", "--score", "model_a",
            "--score", "model_b", "--out", {out!r}, "--quiet", *{extra!r}]
status = run()
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


def measure(body: str, *, pyarrow: bool, pythonpath: str | None, runs: int) -> Measured:
    """Medians over ``runs`` fresh processes running ``body``."""
    env = dict(os.environ, MPLBACKEND="Agg")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    code = ("" if pyarrow else HIDE_PYARROW) + body
    return median_runs(
        [time_and_memory([sys.executable, "-c", code], env=env) for _ in range(runs)]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, action="append")
    parser.add_argument("--runs", type=int, default=3, help="fresh processes per cell (median)")
    parser.add_argument("--install", choices=("both", "arrow", "plain"), default="both")
    parser.add_argument("--pythonpath", help="PYTHONPATH for the report (default: as now)")
    parser.add_argument("--quick", action="store_true", help="2,000 rows, one run")
    parser.add_argument(
        "--report-args",
        default="",
        help="more options of the report, e.g. '--cost-ratio 0.1 --prevalence 0.01 --top-k 1000'",
    )
    args = parser.parse_args()
    sizes = [2_000] if args.quick else args.rows or [100_000, 1_000_000]
    runs = 1 if args.quick else args.runs
    installs = {"both": [True, False], "arrow": [True], "plain": [False]}[args.install]
    if args.quick:
        installs = installs[:1]
    if not has_pyarrow():
        installs = [False]
    print(f"CPUs available: {cpus()}; medians of {runs} run(s); peak RSS: main process and "
          "summed over the process tree (sampled)")  # fmt: skip
    head = (
        f"{'rows':>10} {'install':<8} {'what':<22} {'seconds':>8} {'main MB':>8} {'tree MB':>8} "
        f"{'PSS MB':>7} {'time ×':>7} {'main ×':>7} {'tree ×':>7}   (× = report / this; "
        "PSS: summed over the tree)"
    )
    print(head)
    with tempfile.TemporaryDirectory() as tmp:
        for rows in sizes:
            path = os.path.join(tmp, f"scores_{rows}.csv")
            make_csv(path, rows)
            for arrow in installs:
                kw = {"pyarrow": arrow, "runs": runs}
                out = os.path.join(tmp, f"report_{rows}_{arrow}")
                report = measure(
                    REPORT.format(path=path, out=out, extra=args.report_args.split()),
                    pythonpath=args.pythonpath,
                    **kw,
                )
                with open(os.path.join(out, "summary.json")) as f:
                    used = json.load(f)["settings"]["n_resamples"]
                others = {
                    "scikit-learn": measure(SKLEARN.format(path=path), pythonpath=None, **kw),
                    "numpy.sort": measure(SORT.format(path=path), pythonpath=None, **kw),
                }
                install = "pyarrow" if arrow else "plain"
                label = f"prcurve report (B≤{used})"
                print(
                    f"{rows:>10,} {install:<8} {label:<22} {report.seconds:8.2f} "
                    f"{report.main_mb:8.0f} {report.tree_mb:8.0f} {report.tree_pss_mb:7.0f}"
                )
                for name, m in others.items():
                    print(
                        f"{'':>10} {install:<8} {name:<22} {m.seconds:8.2f} {m.main_mb:8.0f} "
                        f"{m.tree_mb:8.0f} {m.tree_pss_mb:7.0f} {report.seconds / m.seconds:7.1f} "
                        f"{report.main_mb / m.main_mb:7.1f} {report.tree_mb / m.tree_mb:7.1f}"
                    )


if __name__ == "__main__":
    main()
