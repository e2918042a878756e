"""Lesson 10's final test, the predict-first widget and lesson 00's course map (issue 22)."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

pytest.importorskip("ipywidgets")

import baccarat_kit as bk
from baccarat_kit.widgets import CourseMap, FinalTest, Predict, plain_text


def _answer_all(test: FinalTest, wrong_every: int = 2) -> None:
    for i, q in enumerate(test.questions):
        test.go(i)
        test.options.value = (q.answer + 1) % len(q.options) if i % wrong_every == 0 else q.answer
        test.check()


def test_final_test_is_fresh_per_learner_and_attempt_and_covers_the_course() -> None:
    a, b = FinalTest(lang="en", seed=1), FinalTest(lang="en", seed=2)
    assert [q.id for q in a.questions] != [q.id for q in b.questions]
    assert [q.id for q in a.questions] == [q.id for q in FinalTest(lang="en", seed=1).questions]
    assert [q.id for q in FinalTest(lang="en", seed=1, attempt=2).questions] != [q.id for q in a.questions]
    assert sorted(set(a.lessons)) == [f"0{n}" for n in range(1, 9)]  # lesson 10's promise
    assert {i.kind for i in a.items} >= {"cell", "coup", "settle"}  # plus cells of the banker matrix
    assert sum(i.kind == "cell" for i in a.items) >= 2


def _cells_of(items: list) -> list[str]:
    return [c for i in items for c in i.cells]


def test_final_test_over_200_seeds_never_asks_a_cell_twice_and_labels_the_kits_coups() -> None:
    """Issue 31: on main 20 of 200 seeds asked the same banker cell twice."""
    from baccarat_kit.widgets import final_bank

    boundary = {bk.rules.banker_rule(t, v) for t, v in final_bank.boundary_cells()}
    assert {"banker-3-vs-8", "banker-6-vs-6", "banker-6-vs-5", "banker-5-vs-4"} <= boundary
    assert len(boundary) < 88
    for seed in range(200):
        items = final_bank.draw({}, seed=seed, attempt=1)
        cells = _cells_of(items)
        assert len(items) == 12 and len({i.id for i in items}) == 12, seed
        assert len(cells) == len(set(cells)), (seed, sorted(cells))
        assert any(i.kind == "cell" and i.cells <= boundary for i in items)
        for item in items:
            q = item.question
            _check_made_item(item)
            if item.kind in ("coup", "settle"):
                cards = q.prompt["en"].split("Deal order ")[1].split(" (")[0]
                coup = bk.play(cards)
                assert "made up by this kit" in q.prompt["en"] and "本套件自編" in q.prompt["zh"]
                assert bk.widgets.question_sets.made_up(cards)  # no source gives these cards
                assert final_bank.coup_cells(coup) == item.cells
                if item.kind == "coup":
                    assert q.options[q.answer].text["en"].lower() == str(coup.winner)
                else:
                    area = item.id.split("-")[2]
                    net = bk.settle(coup, {area: 100}).net
                    assert Decimal(q.options[q.answer].text["en"]) == net
                    assert len({Decimal(o.text["en"]) for o in q.options}) == len(q.options)


def _check_made_item(item: object) -> None:
    """A lesson item the bank made from a dealt coup: its key is the engine's, asked anew here
    from the cards the prompt shows (never from the item's own code)."""
    kind, q = item.kind, item.question  # type: ignore[attr-defined]
    if kind not in ("total", "natural", "player-step", "banker-step"):
        return
    key = q.options[q.answer].text["en"]
    shown = q.id.split("-", 2)[2].split("-")
    if kind == "total":
        assert int(key) == bk.hand_total(" ".join(shown)) and " ".join(shown) in q.prompt["en"]
    elif kind in ("natural", "player-step", "banker-step"):
        assert "made up by this kit" in q.prompt["en"] and "本套件自編" in q.prompt["zh"]
        player, banker = bk.hand_total(f"{shown[0]} {shown[2]}"), bk.hand_total(f"{shown[1]} {shown[3]}")
        natural = bk.is_natural(player) or bk.is_natural(banker)
        if kind == "natural":
            assert key == ("yes" if natural else "no")
        elif kind == "player-step":
            assert not natural and key == ("draws" if bk.player_draws(player) else "stands")
        else:
            third = int(bk.parse_card(shown[4]).value) if len(shown) > 4 else None
            draws = not natural and bk.banker_draws(banker, third)
            assert key == ("draws" if draws else "stands"), q.id
            assert any(o.misconception for o in q.options)  # the mistake that gives the other answer


def _course_lessons_of(items: list) -> set[str]:
    return {i.lesson for i in items}


def test_every_drawn_test_has_an_item_from_each_lesson_over_many_seeds_and_records() -> None:
    """Issue 42: lesson 10 promises at least one final-test item from each lesson; 0 of 24 drawn
    tests covered lessons 01–08. Stratified: one item a lesson first, for a new learner, one who
    answered every self-check, one who drilled every cell, and a retake after each."""
    from baccarat_kit import drill
    from baccarat_kit.widgets import final_bank

    lessons = set(final_bank.course_lessons())
    assert lessons == {f"0{n}" for n in range(1, 9)}
    every_answer = {"quizzes": {}}
    for item in final_bank._lesson_items():
        every_answer["quizzes"].setdefault(item.lesson, {"answers": {}})["answers"][item.id] = {"answer": "0"}
    drilled = {"drill": {"cells": {c: {"seen": 1} for c in drill.MASTERY_CELLS}}}
    for record in ({}, every_answer, drilled):
        for seed in range(60):
            first = final_bank.draw(record, seed=seed, attempt=1)
            assert _course_lessons_of(first) == lessons, (seed, sorted(_course_lessons_of(first)))
            again = final_bank.draw({**record, "final": {"asked": [i.id for i in first]}}, seed=seed, attempt=2)
            assert _course_lessons_of(again) == lessons and not {i.id for i in first} & {i.id for i in again}
            for items in (first, again):
                cells = _cells_of(items)
                assert len(items) == 12 and len(cells) == len(set(cells)), seed
                assert sum(i.kind == "cell" for i in items) >= 2  # plus cells of the banker matrix
            if record is every_answer:  # nothing answered is asked again, but lesson 08's facts
                assert all(i.kind != "lesson" or i.lesson == "08" for i in first)


def test_final_test_skips_what_the_learner_has_seen() -> None:
    from baccarat_kit import drill
    from baccarat_kit.widgets import final_bank

    lesson_items = final_bank._lesson_items()
    answered = {"quizzes": {}}
    for item in lesson_items:  # every lesson self-check answered but lesson 08's
        if item.lesson != "08":
            answered["quizzes"].setdefault(item.lesson, {"answers": {}})["answers"][item.id] = {"answer": "0"}
    met, _pairs, _last = final_bank.seen(answered)
    for seed in range(60):
        items = final_bank.draw(answered, seed=seed, attempt=1)
        assert len(items) == 12
        for item in items:
            if item.kind == "lesson":  # never a question already answered, with its same options
                assert item.lesson == "08", item.id
            if item.kind == "cell":  # fresh cells first: the boundary has more than enough
                assert not item.cells & met, item.id
    first_trainer = final_bank._set_items("trainer")[0]  # the trainer's quiz counts too
    trainer = {"quizzes": {"trainer": {"answers": {first_trainer.id: {"answer": "0"}}}}}
    assert first_trainer.cells and first_trainer.cells <= final_bank.seen(trainer)[0]
    # a learner who has drilled every cell: the test is still 12 questions, its coups dealt anew
    record = {"drill": {"cells": {c: {"seen": 1} for c in drill.MASTERY_CELLS}}}
    items = final_bank.draw(record, seed=4, attempt=1)
    assert len(items) == 12 and {i.kind for i in items} >= {"coup", "settle"}
    # the next attempt does not repeat the last one's items
    first = final_bank.draw({}, seed=4, attempt=1)
    again = final_bank.draw({"final": {"asked": [i.id for i in first]}}, seed=4, attempt=1)
    assert not {i.id for i in first} & {i.id for i in again}


def test_final_test_scores_shows_misconceptions_links_back_and_saves(tmp_path: Path) -> None:
    test = FinalTest(lang="en", seed=3)
    _answer_all(test)
    result = test.result()
    assert result["total"] == 12 and result["right"] == 6 and len(result["missed"]) == 6
    summary = test.summary.value
    assert "Attempt 1: 6 of 12 right" in plain_text(test.summary)
    assert summary.count("<a href=") == 6 and ".ipynb" in summary
    # shown as an output (JupyterLab opens an output's links as lessons), the HTML widget hidden
    (shown,) = test.summary_view.outputs
    assert shown["data"]["text/html"] == summary and test.summary.layout.display == "none"
    assert "6 of 12 right" in shown["data"]["text/plain"]
    if any(m["misconception"] for m in result["missed"]):
        assert "→" in plain_text(test.summary)  # the misconception's claim → its correction
    page = test.save(tmp_path)
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>") and "6 of 12" in page.read_text(encoding="utf-8")
    record = bk.progress.load()
    assert record["final"]["right"] == 6 and record["final"]["attempt"] == 1
    assert record["final"]["asked"] == [i.id for i in test.items]
    assert FinalTest(lang="en").attempt == 2  # the next one is a fresh attempt
    test.go(test.missed()[0])  # a miss answered again after the end: the first answer stands
    test.options.value = test.question.answer
    assert test.check() is False and "cannot be changed" in plain_text(test.feedback)
    assert [(a["attempt"], a["right"]) for a in bk.progress.load()["final"]["attempts"]] == [(1, 6)]
    assert test.right == 6 and test.result()["right"] == 6
    rows = {r["id"]: r for r in bk.progress.course_map()}
    assert not rows["final"]["done"] and rows["final"]["right"] == 6  # 6 / 12 is below the pass mark
    assert "Not passed yet: the pass mark is 10 of 12" in plain_text(test.summary)


def _said(key: str, **params: object) -> str:
    import re

    return re.escape(bk.i18n.message(key, None, **params))


def test_a_failed_test_stays_failed_and_a_retake_is_a_new_draw() -> None:
    """Issue 42: 4 / 12, then "start again" and the same 12 answered from the feedback gave
    "12 / 12, passed", one attempt in the record and the map ticked. Now nothing clears or redoes
    a scored answer; a retake is a new draw with a new number; both attempts are kept."""
    from baccarat_kit.widgets._common import WidgetError

    test = FinalTest(lang="en")
    assert test.attempt == 1 and test.new_button.disabled
    with pytest.raises(WidgetError, match=_said("widgets.final.finish-first", attempt=1, left=12)):
        test.new_attempt()  # not before the attempt is complete
    wrong = set(range(8))
    for i, q in enumerate(test.questions):
        test.go(i)
        test.options.value = (q.answer + 1) % len(q.options) if i in wrong else q.answer
        test.check()
        assert test.options.disabled  # an answered question's options are locked
    assert test.right == 4 and not test.new_button.disabled
    for action in (test.reset, test.redo, lambda: test.preview(0, 0)):  # nothing of a quiz's retries
        with pytest.raises(WidgetError, match=_said("widgets.final.no-redo")):
            action()
    buttons = {b for b in (test.reset_button, test.redo_button, test.hint_button)}
    shown: list = []
    stack = [test]
    while stack:  # none of them in the widget a learner sees
        node = stack.pop()
        shown.append(node)
        stack.extend(getattr(node, "children", ()))
    assert not buttons & set(shown) and test.new_button in shown
    first_items = [i.id for i in test.items]
    record = bk.progress.load()
    assert [(a["attempt"], a["right"]) for a in record["final"]["attempts"]] == [(1, 4)]
    assert "open" not in record["final"]
    assert not {r["id"]: r for r in bk.progress.course_map()}["final"]["done"]

    test.new_button.click()  # the retake: a new number, new items, the failed attempt kept
    assert test.attempt == 2 and not test.first and test.index == 0 and test.summary.value == ""
    assert not set(first_items) & {i.id for i in test.items}
    assert sorted(set(test.lessons)) == [f"0{n}" for n in range(1, 9)]
    assert "attempt 1: 4 / 12 (not passed)" in plain_text(test.attempts_view)
    for i, q in enumerate(test.questions):
        test.go(i)
        test.options.value = q.answer
        test.check()
    record = bk.progress.load()
    assert [(a["attempt"], a["right"]) for a in record["final"]["attempts"]] == [(1, 4), (2, 12)]
    assert {r["id"]: r for r in bk.progress.course_map()}["final"]["done"]  # a completed pass ticks
    shown_attempts = plain_text(test.attempts_view)
    assert "attempt 1: 4 / 12 (not passed); attempt 2: 12 / 12 (passed)" in shown_attempts
    assert "attempt 1: 4 / 12" in test.page()
    assert "Final test: best 12 / 12, latest 12 / 12 (2 attempt(s)" in bk.progress.report("en")
    with pytest.raises(WidgetError, match=_said("widgets.final.attempt-done", attempt=1, next=3)):
        FinalTest(lang="en", attempt=1)  # a kept attempt is never taken again


def test_an_unfinished_attempt_comes_back_with_its_answers_after_the_cell_runs_again() -> None:
    """Running lesson 10's cell again (or a restart) in the middle of a test draws no new test:
    the same attempt, its first answers kept, so a miss cannot be answered again from its feedback."""
    test = FinalTest(lang="zh")
    for i in range(3):
        q = test.questions[i]
        test.go(i)
        test.options.value = (q.answer + 1) % len(q.options)
        test.check()
    again = FinalTest(lang="en")
    assert again.attempt == test.attempt == 1 and [i.key for i in again.items] == [i.key for i in test.items]
    assert again.first == test.first and again.index == 3 and not again.options.disabled
    assert "3 question(s) answered keep their first answers" in plain_text(again.attempts_view)
    again.go(0)
    assert again.options.disabled and again.options.value == test.first[0]
    again.options.value = again.questions[0].answer
    assert again.check() is False and again.first[0] == test.first[0]
    open_ = bk.progress.load()["final"]["open"]
    assert open_["attempt"] == 1 and len(open_["answers"]) == 3
    assert not bk.progress.course_map()[-1]["attempts"]  # nothing completed: nothing counted


def test_the_attempt_record_keeps_the_first_answer_and_the_first_completion() -> None:
    progress = bk.progress
    assert progress.record_final_answer(1, 0, ["a", "b"], "a", 2, False) == {"a": 2}
    assert progress.record_final_answer(1, 0, ["a", "b"], "a", 0, True) == {"a": 2}  # the first stays
    assert progress.load()["final"]["open"]["right"] == []
    progress.record_final({"right": 4, "total": 12, "attempt": 1})
    progress.record_final({"right": 12, "total": 12, "attempt": 1})  # the same attempt again
    final = progress.load()["final"]
    assert [(a["attempt"], a["right"]) for a in final["attempts"]] == [(1, 4)] and final["right"] == 4
    assert "open" not in final and progress.final_next_attempt(final) == 2
    assert progress.record_final_answer(1, 0, ["a", "b"], "b", 1, True) == {}  # a completed attempt: nothing
    assert "open" not in progress.load()["final"]


def test_an_attempt_left_for_another_draw_is_kept_unfinished_and_never_ticks() -> None:
    """The one way round "resume" is to draw another test in code (``FinalTest(seed=…)``): the
    attempt left is then kept with the score it had, marked unfinished, and never passes."""
    test = FinalTest(lang="en")
    for i in range(11):  # eleven right, one question left
        test.go(i)
        test.options.value = test.questions[i].answer
        test.check()
    other = FinalTest(lang="en", seed=99)
    assert other.attempt == 2 and [i.key for i in other.items] != [i.key for i in test.items]
    other.options.value = other.question.answer
    other.check()  # attempt 2's first answer: attempt 1 is left, kept as it stood
    final = bk.progress.load()["final"]
    left = final["attempts"][0]
    assert {k: left[k] for k in ("right", "total", "attempt", "unfinished")} == {
        "right": 11, "total": 12, "attempt": 1, "unfinished": True}
    assert left["items"] == [i.key for i in test.items] and len(left["answers"]) == 11  # kept as it stood
    assert final["open"]["attempt"] == 2 and "right" not in final  # nothing completed yet
    record, problems = bk.progress.validate({"final": final})
    assert problems == [] and record["final"] == final
    row = {r["id"]: r for r in bk.progress.course_map()}["final"]
    assert not row["done"] and row["attempts"] == 1  # 11 of 12 answered right, but unfinished
    assert row["unverified"] == 0 and "could not verify" not in bk.progress.describe(row, "en")
    assert "attempt 1: 11 / 12 (left unfinished: it cannot pass)" in plain_text(FinalTest(lang="en").attempts_view)
    test.go(11)  # the widget left behind: its last answer cannot complete attempt 1 now
    test.options.value = test.question.answer
    test.check()
    assert [a.get("unfinished") for a in bk.progress.load()["final"]["attempts"]] == [True]


def test_predict_hides_the_source_and_trace_until_the_learner_answers() -> None:
    for case_id in ("000-EX-2", "000-EX-3", "000-EX-4", "000-DEMO", "BCR-001"):
        p = Predict(case_id, lang="en")
        case = bk.cases.load()[case_id]
        assert p.reveal.value == "" and case.quote and case.quote not in p.prompt.value
        wrong = next(v for v in p.buttons if v != p.answer)
        assert p.respond(wrong) is False and "the engine says" in plain_text(p.feedback)
        assert case.quote.split("\n")[0][:12] in plain_text(p.reveal)
        assert p.respond(p.answer) is True and "engine agrees" in plain_text(p.feedback)
    draws = Predict("000-EX-3", lang="en")
    assert draws.answer == ("draw" if bk.banker_draws(6, 6) else "stand")


def test_course_map_shows_what_the_record_holds() -> None:
    empty = plain_text(CourseMap(lang="en").table)
    assert "Rule drill: 0 / 106 cells mastered" in empty and "Final test: not taken yet" in empty
    bk.progress.record_check("03-banker-rule", "q5", 3.5, 4, 11, ["q5"])
    shown = CourseMap(lang="zh")
    assert "練習 03-banker-rule：檢查了 1 / 8 題，得分 3.5 / 11" in plain_text(shown.table)


def test_predict_shows_only_what_is_known_before_the_decision() -> None:
    for case_id in ("BCR-002", "BCR-006", "BCR-007"):
        p = Predict(case_id, lang="en")
        coup = bk.cases.load()[case_id].coup()
        shown = plain_text(p.prompt)
        assert p.asks == "banker_decision"
        if coup.banker_third is not None:  # the banker's third card is the answer: never shown first
            assert " ".join(c.label for c in coup.cards) not in shown
        first_four = " ".join(c.label for c in (coup.player_cards[0], coup.banker_cards[0],
                                                 coup.player_cards[1], coup.banker_cards[1]))
        assert first_four in shown
        assert (coup.player_third is None) == ("the player stood" in shown)
    winner = Predict("TW-A", asks="winner", lang="en")
    assert winner.answer == bk.cases.load()["TW-A"].outcome().values["winner"]
    assert "banker drew a third card worth 8" in plain_text(winner.prompt)


def test_predict_what_is_paid_comes_from_settle_and_offers_a_return_and_a_net() -> None:
    p = Predict("BCR-001", asks="returned", lang="en")
    case = bk.cases.load()["BCR-001"]
    (bet,) = case.bets
    engine = bk.settle(case.coup(), {bet.area: bet.stake}).returned
    assert p.answer == str(engine) and str(bet.stake) in p.choices and "0" in p.choices
    assert p.respond(str(bet.stake)) is False  # the net win, not what comes back
    assert "bk.settle(" in plain_text(p.reveal)
    with pytest.raises(bk.errors.BaccaratError, match="returned"):
        Predict("HK-A", asks="returned", lang="en")
    with pytest.raises(bk.errors.BaccaratError, match="banker_decision, player_decision, winner, returned"):
        Predict("HK-A", asks="paid", lang="en")


def test_predict_answers_are_recorded_and_back_after_a_restart() -> None:
    p = Predict("HK-A", lang="en", record="06")
    wrong = next(v for v in p.choices if v != p.answer)
    p.respond(wrong)
    p.respond(p.answer)
    entry = bk.progress.load()["quizzes"]["predict"]["answers"]["06/en/HK-A:banker_decision"]
    assert entry["first"] is False and entry["first_answer"] == wrong and entry["answer"] == p.answer
    again = Predict("HK-A", lang="en", record="06")  # a new kernel: the record is read back
    assert again.chosen == p.answer and "engine agrees" in plain_text(again.feedback) and again.reveal.value
    assert Predict("HK-A", lang="en").reveal.value == ""  # without record= nothing is read


def test_predict_shows_the_sources_words_once_with_the_translation_in_english() -> None:
    """Issue 31: Predict showed the Chinese quote twice (its blockquote and the case's trace)."""
    import html

    case = bk.cases.load()["BCR-001"]
    for lang in ("zh", "en"):
        predict = Predict("BCR-001", lang=lang)
        next(iter(predict.buttons.values())).click()
        shown = html.unescape(predict.reveal.value)
        first_line = case.quote.splitlines()[0]
        assert shown.count(first_line) == 1, lang
        english = case.quote_en.splitlines()[0]
        assert shown.count(english) == (1 if lang == "en" else 0), lang


def test_predict_shows_a_variants_own_words_and_marks_the_translation() -> None:
    """A variant's reveal quotes 000's 只改一個條件 sentence once; in English the kit's
    translation under it (and under a case's quote) is marked as the kit's."""
    import html

    variant = bk.cases.load()["BCR-004-variant"]
    for lang in ("zh", "en"):
        predict = Predict(variant.id, asks="winner", lang=lang)
        next(iter(predict.buttons.values())).click()
        shown = html.unescape(predict.reveal.value)
        assert shown.count(variant.change("zh")) == 1, lang
        assert shown.count(variant.change("en")) == (1 if lang == "en" else 0), lang
        assert ("Translation (the kit's)" in shown) == (lang == "en")
    predict = Predict("BCR-001", lang="en")
    next(iter(predict.buttons.values())).click()
    assert "Translation (the kit's)" in html.unescape(predict.reveal.value)


# ---------------------------------------------------------------- issue 37: the final test
def test_final_test_offers_no_hints_but_lesson_quizzes_keep_theirs() -> None:
    """A banker cell's hint named its exact row and column: the test offers none (and says so)."""
    from baccarat_kit.widgets import Quiz

    test = FinalTest(lang="en", seed=5)
    assert any(i.kind == "cell" and i.question.hint for i in test.items)  # the bank's items have hints
    assert all(q.hint is None for q in test.questions)
    assert test.hint_button.layout.display == "none"
    for i in range(len(test.questions)):
        test.go(i)
        shown = plain_text(test.hint)
        assert "offers no hints" in shown
        bank_hint = test.items[i].question.hint
        assert bank_hint is None or bank_hint["en"] not in shown
    assert "offers no hints" in test.show_hint()
    lesson = Quiz.lesson("04", lang="en")
    assert lesson.question.hint is not None and lesson.show_hint() == lesson.question.hint["en"]


def test_a_wrong_coup_shows_each_explanation_once() -> None:
    from baccarat_kit.widgets import final_bank

    items = [i for i in final_bank.bank(2, 1) if i.kind in ("coup", "settle")]
    assert {i.kind for i in items} == {"coup", "settle"}
    for item in items:
        test = FinalTest(lang="en", seed=2)
        test.questions = (item.question,)
        test.orders = [list(range(len(item.question.options)))]
        test.go(0)
        q = item.question
        assert q.explain is not None
        trace = q.explain["en"].split(": ", 1)[1][:40]  # the engine's trace, inside the explanation
        for option in range(len(q.options)):
            test.options.value = option
            test.check()
            assert plain_text(test.feedback).count(trace) == 1, (item.id, option, plain_text(test.feedback))


def test_the_summary_names_items_in_learner_words_not_ids() -> None:
    for lang, words, hand in (("en", "a coup the kit dealt: ", "one hand the kit dealt: "),
                              ("zh", "本套件發的牌 ", "本套件發的一手牌 ")):
        test = FinalTest(lang=lang, seed=3)
        for i, q in enumerate(test.questions):  # every answer wrong: every item is reviewed
            test.go(i)
            test.options.value = (q.answer + 1) % len(q.options)
            test.check()
        summary = plain_text(test.summary)
        for item in test.items:
            assert item.id not in summary and item.question.id not in summary, item.id
        kit = [i for i in test.items if i.kind in ("coup", "settle")]
        assert kit and all(words + final_cards(i) in summary for i in kit), summary
        for item in test.items:  # the lessons' kinds made from the kit's coups: the cards shown
            shown = " ".join(item.id.split("-")[2:])
            if item.kind == "total":
                assert hand + shown in summary, summary
            elif item.kind in ("natural", "player-step", "banker-step"):
                assert words + shown in summary, summary
        assert "kit-" not in summary and "kit-" not in test.page()


def final_cards(item: object) -> str:
    qid = item.question.id  # type: ignore[attr-defined]
    return " ".join(qid.split("-")[2 if qid.startswith("kit-coup") else 3:])


def _take(test: FinalTest, right: int) -> None:
    """Answer the attempt shown: the first ``right`` questions right, the rest wrong."""
    for i, q in enumerate(test.questions):
        test.go(i)
        test.options.value = q.answer if i < right else (q.answer + 1) % len(q.options)
        test.check()


def test_the_map_ticks_the_final_test_only_at_the_pass_mark_and_keeps_every_attempt() -> None:
    progress = bk.progress
    assert progress.FINAL_PASS_MARK == 10 and progress.final_pass_mark(12) == 10
    test = FinalTest(lang="en", seed=3)
    _take(test, 3)
    row = {r["id"]: r for r in progress.course_map()}["final"]
    assert not row["done"] and progress.describe(row, "zh").startswith("· 期末測驗：最佳 3 / 12")
    test.new_attempt()
    _take(test, 11)
    test.new_attempt()
    _take(test, 9)
    record = progress.load()
    assert [a["right"] for a in record["final"]["attempts"]] == [3, 11, 9]
    assert record["final"]["right"] == 9 and record["final"]["attempt"] == 3  # the latest in full
    row = {r["id"]: r for r in progress.course_map()}["final"]
    assert row["done"] and row["best"] == 11 and row["right"] == 9 and row["attempts"] == 3
    en = progress.describe(row, "en")
    assert en == "✔ Final test: best 11 / 12, latest 9 / 12 (3 attempt(s); the pass mark is 10 / 12)"
    assert "最佳 11 / 12，最近一次 9 / 12" in progress.describe(row, "zh") and "10 / 12" in progress.describe(row, "zh")
    assert "pass mark is 10 / 12" in progress.describe({**row, "attempts": 0}, "en")
    assert FinalTest(lang="en").attempt == 4
    for lang, words in (("en", "pass mark (10 of 12)"), ("zh", "12 題答對 10 題")):
        assert words in plain_text(CourseMap(lang=lang).legend)  # the map's legend says the pass mark


def test_an_edited_record_does_not_tick_the_final_test() -> None:
    """Red team of issue 42: the record is the learner's own file. A score written into it is
    not taken on its word: an attempt's score is counted again from its questions and answers."""
    progress = bk.progress
    test = FinalTest(lang="en", seed=3)
    _take(test, 4)
    path = progress.location()
    record = progress.load()
    record["final"]["attempts"][0]["right"] = 12  # "4 / 12" edited into "12 / 12"
    record["final"]["attempts"].append({"right": 12, "total": 12, "attempt": 2, "t": 9.0})  # a score alone
    record["final"]["right"] = 12
    progress.save(record, path)
    row = {r["id"]: r for r in progress.course_map()}["final"]
    assert not row["done"] and row["best"] == 4 and row["unverified"] == 1
    checked = progress.final_checked(progress.load()["final"])
    assert [(a["right"], a["verified"]) for a in checked] == [(4, True), (12, False)]
    assert "could not verify 1 attempt(s)" in progress.describe(row, "en")
    assert "無法核對" in progress.describe(row, "zh")
    shown = plain_text(FinalTest(lang="en").attempts_view)
    assert "attempt 1: 4 / 12 (not passed)" in shown and "attempt 2: 12 / 12 (could not verify" in shown
    record = progress.load()  # answers edited to the keys' are what the record cannot tell apart
    entry = record["final"]["attempts"][0]
    keys = {i.key: i.question.answer for i in test.items}
    entry["answers"] = {k: keys[k] for k in entry["items"]}
    progress.save(record, path)
    assert {r["id"]: r for r in progress.course_map()}["final"]["done"]


def test_a_shorter_test_is_practice_and_never_ticks_the_map() -> None:
    """Red team of issue 42: ``FinalTest(n=1)``, one question answered right, said "Passed (the
    pass mark is 1 of 1)" and ticked the course's final test."""
    test = FinalTest(lang="en", n=1)
    _take(test, 1)
    assert "it is practice, never a pass" in plain_text(test.summary) and "Passed" not in plain_text(test.summary)
    assert "(practice of fewer than 12 questions: it cannot pass)" in plain_text(test.attempts_view)
    row = {r["id"]: r for r in bk.progress.course_map()}["final"]
    assert not row["done"] and row["attempts"] == 0
    zh = FinalTest(lang="zh", n=1)  # the next attempt
    _take(zh, 1)
    assert "只算練習，不算及格" in plain_text(zh.summary)


def test_an_old_record_with_one_final_result_still_loads_and_counts_as_one_attempt() -> None:
    old = {"schema": 2, "final": {"right": 10, "total": 12, "attempt": 1, "t": 5.0, "asked": ["a"]}}
    record, problems = bk.progress.validate(old)
    assert problems == [] and bk.progress.final_attempts(record["final"]) == [
        {"right": 10, "total": 12, "attempt": 1, "t": 5.0}]
    row = {r["id"]: r for r in bk.progress.course_map(record)}["final"]
    # kept without its questions and answers, its score cannot be checked: shown, never ticked
    assert not row["done"] and row["attempts"] == 1 and row["best"] == 10 and row["unverified"] == 1
    bad, problems = bk.progress.validate({"final": {"right": 1, "total": 12, "attempts": [{"right": "x"}]}})
    assert "attempts" not in bad["final"] and any("final.attempts" in p for p in problems)
    capped, _ = bk.progress.validate({"final": {"right": 1, "total": 12, "attempts": [{"right": 30, "total": 12}]}})
    assert capped["final"]["attempts"] == [{"right": 12, "total": 12}]
    forged, problems = bk.progress.validate({"final": {"attempts": [{"right": 1, "total": 2, "items": ["a"],
                                                                     "answers": {"b": 1}}]}})
    assert "attempts" not in forged["final"] and any("final.attempts" in p for p in problems)


def test_an_attempt_in_progress_is_checked_when_read_and_older_records_still_load() -> None:
    """``final.open`` (issue 42) is new: a record without it loads as before, one with only it
    (the first attempt under way) keeps it, and a malformed one is dropped and named."""
    progress = bk.progress
    current = {"attempt": 2, "seed": 5, "items": ["cell:04:a", "lesson:08:b"], "answers": {"cell:04:a": 1},
               "right": ["cell:04:a"], "t": 3.0}
    record, problems = progress.validate({"schema": 2, "final": {"open": current}})
    assert problems == [] and record["final"] == {"open": current}
    assert progress.final_next_attempt(record["final"]) == 3 and progress.final_attempts(record["final"]) == []
    both, problems = progress.validate({"schema": 2, "final": {"right": 4, "total": 12, "attempt": 1, "open": current}})
    assert problems == [] and both["final"]["right"] == 4 and both["final"]["open"] == current
    for bad in ({**current, "answers": {"elsewhere": 1}}, {**current, "attempt": "2"}, {**current, "seed": [1]},
                {**current, "answers": {"cell:04:a": -1}}, {**current, "right": ["lesson:08:b"]}, "x"):
        kept, problems = progress.validate({"final": {"right": 4, "total": 12, "open": bad}})
        assert "open" not in kept["final"] and kept["final"]["right"] == 4
        assert any(p.startswith("final.open") for p in problems), problems
    old = {"schema": 2, "final": {"right": 10, "total": 12, "attempt": 1, "t": 5.0, "asked": ["a"],
                                  "attempts": [{"right": 10, "total": 12, "attempt": 1, "t": 5.0}]}}
    record, problems = progress.validate(old)
    assert problems == [] and record["final"] == old["final"]
