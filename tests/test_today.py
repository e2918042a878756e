"""The today view (issue 37): due cells, the daily goal, the streak and the mistakes of past days.

Pure functions first (:mod:`baccarat_kit.today`, the record's ``daily`` part written by
:func:`baccarat_kit.progress.update`), then the widget without a browser (``TodayView``, the
review drill, the course map that shows it). Days are UTC calendar days.
"""

from __future__ import annotations

import json
import os
import re
import time
import warnings
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit import drill, progress, today
from baccarat_kit.today import GoalError, check_goal

DAY = 86400.0
T0 = 1_800_000_000.0  # 2027-01-15 08:00 UTC
IDS = re.compile(r"(banker|player|natural)-\d|kit-coup|coup-\d")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The wall clock the record's writers read (``time.time``), set by the test."""
    now = [T0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


def answer_drill(cell: str, right: bool, when: float) -> None:
    """One drill answer at ``when``, written as the Drill widget writes it (progress.update)."""
    def change(r: dict[str, Any]) -> None:
        step = int(r["drill"].get("step", 0))
        drill.answer(r["drill"]["cells"], cell, right, 2.0, step=step, now=when)
        r["drill"]["step"] = step + 1
    progress.update(change)


# ---------------------------------------------------------------- due cells
def test_due_cells_are_the_drills_own_in_learner_words(clock: list[float]) -> None:
    answer_drill("banker-3-vs-8", False, T0)          # missed: due again after 20 s
    answer_drill("natural-8", True, T0 + 1)            # right: due after 10 min
    answer_drill("player-5", True, T0 + 2)
    record = progress.load()
    assert today.due(record, T0 + 60) == ["banker-3-vs-8"]
    assert today.due(record, T0 + 700) == ["banker-3-vs-8", "natural-8", "player-5"]  # most overdue first
    stats = drill.stats(record["drill"]["cells"], T0 + 700)
    assert stats["due"] == len(today.today(record, T0 + 700).due)  # the drill's own count
    words = {lang: [today.cell_words(c, lang) for c in today.due(record, T0 + 700)] for lang in ("zh", "en")}
    assert words["en"] == ["banker 3 against a player third card 8", "a first-two-card total of 8", "player 5"]
    assert words["zh"][0] == "莊家 3 點對閒家第三張 8"
    for cell in drill.MASTERY_CELLS:  # every cell has words, and no id shows through
        for lang in ("zh", "en"):
            assert not IDS.search(today.cell_words(cell, lang)), cell


# ---------------------------------------------------------------- the daily goal
@pytest.mark.parametrize("bad", [0, -3, 501, "abc", "", "2.5", "１０", True, 3.5, None, [20]])
def test_a_bad_goal_is_refused_with_the_valid_range(bad: Any) -> None:
    with pytest.raises(GoalError) as info:
        check_goal(bad)
    en, zh = info.value.message("en"), info.value.message("zh")
    assert "from 1 to 500" in en and "1 到 500" in zh and "default is 20" in en
    shown = bad if isinstance(bad, str) else repr(bad)
    assert f"'{shown}'" in en and f"「{shown}」" in zh


def test_the_goal_is_kept_in_the_record_and_validated_there(clock: list[float], tmp_path: Path) -> None:
    assert today.goal(progress.load()) == today.GOAL_DEFAULT == 20
    assert check_goal(" 35 ") == 35 and check_goal(35.0) == 35 and check_goal(500) == 500
    assert today.record_goal("35") == 35
    assert today.goal(progress.load()) == 35
    with pytest.raises(GoalError):
        today.record_goal("0")
    assert today.goal(progress.load()) == 35  # a refused value changes nothing
    raw = json.loads(progress.location().read_text(encoding="utf-8"))
    raw["daily"]["goal"] = 9000
    record, problems = progress.validate(raw)
    assert "goal" not in record["daily"] and today.goal(record) == 20
    assert problems == ["daily.goal: expected a daily goal: a whole number of drill answers, found int"]


# ---------------------------------------------------------------- the streak
def test_the_streak_counts_days_at_the_goal_and_a_missed_day_breaks_it(clock: list[float]) -> None:
    today.record_goal(3)
    for d in (0, 1, 3):  # day 2 missed
        for i in range(3):
            answer_drill(drill.MASTERY_CELLS[i], True, T0 + d * DAY + i * 700)
    record = progress.load()
    assert [today.answers_on(record, progress.day_of(T0 + d * DAY)) for d in range(5)] == [3, 3, 0, 3, 0]
    assert today.streak(record, T0 + 1 * DAY) == 2        # days 0 and 1
    assert today.streak(record, T0 + 2 * DAY) == 2        # day 2 not over: still alive
    assert today.streak(record, T0 + 3 * DAY) == 1        # day 2 ended short: broken, day 3 starts anew
    assert today.streak(record, T0 + 4 * DAY) == 1        # day 4 begun, nothing yet: day 3's streak lives
    assert today.streak(record, T0 + 5 * DAY) == 0        # day 4 ended short
    answer_drill("natural-5", True, T0 + 4 * DAY)
    view = today.today(progress.load(), T0 + 4 * DAY + 10)
    assert (view.done, view.left, view.met, view.streak) == (1, 2, False, 1)
    for i in range(2):
        answer_drill(drill.MASTERY_CELLS[10 + i], True, T0 + 4 * DAY + 20 + i)
    view = today.today(progress.load(), T0 + 4 * DAY + 30)
    assert (view.done, view.met, view.streak) == (3, True, 2)


def test_a_past_day_is_judged_by_its_own_goal(clock: list[float]) -> None:
    today.record_goal(2)
    answer_drill("natural-1", True, T0)
    answer_drill("natural-2", True, T0 + 1)
    clock[0] = T0 + DAY
    today.record_goal(50)  # raised the next day: yesterday stays met
    assert progress.load()["daily"]["days"][progress.day_of(T0)] == {"drill": 2, "goal": 2}
    assert today.streak(progress.load(), T0 + DAY) == 1


def test_days_are_utc_calendar_days_whatever_the_local_zone(clock: list[float], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TZ", "Asia/Taipei")
    time.tzset()
    try:
        midnight = 1_800_057_600.0  # 2027-01-16 00:00 UTC (08:00 in Taipei)
        answer_drill("player-1", True, midnight - 60)   # 2027-01-15 23:59 UTC
        answer_drill("player-2", True, midnight + 60)   # 2027-01-16 00:01 UTC
        days = progress.load()["daily"]["days"]
        assert {k: v["drill"] for k, v in days.items()} == {"2027-01-15": 1, "2027-01-16": 1}
        assert today.today(progress.load(), midnight + 120).day == "2027-01-16"
    finally:
        monkeypatch.delenv("TZ")
        time.tzset()


# ---------------------------------------------------------------- mistakes of past days
def test_the_review_gathers_past_mistakes_of_every_section_in_learner_words(clock: list[float]) -> None:
    from baccarat_kit.widgets.question_sets import lesson_questions

    q = lesson_questions("04")[1]
    wrong = next(i for i in range(len(q.options)) if i != q.answer)
    clock[0] = T0 + 100
    progress.record_quiz("04", q.id, str(wrong), False, 8, str(wrong), right=False)
    progress.record_check("03-banker-rule", "q5", 3.5, 4, 11, ["q5"])
    answer_drill("banker-3-vs-8", False, T0 + 200)
    clock[0] = T0 + 300
    progress.record_final({"right": 10, "total": 12, "attempt": 1, "asked": [],
                           "missed": [{"id": "kit-coup-J-Q-2-A-4-7", "lesson": "05", "misconception": None},
                                      {"id": "banker-5-vs-8", "lesson": "04", "misconception": "third-card-helps"}]})
    clock[0] = T0 + DAY  # the next day: a new miss today is not in the review
    progress.record_check("01-card-values", "q1", 0, 1, 7, ["q1"])
    record = progress.load()
    assert len(record["daily"]["misses"]) == 6
    mistakes = today.review(record, T0 + DAY + 10)
    kinds = sorted(m.kind for m in mistakes)
    assert kinds == ["drill", "exercise", "final", "final", "quiz"]
    assert {m.day for m in mistakes} == {"2027-01-15"} and not any(m.fixed for m in mistakes)
    by_kind = {m.kind: m for m in mistakes}
    assert by_kind["quiz"].where["en"] == "lesson 04's self-check"
    assert by_kind["quiz"].what["en"] == f"question 2: {q.prompt['en']}"
    assert by_kind["exercise"].where == {"zh": "練習 3：莊家補牌規則", "en": "Exercise 3: the banker rule"}
    assert by_kind["exercise"].what["en"] == 'check("q5") gave 3.5 / 4 points'
    assert by_kind["drill"].what["en"] == "banker 3 against a player third card 8"
    finals = sorted((m.what["en"] for m in mistakes if m.kind == "final"), key=len)
    assert finals[0] == "a question on lesson 05" and "→" in finals[1]
    assert all(m.where["en"] == "the final test (attempt 1)" for m in mistakes if m.kind == "final")
    for m in mistakes:
        for lang in ("zh", "en"):
            assert not IDS.search(m.where[lang] + m.what[lang]), (m, lang)

    # Put right since: the drill cell answered right, the quiz answered right, the check passed.
    clock[0] = T0 + DAY + 50
    answer_drill("banker-3-vs-8", True, T0 + DAY + 50)
    progress.record_quiz("04", q.id, str(q.answer), False, 8, str(wrong), right=True)
    progress.record_check("03-banker-rule", "q5", 4, 4, 11, ["q5"])
    after = today.review(progress.load(), T0 + DAY + 60)
    fixed = {m.kind for m in after if m.fixed}
    assert fixed == {"drill", "quiz", "exercise"}
    assert [m.fixed for m in after] == sorted(m.fixed for m in after)  # open ones first


def test_a_record_from_before_the_daily_log_still_gives_a_review() -> None:
    old = {"schema": 2, "quizzes": {"trainer": {"answers": {"x": {"answer": "0", "first": False, "t": T0}}}},
           "exercises": {"02-naturals-player": {"questions": {"q2": {"score": 0, "points": 1, "t": T0}}}},
           "drill": {"cells": {"player-6": {"seen": 1, "right": 0, "last": "wrong", "t": T0, "lapses": 1}},
                     "step": 1}, "final": {}}
    record, problems = progress.validate(old)
    assert problems == [] and "daily" not in record  # a missing part is fine
    mistakes = today.review(record, T0 + DAY)
    assert sorted(m.kind for m in mistakes) == ["drill", "exercise", "quiz"]
    quiz = next(m for m in mistakes if m.kind == "quiz")
    assert quiz.where["zh"] == "補牌訓練器的測驗" and quiz.what["en"].startswith("a question")
    assert today.review(record, T0 + 10) == []  # the same day: not a past day's
    assert today.today(record, T0 + DAY).streak == 0


# ---------------------------------------------------------------- the record's daily part
def test_daily_is_validated_field_by_field() -> None:
    raw = {"schema": 2, "daily": {"goal": 30, "t": 5.0,
                                  "days": {"2027-01-15": {"drill": 4, "goal": 30}, "2027-02-30": {"drill": 1},
                                           "yesterday": {"drill": 1}, "2027-01-16": {"drill": -1}},
                                  "misses": [{"t": 1.0, "kind": "drill", "id": "player-1"},
                                             {"t": 2.0, "kind": "quiz", "id": "q1"},
                                             {"t": 3.0, "kind": "lunch", "id": "x"}, "no"]}}
    record, problems = progress.validate(raw)
    assert record["daily"]["goal"] == 30
    assert record["daily"]["days"] == {"2027-01-15": {"drill": 4, "goal": 30}}
    assert record["daily"]["misses"] == [{"t": 1.0, "kind": "drill", "id": "player-1"}]
    places = [p.split(":")[0] for p in problems]
    assert {"daily.days.2027-02-30", "daily.days.yesterday", "daily.days.2027-01-16.drill",
            "daily.misses[1]", "daily.misses[2]", "daily.misses[3]"} <= set(places)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert progress.validate({"schema": 2})[1] == []


def test_merge_keeps_the_newer_goal_each_days_larger_count_and_every_miss_once() -> None:
    a = {**progress.empty(), "daily": {"goal": 10, "t": 1.0, "days": {"2027-01-15": {"drill": 5}},
                                       "misses": [{"t": 1.0, "kind": "drill", "id": "player-1"}]}}
    b = {**progress.empty(), "daily": {"goal": 40, "t": 2.0,
                                       "days": {"2027-01-15": {"drill": 3}, "2027-01-16": {"drill": 7}},
                                       "misses": [{"t": 1.0, "kind": "drill", "id": "player-1"},
                                                  {"t": 3.0, "kind": "drill", "id": "player-2"}]}}
    merged = progress.merge(a, b)
    assert merged["daily"]["goal"] == 40
    assert merged["daily"]["days"] == {"2027-01-15": {"drill": 5}, "2027-01-16": {"drill": 7}}
    assert [m["id"] for m in merged["daily"]["misses"]] == ["player-1", "player-2"]
    assert progress.merge(merged, merged)["daily"] == merged["daily"]  # imported twice: the same
    assert "daily" not in progress.merge(progress.empty(), progress.empty())


def test_an_import_is_not_counted_as_todays_answers(clock: list[float], tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path / "a"))
    answer_drill("player-3", True, T0)
    exported = progress.export(tmp_path)
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path / "b"))
    clock[0] = T0 + DAY
    merged = progress.import_file(exported)
    assert merged["daily"]["days"] == {"2027-01-15": {"drill": 1, "goal": 20}}


def test_a_drill_with_an_old_copy_never_sets_a_newer_cell_back(clock: list[float]) -> None:
    answer_drill("banker-6-vs-6", True, T0)
    stale = progress.load()["drill"]  # a second drill, made now
    answer_drill("banker-6-vs-6", True, T0 + 700)  # answered in the first one
    newer = progress.load()["drill"]["cells"]["banker-6-vs-6"]

    def write_stale(r: dict[str, Any]) -> None:  # what Drill._save does: every cell it holds
        cells = dict(stale["cells"])
        drill.answer(cells, "player-2", True, 2.0, step=1, now=T0 + 800)
        r["drill"]["cells"].update(cells)
        r["drill"]["step"] = 2
    progress.update(write_stale)
    record = progress.load()
    assert record["drill"]["cells"]["banker-6-vs-6"] == newer
    assert "player-2" in record["drill"]["cells"] and record["drill"]["step"] == 2
    assert today.answers_on(record, "2027-01-15") == 3


def test_the_record_on_disk_stays_small_after_many_misses(clock: list[float]) -> None:
    daily = {"misses": [{"t": float(i), "kind": "drill", "id": "player-1"} for i in range(progress.MAX_MISSES + 50)]}
    record, _ = progress.validate({"schema": 2, "daily": daily})
    assert len(record["daily"]["misses"]) == progress.MAX_MISSES
    assert record["daily"]["misses"][0]["t"] == 50.0  # the oldest dropped
    assert os.path.getsize(progress.save(record)) < 64_000


# ---------------------------------------------------------------- the widget, no browser
pytest.importorskip("ipywidgets")


def widget_text(widget: Any) -> str:
    from baccarat_kit.widgets import plain_text

    return plain_text(widget)


def test_today_view_contract_and_goal_by_typing() -> None:
    from baccarat_kit.widgets import TodayView

    view = TodayView(lang="zh", now=lambda: T0)
    assert "bk-today" in view._dom_classes and "bk-widget" in view._dom_classes
    for css in ("bk-today-progress", "bk-today-streak", "bk-today-goal", "bk-today-status", "bk-today-due",
                "bk-today-review", "bk-today-refresh", "bk-today-mistakes", "bk-lang"):
        assert any(css in getattr(d, "_dom_classes", ()) for d in _descendants(view)), css
    assert repr(view) == "TodayView(lang='zh')" and view._repr_mimebundle_()["text/plain"] == "TodayView(lang='zh')"
    assert view.goal.description and view.review_button.description and view.refresh_button.description
    assert widget_text(view.progress_line) == "今天：規則練習答了 0 / 20 題，還差 20 題。"
    view.goal.value = "0"
    # one persistent live region (issue 42): ``live``, whose text says each status; no role is
    # written into an output's value
    assert "bk-live" in view.live._dom_classes and "role=" not in view.status.value
    assert "「0」不是每日目標" in widget_text(view.status) and "「0」不是每日目標" in widget_text(view.live)
    assert today.goal(progress.load()) == 20
    view.goal.value = "12"
    assert widget_text(view.status) == "已儲存：每日目標 12 題。" == widget_text(view.live)
    assert today.goal(progress.load()) == 12 and "0 / 12" in widget_text(view.progress_line)
    assert "role=" not in view.status.value
    view.lang = "en"
    assert widget_text(view.progress_line) == "Today: 0 / 12 drill answers, 12 to go."
    # "streak" (連續) is the course's word for runs of banker or player wins: not for study days
    shown = " ".join(widget_text(d) for d in _descendants(view) if hasattr(d, "value") and isinstance(d.value, str))
    assert "Study days in a row" in widget_text(view.streak_line) and "streak" not in shown.lower()
    assert not re.search(r"[\u3400-\u9fff]", widget_text(view.mistakes) + widget_text(view.due_list))
    view.lang = "zh"
    shown = " ".join(widget_text(d) for d in _descendants(view) if hasattr(d, "value") and isinstance(d.value, str))
    assert "連續學習天數" in widget_text(view.streak_line) and "連續達標" not in shown


def _descendants(widget: Any) -> list[Any]:
    out = [widget]
    for child in getattr(widget, "children", ()):
        out.extend(_descendants(child))
    return out


def test_the_review_drill_asks_only_the_due_cells_and_closes_when_done(clock: list[float]) -> None:
    from baccarat_kit.widgets import TodayView
    from baccarat_kit.widgets.drill import CHOICES

    for i, cell in enumerate(("banker-3-vs-8", "player-5", "natural-8")):
        answer_drill(cell, cell != "natural-8", T0 + i)
    later = [T0 + 2 * DAY]
    view = TodayView(lang="en", now=lambda: later[0], clock=iter(range(0, 10_000, 2)).__next__)
    due = list(view.state.due)
    assert sorted(due) == ["banker-3-vs-8", "natural-8", "player-5"]
    assert view.review_button.description == "Review the 3 due cell(s)" and not view.review_button.disabled
    assert "banker 3 against a player third card 8" in widget_text(view.due_list)
    review = view.start_review()
    assert review is not None and view.review_box.children == (review,) and view.review_button.disabled
    asked = []
    for _ in range(10):
        if view.review is None:
            break
        it = review.item
        asked.append(it.id)
        review.press(dict(CHOICES[it.kind])[it.answer])  # right, by its key
        later[0] += 5
    assert sorted(asked) == sorted(due)  # each due cell once, nothing else
    assert view.review is None and view.review_box.children == ()
    assert "Review done: 3 answer(s), 3 right" in widget_text(view.status)
    assert view.state.due == () and view.state.done == 3
    assert view.review_button.description == "Nothing due" and view.review_button.disabled
    # the drill's record holds the review's answers (a cell is one answer further)
    cells = progress.load()["drill"]["cells"]
    assert all(cells[c]["seen"] == 2 for c in due)


def test_the_course_map_shows_the_today_view_at_its_top() -> None:
    from baccarat_kit.widgets import CourseMap, TodayView

    m = CourseMap(lang="zh")
    assert isinstance(m.children[1], TodayView) and m.today is m.children[1]
    assert m.today.lang_toggle.layout.display == "none"  # the map's switch drives it
    m.lang = "en"
    assert m.today.lang == "en" and widget_text(m.today.progress_line).startswith("Today:")
    assert "Today: cells due" in m._repr_mimebundle_()["text/html"]


def test_the_trainers_drill_does_not_undo_the_review_beside_it(clock: list[float]) -> None:
    """The trainer shows the today view and the drill in one kernel: the drill, made first, holds
    an old copy of the cells the review then answers; its next answer must not set the other
    cells back, and is counted (on a reviewed cell, the drill's answer, newer, is the one kept)."""
    from baccarat_kit.widgets import Drill, TodayView
    from baccarat_kit.widgets.drill import CHOICES

    for i, cell in enumerate(("banker-3-vs-8", "player-5")):
        answer_drill(cell, True, T0 + i)
    later = [T0 + 2 * DAY]
    ticks = iter(range(0, 10_000, 2)).__next__
    main = Drill(lang="en", coups=False, clock=ticks, now=lambda: later[0])
    view = TodayView(lang="en", now=lambda: later[0], clock=ticks)
    review = view.start_review()
    assert review is not None
    while view.review is not None:
        review.press(dict(CHOICES[review.item.kind])[review.item.answer])
        later[0] += 5
    reviewed = {c: progress.load()["drill"]["cells"][c] for c in ("banker-3-vs-8", "player-5")}
    main.respond(main.item.answer)  # the trainer's drill answers on, from its old copy
    cells = progress.load()["drill"]["cells"]
    for cell, entry in reviewed.items():
        if cell != main.asked[-1]:
            assert cells[cell] == entry
    assert today.answers_on(progress.load(), progress.day_of(later[0])) == 3


def test_the_today_view_follows_the_drill_beside_it_without_a_refresh(clock: list[float]) -> None:
    """The trainer: the today view and the drill in one kernel. Each drill answer the drill
    records redraws the view (progress.watch), no refresh pressed: today's count, the due list,
    the goal met and the streak."""
    from baccarat_kit.widgets import Drill, TodayView

    answer_drill("player-5", True, T0)  # due two days later
    later = [T0 + 2 * DAY]
    clock[0] = later[0]
    view = TodayView(lang="en", now=lambda: later[0])
    view.set_goal(2)
    assert widget_text(view.progress_line) == "Today: 0 / 2 drill answers, 2 to go."
    assert today.cell_words("player-5", "en") in widget_text(view.due_list)
    main = Drill(lang="en", coups=False, clock=iter(range(0, 10_000, 2)).__next__, now=lambda: later[0])
    first = main.item.id
    main.respond(main.item.answer)
    assert widget_text(view.progress_line) == "Today: 1 / 2 drill answers, 1 to go."
    assert view.state.done == 1
    if first == "player-5":  # the due cell answered: gone from the list
        assert view.state.due == ()
    main.respond(main.item.answer)
    assert widget_text(view.progress_line) == "Today: 2 / 2 drill answers: today's goal is met."
    assert view.state.met and view.state.streak == 1
    assert today.answers_on(progress.load(), progress.day_of(later[0])) == 2  # what the view says


def test_a_closed_view_or_another_record_is_not_followed(clock: list[float], tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from baccarat_kit.widgets import TodayView

    view = TodayView(lang="en", now=lambda: T0)
    answer_drill("player-5", True, T0)
    assert view.state.done == 1
    progress.update(lambda r: None, tmp_path / "other.json")  # another record: not this view's
    assert view.state.done == 1
    view.close()
    watchers = len(progress._WATCHERS)
    answer_drill("player-6", True, T0)
    assert view.state.done == 1 and len(progress._WATCHERS) == watchers - 1  # it stopped watching

    class Follower:
        def follow(self, record: dict[str, Any], path: Path) -> None:
            pass

    gone = Follower()
    progress.watch(gone.follow)
    ref = [r for r in progress._WATCHERS if r() == gone.follow]
    assert len(ref) == 1
    del gone
    assert ref[0]() is None  # held weakly: the record keeps no follower alive
    answer_drill("player-7", True, T0)
    assert ref[0] not in progress._WATCHERS


def test_a_watcher_that_fails_leaves_the_record_written_and_says_so(clock: list[float]) -> None:
    told = []

    def broken(record: dict[str, Any], path: Path) -> None:
        raise ValueError("no view")

    def fine(record: dict[str, Any], path: Path) -> None:
        told.append(record["drill"]["step"])

    stops = [progress.watch(broken), progress.watch(fine)]
    try:
        with pytest.warns(progress.ProgressWarning, match="沒能跟著更新（ValueError: no view）"):
            answer_drill("player-5", True, T0)
    finally:
        for stop in stops:
            stop()
    assert told == [1] and progress.load()["drill"]["step"] == 1
    answer_drill("player-6", True, T0)
    assert told == [1]  # stopped


def test_the_lessons_quiz_and_a_prediction_write_dated_misses_the_review_names(clock: list[float]) -> None:
    """The widgets that write the record (a lesson's quiz, a prediction) feed the review without
    knowing of it: progress.update notes each wrong answer, dated, and the latest answer's
    rightness (``right``) says when it was put right."""
    from baccarat_kit.widgets import Predict, Quiz

    quiz = Quiz.lesson("04", lang="en")
    q = quiz.question
    quiz.options.value = next(i for i in range(len(q.options)) if i != q.answer)
    assert quiz.check() is False
    predict = Predict("BCR-001", asks="winner", lang="en", record="05")
    wrong = next(c for c in predict.choices if c != predict.answer)
    assert predict.respond(wrong) is False
    misses = progress.load()["daily"]["misses"]
    assert [(m["kind"], m.get("quiz")) for m in misses] == [("quiz", "04"), ("quiz", "predict")]
    mistakes = {m.what["en"]: m for m in today.review(progress.load(), T0 + DAY)}
    assert set(mistakes) == {f"question 1: {q.prompt['en']}", "case BCR-001: who wins"}
    assert {m.where["en"] for m in mistakes.values()} == {"lesson 04's self-check", "lesson 05: predict first"}
    assert {m.where["zh"] for m in mistakes.values()} == {"第 04 課自我檢測", "第 05 課：先預測"}
    clock[0] = T0 + DAY + 5  # the next day: the quiz question answered right
    quiz.options.value = q.answer
    assert quiz.check() is True
    fixed = {m.what["en"]: m.fixed for m in today.review(progress.load(), T0 + DAY + 10)}
    assert fixed == {f"question 1: {q.prompt['en']}": True, "case BCR-001: who wins": False}
