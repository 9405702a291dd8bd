"""Time and transient memory of the report's figures
(``_reporting.render._figures.render_figures``).

For each size (default 10⁵ and 10⁶ rows, two scorers, 5 % positives; the data of
``bench_report.py``, or ``--csv FILE`` with columns y, model_a, model_b) the analysis is computed
once (few resamples: the figures draw the band, they do not depend on its width) and pickled;
then a fresh Python process imports matplotlib, loads the analysis, resets its peak resident
memory (``/proc/self/clear_refs``) and renders the figures, reporting

* the wall time of ``render_figures`` (first call: fonts and caches included, then the best of
  ``--repeat`` further calls) and its CPU time (first/best: steadier on a shared machine),
* its peak resident memory above the resident memory before it (the curves themselves are
  loaded before; so this is what drawing adds), at the first call (matplotlib's font and text
  caches included) and at the further calls ("warm"),
* the PNG bytes of all figures (the page embeds them in base64, ×4/3),
* ``numpy.sort`` of one score column, measured in the same process, for scale.

``--steps-rows N`` also times, at N rows (e.g. 10⁷), each step of the figures that reads a whole
curve (best of three), with its peak traced memory (``tracemalloc``): the only parts that grow
with the data.

    python bench/bench_figures.py [--rows 100000 --rows 1000000] [--csv /tmp/r1e6.csv]
    python bench/bench_figures.py --pythonpath OTHER/src   # another checkout's figures
    python bench/bench_figures.py --rows 100000 --steps-rows 10000000
    python bench/bench_figures.py --quick   # 2,000 rows: a smoke test
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile

BUILD = r"""
import pickle, sys
from prcurve._reporting.analysis._analysis import Settings, analyse
from prcurve._reporting.input._io import read_labelled_scores
path, out = sys.argv[1], sys.argv[2]
data = read_labelled_scores(path, "y", ["model_a", "model_b"])
settings = Settings(source=path, label="y", scores=("model_a", "model_b"),
                    positive_label=data.positive_label, n_resamples=50, jobs=1)
analysis = analyse(data, settings)
with open(out, "wb") as f:
    pickle.dump(analysis, f, protocol=pickle.HIGHEST_PROTOCOL)
"""

RENDER = r"""
import json, pickle, sys, time
import numpy as np
import matplotlib
matplotlib.use("Agg")
from matplotlib.figure import Figure
from matplotlib.backends import backend_agg  # noqa: F401  (imports are not the figures' cost)
from prcurve._reporting.render._figures import render_figures

def rss_mb(field):
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) / 1024
    raise RuntimeError(field)

with open(sys.argv[1], "rb") as f:
    analysis = pickle.load(f)
repeat = int(sys.argv[2])
score = next(iter(analysis.scorers.values())).pr
shuffled = np.random.default_rng(0).permutation(np.asarray(score.thresholds))
t = time.perf_counter(); np.sort(shuffled); sort_s = time.perf_counter() - t
del shuffled
before = rss_mb("VmRSS:")
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # reset VmHWM, the peak resident memory, to the current
t, c = time.perf_counter(), time.process_time()
figs = render_figures(analysis)
first, first_cpu = time.perf_counter() - t, time.process_time() - c
peak = rss_mb("VmHWM:") - before
best, best_cpu = first, first_cpu
before = rss_mb("VmRSS:")
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
for _ in range(repeat):
    t, c = time.perf_counter(), time.process_time()
    render_figures(analysis)
    best, best_cpu = min(best, time.perf_counter() - t), min(best_cpu, time.process_time() - c)
warm = rss_mb("VmHWM:") - before
points = sum(s.pr.recall.shape[0] for s in analysis.scorers.values())
print(json.dumps({"first": first, "best": best, "first_cpu": first_cpu, "best_cpu": best_cpu,
                  "peak_mb": peak, "warm_mb": warm, "sort": sort_s,
                  "png_kb": sum(len(f.png) for f in figs) / 1024, "n_figs": len(figs),
                  "points": points}))
"""

STEPS = r"""
import sys, time, tracemalloc
import numpy as np
from prcurve import pr_curve
from prcurve._prg._curve import PRGCurve
from prcurve._reporting.render import _figures as F

rows = int(sys.argv[1])
rng = np.random.default_rng(0)
y = rng.random(rows) < 0.05
s = np.round(1 / (1 + np.exp(-(rng.normal(size=rows) + 2.0 * y - 3))), 7)
pr = pr_curve(y, s)
del y, s
roc, prg = pr.to_roc(), PRGCurve.from_pr(pr)
hull = prg.convex_hull()
areas = {"average_precision": pr.auc("average_precision")}
t = time.perf_counter(); np.sort(rng.permutation(pr.thresholds)); sort_s = time.perf_counter() - t
steps = {
    "PR path (thinned, then DG grid)": lambda: F._known_areas(pr, areas, thin=True),
    "ROC thinned (+ its area)": lambda: F._thin_roc(roc),
    "best F1 from the hull": lambda: hull.best_f_threshold(),
    "PRG zoom (1 % quantiles)": lambda: F._prg_zoom(prg, hull.best_f_threshold()),
    "PRG thinned (+ its area)": lambda: F._thin_prg(prg, hull.best_f_threshold(), (-0.02, 1.02)),
}
print(f"{'step':<34} {'seconds':>8} {'peak MB':>8}   (n = {pr.recall.shape[0]:,} points; "
      f"numpy.sort {sort_s:.3f} s)")
for name, step in steps.items():
    tracemalloc.start()
    step()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    best = float("inf")
    for _ in range(3):  # untraced, the best of three
        t = time.perf_counter()
        step()
        best = min(best, time.perf_counter() - t)
    print(f"{name:<34} {best:8.3f} {peak:8.1f}")
"""


def run(code: str, args: list[str], pythonpath: str | None = None) -> str:
    env = dict(os.environ, MPLBACKEND="Agg")
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], env=env, capture_output=True, text=True
    )
    if proc.returncode != 0:
        sys.exit(f"benchmark step failed:\n{proc.stderr}")
    return proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, action="append")
    parser.add_argument("--csv", action="append", help="data file(s) instead of generated ones")
    parser.add_argument("--repeat", type=int, default=2, help="further timed calls")
    parser.add_argument("--cache", help="keep (and reuse) the pickled analyses in this directory")
    parser.add_argument(
        "--steps-rows", type=int, action="append", help="also time the per-curve steps at this n"
    )
    parser.add_argument("--pythonpath", help="PYTHONPATH for the figures (default: as now)")
    parser.add_argument("--quick", action="store_true", help="2,000 rows, one further call")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.repeat, args.steps_rows = [2_000], 1, None
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from bench_report import make_csv

    print(f"CPUs available: {len(os.sched_getaffinity(0))}")
    print(
        f"{'rows':>10} {'points':>9} {'figs':>4} {'first s':>8} {'best s':>7} {'CPU s':>11} "
        f"{'peak +MB':>8} {'warm +MB':>8} {'PNG KB':>7} {'sort s':>7} {'best/sort':>9}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        sources = [(p, None) for p in args.csv or []]
        if not sources:
            for rows in args.rows or [100_000, 1_000_000]:
                path = os.path.join(tmp, f"scores_{rows}.csv")
                make_csv(path, rows)
                sources.append((path, rows))
        for path, rows in sources:
            if rows is None:
                with open(path, "rb") as f:
                    rows = sum(1 for _ in f) - 1
            pkl = os.path.join(args.cache or tmp, f"analysis_{rows}.pkl")
            if not (args.cache and os.path.exists(pkl)):
                run(BUILD, [path, pkl])
            m = json.loads(run(RENDER, [pkl, str(args.repeat)], args.pythonpath).splitlines()[-1])
            print(
                f"{rows:>10,} {m['points']:>9,} {m['n_figs']:>4} {m['first']:8.2f} "
                f"{m['best']:7.2f} {m['first_cpu']:5.2f}/{m['best_cpu']:5.2f} "
                f"{m['peak_mb']:8.0f} {m['warm_mb']:8.0f} {m['png_kb']:7.0f} "
                f"{m['sort']:7.3f} {m['best'] / m['sort']:9.1f}"
            )
    for rows in args.steps_rows or []:
        print(f"\nsteps that read whole curves, one scorer of {rows:,} rows (the rest of the")
        print("figures does not depend on the number of rows):")
        print(run(STEPS, [str(rows)], args.pythonpath), end="")


if __name__ == "__main__":
    main()
