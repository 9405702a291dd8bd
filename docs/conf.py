"""Sphinx configuration of prcurve's documentation site.

Build (from the repository root, with ``pip install -e ".[docs]"``)::

    sphinx-build -W --keep-going -b html docs docs/_build/html

The API reference is generated from the docstrings (numpydoc, autosummary; ``docs/api/``), the
user guide is MyST markdown (every page under ``docs/guide/`` is picked up by a glob), and the
gallery runs the scripts of ``examples/`` on every build (sphinx-gallery), so they never rot.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import prcurve

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).parent))  # _gallery.py beside this file

from _gallery import SLOW_EXAMPLES, png_files_scraper  # noqa: E402

os.environ.setdefault("MPLBACKEND", "Agg")

project = "prcurve"
author = "the prcurve developers"
copyright = "the prcurve developers, BSD-3-Clause"
release = prcurve.__version__
version = ".".join(release.split(".")[:2])

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "_templates", "**.ipynb_checkpoints", "auto_examples/*.ipynb"]

# --- API reference ------------------------------------------------------------------------
autosummary_generate = True
autosummary_imported_members = True
autosummary_ignore_module_all = False
autodoc_default_options = {"members": True, "inherited-members": False}
autodoc_typehints = "none"  # numpydoc's Parameters sections say the types
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False


def _skip_generated_sklearn_methods(app, what, name, obj, skip, options):
    """Leave out what an estimator inherits from scikit-learn (``score``, ``get_params``, the
    ``set_*_request`` methods of metadata routing): scikit-learn documents them, and their
    docstrings cite scikit-learn's own glossary and labels, which this site does not have."""
    inherited = str(getattr(obj, "__module__", "") or "").startswith("sklearn.")
    return True if inherited or re.fullmatch(r"set_\w+_request", name) else skip


def setup(app):
    app.connect("autodoc-skip-member", _skip_generated_sklearn_methods)


# --- user guide (MyST) --------------------------------------------------------------------
myst_enable_extensions = ["dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3

# --- gallery ------------------------------------------------------------------------------
sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    # every script is executed on each build; the slow studies (minutes each) stay out of the
    # gallery and remain runnable from the command line (see examples/GALLERY_HEADER.rst)
    "filename_pattern": r".*\.py$",
    "ignore_pattern": "|".join(re.escape(name) for name in SLOW_EXAMPLES),
    "image_scrapers": ("matplotlib", png_files_scraper),
    "reset_argv": lambda gallery_conf, script_vars: [],
    "abort_on_example_error": False,
    "only_warn_on_example_error": False,
    "download_all_examples": False,
    "remove_config_comments": True,
    "min_reported_time": 1,
    "show_memory": False,
    "within_subsection_order": "FileNameSortKey",
}

# --- HTML ---------------------------------------------------------------------------------
html_theme = "pydata_sphinx_theme"
html_title = f"prcurve {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path: list[str] = []

nitpicky = False
suppress_warnings = ["config.cache"]
