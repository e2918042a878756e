"""Mastery that chance cannot give and time takes back: simulated learners, per session (issue 42).

    OPENBLAS_NUM_THREADS=1 .venv/bin/python benchmarks/bench_mastery.py [--session 60] [--seed 0]
        [--learners fast,guesser,...] [--editions zh] [--quick]

Each learner is replayed two ways:

* ``replay`` — :func:`baccarat_kit.drill.replay`, the scheduler alone (cell questions only, all
  2-choice);
* ``widget`` — the drill widget's own answer path (``Drill.respond``), a new widget each simulated
  day reading the record the day before wrote (a new kernel: its first answer untimed), whole
  coups dealt card by card every tenth item (the player's question has 3 choices), the worked coups
  and row quizzes a cell's misses ask for, the widget's clock and wall clock advanced by the
  learner's seconds.

The learners (one session of ``--session`` answers a day unless said):

* ``guesser`` — picks at random among the answers offered (2 on a cell, 3 in a coup's first
  question and a row quiz), 1.5 s an answer, 30 sessions;
* ``misconception`` — holds "banker draws on 0–5, stands on 6–7, whatever the player's third
  card", never reached by feedback (wrong on 13 banker cells, row quizzes answered by the belief);
  right elsewhere, 2 s, 10 sessions;
* ``forgetter`` — right on a cell's first answer, then with the chance exp(−days since its last
  answer / 10) (a day away: 90 %, a week: 50 %), 2 s, 20 sessions, then a 30-day gap and 5 more;
* ``slow`` — always right, 4 s an answer (over the 3 s mastery time), 12 sessions;
* ``fast`` — always right, 2 s, until all 106 are mastered (at most 40 sessions);
* ``gap30`` / ``gap180`` — the fast learner for 12 sessions, then nothing for 30 / 180 days;
  the figures of the day it comes back are printed before and after its first session;
* ``midnight`` — the fast learner in Taipei (UTC+8): two sessions of 60, 10 minutes apart, from
  07:50 local (23:50 UTC), then one sitting of 300 answers from 07:57 local (23:57 UTC) by a
  new learner: nothing may be mastered.

Per session: mastered now, ever mastered, the median answers a mastered cell took (its own
answers up to its first mastery), the worst cell's share of the session's answers, cells never
asked, suspended cells, due cells. Then the targets of issue 42, each PASS or FAIL. Deterministic
for a seed.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from baccarat_kit import drill

START = 1_800_000_000.0  # 2027-01-15 08:00 UTC
DAY = drill.DAY
CELLS = drill.MASTERY_CELLS


# ---------------------------------------------------------------- learners
@dataclass
class Learner:
    """Whether a simulated learner answers a cell right at ``now`` (or what it picks among
    ``choices``), and how long an answer takes."""

    name: str
    seconds: float
    rng: random.Random
    last: dict[str, float] = field(default_factory=dict)

    def knows(self, cell: str, now: float) -> bool:
        return True

    def pick(self, cell: str | None, choices: list[str], expected: str, now: float) -> str:
        """The answer picked: the expected one when the learner knows ``cell`` (None: who wins,
        or a row quiz), else another."""
        right = self.knows(cell, now) if cell is not None else True
        if cell is not None:
            self.last[cell] = now
        if right:
            return expected
        return next(c for c in choices if c != expected)


class Guesser(Learner):
    def knows(self, cell: str, now: float) -> bool:
        return self.rng.random() < 0.5

    def pick(self, cell: str | None, choices: list[str], expected: str, now: float) -> str:
        return self.rng.choice(choices)


class Misconception(Learner):
    """"Banker draws on 0–5, stands on 6–7, whatever the player's third card"."""

    def knows(self, cell: str, now: float) -> bool:
        if not cell.startswith("banker-"):
            return True
        it = drill.item(cell)
        return ("draw" if it.params["total"] <= 5 else "stand") == it.answer

    def row(self, item: drill.Item) -> str:
        """A row quiz answered by the belief (its set if offered, else the first option)."""
        if item.params["table"] != "banker":
            return item.answer
        belief = frozenset(range(10)) if item.params["total"] <= 5 else frozenset()
        options = list(item.params["options"])
        return "abc"[options.index(belief)] if belief in options else "a"


class Forgetter(Learner):
    """Knows every cell at first (the lessons taught it), then forgets what it does not use."""

    def knows(self, cell: str, now: float) -> bool:
        seen = self.last.get(cell)
        return seen is None or self.rng.random() < math.exp(-(now - seen) / DAY / FORGET_DAYS)


FORGET_DAYS = 10
"""The forgetter's memory: right with the chance exp(−days since the cell's last answer / 10)."""


KINDS: dict[str, tuple[type[Learner], float]] = {
    "guesser": (Guesser, 1.5), "misconception": (Misconception, 2.0), "forgetter": (Forgetter, 2.0),
    "slow": (Learner, 4.0), "fast": (Learner, 2.0), "gap30": (Learner, 2.0), "gap180": (Learner, 2.0),
    "midnight": (Learner, 2.0),
}
SESSIONS = {"guesser": 30, "misconception": 10, "forgetter": 20, "slow": 12, "fast": 40, "gap30": 12,
            "gap180": 12}


def make(name: str, seed: int) -> Learner:
    kind, seconds = KINDS[name]
    return kind(name, seconds, random.Random(f"{name}:{seed}"))


# ---------------------------------------------------------------- one session's figures
@dataclass
class Tally:
    """What the printout needs, kept across sessions."""

    ever: set[str] = field(default_factory=set)
    to_mastery: dict[str, int] = field(default_factory=dict)
    asked: set[str] = field(default_factory=set)
    answers: Counter[str] = field(default_factory=Counter)
    rows: list[dict[str, Any]] = field(default_factory=list)

    def answered(self, cell: str | None, cells: dict[str, Any], session: Counter[str]) -> None:
        if cell is None:
            return
        self.asked.add(cell)
        self.answers[cell] += 1
        session[cell] += 1
        if cell not in self.ever and drill.is_mastered(cells.get(cell)):
            self.ever.add(cell)
            self.to_mastery[cell] = self.answers[cell]

    def close(self, label: str, cells: dict[str, Any], now: float, session: Counter[str], total: int) -> dict[str, Any]:
        for cell in CELLS:  # mastered without an answer of its own: a first answer elsewhere moved the prior
            if cell not in self.ever and drill.is_mastered(cells.get(cell)):
                self.ever.add(cell)
                self.to_mastery[cell] = self.answers[cell]
        worst = session.most_common(1)[0] if session else ("-", 0)
        row = {"session": label, "now": drill.mastered(cells, now), "ever": len(self.ever),
               "to_mastery": statistics.median(self.to_mastery.values()) if self.to_mastery else None,
               "worst": worst[1] / total if total else 0.0, "worst_cell": worst[0],
               "never": sum(1 for c in CELLS if c not in self.asked),
               "suspended": len(drill.suspended(cells)), "due": len(drill.due_cells(cells, now)),
               "refresh": len(drill.refreshes(cells, now)),
               "due_and_now": sum(1 for c in drill.due_cells(cells, now) if drill.is_mastered_now(cells.get(c), now)),
               "recall": statistics.median(r for c in CELLS if (r := drill.recall(cells.get(c), now)) is not None)
               if any(c in cells for c in CELLS) else None}
        self.rows.append(row)
        return row


# ---------------------------------------------------------------- the two paths
def run_replay(learner: Learner, starts: list[float], session: int, seed: int,
               cells: dict[str, Any] | None = None, tally: Tally | None = None) -> tuple[dict[str, Any], Tally]:
    """Sessions of ``session`` answers starting at ``starts`` (seconds since the epoch)."""
    cells = {} if cells is None else cells
    tally = tally or Tally()
    step = sum(int(e.get("seen", 0)) for e in cells.values())
    for n, start in enumerate(starts):
        now, last, counts = start, None, Counter[str]()
        for _ in range(session):
            cell = drill.choose(cells, step, seed, now=now, avoid=last)
            if cell is None:
                break
            right = learner.pick(cell, ["x", "y"], "x", now) == "x"
            now += learner.seconds
            drill.answer(cells, cell, right, learner.seconds, step=step, now=now)
            tally.answered(cell, cells, counts)
            step, last = step + 1, cell
        tally.close(str(n + 1), cells, now, counts, sum(counts.values()))
    return cells, tally


def run_widget(learner: Learner, starts: list[float], session: int, seed: int, lang: str, folder: str,
               tally: Tally | None = None) -> tuple[dict[str, Any], Tally]:
    """The widget's own answer path, a new widget (kernel) each session, the record in ``folder``."""
    from baccarat_kit.widgets import Drill
    from baccarat_kit.widgets.drill import CHOICES

    tally = tally or Tally()
    os.environ["BACCARAT_KIT_PROGRESS"] = folder
    d: Drill | None = None
    for n, start in enumerate(starts):
        clock, wall = [0.0], [start]
        d = Drill(lang=lang, seed=seed, clock=lambda c=clock: c[0], now=lambda w=wall: w[0])
        counts: Counter[str] = Counter()
        answers = 0
        while answers < session and d.item.kind != "none":
            cell, kind = d.asking, d.kind
            choices = [v for v, _k in CHOICES[kind]]
            if kind == "row":
                cell = None
                choice = (learner.row(d.item) if isinstance(learner, Misconception)
                          else learner.rng.choice(choices) if isinstance(learner, Guesser) else d.expected)
            else:
                choice = learner.pick(cell, choices, d.expected, wall[0])
            clock[0] += learner.seconds
            wall[0] += learner.seconds
            d.respond(choice)
            answers += 1
            tally.answered(cell if kind != "row" else None, d.cells, counts)
        tally.close(str(n + 1), d.cells, wall[0], counts, answers)
    assert d is not None
    return d.cells, tally


# ---------------------------------------------------------------- printing
HEAD = (f"{'session':>8} {'now':>4} {'ever':>4} {'to mastery':>10} {'worst cell':>26} {'never':>5} "
        f"{'susp.':>5} {'due':>4} {'refresh':>7}")


def show(row: dict[str, Any]) -> str:
    tm = "-" if row["to_mastery"] is None else f"{row['to_mastery']:g}"
    worst = f"{row['worst']:.0%} {row['worst_cell']}"
    return (f"{row['session']:>8} {row['now']:4d} {row['ever']:4d} {tm:>10} {worst:>26} {row['never']:5d} "
            f"{row['suspended']:5d} {row['due']:4d} {row['refresh']:7d}")


def daily(n: int, first: float = START) -> list[float]:
    return [first + k * DAY for k in range(n)]


def one(name: str, path: str, args: argparse.Namespace, folder: str) -> tuple[Tally, dict[str, Any]]:
    learner = make(name, args.seed)

    def go(starts: list[float], cells: dict[str, Any] | None = None, tally: Tally | None = None,
           size: int | None = None) -> tuple[dict[str, Any], Tally]:
        if path == "replay":
            return run_replay(learner, starts, size or args.session, args.seed, cells, tally)
        return run_widget(learner, starts, size or args.session, args.seed, path.split()[1], folder, tally)

    if name == "fast":
        cells, tally = {}, Tally()
        for k in range(SESSIONS["fast"]):
            cells, tally = go([START + k * DAY], cells if path == "replay" else None, tally)
            tally.rows[-1]["session"] = str(k + 1)
            if drill.mastered(cells) == len(CELLS):
                break
        return tally, cells
    if name in ("gap30", "gap180"):
        gap = 30 if name == "gap30" else 180
        cells, tally = go(daily(12))
        back = START + (11 + gap) * DAY
        before = Tally(ever=set(tally.ever), asked=set(tally.asked))
        row = before.close(f"+{gap}d", cells, back, Counter(), 0)  # the day it comes back, before answering
        tally.rows.append(row)
        cells, tally = go([back], cells if path == "replay" else None, tally)
        tally.rows[-1]["session"] = f"+{gap}d 1"
        return tally, cells
    if name == "midnight":
        taipei_0750 = START - 8 * 3600 + 23 * 3600 + 50 * 60  # 2027-01-15 23:50 UTC = 01-16 07:50 UTC+8
        cells, tally = go([taipei_0750, taipei_0750 + 60 * args.seconds_fast + 600])
        tally.rows[0]["session"], tally.rows[1]["session"] = "23:50Z", "+10 min"
        if path != "replay":  # a new learner, a new record
            for f in Path(folder).glob(".baccarat-progress*"):
                f.unlink()
        learner.last.clear()
        _cells2, sitting = go([taipei_0750 + 7 * 60], None, None, size=300)
        sitting.rows[0]["session"] = "300@23:57Z"
        tally.rows.append(sitting.rows[0])
        return tally, cells
    raise ValueError(name)


def run(name: str, path: str, args: argparse.Namespace) -> Tally:
    with tempfile.TemporaryDirectory() as folder:
        learner = make(name, args.seed)
        if name in ("fast", "gap30", "gap180", "midnight"):
            tally, _cells = one(name, path, args, folder)
            return tally
        starts = daily(SESSIONS[name])
        if name == "forgetter":  # 20 daily sessions, 30 days away, 5 more
            starts += daily(5, starts[-1] + 31 * DAY)
        if path == "replay":
            return run_replay(learner, starts, args.session, args.seed)[1]
        return run_widget(learner, starts, args.session, args.seed, path.split()[1], folder)[1]


def targets(results: dict[tuple[str, str], Tally]) -> list[tuple[str, bool]]:
    out = []
    for (name, path), t in results.items():
        rows = t.rows
        if name == "guesser":
            out.append((f"{path}: a guesser masters <= 1 cell in {len(rows)} daily sessions (ever {rows[-1]['ever']})",
                        rows[-1]["ever"] <= 1))
        if name == "midnight":
            ok = all(r["ever"] == 0 for r in rows)
            out.append((f"{path}: nothing mastered in one sitting (two sessions 10 min apart across 00:00 UTC: "
                        f"{rows[1]['ever']}; 300 answers from 23:57 UTC: {rows[2]['ever']})", ok))
        if name in ("gap30", "gap180"):
            back = next(r for r in rows if r["session"].startswith("+") and " " not in r["session"])
            out.append((f"{path}: after a {name[3:]}-day gap no due cell counts as mastered now "
                        f"(mastered now {back['now']}, due {back['due']}, of them counted mastered now "
                        f"{back['due_and_now']}, due for a refresh {back['refresh']}, median recall "
                        f"{back['recall']:.2f})", back["due_and_now"] == 0))
        if name == "misconception":
            after5 = rows[4]["never"] if len(rows) >= 5 else None
            worst = max(r["worst"] for r in rows)
            out.append((f"{path}: a held misconception leaves no cell unasked after 5 sessions ({after5}) and its "
                        f"worst cell <= 15 % of any session ({worst:.0%})", after5 == 0 and worst <= 0.15))
        if name == "fast":
            done = next((r["session"] for r in rows if r["now"] == len(CELLS)), None)
            out.append((f"{path}: a fast, right learner masters all 106 within 12 daily sessions of 60 ({done})",
                        done is not None and int(done) <= 12))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--session", type=int, default=60, help="answers a day (default 60)")
    parser.add_argument("--seed", type=int, default=0, help="the drill's and the learners' seed (default 0)")
    parser.add_argument("--learners", default=",".join([*SESSIONS, "midnight"]), help="comma-separated")
    parser.add_argument("--editions", default="zh", help="the widget path's editions, comma-separated (zh,en)")
    parser.add_argument("--no-widget", action="store_true", help="the replay path only")
    args = parser.parse_args(argv)
    args.seconds_fast = KINDS["fast"][1]
    paths = ["replay"] + ([] if args.no_widget else [f"widget {lang}" for lang in args.editions.split(",")])
    results: dict[tuple[str, str], Tally] = {}
    for name in args.learners.split(","):
        for path in paths:
            began = time.perf_counter()
            tally = run(name, path, args)
            results[(name, path)] = tally
            print(f"\n{name} — {path} ({time.perf_counter() - began:.0f} s)")
            print(HEAD)
            for row in tally.rows:
                print(show(row))
            sys.stdout.flush()
    print("\ntargets (issue 42)")
    failed = 0
    for text, ok in targets(results):
        print(f"  {'PASS' if ok else 'FAIL'}  {text}")
        failed += not ok
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
