"""The learner's progress record: where it lives, what it holds, the course map, export/import."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from baccarat_kit import progress
from baccarat_kit.cli import main


def test_the_record_lives_in_the_course_folder_never_in_notebooks_or_a_checkout(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv(progress.PROGRESS_ENV, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    course = tmp_path / "course"
    (course / "notebooks" / "en").mkdir(parents=True)
    (course / "exercises").mkdir()
    assert progress.location(course / "notebooks" / "en") == course / progress.FILENAME
    assert progress.location(course / "exercises") == course / progress.FILENAME
    (course / ".git").mkdir()  # the repository itself: the home folder instead
    assert progress.location(course / "notebooks") == tmp_path / "home" / progress.FILENAME
    assert progress.location(tmp_path) == tmp_path / "home" / progress.FILENAME
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path / "mine"))
    assert progress.location() == tmp_path / "mine" / progress.FILENAME


def test_checks_quizzes_and_the_map(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path))
    assert progress.load() == progress.empty()
    progress.record_check("03-banker-rule", "q5", 3.5, 4, 11, ["q5"])
    progress.record_quiz("04", "banker-5-vs-8", "1", False, 8, "1")
    progress.record_quiz("04", "banker-5-vs-8", "0", False, 8, "0")  # a second try: first kept
    record = progress.load()
    assert record["quizzes"]["04"]["answers"]["banker-5-vs-8"]["first_answer"] == "1"
    rows = {r["id"]: r for r in progress.course_map(record)}
    assert rows["04"]["answered"] == 1 and not rows["04"]["done"]
    assert rows["03-banker-rule"]["right"] == 3.5 and not rows["03-banker-rule"]["done"]
    assert main(["--lang", "en", "progress"]) == 0
    out = capsys.readouterr().out
    assert "Exercise 03-banker-rule: 1 / 8 questions checked, score 3.5 / 11" in out
    total = dict(progress._lessons())["04"]  # the lesson's questions, from the quiz data
    assert f"Lesson 04 self-check: 1 / {total} answered, 0 right the first time" in out
    (tmp_path / progress.FILENAME).write_text("not json", encoding="utf-8")
    with pytest.warns(progress.ProgressWarning, match="JSON"):
        assert progress.load() == progress.empty()  # a broken file is read as empty, not a traceback


def test_export_then_import_loses_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path / "a"))
    progress.record_check("01-card-values", "q1", 1, 1, 7, ["q1"])
    exported = progress.export(tmp_path)
    assert json.loads(exported.read_text(encoding="utf-8"))["exercises"]["01-card-values"]
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path / "b"))  # a cleared browser
    progress.record_quiz("02", "two-naturals", "0", True, 4)
    merged = progress.import_file(exported)
    assert "01-card-values" in merged["exercises"] and "02" in merged["quizzes"]
    assert "01-card-values" in progress.load()["exercises"]


# ---------------------------------------------------------------- malformed records (issue 30)
import copy  # noqa: E402
import tempfile  # noqa: E402
import warnings  # noqa: E402
from typing import Any  # noqa: E402

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=20)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _full_record(folder: Path) -> dict[str, Any]:
    """A record with something in every section, written by the kit's own functions."""
    from baccarat_kit import drill

    path = folder / progress.FILENAME
    progress.record_check("03-banker-rule", "q5", 3.5, 4, 11, ["q1", "q5"])
    progress.record_check("01-card-values", "q1", 1, 1, 7, ["q1"])
    progress.record_quiz("04", "banker-5-vs-8", "1", True, 8)
    progress.record_quiz("02", "two-naturals", "0", False, 4)
    progress.record_predict("05", "BCR-001:banker_decision", "draw", True, "draw")
    progress.record_final({"right": 7, "total": 12, "attempt": 1, "missed": [{"id": "x", "lesson": "04", "misconception": None}]})

    def add_drill(r: dict[str, Any]) -> None:
        for n, cell in enumerate(drill.MASTERY_CELLS[:5]):
            drill.answer(r["drill"]["cells"], cell, n % 2 == 0, 1.5, step=n, now=1000.0 + n)
        r["drill"]["step"] = 5
    progress.update(add_drill)
    return json.loads(path.read_text(encoding="utf-8"))


def _leaves(data: Any) -> list[tuple]:
    """Paths of the entries a learner made (answers, questions, cells): what must survive."""
    out = [("quizzes", q, "answers", a) for q, quiz in data["quizzes"].items() for a in quiz["answers"]]
    out += [("exercises", e, "questions", q) for e, ex in data["exercises"].items() for q in ex["questions"]]
    return out + [("drill", "cells", c) for c in data["drill"]["cells"]]


def _get(data: Any, path: tuple) -> Any:
    for key in path:
        data = data[key]
    return data


def _paths(data: Any, prefix: tuple = ()) -> list[tuple]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _paths(v, (*prefix, i))
    return out


@FUZZ
@given(data=JSON)
def test_any_json_at_all_is_read_without_a_crash_and_one_warning(data: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / progress.FILENAME
        path.write_text(json.dumps(data), encoding="utf-8")
        progress._WARNED.clear()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            record, problems = progress.read(path)
            progress.load(path)
            progress.load(path)  # read again: still one warning for this file
            rows = progress.course_map(record, lessons=[("04", 8)])
        assert {r["kind"] for r in rows} >= {"lesson", "drill", "final"}
        ours = [w for w in caught if issubclass(w.category, progress.ProgressWarning)]
        assert len(ours) == (1 if problems else 0)
        if ours:
            assert str(path) in str(ours[0].message)
        json.dumps(record)  # still plain JSON


@FUZZ
@given(pick=st.integers(min_value=0), value=JSON)
def test_any_type_in_any_field_drops_that_entry_only(pick: int, value: Any) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        old = os.environ.get(progress.PROGRESS_ENV)
        os.environ[progress.PROGRESS_ENV] = str(folder)
        try:
            good = _full_record(folder)
            paths = [p for p in _paths(good) if p]
            target = paths[pick % len(paths)]
            broken = copy.deepcopy(good)
            _get(broken, target[:-1])[target[-1]] = value
            (folder / progress.FILENAME).write_text(json.dumps(broken), encoding="utf-8")
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                record = progress.load()
                progress.course_map(record, lessons=[("04", 8), ("02", 4)])
                progress.report("zh")
            for leaf in _leaves(good):  # every entry off the broken path is kept as it was
                if leaf[:len(target)] != target and target[:len(leaf)] != leaf:
                    assert _get(record, leaf) == _get(good, leaf), leaf
        finally:
            if old is None:
                os.environ.pop(progress.PROGRESS_ENV, None)
            else:
                os.environ[progress.PROGRESS_ENV] = old


@FUZZ
@given(cut=st.integers(min_value=0), junk=st.binary(max_size=16))
def test_a_truncated_file_is_kept_aside_and_never_overwritten(cut: int, junk: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        old = os.environ.get(progress.PROGRESS_ENV)
        os.environ[progress.PROGRESS_ENV] = str(folder)
        try:
            _full_record(folder)
            path = folder / progress.FILENAME
            raw = path.read_bytes()
            damaged = raw[:cut % len(raw)] + junk
            path.write_bytes(damaged)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                _record, problems = progress.read(path)
                progress.record_quiz("04", "banker-6-vs-4", "0", True, 8)  # the next write
            backups = sorted(folder.glob(progress.FILENAME + progress.BACKUP_SUFFIX + "*"))
            if problems:
                assert len(backups) == 1 and backups[0].read_bytes() == damaged  # nothing lost
            else:
                assert backups == []
            assert progress.read(path)[1] == []  # the new file is whole
            assert "banker-6-vs-4" in progress.load()["quizzes"]["04"]["answers"]
        finally:
            if old is None:
                os.environ.pop(progress.PROGRESS_ENV, None)
            else:
                os.environ[progress.PROGRESS_ENV] = old


def test_a_huge_file_is_not_read_past_the_bound(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path))
    path = tmp_path / progress.FILENAME
    with path.open("wb") as fh:  # 2 GB, sparse: reading it whole would take the machine down
        fh.truncate(2 * 10**9)
    with pytest.warns(progress.ProgressWarning, match=str(path)) as caught:
        assert progress.load() == progress.empty()
    assert "2000000000" in str(caught[0].message)
    progress.record_quiz("04", "banker-6-vs-4", "0", True, 8)
    (kept,) = tmp_path.glob(progress.FILENAME + progress.BACKUP_SUFFIX + "*")
    assert kept.stat().st_size == 2 * 10**9 and path.stat().st_size < 10_000
    huge = tmp_path / "huge-number.json"
    huge.write_text('{"schema": 2, "drill": {"t": 1' + "0" * 400 + '}, "final": {"right": 1, "total": 2, "t": 1e999}}',
                    encoding="utf-8")
    with pytest.warns(progress.ProgressWarning, match="drill.t"):
        assert progress.load(huge)["final"] == {"right": 1, "total": 2}
    deep = tmp_path / "deep.json"  # nested past Python's recursion limit
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    with pytest.warns(progress.ProgressWarning, match="JSON"):
        assert progress.load(deep) == progress.empty()


def test_check_the_map_the_final_test_and_import_survive_a_malformed_record(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 30: each of these crashed on a record with a wrong type inside."""
    pytest.importorskip("ipywidgets")
    from baccarat_kit.grading import notebook
    from baccarat_kit.widgets import CourseMap, Drill, FinalTest, Quiz

    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path))
    bad = {"schema": 2, "seed": "x", "quizzes": {"04": {"answers": {"banker-5-vs-8": {"answer": 1, "first_answer": []},
                                                                    "banker-6-vs-4": {"answer": "0", "first_answer": "x"}},
                                                         "total": "eight"}, "05": []},
           "drill": {"cells": {"banker-3-vs-8": {"seen": "2"}, "player-5": {"seen": 1, "fsrs": {"state": 9}}},
                     "step": -4, "coups": [1]},
           "exercises": {"03-banker-rule": {"questions": {"q5": {"score": "3.5", "points": 4}}, "ids": 5}},
           "final": {"right": 20, "total": 12, "missed": {"id": 3}}}
    (tmp_path / progress.FILENAME).write_text(json.dumps(bad), encoding="utf-8")
    with pytest.warns(progress.ProgressWarning) as caught:
        record = progress.load()
        CourseMap(lang="en")
        FinalTest(lang="en")
        Quiz.lesson("04", lang="en")
        Drill(lang="en")
    assert len({str(w.message) for w in caught if issubclass(w.category, progress.ProgressWarning)}) == 1
    assert record["quizzes"]["04"]["answers"]["banker-5-vs-8"]["answer"] == "1"  # a number kept as text
    assert "player-5" in record["drill"]["cells"]  # its bad FSRS card dropped, the counts kept
    assert record["final"]["right"] <= record["final"]["total"]

    class Result:
        id, score, points = "q5", 4.0, 4

    class Exercise:
        max_score = 11
        questions = (Result,)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        notebook._record("03-banker-rule", Exercise, Result)  # what check("q5") does
    assert progress.load()["exercises"]["03-banker-rule"]["questions"]["q5"]["score"] == 4.0
    (kept,) = tmp_path.glob(progress.FILENAME + progress.BACKUP_SUFFIX + "*")
    assert json.loads(kept.read_text(encoding="utf-8")) == bad  # the original, kept whole
    other = tmp_path / "other.json"
    other.write_text('{"schema": 2, "quizzes": {"06": {"answers": {"a": {"answer": "0", "t": "late"}}}}}', encoding="utf-8")
    with pytest.warns(progress.ProgressWarning, match="other.json"):
        assert main(["--lang", "en", "progress", "--import", str(other)]) == 0
    assert "a" in progress.load()["quizzes"]["06"]["answers"]
    assert "Your progress" in capsys.readouterr().out


def test_a_schema_1_record_is_upgraded(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from baccarat_kit import drill

    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path))
    v1 = {"schema": 1, "seed": 7, "quizzes": {}, "exercises": {}, "final": {},
          "drill": {"step": 40, "seed": 7, "cells": {
              "banker-3-vs-8": {"box": 3, "due": 52, "seen": 4, "right": 4, "streak": 4, "fast": 3, "last": "right", "ms": 900},
              "banker-6-vs-6": {"box": 0, "due": 41, "seen": 2, "right": 0, "streak": 0, "fast": 0, "last": "wrong"}}}}
    (tmp_path / progress.FILENAME).write_text(json.dumps(v1), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # an old record is not a malformed one
        record = progress.load()
    cells = record["drill"]["cells"]
    # mastered under the old rule is not evidence under rule 2 (issue 42): its right answers in a
    # row become its BKT history; it is mastered again at a spaced review
    assert cells["banker-3-vs-8"]["seen"] == 4 and cells["banker-3-vs-8"]["h"] == "1111"
    assert not drill.is_mastered(cells["banker-3-vs-8"]) and record["drill"]["mastery"]["rule"] == drill.MASTERY_RULE
    assert "box" not in cells["banker-3-vs-8"] and "fsrs" not in cells["banker-3-vs-8"]
    # both are due now (FSRS starts anew for them): asked before any new cell
    assert drill.choose(cells, 40, seed=7, now=1_800_000_000.0) in cells
    progress.update(lambda r: None)
    assert json.loads((tmp_path / progress.FILENAME).read_text(encoding="utf-8"))["schema"] == progress.SCHEMA


def test_the_trainer_keeps_its_progress_in_the_course_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """One file: ``baccarat-kit trainer`` runs the trainer with ``environment(course)``."""
    monkeypatch.delenv(progress.PROGRESS_ENV, raising=False)
    course = tmp_path / "course"
    (course / "trainer").mkdir(parents=True)
    (course / progress.COURSE_MANIFEST).write_text("{}", encoding="utf-8")
    assert progress.location(course / "trainer") == progress.course_record(course)
    env = progress.environment(course)
    monkeypatch.setenv(progress.PROGRESS_ENV, env[progress.PROGRESS_ENV])
    monkeypatch.chdir(tmp_path)  # wherever the trainer's kernel starts
    progress.record_quiz("trainer", "banker-3-vs-8", "1", True, 5)
    monkeypatch.delenv(progress.PROGRESS_ENV)
    monkeypatch.chdir(course)  # the course map, in the same course
    rows = {r["id"]: r for r in progress.course_map(progress.load(progress.location(course / "notebooks")),
                                                      lessons=[("trainer", 5)])}
    assert rows["trainer"]["answered"] == 1


def test_an_unwritable_record_is_said_once_and_the_widget_goes_on(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A course folder the learner cannot write (a read-only mount; root ignores chmod, so the
    write is refused here by ``save`` itself): the widget's write returns False, and one warning
    names the file and the reason; nothing is raised, nothing else is said."""
    import errno
    import warnings

    from baccarat_kit.i18n import set_language

    def refused(record: object, path: object = None) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path))
    monkeypatch.setattr(progress, "save", refused)
    monkeypatch.setattr(progress, "_WARNED", set())
    set_language("en")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert progress.kept(lambda: progress.record_quiz("04", "q", "1", True, 5)) is False
        assert progress.kept(lambda: progress.record_quiz("04", "q", "0", False, 5)) is False
        assert progress.kept(lambda: None) is True
    said = [str(w.message) for w in caught]
    assert said == [f"Progress not saved: {tmp_path / progress.FILENAME} cannot be written (Permission denied). "
                    "You can go on, but this session's answers are not kept in the record; use a course "
                    "folder you can write to (for example baccarat-kit course ~/baccarat-course)."], said
    assert not (tmp_path / progress.FILENAME).exists()


def test_the_course_map_names_the_trainers_quiz_in_each_editions_own_words(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The trainer's quiz row read "測驗 trainer" in the Chinese edition: an English word where a
    learner reads Chinese. Each row of the map is now its edition's own words (the exercises are
    named by their file, as the file browser shows them)."""
    import re

    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path))
    rows = {r["id"]: r for r in progress.course_map(progress.load())}
    assert "trainer" in rows  # the trainer's quiz has a row of its own
    zh, en = progress.describe(rows["trainer"], "zh"), progress.describe(rows["trainer"], "en")
    assert "補牌訓練器" in zh and "trainer" not in zh.lower()
    assert "trainer" in en.lower() and not re.search(r"[\u3400-\u9fff]", en)
    for row in rows.values():
        text = progress.describe(row, "zh")
        if row["kind"] != "exercise":
            assert not re.search(r"[A-Za-z]", text), text
        assert not re.search(r"[\u3400-\u9fff]", progress.describe(row, "en")), row


def test_merging_two_records_keeps_every_final_attempt_of_both() -> None:
    """Issue 37: the record keeps every final-test attempt; an import (a merge) must not drop the
    older record's attempts when it takes the newer latest result."""
    mine = {**progress.empty(), "final": {"right": 4, "total": 12, "attempt": 1, "t": 1.0,
                                          "attempts": [{"right": 4, "total": 12, "attempt": 1, "t": 1.0}]}}
    old_kit = {**progress.empty(), "final": {"right": 11, "total": 12, "attempt": 2, "t": 2.0}}  # no list yet
    merged = progress.merge(mine, old_kit)
    assert merged["final"]["right"] == 11 and merged["final"]["t"] == 2.0
    assert [a["right"] for a in merged["final"]["attempts"]] == [4, 11]
    assert progress.merge(merged, merged)["final"]["attempts"] == merged["final"]["attempts"]
    row = {r["id"]: r for r in progress.course_map(merged, lessons=[])}["final"]
    # scores kept without their questions and answers: shown, not verified, never ticked
    assert not row["done"] and row["best"] == 11 and row["attempts"] == 2 and row["unverified"] == 2


def test_the_drills_mastery_fields_are_validated(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 42's fields (the record's mastery rule and time; a cell's BKT history, P(known),
    spaced reviews, anchor, suspension): kept when valid, dropped when not; issue 37's rule-1
    fields (fast_days, fast_day) read and left behind."""
    from baccarat_kit import drill

    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path))
    card = {"state": 2, "step": None, "stability": 9.0, "difficulty": 2.0, "due": 1_900_000_000.0,
            "last_review": 1_800_000_000.0}
    good = {"seen": 3, "right": 3, "fast": 1, "slow": 1, "pace": "fast", "last": "right", "h": "111",
            "p_known": 0.97, "spaced": 1, "anchor": 1_800_000_000.0, "first_right": True, "fsrs": card}
    bad = {"seen": 2, "right": 2, "fast": 1, "h": "11x", "p_known": 1.5, "spaced": -1, "suspended": "yes",
           "pace": "quick", "last": "right"}
    old = {"seen": 3, "right": 3, "fast": 3, "fast_days": 2, "fast_day": 20000, "streak": 3, "pace": "fast",
           "last": "right", "fsrs": card, "t": 1_800_000_000.0}
    raw = {"schema": progress.SCHEMA, "seed": 1, "quizzes": {}, "exercises": {}, "final": {},
           "drill": {"step": 5, "mastery": {"rule": 2, "seconds": 3.0},
                     "cells": {"player-1": good, "player-2": bad, "player-3": old}}}
    (tmp_path / progress.FILENAME).write_text(json.dumps(raw), encoding="utf-8")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        record = progress.load()
    cells = record["drill"]["cells"]
    assert {k: cells["player-1"][k] for k in good} == good and drill.is_mastered(cells["player-1"])
    p2 = cells["player-2"]  # the bad values dropped; upgraded as a cell without BKT history
    assert not {"pace", "suspended"} & set(p2) and p2["h"] == "" and p2["spaced"] == 0 and p2["p_known"] < 1
    assert cells["player-3"]["h"] == "111" and "fast_days" not in cells["player-3"]  # upgraded
    assert cells["player-3"]["anchor"] == 1_800_000_000.0 and not drill.is_mastered(cells["player-3"])
    for bad_mastery in ({"rule": 3, "seconds": 3.0}, {"rule": 2, "seconds": 0.1}, "fast"):
        raw["drill"]["mastery"] = bad_mastery
        _, problems = progress.validate(raw)
        assert any(p.startswith("drill.mastery") for p in problems), bad_mastery
    raw["drill"]["mastery"] = {"rule": 2, "seconds": 4.0}  # a course's own time is kept
    assert progress.validate(raw)[0]["drill"]["mastery"] == {"rule": 2, "seconds": 4.0}


def test_the_map_counts_mastered_now_and_names_the_refreshes(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 42: 30 and 180 days after the last answer the map still showed 106 ✔."""
    from baccarat_kit import drill

    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path))
    cells: dict = {}
    start = 1_800_000_000.0
    drill.replay(lambda _c, _s: True, 12 * 60, seconds=2.0, session=60, cells=cells, start=start)
    record = progress.empty()
    record["drill"]["cells"] = cells
    last = start + 11 * drill.DAY
    row = next(r for r in progress.course_map(record, lessons=[], now=last + 3600) if r["kind"] == "drill")
    assert row["right"] == 106 and row["done"] and row["refresh"] == 0
    for gap in (30, 180):
        now = last + gap * drill.DAY
        row = next(r for r in progress.course_map(record, lessons=[], now=now) if r["kind"] == "drill")
        due = drill.due_cells(cells, now)
        assert row["right"] + row["refresh"] == 106 and row["refresh"] == len(due) > 0 and not row["done"]
        text = progress.describe(row, "en")
        assert text.startswith("· Rule drill: ") and f"{row['refresh']} more mastered but due for a refresh" in text
        assert "該溫習" in progress.describe(row, "zh")
    assert row["right"] == 0  # 180 days: every cell due


def test_the_drills_timed_rounds_are_validated_and_old_records_still_load(monkeypatch: pytest.MonkeyPatch,
                                                                          tmp_path: Path) -> None:
    """Issue 37's timed rounds (drill.rounds: count, best, last): kept when valid, a round that is
    not one dropped with a note; a record from before rounds loads with none."""
    monkeypatch.setenv(progress.PROGRESS_ENV, str(tmp_path))
    best = {"size": 20, "right": 19, "wrong": 1, "seconds": 41.5, "over": 2, "missed": 1, "target": 3.0, "t": 5.0}
    raw = {"schema": progress.SCHEMA, "drill": {"step": 5, "cells": {}, "rounds": {
        "count": 3, "best": best, "last": {"size": 20, "right": 25, "seconds": 40.0}}}}
    record, problems = progress.validate(raw)
    assert record["drill"]["rounds"] == {"count": 3, "best": best}
    assert problems == ["drill.rounds.last: 25 right of 20 in 40.0 s is not a round (entry ignored)"]
    record, problems = progress.validate({"schema": progress.SCHEMA, "drill": {"rounds": {
        "count": -1, "best": {"size": "twenty", "right": 1, "seconds": 1.0}}}})
    assert "rounds" not in record["drill"] and len(problems) == 3, problems
    old, problems = progress.validate({"schema": 2, "drill": {"step": 4, "cells": {}}})
    assert "rounds" not in old["drill"] and problems == []
    first = progress.record_round({"size": 20, "right": 15, "wrong": 5, "seconds": 60.0, "over": [], "missed": ["player-5"]})
    second = progress.record_round({"size": 20, "right": 18, "wrong": 2, "seconds": 70.0, "over": ["x"], "missed": []})
    third = progress.record_round({"size": 20, "right": 18, "wrong": 2, "seconds": 75.0, "over": [], "missed": []})
    assert first["best"]["right"] == 15 and second["best"]["right"] == 18
    assert third["count"] == 3 and third["best"]["seconds"] == 70.0 and third["last"]["seconds"] == 75.0
    assert progress.load()["drill"]["rounds"] == third  # and it reads back valid
