"""The "deploy at precision >= 0.9" example runs as written and prints what it shows.

It moved from the README to docs/guide/sklearn.md (issue 28); so did this check.
"""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "docs" / "guide" / "sklearn.md"
SECTION = "## Deploy at precision ≥ 0.9: constrained threshold tuning in scikit-learn"


def test_readme_sklearn_example_prints_its_shown_output(capsys):
    section = README.read_text(encoding="utf-8").split(SECTION, 1)[1].split("\n## ", 1)[0]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    shown = re.search(r"```text\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    assert capsys.readouterr().out == shown
