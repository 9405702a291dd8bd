"""Shared by the report's tests: a small two-scorer CSV, and the writer's leftovers."""

from __future__ import annotations

import os

import numpy as np


def two_scorer_csv(path, n=3000, seed=11):
    """Write ``y,a,b``: 10 % positives, scorer ``a`` rounded (ties), ``b`` weaker; ``path``."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.1).astype(int)
    a = np.round(rng.normal(size=n) + 1.5 * y, 2)
    b = rng.normal(size=n) + 0.7 * y
    lines = "".join(f"{u},{v!r},{w!r}\n" for u, v, w in zip(y, a.tolist(), b.tolist(), strict=True))
    path.write_text("y,a,b\n" + lines)
    return path


def staging_leftovers(root) -> list[str]:
    """Hidden temporary files or folders of the all-or-nothing writer left under ``root``."""
    return [
        os.path.join(d, n)
        for d, dirs, names in os.walk(root)
        for n in dirs + names
        if n.startswith(".prcurve-")
    ]
