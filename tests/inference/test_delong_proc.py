"""DeLong's interval and paired test, and McClish's partial AUC, equal pROC to 1e-10.

pROC (R package ``r-cran-proc``) is run through ``Rscript`` on data written to a temporary file.
Without Rscript the test is skipped, except in CI (env var ``CI`` set), where it fails instead:
the comparison must run there (``.ci/run`` installs R and pROC).
"""

import numpy as np
import pytest

from prcurve import delong_test, partial_roc_auc, roc_auc_delong

from ..conftest import run_rscript

R_SCRIPT = r"""
suppressPackageStartupMessages(library(pROC))
args <- commandArgs(trailingOnly = TRUE)
d <- read.csv(args[1])
out <- function(name, x) cat(name, sprintf("%.17g", as.numeric(x)), "\n")
ra <- roc(d$y, d$a, levels = c(0, 1), direction = "<", quiet = TRUE)
rb <- roc(d$y, d$b, levels = c(0, 1), direction = "<", quiet = TRUE)
out("auc_a", auc(ra))
out("var_a", var(ra, method = "delong"))
out("ci_a", ci.auc(ra, method = "delong", conf.level = 0.9))
t <- roc.test(ra, rb, method = "delong", paired = TRUE, conf.level = 0.9)
out("statistic", t$statistic)
out("p_value", t$p.value)
out("estimate", t$estimate)
out("conf_int", t$conf.int)
tg <- roc.test(ra, rb, method = "delong", paired = TRUE, alternative = "greater")
out("p_greater", tg$p.value)
out("pauc_20", auc(ra, partial.auc = c(1, 0.8), partial.auc.focus = "specificity",
                   partial.auc.correct = TRUE))
out("pauc_10_30", auc(ra, partial.auc = c(0.9, 0.7), partial.auc.focus = "specificity",
                      partial.auc.correct = TRUE))
out("pauc_raw_10_30", auc(ra, partial.auc = c(0.9, 0.7), partial.auc.focus = "specificity"))
"""


def _proc(tmp_path, y, a, b) -> dict[str, np.ndarray]:
    rows = "\n".join(f"{int(t)},{float(x)!r},{float(z)!r}" for t, x, z in zip(y, a, b, strict=True))
    out = run_rscript(tmp_path, R_SCRIPT, "y,a,b\n" + rows + "\n", packages="r-cran-proc")
    values = {}
    for line in out.splitlines():
        name, *numbers = line.split()
        values[name] = np.array([float(v) for v in numbers])
    return values


def _cases():
    rng = np.random.default_rng(20261126)
    for n, prevalence, rounding in ((60, 0.4, 2), (300, 0.2, 4), (1000, 0.5, 10), (45, 0.7, 1)):
        y = rng.random(n) < prevalence
        y[:2], y[2:4] = True, False
        a = rng.normal(size=n) + 1.1 * y
        b = 0.6 * a + rng.normal(size=n) * 0.8 + 0.3 * y
        # round to a grid: many ties within and across classes
        yield y, np.round(a * rounding) / rounding, np.round(b * rounding) / rounding


@pytest.mark.parametrize("case", list(_cases()), ids=["n60", "n300", "n1000", "n45"])
def test_equal_to_proc(tmp_path, case):
    y, a, b = case
    r = _proc(tmp_path, y, a, b)
    one = roc_auc_delong(y, a, level=0.9)
    assert one.auc == pytest.approx(r["auc_a"][0], abs=1e-10)
    assert one.variance == pytest.approx(r["var_a"][0], abs=1e-10)
    # ci.auc returns (lower, auc, upper)
    assert (one.ci.low, one.auc, one.ci.high) == pytest.approx(tuple(r["ci_a"]), abs=1e-10)
    test = delong_test(y, a, b, level=0.9)
    assert test.statistic == pytest.approx(r["statistic"][0], abs=1e-10)
    assert test.p_value == pytest.approx(r["p_value"][0], abs=1e-10)
    assert (test.auc_a, test.auc_b) == pytest.approx(tuple(r["estimate"]), abs=1e-10)
    assert (test.ci.low, test.ci.high) == pytest.approx(tuple(r["conf_int"]), abs=1e-10)
    greater = delong_test(y, a, b, alternative="greater")
    assert greater.p_value == pytest.approx(r["p_greater"][0], abs=1e-10)
    assert partial_roc_auc(y, a, max_fpr=0.2) == pytest.approx(r["pauc_20"][0], abs=1e-10)
    assert partial_roc_auc(y, a, min_fpr=0.1, max_fpr=0.3) == pytest.approx(
        r["pauc_10_30"][0], abs=1e-10
    )
    raw = partial_roc_auc(y, a, min_fpr=0.1, max_fpr=0.3, standardized=False)
    assert raw == pytest.approx(r["pauc_raw_10_30"][0], abs=1e-10)
