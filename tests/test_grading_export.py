"""Gradebook exports: columns, one row per learner for the LMS files, no formula anywhere."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

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
                       "graded_at", "submitted_at", "late", "status", "owner", "sandbox", "claimed_id",
                       "identity_mismatch", "raw_score", "pending_points"]
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


def owned(owner: str, claimed: str, exercise: str, score: float, mismatch: bool = False) -> dict[str, object]:
    r = row(owner, exercise, score)
    r.update(owner=owner, claimed_id=claimed, identity_mismatch=mismatch, file=f"{owner}/{claimed or 'x'}.ipynb")
    return r


def test_lms_files_name_learners_by_owner_never_by_a_claim() -> None:
    """Mallory's second notebook claims alice: it stays mallory's; alice keeps her own grade.
    Two learners with an empty LEARNER_ID are two learners (by owner)."""
    rows = [owned("alice", "alice", "03-banker-rule", 8), owned("mallory", "alice", "03-banker-rule", 0, True),
            owned("mallory", "mallory", "03-banker-rule", 3), owned("hub1", "", "03-banker-rule", 5),
            owned("hub2", "", "03-banker-rule", 6)]
    titles = {"03-banker-rule": "Exercise 3"}
    moodle = parse(moodle_csv(rows, titles))
    assert moodle[1:] == [["alice", "8"], ["hub1", "5"], ["hub2", "6"], ["mallory", "3"]]
    canvas = {r[3]: r[5] for r in parse(canvas_csv(rows, titles))[2:]}
    assert canvas == {"alice": "8", "hub1": "5", "hub2": "6", "mallory": "3"}


CONTROLS = [chr(c) for c in (*range(0x20), 0x7F, *range(0x80, 0xA0)) if chr(c) not in "\t\r\n\v\f"]
"""Every C0 and C1 control and DEL except the breaks that become spaces."""


def test_no_control_character_reaches_any_csv_cell() -> None:
    """A LEARNER_ID (and any other learner text) with ESC, BEL, DEL or C1 controls: every writer
    shows each as ``\\uXXXX`` text, and a formula behind one is still defused."""
    hostile = "s1\x1b]52;c;aGk=\x07\x1b[8m" + "".join(CONTROLS) + "\u202e\u2028"
    r = row(hostile, "03-banker-rule", 4)
    r.update(owner=hostile, claimed_id="\x00=HYPERLINK(1)", file=f"m/{hostile}.ipynb")
    r["questions"]["q1"]["answer"] = "\x1b[2J" + hostile
    titles = {"03-banker-rule": "Exercise 3"}
    files = {"grades.csv": grades_csv([r], {"03-banker-rule": ["q1"]}), "grades-long.csv": long_csv([r]),
             "canvas.csv": canvas_csv([r], titles), "moodle.csv": moodle_csv([r], titles)}
    for name, text in files.items():
        cells = [c for line in parse(text) for c in line]
        assert any("\\u001b]52" in c for c in cells), name
        for c in cells:
            assert c.isprintable() or c == " " * len(c), (name, c)
            assert not any(ch in c for ch in CONTROLS), (name, c)
        assert "\\u0007" in text and "\\u007f" in text and "\\u009b" in text and "\\u202e" in text, name
    wide = parse(files["grades.csv"])
    assert wide[1][wide[0].index("claimed_id")] == "\\u0000=HYPERLINK(1)"  # shown, and no formula (starts with \)
    assert spreadsheet_text("\x1c=1+1") == "\\u001c=1+1" and spreadsheet_text(" \x07") == " \\u0007"
    assert spreadsheet_text("=\x1b") == "'=\\u001b"  # the formula defence still holds


def test_a_graded_folder_and_its_report_show_the_controls_as_text(tmp_path: Path) -> None:
    """Through the real writers: every CSV, results.json's readers (the feedback page, the class
    report) show such an id harmlessly (pages through records.visible)."""
    from baccarat_kit.grading.grade import default_source, load_exercises
    from baccarat_kit.grading.records import CheckResult, QuestionResult, Submission
    from baccarat_kit.grading.report.classreport import write_report
    from baccarat_kit.grading.report.feedback import feedback_html
    from baccarat_kit.grading.sandbox.session import Limits
    from baccarat_kit.grading.term.gradebook import write_outputs

    hostile = "s1\x1b]52;c;aGk=\x07" + "".join(CONTROLS)
    q = QuestionResult("q1", 1, 0, (CheckResult("equals", False, "grading.check.ok", {}),), answer="\x1b[2J" + hostile)
    sub = Submission(f"c/{hostile}/01-card-values.ipynb", "0" * 64, "01-card-values", hostile, "ok",
                     {"zh": "已評分。", "en": "Graded."}, [q], max_score=1, claimed_id=hostile,
                     graded_at="2026-12-02T00:00:00Z")
    write_outputs(tmp_path / "graded", [sub], load_exercises(default_source()), Limits(), "en", page=feedback_html)
    write_report(tmp_path / "graded", tmp_path / "report.html", "en")
    pages = [*sorted((tmp_path / "graded").glob("*.csv")), *(tmp_path / "graded" / "feedback").iterdir(),
             tmp_path / "report.html"]
    assert len(pages) == 6
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert "\\u001b]52" in text and not any(ch in text for ch in CONTROLS), page.name


def test_canvas_carries_the_ids_a_class_list_gives_and_an_update_keeps_them(tmp_path: Path) -> None:
    """Issue 44: Student, ID and SIS User ID from the class list's columns (name, canvas_id,
    sis_user_id, sis_login_id, section), kept in results.json for a regrade; a learner the list
    says nothing more of keeps her learner id as Student and SIS Login ID."""
    from baccarat_kit.grading.term.deadlines import term_deadlines

    listed = tmp_path / "class.csv"
    listed.write_text("learner,deadline,name,canvas_id,sis_user_id,section\n"
                      "alice,,Alice Chen,4711,S001,=HYPERLINK(1)\nbob,,,,,\n", encoding="utf-8")
    given = term_deadlines(None, str(listed))
    kept = term_deadlines(None, None, json.loads(json.dumps(given.record())))  # (as results.json keeps it)
    assert kept.lms == given.lms == {"alice": {"name": "Alice Chen", "canvas_id": "4711", "sis_user_id": "S001",
                                               "section": "=HYPERLINK(1)"}}
    rows = [{"learner": n, "owner": n, "exercise": "01-card-values", "score": 5, "max_score": 7, "status": "ok"}
            for n in ("alice", "bob")]
    canvas = parse(canvas_csv(rows, {"01-card-values": "Exercise 1"}, kept.lms))
    assert canvas[2] == ["Alice Chen", "4711", "S001", "alice", "'=HYPERLINK(1)", "5"]  # (never a formula)
    assert canvas[3] == ["bob", "", "", "bob", "", "5"]
    # Moodle's ID number is the institution's id (sis_user_id) where the list gives one
    assert parse(moodle_csv(rows, {"01-card-values": "Exercise 1"}, kept.lms))[1:] == [["S001", "5"], ["bob", "5"]]


def test_an_untouched_copy_never_counts_over_her_answered_one() -> None:
    """Red team: her answered copy collected at the deadline, then an untouched copy (the course's
    self-study one, or the class copy again) collected later or beside it: the exports, `return`
    and the class report count the answered one, whichever was collected or graded last."""
    from baccarat_kit.grading.term.export import per_learner

    answered = owned("alice", "alice", "03-banker-rule", 6)
    answered.update(submitted_at="2026-12-01T15:00:00Z", graded_at="2026-12-02T00:00:00Z")
    untouched = owned("alice", "", "03-banker-rule", 0)
    untouched.update(status="not_attempted", file="alice/zz-untouched.ipynb",
                     submitted_at="2026-12-03T15:00:00Z", graded_at="2026-12-04T00:00:00Z")
    for rows in ([answered, untouched], [untouched, answered]):
        assert per_learner(rows)[0]["alice"]["03-banker-rule"] is answered
        assert parse(moodle_csv(rows, {"03-banker-rule": "Exercise 3"}))[1] == ["alice", "6"]
    alone = parse(moodle_csv([untouched], {"03-banker-rule": "Exercise 3"}))[1]
    assert alone == ["alice", ""]  # only an untouched copy: blank, never 0


@pytest.mark.parametrize(("column", "rows"), [
    ("canvas_id", "ann,,4711,S1\nben,,4711,S2\n"),
    ("sis_user_id", "ann,,1,s-9\nben,,2,S-9\n"),
    ("learner", "ann,,1,S1\nAnn,2026-12-09T00:00Z,2,S2\n"),
])
def test_a_class_list_giving_one_id_twice_is_refused_naming_it(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                               column: str, rows: str) -> None:
    """Red team: two learners with one canvas_id put both grades on one Canvas user (the LMS files
    took the list as it came); a learner twice had two deadlines, the later silently winning.
    Every command that reads a class list refuses it (exit 2), naming the column, value and lines."""
    from baccarat_kit.cli import main

    listed = tmp_path / "class.csv"
    listed.write_text("learner,deadline,canvas_id,sis_user_id\n" + rows, encoding="utf-8")
    (tmp_path / "home" / "ann").mkdir(parents=True)
    (tmp_path / "home" / "ann" / "01.ipynb").write_text("{}", encoding="utf-8")
    for argv in (["collect", str(tmp_path / "home"), "--out", str(tmp_path / "c"), "--class-list", str(listed)],
                 ["grade", str(tmp_path / "home"), "--out", str(tmp_path / "g"), "--class-list", str(listed)]):
        capsys.readouterr()
        assert main(["--lang", "en", *argv]) == 2
        err = capsys.readouterr().err
        assert f"gives {column} '" in err and "(2, 3)" in err and "Nothing was read" in err
    assert not (tmp_path / "c").exists() and not (tmp_path / "g").exists()


@pytest.mark.parametrize("status", ["kernel_start", "worker_failed", "needs_secret", "other_secret"])
def test_a_row_the_grader_could_not_grade_is_blank_in_the_lms_files_never_0(status: str) -> None:
    """Red team: a kernel that did not start on a loaded machine, or a batch graded without
    --secret-file, gave her a 0 in canvas.csv and moodle.csv: a grade she did not earn."""
    rows = [owned("alice", "alice", "03-banker-rule", 0), owned("bob", "bob", "03-banker-rule", 7)]
    rows[0]["status"] = status
    titles = {"03-banker-rule": "Exercise 3"}
    assert parse(moodle_csv(rows, titles))[1:] == [["alice", ""], ["bob", "7"]]
    assert [r[5] for r in parse(canvas_csv(rows, titles))[2:]] == ["", "7"]


def test_ids_differing_only_in_case_are_one_learner_spelled_as_her_folder() -> None:
    """Red team: a loose file (graded without collect) claiming "ALICE" was a row of its own in the
    LMS files beside alice's collected one (an LMS that matches ids without case takes it as hers);
    two loose files claiming "Bob" and "bob" were two learners."""
    rows = [owned("alice", "alice", "03-banker-rule", 8)]
    loose = [row("ALICE", "03-banker-rule", 0), row("Bob", "03-banker-rule", 3), row("bob", "03-banker-rule", 5)]
    for r, when in zip(loose, ("2030-01-01T00:00:00Z", "2026-12-01T00:00:00Z", "2026-12-02T00:00:00Z"), strict=True):
        r.update(owner=None, claimed_id=r["learner"], submitted_at=when, file=f"loose/{r['learner']}.ipynb")
    rows = [*loose[:1], *rows, *loose[1:]]
    titles = {"03-banker-rule": "Exercise 3"}
    assert parse(moodle_csv(rows, titles))[1:] == [["Bob", "5"], ["alice", "8"]]
    assert [(r[0], r[5]) for r in parse(canvas_csv(rows, titles))[2:]] == [("Bob", "5"), ("alice", "8")]


def test_a_class_list_that_is_not_utf8_is_refused_naming_its_line(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A class list saved as Big5 or Latin-1 was read with replacement characters: 'Zoë' became
    'Zo\ufffd', another learner, and her LMS ids and deadline went with the wrong name, silently."""
    from baccarat_kit.cli import main

    listed = tmp_path / "class.csv"
    listed.write_bytes("learner,deadline,name\nann,,Ann\nzoe,,Zoë Li\n".encode("latin-1"))
    (tmp_path / "home" / "ann").mkdir(parents=True)
    (tmp_path / "home" / "ann" / "01.ipynb").write_text("{}", encoding="utf-8")
    for argv in (["collect", str(tmp_path / "home"), "--out", str(tmp_path / "c"), "--class-list", str(listed)],
                 ["grade", str(tmp_path / "home"), "--out", str(tmp_path / "g"), "--class-list", str(listed)]):
        capsys.readouterr()
        assert main(["--lang", "en", *argv]) == 2
        err = capsys.readouterr().err
        assert "line 3, is not UTF-8 text" in err and "Nothing was read" in err, err
    assert not (tmp_path / "c").exists() and not (tmp_path / "g").exists()
    listed.write_bytes("\ufefflearner,deadline,name\nzoe,,Zoë Li\n".encode("utf-8"))  # Excel's CSV UTF-8
    assert main(["--lang", "en", "collect", str(tmp_path / "home"), "--out", str(tmp_path / "c"),
                 "--class-list", str(listed)]) == 0
