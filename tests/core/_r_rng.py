"""R's default random numbers (``set.seed``, ``runif``, ``rnorm``), reproduced with NumPy.

The PRROC package publishes its reference values (``tests/testthat/test-PR.R``,
``test-ROC.R``) for data drawn in R after ``set.seed(s)``.  R is not installable here, so the
tests regenerate the same data from R's documented generators:

* ``set.seed(s)`` with the default kind "Mersenne-Twister": the seed is scrambled by 50 steps
  of the LCG ``seed = 69069 * seed + 1`` (mod 2**32), and the next 625 LCG values fill the
  generator's state; the first is the position (reset to 624, "start a new block"), the other
  624 are the Mersenne-Twister words.  NumPy's ``MT19937`` holds the same state and yields the
  same 32-bit outputs.
* ``unif_rand()`` = output * 2**-32 (``2.3283064365386963e-10``), kept inside (0, 1);
  ``runif(n, a, b)`` = ``a + (b - a) * unif_rand()``.
* ``norm_rand()`` with the default kind "Inversion": two uniforms ``u1``, ``u2`` give
  ``qnorm((floor(2**27 * u1) + u2) / 2**27)``; ``rnorm(n, m, sd)`` = ``m + sd * norm_rand()``.
  SciPy's ``ndtri`` stands in for R's ``qnorm`` (both accurate to a few ulps).

The emulation is itself checked against PRROC's hard-label values (ROC and PR areas of
``set.seed(101)`` data) before it is trusted for the soft-label ones.
"""

from __future__ import annotations

import numpy as np
from scipy.special import ndtri

_MASK = 0xFFFFFFFF


class RRandom:
    """The random stream of an R session after ``set.seed(seed)``."""

    def __init__(self, seed: int) -> None:
        s = seed & _MASK
        for _ in range(50):
            s = (69069 * s + 1) & _MASK
        words = []
        for _ in range(625):
            s = (69069 * s + 1) & _MASK
            words.append(s)
        self._bits = np.random.MT19937()
        self._bits.state = {
            "bit_generator": "MT19937",
            "state": {"key": np.array(words[1:], dtype=np.uint32), "pos": 624},
        }

    def _unif(self, n: int) -> np.ndarray:
        u = self._bits.random_raw(n).astype(np.float64) * 2.3283064365386963e-10
        half = 0.5 * 2.328306437080797e-10  # R's fixup: never exactly 0 or 1
        return np.clip(u, half, 1.0 - half)

    def runif(self, n: int, low: float = 0.0, high: float = 1.0) -> np.ndarray:
        return low + (high - low) * self._unif(n)

    def rnorm(self, n: int, mean: float = 0.0, sd: float = 1.0) -> np.ndarray:
        big = 134217728.0  # 2**27
        u = self._unif(2 * n)  # consumed in pairs, in order
        z = ndtri((np.floor(big * u[0::2]) + u[1::2]) / big)
        return mean + sd * z
