"""The final test's bank of fresh items, and the draw that keeps it fresh for each learner.

Each item is made now by the engine (no answer is written here), one kind for each lesson that
teaches it (:data:`LESSON_OF`):

* **hand totals** (lesson 01): the total of a hand the kit dealt, the wrong options the totals
  two misconceptions give (the tens kept, 10/J/Q/K counted as 10, 10 taken off once);
* **naturals** (lesson 02): is there a natural, from the first four cards of a dealt coup;
* **the player's step** (lesson 03): does the player draw, from the first four cards;
* **boundary cells** of the banker table (lesson 04): the cells whose answer differs from a
  neighbour's in the same row or column (banker 3 against an 8, banker 6 against a 6 and a 5,
  …), found by asking :func:`~baccarat_kit.rules.banker_draws` about every cell;
* **whole coups** (lesson 05): who wins a coup the kit deals from a seeded, shuffled 8-deck shoe;
* **the banker's step where a mistake is easy** (lesson 06): a natural before a low banker, a
  third card of 10/J/Q/K, or a player whose final total reads the table another way;
* **settlements** (lesson 07): the net result of a bet of 100 on such a coup at this course's
  commission table (:func:`~baccarat_kit.settlement.settle`). A tie's key is the course's own
  table, and its explanation says so: the banker and player bets come back, as a standard table
  *usually* does (000), and the tie bet's odds are the course's (no source gives them).

The coups are the kit's own: no source gives their cards, and every such prompt says so
(``widgets.quiz.made-up``); a deal that happens to match a source's case is skipped.

:func:`draw` picks a test that keeps lesson 10's promise, at least one item from each lesson
(01–08): one item for each lesson first, a lesson's self-check questions the learner has not
answered yet and the bank's items of its kind together; only when neither is left (lesson 08
has no bank kind: its questions are facts) one of the lesson's questions already answered.
Then :data:`EXTRA` more items, cells of the banker matrix first. Within a choice, items whose
rule cells the learner has not met in the drill or in a lesson self-check come first (the
progress record says which); never two items on the same rule cell, and not the items of the
previous attempt.

>>> items = draw({}, seed=1, attempt=1)
>>> len(items), len({i.id for i in items}), len({c for i in items for c in i.cells}) == sum(len(i.cells) for i in items)
(12, 12, True)
>>> sorted({i.lesson for i in items}) == list(course_lessons())
True
"""

from __future__ import annotations

import dataclasses
import itertools
import random
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from typing import Any

from ..cards import Card
from ..coup import Coup, play
from ..i18n import LANGUAGES, both, message
from ..rules import VALUES, banker_draws, banker_rule, hand_total
from .question_sets import build_question, lesson_names, lesson_tables, made_up
from .questions import Option, Question, banker_questions, player_questions

STAKE = Decimal(100)
LESSON_OF = {"total": "01", "natural": "02", "player-step": "03", "cell": "04", "coup": "05",
             "banker-step": "06", "settle": "07"}
"""Each bank kind and the lesson that teaches it."""
EXTRA = {"cell": 2, "coup": 1, "settle": 1}
"""The items a 12-question test asks after one item for each of the eight lessons."""
PER_KIND = 6
"""How many items of each kind made from dealt coups the bank holds for one attempt."""


@dataclass(frozen=True)
class Item:
    """One question of the test: where it comes from, the lesson that teaches it and the rule
    cells (the drill's ids) a learner must get right to answer it."""

    id: str
    kind: str
    """A bank kind (:data:`LESSON_OF`) or ``lesson`` (a lesson self-check question)."""
    lesson: str
    cells: frozenset[str]
    question: Question
    about: dict[str, str] | None = None
    """The item in the learner's words (zh, en), for the summary: the cards of a hand the kit
    dealt, the banker table's cell, a lesson's self-check (never the internal id)."""

    @property
    def key(self) -> str:
        """What names this item among all the bank's and the lessons' (a boundary cell and a
        lesson 04 question may share an id): ``kind:lesson:id``."""
        return f"{self.kind}:{self.lesson}:{self.id}"


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
    """``count`` coups dealt by the kit from shoes shuffled with ``seed`` (none a source's),
    the next shoe when one ends."""
    return list(itertools.islice(_kit_deals(seed), count))


def _kit_deals(seed: str) -> Iterator[Coup]:
    from ..shoe import Shoe

    rng = random.Random(seed)
    while True:
        shoe = Shoe(decks=8, seed=rng.randrange(2**32))
        while not shoe.finished:
            cards = _cards(shoe.deal().coup)  # by rank: the sources give no suits
            if made_up(cards):
                yield play(cards)


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


def _deal(coup: Coup) -> dict[str, str]:
    """The first four cards of a coup, in deal order and in words (both languages)."""
    p, b = coup.player_cards, coup.banker_cards
    return both("widgets.final.deal", p1=_rank(p[0]), b1=_rank(b[0]), p2=_rank(p[1]), b2=_rank(b[1]))


def _rank(card: Card) -> str:
    return card.label.rstrip("♠♥♦♣")


def _first_four(coup: Coup) -> str:
    p, b = coup.player_cards, coup.banker_cards
    return "-".join(_rank(c) for c in (p[0], b[0], p[1], b[1]))


def _coup_why(coup: Coup) -> dict[str, str]:
    return {k: message("widgets.final.coup-why", k, explain=coup.explain(k).replace("\n", " ")) for k in LANGUAGES}


def total_item(coup: Coup) -> Item | None:
    """Lesson 01: the total of one of the coup's hands (the longer first), when its wrong
    totals give three options: the tens kept (``total-keeps-tens``), 10/J/Q/K counted as 10
    (``face-card-ten``), 10 taken off once (``total-minus-ten-once``)."""
    for hand in sorted((coup.player_cards, coup.banker_cards), key=len, reverse=True):
        total = hand_total(hand)
        plain = sum(c.value for c in hand)
        tens = sum(c.value or 10 for c in hand)  # 10, J, Q, K (value 0) counted as 10
        wrong: dict[int, str] = {}
        for value, mid in ((plain, "total-keeps-tens"), (tens, "face-card-ten"),
                           (plain - 10, "total-minus-ten-once")):
            if value >= 10 and value != total and value not in wrong:
                wrong[value] = mid
        if len(wrong) < 2:
            continue
        values = sorted([total, *wrong])
        cards = " ".join(_rank(c) for c in hand)
        explain = both("widgets.final.total-why", values=" + ".join(str(c.value) for c in hand),
                       sum=plain, total=total)
        q = Question(f"kit-total-{cards.replace(' ', '-')}", both("widgets.final.total-question", cards=cards),
                     tuple(Option({k: str(v) for k in LANGUAGES}, wrong.get(v)) for v in values),
                     values.index(total), explain)
        return Item(q.id, "total", LESSON_OF["total"], frozenset(), q, both("widgets.final.about-hand", cards=cards))
    return None


def natural_item(coup: Coup) -> Item | None:
    """Lesson 02: is there a natural, from the first four cards: a coup with one, or one
    whose two-card 6 or 7 looks like one (``six-seven-natural``)."""
    from .. import drill

    player, banker = hand_total(coup.player_cards[:2]), hand_total(coup.banker_cards[:2])
    tempting = {player, banker} & {6, 7}
    if not coup.natural and not tempting:
        return None
    options = (Option(both("widgets.quiz.yes"), None if coup.natural else "six-seven-natural"),
               Option(both("widgets.quiz.no")))
    prompt = _label(both("widgets.final.natural-question", deal=_deal(coup)))
    q = Question(f"kit-natural-{_first_four(coup)}", prompt, options, 0 if coup.natural else 1, _coup_why(coup))
    cells = frozenset(c for c in (f"natural-{player}", f"natural-{banker}") if c in drill.MASTERY_CELLS)
    return Item(q.id, "natural", LESSON_OF["natural"], cells, q,
                both("widgets.final.about-kit", cards=_first_four(coup).replace("-", " ")))


def player_item(coup: Coup) -> Item | None:
    """Lesson 03: does the player draw, from the first four cards of a coup with no natural
    (its total is the learner's to work out)."""
    if coup.natural:
        return None
    total = hand_total(coup.player_cards[:2])
    made = player_questions([total])[0]
    close = {5: "player-5-stands", 6: "player-6-draws"}.get(total)  # a belief about this total
    options = tuple(Option(o.text, close if i != made.answer and close else o.misconception, o.why)
                    for i, o in enumerate(made.options))
    prompt = _label(both("widgets.final.player-question", deal=_deal(coup)))
    q = dataclasses.replace(made, id=f"kit-player-{_first_four(coup)}", prompt=prompt, options=options,
                            hint=None)
    return Item(q.id, "player-step", LESSON_OF["player-step"], frozenset({f"player-{total}"}), q,
                both("widgets.final.about-kit", cards=_first_four(coup).replace("-", " ")))


def banker_item(coup: Coup) -> Item | None:
    """Lesson 06: does the banker draw, where a common mistake gives the other answer: a
    natural before a banker that would draw (``matrix-after-natural``), a player third card of
    10/J/Q/K (``face-card-not-in-table``), or a player whose final total read as the third
    card changes the answer (``final-total-as-third``). Other coups: None."""
    from .. import drill

    player, banker = hand_total(coup.player_cards[:2]), hand_total(coup.banker_cards[:2])
    third = coup.player_third
    drew = coup.banker_third is not None
    mistake: str | None = None
    if coup.natural:
        if banker < 8 and banker_draws(banker, None):  # the player's natural: a table read would draw
            mistake = "matrix-after-natural"
    elif third is not None and third.value == 0:
        mistake = "face-card-not-in-table"
    elif third is not None and banker_draws(banker, coup.player_total) != drew:
        mistake = "final-total-as-third"
    if mistake is None:
        return None
    draw = Option(both("widgets.quiz.draw"), None if drew else mistake)
    stand = Option(both("widgets.quiz.stand"), mistake if drew else None)
    after = ({} if coup.natural else both("widgets.final.after-stood") if third is None
             else both("widgets.final.after-third", card=_rank(third)))
    prompt = _label({k: message("widgets.final.banker-question", k, deal=_deal(coup)[k], after=after.get(k, ""))
                     for k in LANGUAGES})
    shown = _first_four(coup) + (f"-{_rank(third)}" if third is not None else "")
    q = Question(f"kit-banker-{shown}", prompt, (draw, stand), 0 if drew else 1, _coup_why(coup))
    cells = (frozenset(c for c in (f"natural-{player}", f"natural-{banker}") if c in drill.MASTERY_CELLS)
             if coup.natural else frozenset({banker_rule(banker, None if third is None else third.value)}))
    return Item(q.id, "banker-step", LESSON_OF["banker-step"], cells, q,
                both("widgets.final.about-kit", cards=shown.replace("-", " ")))


@cache
def _boundary_items() -> tuple[Item, ...]:
    cells = boundary_cells()
    return tuple(Item(q.id, "cell", "04", frozenset({q.id}), q,
                      both("widgets.final.about-cell-stood", total=t) if v is None
                      else both("widgets.final.about-cell-third", total=t, value=v))
                 for (t, v), q in zip(cells, banker_questions(cells), strict=True))


def bank(seed: Any, attempt: int) -> list[Item]:
    """Every bank item for this learner and attempt: the boundary cells, and coups and
    settlements dealt for it, and :data:`PER_KIND` items of each lesson's kind made from more
    dealt coups (all seeded)."""
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
    made: dict[str, list[Item]] = {"total": [], "natural": [], "player-step": [], "banker-step": []}
    makers = {"total": total_item, "natural": natural_item, "player-step": player_item, "banker-step": banker_item}
    for coup in itertools.islice(_kit_deals(f"final-bank-lessons:{seed}:{attempt}"), 400):
        for kind, maker in makers.items():
            item = maker(coup) if len(made[kind]) < PER_KIND else None
            if item is not None and all(i.id != item.id for i in made[kind]):
                made[kind].append(item)
        if all(len(v) >= PER_KIND for v in made.values()):
            break
    return items + [i for kind in made.values() for i in kind]


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


def course_lessons() -> tuple[str, ...]:
    """The lessons a final test covers, one item at least each: those with a self-check
    question set, but lesson 00 (how to use the course): ``01`` … ``08``."""
    return tuple(name for name in lesson_names() if name.isdigit() and name != "00")


def _lesson_items() -> tuple[Item, ...]:
    """Every lesson self-check question (lessons 01–08) as an item."""
    return tuple(i for name in course_lessons() for i in _set_items(name))


def items_for(keys: Iterable[str], seed: Any, attempt: int) -> list[Item] | None:
    """The items named by ``keys`` (:attr:`Item.key`, in that order) among this seed's and
    attempt's bank and the lessons' questions: how an attempt begun earlier is shown again.
    None when one of them is no longer there (the kit's questions changed since)."""
    known = {i.key: i for i in (*bank(seed, attempt), *_lesson_items())}
    found = [known.get(key) for key in keys]
    return None if any(i is None for i in found) else [i for i in found if i is not None]


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
    """The test for this record, seed and attempt: see the module docstring. One item for each
    lesson of :func:`course_lessons` (in a seeded order; all of them when ``n`` ≥ 8), then
    :data:`EXTRA`, then any bank items; within each choice items on cells the learner has not
    met come first; no rule cell is asked twice."""
    met, answered, last = seen(record)
    rng = random.Random(f"final:{seed}:{attempt}")
    made = [i for i in bank(seed, attempt) if i.id not in last]
    questions = [i for i in _lesson_items() if i.id not in last]

    def ordered(pool: Iterable[Item]) -> list[Item]:
        out = list(pool)
        rng.shuffle(out)
        out.sort(key=lambda i: bool(i.cells & met))  # fresh first (a stable sort keeps the shuffle)
        return out

    chosen: list[Item] = []
    used: set[str] = set()

    def take(pool: Iterable[Item], count: int) -> int:
        taken = 0
        for item in pool:
            if taken >= count or len(chosen) >= n:
                break
            if item.cells & used or any(c.id == item.id or c.question.id == item.question.id for c in chosen):
                continue
            chosen.append(item)
            used.update(item.cells)
            taken += 1
        return taken

    for name in sorted(course_lessons(), key=lambda _n: rng.random()):  # one item a lesson
        fresh = [i for i in questions if i.lesson == name and (name, i.id) not in answered]
        if not take(ordered(fresh + [i for i in made if i.lesson == name]), 1):
            take(ordered(i for i in questions if i.lesson == name), 1)  # only answered ones left
    for kind, count in EXTRA.items():
        take(ordered(i for i in made if i.kind == kind), count)
    take(ordered(made), n)  # a test longer than 12
    rng.shuffle(chosen)
    return chosen
