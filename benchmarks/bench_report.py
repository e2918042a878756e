"""How long ``baccarat-kit report`` takes for a large class (target: 10,000 learners × 6 exercises
within 3 s and a page of at most 8 MB).

Run by hand (not a timed test):  .venv/bin/python benchmarks/bench_report.py [--learners 10000] [--repeat 5]

Generates a class in the class workflow's results.json schema (``tests/report_class.py``: the
kit's six exercises, seeded answers, late and refused files, misconceptions), brought to the
schema today's grader writes (``gradebook.upgrade``) and written as the grader writes it
(``indent=1``), then times, interleaved, in fresh processes:

* the whole command, as an instructor runs it (Python start, imports, reading the JSON, the
  page, writing it): CPU time and wall time, median and worst of ``--repeat`` runs;
* its peer: a fresh Python that only reads the same results.json with the standard library's
  ``json.load`` (the least any report of the file must do), and the ratio of the two;

then the steps inside one warm process (read, numbers, page with its plots, write) and the
page's size. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import json
import os
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
from baccarat_kit.grading.term.gradebook import upgrade  # noqa: E402

TARGET_S = 3.0
TARGET_MB = 8.0


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall s, CPU s, peak resident KB) of one fresh process."""
    t = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{cmd[0]} failed ({proc.returncode})")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bk-bench-report-") as tmp:
        graded = Path(tmp) / "graded"
        graded.mkdir()
        doc = upgrade(make_class(args.learners))
        results = graded / "results.json"
        results.write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        out = Path(tmp) / "report.html"
        exe = Path(sys.executable).parent / "baccarat-kit"
        cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "baccarat_kit.cli"]
        cmd += ["report", str(graded), "--out", str(out)]
        peer = [sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))", str(results)]
        print(f"class: {args.learners} learners, {len(doc['submissions'])} submissions, "
              f"results.json {results.stat().st_size / 1e6:.1f} MB")
        print(f"command: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(cmd))}")
        print("peer: python -c 'json.load(results.json)'")
        print(f"load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())} (1, 5, 15 min; 2 cores, shared)")
        # One warm-up run first, allowed to write Python's bytecode cache (make venv compiles it
        # at install; PYTHONDONTWRITEBYTECODE=1 would otherwise make every run compile again).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        timed(cmd, env)
        runs: dict[str, list[tuple[float, float, int]]] = {"report": [], "peer": []}
        for k in range(args.repeat):
            for name in (("report", "peer") if k % 2 == 0 else ("peer", "report")):
                runs[name].append(timed(cmd if name == "report" else peer, env))
        for name, rs in runs.items():
            walls, cpus = [r[0] for r in rs], [r[1] for r in rs]
            print(f"{name:6s}: CPU median {statistics.median(cpus):.2f} s (runs {', '.join(f'{c:.2f}' for c in cpus)}), "
                  f"wall median {statistics.median(walls):.2f} s, worst {max(walls):.2f} s; "
                  f"peak memory {max(r[2] for r in rs) / 1024:.0f} MB")
        cpu_ratio = [a[1] / b[1] for a, b in zip(runs["report"], runs["peer"], strict=True)]
        cpu = statistics.median(r[1] for r in runs["report"])
        wall = statistics.median(r[0] for r in runs["report"])
        print(f"report / json.load alone, CPU, side by side: median {statistics.median(cpu_ratio):.2f}x "
              f"(runs {', '.join(f'{r:.2f}' for r in cpu_ratio)})")
        print(f"whole command: {cpu:.2f} CPU-s, {wall:.2f} s wall ({'within' if cpu < TARGET_S else 'OVER'} "
              f"the {TARGET_S:g} s target in CPU time, the wall time of an idle core)")
        print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        # the steps, in this (warm) process, CPU time
        steps: dict[str, list[float]] = {"read": [], "numbers": [], "page": [], "write": []}
        for _ in range(args.repeat):
            t0 = time.process_time()
            loaded = rp.load_results(graded)
            t1 = time.process_time()
            rep = rp.build_report(loaded)
            t2 = time.process_time()
            page = rp.render_html(rep, "zh")
            t3 = time.process_time()
            out.write_text(page, encoding="utf-8")
            t4 = time.process_time()
            for name, dt in zip(steps, (t1 - t0, t2 - t1, t3 - t2, t4 - t3), strict=True):
                steps[name].append(dt)
        print("steps in a warm process (median CPU): " + ", ".join(
            f"{k} {statistics.median(v):.3f} s" for k, v in steps.items()))
        browser_figures(out)
        cells = len(rep.learners) * len(rep.exercises)
        size = len(page.encode('utf-8')) / 1e6
        print(f"page: {size:.2f} MB ({'within' if size <= TARGET_MB else 'OVER'} the {TARGET_MB:g} MB target), "
              f"{len(rep.learners)} grid rows, {cells} cells, "
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
