"""Coverage of ``auc_pr_multi_ci``: macro, weighted and micro AP and the per-class intervals.

Multilabel, three independent classes with prevalences 0.2 / 0.3 / 0.4 and scores N(Y_j, 1);
the true values are those of a 2·10⁶-row sample.  Each repetition draws n instances and asks
for the 95 % percentile-bootstrap interval of every average (400 resamples).

Usage: ``python examples/multi_interval_coverage.py [n] [repetitions]`` (default 1000, 200).
"""

import sys
import warnings

import numpy as np

from prcurve import DegenerateBootstrapWarning, auc_pr, auc_pr_multi_ci

AVERAGES = ("macro", "weighted", "micro")


def main(n: int = 1000, reps: int = 200) -> dict[str, float]:
    pi = np.array([0.2, 0.3, 0.4])
    g = np.random.default_rng(1)

    def draw(rows: int) -> tuple[np.ndarray, np.ndarray]:
        Y = (g.random((rows, 3)) < pi).astype(int)
        return Y, g.normal(size=(rows, 3)) + Y

    big = draw(2_000_000)
    truth = {a: float(auc_pr(*big, average=a)) for a in AVERAGES}
    per_class = np.asarray(auc_pr(*big, average=None))
    hits = dict.fromkeys(AVERAGES, 0)
    class_hits = np.zeros(3)
    for _ in range(reps):
        Y, S = draw(n)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DegenerateBootstrapWarning)
            for a in AVERAGES:
                res = auc_pr_multi_ci(Y, S, average=a, n_resamples=400, rng=g)
                hits[a] += bool(res.interval.contains(truth[a]))
                if a == "macro":
                    ends = res.per_class_interval
                    class_hits += (ends.low <= per_class) & (per_class <= ends.high)
    coverage = {a: h / reps for a, h in hits.items()}
    print(f"n = {n}, {reps} repetitions; truth { ({a: round(v, 4) for a, v in truth.items()}) }")
    print("coverage of the 95% intervals:", coverage)
    print("per class:", (class_hits / reps).round(3).tolist())
    return coverage


if __name__ == "__main__":
    main(*(int(v) for v in sys.argv[1:3]))
