"""The final test's bank of fresh items, and the draw that keeps it fresh for each learner.

Three kinds of item, each made now by the engine (no answer is written here):

* **boundary cells** of the banker table: the cells whose answer differs from a neighbour's in
  the same row or column (banker 3 against an 8, banker 6 against a 6 and a 5, …), found by
  asking :func:`~baccarat_kit.rules.banker_draws` about every cell;
* **whole coups**: who wins a coup the kit deals from a seeded, shuffled 8-deck shoe;
* **settlements**: the net result of a bet of 100 on such a coup at this course's commission
  table (:func:`~baccarat_kit.settlement.settle`). A tie's key is the course's own table, and its
  explanation says so: the banker and player bets come back, as a standard table *usually* does
  (000), and the tie bet's odds are the course's (no source gives them).

The coups are the kit's own: no source gives their cards, and every such prompt says so
(``widgets.quiz.made-up``); a deal that happens to match a source's case is skipped.

:func:`draw` picks a test: items whose rule cells the learner has not met in the drill or in a
lesson self-check come first (the progress record says which), never two items on the same
rule cell, never a lesson self-check question the learner has already answered (its options
would be the same), and not the items of the previous attempt.

>>> items = draw({}, seed=1, attempt=1)
>>> len(items), len({i.id for i in items}), len({c for i in items for c in i.cells}) == sum(len(i.cells) for i in items)
(12, 12, True)
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from ..coup import Coup, play
from ..i18n import LANGUAGES, both, message
from ..rules import VALUES, banker_draws, banker_rule, hand_total
from .question_sets import build_question, lesson_names, lesson_tables, made_up
from .questions import Option, Question, banker_questions

STAKE = Decimal(100)
MIX = {"cell": 4, "coup": 3, "settle": 3}
"""How many of each bank kind a 12-question test asks; the rest are lesson questions the
learner has not answered (or more bank items when there are none)."""


@dataclass(frozen=True)
class Item:
    """One question of the test: where it comes from, the lesson that teaches it and the rule
    cells (the drill's ids) a learner must get right to answer it."""

    id: str
    kind: str
    """``cell``, ``coup``, ``settle`` (the bank) or ``lesson`` (a lesson self-check question)."""
    lesson: str
    cells: frozenset[str]
    question: Question
    about: dict[str, str] | None = None
    """The item in the learner's words (zh, en), for the summary: the cards of a hand the kit
    dealt, the banker table's cell, a lesson's self-check (never the internal id)."""


# ---------------------------------------------------------------- the bank
def boundary_cells() -> list[tuple[int, int | None]]:
    """Banker cells (total 0–7, player third 0–9 or None) whose answer differs from a
    neighbour's: the previous or next value in the row, the total above or below."""
    thirds: list[int | None] = [*VALUES, None]
    out = []
    for t in range(8):
        for i, v in enumerate(thirds):
            here = banker_draws(t, v)
            row = [thirds[j] for j in (i - 1, i + 1) if 0 <= j < len(VALUES) and v is not None]
            column = [u for u in (t - 1, t + 1) if 0 <= u < 8]
            if any(banker_draws(t, u) != here for u in row) or any(banker_draws(u, v) != here for u in column):
                out.append((t, v))
    return out


def coup_cells(coup: Coup) -> frozenset[str]:
    """The drill's cells a coup goes through: the naturals, or the player's and the banker's
    decisions (the banker's against the player's third card, or with the player stood)."""
    from .. import drill

    player = hand_total(coup.player_cards[:2])
    banker = hand_total(coup.banker_cards[:2])
    if coup.natural:
        return frozenset({f"natural-{player}", f"natural-{banker}"})
    third = coup.player_third.value if coup.player_third is not None else None
    cells = {f"player-{player}", banker_rule(banker, third)}
    return frozenset(c for c in cells if c in drill.MASTERY_CELLS)


def _kit_coups(seed: str, count: int) -> list[Coup]:
    """``count`` coups dealt by the kit from a shoe shuffled with ``seed`` (none a source's)."""
    from ..shoe import Shoe

    shoe = Shoe(decks=8, seed=random.Random(seed).randrange(2**32))
    out: list[Coup] = []
    while len(out) < count:
        cards = _cards(shoe.deal().coup)  # by rank: the sources give no suits
        if made_up(cards):
            out.append(play(cards))
    return out


def _label(text: dict[str, str]) -> dict[str, str]:
    made = both("widgets.quiz.made-up")
    return {k: f"{text[k]}{made[k]}" for k in LANGUAGES}


def _cards(coup: Coup) -> str:
    """The coup's cards in deal order, by rank (as the sources and lessons write them)."""
    return " ".join(c.label.rstrip("♠♥♦♣") for c in coup.cards)


def coup_question(coup: Coup) -> Question:
    """Who wins this coup (its cards in deal order)? Every option says what the engine did."""
    # The engine's trace is the question's explanation, shown once after any answer; the
    # options carry no copy of it (each option's why and the explanation printed it three times).
    why = {k: message("widgets.final.coup-why", k, explain=coup.explain(k).replace("\n", " ")) for k in LANGUAGES}
    options = tuple(Option(both(f"who.{who}")) for who in ("player", "banker", "tie"))
    prompt = _label(both("widgets.final.coup-question", cards=_cards(coup)))
    return Question(f"kit-coup-{_cards(coup).replace(' ', '-')}", prompt, options,
                    ("player", "banker", "tie").index(str(coup.winner)), why)


def _money(amount: Decimal) -> str:
    """A net result as the options show it: ``+95``, ``-100``, ``0``, ``+47.5``."""
    if not amount:
        return "0"
    text = f"{amount:+f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def settle_question(coup: Coup, area: str) -> Question:
    """The net result of :data:`STAKE` on ``area`` (banker, player or tie) on this coup at this
    course's commission table. The wrong options are the results of two misconceptions when
    they apply (a banker win paid even; a tie that takes the main bets), else of other coups'
    outcomes; each says why it is wrong, from the engine's settlement."""
    from ..settlement import PAY_TABLES, settle

    settled = settle(coup, {area: STAKE})
    net = settled.net
    wrong: dict[Decimal, str | None] = {}
    if area == "banker" and coup.winner == "banker":
        wrong[STAKE] = "banker-pays-even"
    if area != "tie" and coup.winner == "tie":
        wrong[-STAKE] = "tie-loses-main-bets"
    for other in (-STAKE, Decimal(0), STAKE, settle(coup, {area: STAKE}, "no-commission").net):
        if len(wrong) >= 2:
            break
        if other != net and other not in wrong:
            wrong[other] = None
    values = sorted([net, *wrong], key=lambda d: (d, str(d)))
    # the engine's settlement is the explanation, shown once (not again as each option's why); on a
    # tie it says whose rule the key is: the course's table, the sources' hedge
    key = "widgets.final.settle-why"
    if coup.winner == "tie":
        key += "-tie-bet" if area == "tie" else "-push"
    table = PAY_TABLES["commission"]
    why = {k: message(key, k, explain=settled.explain(k).replace("\n", " "), odds=f"{table.tie:g}:1")
           for k in LANGUAGES}
    options = tuple(Option({k: _money(v) for k in LANGUAGES}, wrong.get(v)) for v in values)
    prompt = _label({k: message("widgets.final.settle-question", k, cards=_cards(coup), stake=STAKE,
                                area=message(f"area.{area}", k)) for k in LANGUAGES})
    return Question(f"kit-settle-{area}-{_cards(coup).replace(' ', '-')}", prompt, options,
                    values.index(net), why)


@cache
def _boundary_items() -> tuple[Item, ...]:
    cells = boundary_cells()
    return tuple(Item(q.id, "cell", "04", frozenset({q.id}), q,
                      both("widgets.final.about-cell-stood", total=t) if v is None
                      else both("widgets.final.about-cell-third", total=t, value=v))
                 for (t, v), q in zip(cells, banker_questions(cells), strict=True))


def bank(seed: Any, attempt: int) -> list[Item]:
    """Every bank item for this learner and attempt: the boundary cells, and coups and
    settlements dealt for it (seeded)."""
    coups = _kit_coups(f"final-bank:{seed}:{attempt}", 40)
    items = list(_boundary_items())
    for coup in coups[:20]:
        q = coup_question(coup)
        items.append(Item(q.id, "coup", "05", coup_cells(coup), q, both("widgets.final.about-kit", cards=_cards(coup))))
    rng = random.Random(f"final-areas:{seed}:{attempt}")
    for coup in coups[20:]:
        area = rng.choice(("banker", "player", "banker", "tie") if coup.winner == "tie" else ("banker", "player"))
        q = settle_question(coup, area)
        items.append(Item(q.id, "settle", "07", coup_cells(coup), q, both("widgets.final.about-kit", cards=_cards(coup))))
    return items


# ---------------------------------------------------------------- the learner's record
@cache
def _set_items(name: str) -> tuple[Item, ...]:
    """The questions of one question set (a lesson's, or the trainer's) as items, with the
    cells their data name."""
    from .. import drill

    out = []
    for raw in lesson_tables(name):  # the trainer's uncovered cells expanded, as its quiz asks them
        q = build_question(raw)
        cells: set[str] = set()
        if raw.get("kind") == "banker":
            cells.add(banker_rule(int(raw["total"]), None if raw["third"] == "stood" else int(raw["third"])))
        elif raw.get("kind") == "player":
            cells.add(f"player-{int(raw['total'])}")
        elif "cards" in raw and raw.get("kind") in ("natural", "winner", "drew", "net"):
            cells |= coup_cells(play(str(raw["cards"])))
        out.append(Item(q.id, "lesson", name, frozenset(c for c in cells if c in drill.MASTERY_CELLS), q,
                        both("widgets.final.about-lesson", lesson=name)))
    return tuple(out)


def _lesson_items() -> tuple[Item, ...]:
    """Every lesson self-check question (lessons 01–08) as an item."""
    return tuple(i for name in lesson_names() if name.isdigit() and name != "00" for i in _set_items(name))


def seen(record: Mapping[str, Any]) -> tuple[set[str], set[tuple[str, str]], set[str]]:
    """From a progress record: the rule cells the learner has met (drill and lesson
    self-checks), the (lesson, question) pairs answered, and the items of the last attempt."""
    quizzes = record.get("quizzes", {}) if isinstance(record, Mapping) else {}
    answered = {(name, qid) for name, quiz in quizzes.items() if isinstance(quiz, Mapping)
                for qid in (quiz.get("answers") or {})}
    cells = set((record.get("drill") or {}).get("cells", {})) if isinstance(record, Mapping) else set()
    for name in lesson_names():  # the lessons' and the trainer's questions
        for item in _set_items(name):
            if (name, item.id) in answered:
                cells |= item.cells
    last = set((record.get("final") or {}).get("asked", [])) if isinstance(record, Mapping) else set()
    return cells, answered, last


def draw(record: Mapping[str, Any], *, seed: Any, attempt: int, n: int = 12) -> list[Item]:
    """The test for this record, seed and attempt: see the module docstring. Within each kind,
    items on cells the learner has not met come first; no rule cell is asked twice."""
    met, answered, last = seen(record)
    rng = random.Random(f"final:{seed}:{attempt}")
    pools: dict[str, list[Item]] = {"cell": [], "coup": [], "settle": []}
    for item in bank(seed, attempt):
        if item.id not in last:
            pools[item.kind].append(item)
    lessons = [i for i in _lesson_items() if (i.lesson, i.id) not in answered and i.id not in last]
    for pool in (*pools.values(), lessons):
        rng.shuffle(pool)
        pool.sort(key=lambda i: bool(i.cells & met))  # fresh first (a stable sort keeps the shuffle)
    chosen: list[Item] = []
    used: set[str] = set()

    def take(pool: Iterable[Item], count: int) -> None:
        for item in pool:
            if count <= 0 or len(chosen) >= n:
                return
            if item.cells & used or any(c.id == item.id or c.question.id == item.question.id for c in chosen):
                continue
            chosen.append(item)
            used.update(item.cells)
            count -= 1

    scale = n / 12
    for kind, count in MIX.items():
        take(pools[kind], round(count * scale))
    by_lesson: dict[str, list[Item]] = {}
    for item in lessons:
        by_lesson.setdefault(item.lesson, []).append(item)
    for name in sorted(by_lesson, key=lambda _n: rng.random()):  # one lesson question a lesson
        take(by_lesson[name], 1)
    for kind in ("cell", "coup", "settle"):  # too few lesson questions left: more bank items
        take(pools[kind], n)
    rng.shuffle(chosen)
    return chosen
