"""The learner's progress record: where it lives, what it holds, the course map, export/import."""

from __future__ import annotations

import json
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
