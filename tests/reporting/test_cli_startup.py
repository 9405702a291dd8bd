"""The command starts without SciPy: ``--help``, usage errors and bad input exit at once.

Timing belongs in ``bench/``; these tests check the cause of a slow start instead: which heavy
modules a process has imported when it exits.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from prcurve._cli_parser import CASE_NAMES
from prcurve.cases import CASES

HEAVY = ("scipy", "matplotlib", "pandas", "pyarrow", "sklearn", "dask")


def _modules_after(code: str, *, top_level: bool = True) -> set[str]:
    """Modules (or only their top-level packages) imported by a fresh interpreter running
    ``code``."""
    names = "{m.split('.')[0] for m in sys.modules}" if top_level else "sys.modules"
    probe = f"{code}\nimport sys\nprint(' '.join(sorted({names})))"
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout
    return set(out.splitlines()[-1].split())


def test_case_names_written_in_the_cli_are_the_cases():
    assert CASE_NAMES == tuple(sorted(CASES))


def test_import_prcurve_loads_no_heavy_module():
    assert not _modules_after("import prcurve") & set(HEAVY)


def test_public_names_still_load_on_first_use():
    mods = _modules_after("import prcurve\nassert prcurve.pr_curve([0, 1], [0.2, 0.8]).n_pos == 1")
    assert "scipy" in mods and "matplotlib" not in mods


@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["report", "--help"],
        ["simulate", "--case", "Z"],
        ["report", "/nonexistent/scores.csv", "--label", "y", "--score", "a"],
    ],
)
def test_help_and_error_exits_import_no_heavy_module(argv):
    code = (
        "import sys\nfrom prcurve.cli import main\n"
        f"status = main({argv!r})\nassert status in (0, 1, 2), status"
    )
    assert not _modules_after(code) & set(HEAVY)


def test_the_report_runs_without_scipy_stats(tmp_path):
    """``scipy.stats`` takes about half a second and 45 MB to import; the report's statistics
    need only ``scipy.special`` (the coverage studies and population models, which need
    ``scipy.stats``, stay unloaded)."""
    code = (
        "from prcurve.cli import main\n"
        f"assert main(['report', '--out', {str(tmp_path / 'r')!r}, '--quiet']) == 0"
    )
    mods = _modules_after(code, top_level=False)
    assert "scipy.special" in mods
    assert "scipy.stats" not in mods
    assert "prcurve._inference._coverage" not in mods
    assert "pandas" not in mods  # pyarrow's pa.array would import it (0.3 s), see _write
