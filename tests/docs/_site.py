"""The built documentation site, for the tests that check links and pages against it.

``.ci/run``'s docs job builds the site once (gallery executed) and points
``PRCURVE_DOCS_HTML`` at it; elsewhere the first test that needs the site builds it without
running the gallery (its pages still exist) into a temporary directory.  Sphinx comes with the
``docs`` extra; without it these tests are skipped with the install line (CI's docs job has it).
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The HTML directory of the built site (built here when the environment names none)."""
    given = os.environ.get("PRCURVE_DOCS_HTML")
    if given:
        html = Path(given)
        assert (html / "index.html").is_file(), f"PRCURVE_DOCS_HTML={given} holds no built site"
        return html
    pytest.importorskip("sphinx", reason="the docs extra is needed: pip install -e '.[docs]'")
    pytest.importorskip("sphinx_gallery", reason="pip install -e '.[docs]'")
    html = tmp_path_factory.mktemp("site") / "html"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-q",
            "-b",
            "html",
            "-D",
            "plot_gallery=0",
            "-d",
            str(html.parent / "doctrees"),
            str(ROOT / "docs"),
            str(html),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        env=dict(os.environ, MPLBACKEND="Agg"),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return html
