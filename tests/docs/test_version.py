"""One version, 0.2.0, in the package, in pyproject.toml and at the top of CHANGES.md."""

import re
import sys
from pathlib import Path

import prcurve

ROOT = Path(__file__).resolve().parents[2]


def test_version_is_0_2_0_everywhere():
    if sys.version_info >= (3, 11):
        import tomllib

        declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    else:  # Python 3.10 has no tomllib
        text = (ROOT / "pyproject.toml").read_text()
        declared = re.search(r'^version = "([^"]+)"', text, re.M).group(1)
    changes = (ROOT / "CHANGES.md").read_text(encoding="utf-8")
    first_release = re.search(r"^## (\d+\.\d+\.\d+)", changes, re.M).group(1)
    assert prcurve.__version__ == declared == first_release == "0.2.0"


def test_changelog_lists_both_releases_newest_first():
    changes = (ROOT / "CHANGES.md").read_text(encoding="utf-8")
    assert re.findall(r"^## (\S+)", changes, re.M) == ["0.2.0", "0.1.0"]
