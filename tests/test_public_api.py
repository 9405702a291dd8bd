"""Guard the public surface: __all__ is exactly the public names, and each is documented."""

import importlib
import inspect

import prcurve

DESIGN_NAMES = {
    "pr_curve",
    "roc_curve",
    "auc_pr",
    "dg_interpolate",
    "achievable_pr_curve",
    "dominates",
    "PRCurve",
    "ROCCurve",
    "ConfidenceInterval",
}


def test_all_is_sorted_unique_and_importable():
    assert list(prcurve.__all__) == sorted(set(prcurve.__all__))
    for name in prcurve.__all__:
        assert hasattr(prcurve, name), name


def test_all_lists_every_public_attribute():
    """Every public function/class/constant is in __all__ (submodules are namespaces)."""
    from prcurve import _api

    public = {n for n, v in vars(_api).items() if not n.startswith("_") and not inspect.ismodule(v)}
    missing = public - set(prcurve.__all__) - {"annotations"}
    assert not missing, f"public names missing from __all__: {sorted(missing)}"


#: ROC inference (issue 27 item 2): DeLong's interval and paired test, McClish's partial AUC.
ROC_INFERENCE_NAMES = {
    "roc_auc_delong",
    "roc_auc_delong_from_counts",
    "delong_test",
    "partial_roc_auc",
    "DeLongAUC",
    "DeLongTest",
    "DegenerateVarianceWarning",
}


def test_design_names_present():
    assert DESIGN_NAMES <= set(prcurve.__all__)


def test_roc_inference_names_present():
    assert ROC_INFERENCE_NAMES <= set(prcurve.__all__)
    assert issubclass(prcurve.DegenerateVarianceWarning, prcurve.PRCurveWarning)


def test_public_callables_are_documented():
    for name in prcurve.__all__:
        obj = getattr(prcurve, name)
        if callable(obj):
            assert inspect.getdoc(obj), f"{name} has no docstring"


def test_statistics_do_not_import_matplotlib():
    import subprocess
    import sys

    code = (
        "import sys, prcurve; "
        "assert 'matplotlib' not in sys.modules, 'matplotlib imported by prcurve'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
    importlib.import_module("prcurve.plot")


def test_result_reprs_are_compact():
    """Results summarise long arrays instead of printing thousands of numbers."""
    import numpy as np

    rng = np.random.default_rng(0)
    y = rng.random(5000) < 0.1
    s = rng.normal(size=5000) + y
    text = repr(prcurve.pr_curve(y, s))
    assert len(text) < 800 and "shape=(5000,)" in text
    band = prcurve.pr_confidence_band(y, s, method="bootstrap", n_resamples=50, rng=0)
    assert len(repr(band)) < 2000 and "ConfidenceInterval(low=array([" in repr(band)
    assert repr(prcurve.ConfidenceInterval(0.25, 0.5)) == (
        "ConfidenceInterval(low=0.25, high=0.5, level=0.95)"
    )


def test_threshold_view_names_are_public():
    assert {"ThresholdView", "threshold_view"} <= set(prcurve.__all__)
    from prcurve import plot

    assert "ThresholdDisplay" in plot.__all__
    assert plot.ThresholdDisplay.__module__ == "prcurve.plot._threshold"


def test_top_k_lift_gain_names_present():
    """Issue 25 item 5: top-k metrics with ties in random order, lift and gain curves."""
    names = {
        "precision_at_k",
        "recall_at_k",
        "average_precision_at_k",
        "lift_curve",
        "gain_curve",
        "LiftCurve",
        "GainCurve",
    }
    assert names <= set(prcurve.__all__)
    import numpy as np

    rng = np.random.default_rng(0)
    y = rng.random(5000) < 0.1
    assert len(repr(prcurve.lift_curve(y, rng.normal(size=5000) + y))) < 1000


def test_cost_and_net_benefit_names_present():
    names = {"CostCurve", "ExpectedCost", "NetBenefitCurve", "cost_curve", "expected_cost"}
    assert names | {"net_benefit"} <= set(prcurve.__all__)


def test_sklearn_subpackage_surface():
    """``prcurve.sklearn``: an explicit, sorted, documented ``__all__`` of importable names."""
    sk = importlib.import_module("prcurve.sklearn")
    assert list(sk.__all__) == sorted(set(sk.__all__))
    assert set(sk.__all__) == {
        "ConstrainedThresholdClassifierCV",
        "FoldResults",
        "InfeasibleTargetError",
        "make_operating_scorer",
    }
    for name in sk.__all__:
        assert inspect.getdoc(getattr(sk, name)), f"prcurve.sklearn.{name} has no docstring"


def test_compat_subpackage_surface():
    """``prcurve.compat``: an explicit, sorted, documented ``__all__`` of importable names."""
    compat = importlib.import_module("prcurve.compat")
    assert list(compat.__all__) == sorted(set(compat.__all__))
    assert set(compat.__all__) == {
        "TOOLS",
        "ToolComparison",
        "ToolConvention",
        "ToolCurve",
        "ToolValue",
        "auc_pr",
        "auc_pr_from_counts",
        "compare_tools",
        "compare_tools_from_counts",
        "pr_curve",
        "pr_curve_from_counts",
    }
    for name in compat.__all__:
        if name != "TOOLS":
            assert inspect.getdoc(getattr(compat, name)), f"prcurve.compat.{name} has no docstring"
    assert all(e.convention and e.source for e in compat.TOOLS.values())


def test_torch_subpackage_surface():
    """``prcurve.torch``: importable without torch; an explicit, sorted, documented surface."""
    import subprocess
    import sys

    tm = importlib.import_module("prcurve.torch")
    assert list(tm.__all__) == sorted(set(tm.__all__))
    assert set(tm.__all__) == {"PRCurveMetric", "PRMetricResult"}
    for name in tm.__all__:
        assert inspect.getdoc(getattr(tm, name)), f"prcurve.torch.{name} has no docstring"
    code = "import sys, prcurve, prcurve.torch; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"  # torch is imported when a tensor is first seen


def test_profile_likelihood_names_present():
    """Issue 27 item 5: profile-likelihood (Wilks) regions for a precision-recall point."""
    assert {"ProfileRegion", "pr_profile_region", "pr_profile_statistic"} <= set(prcurve.__all__)
    assert prcurve.ProfileRegion.__module__ == "prcurve._inference._profile"
    assert len(repr(prcurve.pr_profile_region(40, 10, 20, 930))) < 1000


def test_study_planning_names_present():
    """Issue 27 item 4: sample size for an AP interval, power of the paired AP test."""
    names = {
        "APHalfWidth",
        "APPowerPlan",
        "APPrecisionPlan",
        "ap_half_width",
        "plan_ap_power",
        "plan_ap_precision",
    }
    assert names <= set(prcurve.__all__)


def test_bounded_accumulator_names_present():
    """Issue 26 item 2: fixed-memory accumulator with a stated error bound."""
    assert {"BoundedPRAccumulator", "BoundedPRCurve"} <= set(prcurve.__all__)
    acc = prcurve.BoundedPRAccumulator(max_bins=8).update([1, 0] * 50, list(range(100)))
    assert isinstance(acc.curve(), prcurve.BoundedPRCurve)
