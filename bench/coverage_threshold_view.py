"""Coverage of the pointwise bootstrap bands of ``threshold_view``, by seeded simulation.

Run:  python bench/coverage_threshold_view.py [--sets 400] [--n 1000] [--resamples 500]
      [--quick]

Binormal scores (negatives N(0, 1), positives N(1.5, 1)), prevalence 0.2.  In each simulated
data set the view is computed with bands at every threshold; at the thresholds flagging a given
share of the rows (0.2 % … 80 %) each band is checked against the population value of its
metric at that threshold (closed forms from the normal survival function).  Printed: coverage
per metric and queue rate, with the two-sided 99 % binomial acceptance range of a 95 % coverage
over that many data sets; cells outside it are marked ``<`` (under) or ``>`` (over).

``--quick``: 100 data sets of 500 rows, 200 replicates.
"""

from __future__ import annotations

import argparse

import numpy as np
from scipy import stats

from prcurve import threshold_view

QUEUE = (0.002, 0.005, 0.01, 0.05, 0.2, 0.5, 0.8)
METRICS = ("precision", "recall", "f_beta", "queue_rate", "fpr")


def population(t: np.ndarray, pi: float, sep: float) -> dict[str, np.ndarray]:
    tpr, fpr = stats.norm.sf(t - sep), stats.norm.sf(t)
    flagged = pi * tpr + (1 - pi) * fpr
    return {
        "precision": pi * tpr / flagged,
        "recall": tpr,
        "f_beta": 2 * pi * tpr / (pi + flagged),  # F1 = 2TP / (n₊ + TP + FP), per row
        "queue_rate": flagged,
        "fpr": fpr,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", type=int, default=400)
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--resamples", type=int, default=500)
    parser.add_argument("--prevalence", type=float, default=0.2)
    parser.add_argument("--separation", type=float, default=1.5)
    parser.add_argument("--seed", type=int, default=20261126)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.sets, args.n, args.resamples = 100, 500, 200
    gen = np.random.default_rng(args.seed)
    queue = np.array(QUEUE)
    hits = {m: np.zeros(queue.size) for m in METRICS}
    for _ in range(args.sets):
        y = gen.random(args.n) < args.prevalence
        s = gen.normal(size=args.n) + args.separation * y
        view = threshold_view(y, s, n_resamples=args.resamples, rng=gen, max_band_points=args.n)
        rows = np.minimum(np.searchsorted(view.queue_rate, queue), view.thresholds.size - 1)
        truth = population(np.asarray(view.thresholds[rows], float), args.prevalence,
                           args.separation)  # fmt: skip
        for m in METRICS:
            band = view.band(m)
            assert band is not None
            low, high = np.asarray(band.low)[rows], np.asarray(band.high)[rows]
            hits[m] += (low <= truth[m]) & (truth[m] <= high)
    lo, hi = stats.binom.ppf([0.005, 0.995], args.sets, 0.95) / args.sets
    print(
        f"binormal (separation {args.separation}), π = {args.prevalence}, n = {args.n}, "
        f"{args.sets} data sets, {args.resamples} replicates, 95 % nominal; "
        f"99 % binomial range [{lo:.3f}, {hi:.3f}]"
    )
    print(f"{'queue rate':>10} " + " ".join(f"{m:>11}" for m in METRICS))
    for j, q in enumerate(queue):
        cells = []
        for m in METRICS:
            c = hits[m][j] / args.sets
            flag = "<" if c < lo else (">" if c > hi else " ")
            cells.append(f"{c:10.3f}{flag}")
        print(f"{q:10.3f} " + " ".join(cells))


if __name__ == "__main__":
    main()
