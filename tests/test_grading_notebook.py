"""check("qN") in a notebook: a class copy runs the public checks only, never "all passed";
a self-study copy (the course's own exercises/) runs every check the grader runs."""

from __future__ import annotations

from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit.grading import Checker, LearnerIdMissing, hands_for
from baccarat_kit.grading.term.authoring import read_source

ROOT = Path(__file__).resolve().parents[1]
SELF_STUDY = ROOT / "exercises"


@pytest.fixture(scope="module")
def class_copies(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The exercises released for a class (hidden checks removed), in a folder of this test's own."""
    from baccarat_kit.grading.term.release import release

    out = tmp_path_factory.mktemp("class")
    release(ROOT / "exercises" / "source", out, "zh", "class")
    return out


@pytest.fixture(autouse=True)
def _own_progress(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("BACCARAT_KIT_PROGRESS", str(tmp_path / "progress"))


def test_check_tells_correct_from_partly_checked_from_format_only(monkeypatch: pytest.MonkeyPatch, class_copies: Path) -> None:
    """"checked: correct" only when the whole value was checked and nothing is hidden; a value
    checked only for its form never gets a ✔ (06's choices, 02's hidden totals)."""
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    check = Checker("03-banker-rule", lang="zh", folder=class_copies)
    report = check("q1", namespace={"case_a": bk.banker_draws(3, 8)})
    assert report.passed and repr(report).startswith("✔ q1：已檢查：正確。")
    en = check("q1", lang="en", namespace={"case_a": bk.banker_draws(3, 8)})
    # a namespace handed in (no history of cells to run again) is not the grader's verdict, and says so
    assert repr(en).startswith("✔ q1: checked: correct.") and "not the grader's verdict" in repr(en)
    draws = check("q5", lang="en", namespace={"banker_draws": lambda t, v: t <= 2 or (t, v) in (
        (4, 3), (6, 7))})
    assert draws.passed and "public checks passed" in repr(draws) and "Hidden checks" in repr(draws)
    wrong_total = Checker("02-naturals-player", lang="en", folder=class_copies)(
        "q6", namespace={"bcr006_banker_total": 5})
    assert wrong_total.passed and "✔" not in repr(wrong_total) and "format fine" in repr(wrong_total)
    six = Checker("06-misconceptions", lang="en", folder=class_copies)
    for letter in "ab":
        r = six("q1", namespace={"q1": letter, "LEARNER_ID": "s1"})
        assert "✔" not in repr(r) and "graded after you hand in" in repr(r)


def test_choice_options_are_in_each_learners_order(monkeypatch: pytest.MonkeyPatch, class_copies: Path) -> None:
    six = Checker("06-misconceptions", lang="en", folder=class_copies)
    orders = {repr(six.options("q1", namespace={"LEARNER_ID": f"s{i}"})) for i in range(12)}
    assert len(orders) == 2  # both orders occur among twelve learners
    assert "LEARNER_ID" in repr(six.options("q1", namespace={"LEARNER_ID": ""}))
    for i in range(12):
        ns = {"LEARNER_ID": f"s{i}"}
        letter = six.letter("q1", bk.banker_draws(3, 8), namespace=ns)
        shown = repr(six.options("q1", namespace=ns))
        assert f'"{letter}": the banker stands' in shown


def test_public_checks_of_a_function_use_the_sources_cases(monkeypatch: pytest.MonkeyPatch, class_copies: Path) -> None:
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    check = Checker("03-banker-rule", lang="en", folder=class_copies)

    def always(total: int, third: int | None) -> bool:
        return True

    report = check("q5", namespace={"banker_draws": always})
    assert not report.passed and "banker_draws(" in repr(report)
    delegating = check("q5", namespace={"banker_draws": lambda t, v: bk.banker_draws(t, v)})
    # in her own kernel the kit is there: without cells to run again this is not the grader's word
    assert "not the grader's verdict" in repr(delegating)


def test_learner_copy_has_no_hidden_checks_to_run(monkeypatch: pytest.MonkeyPatch, class_copies: Path) -> None:
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    report = Checker("03-banker-rule", folder=class_copies)("q5", namespace={
        "banker_draws": lambda t, v: bk.banker_draws(t, v)})
    assert report.result is not None and all(not c.hidden for c in report.result.checks)


def test_unknown_question_and_grading_mode(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, class_copies: Path) -> None:
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    assert "q1, q2" in repr(Checker("03-banker-rule", lang="en", folder=class_copies)("q99", namespace={}))
    assert "Cannot find" in repr(Checker("03-banker-rule", lang="en", folder=tmp_path)("q1", namespace={}))
    monkeypatch.setenv("BACCARAT_KIT_GRADING", "1")
    assert not Checker("03-banker-rule", folder=class_copies)("q1", namespace={"case_a": True}).passed


def test_hands_need_a_learner_id() -> None:
    with pytest.raises(LearnerIdMissing) as err:
        hands_for("04-whole-coups", "")
    assert "LEARNER_ID" in err.value.message("en")
    assert len(hands_for("04-whole-coups", "s1")) == 5


def test_class_copy_says_so_and_keeps_hidden_checks_hidden(class_copies: Path) -> None:
    import json

    meta = json.loads((class_copies / "03-banker-rule.ipynb").read_text(encoding="utf-8"))["metadata"]
    assert meta["baccarat_kit"]["edition"] == "class"
    assert all("hidden" not in q for q in meta["baccarat_kit"]["questions"])


_ENGINE = {(t, v): bk.banker_draws(t, v) for t in range(8) for v in (*range(10), None)}
"""The engine's answers, asked once here (a learner's function may not call the kit)."""


def _wrong_at_5_7(total: int, third: int | None) -> bool:
    return not _ENGINE[(5, 7)] if (total, third) == (5, 7) else _ENGINE[(total, third)]


def test_self_study_check_gives_the_graders_verdict_hidden_checks_included(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 22: a banker_draws wrong only at (5, 7) passes the public inputs, yet the self-study
    check reports it wrong with the grader's own message and score, and records it."""
    import json

    from baccarat_kit.grading.judge.checks import Exercise, grade_question

    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    meta = json.loads((SELF_STUDY / "03-banker-rule.ipynb").read_text(encoding="utf-8"))["metadata"]
    assert meta["baccarat_kit"]["edition"] == "self-study"
    check = Checker("03-banker-rule", lang="en", folder=SELF_STUDY)
    report = check("q5", namespace={"banker_draws": _wrong_at_5_7})  # no LEARNER_ID at all
    assert not report.passed and report.result is not None
    assert "banker_draws(5, 7)" in repr(report) and "1 wrong result(s) out of 88" in repr(report)
    assert any(c.hidden for c in report.result.checks)
    # The grader on the instructor's source gives the same message and score.
    source = read_source(ROOT / "exercises/source/03-banker-rule.ipynb")
    q5 = Exercise.from_metadata(source["metadata"]["baccarat_kit"], "src").question("q5")
    inputs = q5.inputs()
    graded = grade_question(q5, {"status": "ok", "results": [_wrong_at_5_7(*i) for i in inputs],
                                 "tripped": 0, "kit_function": False}, "self-study")
    assert graded.message("en") in repr(report) and graded.score == report.result.score == 3.95  # 4 × 87/88, down
    # Value answers are checked, not only their form (q6, q7), with the misconception named.
    q6 = check("q6", namespace={"bcr006_variant_banker_total": 8})
    assert not q6.passed and "final-total-as-third" in repr(q6)
    right = bk.play("2 2 4 4 2").banker_total
    assert check("q6", namespace={"bcr006_variant_banker_total": right}).passed
    record = bk.progress.load()
    assert record["exercises"]["03-banker-rule"]["questions"]["q5"]["score"] == 3.95
    assert record["exercises"]["03-banker-rule"]["questions"]["q6"]["score"] == 1


def test_self_study_check_lists_every_wrong_cell(monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 31: the self-study check gives the full verdict: a total that keeps its tens (the
    mistaken rule's own total) is named, and every one of its wrong inputs is listed."""
    from baccarat_kit.misconceptions import mistaken_rules

    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    keeps = mistaken_rules()["total-keeps-tens"].rules.total
    report = Checker("01-card-values", lang="en", folder=SELF_STUDY)("q5", namespace={
        "baccarat_total": lambda values: keeps(list(values))})
    assert not report.passed and report.result is not None and report.result.wrong
    text = repr(report)
    assert "[total-keeps-tens]" in text and f"Every wrong input ({len(report.result.wrong)};" in text
    assert all(c.line("baccarat_total", "en") in text for c in report.result.wrong)


def test_class_check_says_how_many_public_inputs_are_wrong_and_lists_them(
        monkeypatch: pytest.MonkeyPatch, class_copies: Path) -> None:
    monkeypatch.delenv("BACCARAT_KIT_GRADING", raising=False)
    public = [(3, 8), (4, 3), (5, 3), (6, 7)]

    def flipped(total: int, third: int | None) -> bool:
        right = _ENGINE[(total, third)]
        return not right if (total, third) in public or (total, third) == (7, None) else right

    report = Checker("03-banker-rule", lang="en", folder=class_copies)("q5", namespace={"banker_draws": flipped})
    text = repr(report)
    assert not report.passed and "4 wrong result(s) on the 4 public inputs checked here" in text
    assert all(f"banker_draws({t}, {v})" in text for t, v in public) and "banker_draws(7, None)" not in text
    zh = repr(Checker("03-banker-rule", lang="zh", folder=class_copies)("q5", namespace={"banker_draws": flipped}))
    assert "4 個公開輸入中有 4 個結果不對" in zh and "banker_draws(7, None)" not in zh


def test_check_letter_used_wrongly_says_what_is_wrong_in_both_languages(tmp_path: Path, class_copies: Path) -> None:
    """check.letter("q1", True) outside an exercise notebook said "There is no question 'q1': use ?.";
    a meaning no option has said "There is no question 'banker'"; now each names what is wrong
    and what would do, Traditional Chinese then English."""
    from baccarat_kit.grading import ChoiceError

    ns = {"LEARNER_ID": "s1"}
    with pytest.raises(ChoiceError) as err:  # no exercise notebook in the folder
        Checker("06-misconceptions", folder=tmp_path).letter("q1", True, namespace=ns)
    text = str(err.value)
    assert text.index("找不到") < text.index("there is none in")  # zh first, then en, in full
    assert "06-misconceptions" in text and str(tmp_path) in text and 'q1 = "a"' in text
    six = Checker("06-misconceptions", folder=class_copies)
    with pytest.raises(ChoiceError) as err:  # an id that is not one of its choice questions
        six.letter("q9", True, namespace=ns)
    assert "no multiple-choice question 'q9'; its choice questions are q1, q2, q3, q4, q5, q6, q7" in str(err.value)
    assert "沒有選擇題「q9」" in err.value.message("zh")
    with pytest.raises(ChoiceError) as err:  # a meaning no option of q1 has: q1's meanings listed
        six.letter("q1", "banker", namespace=ns)
    en = err.value.message("en")
    assert "no option of q1 means 'banker'" in en and "True (the banker draws)" in en and "False (the banker stands)" in en
    assert "True (莊家補牌)" in err.value.message("zh")
    with pytest.raises(ChoiceError) as err:  # not a value an option can mean
        six.letter("q1", object(), namespace=ns)
    assert "not a value of type object" in str(err.value) and 'check.letter("q1", True)' in str(err.value)
    with pytest.raises(ChoiceError) as err:  # her order depends on her id: never another order's letter
        six.letter("q1", True, namespace={"LEARNER_ID": ""})
    assert "LEARNER_ID" in err.value.message("en")
    with pytest.raises(ChoiceError) as err:  # an exercise without choice questions
        Checker("03-banker-rule", folder=class_copies).letter("q1", True, namespace=ns)
    assert "exercise 03-banker-rule has none" in str(err.value)
    assert six.letter("q1", True, namespace=ns) in ("a", "b")  # used rightly: a letter
