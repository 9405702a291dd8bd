"""Time the command line's CSV reader (``prcurve report`` input), with and without pyarrow.

For plain, gzip-compressed and semicolon-separated files of labels and two score columns, times
``read_labelled_scores`` on its pyarrow fast path and on its pure-Python ``csv`` module path
(pyarrow hidden), checks both give identical arrays, and prints ratios against
``pandas.read_csv`` (C engine) and ``numpy.sort`` of one score column, measured in the same run.

    python bench/bench_csv.py [--rows 1000000] [--repeat 3] [--quick]
"""

from __future__ import annotations

import argparse
import gzip
import os
import sys
import tempfile
import time
from collections.abc import Callable

import numpy as np


def make_text(rows: int, sep: str, seed: int = 0) -> bytes:
    rng = np.random.default_rng(seed)
    y = rng.random(rows) < 0.05
    a = 1 / (1 + np.exp(-(rng.normal(size=rows) + 2.0 * y - 3)))
    b = 1 / (1 + np.exp(-(rng.normal(size=rows) + 1.0 * y - 3)))
    lines = [f"{int(v)}{sep}{x:.7g}{sep}{z:.7g}" for v, x, z in zip(y, a, b, strict=True)]
    return (sep.join(["y", "model_a", "model_b"]) + "\n" + "\n".join(lines) + "\n").encode()


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--quick", action="store_true", help="5,000 rows, one call each")
    args = parser.parse_args()
    if args.quick:
        args.rows, args.repeat = 5_000, 1

    import pandas as pd

    from prcurve._reporting.input._io import read_labelled_scores

    cols = ["model_a", "model_b"]
    print(f"rows = {args.rows:,}; best of {args.repeat}; seconds")
    print(f"{'file':<12} {'pyarrow':>8} {'csv mod':>8} {'pandas':>8} {'np.sort':>8} "
          f"{'pa/pandas':>9} {'csv/pandas':>10} {'pa/sort':>8}")  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        for name, sep, pack in (
            ("plain", ",", False), ("gzip", ",", True), ("semicolon", ";", False)
        ):  # fmt: skip
            data = make_text(args.rows, sep)
            path = os.path.join(tmp, f"{name}.csv" + (".gz" if pack else ""))
            with open(path, "wb") as f:
                f.write(gzip.compress(data, compresslevel=1) if pack else data)

            def read(path: str = path) -> object:
                return read_labelled_scores(path, "y", cols)

            fast_result = read()
            t_fast = best(read, args.repeat)
            saved = sys.modules.get("pyarrow")
            sys.modules["pyarrow"] = None  # type: ignore[assignment]  # hide pyarrow
            try:
                slow_result = read()
                t_slow = best(read, max(1, args.repeat - 2))
            finally:
                if saved is None:
                    del sys.modules["pyarrow"]
                else:
                    sys.modules["pyarrow"] = saved
            for c in cols:  # the two paths give the same numbers
                assert np.array_equal(fast_result.scores[c], slow_result.scores[c])  # type: ignore[attr-defined]
            t_pd = best(lambda path=path, sep=sep: pd.read_csv(path, sep=sep), args.repeat)
            scores = fast_result.scores["model_a"]  # type: ignore[attr-defined]
            t_sort = best(lambda scores=scores: np.sort(scores), args.repeat)
            print(f"{name:<12} {t_fast:8.3f} {t_slow:8.3f} {t_pd:8.3f} {t_sort:8.3f} "
                  f"{t_fast / t_pd:9.2f} {t_slow / t_pd:10.2f} {t_fast / t_sort:8.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
