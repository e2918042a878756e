"""The misconceptions as data, and as mistaken rules the engine plays (never lists of answers)."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

import pytest

import baccarat_kit as bk
from baccarat_kit.grading.grade import load_exercises
from baccarat_kit.grading.judge.checks import grade_question
from baccarat_kit.grading.judge.keys import expected, mistaken_answers
from baccarat_kit.misconceptions import BELIEFS, all_misconceptions, mistaken_rules

ROOT = Path(__file__).resolve().parents[1]
IDS = [m.id for m in all_misconceptions()]


def test_every_misconception_is_a_mistaken_rule_or_a_belief_no_value_expresses() -> None:
    rules, beliefs = set(mistaken_rules()), set(BELIEFS)
    assert not rules & beliefs
    assert rules | beliefs == set(IDS)


@functools.cache
def _mistaken_cells(exercise: str, qid: str) -> tuple[tuple[Any, dict[str, Any]], ...]:
    """Per input of a function question: the engine's answer, and each mistake's where it differs."""
    q = load_exercises(ROOT / "exercises" / "source")[exercise].question(qid)
    return tuple((expected(q.key, "s1", list(args)), dict(mistaken_answers(q.key, "s1", list(args))))
                 for args in q.inputs())


def _as_function_answer(exercise: str, qid: str, mid: str) -> dict[str, Any] | None:
    """A learner's function that is exactly the mistaken rule ``mid`` on the question's domain
    (the engine's answer on every input, the mistake's where the mistake differs); None when
    the mistake differs nowhere there."""
    cells = _mistaken_cells(exercise, qid)
    if not any(mid in mistaken for _, mistaken in cells):
        return None
    return {"status": "ok", "results": [mistaken.get(mid, want) for want, mistaken in cells],
            "tripped": 0, "kit_function": False}


@pytest.mark.parametrize("mid", sorted(mistaken_rules()))
def test_every_mistaken_rule_is_examined_by_a_value_or_a_function_question(mid: str) -> None:
    """Some value question of the shipped exercises has a wrong answer that this mistake gives
    (played through the engine), and grading that answer names the misconception; or some
    function question, answered by a function that is exactly this mistake, names it."""
    found = []
    for ex in load_exercises(ROOT / "exercises" / "source").values():
        for q in ex.questions:
            if q.kind == "function":
                answer = _as_function_answer(ex.id, q.id, mid)
                if answer is not None and mid in grade_question(q, answer, "s1").misconceptions:
                    found.append(f"{ex.id}:{q.id}")
                continue
            if q.kind != "value":
                continue
            for got_mid, value in mistaken_answers(q.key, "s1"):
                if got_mid != mid:
                    continue
                answer = {"$decimal": str(value)} if q.type == "money" else value
                result = grade_question(q, {"status": "ok", "value": answer}, "s1")
                if result.misconception == mid:
                    found.append(f"{ex.id}:{q.id}")
    assert found, f"no value or function question examines {mid}"


def test_mistaken_rules_are_played_by_the_engine() -> None:
    rules = mistaken_rules()
    # BCR-007: banker 2 against a player third card 8 draws; the mistake stands on 2
    assert bk.play("A 10 3 2 8 5").banker_total == 7
    assert bk.play("A 10 3 2 8 5", rules=rules["eight-stops-low-banker"].rules).banker_total == 2
    # BCR-008's two naturals: banker 9 wins; the mistake calls it a tie
    assert bk.play("4 4 4 5", rules=rules["naturals-tie"].rules).winner == "tie"
    # a payout mistake changes one field of the pay table, the settlement is the engine's
    coup = bk.play("2 4 4 5")
    assert bk.settle(coup, {"banker": 100}, rules["banker-pays-even"].pay_table("commission")).returned == 200
    assert bk.play("2 3 3 4 4", rules=bk.coup.Rules()).steps == bk.play("2 3 3 4 4").steps


def test_a_misconception_id_is_unique_and_bilingual() -> None:
    assert len(IDS) == len(set(IDS))
    for m in all_misconceptions():
        assert m.claim("zh") and m.claim("en") and m.correction("zh") and m.correction("en")


def test_a_pattern_the_kit_names_is_a_mistaken_rule_with_a_sources_correction() -> None:
    """Issue 31's new misconceptions (a function's wrong pattern) say that their claim is the
    kit's; each is played by the engine, and its correction names its source and quotes it (the
    quote is checked against the source pages in tests/test_widgets.py)."""
    import tomllib

    data = {m["id"]: m for m in tomllib.loads(
        (ROOT / "baccarat_kit" / "data" / "misconceptions.toml").read_text(encoding="utf-8"))["misconception"]}
    kit = [m for m in all_misconceptions() if m.kit_claim]
    assert {m.id for m in kit} == {"player-5-stands", "player-6-draws", "total-minus-ten-once"}
    for m in kit:
        assert m.id in mistaken_rules() and data[m.id].get("quote"), m.id
        for source in m.source.split(", "):
            assert source in m.correction("zh") and source in m.correction("en"), (m.id, source)
    # the sources' own list comes first: a lesson listing "the misconceptions the sources name" skips these
    ids = [m.id for m in all_misconceptions()]
    assert ids[-len(kit):] == [m.id for m in kit]
