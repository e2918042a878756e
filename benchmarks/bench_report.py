"""How long ``baccarat-kit report`` takes for a large class, and how long its page takes to open
(targets, issue 44: for 10,000 learners × 6 exercises the command costs at most half the CPU time of
a bare ``json.load`` of the same results.json, and the page opens within 2 s in Chromium).

Run by hand (not a timed test):  .venv/bin/python benchmarks/bench_report.py [--learners 10000] [--repeat 5]

Generates a class in the class workflow's results.json schema (``tests/report_class.py``: the
kit's six exercises, seeded answers, late and refused files, misconceptions), brought to the
schema today's grader writes (``gradebook.upgrade``) and written as the grader writes it
(``gradebook.results_bytes``: results.json, a row a line, and its index for the report,
``results.index.json``), then times, interleaved, in fresh processes:

* the whole command, as an instructor runs it (Python start, imports, reading the index and
  hashing results.json, the numbers, the page, writing it): CPU time and wall time, median and
  worst of ``--repeat`` runs;
* the same command on a folder holding only that results.json (no index: a folder graded by an
  older kit, or a results.json edited by hand, is read in full);
* their peer: a fresh Python that only reads the same results.json with the standard library's
  ``json.load`` (what reading the whole file costs at least), and the ratios to it;

then the page in Debian's Chromium (headless, Playwright; skipped without them): its load time
(navigation start to the load event, the grid's first page drawn by then), sorting the grid by
total and finding a learner; the last line puts the page's load time beside the command's CPU
and ``json.load``'s. Before that, the steps inside one warm process (read, numbers, page with its plots, write; reading
without the index apart), the item analysis's share of them (its figures inside the numbers,
its section's rows inside the page: ``grading/report/items.py``) and the page's size. The load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))

from report_class import make_class  # noqa: E402

from baccarat_kit.grading import report as rp  # noqa: E402
from baccarat_kit.grading.term.gradebook import results_bytes, upgrade  # noqa: E402
from baccarat_kit.grading.term.index import INDEX_NAME  # noqa: E402

TARGET_RATIO = 0.5
"""The command's CPU time over a bare json.load's of the same results.json, at most."""
TARGET_LOAD_MS = 2000
TARGET_MB = 8.0


TIME = "/usr/bin/time"  # GNU time: the peak memory of the command itself (see timed)


def timed(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall s, CPU s, peak resident KB) of one fresh process. The peak is GNU time's reading of
    its child (0 without /usr/bin/time): a process forked from this one (holding the class)
    starts with its resident size, which the kernel counts in its own peak."""
    with tempfile.NamedTemporaryFile(prefix="bk-bench-mem-") as mem:
        wrap = [TIME, "-f", "%M", "-o", mem.name] if os.access(TIME, os.X_OK) else []
        t = time.perf_counter()
        proc = subprocess.Popen([*wrap, *cmd], stdout=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode:
            raise SystemExit(f"{cmd[0]} failed ({proc.returncode})")
        peak = Path(mem.name).read_text(encoding="utf-8").split() if wrap else []
    return wall, usage.ru_utime + usage.ru_stime, int(peak[-1]) if peak else 0


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
        data, index = results_bytes(doc)
        submissions = len(doc["submissions"])
        del doc  # (its millions of objects would slow this process's steps below: the collector walks them)
        results.write_bytes(data)
        (graded / INDEX_NAME).write_bytes(index)
        plain = Path(tmp) / "plain"  # the same results.json alone
        plain.mkdir()
        try:
            os.link(results, plain / "results.json")
        except OSError:
            shutil.copyfile(results, plain / "results.json")
        out = Path(tmp) / "report.html"
        exe = Path(sys.executable).parent / "baccarat-kit"
        base = [str(exe)] if exe.exists() else [sys.executable, "-m", "baccarat_kit.cli"]
        cmd = [*base, "report", str(graded), "--out", str(out)]
        cmd_plain = [*base, "report", str(plain), "--out", str(Path(tmp) / "plain.html")]
        peer = [sys.executable, "-c", "import json, sys; json.load(open(sys.argv[1], encoding='utf-8'))", str(results)]
        print(f"class: {args.learners} learners, {submissions} submissions, "
              f"results.json {len(data) / 1e6:.1f} MB, {INDEX_NAME} {len(index) / 1e6:.1f} MB")
        print(f"command: {' '.join(Path(c).name if i == 0 else c for i, c in enumerate(cmd))}")
        print("without the index: the same command on a folder holding only that results.json")
        print("peer: python -c 'json.load(results.json)'")
        print(f"load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())} (1, 5, 15 min; 2 cores, shared)")
        # One warm-up run first, allowed to write Python's bytecode cache (make venv compiles it
        # at install; PYTHONDONTWRITEBYTECODE=1 would otherwise make every run compile again).
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        timed(cmd, env)
        timed(cmd_plain, env)
        commands = {"report": cmd, "no index": cmd_plain, "peer": peer}
        runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in commands}
        for k in range(args.repeat):
            for name in (list(commands) if k % 2 == 0 else list(reversed(commands))):
                runs[name].append(timed(commands[name], env))
        for name, rs in runs.items():
            walls, cpus = [r[0] for r in rs], [r[1] for r in rs]
            print(f"{name:8s}: CPU median {statistics.median(cpus):.2f} s (runs {', '.join(f'{c:.2f}' for c in cpus)}), "
                  f"wall median {statistics.median(walls):.2f} s, worst {max(walls):.2f} s; "
                  f"peak memory {max(r[2] for r in rs) / 1024:.0f} MB")
        for name, what in (("report", "report"), ("no index", "report without the index")):
            ratio = [a[1] / b[1] for a, b in zip(runs[name], runs["peer"], strict=True)]
            print(f"{what} / json.load alone, CPU, side by side: median {statistics.median(ratio):.2f}x "
                  f"(runs {', '.join(f'{r:.2f}' for r in ratio)})")
        cpu = statistics.median(r[1] for r in runs["report"])
        peer_cpu = statistics.median(r[1] for r in runs["peer"])
        ratio = statistics.median(a[1] / b[1] for a, b in zip(runs["report"], runs["peer"], strict=True))
        print(f"whole command: {cpu:.2f} CPU-s, {ratio:.2f}x json.load's ({'within' if ratio <= TARGET_RATIO else 'OVER'} "
              f"the {TARGET_RATIO:g}x target)")
        print(f"load average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
        # the steps, in this (warm) process, CPU time; the item analysis's share of them is
        # timed around the two calls the report makes (its figures, its section's rows)
        steps: dict[str, list[float]] = {"read": [], "numbers": [], "page": [], "write": [], "read, no index": []}
        item_time: dict[str, list[float]] = {"analyse": [], "page_rows": []}
        for name in item_time:
            setattr(rp.classreport, name, _timing(getattr(rp.classreport, name), item_time[name]))
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
            del loaded
            rp.load_results(plain)
            t5 = time.process_time()
            for name, dt in zip(steps, (t1 - t0, t2 - t1, t3 - t2, t4 - t3, t5 - t4), strict=True):
                steps[name].append(dt)
        print("steps in a warm process (median CPU): " + ", ".join(
            f"{k} {statistics.median(v):.3f} s" for k, v in steps.items()))
        numbers, figures = statistics.median(steps["numbers"]), statistics.median(item_time["analyse"])
        page_cpu, rows = statistics.median(steps["page"]), statistics.median(item_time["page_rows"])
        whole = sum(statistics.median(steps[k]) for k in ("read", "numbers", "page", "write"))
        print(f"item analysis (median CPU): its figures {figures:.3f} s of the numbers' {numbers:.3f} s "
              f"({100 * figures / numbers:.0f} %), its section's rows {rows:.3f} s of the page's {page_cpu:.3f} s; "
              f"{100 * (figures + rows) / whole:.1f} % of the warm steps ({len(rep.items)} questions)")
        if rp.render_html(rp.build_report(rp.load_results(plain)), "zh") != page:
            raise SystemExit("the page from results.json alone is not the page from its index")
        cells = len(rep.learners) * len(rep.exercises)
        size = len(page.encode('utf-8')) / 1e6
        print(f"page: {size:.2f} MB ({'within' if size <= TARGET_MB else 'OVER'} the {TARGET_MB:g} MB target), "
              f"{len(rep.learners)} grid rows, {cells} cells, "
              f"{len(rep.exercises) + 1} plots, {len(rep.attention)} status rows")
        load = browser_figures(out, args.repeat)
        print(f"in all: the page opens in {'—' if load is None else f'{load:.0f} ms'} in Chromium "
              f"({'not measured' if load is None else 'within' if load <= TARGET_LOAD_MS else 'OVER'} the "
              f"{TARGET_LOAD_MS} ms target); the command {cpu:.2f} CPU-s; json.load of its results.json "
              f"{peer_cpu:.2f} CPU-s ({ratio:.2f}x; medians)")


def _timing(fn: Callable[..., Any], into: list[float]) -> Callable[..., Any]:
    """``fn``, its CPU time of each call appended to ``into``."""
    def timed_call(*args: Any, **kwargs: Any) -> Any:
        t = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            into.append(time.process_time() - t)

    return timed_call


def browser_figures(page_file: Path, repeat: int) -> float | None:
    """In Debian's headless Chromium (if present), each in a fresh page: the time to load the page
    (median of ``repeat`` loads, returned), to sort the grid by total and to find a learner."""
    chromium = "/usr/bin/chromium"
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("browser: playwright not installed, skipped")
        return None
    if not os.access(chromium, os.X_OK):
        print("browser: /usr/bin/chromium not found, skipped")
        return None
    loads, sorts, finds = [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox", "--disable-gpu"])
        for _ in range(max(1, repeat)):
            page = browser.new_page(viewport={"width": 1280, "height": 1000})
            page.goto(page_file.as_uri())
            loads.append(page.evaluate("() => { const t = performance.getEntriesByType('navigation')[0];"
                                       " return t.loadEventEnd - t.startTime; }"))
            sorts.append(page.evaluate("() => { const b = document.querySelector('table.grid button.total');"
                                       " const t = performance.now(); b.click(); return performance.now() - t; }"))
            finds.append(page.evaluate("() => { const f = document.getElementById('grid-find'); f.value = 's104';"
                                       " const t = performance.now(); f.dispatchEvent(new Event('input'));"
                                       " return performance.now() - t; }"))
            page.close()
        browser.close()
    load = statistics.median(loads)
    print(f"browser: page loaded in {load:.0f} ms (loads {', '.join(f'{x:.0f}' for x in loads)}); sorting the grid "
          f"by total {statistics.median(sorts):.0f} ms, finding a learner {statistics.median(finds):.0f} ms (medians)")
    return load


if __name__ == "__main__":
    main()
