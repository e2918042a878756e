"""Named question sets of the lessons (``baccarat_kit/data/quizzes.toml``).

A lesson shows ``bk.widgets.Quiz.lesson("04")``: the question set is data, and no answer is
written in it. Each question names a *kind* and the facts it asks about (cards, a banker
total and a third-card value, a bet …); when the quiz is built the engine computes the
answer, and the option whose ``value`` equals it is marked right. A question whose value
does not match exactly one option is an error naming the question.

=================  ===============================================  ====================
kind               what the engine computes                          option values
=================  ===============================================  ====================
``banker``         ``bk.banker_draws(total, third)`` (third or       generated: draws /
                   ``"stood"``)                                      stands
``player``         ``bk.player_draws(total)``                        generated
``total``          ``bk.hand_total(cards)``                          integers
``value``          ``bk.parse_card(card).value``                     integers
``natural``        ``bk.play(cards).natural``                        ``true`` / ``false``
``winner``         ``bk.play(cards).winner``                         player/banker/tie
``drew``           whether ``who`` draws in ``bk.play(cards)``       ``true`` / ``false``
``net``            ``bk.settle(bk.play(cards), bets, table)`` net    numbers (text)
``lowest-edge``    the main bet with the lowest house edge of        banker/player/tie
                   ``bk.exact_odds(decks)``
``any-positive``   whether any bet of ``bk.exact_odds(decks)`` has   ``true`` / ``false``
                   a positive expectation
``fact``           nothing: a definition the sources give; the       ``correct = true``
                   option marked ``correct`` is right
=================  ===============================================  ====================

Every option carries a ``misconception`` id or a ``why`` (``{zh, en}``: the rule step that
disagrees, or why the right option is right), or both; :func:`option_whys` gives each option's
why (for the generated ``banker``/``player`` options, the engine's rule reason), and an option
with neither is an error naming the question. A coup whose cards are no source's case gets the
label "a teaching coup made up by this kit" in its prompt (:func:`made_up`).

>>> [q.id for q in lesson_questions("04")][:2]
['banker-5-vs-8', 'banker-6-vs-4']
>>> made_up("2 3 3 4 4"), made_up("4 4 3 3")
(False, True)
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any

from ..cards import parse_card
from ..coup import play
from ..i18n import LANGUAGES, both
from ..rules import hand_total
from ._common import WidgetError
from .questions import Option, Question, banker_misconception, banker_questions, player_questions

DATA = Path(__file__).resolve().parent.parent / "data" / "quizzes.toml"

KINDS = ("banker", "player", "total", "value", "natural", "winner", "drew", "net",
         "lowest-edge", "any-positive", "fact")
COUP_KINDS = ("natural", "winner", "drew", "net")
"""Kinds whose ``cards`` are a whole coup in deal order (labelled when no source gives it)."""


@cache
def _data() -> dict[str, Any]:
    return tomllib.loads(DATA.read_text(encoding="utf-8"))


def lesson_names() -> tuple[str, ...]:
    """The names of the question sets (``"00"`` … ``"08"``, ``"trainer"``)."""
    return tuple(_data()["quiz"])


def _texts(value: Any, qid: str, name: str, params: Mapping[str, Any]) -> dict[str, str]:
    if not isinstance(value, Mapping) or any(not isinstance(value.get(k), str) for k in LANGUAGES):
        raise WidgetError("widgets.quiz.bad-field", id=qid, field=name,
                          expected='{zh = "…", en = "…"}')
    return {k: str(value[k]).format(**params) for k in LANGUAGES}


@cache
def _source_deals() -> tuple[tuple[str, ...], ...]:
    from ..cases import load

    deals = []
    for case in load():
        for c in (case, *case.variants):
            if c.cards:
                deals.append(tuple(card.label for card in c.cards))
    return tuple(deals)


def made_up(cards: str) -> bool:
    """Whether the coup dealt from ``cards`` is the kit's own: no source case deals it (a
    case's cards, or the first cards of one, since the rules may leave the last unused)."""
    dealt = tuple(card.label for card in play(cards).cards)
    return not any(deal[:len(dealt)] == dealt or dealt[:len(deal)] == deal
                   for deal in _source_deals())


def _why(option: Mapping[str, Any], qid: str, index: int, params: Mapping[str, Any]) -> dict[str, str] | None:
    if "why" in option:
        return _texts(option["why"], qid, f"options[{index}].why", params)
    if not option.get("misconception"):
        raise WidgetError("widgets.quiz.no-why", id=qid, option=index + 1)
    return None


def option_whys(q: Mapping[str, Any]) -> tuple[dict[str, str] | None, ...]:
    """Each option's ``why`` for the question table ``q`` (None where the option carries only a
    misconception). The generated ``banker``/``player`` options both get the engine's rule
    reason. An option with neither a why nor a misconception is an error naming the question."""
    qid = str(q.get("id", "?"))
    if q.get("kind") in ("banker", "player"):
        made = build_question(q)
        return tuple(made.explain for _ in made.options)
    params = {k: v for k, v in q.items() if isinstance(v, str | int)}
    raw = q.get("options")
    if not isinstance(raw, list):
        raise WidgetError("widgets.quiz.bad-field", id=qid, field="options",
                          expected="[{value = …, misconception = …}, …]")
    return tuple(_why(o, qid, i, params) for i, o in enumerate(raw))


def _engine_value(kind: str, q: Mapping[str, Any]) -> Any:
    """The answer the engine gives to a question of ``kind``."""
    if kind == "total":
        return hand_total(q["cards"])
    if kind == "value":
        return parse_card(q["card"]).value
    if kind == "natural":
        return play(q["cards"]).natural
    if kind == "winner":
        return play(q["cards"]).winner
    if kind == "drew":
        coup = play(q["cards"])
        return getattr(coup, f"{q['who']}_third") is not None
    if kind == "net":
        from ..settlement import settle

        settled = settle(play(q["cards"]), dict(q["bets"]), table=q.get("table", "commission"))
        return settled.net
    if kind in ("lowest-edge", "any-positive"):
        from ..odds import exact_odds

        odds = exact_odds(int(q.get("decks", 8)))
        bets = list(q.get("bets", ("banker", "player", "tie")))
        if kind == "lowest-edge":
            return min(bets, key=lambda b: odds.house_edge(b))
        return any(odds.expected_value(b) > 0 for b in bets)
    raise AssertionError(kind)  # pragma: no cover - checked by the caller


def _same(a: Any, b: Any) -> bool:
    if isinstance(b, Decimal) or isinstance(a, Decimal):
        try:
            return Decimal(str(a)) == Decimal(str(b))
        except ArithmeticError:  # pragma: no cover - a non-number option
            return False
    return bool(type(a) is type(b) and a == b)


def _option_text(kind: str, value: Any) -> dict[str, str]:
    if isinstance(value, bool):
        if kind == "drew":
            return both("widgets.quiz.draw" if value else "widgets.quiz.stand")
        return both("widgets.quiz.yes" if value else "widgets.quiz.no")
    if kind in ("winner", "lowest-edge"):
        return both(f"who.{value}") if value in ("player", "banker", "tie") else {
            k: str(value) for k in LANGUAGES}
    return {k: str(value) for k in LANGUAGES}


def build_question(q: Mapping[str, Any]) -> Question:
    """One question from its table in ``quizzes.toml``, the answer computed by the engine."""
    qid = str(q.get("id", "?"))
    kind = q.get("kind")
    if kind not in KINDS:
        raise WidgetError("widgets.quiz.bad-kind", id=qid, value=kind, choices=", ".join(KINDS))
    params = {k: v for k, v in q.items() if isinstance(v, str | int)}
    if kind in ("banker", "player"):
        if kind == "banker":
            third = None if q["third"] == "stood" else int(q["third"])
            made = banker_questions([(int(q["total"]), third)])[0]
        else:
            made = player_questions([int(q["total"])])[0]
        options = made.options
        if "misconception" in q:  # the data may name a closer misconception for the wrong option
            options = tuple(o if i == made.answer else Option(o.text, q["misconception"])
                            for i, o in enumerate(options))
        whys = [o.get("why") if isinstance(o, Mapping) else None for o in q.get("options", [])]
        if any(whys):  # the data may say why, per option (in the engine's order: draw, stand)
            options = tuple(Option(o.text, o.misconception, _texts(whys[i], qid, "why", params))
                            if i < len(whys) and whys[i] else o for i, o in enumerate(options))
        prompt = _texts(q["prompt"], qid, "prompt", params) if "prompt" in q else made.prompt
        explain = made.explain
        if "explain" in q and explain is not None:
            extra = _texts(q["explain"], qid, "explain", params)
            explain = {k: f"{extra[k]} {explain[k]}" for k in LANGUAGES}
        # the data's own hint, else the engine's nudge toward the row (or rule) to look at
        return Question(qid, prompt, options, made.answer, explain, _hint(q, qid, params) or made.hint)

    raw = q.get("options")
    if not isinstance(raw, list) or not raw:
        raise WidgetError("widgets.quiz.bad-field", id=qid, field="options",
                          expected="[{value = …, misconception = …}, …]")
    if kind == "fact":
        matches = [i for i, o in enumerate(raw) if o.get("correct") is True]
        shown = "correct = true"
    else:
        value = _engine_value(kind, q)
        matches = [i for i, o in enumerate(raw) if _same(o.get("value"), value)]
        shown = str(value)
    if len(matches) != 1:
        raise WidgetError("widgets.quiz.no-match", id=qid, value=shown,
                          choices=", ".join(str(o.get("value", o.get("correct"))) for o in raw))
    for i, o in enumerate(raw):
        _why(o, qid, i, params)  # every option: a why, a misconception or both
    options = tuple(
        Option(_texts(o["text"], qid, "options", params) if "text" in o
               else _option_text(kind, o.get("value")), o.get("misconception"),
               _texts(o["why"], qid, "why", params) if "why" in o else None)
        for o in raw
    )
    explain = _texts(q["explain"], qid, "explain", params) if "explain" in q else None
    prompt = _texts(q.get("prompt"), qid, "prompt", params)
    if kind in COUP_KINDS and made_up(str(q["cards"])):
        label = both("widgets.quiz.made-up")
        prompt = {k: f"{prompt[k]}{label[k]}" for k in LANGUAGES}
    return Question(qid, prompt, options, matches[0], explain, _hint(q, qid, params))


def _hint(q: Mapping[str, Any], qid: str, params: Mapping[str, Any]) -> dict[str, str] | None:
    from .questions import hint_texts

    return hint_texts(_texts(q["hint"], qid, "hint", params), qid) if "hint" in q else None


UNCOVERED = "uncovered-banker-cells"
"""A set entry of this kind stands for the banker cells no case uses (:func:`uncovered_banker_cells`)."""
_THIRD_PREFERENCE = (8, 0, 9, None)  # turned by the banker total, so the columns vary


@cache
def uncovered_banker_cells() -> tuple[tuple[int, int | None], ...]:
    """One banker cell per banker total 0-7 that no case of :mod:`baccarat_kit.cases` uses, from
    the catalogue's coverage (and that no lesson's self-check asks): a cell next to where the row's decision changes if there is one,
    else the first of 8, 0 (10/J/Q/K), 9, "player stood" (turned by the total) that no case uses.
    A total whose every cell some case uses gives none.

    >>> uncovered_banker_cells()[:2]
    ((0, 8), (1, 0))
    """
    from ..cases import load
    from ..cases.coverage import coverage
    from ..rules import banker_draws, banker_rule

    asked = {banker_rule(int(q["total"]), None if q["third"] == "stood" else int(q["third"]))
             for qs in _data()["quiz"].values() for q in qs if q.get("kind") == "banker"}
    missing = set(coverage(load()).missing) - asked  # and not one a lesson's self-check asks
    cells: list[tuple[int, int | None]] = []
    for t in range(8):
        free = [v for v in range(10) if banker_rule(t, v) in missing]
        edge = [v for v in free if any(0 <= w <= 9 and banker_draws(t, w) != banker_draws(t, v)
                                       for w in (v - 1, v + 1))]
        turn = t % len(_THIRD_PREFERENCE)
        order = _THIRD_PREFERENCE[turn:] + _THIRD_PREFERENCE[:turn]
        rest = [v for v in order if (v is None and banker_rule(t, None) in missing) or v in free]
        pick = edge[:1] or rest[:1] or free[:1]
        if pick:
            cells.append((t, pick[0]))
    return tuple(cells)


def lesson_tables(name: str) -> tuple[dict[str, Any], ...]:
    """The question tables of the set ``name`` as :func:`build_question` takes them: the data's
    tables, with an ``uncovered-banker-cells`` entry replaced by one ``banker`` question per cell
    of :func:`uncovered_banker_cells` (its ``hint`` / ``hint_stood`` filled in per cell)."""
    sets = _data()["quiz"]
    if name not in sets:
        raise WidgetError("widgets.quiz.unknown-set", value=name, choices=", ".join(sets))
    out: list[dict[str, Any]] = []
    for q in sets[name]:
        if q.get("kind") != UNCOVERED:
            out.append(dict(q))
            continue
        for total, third in uncovered_banker_cells():
            cell = {"kind": "banker", "total": total, "third": "stood" if third is None else third}
            cell["id"] = f"banker-{total}-stood" if third is None else f"banker-{total}-vs-{third}"
            hint = q.get("hint_stood" if third is None else "hint")
            if hint is not None:
                cell["hint"] = hint
            out.append(cell)
    return tuple(out)


def lesson_questions(name: str) -> tuple[Question, ...]:
    """The questions of the set ``name``, answers computed now by the engine."""
    return tuple(build_question(q) for q in lesson_tables(name))


__all__ = [
    "COUP_KINDS",
    "DATA",
    "KINDS",
    "banker_misconception",
    "build_question",
    "lesson_names",
    "lesson_questions",
    "lesson_tables",
    "made_up",
    "option_whys",
    "uncovered_banker_cells",
]
