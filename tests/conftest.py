import os

import numpy as np
import pytest

os.environ.setdefault("MPLBACKEND", "Agg")


@pytest.fixture
def rng():
    return np.random.default_rng(20261121)


def make_problem(rng, n=300, prevalence=0.2, ties=False, weights=False):
    """Random labelled scores; optional heavy ties and weights."""
    y = rng.random(n) < prevalence
    y[0], y[1] = True, False
    s = rng.normal(size=n) + 1.2 * y
    if ties:
        s = np.round(s * 2) / 2
    w = rng.random(n) * 3 if weights else None
    return y, s, w
