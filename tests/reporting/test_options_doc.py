"""The "Options on every shape" table of ``docs/guide/report-files.md`` covers every option of
``prcurve report --help`` (QA findings 3 and 11), and no longer says Dask refuses what it does."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "guide"


def _help_options() -> set[str]:
    """The long options in the usage line of the real ``prcurve report --help``."""
    proc = subprocess.run(
        [sys.executable, "-m", "prcurve", "report", "--help"],
        capture_output=True, text=True, timeout=120, env=dict(os.environ, COLUMNS="100"),
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    usage = proc.stdout.split("\n\n", 1)[0]
    assert usage.startswith("usage: prcurve report")
    return set(re.findall(r"\[(--[a-z][a-z-]*)", usage)) - {"--help"}


def _table_options() -> set[str]:
    text = (DOCS / "report-files.md").read_text(encoding="utf-8")
    section = text.split("## Options on every shape", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if line.startswith("| `--")]
    return {o for row in rows for o in re.findall(r"`(--[a-z][a-z-]*)`", row.split(" | ")[0])}


def test_every_report_option_is_in_the_options_table():
    options = _help_options()
    assert {"--seed", "--level", "--jobs", "--pos-label", "--sep", "--encoding",
            "--memory-budget", "--master", "--subsample", "--engine"} <= options  # fmt: skip
    missing = sorted(options - _table_options())
    assert not missing, f"not in the 'Options on every shape' table: {missing}"


def test_docs_do_not_say_dask_refuses_what_it_accepts():
    files = (DOCS / "report-files.md").read_text(encoding="utf-8")
    report = (DOCS / "report.md").read_text(encoding="utf-8")
    assert not re.search(r"refuses\s+`--all-points`", files)
    assert not re.search(r"Not offered yet with\s+`--engine dask`", report)
