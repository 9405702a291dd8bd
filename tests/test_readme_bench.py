"""Every bench script the README or the user guide quotes exists and runs (``--quick`` mode).

The performance and memory figures (in docs/guide/*.md since issue 28 moved them out of the
README) each name the script that measured them; this keeps
those names true: a renamed or deleted script, or one that no longer runs, fails here.  The quick
mode runs the script's real code paths on tiny inputs, so each takes a few seconds.
"""

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: Where the figures are quoted: the README and every page of the user guide.
PAGES = [README, *sorted((ROOT / "docs" / "guide").glob("*.md"))]

#: A script under bench/, quoted with its folder (`bench/x.py`, also inside a command) or by its
#: bare name in the list of benchmarks (`bench_x.py`; bare ``coverage_*.py`` names there are
#: examples/ scripts).
QUOTED = re.compile(r"\bbench/(\w+\.py)\b|`(bench_\w+\.py)`")


def quoted_scripts() -> list[str]:
    text = "\n".join(page.read_text(encoding="utf-8") for page in PAGES)
    return sorted({a or b for a, b in QUOTED.findall(text)})


SCRIPTS = quoted_scripts()

#: Scripts that measure an optional engine: (module, the CI job's env var, install line).  Their
#: own CI job installs the extra and sets the variable, so there a missing module fails; the
#: other jobs skip them (see ``conftest.import_reference``).
NEEDS = {
    "bench_spark.py": ("pyspark", "PRCURVE_REQUIRE_SPARK", "'.[spark,test]'"),
    "bench_torch.py": ("torch", "PRCURVE_CI_TORCH", "'.[torch,test]'"),
}


def _available(script: str) -> bool:
    import importlib.util

    return script not in NEEDS or importlib.util.find_spec(NEEDS[script][0]) is not None


def test_readme_quotes_the_bench_scripts_behind_its_figures():
    # the scripts behind the README's timing and memory figures (a parse that found nothing
    # would make the test below vacuous)
    assert {"bench_report.py", "bench_operating_point.py", "bench_scale.py"} <= set(SCRIPTS)


@pytest.fixture(scope="module")
def quick_runs(request, tmp_path_factory):
    """The selected scripts' ``--quick`` runs, two at a time (the file stays well under a minute).

    Only the scripts whose test was collected run (``-k bench_spark`` runs one), and their working
    folders are made here, before the threads start: pytest's temporary-folder factory is not
    thread-safe on its first use (two threads creating the base folder at once was a CI failure).
    """
    from concurrent.futures import ThreadPoolExecutor

    env = dict(os.environ, MPLBACKEND="Agg", OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    selected = {
        item.callspec.params["script"]
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_quoted_bench_script_exists_and_runs_quick"
    }
    wanted = [s for s in SCRIPTS if s in selected]
    folders = {s: tmp_path_factory.mktemp(s.removesuffix(".py")) for s in wanted}

    def run(script: str):
        path = ROOT / "bench" / script
        if not path.is_file() or not _available(script):
            return None
        t0 = time.perf_counter()
        done = subprocess.run(
            [sys.executable, str(path), "--quick"],
            cwd=folders[script],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        return done, time.perf_counter() - t0

    with ThreadPoolExecutor(2) as pool:
        return dict(zip(wanted, pool.map(run, wanted), strict=True))


@pytest.mark.parametrize("script", SCRIPTS)
def test_quoted_bench_script_exists_and_runs_quick(script, quick_runs):
    if not _available(script):
        from .conftest import import_reference

        name, env, install = NEEDS[script]
        import_reference(name, required_by=env, install=install)
    result = quick_runs[script]
    assert result is not None, f"the docs quote bench/{script}, which does not exist"
    done, seconds = result
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.strip(), "the script printed no table"
    assert seconds < 60, f"bench/{script} --quick took {seconds:.1f} s"
