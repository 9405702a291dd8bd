"""Print the README's quickstart commands, one per line, exactly as a new user would paste them.

`.ci/run` runs these lines verbatim in fresh clones, so CI fails exactly when a new user would;
`tests/test_readme.py` checks that the block holds exactly these two commands.
"""

import sys
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def quickstart_commands(text: str) -> list[str]:
    """The non-blank lines of the first ```bash block under '## Quickstart'."""
    section = text.split("## Quickstart", 1)[1]
    block = section.split("```bash\n", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.strip()]


if __name__ == "__main__":
    which = int(sys.argv[1]) if len(sys.argv) > 1 else None
    commands = quickstart_commands(README.read_text(encoding="utf-8"))
    print(commands[which - 1] if which else "\n".join(commands))
