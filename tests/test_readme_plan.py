"""The study-planning example (issue 27 item 4): its numbers are what the code prints.

The section moved from the README to docs/guide/planning.md (issue 28), and its checks with it.

The command and the snippet are read from the README and run; seeded, they print the same
numbers on one platform, and on any platform the same within the Monte Carlo errors they state.
"""

from __future__ import annotations

import math
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "docs" / "guide" / "planning.md"
SECTION = "## Planning a study: how many positives for ±0.05 on AP?"


def _section() -> str:
    text = README.read_text(encoding="utf-8")
    assert SECTION in text
    return text.split(SECTION, 1)[1].split("\n## ", 1)[0]


def _answer(out: str) -> tuple[int, float, float, float]:
    n = re.search(r"required positives: (\d+) \(MC error \+-([0-9.]+)\)", out)
    h = re.search(r"half-width at \d+ positives: ([0-9.]+) \+- ([0-9.]+)", out)
    assert n and h, out
    return int(n.group(1)), float(n.group(2)), float(h.group(1)), float(h.group(2))


def _rows(out: str) -> dict[int, tuple[float, float]]:
    rows = {}
    for line in out.splitlines():
        cells = line.split()
        if len(cells) == 5 and all(re.fullmatch(r"[0-9.]+", c) for c in cells):
            rows[int(cells[0])] = (float(cells[3]), float(cells[4]))
    return rows


def test_readme_plan_output_is_the_commands_output():
    section = _section()
    command = re.search(r"```bash\n(prcurve plan [^\n]*--half-width[^\n]*)\n```", section)
    shown = re.search(r"```text\n(model: .*?)```", section, re.S)
    assert command and shown
    args = shlex.split(command.group(1))[1:]
    out = subprocess.run(
        [sys.executable, "-m", "prcurve", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    ).stdout
    readme = shown.group(1)
    # exact on the deterministic lines (model, population AP by quadrature)
    assert readme.splitlines()[:3] == out.splitlines()[:3]
    n_r, n_se_r, h_r, h_se_r = _answer(readme)
    n_o, n_se_o, h_o, h_se_o = _answer(out)
    assert abs(n_r - n_o) <= 3 * math.hypot(n_se_r, n_se_o)
    assert abs(h_r - h_o) <= 3 * math.hypot(h_se_r, h_se_o)
    rows_r, rows_o = _rows(readme), _rows(out)
    assert rows_r and set(rows_r) & set(rows_o)
    for k in set(rows_r) & set(rows_o):
        assert abs(rows_r[k][0] - rows_o[k][0]) <= 3 * math.hypot(rows_r[k][1], rows_o[k][1])
    shown_large = re.search(r"large-sample answer .*: ([0-9.]+) positives", readme)
    assert shown_large and shown_large.group(0) in out  # deterministic (quadrature)
    assert "About 320 positives (6,400 cases) give AP ± 0.05." in section
    assert (n_r, n_r * 20) == (320, 6400)


def test_readme_plan_snippet_prints_what_it_shows(capsys):
    section = _section()
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    shown = re.findall(r"```text\n(\d+ [^`]*?)```", section, re.S)[-1].splitlines()
    exec(compile(code, "README.md", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    n, n_se, asymptotic = (float(v) for v in printed[0].split())
    n_shown, n_se_shown, asymptotic_shown = (float(v) for v in shown[0].split())
    assert asymptotic == asymptotic_shown
    assert abs(n - n_shown) <= 3 * math.hypot(n_se, n_se_shown)
    power, power_se = (float(v) for v in re.findall(r"[0-9.]+", printed[1]))
    power_shown, power_se_shown = (float(v) for v in re.findall(r"[0-9.]+", shown[1]))
    assert abs(power - power_shown) <= 3 * math.hypot(power_se, power_se_shown)


@pytest.mark.slow
def test_readme_power_table_is_the_commands_output():
    section = _section()
    command = re.search(r"```bash\n(prcurve plan [^`]*--difference[^`]*)```", section)
    shown = re.search(r"```text\n( +positives +negatives +power[^`]*)```", section)
    assert command and shown
    args = shlex.split(command.group(1).replace("\\\n", " "))[1:]
    out = subprocess.run(
        [sys.executable, "-m", "prcurve", *args],
        capture_output=True,
        text=True,
        timeout=600,
        check=True,
    ).stdout

    def table(text: str) -> dict[int, list[float]]:
        rows = (line.split() for line in text.splitlines())
        numeric = (c for c in rows if c and all(re.fullmatch(r"[0-9.]+", v) for v in c))
        return {int(c[0]): [float(v) for v in c[1:]] for c in numeric}

    readme, rerun = table(shown.group(1)), table(out)
    assert sorted(readme) == sorted(rerun) == [320, 640, 1280]
    for k, (n_neg, power, power_se, *_) in readme.items():
        assert rerun[k][0] == n_neg
        assert abs(rerun[k][1] - power) <= 3 * math.hypot(power_se, rerun[k][2])
