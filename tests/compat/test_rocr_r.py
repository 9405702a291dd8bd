"""ROCR's ``performance(prediction(s, y), "aucpr")`` equals ``compat.auc_pr(tool="rocr")``.

ROCR (Debian package ``r-cran-rocr``) runs through ``Rscript`` on data written to a temporary
file.  Without Rscript the test is skipped, except in CI (env var ``CI`` set), where it fails:
``.ci/run`` installs R with ROCR.  The rounded cases have tie groups with more than two
positives, where ROCR's inserted points land out of order.
"""

import numpy as np
import pytest

from prcurve import compat

from ..conftest import run_rscript

R_SCRIPT = r"""
suppressPackageStartupMessages(library(ROCR))
d <- read.csv(commandArgs(trailingOnly = TRUE)[1])
for (k in unique(d$case)) {
  e <- d[d$case == k, ]
  p <- prediction(e$s, e$y)
  cat(sprintf("%.17g", performance(p, "aucpr")@y.values[[1]]), "\n")
}
"""


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
    out = run_rscript(
        tmp_path, R_SCRIPT, "case,y,s\n" + "\n".join(rows) + "\n", packages="r-cran-rocr"
    )
    values = [float(v) for v in out.split()]
    assert len(values) == len(cases)
    for (y, s), expected in zip(cases, values, strict=True):
        assert compat.auc_pr(y, s, tool="rocr") == pytest.approx(expected, abs=1e-12)
    # the tied cases really exercise the out-of-order insertion (it changes the value)
    y, s = cases[0]
    assert compat.auc_pr(y, s, tool="rocr") != pytest.approx(
        compat.auc_pr(y, s, tool="yardstick"), abs=1e-3
    )


#: ROCR's own ``.performance.aucpr`` made to return its (recall, precision) vectors instead of
#: their area: the body is ROCR's, only the final ``return(ans)`` is replaced.
R_CURVE_SCRIPT = r"""
suppressPackageStartupMessages(library(ROCR))
f <- ROCR:::.performance.aucpr
b <- body(f)
b[[length(b)]] <- quote(return(list(rec = rec, prec = prec)))
body(f) <- b
d <- read.csv(commandArgs(trailingOnly = TRUE)[1])
for (k in unique(d$case)) {
  e <- d[d$case == k, ]
  p <- prediction(e$s, e$y)
  r <- f(p@predictions[[1]], p@labels[[1]], p@cutoffs[[1]], p@fp[[1]], p@tp[[1]],
         p@fn[[1]], p@tn[[1]], p@n.pos[[1]], p@n.neg[[1]], p@n.pos.pred[[1]],
         p@n.neg.pred[[1]])
  cat("rec", sprintf("%.17g", r$rec), "\n")
  cat("prec", sprintf("%.17g", r$prec), "\n")
}
"""


def test_curve_equal_to_rocrs_own_vectors(tmp_path):
    """``compat.pr_curve(tool="rocr")`` is the vectors ROCR integrates, in ROCR's order."""
    cases = list(_cases())
    rows = [
        f"{k},{int(t)},{float(v)!r}"
        for k, (y, s) in enumerate(cases)
        for t, v in zip(y, s, strict=True)
    ]
    out = run_rscript(
        tmp_path, R_CURVE_SCRIPT, "case,y,s\n" + "\n".join(rows) + "\n", packages="r-cran-rocr"
    )
    lines = [line.split() for line in out.splitlines()]
    assert len(lines) == 2 * len(cases)
    for k, (y, s) in enumerate(cases):
        (rec_name, *rec), (prec_name, *prec) = lines[2 * k], lines[2 * k + 1]
        assert (rec_name, prec_name) == ("rec", "prec")
        curve = compat.pr_curve(y, s, tool="rocr")
        np.testing.assert_allclose(curve.recall, np.array(rec, dtype=float), rtol=0, atol=1e-13)
        np.testing.assert_allclose(curve.precision, np.array(prec, dtype=float), rtol=0, atol=1e-13)
        if k == 0:  # the tied case: ROCR's recall really goes back and forth
            assert (np.diff(curve.recall) < 0).any()
