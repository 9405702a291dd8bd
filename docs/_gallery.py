"""The gallery's two rules: which example scripts stay out of it, and how their figures get in.

Kept apart from ``conf.py`` so that the tests can read :data:`SLOW_EXAMPLES` without Sphinx.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

#: Scripts of ``examples/`` left out of the gallery, with why: each runs for minutes (a Monte
#: Carlo study of interval coverage) or writes a file of the package.  They stay runnable with
#: ``python examples/<name>``; the guide pages quote their tables.
SLOW_EXAMPLES: dict[str, str] = {
    "coverage_constrained_threshold.py": "300 cross-validated fits with bootstraps (~10 min)",
    "coverage_operating_point.py": "200 samples x 200 resamples at two sizes (~8 min)",
    "coverage_study.py": "500 smoothed-bootstrap bands of 1000 resamples (~15 min)",
    "cv_interval_coverage.py": "300 repetitions of 5-fold CV plus a Monte Carlo truth (~5 min)",
    "multi_interval_coverage.py": "200 multiclass bootstraps on a 2*10^6-row truth (~5 min)",
    "profile_coverage.py": "1000 samples per row, bootstrap beside profile likelihood (~8 min)",
    "make_builtin_example.py": "rewrites src/prcurve/data/digits_9_vs_rest.csv (not a demo)",
}

#: When the scraper last looked (the build's start, then the end of each scraped block).
_last_look = [time.time_ns()]


def png_files_scraper(block: Any, block_vars: dict[str, Any], gallery_conf: dict[str, Any]) -> str:
    """Show the PNG files a script wrote into ``figures/`` during the block just executed.

    The paper scripts save their figures and close them (they are command-line tools first), so
    the matplotlib scraper sees nothing; this one picks up every new or rewritten PNG.
    """
    from sphinx_gallery.scrapers import figure_rst

    folder = Path(block_vars["src_file"]).parent / "figures"
    since, _last_look[0] = _last_look[0], time.time_ns()
    if not folder.is_dir():
        return ""
    fresh = [png for png in sorted(folder.glob("*.png")) if png.stat().st_mtime_ns >= since]
    names = []
    for png, target in zip(fresh, block_vars["image_path_iterator"], strict=False):
        shutil.copyfile(png, target)
        names.append(target)
    return figure_rst(names, gallery_conf["src_dir"])
