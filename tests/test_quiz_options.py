"""Every option of the lessons' question sets (data/quizzes.toml) is tagged or explained.

The schema: each option carries ``misconception = "<id>"`` or ``why = {zh, en}`` (or both); the
generated banker/player options get the engine's rule reason. A tag that names a mistaken rule
is played through the engine: the tagged option is the answer that mistake gives."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

import pytest

import baccarat_kit as bk
from baccarat_kit.coup import Rules
from baccarat_kit.i18n import LANGUAGES
from baccarat_kit.misconceptions import mistaken_rules
from baccarat_kit.widgets import question_sets as qs
from baccarat_kit.widgets._common import WidgetError

QUESTIONS = [(name, q) for name in qs.lesson_names() for q in qs.lesson_tables(name)]
IDS = [f"{name}-{q['id']}" for name, q in QUESTIONS]


@pytest.mark.parametrize(("name", "q"), QUESTIONS, ids=IDS)
def test_no_option_goes_without_a_why_or_a_misconception(name: str, q: dict) -> None:
    built = qs.build_question(q)
    whys = qs.option_whys(q)
    assert len(whys) == len(built.options)
    for n, (option, why) in enumerate(zip(built.options, whys, strict=True)):
        assert option.misconception or why, f"{name}/{q['id']} option {n + 1}"
        if why is not None:
            assert all(why[k].strip() for k in LANGUAGES), f"{name}/{q['id']} option {n + 1}"
    # the right option is explained too, so it does not stand out by carrying nothing
    assert whys[built.answer] is not None, f"{name}/{q['id']}: the right option has no why"


def test_an_option_with_neither_is_refused_naming_the_question() -> None:
    q = {"id": "bare", "kind": "total", "cards": "A 9",
         "prompt": {"zh": "A 配 9？", "en": "A and 9?"},
         "options": [{"value": 0, "why": {"zh": "1 + 9 = 10", "en": "1 + 9 = 10"}}, {"value": 1}]}
    with pytest.raises(WidgetError) as err:
        qs.build_question(q)
    assert "bare" in err.value.message("en") and "option 2" in err.value.message("en")
    with pytest.raises(WidgetError):
        qs.option_whys(q)
    q["options"][1]["why"] = "not both languages"
    with pytest.raises(WidgetError) as err:
        qs.build_question(q)
    assert "options[1].why" in err.value.message("en")


def _combined(a: Any, b: Any) -> Any:
    """The mistaken rules ``a`` with the fields ``b`` changes from the standard rules."""
    standard = Rules()
    changes = {f.name: getattr(b, f.name) for f in dataclasses.fields(Rules)
               if f.name != "name" and getattr(b, f.name) is not getattr(standard, f.name)
               and getattr(b, f.name) != getattr(standard, f.name)}
    return dataclasses.replace(a, **changes)


def _mistaken_values(kind: str, q: dict, mid: str) -> list[Any]:
    """What the mistake ``mid`` answers to ``q`` (alone, or together with one other mistaken
    rule: a K counted as 10 only shows in a total whose tens are kept)."""
    rules = mistaken_rules()
    m = rules[mid]
    variants = [m.rules] if m.rules is not None else [None]
    if m.rules is not None:
        variants += [_combined(m.rules, other.rules) for other in rules.values()
                     if other.rules is not None and other.id != mid]
    out = []
    for r in variants:
        try:
            out.append(_answer(kind, q, r, m))
        except bk.BaccaratError:  # a combination the engine cannot play (a third card worth 11)
            continue
    return out


def _answer(kind: str, q: dict, r: Any, m: Any) -> Any:
    """The answer to ``q`` when the engine plays the rules ``r`` (None: standard) and ``m``'s
    pay table."""
    if kind == "total":
        return (r or Rules()).hand_total(q["cards"])
    if kind == "value":
        return (r or Rules()).value(bk.parse_card(q["card"]))
    coup = bk.play(q["cards"], rules=r) if r is not None else bk.play(q["cards"])
    if kind == "winner":
        return coup.winner
    if kind == "drew":
        return getattr(coup, f"{q['who']}_third") is not None
    return bk.settle(coup, dict(q["bets"]), m.pay_table(q.get("table", "commission"))).net


TAGGED = [(name, q, o) for name, q in QUESTIONS for o in q.get("options", [])
          if o.get("misconception") in mistaken_rules() and "value" in o
          and q["kind"] in ("total", "value", "winner", "drew", "net")]
# (a "natural" question is left out: the engine plays three-card-natural as the banker's step it
# changes, so the coup's `natural` flag stays the standard one)


@pytest.mark.parametrize(("name", "q", "option"), TAGGED,
                         ids=[f"{n}-{q['id']}-{o['misconception']}" for n, q, o in TAGGED])
def test_a_mistaken_rule_tag_is_the_answer_that_mistake_gives(name: str, q: dict, option: dict) -> None:
    got = _mistaken_values(q["kind"], q, option["misconception"])

    def same(a: Any, b: Any) -> bool:
        if isinstance(a, Decimal) or isinstance(b, Decimal):
            return Decimal(str(a)) == Decimal(str(b))
        return type(a) is type(b) and a == b

    assert any(same(option["value"], g) for g in got), (
        f"{name}/{q['id']}: option {option['value']!r} is tagged {option['misconception']}, "
        f"but that mistake answers {got}")


def test_the_fixed_tag_would_be_caught() -> None:
    """Issue 23: a banker 7 'draws' was tagged final-total-as-third, which cannot produce it."""
    q = {"kind": "drew", "who": "banker", "cards": "3 4 2 3 6"}
    assert True not in _mistaken_values("drew", q, "final-total-as-third")
    assert not [o for name, q2 in QUESTIONS if q2["id"] == "coup-3-4-2-3-6-banker"
                for o in q2["options"] if o.get("misconception") == "final-total-as-third"]


def test_the_issue_23_misconceptions_are_asked_and_named() -> None:
    wanted = {"names-predict-streaks", "screen-order-decides", "must-memorise-table",
              "variant-assumed-standard", "total-keeps-tens", "banker-pays-even"}
    tagged = {o.misconception for _, q in QUESTIONS for o in qs.build_question(q).options}
    assert wanted <= tagged, wanted - tagged


def test_a_coup_the_sources_do_not_give_is_labelled_in_both_languages() -> None:
    pairs = [(q, qs.build_question(q)) for _, q in QUESTIONS if q["kind"] in qs.COUP_KINDS]
    assert pairs
    label = {k: bk.i18n.message("widgets.quiz.made-up", k).strip() for k in LANGUAGES}
    for q, built in pairs:
        for k in LANGUAGES:
            assert (label[k] in built.prompt[k]) == qs.made_up(q["cards"]), (q["id"], k)
    assert not qs.made_up("2 3 3 4 4") and not qs.made_up("4 4 4 5")  # BCR-001, BCR-008
    assert qs.made_up("4 4 3 3") and qs.made_up("2 3 3 3 K")
