"""scikit-learn is optional: one clear error, naming the extra to install, when it is missing."""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["INSTALL_HINT", "require_sklearn"]

INSTALL_HINT = 'pip install "prcurve[sklearn]"'


def require_sklearn(module: str = "sklearn") -> ModuleType:
    """Import a scikit-learn module, or raise ImportError saying how to install scikit-learn."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"prcurve.sklearn: expected scikit-learn (>= 1.4) to be installed, got "
            f"{exc.name or module!r} missing; install it with {INSTALL_HINT}"
        ) from exc
