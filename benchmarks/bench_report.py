"""How long ``baccarat-kit report`` takes for a large class (target: 300 learners × 6 exercises < 5 s).

Run by hand (not a timed test):  .venv/bin/python benchmarks/bench_report.py [--learners 300] [--repeat 5]

Generates a class in the class workflow's results.json schema (``tests/report_class.py``: the
kit's six exercises, seeded answers, late and refused files, misconceptions), then times

* the whole command, as an instructor runs it (a fresh process: Python start, imports,
  matplotlib, reading the JSON, the page, writing it), median and worst of ``--repeat`` runs;
* the steps inside one warm process (read, numbers, page with its plots, write).

It also prints the page's size and how many grid cells it holds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from report_class import make_class  # noqa: E402

from baccarat_kit.grading import report as rp  # noqa: E402

TARGET_S = 5.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=300)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bk-bench-report-") as tmp:
        graded = Path(tmp) / "graded"
        graded.mkdir()
        doc = make_class(args.learners)
        (graded / "results.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1), encoding="utf-8")
        out = Path(tmp) / "report.html"
        exe = Path(sys.executable).parent / "baccarat-kit"
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "baccarat_kit.cli"]
        cmd += ["report", str(graded), "--out", str(out)]
        print(f"class: {args.learners} learners, {len(doc['submissions'])} submissions, "
              f"results.json {(graded / 'results.json').stat().st_size / 1e6:.1f} MB")
        print(f"command: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(cmd))}")
        print(f"load average before: {os.getloadavg()[0]:.1f} (2 cores here, shared)")
        # One warm-up run first, allowed to write Python's bytecode cache (as any machine does on
        # its first run; uv installs without compiling, and PYTHONDONTWRITEBYTECODE=1 would make
        # every run compile matplotlib again, about 3 s more).
        variants = {"after one warm-up run": {k: v for k, v in os.environ.items()
                                              if k != "PYTHONDONTWRITEBYTECODE"}}
        for label, env in variants.items():
            subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
            runs, cpu = [], []
            for _ in range(args.repeat):
                before = resource.getrusage(resource.RUSAGE_CHILDREN)
                t = time.perf_counter()
                subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
                runs.append(time.perf_counter() - t)
                after = resource.getrusage(resource.RUSAGE_CHILDREN)
                cpu.append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
            median, worst = statistics.median(runs), max(runs)
            verdict = "within" if median < TARGET_S else "OVER"
            print(f"whole command, fresh process, {label}:\n  wall median {median:.2f} s, worst {worst:.2f} s "
                  f"({verdict} the {TARGET_S:g} s target); runs {', '.join(f'{r:.2f}' for r in runs)}\n"
                  f"  CPU time median {statistics.median(cpu):.2f} s (the wall time on an idle core)")
        print(f"load average after: {os.getloadavg()[0]:.1f}")
        # the steps, in this (warm) process
        import matplotlib.figure  # noqa: F401  (imported once, as in the command)

        steps: dict[str, list[float]] = {"read": [], "numbers": [], "page": [], "write": []}
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            loaded = rp.load_results(graded)
            t1 = time.perf_counter()
            rep = rp.build_report(loaded)
            t2 = time.perf_counter()
            page = rp.render_html(rep, "zh")
            t3 = time.perf_counter()
            out.write_text(page, encoding="utf-8")
            t4 = time.perf_counter()
            for name, dt in zip(steps, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                steps[name].append(dt)
        print("steps in a warm process (median): " + ", ".join(
            f"{k} {statistics.median(v):.3f} s" for k, v in steps.items()))
        browser_figures(out)
        cells = len(rep.learners) * len(rep.exercises)
        print(f"page: {len(page.encode('utf-8')) / 1e6:.2f} MB, {len(rep.learners)} grid rows, {cells} cells, "
              f"{len(rep.exercises) + 1} plots, {len(rep.attention)} status rows")


def browser_figures(page_file: Path) -> None:
    """In Debian's headless Chromium (if present): time to load the page, and to sort the grid."""
    chromium = "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("browser: playwright not installed, skipped")
        return
    if not os.access(chromium, os.X_OK):
        print("browser: /usr/bin/chromium not found, skipped")
        return
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(page_file.as_uri())
        load = page.evaluate("() => { const t = performance.getEntriesByType('navigation')[0];"
                             " return t.loadEventEnd - t.startTime; }")
        sorts = [page.evaluate("() => { const b = document.querySelector('table.grid button.total');"
                               " const t = performance.now(); b.click(); return performance.now() - t; }")
                 for _ in range(4)]
        browser.close()
    print(f"browser: page loaded in {load:.0f} ms; sorting the grid by total {statistics.median(sorts):.0f} ms "
          f"(median of {len(sorts)} clicks)")


if __name__ == "__main__":
    main()
