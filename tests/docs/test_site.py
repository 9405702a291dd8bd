"""The built site: the reference has a page for every public name, the guide every page.

Uses the site of ``.ci/run``'s docs job (``PRCURVE_DOCS_HTML``) or builds one (``_site.py``).
"""

from __future__ import annotations

import importlib
import importlib.util

import pytest

import prcurve

from ._site import ROOT, built_site
from .test_api_reference import public_subpackages


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return built_site(tmp_path_factory)


def test_every_public_name_has_a_reference_page(site):
    generated = site / "api" / "generated"
    missing = [
        n
        for n in prcurve.__all__
        if n != "cases" and not (generated / f"prcurve.{n}.html").is_file()
    ]
    for package in sorted(public_subpackages()):
        module = importlib.import_module(package)
        missing += [
            f"{package}.{n}"
            for n in module.__all__
            if not (generated / f"{package}.{n}.html").is_file()
        ]
    assert not missing, f"no reference page for {missing}"


def test_every_guide_page_is_built_and_in_the_navigation(site):
    index = (site / "index.html").read_text(encoding="utf-8")
    for page in sorted((ROOT / "docs" / "guide").glob("*.md")):
        assert (site / "guide" / f"{page.stem}.html").is_file(), page.name
        assert f'href="guide/{page.stem}.html"' in index, f"{page.name} not in the toctree"


def test_every_gallery_script_has_a_page(site):
    spec = importlib.util.spec_from_file_location("_gallery", ROOT / "docs" / "_gallery.py")
    gallery = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gallery)
    for script in sorted((ROOT / "examples").glob("*.py")):
        page = site / "auto_examples" / f"{script.stem}.html"
        assert page.is_file() is (script.name not in gallery.SLOW_EXAMPLES), script.name
