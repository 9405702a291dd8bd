"""ROCR's ``performance(prediction(s, y), "aucpr")`` equals ``compat.auc_pr(tool="rocr")``.

ROCR (Debian package ``r-cran-rocr``) runs through ``Rscript`` on data written to a temporary
file.  Without Rscript the test is skipped, except in CI (env var ``CI`` set), where it fails:
``.ci/run`` installs R with ROCR.  The rounded cases have tie groups with more than two
positives, where ROCR's inserted points land out of order.
"""

import os
import shutil
import subprocess

import numpy as np
import pytest

from prcurve import compat

R_SCRIPT = r"""
suppressPackageStartupMessages(library(ROCR))
d <- read.csv(commandArgs(trailingOnly = TRUE)[1])
for (k in unique(d$case)) {
  e <- d[d$case == k, ]
  p <- prediction(e$s, e$y)
  cat(sprintf("%.17g", performance(p, "aucpr")@y.values[[1]]), "\n")
}
"""


def _rscript() -> str:
    path = shutil.which("Rscript")
    if path is None:
        if os.environ.get("CI"):
            pytest.fail(
                "Rscript not found: CI must compare with ROCR (apt-get install r-cran-rocr)"
            )
        pytest.skip("Rscript not found (apt-get install r-base-core r-cran-rocr)")
    return path


def _cases():
    rng = np.random.default_rng(20270128)
    for n, prevalence, scale in (
        (40, 0.4, 1),
        (300, 0.3, 1),
        (500, 0.2, 2),
        (200, 0.5, 10),
        (800, 0.1, None),
    ):
        y = rng.random(n) < prevalence
        y[:2] = True, False
        s = rng.normal(size=n) + y
        yield y, (s if scale is None else np.round(s * scale) / scale)


def test_equal_to_rocr(tmp_path):
    cases = list(_cases())
    rows = [
        f"{k},{int(t)},{float(v)!r}"
        for k, (y, s) in enumerate(cases)
        for t, v in zip(y, s, strict=True)
    ]
    data = tmp_path / "data.csv"
    data.write_text("case,y,s\n" + "\n".join(rows) + "\n")
    script = tmp_path / "rocr.R"
    script.write_text(R_SCRIPT)
    done = subprocess.run(
        [_rscript(), str(script), str(data)], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    values = [float(v) for v in done.stdout.split()]
    assert len(values) == len(cases)
    for (y, s), expected in zip(cases, values, strict=True):
        assert compat.auc_pr(y, s, tool="rocr") == pytest.approx(expected, abs=1e-12)
    # the tied cases really exercise the out-of-order insertion (it changes the value)
    y, s = cases[0]
    assert compat.auc_pr(y, s, tool="rocr") != pytest.approx(
        compat.auc_pr(y, s, tool="yardstick"), abs=1e-3
    )
