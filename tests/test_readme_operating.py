"""The operating-point section (moved from the README to docs/guide/operating-points.md) runs."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "docs" / "guide" / "operating-points.md"


def test_readme_operating_point_block_runs(capsys):
    text = README.read_text(encoding="utf-8")
    section = text.split("## Operating points, partial AUC-PR and deployment prevalence", 1)[1]
    code = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    exec(compile(code, "README.md", "exec"), {})
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 7
    assert lines[1].startswith("False no threshold reaches precision >= 0.9")
