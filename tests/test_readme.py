"""The README's library tour runs as written."""

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
    text = README.read_text(encoding="utf-8")
    block = text.split("## Quickstart", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    lines = [ln for ln in block.splitlines() if ln.strip()]
    assert lines == ["pip install . && prcurve report", 'pip install -e ".[test]" && pytest']
