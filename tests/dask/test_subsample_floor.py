"""``--subsample`` below what a resampling step needs is refused in one line (QA finding 4):
a stratified subsample keeps the data's share of positives, and the report sizes every
resampling step on at least ``MIN_POSITIVES`` of them (or all rows)."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from prcurve._reporting.analysis._sizing import MIN_POSITIVES
from prcurve.cli import main

pytest.importorskip("dask")


def _data(path, n: int, n_pos: int) -> str:
    rng = np.random.default_rng(4)
    y = np.zeros(n, dtype=int)
    y[rng.choice(n, n_pos, replace=False)] = 1
    pd.DataFrame({"y": y, "a": rng.normal(size=n) + y}).to_parquet(path, index=False)
    return str(path)


def _run(src: str, out, subsample: int) -> int:
    return main(["report", src, "--label", "y", "--score", "a", "--engine", "dask",
                 "--subsample", str(subsample), "--n-resamples", "20", "--jobs", "1",
                 "--out", str(out), "--quiet"])  # fmt: skip


@pytest.mark.parametrize(("n", "n_pos"), [(30_000, 3_000), (20_000, 400)])
def test_subsample_below_the_positives_a_step_needs_is_refused(tmp_path, capsys, n, n_pos):
    """30,000 rows with 10 % positives: 10,000 rows hold 1000 positives; 400 positives in all
    (fewer than a step needs): only every row will do."""
    src = _data(tmp_path / "d.parquet", n, n_pos)
    floor = min(n, math.ceil(MIN_POSITIVES * n / n_pos))  # 10,000 and 20,000
    assert floor == {3_000: 10_000, 400: 20_000}[n_pos]
    for rows in (10, floor - 1):
        out = tmp_path / f"no{rows}"
        assert _run(src, out, rows) == 1
        err = capsys.readouterr().err
        assert err == (
            f"prcurve: error: --subsample: expected at least {floor} rows (a stratified "
            f"subsample keeps the {n_pos / n:.3%} positives of the {n} rows; a resampling "
            f"step needs {MIN_POSITIVES} positives, or all rows), got {rows}\n"
        )
        assert not out.exists()
    assert _run(src, tmp_path / "ok", floor) == 0


def test_the_minimum_is_stated_in_help():
    proc = subprocess.run([sys.executable, "-m", "prcurve", "report", "--help"],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    text = " ".join(proc.stdout.split())
    assert f"at least enough rows for {MIN_POSITIVES} positives (what a resampling step needs)" \
        in text  # fmt: skip
