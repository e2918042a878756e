"""Answers and sessions to all 106 cells mastered, per learner and per edition (issue 37).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_mastery.py [--session 60] [--seed 0]

Three simulated learners, each practising one session of ``--session`` answers a day:

* **fast**: always right, 2 s an answer;
* **slow**: always right, 4 s on a cell's first 4 answers (over the 3 s mastery time), then 2.5 s;
* **erring**: wrong with probability 0.3 on a cell's first 3 answers, 2.5 s an answer.

Each is replayed two ways:

* ``drill.replay`` — the scheduler alone (cells only, no widget);
* the widget's own answer path, once per edition (``Drill(lang="zh")`` and ``Drill(lang="en")``):
  ``respond()`` with the learner's choice, whole coups dealt card by card every tenth item (each
  decision an answer; a wrong decision a miss of its cell), a new widget each day reading the
  progress record the day before wrote (a new kernel: its first answer untimed), the widget's
  clock advanced by the learner's seconds. A coup's "who wins" is asked of the learner as the
  cell ``winner``.

Prints, per learner and path, the answers and sessions (days) until 106 / 106 were mastered, and
how many of those answers were whole-coup decisions. Deterministic for a seed.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from baccarat_kit import drill

START = 1_800_000_000.0
LEARNERS = {"fast": (0, 0, 0.0, 2.0), "slow": (4, 0, 0.0, 2.5), "erring": (0, 3, 0.3, 2.5)}
"""name: (slow_for, wrong_for, error, seconds otherwise) — as tests/test_drill.py's learners."""


def learner(name: str) -> tuple[Callable[[str, int], bool], Callable[[str, int], float]]:
    """The learner ``name``: (right(cell, step), seconds(cell, step))."""
    slow_for, wrong_for, error, usual = LEARNERS[name]
    rng = random.Random("erring")
    asked: dict[str, int] = {}
    timed: dict[str, int] = {}

    def right(cell: str, _step: int) -> bool:
        asked[cell] = asked.get(cell, 0) + 1
        return asked[cell] > wrong_for or rng.random() >= error

    def seconds(cell: str, _step: int) -> float:
        timed[cell] = timed.get(cell, 0) + 1
        return 4.0 if timed[cell] <= slow_for else usual
    return right, seconds


def replay_scheduler(name: str, *, session: int, seed: int) -> dict[str, int]:
    right, seconds = learner(name)
    cells: dict[str, object] = {}
    log = drill.replay(right, 5000, seed=seed, seconds=seconds, session=session, cells=cells,
                       until_mastered=True)
    if drill.mastered(cells) != len(drill.MASTERY_CELLS):  # type: ignore[arg-type]
        raise SystemExit(f"{name}: not all mastered after {len(log)} answers")
    return {"answers": len(log), "sessions": math.ceil(len(log) / session), "coup": 0}


def replay_widget(name: str, lang: str, *, session: int, seed: int, most: int = 5000) -> dict[str, int]:
    """The widget's own answer path (see the module docstring)."""
    from baccarat_kit.widgets import Drill
    from baccarat_kit.widgets.drill import CHOICES

    right, seconds = learner(name)
    with tempfile.TemporaryDirectory() as folder:
        before = os.environ.get("BACCARAT_KIT_PROGRESS")
        os.environ["BACCARAT_KIT_PROGRESS"] = folder
        try:
            clock = [0.0]
            wall = [START]
            d: Drill | None = None
            coup_answers = 0
            for n in range(most):
                if n % session == 0:  # a new day, a new kernel: the record carries the drill on
                    wall[0] = START + (n // session) * drill.DAY
                    d = Drill(lang=lang, seed=seed, clock=lambda: clock[0], now=lambda: wall[0])
                assert d is not None
                cell = d.asking if d.asking is not None else "winner"
                took = seconds(cell, n)
                clock[0] += took
                wall[0] += took
                choices = [v for v, _k in CHOICES[d.kind]]
                good = right(cell, n)
                coup_answers += d.item.kind == "coup"
                d.respond(d.expected if good else next(v for v in choices if v != d.expected))
                if drill.mastered(d.cells) == len(drill.MASTERY_CELLS):
                    return {"answers": n + 1, "sessions": n // session + 1, "coup": coup_answers}
        finally:
            if before is None:
                os.environ.pop("BACCARAT_KIT_PROGRESS", None)
            else:
                os.environ["BACCARAT_KIT_PROGRESS"] = before
    raise SystemExit(f"{name} ({lang}): not all mastered after {most} answers")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--session", type=int, default=60, help="answers a day (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="the drill's seed (default 0)")
    args = parser.parse_args(argv)
    print(f"answers (sessions of {args.session} a day) to 106 / 106 mastered; seed {args.seed}")
    print(f"{'learner':8} {'path':22} {'answers':>8} {'sessions':>9} {'coup answers':>13} {'time s':>7}")
    for name in LEARNERS:
        paths: list[tuple[str, Callable[[], dict[str, int]]]] = [
            ("drill.replay", lambda name=name: replay_scheduler(name, session=args.session, seed=args.seed))]
        for lang in ("zh", "en"):
            paths.append((f"widget ({lang} edition)",
                          lambda name=name, lang=lang: replay_widget(name, lang, session=args.session,
                                                                     seed=args.seed)))
        for label, run in paths:
            began = time.perf_counter()
            out = run()
            print(f"{name:8} {label:22} {out['answers']:8d} {out['sessions']:9d} {out['coup']:13d} "
                  f"{time.perf_counter() - began:7.1f}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
