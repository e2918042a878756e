"""Comparing plain answers with the engine's answers, and the messages learners read."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit.grading.checks import (
    Exercise,
    Question,
    SpecError,
    coerce,
    correct_option,
    decode_money,
    grade_question,
)

ROOT = Path(__file__).resolve().parents[1]


def exercise(name: str) -> Exercise:
    path = ROOT / "exercises" / "source" / f"{name}.ipynb"
    return Exercise.from_metadata(json.loads(path.read_text(encoding="utf-8"))["metadata"]["baccarat_kit"], str(path))


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
    assert r.score == 3.5 and "banker_draws(7, None)" in r.message("en")  # 87 of 88: 3.5 of 4 (steps 8)
    assert grade_question(q, {**ok, "results": wrong}, None, hidden=False).score == 4  # public inputs only
    r = grade_question(q, {**ok, "tripped": 3}, None, static_ownwork=(True, ""))
    assert r.score == 0 and "kit" in r.message("en")
    r = grade_question(q, ok, None, static_ownwork=(False, ".banker_draws"))
    assert r.score == 0 and ".banker_draws" in r.message("zh")
    r = grade_question(q, {**ok, "kit_function": True}, None, static_ownwork=(True, ""))
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
