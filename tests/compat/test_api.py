"""``prcurve.compat``: validation, the comparison table and the tools' differences."""

import dataclasses

import numpy as np
import pytest

from prcurve import auc_pr as prcurve_auc_pr
from prcurve import compat

Y = np.array([1, 0, 1, 1, 0, 0, 1, 0])
S = np.array([0.9, 0.8, 0.7, 0.7, 0.7, 0.3, 0.2, 0.1])


def test_unknown_tool():
    with pytest.raises(ValueError, match=r"tool: expected one of sklearn, .*auc_jar, got 'sas'"):
        compat.auc_pr(Y, S, tool="sas")


def test_unknown_option_names_the_tool_and_its_options():
    with pytest.raises(TypeError, match=r"tool_options: 'spark' takes num_bins, got bins"):
        compat.auc_pr(Y, S, tool="spark", bins=10)
    with pytest.raises(TypeError, match=r"tool_options: 'rocr' takes no options, got x_bins"):
        compat.auc_pr(Y, S, tool="rocr", x_bins=10)


@pytest.mark.parametrize(
    ("tool", "option", "value", "message"),
    [
        ("spark", "num_bins", -1, r"num_bins: expected an integer >= 0, got -1"),
        ("keras", "num_thresholds", 1, r"num_thresholds: expected an integer >= 2, got 1"),
        ("keras", "num_thresholds", 2.5, r"num_thresholds: expected an integer >= 2, got 2.5"),
        ("precrec", "x_bins", True, r"x_bins: expected an integer >= 0, got True"),
        ("torchmetrics_binned", "thresholds", 1, r"thresholds: expected an integer >= 2, got 1"),
        (
            "torchmetrics_binned",
            "thresholds",
            [0.1, np.nan],
            r"thresholds: expected None, an integer >= 2 or a list of finite numbers, got",
        ),
    ],
)
def test_bad_option_values(tool, option, value, message):
    with pytest.raises(ValueError, match=message):
        compat.auc_pr(Y, S, tool=tool, **{option: value})


@pytest.mark.parametrize("tool", ["precrec", "rocr", "prroc_dg", "auc_jar", "torchmetrics"])
def test_tools_without_weights_refuse_them(tool):
    with pytest.raises(ValueError, match=r"sample_weight: .* takes no sample weights, so"):
        compat.auc_pr(Y, S, tool=tool, sample_weight=np.ones(Y.shape[0]))


def test_input_is_validated_by_the_engine():
    with pytest.raises(ValueError, match=r"y_true and y_score: expected the same length"):
        compat.auc_pr(Y, S[:-1], tool="spark")


def test_explicit_torchmetrics_thresholds_equal_the_integer_grid():
    grid = np.linspace(0, 1, 5, dtype=np.float32)
    assert compat.auc_pr(Y, S, tool="torchmetrics_binned", thresholds=list(grid)) == (
        compat.auc_pr(Y, S, tool="torchmetrics_binned", thresholds=5)
    )


def test_compare_tools_table():
    table = compat.compare_tools(Y, S)
    assert [r.tool for r in table.rows] == list(compat.TOOLS)
    assert table.average_precision == prcurve_auc_pr(Y, S)
    assert table.davis_goadrich == prcurve_auc_pr(Y, S, method="davis_goadrich")
    for row in table.rows:
        assert row.value == compat.auc_pr(Y, S, tool=row.tool)
        assert row.minus_ap == pytest.approx(row.value - table.average_precision, abs=0)
        assert row.reason == compat.TOOLS[row.tool].convention
    # the tools that are prcurve's own estimators agree to rounding
    assert table.value("sklearn") == pytest.approx(table.average_precision, abs=1e-15)
    assert table.value("prroc_integral") == pytest.approx(table.davis_goadrich, abs=1e-15)
    assert table.value("yardstick") == pytest.approx(
        prcurve_auc_pr(Y, S, method="lower_trapezoid"), abs=1e-15
    )
    farthest = table.largest_difference()
    assert all(abs(farthest.minus_dg) >= abs(r.minus_dg) for r in table.rows)
    markdown = table.to_markdown(digits=3)
    assert f"| rocr | {table.value('rocr'):.3f} |" in markdown
    with pytest.raises(dataclasses.FrozenInstanceError):
        table.rows = ()  # type: ignore[misc]
    with pytest.raises(KeyError, match=r"tool: expected one of sklearn, .*, got 'sas'"):
        table.value("sas")


def test_compare_tools_with_weights_leaves_unweighted_tools_without_value():
    w = np.linspace(0.5, 2.0, Y.shape[0])
    table = compat.compare_tools(Y, S, sample_weight=w)
    for row in table.rows:
        if compat.TOOLS[row.tool].weights:
            assert row.value == pytest.approx(compat.auc_pr(Y, S, tool=row.tool, sample_weight=w))
        else:
            assert row.value is None and row.reason.endswith("takes no sample weights")
    assert "| rocr | – | – | – |" in table.to_markdown()
