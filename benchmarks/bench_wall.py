"""How much wall-clock time honest notebooks need, from their first cell to their last answer:
what the default ``grade --wall-limit`` (``session.WALL_LIMIT_FACTOR`` times ``--notebook-timeout``)
must stay far above, also on a loaded machine.

Run by hand (not a timed test):

    .venv/bin/python benchmarks/bench_wall.py [--jobs 2] [--runs 3] [--stress 2]

Grades the honest fixtures (``tests/fixtures/submissions/honest``: 20 notebooks that must keep
full marks) and the six model solutions, ``--jobs`` at a time, ``--runs`` times, each in its own
sandbox as ``grade`` does, and reads from each run's report the wall-clock seconds from its first
cell to its last answer (``wall_s``: what ``--wall-limit`` counts). ``--stress N`` runs
``stress-ng --cpu N`` beside it (in its own process group, stopped by that group at the end),
so the notebooks are starved as on a busy grading machine. Prints the median, 95th percentile and
largest figure, the load average, and the margin the default wall limit leaves over the largest.
Exits 1 if an honest notebook lost a point or came near the default limit (over a third of it).
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from baccarat_kit.grading import grade  # noqa: E402
from baccarat_kit.grading.sandbox import session  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--stress", type=int, default=0, metavar="N", help="stress-ng --cpu N beside it (0: none)")
    args = parser.parse_args(argv)
    files = sorted((ROOT / "tests" / "fixtures" / "submissions" / "honest").glob("*.ipynb"))
    files += sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
    exercises = grade.load_exercises(ROOT / "exercises" / "source")
    limits = grade.Limits()
    walls: list[float] = []
    real = session._drive

    def timed(*a: Any, **k: Any) -> dict[str, Any]:
        report = real(*a, **k)
        if report.get("status") == "ok" and "wall_s" in report:
            walls.append(float(report["wall_s"]))
        return report

    session._drive = timed  # type: ignore[assignment]
    stress = None
    if args.stress:
        if shutil.which("stress-ng") is None:
            print("stress-ng is not installed (apt-get install stress-ng)", file=sys.stderr)
            return 2
        stress = subprocess.Popen(["stress-ng", "--cpu", str(args.stress), "--quiet"], start_new_session=True,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(2)
    lost = []
    loads = []
    try:
        for run in range(1, args.runs + 1):
            start = time.monotonic()
            subs = grade.grade_paths(files, exercises, limits, jobs=args.jobs)
            loads.append(os.getloadavg()[0])
            lost += [f"{s.file}: {s.status} {s.score}/{s.max_score}" for s in subs
                     if s.status != "ok" or s.score != s.max_score]
            print(f"run {run}: {len(subs)} files in {time.monotonic() - start:.1f} s (load average {loads[-1]:.1f})")
    finally:
        session._drive = real  # type: ignore[assignment]
        if stress is not None:
            os.killpg(stress.pid, signal.SIGTERM)
            stress.wait()
    walls.sort()
    p95 = walls[min(len(walls) - 1, int(0.95 * len(walls)))]
    default = limits.submission_wall()
    print(f"{len(walls)} honest runs, --jobs {args.jobs}, stress-ng --cpu {args.stress}: wall from first cell to "
          f"last answer: median {statistics.median(walls):.2f} s, p95 {p95:.2f} s, largest {walls[-1]:.2f} s; "
          f"load average {min(loads):.1f}-{max(loads):.1f}")
    print(f"default --wall-limit {default:g} s = {default / walls[-1]:.0f} times the largest")
    for line in lost:
        print("LOST POINTS:", line)
    return 1 if lost or walls[-1] > default / 3 else 0


if __name__ == "__main__":
    raise SystemExit(main())
