"""``python -m prcurve``: the same as the ``prcurve`` command."""

import sys

from .cli import run

if __name__ == "__main__":
    sys.exit(run())
