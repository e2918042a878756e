"""The drill's items and its spaced-repetition scheduler: pure functions, no widget.

Every cell of the rule is an item, and its answer comes from the engine
(:mod:`baccarat_kit.rules`), never from a table here:

* ``natural-T`` — a first-two-card total T (0–9): a natural or not (10 items);
* ``player-T`` — the player with T (0–7, no natural): draw or stand (8 items);
* ``banker-T-vs-V`` / ``banker-T-player-stood`` — the banker with T (0–7) against the player's
  third card V (0–9), or when the player stood: draw or stand (80 + 8 = 88 items);
* ``coup-N`` — a whole coup the kit deals from a seeded shoe (its own cards, no source's),
  dealt card by card (:class:`CardByCard`, every :data:`COUP_EVERY`-th item in the widget): the
  first four cards, "player: draw, stand, or a natural?", the player's third card, "banker:
  draw or stand?", the banker's third card, "who wins?". Each answer is the engine's
  (:func:`coup_questions`); a wrong decision is a miss of its cell (``player-T``,
  ``banker-T-vs-V`` / ``banker-T-player-stood``, ``natural-T``; :func:`coup_miss`), a right one
  is no review of it (see there). Practice, not a cell of the mastery count.

**The scheduler** is FSRS (the Free Spaced Repetition Scheduler, the model Anki uses), from
its maintained package ``fsrs``: each cell keeps an FSRS card (stability, difficulty, state,
due time) in the learner's record, and every answer is a review rated *Again* (wrong), *Hard*
(right but slower than the course's mastery time, :data:`MASTERY_SECONDS`: it comes back sooner)
or *Good* (right in time, or untimed). The learning steps are short, because answers come
seconds apart: a missed cell is due again after ``LEARNING_STEPS[0]`` (20 s), a cell right the
first time after ``LEARNING_STEPS[1]`` (10 min), then FSRS's own intervals in days. On top of
FSRS, :func:`choose` decides what to ask next, the way Anki's queue does:

1. the nearest cells with the other answer, one after another, right after a cell's 2nd miss
   (the contrast mini-drill of :data:`TEACHING`);
2. a new cell at least every :data:`NEW_EVERY`-th (2nd) answer while any of the 106 is unseen,
   every :data:`NEW_EVERY_HELD`-th (4th) while :data:`MAX_FAILING` cells fail freshly (missed
   fewer than :data:`LEECH_MISSES` times: a held misconception's cells do not hold the rest);
3. otherwise the most overdue due cell; otherwise a new cell;
4. otherwise (nothing due, every cell seen) a cell ahead of time: one not asked in the last
   :data:`MIN_GAP` answers, not yet mastered first, then the one whose recall is lowest now.

**The bound** (issue 42: a held misconception left 60 cells never asked after 10 sessions): all
106 cells enter within 212 cell questions (424 while 8 cells fail freshly); a leech (3 misses) is
asked at most once in :data:`MIN_GAP` + 1 answers, and is suspended at its 5th miss. Measured
(``benchmarks/bench_mastery.py``, sessions of 60): the learner who holds "banker draws on 0–5,
stands on 6–7, whatever the player's third card" has every cell asked by the 5th session, on
the replay path and through the widget, and no cell takes more than 8 % of a session.

**Mastery** is evidence a guesser does not produce, spread over elapsed time (issue 42: under
"fast right answers on 2 calendar dates" a coin-flipper mastered a fifth of the rule, and two
sittings 10 minutes apart across 00:00 UTC mastered 40 cells). A cell is mastered when all hold:

* **Bayesian knowledge tracing** (the Cognitive Tutor's standard): P(known) at least
  :data:`MASTERY_P` (0.95), where each answer updates P(known) with the guess rate 1 / the number
  of choices of its question (½ for a cell, ⅓ for a coup's first question), a slip rate
  :data:`BKT_SLIP` (0.1) and a learning rate :data:`BKT_LEARN` (0.05). The prior is
  individualised (:func:`prior`, "a prior per student"): the share of the learner's first
  answers to cells that were right, one standard error lower, within :data:`PRIOR_RANGE`. A
  learner right on every first answer starts each cell at 0.85 and needs 2 right answers
  (0.915, 0.953); a learner at chance starts at 0.05 and needs 9 in a row (0.132, 0.254, 0.412,
  0.579, 0.727, 0.836, 0.907, 0.949, 0.972), which a guesser gives 1 time in 512. A right answer
  within :data:`MASSED` (1 h) of the cell's previous answer is no evidence (it repeats what the
  learner saw a moment ago; a miss always is): re-asks within a sitting cannot add up.
* **A spaced review**: a right answer within the mastery time, at least :data:`SPACING` (16 h)
  of elapsed time after the answer the evidence counts from (the first, the latest miss or the
  latest spaced review), that leaves the cell in FSRS's Review state with a stability of at
  least :data:`MIN_STABILITY` (2) days. Nothing is mastered within one sitting, whatever the
  date or the clock's time zone.
* **The last answer right and in time** (a slow one un-masters until a fast one), the cell not
  suspended.
* **More evidence after misses, not the same**: the error P(known) may leave is divided by
  1 + the cell's lapses (:func:`mastery_p`: 0.975 after one miss, 0.99 after four), one more
  spaced review is needed per :data:`LEECH_MISSES` lapses (:func:`spaced_needed`), and FSRS's
  difficulty, raised by each lapse, slows the growth of the stability the spaced review needs.

Why this and not the alternatives: counting right answers or days (rules 1 and issue 37's) is
what a guesser passes; BKT alone is met by a lucky run within one sitting; FSRS alone
schedules memory, not knowledge. ``pyBKT`` fits BKT's parameters from data (numpy, a C++
extension); the drill needs only the update with stated parameters, four lines here.

The widgets' scheduler time is :func:`sitting_clock`: within one sitting (one drill widget) it
never runs ahead of the time that has really passed, so a system date set forward mid-sitting
is no spaced review either.

**Mastered now** (:func:`is_mastered_now`): mastered and not yet due, i.e. FSRS's predicted
recall still above the course's target (:data:`DESIRED_RETENTION`, 90 %); a mastered cell past
its due time is **due for a refresh** (:func:`needs_refresh`; 溫習 in the Chinese edition) until
one right, in-time answer renews it (an untimed one does not: the cell stays due). The drill's map, lesson 00's course map and ``baccarat-kit
progress`` count mastered now and name the refreshes.

**The bar is the course's**: the mastery time is :data:`MASTERY_SECONDS`, kept with the record
(``drill.mastery``: ``{"rule": 2, "seconds": 3.0}``, validated; a record of rule 1 is upgraded:
each cell's BKT history is rebuilt from its right answers in a row, and its next spaced review
masters it again). The widget's seconds box sets only the timed mode's limit and the timed
rounds' targets.

**Teaching escalates by lapse count** (:data:`TEACHING`, :func:`teaching`), each level different
from the last: the 1st miss shows the engine's rule row (a full or an empty banker row as the
coup trace says it); the 2nd asks the nearest cells with the other answer in a row
(:func:`contrast`); the 3rd deals a worked coup the kit makes up to reach the cell, card by card,
a different one each time (:func:`worked_coup`); the 4th links the lesson's section and asks a
quiz on the row (:func:`row_quiz`); the 5th suspends the cell and says so (Anki's leech action;
:func:`unsuspend` resumes it, its teaching from the row again).

Measured (``benchmarks/bench_mastery.py``, sessions of 60 a day, seed 0; issue 37's rule in
brackets): a learner right in 2 s masters all 106 in 4 sessions on the replay path [5] and 5
through the widget [6]. A guesser (30 sessions; 10 seeds) masters none [14–30 after 10
sessions]; 30 days after 12 sessions, 99 of 106 are mastered now and 7 due for a refresh
(median recall 0.92), after 180 days none and 106 (0.77) [106 ✔ both]; two sessions 10 minutes apart across
00:00 UTC and one sitting of 300 answers from 23:57 UTC master nothing [40 and 106]. A learner
always right but in 4 s never masters a cell (the course's 3 s); one wrong 30 % of the time on
a cell's first 3 answers takes 972 answers [422]: a missed cell needs more evidence.

**Timed rounds** (:class:`TimedRound`): :data:`ROUND_SIZE` questions against the clock, each
cell with a speed target (the seconds box unless set per cell); the summary gives right and
wrong, the time the round took (the widget's monotonic clock, from its first question on screen
to its last answer: re-drawing the widget, pressing its button again or changing the system's
date neither resets nor pauses it), each cell's slowest right-answer time against its target and
the cells over it (:func:`better_round` says which round is the best one kept).

:func:`replay` runs the scheduler against a simulated learner (no widget, seeded).

>>> cells = {}
>>> answer(cells, "banker-3-vs-8", True, 1.2, step=0, now=0)["fsrs"]["due"]
600.0
>>> e = answer(cells, "banker-3-vs-8", True, 2.0, step=1, now=600); e["h"], e["spaced"]   # 10 min: no evidence
('1', 0)
>>> e = answer(cells, "banker-3-vs-8", True, 2.0, step=2, now=DAY); e["h"], e["spaced"], e["p_known"] < MASTERY_P
('11', 1, True)
>>> mastered(cells)      # one cell's first answers say little of this learner: not yet
0
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any

from .rules import VALUES, banker_draws, banker_rule, draw_values, is_natural, player_draws

LEARNING_STEPS = (timedelta(seconds=20), timedelta(minutes=10))
"""FSRS learning steps of a new cell: again after 20 s when missed, 10 min when right."""
RELEARNING_STEPS = (timedelta(seconds=20), timedelta(minutes=10))
"""FSRS relearning steps of a cell missed after it had graduated to days."""
DESIRED_RETENTION = 0.9
"""FSRS's target: a cell is due when the chance of recalling it falls to 90 %. It is also the
course's target for "mastered now": a mastered cell past its due time is due for a refresh."""
NEW_EVERY = 2
"""While a cell is unseen, at least one answer in this many brings a new one."""
MAX_FAILING = 8
"""New cells come only every :data:`NEW_EVERY_HELD`-th answer while this many cells are failing
(their last answer wrong, missed fewer than :data:`LEECH_MISSES` times)."""
NEW_EVERY_HELD = 4
"""While :data:`MAX_FAILING` cells fail, a new cell still enters at least every this many
answers: a held misconception never stops the rest of the rule from being asked."""
MASTERY_RULE = 2
"""The version of the mastery rule a record is kept under (``drill.mastery.rule``): 1 was "fast
right answers on 2 calendar dates", 2 is the evidence rule of the module docstring."""
MASTERY_SECONDS = 3.0
"""The course's mastery time: a right answer within it is *in time*. Fixed by the course and
stored with the record (``drill.mastery.seconds``); the widget's seconds box does not move it."""
BKT_PRIOR = 0.3
"""Bayesian knowledge tracing: the P(known) of a cell before its first answer that the
individualised prior (:func:`prior`) is shrunk towards, as :data:`PRIOR_WEIGHT` first answers;
with none yet (a new learner) the prior is the floor of :data:`PRIOR_RANGE`."""
PRIOR_RANGE = (0.05, 0.85)
"""The individualised prior stays within these (a learner right on every first answer is not
taken to know a cell before answering it; one at chance is not taken to know none)."""
PRIOR_WEIGHT = 20
""":func:`prior` weighs :data:`BKT_PRIOR` as this many first answers."""
BKT_LEARN = 0.05
"""BKT: the chance an unknown cell becomes known at one answer (with its feedback)."""
BKT_SLIP = 0.1
"""BKT: the chance of a wrong answer on a known cell (a slip)."""
HISTORY = 64
"""A cell's answers kept for BKT (``h``: ``1``/``0`` right/wrong on a 2-choice question,
``R``/``W`` on a 3-choice one), newest last; an answer 64 answers back moves P(known) by less
than 0.001."""
MASSED = 3600.0
"""A right answer within this many seconds of the cell's previous answer is no BKT evidence:
it repeats what the learner saw a moment ago (a miss is always evidence). One sitting's
re-asks cannot add up to mastery."""
MASTERY_P = 0.95
"""The Cognitive Tutor's mastery standard: P(known) at least 0.95."""
SPACING = 16 * 3600.0
"""Seconds of elapsed time between the answers that count for mastery (16 h: a night's sleep;
never a change of date)."""
MIN_STABILITY = 2.0
"""FSRS stability (days) a cell needs at its spaced review: memory of days, not minutes."""
DAY = 86400.0
COUP_EVERY = 10
"""Every this many items the widget deals a whole coup, card by card (:class:`CardByCard`). A coup
is 2–3 answers (the player's decision or a natural, the banker's, who wins), so every 10th item
keeps coups about a fifth of all answers (measured with ``benchmarks/bench_mastery.py``); every
6th, as when a coup was one answer, made them over a third."""
LEECH_MISSES = 3
"""A cell missed this many times (since it was last unsuspended) and not mastered is a *leech*:
spaced out (:data:`MIN_GAP`), and each of these many lapses asks one more spaced review."""
SUSPEND_AT = 5
"""The lapse at which a cell is suspended (Anki's leech action): the teaching of
:data:`TEACHING` has been tried; the learner is told and can unsuspend it (:func:`unsuspend`)."""
MIN_GAP = 7
"""A leech is asked again only after this many other answers while another cell can be asked:
at most 3 answers of any 20 (15 %), so it cannot take over a session."""
TEACHING = ("row", "contrast", "coup", "lesson", "suspend")
"""What a miss teaches, by the cell's lapse count (since it was last unsuspended): the 1st miss
the engine's rule row, the 2nd a contrast mini-drill (the nearest cells with the other answer,
asked in a row), the 3rd a worked coup the kit makes up, dealt card by card (a different one each
time), the 4th the lesson's section and a quiz on the row, the 5th suspends the cell."""


def _cells() -> tuple[str, ...]:
    naturals = [f"natural-{t}" for t in VALUES]
    player = [f"player-{t}" for t in range(8)]
    banker = [banker_rule(t, v) for t in range(8) for v in (*VALUES, None)]
    return (*naturals, *player, *banker)


MASTERY_CELLS = _cells()
"""Every cell of the rule the drill asks (106: 10 naturals, 8 player totals, 88 banker cells)."""
BANKER_CELLS = tuple(c for c in MASTERY_CELLS if c.startswith("banker-"))


@dataclass(frozen=True)
class Item:
    """One drill question: its cell id, what kind of answer it wants and the engine's answer."""

    id: str
    kind: str
    """``natural`` (yes/no), ``draw`` (draw/stand), ``coup`` (player/banker/tie) or ``row`` (a
    quiz on a row of the rule: options ``a``/``b``/``c``, :func:`row_quiz`)."""
    answer: str
    params: Mapping[str, Any]


def item(cell: str) -> Item:
    """The question of a cell, answered by the engine.

    >>> item("banker-6-vs-7").answer, item("banker-7-player-stood").answer, item("natural-8").answer
    ('draw', 'stand', 'yes')
    """
    parts = cell.split("-")
    if parts[0] == "natural":
        t = int(parts[1])
        return Item(cell, "natural", "yes" if is_natural(t) else "no", {"total": t})
    if parts[0] == "player":
        t = int(parts[1])
        return Item(cell, "draw", "draw" if player_draws(t) else "stand", {"total": t})
    t = int(parts[1])
    third = None if parts[2] == "player" else int(parts[3])
    return Item(cell, "draw", "draw" if banker_draws(t, third) else "stand", {"total": t, "third": third})


def coup_item(seed: int, n: int) -> Item:
    """Whole coup number ``n`` of a seeded shoe (8 decks), dealt by the kit: who wins."""
    from .shoe import Shoe

    shoe = Shoe(decks=8, seed=seed)
    coup = None
    for _ in range(n % 60 + 1):
        coup = shoe.deal().coup
    assert coup is not None
    return Item(f"coup-{n}", "coup", str(coup.winner), {"coup": coup, "dealt_by_kit": True})


# ---------------------------------------------------------------- FSRS, one card per cell
@cache
def _fsrs() -> Any:
    """The FSRS scheduler (imported here: ``import baccarat_kit`` and the course map need no
    ``fsrs``). No fuzz: the same record and answers give the same schedule."""
    import fsrs

    return fsrs.Scheduler(desired_retention=DESIRED_RETENTION, learning_steps=LEARNING_STEPS,
                          relearning_steps=RELEARNING_STEPS, enable_fuzzing=False)


def _when(seconds: float) -> datetime:
    return datetime.fromtimestamp(float(seconds), tz=UTC)


def _card(entry: Mapping[str, Any] | None) -> Any:
    """The cell's FSRS card from its record entry (a new one when it has none)."""
    import fsrs

    saved = (entry or {}).get("fsrs")
    if not isinstance(saved, Mapping):
        return fsrs.Card(card_id=1, due=_when(0))
    last = saved.get("last_review")
    return fsrs.Card(card_id=1, state=fsrs.State(int(saved["state"])), step=saved.get("step"),
                     stability=saved.get("stability"), difficulty=saved.get("difficulty"),
                     due=_when(saved["due"]), last_review=None if last is None else _when(last))


def _card_entry(card: Any) -> dict[str, Any]:
    return {"state": int(card.state), "step": card.step, "stability": card.stability,
            "difficulty": card.difficulty, "due": card.due.timestamp(),
            "last_review": None if card.last_review is None else card.last_review.timestamp()}


def rating(right: bool, slow: bool = False) -> int:
    """The FSRS rating of an answer: 1 *Again* when wrong, 2 *Hard* when right but slower
    than the mastery time (recalled, with effort: it comes back sooner), 3 *Good* when right
    in time (or untimed). *Easy* is never given: a drill cannot tell that a learner found a
    cell easy.

    >>> rating(False), rating(True, slow=True), rating(True)
    (1, 2, 3)
    """
    if not right:
        return 1
    return 2 if slow else 3


def recall(entry: Mapping[str, Any] | None, now: float) -> float | None:
    """FSRS's predicted chance that the cell is recalled at ``now`` (None before a review with a
    stability)."""
    if not isinstance(entry, Mapping) or not isinstance(entry.get("fsrs"), Mapping) \
            or entry["fsrs"].get("stability") is None:
        return None
    return float(_fsrs().get_card_retrievability(_card(entry), current_datetime=_when(max(now, 0.0))))


# ---------------------------------------------------------------- the evidence: BKT
def knowledge(p: float, right: bool, choices: int = 2) -> float:
    """One Bayesian-knowledge-tracing step: P(known) after an answer, right or wrong, to a
    question of ``choices`` answers (the guess rate is 1 / ``choices``), then the chance of
    learning from it (:data:`BKT_LEARN`).

    >>> p = PRIOR_RANGE[1]                         # a learner right on every first answer
    >>> for _ in range(2):
    ...     p = knowledge(p, True)
    ...     print(f"{p:.3f}")
    0.915
    0.953
    >>> p = PRIOR_RANGE[0]                         # a learner at chance: 9 right in a row
    >>> for _ in range(9):
    ...     p = knowledge(p, True)
    >>> f"{p:.3f}", f"{knowledge(p, False):.3f}"   # and a miss after them
    ('0.972', '0.881')
    """
    guess = 1.0 / max(2, int(choices))
    if right:
        seen = p * (1 - BKT_SLIP) / (p * (1 - BKT_SLIP) + (1 - p) * guess)
    else:
        seen = p * BKT_SLIP / (p * BKT_SLIP + (1 - p) * (1 - guess))
    return seen + (1 - seen) * BKT_LEARN


_MARKS = {(True, 2): "1", (False, 2): "0", (True, 3): "R", (False, 3): "W"}
_READ = {mark: key for key, mark in _MARKS.items()}


def prior(cells: Mapping[str, Any]) -> float:
    """This learner's P(known) of a cell before its first answer, from the first answers to
    every cell (each cell's ``first_right``): their share right, shrunk towards what
    :data:`BKT_PRIOR` predicts (as :data:`PRIOR_WEIGHT` answers) and taken one standard error
    lower, is ``P·(1 − slip) + (1 − P)·guess``, solved for P and kept within
    :data:`PRIOR_RANGE` (individualised BKT: a prior per learner).

    >>> f"{prior({})}", f"{prior({f'c{i}': {'first_right': True} for i in range(60)})}"
    ('0.05', '0.85')
    >>> f"{prior({f'c{i}': {'first_right': i % 10 < 7} for i in range(106)}):.2f}"   # 70 % right first
    '0.40'
    """
    firsts = [bool(e["first_right"]) for e in cells.values() if isinstance(e, Mapping)
              and isinstance(e.get("first_right"), bool)]
    guess = 0.5
    expected = BKT_PRIOR * (1 - BKT_SLIP) + (1 - BKT_PRIOR) * guess
    n = len(firsts) + PRIOR_WEIGHT
    share = (sum(firsts) + PRIOR_WEIGHT * expected) / n
    share -= math.sqrt(share * (1 - share) / n)  # one standard error lower: luck on first answers is not knowing
    low, high = PRIOR_RANGE
    return round(min(high, max(low, (share - guess) / (1 - BKT_SLIP - guess))), 6)


def posterior(history: str, start: float) -> float:
    """P(known) after the answers of ``history`` (``h``), from ``start`` (:func:`prior`)."""
    p = start
    for mark in history:
        right, choices = _READ.get(mark, (False, 2))
        p = knowledge(p, right, choices)
    return p


def p_known(entry: Mapping[str, Any] | None) -> float:
    """The cell's P(known) as last computed (:func:`answer`); :data:`BKT_PRIOR` before any."""
    if not isinstance(entry, Mapping):
        return BKT_PRIOR
    value = entry.get("p_known")
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else BKT_PRIOR


def lapses(entry: Mapping[str, Any] | None) -> int:
    """Misses of the cell since it was last unsuspended (its teaching level, :data:`TEACHING`)."""
    if not isinstance(entry, Mapping):
        return 0
    return max(0, int(entry.get("lapses", 0)) - int(entry.get("base", 0)))


def spaced_needed(entry: Mapping[str, Any] | None) -> int:
    """Spaced reviews a cell needs: one, and one more for each :data:`LEECH_MISSES` lapses in
    all (a cell with many lapses needs more evidence, not the same).

    >>> spaced_needed({"lapses": 0}), spaced_needed({"lapses": 2}), spaced_needed({"lapses": 7})
    (1, 1, 3)
    """
    return 1 + (int(entry.get("lapses", 0)) if isinstance(entry, Mapping) else 0) // LEECH_MISSES


def mastery_p(entry: Mapping[str, Any] | None) -> float:
    """The P(known) a cell needs: :data:`MASTERY_P`, and the chance of error it allows divided
    by 1 + its lapses (each miss starts a new run a guesser could be lucky in: more evidence,
    not the same).

    >>> mastery_p({"lapses": 0}), mastery_p({"lapses": 1}), mastery_p({"lapses": 4})
    (0.95, 0.975, 0.99)
    """
    n = int(entry.get("lapses", 0)) if isinstance(entry, Mapping) else 0
    return round(1 - (1 - MASTERY_P) / (1 + n), 6)


def teaching(entry: Mapping[str, Any] | None) -> str | None:
    """What the cell's latest miss teaches (:data:`TEACHING`), None when its last answer was
    right or it has no miss.

    >>> teaching({"lapses": 1, "last": "wrong"}), teaching({"lapses": 6, "base": 5, "last": "wrong"})
    ('row', 'row')
    >>> teaching({"lapses": 4, "last": "wrong"}), teaching({"lapses": 9, "last": "wrong"})
    ('lesson', 'suspend')
    """
    n = lapses(entry)
    if n < 1 or not isinstance(entry, Mapping) or entry.get("last") != "wrong":
        return None
    return TEACHING[min(n, len(TEACHING)) - 1]


def answer(cells: dict[str, Any], cell: str, right: bool, seconds: float | None, *, step: int,
           now: float, mastery_seconds: float = MASTERY_SECONDS, choices: int = 2,
           review: bool = True) -> dict[str, Any]:
    """Record one answer of ``cell`` (answer number ``step``, at ``now`` seconds since the
    epoch) in ``cells`` (the record's drill cells): ``seconds`` is the response time (``None``:
    untimed, never *in time*), ``mastery_seconds`` the course's mastery time (the record's,
    never the widget's seconds box), ``choices`` how many answers the question offered (the BKT
    guess rate). ``review=False`` (a whole coup's step) updates P(known) only: no FSRS review.

    A wrong answer: FSRS *Again*, a lapse, the spaced reviews start anew; at the
    :data:`SUSPEND_AT`-th lapse the cell is suspended. A right one: *Good* (*Hard* when slow),
    and a **spaced review** when it is in time, at least :data:`SPACING` after the answer the
    evidence counts from (``anchor``: the first answer, the latest miss or the latest spaced
    review), and leaves the cell in FSRS's Review state with a stability of at least
    :data:`MIN_STABILITY` days."""
    import fsrs

    old = cells.get(cell)
    entry: dict[str, Any] = dict(old) if isinstance(old, Mapping) else {
        "seen": 0, "right": 0, "lapses": 0, "streak": 0, "fast": 0, "first": step}
    for key in ("seen", "right", "lapses", "streak", "fast", "slow", "spaced"):
        entry.setdefault(key, 0)
    entry.setdefault("first", step)
    first = not isinstance(old, Mapping) and review and choices == 2
    if first:
        entry["first_right"] = bool(right)
    massed = right and isinstance(old, Mapping) and now - float(old.get("t", -MASSED)) < MASSED
    if not massed:
        entry["h"] = (str(entry.get("h", "")) + _MARKS[(bool(right), 3 if choices >= 3 else 2)])[-HISTORY:]
    entry.setdefault("h", "")
    cells[cell] = entry
    if first:  # a first answer moves this learner's prior: every cell's P(known) follows
        start = prior(cells)
        for other in cells.values():
            if isinstance(other, dict) and isinstance(other.get("h"), str):
                other["p_known"] = round(posterior(other["h"], start), 6)
    else:
        entry["p_known"] = round(posterior(entry["h"], prior(cells)), 6)
    if not review:
        return entry
    if right and seconds is None and needs_refresh(old, now):
        # an untimed answer (the first after a drill appears) is not the right, in-time answer a
        # refresh needs: the cell stays due, and is asked again, timed
        entry["step"] = step
        return entry
    card = _card(old)
    if card.last_review is not None and card.last_review.timestamp() > now:
        now = card.last_review.timestamp()  # a clock set back (another machine): no negative time
    entry.setdefault("anchor", float(now))
    slow = right and seconds is not None and seconds > mastery_seconds
    in_time = right and seconds is not None and not slow
    entry["seen"] += 1
    card, _log = _fsrs().review_card(card, fsrs.Rating(rating(right, slow)), review_datetime=_when(now))
    if right:
        entry["right"] += 1
        entry["streak"] += 1
        if slow:
            entry["fast"] = 0
            entry["slow"] += 1
        elif in_time:
            entry["fast"] += 1
            if (now - float(entry["anchor"]) >= SPACING and card.state == fsrs.State.Review
                    and float(card.stability) >= MIN_STABILITY):
                entry["spaced"] += 1
                entry["anchor"] = float(now)
    else:
        entry["streak"] = entry["fast"] = entry["spaced"] = 0
        entry["anchor"] = float(now)
        entry["lapses"] += 1
        if lapses(entry) >= SUSPEND_AT:
            entry["suspended"] = True
    for legacy in ("fast_days", "fast_day"):  # rule 1's calendar days: not evidence any more
        entry.pop(legacy, None)
    entry["fsrs"] = _card_entry(card)
    entry["last"] = "right" if right else "wrong"
    if right and seconds is not None:
        entry["pace"] = "slow" if slow else "fast"
    elif not right:
        entry.pop("pace", None)
    entry["step"] = step
    entry["t"] = float(now)
    if seconds is not None:
        entry["ms"] = round(seconds * 1000)
    cells[cell] = entry
    return entry


def is_mastered(entry: Mapping[str, Any] | None) -> bool:
    """The mastery rule (module docstring): not suspended; the last answer right and in time;
    P(known) at least :data:`MASTERY_P`; FSRS Review state with a stability of at least
    :data:`MIN_STABILITY` days; and :func:`spaced_needed` spaced reviews since the last miss.
    Earned once, it stays until a miss or a slow answer; whether it holds *now* is
    :func:`is_mastered_now`."""
    if not isinstance(entry, Mapping) or entry.get("suspended"):
        return False
    if entry.get("last") != "right" or entry.get("pace") != "fast" or p_known(entry) < mastery_p(entry):
        return False
    card = entry.get("fsrs")
    if not isinstance(card, Mapping) or card.get("state") != 2 or float(card.get("stability") or 0) < MIN_STABILITY:
        return False
    return int(entry.get("spaced", 0)) >= spaced_needed(entry)


def is_mastered_now(entry: Mapping[str, Any] | None, now: float) -> bool:
    """Mastered, and recall still at the course's target: not yet due (FSRS schedules the
    review when its predicted recall falls to :data:`DESIRED_RETENTION`)."""
    return is_mastered(entry) and isinstance(entry, Mapping) and now < _due(entry)


def needs_refresh(entry: Mapping[str, Any] | None, now: float) -> bool:
    """Mastered, but due: recall has fallen to the target; one right, in-time answer refreshes it."""
    return is_mastered(entry) and isinstance(entry, Mapping) and now >= _due(entry)


def is_slow(entry: Mapping[str, Any] | None) -> bool:
    """The cell's last answer was right but slower than the mastery time."""
    return isinstance(entry, Mapping) and entry.get("last") == "right" and entry.get("pace") == "slow"


def is_suspended(entry: Mapping[str, Any] | None) -> bool:
    """The cell was suspended at its :data:`SUSPEND_AT`-th lapse (until :func:`unsuspend`)."""
    return isinstance(entry, Mapping) and bool(entry.get("suspended"))


def is_leech(entry: Mapping[str, Any] | None) -> bool:
    """A cell missed :data:`LEECH_MISSES` times or more (since it was last unsuspended), not
    mastered and not suspended."""
    return (isinstance(entry, Mapping) and lapses(entry) >= LEECH_MISSES and not is_mastered(entry)
            and not is_suspended(entry))


def leeches(cells: Mapping[str, Any], pool: tuple[str, ...] = MASTERY_CELLS) -> list[str]:
    return [c for c in pool if is_leech(cells.get(c))]


def suspended(cells: Mapping[str, Any], pool: tuple[str, ...] = MASTERY_CELLS) -> list[str]:
    return [c for c in pool if is_suspended(cells.get(c))]


def unsuspend(cells: dict[str, Any], cell: str) -> dict[str, Any] | None:
    """Ask a suspended cell again: its teaching starts over from the rule row (its lapses so
    far stay, and keep asking more spaced reviews). None when it was not suspended."""
    entry = cells.get(cell)
    if not is_suspended(entry):
        return None
    assert isinstance(entry, Mapping)
    new = {k: v for k, v in entry.items() if k != "suspended"}
    new["base"] = int(new.get("lapses", 0))
    cells[cell] = new
    return new


def _position(cell: str) -> tuple[str, int, int]:
    """A cell's place on its table: kind, row, column (the stood column is column 10)."""
    p = item(cell).params
    if cell.startswith("banker-"):
        return "banker", int(p["total"]), 10 if p["third"] is None else int(p["third"])
    return cell.split("-")[0], 0, int(p["total"])


def contrast(cell: str) -> tuple[str, ...]:
    """The nearest cells with the other answer (the engine says which): every cell at the
    nearest distance on its table (rows plus columns, the same row first; the stood column is a
    table of its own, as are the player's totals and the naturals), at most 3, and the next
    nearest too when only one is that near.

    >>> contrast("banker-3-vs-8"), contrast("player-5"), contrast("natural-8")
    (('banker-3-vs-7', 'banker-3-vs-9', 'banker-2-vs-8'), ('player-6', 'player-7'), ('natural-7', 'natural-6'))
    >>> contrast("banker-0-vs-5")     # a full row: the nearest standing cells, 6 steps away
    ('banker-3-vs-8', 'banker-6-vs-5')
    """
    kind, row, col = _position(cell)
    answer_ = item(cell).answer
    stood = kind == "banker" and col == 10
    others = [c for c in MASTERY_CELLS if c != cell and item(c).answer != answer_]
    near = []
    for c in others:
        k, r, v = _position(c)
        if k != kind or (v == 10) != stood:
            continue
        near.append((abs(r - row) + abs(v - col), r != row, abs(r - row), r, v, c))
    near.sort()
    if not near:
        return ()
    closest = [n[-1] for n in near if n[0] == near[0][0]][:3]
    return tuple(closest if len(closest) > 1 else [n[-1] for n in near[:2]])


_RANKS: Mapping[int, tuple[str, ...]] = {0: ("10", "J", "Q", "K"), 1: ("A",), **{v: (str(v),) for v in range(2, 10)}}


def _pair(rng: random.Random, total: int) -> list[str]:
    """Two card labels (a random pair) whose total is ``total``."""
    first = rng.randrange(10)
    return [rng.choice(_RANKS[first]), rng.choice(_RANKS[(total - first) % 10])]


def _reaches(coup: Any, cell: str) -> bool:
    if cell.startswith("natural-") and int(cell.split("-")[1]) < 8:  # "is it a natural?": no
        return not coup.natural and max(_two_card_totals(coup)) == int(cell.split("-")[1])
    return any(q.cell == cell for q in coup_questions(coup))


def worked_coup(cell: str, variant: int = 0) -> Any:
    """A coup the kit makes up (not a source's) that reaches ``cell``, played by the engine: its
    cards are drawn here at random (seeded by ``cell`` and ``variant``: another variant, another
    coup), every decision is :func:`baccarat_kit.coup.play`'s.

    >>> c = worked_coup("banker-3-vs-8"); c.banker_third is None, c.player_third.value
    (True, 8)
    >>> len({tuple(map(str, worked_coup("banker-3-vs-8", n).player_cards)) for n in range(5)}) > 1
    True
    """
    from .coup import play

    rng = random.Random(f"worked:{cell}:{variant}")
    kind, row, col = _position(cell)
    for _ in range(10_000):
        third: list[str] = []
        if kind == "natural":
            player, banker = _pair(rng, col), _pair(rng, rng.randrange(8 if col >= 8 else col + 1))
        elif kind == "player":
            player, banker = _pair(rng, col), _pair(rng, rng.randrange(8))
        else:
            player = _pair(rng, rng.choice((6, 7)) if col == 10 else rng.randrange(6))
            banker = _pair(rng, row)
            if col != 10:
                third = [rng.choice(_RANKS[col])]
        extra = [rng.choice(_RANKS[rng.randrange(10)]) for _ in range(2)]
        coup = play(" ".join([player[0], banker[0], player[1], banker[1], *third, *extra]))
        if _reaches(coup, cell):
            return coup
    raise AssertionError(f"no coup reaches {cell}")  # pragma: no cover - every cell is reachable


def row_quiz(cell: str, variant: int = 0) -> Item:
    """A quiz on the row of the rule ``cell`` is in: which values draw (or are naturals)? Three
    options (``a``, ``b``, ``c``, order seeded by ``variant``): the engine's set, and two others —
    the neighbouring rows' sets for a banker row, the set with its edge moved by one otherwise.

    >>> q = row_quiz("banker-3-vs-8"); sorted(map(sorted, q.params["options"]))[0], q.params["options"][ord(q.answer) - 97] == draw_values(3)
    ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9], True)
    """
    kind, row, col = _position(cell)
    if kind == "banker" and col != 10:
        right = frozenset(draw_values(row))
        near = sorted((t for t in range(8) if t != row), key=lambda t: (abs(t - row), t))
        wrong = list(dict.fromkeys(frozenset(draw_values(t)) for t in near if draw_values(t) != right))[:2]
    else:
        domain = range(10) if kind == "natural" else range(8)
        yes = {"natural": is_natural, "player": player_draws}.get(kind, lambda t: banker_draws(t, None))
        right = frozenset(t for t in domain if yes(t))
        edge, step_ = (max(right), 1) if 0 in right else (min(right), -1)
        wrong = [right | {edge + step_}, right - {edge}]
    options = [right, *wrong]
    random.Random(f"row:{cell}:{variant}").shuffle(options)
    return Item(f"row-{cell}", "row", "abc"[options.index(right)],
                {"cell": cell, "options": tuple(options), "table": "stood" if col == 10 and kind == "banker" else kind,
                 "total": row})


def median_seconds(cells: Mapping[str, Any], pool: tuple[str, ...] = MASTERY_CELLS) -> float | None:
    """The median of each cell's latest timed answer, in seconds (None before any).

    >>> median_seconds({"player-1": {"ms": 1200}, "player-2": {"ms": 4000}, "player-3": {"seen": 1}})
    2.6
    """
    import statistics

    times = [int(e["ms"]) / 1000 for c in pool if isinstance(e := cells.get(c), Mapping) and "ms" in e]
    return statistics.median(times) if times else None


def mastered(cells: Mapping[str, Any], now: float | None = None) -> int:
    """How many of :data:`MASTERY_CELLS` are mastered (with ``now``: mastered now,
    :func:`is_mastered_now`)."""
    if now is None:
        return sum(1 for c in MASTERY_CELLS if is_mastered(cells.get(c)))
    return sum(1 for c in MASTERY_CELLS if is_mastered_now(cells.get(c), now))


def refreshes(cells: Mapping[str, Any], now: float, pool: tuple[str, ...] = MASTERY_CELLS) -> list[str]:
    """The mastered cells due for a refresh at ``now`` (:func:`needs_refresh`)."""
    return [c for c in pool if needs_refresh(cells.get(c), now)]


def _due(entry: Mapping[str, Any]) -> float:
    saved = entry.get("fsrs")
    return float(saved["due"]) if isinstance(saved, Mapping) else 0.0


def new_order(seed: int, pool: tuple[str, ...] = MASTERY_CELLS) -> list[str]:
    """The order in which this learner's unseen cells enter (seeded)."""
    order = list(pool)
    random.Random(f"drill-new:{seed}").shuffle(order)
    return order


def _mini_drill(cells: Mapping[str, Any], step: int, candidates: list[str]) -> str | None:
    """The next cell of a contrast mini-drill under way: a cell missed for the 2nd time
    (:data:`TEACHING`) within the last 4 answers has its :func:`contrast` cells asked in a row,
    each once."""
    recent = [(int(e.get("step", -1)), c) for c, e in cells.items()
              if isinstance(e, Mapping) and teaching(e) == "contrast" and 0 <= step - int(e.get("step", -99)) <= 4]
    if not recent:
        return None
    at, missed = max(recent)
    for c in contrast(missed):
        if c in candidates and (c not in cells or int(cells[c].get("step", -1)) < at):
            return c
    return None


def choose(cells: Mapping[str, Any], step: int, seed: int, *, now: float,
           pool: tuple[str, ...] = MASTERY_CELLS, avoid: str | None = None) -> str | None:
    """The next cell to ask (answer number ``step``, at ``now``): see the module docstring.
    ``avoid`` (the item just asked) is not asked twice in a row while another is available.
    None when every cell of ``pool`` is suspended."""
    rng = random.Random(f"{seed}:{step}")
    live = [c for c in pool if not is_suspended(cells.get(c))]
    if not live:
        return None
    candidates = [c for c in live if c != avoid] or live
    mini = _mini_drill(cells, step, candidates)
    if mini is not None:
        return mini
    spaced = [c for c in candidates if c not in cells or not is_leech(cells[c])
              or step - int(cells[c].get("step", -MIN_GAP)) >= MIN_GAP]
    candidates = spaced or candidates
    seen = [c for c in candidates if c in cells]
    unseen = [c for c in new_order(seed, pool) if c not in cells and c in candidates]
    due = [c for c in seen if _due(cells[c]) <= now]
    failing = sum(1 for c in live if c in cells and cells[c].get("last") == "wrong"
                  and lapses(cells[c]) < LEECH_MISSES)
    firsts = [int(cells[c].get("first", 0)) for c in pool if c in cells]
    since_new = step - max(firsts) if firsts else NEW_EVERY
    every = NEW_EVERY if failing < MAX_FAILING else NEW_EVERY_HELD
    if unseen and (not due or since_new >= every):
        return unseen[0]
    if due:
        return min(due, key=lambda c: (_due(cells[c]), rng.random()))
    # ahead of time: a cell not yet mastered first (one whose untimed or slow answers sent it
    # days away would otherwise wait behind every mastered cell), then the one whose recall is
    # lowest now (not the one due soonest: a cell just asked is due again soonest when its
    # stability stays low, and came back every other answer); a cell asked in the last
    # MIN_GAP answers only when every other one was
    return min(seen, key=lambda c: (step - int(cells[c].get("step", -MIN_GAP)) < MIN_GAP, is_mastered(cells[c]),
                                    recall(cells[c], now) or 0.0, rng.random()))


# ---------------------------------------------------------------- the queue and its figures
def stats(cells: Mapping[str, Any], now: float, pool: tuple[str, ...] = MASTERY_CELLS) -> dict[str, Any]:
    """What the drill shows about the queue at ``now``: cells seen and new, due now, in
    learning (FSRS learning or relearning steps) and in review (intervals of days), failing,
    mastered, mastered now, due for a refresh, suspended; answers and the share right; seconds
    until the next cell falls due (None when one is due now or none is seen)."""
    seen = [c for c in pool if isinstance(cells.get(c), Mapping)]
    live = [c for c in seen if not is_suspended(cells[c])]
    states = [int((cells[c].get("fsrs") or {}).get("state", 1)) for c in seen]
    dues = [_due(cells[c]) for c in live]
    answers = sum(int(cells[c].get("seen", 0)) for c in seen)
    right = sum(int(cells[c].get("right", 0)) for c in seen)
    later = [d - now for d in dues if d > now]
    return {
        "total": len(pool), "seen": len(seen), "new": len(pool) - len(seen),
        "due": sum(1 for d in dues if d <= now),
        "learning": sum(1 for s in states if s != 2), "review": sum(1 for s in states if s == 2),
        "failing": sum(1 for c in live if cells[c].get("last") == "wrong"),
        "mastered": sum(1 for c in seen if is_mastered(cells[c])),
        "mastered_now": sum(1 for c in seen if is_mastered_now(cells[c], now)),
        "refresh": sum(1 for c in seen if needs_refresh(cells[c], now)),
        "suspended": len(seen) - len(live),
        "answers": answers, "right": right,
        "next_due": None if not later or len(later) < len(dues) else min(later),
    }


def replay(learner: Callable[[str, int], bool], answers: int, *, seed: int = 0,
           seconds: float | Callable[[str, int], float] = 3.0, start: float = 1_800_000_000.0,
           cells: dict[str, Any] | None = None, session: int | None = None,
           gap: float = DAY, until_mastered: bool = False,
           on_session: Callable[[int, dict[str, Any], float], object] | None = None) -> list[tuple[str, bool]]:
    """Drive the scheduler for ``answers`` answers with a simulated learner:
    ``learner(cell, step)`` says whether the answer is right; each answer takes ``seconds``
    (a number, or ``seconds(cell, step)``; in time when at most :data:`MASTERY_SECONDS`). With
    ``session`` the learner practises in sessions of that many answers, each starting ``gap``
    seconds (a day by default) after the one before. ``until_mastered`` stops once all 106 cells
    are mastered (so the log's length is the answers it took); the replay stops early, too,
    when every cell is suspended. ``on_session(n, cells, now)`` is called at the end of each
    session (n from 0). Returns (cell, right) per answer; ``cells`` (a record's drill cells, new
    by default) is updated in place."""
    cells = {} if cells is None else cells
    out: list[tuple[str, bool]] = []
    last: str | None = None
    now = start
    for step in range(answers):
        if session and step and step % session == 0:
            if on_session is not None:
                on_session(step // session - 1, cells, now)
            now = start + (step // session) * gap
            last = None
        cell = choose(cells, step, seed, now=now, avoid=last)
        if cell is None:
            break
        took = seconds(cell, step) if callable(seconds) else seconds
        right = learner(cell, step)
        now += took
        answer(cells, cell, right, took, step=step, now=now)
        out.append((cell, right))
        last = cell
        if until_mastered and mastered(cells) == len(MASTERY_CELLS):
            break
    if on_session is not None:
        on_session((len(out) - 1) // session if session and out else 0, cells, now)
    return out



# ---------------------------------------------------------------- a whole coup, card by card
COUP_CHOICES: Mapping[str, tuple[str, ...]] = {
    "player": ("draw", "stand", "natural"),
    "banker": ("draw", "stand"),
    "winner": ("player", "banker", "tie"),
}
"""The answers of each question of a card-by-card coup, in button order."""


@dataclass(frozen=True)
class CoupQuestion:
    """One question of a card-by-card coup: its stage (``player``: draw, stand or natural;
    ``banker``: draw or stand; ``winner``), the engine's answer, the mastery cell the decision
    is (None for who wins) and the engine's step record that gives its reason."""

    stage: str
    answer: str
    cell: str | None
    step: Any


@dataclass(frozen=True)
class CoupAnswer:
    """What one answer of a card-by-card coup was: right or not, and the mastery cell a wrong
    answer is a miss of (``missed``; None when right or at who wins)."""

    question: CoupQuestion
    choice: str
    right: bool
    missed: str | None


def _two_card_totals(coup: Any) -> tuple[int, int]:
    return (sum(c.value for c in coup.player_cards[:2]) % 10,
            sum(c.value for c in coup.banker_cards[:2]) % 10)


def coup_questions(coup: Any) -> tuple[CoupQuestion, ...]:
    """The questions a coup (:class:`baccarat_kit.coup.Coup`) asks card by card, every answer
    and reason the engine's: the player's decision (or a natural), the banker's (unless a
    natural ended the coup), who wins.

    >>> from baccarat_kit.coup import play
    >>> [(q.stage, q.answer, q.cell) for q in coup_questions(play("2 3 3 4 4"))]
    [('player', 'draw', 'player-5'), ('banker', 'stand', 'banker-7-vs-4'), ('winner', 'player', None)]
    >>> [(q.stage, q.answer, q.cell) for q in coup_questions(play("4 4 4 5"))]
    [('player', 'natural', 'natural-8'), ('winner', 'banker', None)]
    """
    pt, bt = _two_card_totals(coup)
    first = coup.steps[0]
    if coup.natural:
        cell = f"natural-{pt}" if is_natural(pt) else f"natural-{bt}"
        out = [CoupQuestion("player", "natural", cell, first)]
    else:
        out = [CoupQuestion("player", "draw" if coup.player_third is not None else "stand", f"player-{pt}", first)]
        third = None if coup.player_third is None else coup.player_third.value
        out.append(CoupQuestion("banker", "draw" if coup.banker_third is not None else "stand",
                                banker_rule(bt, third), coup.steps[1]))
    out.append(CoupQuestion("winner", str(coup.winner), None, None))
    return tuple(out)


@dataclass(frozen=True)
class CardByCard:
    """A whole coup dealt card by card: a pure state machine (no widget, no clock).

    The first four cards are shown; the learner says whether the player draws, stands or there
    is a natural; the player's third card (if the engine drew one) is shown; the banker's
    decision; the banker's third card; who wins. :meth:`answer` returns the next state and what
    the answer was; a wrong answer does not stop the coup (the engine's decision is shown and
    the deal goes on from it).

    >>> from baccarat_kit.coup import play
    >>> deal = CardByCard(play("2 3 3 4 4"))
    >>> [c.label for c in deal.player_shown], deal.question.stage
    (['2', '3'], 'player')
    >>> deal, said = deal.answer("stand")
    >>> said.right, said.missed, [c.label for c in deal.player_shown], deal.question.stage
    (False, 'player-5', ['2', '3', '4'], 'banker')
    >>> deal, said = deal.answer("stand"); deal, said = deal.answer("player")
    >>> deal.finished, deal.right, deal.misses
    (True, False, ('player-5',))
    """

    coup: Any
    given: tuple[str, ...] = ()

    @property
    def questions(self) -> tuple[CoupQuestion, ...]:
        return coup_questions(self.coup)

    @property
    def finished(self) -> bool:
        return len(self.given) >= len(self.questions)

    @property
    def question(self) -> CoupQuestion | None:
        """The question asked now (None once who wins is answered)."""
        return None if self.finished else self.questions[len(self.given)]

    @property
    def choices(self) -> tuple[str, ...]:
        q = self.question
        return () if q is None else COUP_CHOICES[q.stage]

    @property
    def player_shown(self) -> tuple[Any, ...]:
        """The player's cards face up now: two, and the third once the player's decision is answered."""
        return tuple(self.coup.player_cards if self.given else self.coup.player_cards[:2])

    @property
    def banker_shown(self) -> tuple[Any, ...]:
        """The banker's cards face up now: two, and the third once the banker's decision is answered."""
        stages = [q.stage for q in self.questions[:len(self.given)]]
        return tuple(self.coup.banker_cards if "banker" in stages else self.coup.banker_cards[:2])

    def results(self) -> tuple[CoupAnswer, ...]:
        """Every answer given so far, judged by the engine."""
        return tuple(_judge(self.coup, q, c) for q, c in zip(self.questions, self.given, strict=False))

    @property
    def right(self) -> bool:
        """Every answer given so far was right."""
        return all(r.right for r in self.results())

    @property
    def misses(self) -> tuple[str, ...]:
        """The mastery cells the wrong answers so far are misses of."""
        return tuple(r.missed for r in self.results() if r.missed is not None)

    def answer(self, choice: str) -> tuple[CardByCard, CoupAnswer]:
        """Answer the question asked now; an answer it does not take is a :class:`RuleError`
        naming the valid ones."""
        from .errors import RuleError

        q = self.question
        if q is None or choice not in COUP_CHOICES[q.stage]:
            raise RuleError("drill.bad-choice", value=repr(choice),
                            choices=", ".join(self.choices) or "—")
        return CardByCard(self.coup, (*self.given, choice)), _judge(self.coup, q, choice)


def _judge(coup: Any, q: CoupQuestion, choice: str) -> CoupAnswer:
    """An answer to ``q`` judged by the engine, and the cell a wrong one is a miss of: the
    decision's own cell; for a natural taken where there is none, ``natural-T`` of the higher
    two-card total (the one taken for a natural: nearer to 8)."""
    right = choice == q.answer
    missed = None
    if not right and q.cell is not None:
        missed = q.cell
        if q.stage == "player" and choice == "natural":
            missed = f"natural-{max(_two_card_totals(coup))}"
    return CoupAnswer(q, choice, right, missed)


def coup_miss(cells: dict[str, Any], said: CoupAnswer, *, step: int, now: float) -> dict[str, Any] | None:
    """Record a wrong card-by-card answer as a miss of its mastery cell (:func:`answer`, rated
    *Again*, untimed: reading a coup is not the cell's own speed). A right answer is not a
    review of the cell (the cell's own question still has to be answered, right and fast on two
    days): a miss in a coup is evidence enough that a cell is not known; a right step is not
    evidence that it is known fast. Returns the cell's entry, None when nothing was recorded."""
    if said.missed is None:
        return None
    return answer(cells, said.missed, False, None, step=step, now=now,
                  choices=len(COUP_CHOICES[said.question.stage]))


# ---------------------------------------------------------------- timed rounds
ROUND_SIZE = 20
"""Questions in a timed round (the way dealer schools drill: a set number against the clock)."""


@dataclass(frozen=True)
class TimedRound:
    """A round of ``size`` drill questions against the clock: a pure record of its answers.

    Every cell has a speed target: ``targets[cell]`` when given, else ``target`` (the mastery
    time, adjustable). The answers of a round are ordinary answers too: the widget records each
    with :func:`answer` as well (FSRS, mastery), so a round changes nothing in the schedule but
    the clock on the screen and the summary.

    >>> r = TimedRound(size=3, target=3.0)
    >>> for cell, right, s in [("player-5", True, 1.5), ("banker-3-vs-8", True, 4.5), ("natural-8", False, 2.0)]:
    ...     r = r.add(cell, right, s)
    >>> s = r.summary(); r.finished, s["right"], s["wrong"], s["seconds"], s["over"], s["missed"]
    (True, 2, 1, 8.0, ['banker-3-vs-8'], ['natural-8'])
    """

    size: int = ROUND_SIZE
    target: float = MASTERY_SECONDS
    targets: Mapping[str, float] | None = None
    answers: tuple[tuple[str, bool, float | None], ...] = ()
    elapsed: float | None = None
    """The round's own clock: the time from its first question on screen to its last answer
    (the widget's monotonic clock), None when only the answers' times are known."""

    def target_for(self, cell: str) -> float:
        return float((self.targets or {}).get(cell, self.target))

    @property
    def finished(self) -> bool:
        return len(self.answers) >= self.size

    def add(self, cell: str, right: bool, seconds: float | None, elapsed: float | None = None) -> TimedRound:
        """The round with one more answer (``seconds`` None: untimed; ``elapsed``: the round's
        time so far, by its own clock)."""
        from .errors import RuleError

        if self.finished:
            raise RuleError("drill.round-over", size=self.size)
        return TimedRound(self.size, self.target, self.targets, (*self.answers, (cell, bool(right), seconds)),
                          self.elapsed if elapsed is None else float(elapsed))

    def summary(self) -> dict[str, Any]:
        """Right and wrong; the round's time (:attr:`elapsed`, the time the round took; without
        it, the sum of the answers' times); per cell asked, its times, its median and its slowest
        right-answer time and its target; ``over``: the cells with a right answer over their
        target (a wrong answer's time is not a speed; one slow answer is not hidden by fast ones);
        ``missed``: cells answered wrong in the round."""
        import statistics

        per: dict[str, dict[str, Any]] = {}
        for cell, right, seconds in self.answers:
            entry = per.setdefault(cell, {"cell": cell, "asked": 0, "right": 0, "times": [],
                                          "target": self.target_for(cell)})
            entry["asked"] += 1
            entry["right"] += int(right)
            if right and seconds is not None:
                entry["times"].append(float(seconds))
        for entry in per.values():
            entry["median"] = statistics.median(entry["times"]) if entry["times"] else None
            entry["slowest"] = max(entry["times"]) if entry["times"] else None
            entry["over"] = entry["slowest"] is not None and entry["slowest"] > entry["target"]
        n_right = sum(1 for _c, r, _s in self.answers if r)
        return {
            "size": self.size, "target": self.target, "answered": len(self.answers), "right": n_right,
            "wrong": len(self.answers) - n_right,
            "seconds": round(self.elapsed if self.elapsed is not None
                             else sum(s for _c, _r, s in self.answers if s is not None), 3),
            "untimed": sum(1 for _c, _r, s in self.answers if s is None),
            "cells": list(per.values()),
            "over": [c for c, e in per.items() if e["over"]],
            "missed": [c for c, e in per.items() if e["right"] < e["asked"]],
        }


def better_round(a: Mapping[str, Any] | None, b: Mapping[str, Any]) -> bool:
    """Whether round summary ``b`` beats ``a`` (None: no round yet): more right of the same
    size, then less time.

    >>> better_round({"right": 18, "size": 20, "seconds": 40.0}, {"right": 19, "size": 20, "seconds": 55.0})
    True
    >>> better_round({"right": 19, "size": 20, "seconds": 40.0}, {"right": 19, "size": 20, "seconds": 41.0})
    False
    """
    if a is None:
        return True
    def share(r: Mapping[str, Any]) -> float:
        return int(r["right"]) / max(1, int(r["size"]))
    return (share(b), -float(b["seconds"])) > (share(a), -float(a["seconds"]))


def sitting_clock(wall: Callable[[], float] = time.time,
                  elapsed: Callable[[], float] | None = None) -> Callable[[], float]:
    """The scheduler's time (seconds since the epoch) for one sitting, e.g. one drill widget: the
    wall clock, but never further from the sitting's start than the time that has really passed
    (``elapsed``: a monotonic clock that counts a suspended machine's sleep where the system has
    one, Linux's ``CLOCK_BOOTTIME``; else :func:`time.monotonic`). The system's date set forward
    during a sitting then gives no spaced review (a date moved 17 h on mastered all 106 cells in
    4 minutes of answers); a date set back is believed (no review is made earlier by it). The
    date at the sitting's start is the learner's machine's: the record's times are hers.

    >>> wall, mono = [1000.0], [5.0]
    >>> now = sitting_clock(lambda: wall[0], lambda: mono[0])
    >>> wall[0] += 17 * 3600; mono[0] += 60     # the date moved on 17 h, a minute later
    >>> now()
    1060.0
    """
    if elapsed is None:
        elapsed = time.monotonic
        boot = getattr(time, "CLOCK_BOOTTIME", None)
        if boot is not None:
            try:  # named, but not every system answers it (a sandbox, Pyodide)
                time.clock_gettime(boot)
                elapsed = lambda: time.clock_gettime(boot)  # noqa: E731
            except (OSError, AttributeError):
                pass
    start_wall, start = float(wall()), float(elapsed())

    def now() -> float:
        return min(float(wall()), start_wall + max(0.0, float(elapsed()) - start))

    return now


def due_cells(cells: Mapping[str, Any], now: float, pool: tuple[str, ...] = MASTERY_CELLS) -> list[str]:
    """The cells seen and due at ``now`` (their FSRS due time reached), most overdue first
    (the today view's list; :func:`stats` counts the same cells).

    >>> cells = {}
    >>> _ = answer(cells, "player-5", False, 2.0, step=0, now=0)     # again in 20 s
    >>> _ = answer(cells, "natural-8", True, 2.0, step=1, now=0)     # again in 10 min
    >>> due_cells(cells, 30), due_cells(cells, 700)
    (['player-5'], ['player-5', 'natural-8'])
    """
    due = [c for c in pool if isinstance(cells.get(c), Mapping) and not is_suspended(cells[c])
           and _due(cells[c]) <= now]
    return sorted(due, key=lambda c: (_due(cells[c]), pool.index(c)))
