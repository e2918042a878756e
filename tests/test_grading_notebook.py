"""check("qN") in a notebook: public checks only, never "all passed"."""

from __future__ import annotations

from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit.grading import Checker, LearnerIdMissing, hands_for

ROOT = Path(__file__).resolve().parents[1]
LEARNER = ROOT / "exercises"


def test_check_tells_correct_from_partly_checked_from_format_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """"checked: correct" only when the whole value was checked and nothing is hidden; a value
    checked only for its form never gets a ✔ (06's choices, 02's hidden totals)."""
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    check = Checker("03-banker-rule", lang="zh", folder=LEARNER)
    report = check("q1", namespace={"case_a": bk.banker_draws(3, 8)})
    assert report.passed and repr(report) == "✔ q1：已檢查：正確。"
    en = check("q1", lang="en", namespace={"case_a": bk.banker_draws(3, 8)})
    assert repr(en) == "✔ q1: checked: correct."
    draws = check("q5", lang="en", namespace={"banker_draws": lambda t, v: t <= 2 or (t, v) in (
        (4, 3), (6, 7))})
    assert draws.passed and "public checks passed" in repr(draws) and "Hidden checks" in repr(draws)
    wrong_total = Checker("02-naturals-player", lang="en", folder=LEARNER)(
        "q6", namespace={"bcr006_banker_total": 5})
    assert wrong_total.passed and "✔" not in repr(wrong_total) and "format fine" in repr(wrong_total)
    six = Checker("06-misconceptions", lang="en", folder=LEARNER)
    for letter in "ab":
        r = six("q1", namespace={"q1": letter, "LEARNER_ID": "s1"})
        assert "✔" not in repr(r) and "graded after you hand in" in repr(r)


def test_choice_options_are_in_each_learners_order(monkeypatch: pytest.MonkeyPatch) -> None:
    six = Checker("06-misconceptions", lang="en", folder=LEARNER)
    orders = {repr(six.options("q1", namespace={"LEARNER_ID": f"s{i}"})) for i in range(12)}
    assert len(orders) == 2  # both orders occur among twelve learners
    assert "LEARNER_ID" in repr(six.options("q1", namespace={"LEARNER_ID": ""}))
    for i in range(12):
        ns = {"LEARNER_ID": f"s{i}"}
        letter = six.letter("q1", bk.banker_draws(3, 8), namespace=ns)
        shown = repr(six.options("q1", namespace=ns))
        assert f'"{letter}": the banker stands' in shown


def test_public_checks_of_a_function_use_the_sources_cases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    check = Checker("03-banker-rule", lang="en", folder=LEARNER)

    def always(total: int, third: int | None) -> bool:
        return True

    report = check("q5", namespace={"banker_draws": always})
    assert not report.passed and "banker_draws(" in repr(report)
    delegating = check("q5", namespace={"banker_draws": lambda t, v: bk.banker_draws(t, v)})
    assert not delegating.passed and "kit" in repr(delegating)
    assert bk.banker_draws(3, 9)  # tripwires removed again


def test_learner_copy_has_no_hidden_checks_to_run(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    report = Checker("03-banker-rule", folder=LEARNER)("q5", namespace={
        "banker_draws": lambda t, v: bk.banker_draws(t, v)})
    assert report.result is not None and all(not c.hidden for c in report.result.checks)


def test_unknown_question_and_grading_mode(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    assert "q1, q2" in repr(Checker("03-banker-rule", lang="en", folder=LEARNER)("q99", namespace={}))
    assert "Cannot find" in repr(Checker("03-banker-rule", lang="en", folder=tmp_path)("q1", namespace={}))
    monkeypatch.setenv("BACCARAT_KIT_GRADING", "1")
    assert not Checker("03-banker-rule", folder=LEARNER)("q1", namespace={"case_a": True}).passed


def test_hands_need_a_learner_id() -> None:
    with pytest.raises(LearnerIdMissing) as err:
        hands_for("04-whole-coups", "")
    assert "LEARNER_ID" in err.value.message("en")
    assert len(hands_for("04-whole-coups", "s1")) == 5
