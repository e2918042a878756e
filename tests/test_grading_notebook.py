"""check("qN") in a notebook: public checks only, never "all passed"."""

from __future__ import annotations

from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit.grading import Checker, LearnerIdMissing, hands_for

ROOT = Path(__file__).resolve().parents[1]
LEARNER = ROOT / "exercises"


def test_public_checks_pass_and_say_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    check = Checker("03-banker-rule", lang="zh", folder=LEARNER)
    report = check("q1", namespace={"case_a": bk.banker_draws(3, 8)})
    assert report.passed
    assert "公開檢查通過" in repr(report) and "全部" not in repr(report)
    en = check("q1", lang="en", namespace={"case_a": bk.banker_draws(3, 8)})
    assert "public checks passed" in repr(en) and "all" not in repr(en).lower().replace("called", "")


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
