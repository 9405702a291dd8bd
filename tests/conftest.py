import os
import shutil
import subprocess

import numpy as np
import pytest
from hypothesis import settings

os.environ.setdefault("MPLBACKEND", "Agg")

# Hypothesis's per-example deadline (200 ms) measures wall-clock time, which a shared 2-core CI
# machine does not guarantee: a slow example then fails as "Flaky" although every assertion
# holds.  Speed lives in bench/, so no property test has a deadline.
settings.register_profile("prcurve", deadline=None)
settings.load_profile("prcurve")


@pytest.fixture
def rng():
    return np.random.default_rng(20261121)


def make_problem(rng, n=300, prevalence=0.2, ties=False, weights=False):
    """Random labelled scores; optional heavy ties and weights."""
    y = rng.random(n) < prevalence
    y[0], y[1] = True, False
    s = rng.normal(size=n) + 1.2 * y
    if ties:
        s = np.round(s * 2) / 2
    w = rng.random(n) * 3 if weights else None
    return y, s, w


def import_reference(name: str, *, required_by: str = "CI", install: str = "'.[test]'"):
    """Import another tool's package that a test checks prcurve against (``dcurves``, ...).

    Installed by the ``test`` extra, so CI (env var ``CI`` set) fails without it; elsewhere the
    test is skipped with the install line.  Such tests carry the ``reference`` marker: the
    minimum-versions CI job deselects them, because the reference packages' own requirements
    would lift prcurve's dependencies above their declared minimums.

    Packages too large for every job (torch, torchmetrics, keras: a few GB) are installed by
    their own CI job, which sets the env var ``required_by`` (e.g. ``PRCURVE_CI_TORCH``): there
    a missing package fails; in the other jobs, which do not install it, the test is skipped.
    """
    import importlib

    try:
        return importlib.import_module(name)
    except ImportError:
        message = f"{name} is not installed (pip install -e {install})"
        if os.environ.get(required_by):
            pytest.fail(f"CI must compare with {name}: {message}")
        pytest.skip(message)


def run_rscript(tmp_path, script: str, data: str, *, packages: str) -> str:
    """Run the R ``script`` through ``Rscript`` on ``data`` (CSV text, the script's first
    argument, read with ``commandArgs(trailingOnly = TRUE)[1]``); return its standard output.

    Without Rscript the test is skipped with the install line, except in CI (env var ``CI``
    set), where it fails: ``.ci/run`` installs R and the packages (``packages``: the Debian
    package names, e.g. ``"r-cran-rocr"``) so that the comparison runs there.
    """
    rscript = shutil.which("Rscript")
    if rscript is None:
        if os.environ.get("CI"):
            pytest.fail(f"Rscript not found: CI must compare with R (apt-get install {packages})")
        pytest.skip(f"Rscript not found (apt-get install r-base-core {packages})")
    data_file = tmp_path / "data.csv"
    data_file.write_text(data)
    script_file = tmp_path / "script.R"
    script_file.write_text(script)
    done = subprocess.run(
        [rscript, str(script_file), str(data_file)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


#: ``PYTHONWARNINGS`` for a ``python -m prcurve`` subprocess: warnings are errors, as in the
#: suite, with pyproject's one third-party exception: matplotlib < 3.7 (the minimum is 3.6.1)
#: calls pyparsing names that pyparsing >= 3.3 deprecates.
STRICT_WARNINGS = ",".join(
    [
        "error",
        "ignore::DeprecationWarning:matplotlib._fontconfig_pattern",
        "ignore::DeprecationWarning:matplotlib._mathtext",
    ]
)
