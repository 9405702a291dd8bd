"""The user guide's pages (issue 28): each leads with the user's question, names its paper or
method, and its short example runs as written."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "guide"

#: The concept pages whose examples are executed here (other pages' examples are executed by
#: their own tests: tests/test_readme*.py and tests/sklearn/test_readme_sklearn.py).
CONCEPT_PAGES = ("curves", "areas", "inference", "population", "parametric", "prg", "decisions")


def _python_blocks(page: str) -> list[str]:
    text = (GUIDE / f"{page}.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("page", CONCEPT_PAGES)
def test_concept_page_leads_with_a_question_then_method_paper_and_example(page):
    text = (GUIDE / f"{page}.md").read_text(encoding="utf-8")
    title, question = text.split("\n\n")[:2]
    assert title.startswith("# ") and "\n" not in title
    assert question.startswith("*") and question.endswith("*") and "?" in question, (
        "the user's question comes first"
    )
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[:2] == ["Method", "Example"], headings
    assert re.search(r"\*\*Papers?:\*\*", text), "the paper is named"
    assert "$$" in text, "the page gives its equation"


@pytest.mark.parametrize("page", CONCEPT_PAGES)
def test_concept_page_example_runs(page, capsys):
    blocks = _python_blocks(page)
    assert len(blocks) == 1
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        exec(compile(blocks[0], f"docs/guide/{page}.md", "exec"), {})
    assert capsys.readouterr().out.strip(), "the example prints what it computes"


def test_every_guide_page_starts_with_a_title():
    """The toctree globs guide/*: a page without a first-line title would break the navigation."""
    for page in sorted(GUIDE.glob("*.md")):
        assert page.read_text(encoding="utf-8").startswith("# "), page.name
