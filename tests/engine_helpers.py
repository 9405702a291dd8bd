"""What the engine tests share: data with ties and weights, the real entry point, and the
comparison of two ``summary.json`` files (``--engine memory`` against Dask or Spark)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

#: Options of the binary report that change the analysis, all given at once.
EVERY_OPTION = [
    "--prevalence", "0.05", "--min-precision", "0.5,0.7", "--min-recall", "0.6",
    "--cost-ratio", "2", "--top-k", "0.1", "--level", "0.9", "--seed", "3",
    "--n-resamples", "60", "--jobs", "1",
]  # fmt: skip


def tied_weighted(n: int, seed: int, *, weights: bool = True) -> pd.DataFrame:
    """Two scorers with ties (rounded scores), weights with zeros, 20 % positives."""
    rng = np.random.default_rng(seed)
    y = rng.random(n) < 0.2
    frame = pd.DataFrame(
        {
            "y": y.astype(int),
            "a": np.round(rng.normal(size=n) + y, 1),
            "b": np.round(rng.normal(size=n) + 0.7 * y, 2),
        }
    )
    if weights:
        frame["w"] = rng.choice([0.0, 0.5, 1.0, 2.0], size=n)
    return frame


def run(*args: object) -> subprocess.CompletedProcess[str]:
    """The real entry point, ``python -m prcurve``, in a subprocess."""
    cmd = [sys.executable, "-m", "prcurve", "report", *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=600, check=False)


def flat(value: object, prefix: str = "") -> dict[str, object]:
    if isinstance(value, dict):
        return {k: v for key, sub in value.items() for k, v in flat(sub, f"{prefix}/{key}").items()}
    if isinstance(value, list):
        return {k: v for i, sub in enumerate(value) for k, v in flat(sub, f"{prefix}/{i}").items()}
    return {prefix: value}


def note_keys(flat_summary: dict[str, object]) -> set[str]:
    """The keys but the notes' (an engine that resamples a subsample adds notes saying so)."""
    return {k for k in flat_summary if not re.search(r"/notes/\d+$", k)}


def summary(out: Path) -> dict:
    return json.loads((out / "summary.json").read_text())


def assert_same_summary(got: dict, ref: dict, engine: str) -> None:
    """The same keys, and every number equal to the rounding of sums (an engine sums the
    weights per partition in another order: 1e-9 relative); the engine's own name and note,
    and the source, excepted."""
    got, ref = flat(got), flat(ref)
    assert got.keys() == ref.keys()
    differ = {"/settings/source", "/engine/name", "/engine/note"}
    for key, value in ref.items():
        if key in differ:
            continue
        if isinstance(value, float):
            assert got[key] == pytest.approx(value, rel=1e-9, abs=1e-12), key
        else:
            assert got[key] == value, key
    assert got["/engine/name"] == engine
