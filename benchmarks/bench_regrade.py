"""What regrading one late file into a large gradebook costs (issue 43: 10,000 learners, ~57,600
rows, took 178 s, 57.5 CPU-s and 3.3 GB before; most of it writing results.json through Python's
indenting encoder, cleaning every CSV cell character by character and merging row by row).

Run by hand (not a timed test):

    .venv/bin/python benchmarks/bench_regrade.py [--learners 10000] [--runs 3] [--kit PATH]

Builds a gradebook as ``grade`` leaves it (``tests/report_class.py``: the kit's six exercises,
seeded answers, pending written answers; results.json and its index written by the kit under test,
the marker listing every feedback page), then times, in a fresh process each run (GNU time), the
command an instructor runs for a late file: ``grade FILE --out DIR --update`` with the model
solution of exercise 03 (its sandboxed run included, a second or two). Prints wall time, CPU
seconds (user + system) and the peak resident size, median of ``--runs``, and the load average.

``--kit PATH``: time another checkout's code (e.g. ``git archive 69a3ffe`` unpacked in /tmp) with
this venv: its folder goes first on ``PYTHONPATH`` (the script prints which ``baccarat_kit`` ran).
``--profile``: one run in this process under cProfile instead; the 25 costliest functions (by
cumulative time, or ``BENCH_SORT=tottime``).

Measured on the 2-core machine beside other work (one run each, load 10–13): 69a3ffe 179 s wall,
53.3 CPU-s, 3241 MB peak; after issue 43's changes 137 s wall, 23.7 CPU-s, 1586 MB.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SOLUTION = REPO / "exercises" / "source" / "03-banker-rule.ipynb"
BUILD = """
import json, sys
from pathlib import Path
sys.path.insert(0, sys.argv[3])
from report_class import make_class
from baccarat_kit.grading.term.gradebook import MARKER, OUTPUT_FILES, results_bytes, upgrade
from baccarat_kit.grading.term.index import INDEX_NAME
out = Path(sys.argv[1])
out.mkdir(parents=True)
doc = upgrade(make_class(int(sys.argv[2])))
doc.setdefault("skipped", [])
results, index = results_bytes(doc)
(out / "results.json").write_bytes(results)
(out / INDEX_NAME).write_bytes(index)
for name in OUTPUT_FILES:
    if not (out / name).exists():
        (out / name).write_text("", encoding="utf-8")
files = sorted({*OUTPUT_FILES, *(r["feedback"] for r in doc["submissions"] if r.get("feedback"))})
(out / MARKER).write_text(json.dumps({"files": files}, indent=1) + "\\n", encoding="utf-8")
print(len(doc["submissions"]))
"""
RUN = "import sys; from baccarat_kit.cli import main; sys.exit(main())"


def _env(kit: Path | None) -> dict[str, str]:
    env = dict(os.environ)
    if kit is not None:
        env["PYTHONPATH"] = f"{kit}{os.pathsep}{env.get('PYTHONPATH', '')}".rstrip(os.pathsep)
    return env


def _timed(argv: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MB) of one run (GNU time)."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as report:
        proc = subprocess.run(["/usr/bin/time", "-o", report.name, "-f", "%e %U %S %M", *argv], env=env,
                              capture_output=True, text=True, cwd="/")
        if proc.returncode != 0:
            raise SystemExit(f"the run failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
        wall, user, system, rss = report.read().split()[-4:]
    return float(wall), float(user) + float(system), int(rss) / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--learners", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--kit", type=Path, default=None, help="another checkout's folder to time")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    env = _env(args.kit)
    which = subprocess.run([sys.executable, "-c", "import baccarat_kit; print(baccarat_kit.__file__)"],
                           env=env, capture_output=True, text=True, cwd="/", check=True).stdout.strip()
    print(f"kit: {which}")
    with tempfile.TemporaryDirectory(prefix="bk-regrade-") as tmp:
        base = Path(tmp) / "book"
        built = subprocess.run([sys.executable, "-c", BUILD, str(base), str(args.learners), str(REPO / "tests")],
                               env=env, capture_output=True, text=True, cwd="/")
        if built.returncode != 0:
            raise SystemExit(built.stderr[-3000:])
        rows = built.stdout.strip()
        late = Path(tmp) / "late" / "learner-late" / "03-banker-rule.ipynb"
        late.parent.mkdir(parents=True)
        shutil.copy(SOLUTION, late)
        print(f"gradebook: {rows} rows ({args.learners} learners), results.json "
              f"{(base / 'results.json').stat().st_size / 1e6:.1f} MB")
        command = ["--lang", "en", "grade", str(late), "--out", "OUT", "--update", "--no-progress"]
        if args.profile:
            import cProfile
            import pstats

            from baccarat_kit.cli import main as cli

            out = Path(tmp) / "run"
            shutil.copytree(base, out)
            profile = cProfile.Profile()
            profile.runcall(cli, [str(out) if a == "OUT" else a for a in command])
            pstats.Stats(profile).sort_stats(os.environ.get("BENCH_SORT", "cumulative")).print_stats(25)
            return
        runs = []
        for n in range(args.runs):
            out = Path(tmp) / f"run-{n}"
            shutil.copytree(base, out)
            runs.append(_timed([sys.executable, "-c", RUN, *[str(out) if a == "OUT" else a for a in command]], env))
            shutil.rmtree(out)
            print(f"run {n + 1}: wall {runs[-1][0]:.1f} s, CPU {runs[-1][1]:.1f} s, peak RSS {runs[-1][2]:.0f} MB")
        wall, cpu, rss = (statistics.median(r[i] for r in runs) for i in range(3))
        print(json.dumps({"rows": int(rows), "wall_s": wall, "cpu_s": cpu, "peak_rss_mb": round(rss),
                          "load": [round(x, 1) for x in os.getloadavg()]}))


if __name__ == "__main__":
    main()
