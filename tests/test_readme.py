"""The README: short, its quickstart and tour run as written, every link lands in the built site.

The claims the README made before issue 28 moved to the guide pages; their checks moved with
them (the library tour to ``docs/guide/tour.md``, the Display example to
``docs/guide/plotting.md``, here; the others in ``tests/test_readme_*.py``).
"""

import importlib.util
import re
from pathlib import Path

import pytest

from tests.docs._site import built_site

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
GUIDE = ROOT / "docs" / "guide"


def test_readme_library_tour_runs(capsys):
    """The full library tour, now on its guide page."""
    text = (GUIDE / "tour.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    exec(compile(code, "docs/guide/tour.md", "exec"), {})
    out = capsys.readouterr().out
    assert out.count("\n") == 7  # one line per print


def test_readme_quickstart_is_two_commands():
    """The two lines `.ci/run` runs verbatim in fresh clones (read by the same parser)."""
    spec = importlib.util.spec_from_file_location("quickstart", README.parent / ".ci/quickstart.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lines = module.quickstart_commands(README.read_text(encoding="utf-8"))
    assert lines == [
        "python3 -m venv .venv && .venv/bin/pip install . && .venv/bin/prcurve report",
        'python3 -m venv .venv && .venv/bin/pip install -e ".[test]" && .venv/bin/python -m pytest',
    ]


def test_readme_display_snippet_runs_as_pasted(tmp_path, monkeypatch):
    """The Display example (docs/guide/plotting.md) is complete: it runs and saves its figure."""
    import matplotlib.pyplot as plt

    text = (GUIDE / "plotting.md").read_text(encoding="utf-8")
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    try:
        exec(compile(code, "docs/guide/plotting.md", "exec"), {})
    finally:
        plt.close("all")
    png = (tmp_path / "pr_curves.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 20_000


def test_readme_is_short():
    assert len(README.read_text(encoding="utf-8").splitlines()) < 150


def test_readme_ten_line_tour_runs(capsys):
    text = README.read_text(encoding="utf-8")
    code = re.search(r"## Library tour\n\n```python\n(.*?)```", text, re.S).group(1)
    assert len(code.strip().splitlines()) == 10
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out.count("\n") == 2


def test_readme_shows_the_docs_build_command():
    text = README.read_text(encoding="utf-8")
    assert "sphinx-build -W --keep-going -b html docs docs/_build/html" in text


#: A README link into the repository, and where it lands in the built site.
LINK = re.compile(r"\]\(([^)\s]+)\)")


def site_page(target: str) -> tuple[str, str]:
    """The built page (relative to the HTML root) and anchor a README link stands for."""
    path, _, anchor = target.partition("#")
    if path == "examples/":
        return "auto_examples/index.html", anchor
    if path.startswith("examples/") and path.endswith(".py"):
        return f"auto_examples/{Path(path).stem}.html", anchor
    if path == "CHANGES.md":
        return "changes.html", anchor
    assert path.startswith("docs/") and path.endswith((".md", ".rst")), (
        f"README link {target!r} does not point into the documentation site"
    )
    return str(Path(path).relative_to("docs").with_suffix(".html")), anchor


def test_site_page_maps_sources_to_pages():
    assert site_page("docs/guide/areas.md#method") == ("guide/areas.html", "method")
    assert site_page("docs/api/index.rst") == ("api/index.html", "")
    with pytest.raises(AssertionError, match="does not point into the documentation site"):
        site_page("https://example.org")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return built_site(tmp_path_factory)


def test_every_readme_link_resolves_in_the_built_site(site):
    targets = LINK.findall(README.read_text(encoding="utf-8"))
    assert len(targets) >= 15
    for target in targets:
        page, anchor = site_page(target)
        assert (site / page).is_file(), f"README link {target}: no page {page} in the site"
        if anchor:
            html = (site / page).read_text(encoding="utf-8")
            assert f'id="{anchor}"' in html, f"README link {target}: no anchor #{anchor}"
