"""``prcurve plan`` (issue 27 item 4) through the real entry point ``python -m prcurve``."""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats

from prcurve import PopulationModel, fit_binormal, plan_ap_power, plan_ap_precision

MODEL = ("--binormal-shift", "1.5", "--prevalence", "0.05")


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "prcurve", "plan", *args],
        capture_output=True,
        text=True,
        env=dict(os.environ),
        timeout=600,
    )


def _table(out: str) -> dict[int, list[float]]:
    """Rows of the printed table, keyed by the number of positives."""
    rows = {}
    for line in out.splitlines():
        cells = line.split()
        if len(cells) >= 4 and all(re.fullmatch(r"[0-9.]+", c) for c in cells):
            rows[int(cells[0])] = [float(c) for c in cells[1:]]
    return rows


def _answer(out: str) -> tuple[int, float, float, float]:
    n = re.search(r"required positives: (\d+) \(MC error \+-([0-9.e+-]+)\)", out)
    h = re.search(r"half-width at (\d+) positives: ([0-9.]+) \+- ([0-9.]+) \(MC error\)", out)
    assert n and h and h.group(1) == n.group(1), out
    return int(n.group(1)), float(n.group(2)), float(h.group(2)), float(h.group(3))


def test_plan_reproduces_its_own_simulation():
    """The printed n₊, re-simulated by ``prcurve plan --n-pos`` with another seed, gives the
    target half-width within the Monte Carlo errors the two runs state."""
    planned = run(*MODEL, "--half-width", "0.05", "--replicates", "1000", "--seed", "0")
    assert planned.returncode == 0 and planned.stderr == "", planned.stderr
    n_pos, n_se, half, half_se = _answer(planned.stdout)
    assert 250 < n_pos < 450 and n_se > 0
    assert half <= 0.05 + 3 * half_se  # n₊ rounded up: at most the target
    again = run(*MODEL, "--n-pos", str(n_pos), "--replicates", "3000", "--seed", "7")
    assert again.returncode == 0, again.stderr
    n_neg, mean_ap, resim, resim_se = _table(again.stdout)[n_pos]
    assert n_neg == round(n_pos * 19) and 0.3 < mean_ap < 0.36
    assert abs(resim - half) < 3 * math.hypot(resim_se, half_se)
    assert abs(resim - 0.05) < 3 * math.hypot(resim_se, half_se) + 0.05 * n_se / n_pos


def test_printed_plan_is_the_library_plan():
    out = run(
        *MODEL, "--half-width", "0.06", "--replicates", "300", "--seed", "3", "--method", "binomial"
    )
    assert out.returncode == 0, out.stderr
    model = PopulationModel(stats.norm(0, 1), stats.norm(1.5, 1), prevalence=0.05)
    plan = plan_ap_precision(model, half_width=0.06, method="binomial", n_sim=300, rng=3)
    n_pos, _, half, _ = _answer(out.stdout)
    assert n_pos == plan.n_pos and half == pytest.approx(plan.predicted_half_width, abs=5e-6)
    table = _table(out.stdout)
    assert sorted(table) == [p.n_pos for p in plan.curve]
    for p in plan.curve:
        assert table[p.n_pos][2] == pytest.approx(p.half_width, abs=5e-6)
    assert f"large-sample answer (Boyd): {plan.asymptotic_n_pos:.1f}" in out.stdout
    assert "population AP 0.3354" in out.stdout


def test_power_from_pilot_data_with_two_score_columns(tmp_path):
    rng = np.random.default_rng(0)
    y = rng.random(1500) < 0.15
    z = rng.multivariate_normal([0, 0], [[1, 0.6], [0.6, 1]], size=1500)
    a, b = z[:, 0] + 1.5 * y, z[:, 1] + 1.1 * y
    path = tmp_path / "pilot.csv"
    path.write_text(
        "y,a,b\n"
        + "".join(f"{int(t)},{float(u)!r},{float(v)!r}\n" for t, u, v in zip(y, a, b, strict=True))
    )
    out = run(
        "--pilot",
        str(path),
        "--label",
        "y",
        "--score",
        "a",
        "--score",
        "b",
        "--n-pos",
        "80",
        "--n-pos",
        "40",
        "--replicates",
        "200",
        "--seed",
        "2",
    )
    assert out.returncode == 0, out.stderr
    # the same plan from the library: binormal fits, Spearman within class -> copula ρ
    spearman = [stats.spearmanr(a[c], b[c]).statistic for c in (y, ~y)]
    rs = (y.sum() * spearman[0] + (~y).sum() * spearman[1]) / y.size
    rho = 2 * np.sin(np.pi * rs / 6)
    assert f"correlation {rho:.3f}" in out.stdout
    res = plan_ap_power(
        fit_binormal(y, a), fit_binormal(y, b), n_pos=[40, 80], correlation=rho, n_sim=200, rng=2
    )
    table = _table(out.stdout)
    assert sorted(table) == [40, 80]
    for i, k in enumerate(res.n_pos):
        assert table[k][:3] == pytest.approx(
            [res.n_neg[i], res.power[i], res.power_se[i]], abs=5e-5
        )
    assert 0.5 < rho < 0.7 and table[80][1] > table[40][1]


def test_power_of_a_binormal_difference():
    out = run(
        *MODEL,
        "--difference",
        "0.05",
        "--correlation",
        "0.5",
        "--n-pos",
        "100",
        "--replicates",
        "100",
        "--seed",
        "1",
    )
    assert out.returncode == 0, out.stderr
    assert "AP difference 0.0500, correlation 0.500" in out.stdout
    assert 0 < _table(out.stdout)[100][1] < 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--half-width", "0.05"), r"give the model: either --binormal-shift D or --pilot FILE"),
        (("--binormal-shift", "1", "--half-width", "0.05"), r"--binormal-shift needs --prevalence"),
        (MODEL, r"say what to plan: --half-width H, or --n-pos N"),
        ((*MODEL, "--difference", "0.05"), r"the power of a comparison needs --n-pos N"),
        ((*MODEL, "--difference", "0.05", "--half-width", "0.05"), r"--half-width plans one"),
        ((*MODEL, "--half-width", "1.5"), r"--half-width: expected a half-width in \(0, 1\)"),
        ((*MODEL, "--n-pos", "9", "--replicates", "5"), r"--replicates: expected an integer >= 10"),
        ((*MODEL, "--n-pos", "9", "--correlation", "1"), r"--correlation: expected a number in"),
        (
            ("--pilot", "x.csv", "--half-width", "0.05"),
            r"--pilot needs --label COL and --score COL",
        ),
    ],
)
def test_usage_errors_exit_2_with_one_line(args, message):
    out = run(*args)
    assert out.returncode == 2 and out.stdout == ""
    assert re.search(message, out.stderr.splitlines()[0]), out.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((*MODEL, "--half-width", "0.0001"), r"--half-width: about .* positives would be needed"),
        (
            ("--pilot", "missing.csv", "--label", "y", "--score", "s", "--half-width", "0.05"),
            r"missing.csv: no such file",
        ),
        ((*MODEL, "--difference", "0.5", "--n-pos", "10"), r"--difference: the second scorer's AP"),
    ],
)
def test_input_errors_exit_1_without_output(args, message, tmp_path):
    out = subprocess.run(
        [sys.executable, "-m", "prcurve", "plan", *args],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        timeout=300,
    )
    assert out.returncode == 1 and out.stdout == ""
    assert re.fullmatch(rf"prcurve: error: {message}.*\n", out.stderr), out.stderr


def test_plan_is_listed_in_the_help():
    top = subprocess.run(
        [sys.executable, "-m", "prcurve", "--help"], capture_output=True, text=True, timeout=60
    )
    assert re.search(r"plan\s+sample size for an AP interval", top.stdout)
    sub = run("--help")
    assert sub.returncode == 0 and "how many positives for AP +-0.05?" in sub.stdout
