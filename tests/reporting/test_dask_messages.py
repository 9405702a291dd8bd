"""The Dask engine's bad-input messages are the memory engine's: the file, the column, the
value and where it is, never a library parameter (``sample_weight:``, ``y_score:``), through
the real entry point ``python -m prcurve``."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("dask.dataframe")

N = 3000
BAD = 1500  # 0-based data row; line BAD + 2 of the file, row BAD + 1 of the data


def write(tmp_path, column, value):
    rng = np.random.default_rng(5)
    y = rng.random(N) < 0.3
    rows = {"a": y.astype(int).astype(str).tolist(),
            "s": [f"{v:.4f}" for v in rng.random(N) + 0.5 * y],
            "w": ["1.0"] * N}  # fmt: skip
    rows[column][BAD] = value
    lines = ["a,s,w", *(",".join(r) for r in zip(rows["a"], rows["s"], rows["w"], strict=True))]
    (tmp_path / "d.csv").write_text("\n".join(lines) + "\n")


def report(tmp_path, engine, *extra, stdin=None):
    proc = subprocess.run(
        [sys.executable, "-m", "prcurve", "report", "d.csv" if stdin is None else "-",
         "--label", "a", "--score", "s", *extra, "--engine", engine, "--out", "o", "--quiet"],
        input=stdin, capture_output=True, cwd=tmp_path, check=False,
    )  # fmt: skip
    err = proc.stderr.decode()
    assert proc.returncode == 1 and err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    ("column", "value", "extra", "message"),
    [
        ("w", "-1.0", ["--weight", "w"], "column 'w' has -1.0 at {}; expected a weight >= 0"),
        ("s", "abc", [], "column 's' has 'abc' at {}; expected a number"),
        ("s", "inf", [], "column 's' has inf at {}; expected a finite number"),
    ],
)
def test_dask_names_the_column_and_row_as_memory_does(tmp_path, column, value, extra, message):
    write(tmp_path, column, value)
    memory = report(tmp_path, "memory", *extra)
    dask = report(tmp_path, "dask", *extra)
    assert f"d.csv: {message.format(f'line {BAD + 2}')}" in memory
    assert dask == f"prcurve: error: d.csv: {message.format(f'row {BAD + 1}')}\n"
    for internal in ("sample_weight", "y_score", "y_true", "Traceback"):
        assert internal not in dask


def test_dask_says_it_does_not_read_standard_input(tmp_path):
    err = report(tmp_path, "dask", stdin=b"a,s\n1,0.5\n0,0.2\n")
    assert err == (
        "prcurve: error: -: the Dask engine reads files, not standard input; pass a file name "
        "(or use --engine memory to read standard input)\n"
    )
