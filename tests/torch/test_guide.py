"""The training-loop example of ``docs/guide/torch.md`` runs as printed.

Every ```` ```python ```` block of the page is executed in order in one namespace (the
``{code-block}`` DDP sketch needs several processes and is covered by ``test_distributed.py``).
"""

import re
from pathlib import Path

from ..conftest import import_reference

PAGE = Path(__file__).resolve().parents[2] / "docs" / "guide" / "torch.md"


def test_guide_examples_run(capsys):
    import_reference("torch", required_by="PRCURVE_CI_TORCH", install="'.[torch,test]'")
    text = PAGE.read_text(encoding="utf-8")
    assert text.startswith("# ")
    blocks = re.findall(r"^```python\n(.*?)^```", text, flags=re.S | re.M)
    assert blocks, "no python example on the page"
    namespace: dict = {}
    for block in blocks:
        exec(compile(block, str(PAGE), "exec"), namespace)
    printed = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in printed[:3]] == ["epoch 0", "epoch 1", "epoch 2"]
    result = namespace["result"]
    assert 0 < result.average_precision <= 1 and result.operating_points[0].feasible
    # the capped metric: 100,000 distinct scores in 4,096 bins, a stated bound that holds
    bounded = namespace["bounded"]
    assert printed[3:] == [
        f"AP {bounded.average_precision:.4f} ± {bounded.error_bounds['average_precision']:.1e}"
    ]
    assert bounded.bounded is not None and not bounded.bounded.exact
    assert 0 < bounded.error_bounds["average_precision"] < 0.01
