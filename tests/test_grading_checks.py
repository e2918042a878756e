"""Comparing plain answers with the engine's answers, and the messages learners read."""

from __future__ import annotations

import math
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit.grading.judge.checks import (
    Exercise,
    Question,
    SpecError,
    coerce,
    correct_option,
    decode_money,
    grade_question,
)
from baccarat_kit.grading.judge.keys import expected
from baccarat_kit.grading.term.authoring import read_source

ROOT = Path(__file__).resolve().parents[1]


def exercise(name: str) -> Exercise:
    path = ROOT / "exercises" / "source" / f"{name}.ipynb"
    return Exercise.from_metadata(read_source(path)["metadata"]["baccarat_kit"], str(path))


def test_value_question_compares_exact_types() -> None:
    q = exercise("03-banker-rule").question("q1")
    want = bk.banker_draws(3, 8)
    assert grade_question(q, {"status": "ok", "value": want}, None).score == 1
    assert grade_question(q, {"status": "ok", "value": int(want)}, None).score == 0  # 0/1 is not a bool
    assert grade_question(q, {"status": "ok", "value": not want}, None).score == 0
    r = grade_question(q, {"status": "bad-type", "type": "AlwaysEqual"}, None)
    assert r.score == 0 and "AlwaysEqual" in r.message("en")
    assert "case_a" in grade_question(q, {"status": "missing"}, None).message("zh")


def test_money_answers() -> None:
    assert decode_money("1,234.50") == Decimal("1234.50")
    assert decode_money({"$decimal": "95.00"}) == decode_money(95)
    for bad in (95.0, "95 dollars", "NaN", True, {"$decimal": "1e999999"}):
        with pytest.raises(Exception):  # noqa: B017 - the private _Bad
            decode_money(bad)


def test_winner_aliases() -> None:
    assert coerce("list[winner]", ["閒", "Banker", " tie "]) == ["player", "banker", "tie"]


def test_function_question_reports_a_wrong_input_and_delegation() -> None:
    q = exercise("03-banker-rule").question("q5")
    inputs = q.inputs()
    right = [bk.banker_draws(t, v) for t, v in inputs]
    ok = {"status": "ok", "results": right, "tripped": 0, "kit_function": False}
    assert grade_question(q, ok, None, static_ownwork=(True, "")).score == 4
    public_only = grade_question(q, ok, None, hidden=False)
    assert all(not c.hidden for c in public_only.checks)
    wrong = list(right)
    i = inputs.index([7, None])
    wrong[i] = not wrong[i]
    r = grade_question(q, {**ok, "results": wrong}, None, static_ownwork=(True, ""))
    # 87 of 88 cells right: 4 × 87/88, rounded down to a hundredth of a point
    assert r.score == math.floor(Fraction(87, 88) * 4 * 100) / 100 and "banker_draws(7, None)" in r.message("en")
    assert grade_question(q, {**ok, "results": wrong}, None, hidden=False).score == 4  # public inputs only
    # issue 30: no score comes from reading code (the grading run has no kit code to call)
    assert grade_question(q, ok, None, static_ownwork=(False, ".banker_draws")).score == 4
    r = grade_question(q, {**ok, "kit_function": True}, None)
    assert r.score == 0 and "kit's own rule function" in r.message("en")


def test_choice_feedback_names_the_misconception() -> None:
    ex = exercise("06-misconceptions")
    for q in ex.questions:
        right = correct_option(q, "")
        assert "misconception" not in q.options[right], q.id
        wrong = [k for k in q.options if k != right]
        assert wrong and all("misconception" in q.options[k] for k in wrong), q.id
        letter = {key: shown for shown, key in q.shown_options(None).items()}
        assert grade_question(q, {"status": "ok", "value": letter[right].upper()}, None).score == 1
        for k in wrong:
            m = bk.misconceptions.get(q.options[k]["misconception"])
            r = grade_question(q, {"status": "ok", "value": letter[k]}, None)
            assert r.score == 0
            assert m.claim("zh") in r.message("zh") and m.id in r.message("en")
            assert m.correction("en") in r.message("en")
        assert "not an option" in grade_question(q, {"status": "ok", "value": "z"}, None).message("en")


def test_variant_questions_need_a_learner_id() -> None:
    q = exercise("04-whole-coups").question("q1")
    r = grade_question(q, {"status": "ok", "value": [0] * 5}, None)
    assert r.score == 0 and "LEARNER_ID" in r.message("en")


def test_bad_specs_say_where() -> None:
    with pytest.raises(SpecError) as err:
        Question.from_dict({"id": "q9", "kind": "essay", "answer": "x", "key": {"fn": "fixed"}}, "nb.ipynb")
    assert "nb.ipynb, q9" in err.value.message("en") and "value, function, choice" in err.value.message("en")
    with pytest.raises(SpecError):
        Question.from_dict({"id": "q9", "kind": "value", "answer": "x", "type": "int",
                            "key": {"fn": "no-such-key"}}, "nb")


def value_question(qtype: str, key: dict[str, object], **extra: object) -> Question:
    return Question.from_dict({"id": "q1", "kind": "value", "answer": "x", "type": qtype, "points": 2,
                               "key": key, "public": ["type", "equals"], **extra}, "test")


def ok(value: object) -> dict[str, object]:
    return {"status": "ok", "value": value}


def test_numbers_are_read_the_natural_way_at_the_questions_precision() -> None:
    total = value_question("int", {"fn": "hand_total", "args": ["7 8"]})
    for answer in (5, {"$float": "5.0"}, "5", " 5 ", {"$decimal": "5.00"}):
        assert grade_question(total, ok(answer), None).score == 2, answer
    for answer in (True, {"$float": "5.5"}, "five", [5]):
        r = grade_question(total, ok(answer), None)
        assert (r.score == 0 and "a whole number, e.g. 5" in r.message("en")) or "is not right" in r.message("en")
    money = value_question("money", {"fn": "settle", "args": ["2 4 4 5", {"banker": 105}, "commission", "winnings"]})
    assert bk.settle(bk.play("2 4 4 5"), {"banker": 105}).winnings == Decimal("99.75")
    for answer in ({"$float": repr(105 * 0.95)}, "99.75", 99.75 and {"$float": "99.75"}, {"$decimal": "99.750"},
                   "99.75元", "$99.75"):
        assert grade_question(money, ok(answer), None).score == 2, answer
    assert grade_question(money, ok({"$float": "99.7"}), None).score == 0
    assert decode_money({"$float": "0.30000000000000004"}) == Decimal("0.30")
    # a digit past the cent that she gave is hers, not a float's noise: 99.749 is not 99.75
    for answer in ("99.749", {"$decimal": "99.751"}, {"$float": "99.749"}, {"$float": "99.7500001"}):
        assert grade_question(money, ok(answer), None).score == 0, answer


def test_a_type_message_says_what_to_type_in_plain_words() -> None:
    q = exercise("03-banker-rule").question("q1")
    r = grade_question(q, ok("True"), None)
    assert "True (yes) or False (no), without quotes" in r.message("en")
    assert "True（是）或 False（否）" in r.message("zh")


def test_a_wrong_value_that_a_misconception_gives_is_named() -> None:
    q = exercise("03-banker-rule").question("q1")  # banker 3 vs a third card 8
    r = grade_question(q, ok(True), None)
    assert r.score == 0 and r.misconception == "banker-3-always"
    assert bk.misconceptions.get("banker-3-always").correction("en") in r.message("en")
    assert r.to_json()["misconception"] == "banker-3-always"
    q = exercise("02-naturals-player").question("q7")  # BCR-005's variant: a drawn 9 is no natural
    r = grade_question(q, ok("閒"), None)
    assert r.misconception == "three-card-natural" and "natural" in r.message("en")
    assert grade_question(q, ok("和"), None).score == 1
    # a wrong value no misconception gives: just "not right"
    q = exercise("01-card-values").question("q2")
    r = grade_question(q, ok(4), None)
    assert r.misconception is None and "is not right (your answer: 4)" in r.message("en")


def test_lists_score_per_item_where_the_question_says_so() -> None:
    q = exercise("04-whole-coups").question("q1")
    want = [bk.play(h).player_total for h in bk.grading.hands_for("04-whole-coups", "s1")]
    assert grade_question(q, ok(want), "s1").score == 2
    four = [*want[:4], (want[4] + 1) % 10]
    assert grade_question(q, ok(four), "s1").score == 1.6  # 4 of 5 items, 2 points
    assert grade_question(q, ok(four), "s1", hidden=False).score == 2  # public: first item only


def test_function_partial_credit_is_the_share_of_cells_right() -> None:
    q = exercise("01-card-values").question("q5")  # 3 points, 1,100 inputs
    inputs = q.inputs()
    right = [expected(q.key, "", i) for i in inputs]
    two_cards_only = [r if len(i[0]) == 2 else 0 for r, i in zip(right, inputs, strict=True)]
    answer = {"status": "ok", "results": two_cards_only, "tripped": 0, "kit_function": False}
    r = grade_question(q, answer, None)
    share = Fraction(sum(a == b for a, b in zip(two_cards_only, right, strict=True)), len(right))
    assert r.score == math.floor(share * 3 * 100) / 100 and 0 < r.score < 3
    assert "gives" in r.message("en") and "baccarat_total([" in r.message("en")
    # a question's own ``steps`` still rounds coarser: down to 1/steps of the points
    coarse = Question.from_dict({**_function_spec(q), "steps": 6})
    assert grade_question(coarse, answer, None).score == math.floor(share * 6) / 2


def test_keys_and_misconceptions_are_checked_when_the_exercise_is_read() -> None:
    with pytest.raises(SpecError) as err:
        Question.from_dict({"id": "q4", "kind": "value", "answer": "w", "type": "winner",
                            "key": {"fn": "coup", "args": ["4 4 4 5", "winer"]}, "public": ["equals"]}, "02.ipynb")
    text = err.value.message("en")
    assert "02.ipynb, q4, key" in text and "'winer'" in text and "winner" in text
    with pytest.raises(SpecError) as err:
        value_question("int", {"fn": "hand_total", "args": ["7 8"]}, misconceptions=["no-such-mistake"])
    assert "no-such-mistake" in err.value.message("en")


def _function_spec(q: Question) -> dict:
    return {"id": q.id, "kind": q.kind, "answer": q.answer, "type": q.type, "points": q.points, "key": q.key,
            "domain": q.domain, "public": list(q.public), "hidden": list(q.hidden)}
