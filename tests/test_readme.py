"""The README's library tour runs as written."""

import importlib.util
import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_library_tour_runs(capsys):
    text = README.read_text(encoding="utf-8")
    section = text.split("## Library tour", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
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
    """The Display example (command-line tour) is complete: it runs and saves its figure."""
    import matplotlib.pyplot as plt

    text = README.read_text(encoding="utf-8")
    section = text.split("## Command-line tour", 1)[1].split("## Library tour", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    try:
        exec(compile(code, "README.md", "exec"), {})
    finally:
        plt.close("all")
    png = (tmp_path / "pr_curves.png").read_bytes()
    assert png.startswith(b"\x89PNG") and len(png) > 20_000
