"""Peak memory of ``collect`` and ``return`` against a hostile learner folder.

Usage: ``python benchmarks/bench_hostile.py [--learners N]``

A class of N learners; one of them has a 1 GiB sparse notebook (a few KB of her disk), a FIFO
named like a notebook, and, in her ``feedback/``, a 1 GiB sparse file and a FIFO where ``return``
writes its pages. Each command runs in a child process of its own; its peak resident memory is
that child's ``ru_maxrss`` (``RUSAGE_CHILDREN`` after it ends). It prints the figures and exits 1
if either command takes 300 MB or more, hangs (60 s), or lets the sparse file onto the instructor's
disk.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

GIB = 1 << 30
LIMIT_MB = 300
PAGE = "<!-- baccarat-kit feedback -->\n<p>feedback</p>\n"


def child(code: str, *args: str) -> tuple[int, float, float]:
    """(exit code, peak RSS in MB, seconds) of ``python -c code args`` in a fresh process: its
    ``ru_maxrss``, reported by the child itself as it ends (its own peak, not an earlier child's)."""
    start = time.perf_counter()
    tail = "\nimport resource\nprint('maxrss', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    proc = subprocess.run([sys.executable, "-c", code + tail, *args], timeout=60, check=False,
                          capture_output=True, text=True)
    took = time.perf_counter() - start
    lines = proc.stdout.splitlines()
    print("  " + "\n  ".join(lines[:-1]))
    peak = float(lines[-1].split()[1]) / 1024 if lines and lines[-1].startswith("maxrss") else float("nan")
    if proc.returncode:
        print(proc.stderr[-2000:], file=sys.stderr)
    return proc.returncode, peak, took


COLLECT = """
import sys
from baccarat_kit.grading.term.collect import collect
done = collect(sys.argv[1], sys.argv[2], pattern="exercises/*.ipynb", name="c")
print(len(done.files), "collected,", len(done.skipped), "refused:", sorted({s["reason"] for s in done.skipped}))
"""

RETURN = """
import sys
from baccarat_kit.grading.term.hand_back import return_feedback
written, problems = return_feedback(sys.argv[1], sys.argv[2])
print(len(written), "returned,", len(problems), "refused:", sorted({p["reason"] for p in problems}))
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=30)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        home = base / "home"
        owners = [f"s{i:03d}" for i in range(args.learners)]
        for owner in owners:
            (home / owner / "exercises").mkdir(parents=True)
            (home / owner / "exercises" / "01-card-values.ipynb").write_text('{"cells": []}', encoding="utf-8")
        bad = home / owners[0]
        with (bad / "exercises" / "02-sparse.ipynb").open("wb") as fh:
            fh.truncate(GIB)
        os.mkfifo(bad / "exercises" / "03-fifo.ipynb")
        (bad / "feedback").mkdir()
        with (bad / "feedback" / "01-card-values.html").open("wb") as fh:
            fh.truncate(GIB)
        os.mkfifo(bad / "feedback" / "02-sparse.html")
        code, collect_mb, collect_s = child(COLLECT, str(home), str(base / "out"))
        on_disk = sum(p.stat().st_blocks * 512 for p in (base / "out").rglob("*") if p.is_file())
        graded = base / "graded"
        (graded / "feedback").mkdir(parents=True)
        rows = []
        for owner in owners:
            for ex in ("01-card-values", "02-sparse"):
                page = graded / "feedback" / f"{owner}--{ex}.html"
                page.write_text(PAGE, encoding="utf-8")
                rows.append({"file": f"{owner}/{ex}.ipynb", "owner": owner, "learner": owner, "exercise": ex,
                             "feedback": f"feedback/{page.name}", "status": "ok"})
        (graded / "results.json").write_text(json.dumps({"schema_version": 3, "submissions": rows}), encoding="utf-8")
        code2, return_mb, return_s = child(RETURN, str(graded), str(home))
    print(f"collect: {args.learners} learners, peak RSS {collect_mb:.1f} MB, {collect_s:.2f} s, "
          f"{on_disk / 1e6:.2f} MB on the instructor's disk (exit {code})")
    print(f"return:  {2 * args.learners} pages, peak RSS {return_mb:.1f} MB, {return_s:.2f} s (exit {code2})")
    ok = code == 0 and code2 == 0 and collect_mb < LIMIT_MB and return_mb < LIMIT_MB and on_disk < 20e6
    print("ok" if ok else f"FAILED (limit {LIMIT_MB} MB, 20 MB on disk)")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
