"""The report pages come from Jinja2 templates with autoescaping: a name (column, label, class,
file) reaches every page shape as text, never as markup; the templates ship in the wheel; and
markup is built in Python only from escaped parts."""

from __future__ import annotations

import ast
import csv
import shutil
import subprocess
import sys
import zipfile
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from ._helpers import two_scorer_csv

ROOT = Path(__file__).resolve().parents[2]
RENDER = ROOT / "src" / "prcurve" / "_reporting" / "render"
EVIL = "<script>alert(1)</script>&\"'"


class _Page(HTMLParser):
    """The tags, the text and the attribute values of a page, entities decoded."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: set[str] = set()
        self.text: list[str] = []
        self.attributes: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.add(tag)
        self.attributes += [v for _, v in attrs if v is not None]

    def handle_data(self, data):
        self.text.append(data)


def _parse(page: str) -> _Page:
    parsed = _Page()
    parsed.feed(page)
    parsed.close()
    return parsed


def _write(path: Path, header: list[str], rows: list[list[object]]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        writer.writerows(rows)
    return path


def _report(tmp_path: Path, shape: str) -> tuple[str, int]:
    """Run ``prcurve report`` on a file whose path, columns and labels hold ``EVIL``; the page
    and how many times (at least) the page shows ``EVIL`` as text."""
    rng = np.random.default_rng(3)
    n = 300
    # the file's path ends in EVIL + ".csv": a folder "<script>alert(1)<", a file "script>…"
    path = tmp_path / "<script>alert(1)<" / f"script>&\"'{shape}.csv"
    assert EVIL in str(path)
    out = tmp_path / "out"
    if shape == "multiclass":
        classes = [EVIL, "dog", "eel"]
        y = rng.integers(0, 3, size=n)
        s = rng.normal(size=(n, 3)) + 1.3 * (y[:, None] == np.arange(3))
        rows = [[classes[k], *v] for k, v in zip(y.tolist(), s.tolist(), strict=True)]
        _write(path, ["label" + EVIL, *classes], rows)
        scores = [a for c in classes for a in ("--score", c)]
        args = ["--label", "label" + EVIL, "--multiclass", *scores]
        shown = 4  # intro (file), class heading, score column, ranking
    else:
        y = rng.random(n) < 0.3
        a = np.round(rng.normal(size=n) + 1.2 * y, 3)
        b = np.round(rng.normal(size=n) + 0.6 * y, 3)
        labels = np.where(y, EVIL, "negative")
        rows = [list(r) for r in zip(labels.tolist(), a.tolist(), b.tolist(), strict=True)]
        header = ["label" + EVIL, EVIL, "b"]
        args = ["--label", "label" + EVIL, "--score", EVIL, "--score", "b", "--pos-label", EVIL]
        shown = 6  # file, label, column in the header and the settings, its section, ranking
        if shape == "folds":
            header.append("fold" + EVIL)
            rows = [[*r, f"f{i % 3}"] for i, r in enumerate(rows)]
            args += ["--fold", "fold" + EVIL]  # no bootstrap: Student-t over folds
            shown = 4  # file, positive label, ranking, section
        _write(path, header, rows)
    if shape != "folds":
        args += ["--n-resamples", "50"]
    res = subprocess.run(
        [sys.executable, "-m", "prcurve", "report", str(path), *args, "--out", str(out),
         "--quiet"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    return (out / "report.html").read_text(encoding="utf-8"), shown


@pytest.mark.parametrize("shape", ["binary", "multiclass", "folds"])
def test_names_reach_every_page_shape_escaped(tmp_path, shape):
    """A file name, column names and a label of ``<script>alert(1)</script>&"'`` are text on
    the binary, multiclass and fold pages: shown as written, nowhere raw, no script element."""
    page, shown = _report(tmp_path, shape)
    assert "<script" not in page and "</script>" not in page
    assert "&\"'" not in page  # the ampersand and the quotes escaped too
    parsed = _parse(page)
    assert "script" not in parsed.tags
    text = "".join(parsed.text)
    assert text.count(EVIL) >= shown, (shape, text.count(EVIL))
    # every attribute holding the name holds all of it (no quote closed an attribute early)
    assert all(v.count("<script>") == v.count(EVIL) for v in parsed.attributes)


def test_a_p_value_at_its_floor_is_escaped_in_the_ranking(tmp_path):
    """ "p < 0.005" in the ranking's sentence was written into the page with a raw ``<``."""
    path = two_scorer_csv(tmp_path / "d.csv")
    out = tmp_path / "out"
    res = subprocess.run(
        [sys.executable, "-m", "prcurve", "report", str(path), "--label", "y", "--score", "a",
         "--score", "b", "--out", str(out), "--quiet", "--n-resamples", "200"],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    page = (out / "report.html").read_text(encoding="utf-8")
    ranking = page.split('<ul class="ranking">', 1)[1].split("</ul>", 1)[0]
    assert "the difference is significant (p &lt; 0.005;" in ranking
    assert "< 0" not in page


def test_every_page_shape_shares_the_base_layout(tmp_path):
    """The binary, multiclass and fold pages are one product: the same head and style sheet."""
    heads = set()
    for shape in ("binary", "multiclass", "folds"):
        page, _ = _report(tmp_path / shape, shape)
        heads.add(page.split("<title>", 1)[0] + page.split("</title>", 1)[1].split("<h1>", 1)[0])
    assert len(heads) == 1


def _markup_calls(path: Path) -> list[ast.Call]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "Markup"
    ]


def test_markup_is_made_only_from_literals_and_rendered_templates():
    """``Markup(...)`` wraps only literal strings (with the values put in by
    ``Markup.format``/``join``, which escape them), a rendered template, or nothing: no user
    string is ever marked safe.  Only ``render/_templates.py`` makes markup from text."""
    src = ROOT / "src" / "prcurve"
    seen = []
    for path in sorted(src.rglob("*.py")):
        for call in _markup_calls(path):
            seen.append(path.name)
            args = call.args
            literal = all(isinstance(a, ast.Constant) and isinstance(a.value, str) for a in args)
            rendered = (
                path.name == "_templates.py"
                and len(args) == 1
                and ast.unparse(args[0]).startswith("_environment().get_template(name).render(")
            )
            assert literal or rendered, f"{path}:{call.lineno}: {ast.unparse(call)}"
            if args and literal:
                assert path.name == "_templates.py", f"{path}:{call.lineno}"
    assert "_templates.py" in seen


def test_templates_autoescape_and_refuse_undefined_names():
    from jinja2 import UndefinedError

    from prcurve._reporting.render._page import table
    from prcurve._reporting.render._templates import _environment, code, render

    assert _environment().autoescape is True
    cell = table(["<th>"], [[EVIL, code(EVIL)]])
    assert "&lt;script&gt;alert(1)&lt;/script&gt;&amp;&#34;&#39;" in cell
    assert "<code>&lt;script&gt;" in cell and "<script>" not in cell
    with pytest.raises(UndefinedError, match="'heading' is undefined"):
        render("base.html", title="t", sections=[], made_by=False)


def test_the_wheel_ships_every_template(tmp_path):
    """``pip install .`` (not editable) gets the templates: they are in the built wheel (built
    from a copy of the project's files, so the work tree gets no build folders)."""
    project = tmp_path / "project"
    junk = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    shutil.copytree(ROOT / "src", project / "src", ignore=junk)
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        if (ROOT / name).exists():
            shutil.copy(ROOT / name, project / name)
    res = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
         "-w", str(tmp_path), str(project)],
        capture_output=True, text=True, timeout=600,
    )  # fmt: skip
    assert res.returncode == 0, res.stderr
    (wheel,) = tmp_path.glob("prcurve-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    templates = sorted(
        p.relative_to(ROOT / "src").as_posix()
        for p in (RENDER / "templates").rglob("*")
        if p.is_file()
    )
    assert len(templates) >= 10
    missing = [t for t in templates if t not in names]
    assert not missing, missing
