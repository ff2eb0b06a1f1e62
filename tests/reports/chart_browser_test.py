#!/usr/bin/env python3
"""The report's charts as a browser draws them: every SVG the reporter writes for the test data
and for the committed samples' results is laid out in headless Chromium, with its fonts, and
measured there. Fails when two texts overlap, a text leaves the chart, or a roof label leaves the
plot. The chart places labels by estimated widths; only a real layout shows whether they hold.

usage: chart_browser_test.py --bin ridgeline-report --source REPO [--screenshots DIR]
Chromium: $RIDGELINE_CHROMIUM, or chromium / chromium-browser / google-chrome on PATH
(scripts/setup installs Debian's chromium). Without one the test fails: it must not pass unseen.
"""
import argparse
import html
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Report inputs, relative to the repository: one file, one host twice, four files from three
# hosts (CPU and GPU scales together), and the results behind each committed sample.
REPORTS = [
    ["tests/data/cpu_run_a.json"],
    ["tests/data/cpu_run_a.json", "tests/data/cpu_run_b.json"],
    ["tests/data/cpu_run_a.json", "tests/data/cpu_run_b.json", "tests/data/gpu_run.json",
     "tests/data/cpu_other_host.json"],
    ["samples/dev-vm/results.json"],
    ["samples/dev-vm-kokkos-3.4-vs-4.7/kokkos-3.4.json",
     "samples/dev-vm-kokkos-3.4-vs-4.7/kokkos-4.7.json"],
    ["samples/h200/results.json"],
]

# Runs in the page: one entry per <figure>, with every overlap and escape found. Boxes are the
# browser's own (font ascent to descent); half a pixel of touching is not an overlap.
CHECK = r"""
const tol = 0.5, found = [];
const inside = (r, f) => r.left >= f.left - tol && r.right <= f.right + tol &&
                         r.top >= f.top - tol && r.bottom <= f.bottom + tol;
for (const fig of document.querySelectorAll('figure')) {
  const svg = fig.querySelector('svg'), chart = svg.getBoundingClientRect();
  const plot = svg.querySelector('rect.plot');
  const frame = plot ? plot.getBoundingClientRect() : chart;
  const texts = [...svg.querySelectorAll('text')].filter(t => t.textContent.trim() !== '')
      .map(t => ({text: t.textContent, label: t.classList.contains('label'),
                  r: t.getBoundingClientRect()}));
  const problems = [];
  for (const t of texts) {
    if (!inside(t.r, chart)) problems.push(`'${t.text}' leaves the chart`);
    else if (t.label && !inside(t.r, frame)) problems.push(`'${t.text}' leaves the plot`);
  }
  for (let i = 0; i < texts.length; ++i)
    for (let j = i + 1; j < texts.length; ++j) {
      const a = texts[i].r, b = texts[j].r;
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > tol && h > tol)
        problems.push(`'${texts[i].text}' overlaps '${texts[j].text}' (${w.toFixed(1)} x ${h.toFixed(1)} px)`);
    }
  found.push({chart: fig.dataset.name, texts: texts.length, problems});
}
document.getElementById('result').textContent = JSON.stringify(found);
"""

# A chart with one overlap and one text off the edge: the check must report both, so it can fail.
BROKEN = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" font-size="12">'
          '<text x="10" y="50">I* 4.46</text><text x="14" y="50">I* 6.61</text>'
          '<text x="180" y="50">P 1 TFLOP/s</text></svg>')


def find_chromium():
    for name in (os.environ.get("RIDGELINE_CHROMIUM"), "chromium", "chromium-browser",
                 "google-chrome"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def chromium(browser, profile, *args):
    # --no-sandbox: containers and root (CI) have no user namespaces for Chromium's sandbox.
    cmd = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           f"--user-data-dir={profile}", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=180)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True, help="ridgeline-report")
    ap.add_argument("--source", required=True, help="repository root")
    ap.add_argument("--screenshots", help="also write a PNG of every chart here")
    a = ap.parse_args()
    browser = find_chromium()
    if not browser:
        sys.exit("chart_browser_test: FAILED: no Chromium found (set RIDGELINE_CHROMIUM or install "
                 "Debian's chromium, as scripts/setup does); the charts were not checked")
    with tempfile.TemporaryDirectory(prefix="ridgeline-charts-") as tmp:
        charts = []
        for n, inputs in enumerate(REPORTS):
            out = os.path.join(tmp, f"report{n}")
            r = subprocess.run([a.bin, "report", *[os.path.join(a.source, p) for p in inputs],
                                "--out", out], capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"chart_browser_test: FAILED: report {inputs}: {r.stderr}")
            charts += [os.path.join(out, f) for f in sorted(os.listdir(out)) if f.endswith(".svg")]
        figures = [("broken (self-check)", BROKEN)]
        for c in charts:
            with open(c, encoding="utf-8") as f:
                svg = re.sub(r"^<\?xml[^>]*>\s*", "", f.read())
            figures.append((os.path.relpath(c, tmp), svg))
        page = os.path.join(tmp, "charts.html")
        with open(page, "w", encoding="utf-8") as f:
            f.write("<!DOCTYPE html><html><head><meta charset='utf-8'>"
                    "<style>body{margin:0} figure{margin:0 0 8px 0}</style></head><body>\n")
            for name, svg in figures:
                f.write(f"<figure data-name='{html.escape(name)}'>{svg}</figure>\n")
            f.write(f"<pre id='result'>not run</pre><script>{CHECK}</script></body></html>\n")
        r = chromium(browser, os.path.join(tmp, "profile"), "--dump-dom", "file://" + page)
        m = re.search(r"<pre id=\"result\">(.*?)</pre>", r.stdout, re.S)
        if not m or m.group(1) == "not run":
            sys.exit(f"chart_browser_test: FAILED: no result from {browser} (exit {r.returncode}):"
                     f"\n{r.stderr[-2000:]}")
        found = json.loads(html.unescape(m.group(1)))
        broken, results = found[0], found[1:]
        if len(broken["problems"]) != 2 or len(results) != len(charts):
            sys.exit(f"chart_browser_test: FAILED: the check is blind: self-check found "
                     f"{broken['problems']}, {len(results)} of {len(charts)} charts measured")
        bad = 0
        for res in results:
            print(f"{res['chart']}: {res['texts']} texts, {len(res['problems'])} problems")
            for p in res["problems"]:
                print(f"  {p}")
            bad += bool(res["problems"]) or res["texts"] == 0
        if a.screenshots:
            os.makedirs(a.screenshots, exist_ok=True)
            for c in charts:
                head = open(c, encoding="utf-8").read(400)
                w, h = (re.search(f' {k}="([0-9.]+)"', head).group(1) for k in ("width", "height"))
                png = os.path.join(a.screenshots, os.path.relpath(c, tmp).replace("/", "_") + ".png")
                chromium(browser, os.path.join(tmp, "profile"), f"--screenshot={png}",
                         f"--window-size={int(float(w))},{int(float(h))}", "file://" + c)
        print(f"{len(charts)} charts measured in {os.path.basename(browser)}, {bad} with problems")
        return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
