"""The report opened in headless Chromium: it loads, every figure is there and decodes.

Chromium is required in CI: ``.ci/run`` installs Debian's ``chromium`` and runs with ``CI=true``,
where a missing browser fails this test rather than skipping it, so it cannot pass unnoticed.
On a developer's machine without Chromium the test is skipped with that reason.
"""

from __future__ import annotations

import base64
import io
import json
import os
import re
import shutil
import subprocess

import numpy as np
import pytest
from matplotlib import image as mpimg

from prcurve._reporting.input._io import BUILTIN_EXAMPLE
from prcurve.cli import main

CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

# Appended to a copy of the page: writes what Chromium made of every <img> into the DOM.
PROBE = """
<script>
window.addEventListener("load", function () {
  var out = [];
  document.querySelectorAll("img").forEach(function (img) {
    out.push([img.complete ? 1 : 0, img.naturalWidth, img.naturalHeight,
              img.getBoundingClientRect().width]);
  });
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def _chromium() -> str:
    path = shutil.which("chromium") or shutil.which("chromium-browser")
    if not path:
        message = "chromium is not installed: run 'apt-get install -y chromium' (CI does)"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(message)
        pytest.skip(message)
    return path


def _run(args: list[str], tmp_path) -> subprocess.CompletedProcess:
    profile = tmp_path / f"profile-{len(list(tmp_path.iterdir()))}"
    return subprocess.run(
        [_chromium(), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
        capture_output=True,
        timeout=180,
    )


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("browser") / "report"
    assert main(["report", "--out", str(out), "--n-resamples", "200", "--quiet"]) == 0
    return out / "report.html"


def test_report_loads_in_chromium_with_every_figure(report, tmp_path):
    page = report.read_text()
    # the overview, then per scorer its curves and its threshold view (Choosing a threshold)
    n_figures = 1 + 2 * len(BUILTIN_EXAMPLE.scores)

    # 1. the DOM as Chromium parsed it: every <img> carries a data: PNG of real size
    dom = _run(["--dump-dom", report.as_uri()], tmp_path)
    assert dom.returncode == 0, dom.stderr.decode(errors="replace")[-2000:]
    html = dom.stdout.decode()
    assert "<h1>Precision–recall report</h1>" in html
    # the reader's entry points: the ranking first, the explanations linked from it
    assert html.index("Which scorer is best?") < html.index("<h2>Summary</h2>")
    assert 'id="how-to-read"' in html and "Best by average precision" in html
    srcs = re.findall(r'<img src="([^"]+)"', html)
    assert len(srcs) == n_figures
    for src in srcs:
        assert src.startswith("data:image/png;base64,")
        png = base64.b64decode(src.split(",", 1)[1], validate=True)
        assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 20_000
        pixels = mpimg.imread(io.BytesIO(png), format="png")
        assert pixels.shape[0] > 300 and pixels.shape[1] > 600
        assert pixels[..., :3].std() > 0.05  # a drawing, not a flat image

    # 2. Chromium decoded every image (none broken) and laid it out with a width
    probe_page = tmp_path / "probe.html"
    probe_page.write_text(page.replace("</body>", PROBE + "</body>"))
    dom = _run(["--virtual-time-budget=10000", "--dump-dom", probe_page.as_uri()], tmp_path)
    assert dom.returncode == 0
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout.decode())
    assert found, "the page's load event did not fire"
    images = np.array(json.loads(found.group(1)), dtype=float)
    assert images.shape == (n_figures, 4)
    assert np.all(images[:, 0] == 1), "an image did not finish loading"
    assert np.all(images[:, 1] > 600) and np.all(images[:, 2] > 300), "a broken image"
    assert np.all(images[:, 3] > 300), "an image is not displayed"

    # 3. a screenshot of the page that is not blank
    shot = tmp_path / "shot.png"
    res = _run([f"--screenshot={shot}", "--window-size=1280,4000", report.as_uri()], tmp_path)
    assert res.returncode == 0 and shot.exists()
    keep = os.environ.get("PRCURVE_SCREENSHOT")  # where to keep it for a person to look at
    if keep:
        shutil.copyfile(shot, keep)
    pixels = mpimg.imread(shot)
    assert pixels.shape[:2] == (4000, 1280)
    rgb = pixels[..., :3]
    assert rgb.std() > 0.05
    non_white = np.mean(np.any(rgb < 0.9, axis=-1))
    assert non_white > 0.05, f"the screenshot is nearly blank ({non_white:.1%} non-white)"
    # the figures' colours (Okabe–Ito blue #0072B2) are on screen
    blue = np.all(np.abs(rgb - np.array([0, 0x72, 0xB2]) / 255) < 0.08, axis=-1)
    assert blue.sum() > 500


# Appended to a copy of a page: the computed styles that make the pages look alike.
STYLE_PROBE = """
<script>
window.addEventListener("load", function () {
  function style(sel, props) {
    var el = document.querySelector(sel);
    if (!el) { return null; }
    var cs = getComputedStyle(el);
    return props.map(function (p) { return cs.getPropertyValue(p); });
  }
  var out = {
    body: style("body", ["font-family", "font-size", "color", "background-color"]),
    main: style("main", ["max-width", "margin-left"]),
    h1: style("h1", ["font-size", "font-weight", "color"]),
    h2: style("h2", ["font-size", "border-bottom-style"]),
    th: style("table th", ["text-align", "border-bottom-style", "font-weight"]),
    img: Array.from(document.querySelectorAll("img")).map(function (i) {
      return [i.complete ? 1 : 0, i.naturalWidth];
    })
  };
  var pre = document.createElement("pre");
  pre.id = "probe";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def _styles(page, tmp_path, name: str) -> dict:
    probe_page = tmp_path / f"{name}.html"
    probe_page.write_text(page.read_text().replace("</body>", STYLE_PROBE + "</body>"))
    dom = _run(["--virtual-time-budget=10000", "--dump-dom", probe_page.as_uri()], tmp_path)
    assert dom.returncode == 0
    found = re.search(r'<pre id="probe">(.*?)</pre>', dom.stdout.decode())
    assert found, f"the {name} page's load event did not fire"
    return json.loads(found.group(1))


def test_binary_multiclass_and_cv_pages_look_like_one_product(report, tmp_path):
    """The three report shapes in Chromium: the same layout and type (computed styles of the
    body, the column, the headings and table heads), every figure loaded, a non-blank
    screenshot of each."""
    rng = np.random.default_rng(28)
    n = 600
    label = rng.choice(["cat", "dog", "eel"], size=n)
    scores = rng.dirichlet([1, 1, 1], size=n) + 0.8 * (
        label[:, None] == np.array(["cat", "dog", "eel"])
    )
    lines = ["label,is_cat,fold,p_cat,p_dog,p_eel"] + [
        f"{lab},{int(lab == 'cat')},{i % 3},{a!r},{b!r},{c!r}"
        for i, (lab, (a, b, c)) in enumerate(zip(label, scores.tolist(), strict=True))
    ]
    data = tmp_path / "multi.csv"
    data.write_text("\n".join(lines) + "\n")
    pages = {"binary": report}
    for name, extra in {
        "multiclass": ["--label", "label", "--score-prefix", "p_"],
        "folds": ["--label", "is_cat", "--score", "p_cat", "--fold", "fold"],
    }.items():
        out = tmp_path / name
        args = ["report", str(data), *extra, "--out", str(out), "--quiet"]
        assert main(args) == 0
        pages[name] = out / "report.html"
    styles = {name: _styles(page, tmp_path, name) for name, page in pages.items()}
    for key in ("body", "main", "h1", "h2", "th"):
        seen = {name: s[key] for name, s in styles.items()}
        assert seen["binary"] is not None and len({json.dumps(v) for v in seen.values()}) == 1, (
            key, seen,
        )  # fmt: skip
    for name, s in styles.items():
        assert s["img"] and all(ok == 1 and width > 300 for ok, width in s["img"]), name
        shot = tmp_path / f"{name}.png"
        res = _run([f"--screenshot={shot}", "--window-size=1280,2000", pages[name].as_uri()],
                   tmp_path)  # fmt: skip
        assert res.returncode == 0 and shot.exists()
        rgb = mpimg.imread(shot)[..., :3]
        # text, tables and a figure: a few per cent of the pixels (a blank page has none)
        assert np.mean(np.any(rgb < 0.9, axis=-1)) > 0.02, f"the {name} page looks blank"
