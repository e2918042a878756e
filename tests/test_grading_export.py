"""Gradebook exports: columns, one row per learner for the LMS files, no formula anywhere."""

from __future__ import annotations

import csv
import io

import pytest

from baccarat_kit.grading.term.export import (
    canvas_csv,
    grades_csv,
    long_csv,
    moodle_csv,
    spreadsheet_text,
)


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", " =HYPERLINK(1)", "\t=1", "\n@x", "  -2"])
def test_nothing_a_spreadsheet_would_run(text: str) -> None:
    safe = spreadsheet_text(text)
    assert safe.startswith("'") and "\t" not in safe and "\n" not in safe


def test_ordinary_text_is_left_alone() -> None:
    assert spreadsheet_text("s1234567") == "s1234567" and spreadsheet_text("陳 大文") == "陳 大文"
    assert spreadsheet_text("a\tb\r\nc") == "a b  c"


def row(learner: str, exercise: str, score: float, graded_at: str = "2026-12-02T00:00:00Z") -> dict[str, object]:
    return {"file": f"{learner}/{exercise}.ipynb", "learner": learner, "exercise": exercise, "score": score,
            "max_score": 8, "status": "ok", "graded_at": graded_at, "submitted_at": None, "late": False,
            "questions": {"q1": {"score": score, "points": 8, "answer": "=cmd|' /C calc'!A0",
                                 "misconception": None}}}


ROWS = [row("s1", "03-banker-rule", 8), row("s1", "01-card-values", 2.5), row("=evil()", "03-banker-rule", 1),
        row("s1", "03-banker-rule", 6, "2026-12-01T00:00:00Z"), row("", "03-banker-rule", 0)]


def parse(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_wide_and_long_layouts() -> None:
    wide = parse(grades_csv(ROWS, {"03-banker-rule": ["q1"], "01-card-values": ["q1"]}))
    assert wide[0] == ["file", "learner", "score", "max_score", "01-card-values:q1", "03-banker-rule:q1",
                       "graded_at", "submitted_at", "late", "status", "owner", "sandbox"]
    assert len(wide) == 1 + len(ROWS) and wide[3][1] == "'=evil()"
    long = parse(long_csv(ROWS))
    assert long[0][:3] == ["learner", "exercise", "question"] and len(long) == 1 + len(ROWS)
    assert all(r[6].startswith("'=") for r in long[1:])  # the answer column is safe too


def test_lms_files_have_one_row_per_learner_with_the_latest_grade() -> None:
    titles = {"03-banker-rule": "Exercise 3", "01-card-values": "Exercise 1"}
    canvas = parse(canvas_csv(ROWS, titles))
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Exercise 1", "Exercise 3"]
    assert canvas[1] == ["Points Possible", "", "", "", "", "8", "8"]
    by_id = {r[3]: r for r in canvas[2:]}
    assert by_id["s1"][5:] == ["2.5", "8"]  # the later grade of the two 03 rows
    assert "'=evil()" in by_id and "" not in by_id  # a row without a learner id is left out
    moodle = parse(moodle_csv(ROWS, titles))
    assert moodle[0] == ["ID number", "Exercise 1", "Exercise 3"]
    assert ["s1", "2.5", "8"] in moodle
