"""Written answers scored by hand (issue 35): the question kind and its rubric, release, the
reader, the merge into the gradebook's rows, the CSV round-trip with its errors, manual.json, and
the page's server (token, host, escaping). The whole term in a browser is
``tests/browser/test_manual_grading.py``."""

from __future__ import annotations

import copy
import csv
import io
import json
import threading
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.grading.judge.checks import Exercise, Question, SpecError, public_metadata
from baccarat_kit.grading.judge.written import answer_cells, answer_digest, written_result
from baccarat_kit.grading.records import Submission
from baccarat_kit.grading.report.feedback import feedback_html
from baccarat_kit.grading.sandbox.reader import MAX_WRITTEN_CHARS, written_answers
from baccarat_kit.grading.term import manual
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.grading.term.release import ReleaseError, edition, release_notebook

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "exercises" / "source" / "03-banker-rule.ipynb"
RUBRIC = [{"id": "a", "points": 1, "zh": "甲", "en": "A"}, {"id": "b", "points": 2, "zh": "乙", "en": "B"}]
HOSTILE = "<script>document.title='x'</script><img src=x onerror=alert(1)>\n=1+1\x1b]52;c;aGk=\x07"


def source() -> dict[str, Any]:
    return read_source(SOURCE)


# ---------------------------------------------------------------- the question and its rubric
def test_a_written_question_reads_its_rubric() -> None:
    q = Question.from_dict({"id": "q9", "kind": "written", "points": 3, "rubric": RUBRIC})
    assert (q.kind, q.answer, q.points, [c["points"] for c in q.rubric]) == ("written", "q9", 3, [1, 2])


@pytest.mark.parametrize(("bad", "says"), [
    ({"points": 4}, "adds up to 3 points but the question is worth 4"),
    ({"rubric": [{"id": "a", "points": 1, "zh": "甲"}]}, "needs its text in Chinese (zh) and English (en)"),
    ({"rubric": [RUBRIC[0], RUBRIC[0]]}, "rubric id 'a' cannot be used"),
    ({"rubric": [{"id": "a", "points": 0, "zh": "甲", "en": "A"}]}, "points 0 is not a positive whole number"),
    ({"rubric": "a b"}, "each rubric criterion is"),
    ({"points": True}, "points True is not a positive whole number"),
])
def test_a_bad_rubric_is_refused_naming_the_question(bad: dict[str, Any], says: str) -> None:
    data = {"id": "q9", "kind": "written", "points": 3, "rubric": RUBRIC, **bad}
    with pytest.raises(SpecError) as err:
        Question.from_dict(data, "03.ipynb")
    assert "03.ipynb, q9" in err.value.message("en") and says in err.value.message("en")


def test_the_source_has_q9_with_a_rubric_citing_source_000_in_both_languages() -> None:
    ex = Exercise.from_metadata(source()["metadata"]["baccarat_kit"], "03")
    q9 = ex.question("q9")
    assert q9.kind == "written" and q9.points == sum(c["points"] for c in q9.rubric) == 3
    for c in q9.rubric:
        assert "000" in c["zh"] and "000" in c["en"]
    assert answer_cells(source())["q9"].strip()  # the model answer, in the source only


# ---------------------------------------------------------------- release
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_release_removes_the_rubric_and_the_model_answer(lang: str) -> None:
    nb = source()
    model = answer_cells(edition(nb, lang))["q9"]
    copy_ = release_notebook(edition(nb, lang), str(SOURCE), "class", lang)
    q9 = next(q for q in copy_["metadata"]["baccarat_kit"]["questions"] if q["id"] == "q9")
    assert "rubric" not in q9 and "key" not in q9
    text = json.dumps(copy_, ensure_ascii=False)
    assert model.split("\n")[0] not in text and "0～5 補" not in text
    assert answer_cells(copy_)["q9"] == {"zh": "（在這裡用你自己的話寫答案）",
                                         "en": "(Write your answer here, in your own words.)"}[lang]
    # the copy's metadata is a learner copy's: its written question parses without a rubric
    assert Exercise.from_metadata(copy_["metadata"]["baccarat_kit"], "copy").question("q9").rubric == ()


def test_release_refuses_a_written_question_without_its_answer_cell() -> None:
    nb = source()
    for cell in nb["cells"]:
        cell.get("metadata", {}).pop("baccarat_kit", None)
    with pytest.raises(ReleaseError) as err:
        release_notebook(nb, "03.ipynb")
    assert "q9" in err.value.message("en") and '"written": "q9"' in err.value.message("en")


def test_public_metadata_drops_only_the_rubric_and_the_graders_text() -> None:
    meta = source()["metadata"]["baccarat_kit"]
    out = public_metadata(meta)
    before = next(q for q in meta["questions"] if q["id"] == "q9")
    after = next(q for q in out["questions"] if q["id"] == "q9")
    assert after == {k: v for k, v in before.items() if k not in ("rubric", "text")}


# ---------------------------------------------------------------- reading her answer
def test_the_reader_takes_marked_markdown_cells_as_bounded_text() -> None:
    def cell(mark: Any, src: Any, kind: str = "markdown") -> dict[str, Any]:
        return {"cell_type": kind, "metadata": {"baccarat_kit": {"written": mark}}, "source": src}

    nb = {"cells": [cell("q9", ["a", "b"]), cell("q9", "second, ignored"), cell("q8", "code", "code"),
                    cell(["q7"], "not a mark"), cell("x" * 41, "too long a mark"), cell("q6", 5),
                    cell("q5", "y" * (MAX_WRITTEN_CHARS + 10)), {"cell_type": "markdown", "metadata": "?"}]}
    got = written_answers(nb)
    assert got == {"q9": "ab", "q6": "", "q5": "y" * MAX_WRITTEN_CHARS}


def test_a_written_result_is_pending_and_keeps_the_text() -> None:
    q = Question.from_dict({"id": "q9", "kind": "written", "points": 3, "rubric": [
        {"id": "a", "points": 3, "zh": "甲", "en": "A"}]})
    r = written_result(q, HOSTILE)
    assert r.pending and r.score == 0 and not r.passed and r.written and r.written["text"] == HOSTILE.strip()
    placeholder = written_result(q, "(Write your answer here, in your own words.)").written
    assert placeholder is not None and placeholder["text"] == ""
    empty = written_result(q, "（在這裡用你自己的話寫答案）")
    assert empty.written is not None and empty.written["text"] == "" and "empty" in empty.message("en")
    sub = Submission("f.ipynb", "", "03", "ann", "ok", {}, [r], 3)
    row = sub.to_json()
    assert row["pending_points"] == 3 and row["questions"]["q9"]["pending"] is True
    assert row["questions"]["q9"]["written"] == HOSTILE.strip() and row["questions"]["q9"]["manual"] is None


# ---------------------------------------------------------------- merging the scores
def _row(learner: str = "ann", text: str = "Because the player stood.", **extra: Any) -> dict[str, Any]:
    q = Question.from_dict({"id": "q9", "kind": "written", "points": 3, "rubric": [
        {"id": "a", "points": 3, "zh": "甲", "en": "A"}]})
    auto = {"score": 8, "points": 8, "passed": True, "message": {"zh": "", "en": ""}, "checks": []}
    row = Submission(f"{learner}.ipynb", "", "03-banker-rule", learner, "ok", {}, [written_result(q, text)],
                     11, owner=learner).to_json()
    row["questions"] = {"q1": auto, **row["questions"]}
    row.update(score=8, raw_score=8, **extra)
    return row


def _marks(*pairs: tuple[str, Any], loose: bool = False) -> dict[str, manual.Mark]:
    """Marks given to "Because the player stood." of each learner: in her folder (the rows of
    :func:`_row`), or (``loose``) in a file graded without collect, ``<learner>.ipynb``."""
    out: dict[str, manual.Mark] = {}
    for learner, score in pairs:
        mark = manual.Mark(learner, "03-banker-rule", "q9", score, "ok", answer_digest("Because the player stood."),
                           "t", owner=None if loose else learner, file=f"{learner}.ipynb")
        out[mark.key] = mark
    return out


def test_apply_merges_scores_keeps_pending_and_a_changed_answer_is_pending_again() -> None:
    rows = [_row("ann"), _row("ben"), _row("cai", "Another text now.")]
    merged = {r["learner"]: r for r in manual.apply(rows, _marks(("ann", 2), ("cai", 3)))}
    assert (merged["ann"]["score"], merged["ann"]["pending_points"]) == (10, 0)
    assert merged["ann"]["questions"]["q9"]["manual"] == {"score": 2, "comment": "ok", "graded_at": "t"}
    assert (merged["ben"]["score"], merged["ben"]["pending_points"]) == (8, 3)
    assert merged["ben"]["questions"]["q9"]["pending"] is True and merged["ben"]["questions"]["q9"]["earlier"] is None
    # cai's answer changed since it was scored: pending again, the earlier mark beside it
    cai = merged["cai"]["questions"]["q9"]
    assert (merged["cai"]["score"], merged["cai"]["pending_points"]) == (8, 3)
    assert cai["pending"] is True and cai["manual"] is None and cai["earlier"]["score"] == 3
    assert "changed since it was scored" in cai["message"]["en"]
    # idempotent, and a score removed is pending again
    again = manual.apply(manual.apply(rows, _marks(("ann", 2))), {})
    assert all(r["pending_points"] == 3 and r["score"] == 8 for r in again)


def test_apply_keeps_the_late_penalty_of_the_row() -> None:
    late = _row("dan", late=True, late_policy="10%/day", submitted_at="2026-12-01T16:59:00Z",
                deadline="2026-12-01T15:59:00Z")
    done = manual.apply([late], _marks(("dan", 3)))[0]
    assert done["raw_score"] == 11 and done["score"] == pytest.approx(9.9)


def test_exports_say_pending_and_leave_the_lms_cell_blank_until_scored() -> None:
    from baccarat_kit.grading.term import export

    rows = manual.apply([_row("ann"), _row("ben")], _marks(("ann", 2)))
    long = list(csv.DictReader(io.StringIO(export.long_csv(rows))))
    q9 = {r["learner"]: r for r in long if r["question"] == "q9"}
    assert q9["ben"]["score"] == "pending" and q9["ann"]["score"] == "2" and q9["ann"]["comment"] == "ok"
    wide = list(csv.DictReader(io.StringIO(export.grades_csv(rows, {"03-banker-rule": ["q1", "q9"]}))))
    assert [(r["learner"], r["03-banker-rule:q9"], r["pending_points"]) for r in wide] == [
        ("ann", "2", "0"), ("ben", "pending", "3")]
    moodle = list(csv.reader(io.StringIO(export.moodle_csv(rows, {}))))
    assert moodle[1:] == [["ann", "10"], ["ben", ""]]


def test_the_feedback_page_shows_her_text_escaped_and_the_comment() -> None:
    mark = manual.Mark("ann", "03-banker-rule", "q9", 1, "<b>see</b> (a)", answer_digest(HOSTILE.strip()), "t",
                       owner="ann")
    row = manual.apply([_row("ann", HOSTILE)], {mark.key: mark})[0]
    exercises = {"03-banker-rule": Exercise.from_metadata(source()["metadata"]["baccarat_kit"], "03")}
    html = feedback_html(row, exercises, "en")
    assert "<script>document" not in html and "<img" not in html and "<b>see" not in html
    assert "&lt;script&gt;document.title" in html and "&lt;b&gt;see&lt;/b&gt; (a)" in html
    assert "\\u001b]52" in html and "\x1b" not in html
    assert "Scored by hand: 1 / 3." in html and "changed after it was scored" not in html
    # her answer changed since: pending on her page, the earlier score and its comment not shown
    changed = manual.apply([_row("ann", "A new text.")], {mark.key: mark})[0]
    html = feedback_html(changed, exercises, "en")
    assert "changed after it was scored" in html and "Pending: your instructor scores" in html
    assert "see" not in html and "1 / 3" not in html and "8 of 11 points graded; 3 pending" in html
    pending = feedback_html(_row("ben"), exercises, "en")
    assert "8 of 11 points graded; 3 pending" in pending and "Pending: your instructor scores" in pending


# ---------------------------------------------------------------- the CSV round-trip
def _csv(rows: list[dict[str, str]]) -> bytes:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
    writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue().encode("utf-8")


def test_export_then_import_round_trips_and_keeps_her_text_safe() -> None:
    rows = [_row("ann", HOSTILE), _row("ben")]
    marks = _marks(("ben", 1.5))
    text = manual.export_csv(rows, marks)
    table = list(csv.DictReader(io.StringIO(text)))
    assert [r["learner"] for r in table] == ["ann", "ben"]
    assert table[0]["answer"].startswith("<script>") and "\n" not in table[0]["answer"]
    assert "\x1b" not in text and "\\u001b" in text
    assert table[1]["score"] == "1.5" and table[0]["score"] == ""
    table[0]["score"], table[0]["comment"] = "2.25", "(a), half of (b)"
    got = manual.import_csv(_csv(table), rows, {}, "s.csv")
    assert {m.learner: (m.score, m.comment) for m in got.values()} == {"ann": (2.25, "(a), half of (b)"),
                                                                       "ben": (1.5, "ok")}
    ann = next(m for m in got.values() if m.learner == "ann")
    assert (ann.answer_sha256, ann.owner, ann.file) == (answer_digest(HOSTILE.strip()), "ann", "ann.ipynb")
    # saved again by a spreadsheet whose locale writes ";" between columns (a decimal comma):
    # every column was "missing"; the same scores are taken
    buf = io.StringIO()
    semi = csv.DictWriter(buf, fieldnames=list(table[0]), delimiter=";")
    semi.writeheader()
    semi.writerows(table)
    assert manual.import_csv(buf.getvalue().encode("utf-8"), rows, {}, "s.csv") == got
    # and its decimal comma: "2,25" is 2.25 there (in a comma-separated file it stays refused)
    text = buf.getvalue().replace(";2.25;", ";2,25;")
    assert ";2,25;" in text and manual.import_csv(text.encode("utf-8"), rows, {}, "s.csv") == got


@pytest.mark.parametrize(("change", "says"), [
    ({"score": "4"}, "s.csv, row 2, column score: 4 is more than this question's 3 points (give 0 to 3"),
    ({"score": "-1"}, "s.csv, row 2, column score: score -1 cannot be used: give a number from 0 to 3"),
    ({"score": "two"}, "row 2, column score: score two cannot be used"),
    ({"score": "1.255"}, "row 2, column score: score 1.255 cannot be used"),
    ({"score": "nan"}, "row 2, column score: score nan cannot be used"),
    ({"learner": "zed", "score": "1"}, "row 2, column learner: zed is not among the written answers of this "
                                       "gradebook (valid: ann, ben)"),
    ({"exercise": "09-x", "score": "1"}, "row 2, column exercise: 09-x is not among"),
    ({"question": "q1", "score": "1"}, "row 2, column question: q1 is not among the written answers of this "
                                       "gradebook (valid: q9)"),
    ({"score": "", "comment": "good"}, "row 2, column score: a comment without a score"),
])
def test_a_bad_row_is_refused_naming_row_and_column_and_nothing_is_taken(change: dict[str, str], says: str) -> None:
    rows = [_row("ann"), _row("ben")]
    table = list(csv.DictReader(io.StringIO(manual.export_csv(rows, {}))))
    table[1]["score"] = "3"  # a good row: not taken either
    table[0].update(change)
    with pytest.raises(manual.ManualError) as err:
        manual.import_csv(_csv(table), rows, {}, "s.csv")
    assert says in err.value.message("en"), err.value.message("en")
    assert "no score was taken" in err.value.message("en")


SHA = answer_digest("Because the player stood.")


def test_csv_errors_of_the_whole_file() -> None:
    rows = [_row("ann")]
    with pytest.raises(manual.ManualError, match="has no column score"):
        manual.import_csv(b"learner,exercise,question,answer_sha256\nann,03-banker-rule,q9,x\n", rows, {}, "s.csv")
    with pytest.raises(manual.ManualError, match="is not UTF-8"):
        manual.import_csv("learner,score\n".encode("utf-16"), rows, {}, "s.csv")
    twice = f"learner,exercise,question,score,answer_sha256\nann,03-banker-rule,q9,1,{SHA}\nANN,03-banker-rule,q9,2,{SHA}\n"
    with pytest.raises(manual.ManualError) as err:
        manual.import_csv(twice.encode(), rows, {}, "s.csv")
    assert "s.csv, row 3: the same answer was already scored in row 2" in err.value.message("en")
    # an Excel BOM and a formula-guarded id are read back
    ok = manual.import_csv(f"\ufefflearner,exercise,question,score,answer_sha256\nann,03-banker-rule,q9,1,{SHA}\n"
                           .encode(), rows, {}, "s")
    assert [m.score for m in ok.values()] == [1]


def test_import_csv_needs_the_answers_digest_and_refuses_a_changed_answer_naming_it() -> None:
    """Before: a CSV without answer_sha256 marked whatever answer the gradebook now held as scored;
    a score typed against an answer that changed since the export was taken for the new one."""
    rows = [_row("ann"), _row("ben")]
    with pytest.raises(manual.ManualError) as err:
        manual.import_csv(b"learner,exercise,question,score\nann,03-banker-rule,q9,1\n", rows, {}, "s.csv")
    assert "s.csv has no column answer_sha256" in err.value.message("en")
    table = list(csv.DictReader(io.StringIO(manual.export_csv(rows, {}))))
    table[0]["score"], table[1]["score"] = "2", "3"
    exported = _csv(table)
    regraded = [_row("ann", "Ann rewrote it."), _row("ben")]  # ann's answer changed after the export
    with pytest.raises(manual.ManualError) as err:
        manual.import_csv(exported, regraded, {}, "s.csv")
    said = err.value.message("en")
    assert "s.csv, row 2, column answer_sha256: the answer of ann 03-banker-rule q9 is not the one exported" in said
    assert "row 3" not in said and "no score was taken" in said
    table[1]["answer_sha256"] = ""  # a digest left out is no digest
    with pytest.raises(manual.ManualError, match="row 3, column answer_sha256"):
        manual.import_csv(_csv(table), rows, {}, "s.csv")
    # exported again: ann's row has no score (pending), the score her earlier answer had beside it
    marks = manual.import_csv(exported, rows, {}, "s.csv")
    again = list(csv.DictReader(io.StringIO(manual.export_csv(regraded, marks))))
    assert [(r["learner"], r["score"], r["earlier_score"]) for r in again] == [("ann", "", "2"), ("ben", "3", "")]
    assert manual.import_csv(_csv(again), regraded, marks, "s.csv") == marks  # nothing changed, nothing refused


# ---------------------------------------------------------------- manual.json
def test_manual_json_is_written_atomically_and_a_foreign_file_is_refused(tmp_path: Path) -> None:
    marks = _marks(("ann", 2))
    manual.save(tmp_path, marks)
    assert manual.load(tmp_path) == marks
    assert sorted(p.name for p in tmp_path.iterdir()) == ["manual.json"]  # no temporary file left
    assert (tmp_path / "manual.json").stat().st_mode & 0o777 == 0o600
    (tmp_path / "manual.json").write_text('{"scores": []}', encoding="utf-8")
    with pytest.raises(manual.ManualError, match="not a file of hand scores"):
        manual.load(tmp_path)
    other = tmp_path / "other"
    other.mkdir()
    (other / "target").write_text("instructor's", encoding="utf-8")
    (other / "manual.json").symlink_to(other / "target")
    with pytest.raises(manual.ManualError):
        manual.save(other, marks)
    assert (other / "target").read_text(encoding="utf-8") == "instructor's"


def test_set_mark_checks_the_score_and_an_empty_score_clears_it() -> None:
    answer = manual.Answer("ann", "03-banker-rule", "q9", 3, "text", "h", "f", "ann")
    marks = manual.set_mark({}, answer, "2.5", " (a)(b) ")
    assert marks[answer.key].score == 2.5 and marks[answer.key].comment == "(a)(b)"
    with pytest.raises(manual.ManualError, match="more than this question's 3 points"):
        manual.set_mark(marks, answer, 7, "")
    with pytest.raises(manual.ManualError, match="at most 4000 characters"):
        manual.set_mark(marks, answer, 1, "x" * 4001)
    assert manual.set_mark(marks, answer, "", "") == {}


# ---------------------------------------------------------------- the page's server
def write_book(folder: Path, rows: list[dict[str, Any]]) -> Path:
    """A gradebook folder as ``grade`` leaves it, of these rows (each its own feedback page)."""
    from baccarat_kit.grading.term.gradebook import MARKER, results_bytes

    (folder / "feedback").mkdir(parents=True, exist_ok=True)
    taken: set[str] = set()
    for n, r in enumerate(rows):
        name = r["feedback"] if r.get("feedback") != "feedback/.html" else f"feedback/{r['learner']}--03-banker-rule.html"
        r["feedback"] = name if name not in taken else f"feedback/{r['learner']}-{n}--03-banker-rule.html"
        taken.add(r["feedback"])
        (folder / r["feedback"]).write_text("?", encoding="utf-8")
    results, index = results_bytes({"schema_version": 6, "submissions": rows, "skipped": []})
    (folder / "results.json").write_bytes(results)
    (folder / "results.index.json").write_bytes(index)
    files = ["results.json", "results.index.json", "grades.csv", "grades-long.csv", "canvas.csv", "moodle.csv",
             *(r["feedback"] for r in rows)]
    (folder / MARKER).write_text(json.dumps({"files": files}), encoding="utf-8")
    return folder


def exercises_03() -> dict[str, Exercise]:
    return {"03-banker-rule": Exercise.from_metadata(source()["metadata"]["baccarat_kit"], "03")}


@pytest.fixture
def gradebook(tmp_path: Path) -> Path:
    folder = write_book(tmp_path / "graded", [_row("ann", HOSTILE), _row("ben")])
    (folder / "notes.txt").write_text("mine", encoding="utf-8")
    return folder


def test_a_changed_answer_is_pending_again_everywhere_and_blank_in_the_lms_files(tmp_path: Path) -> None:
    """Before: hana's empty answer was scored 0; she wrote an answer and was collected again; her
    old 0 stayed (flagged "answer changed") and canvas.csv / moodle.csv gave her 8 as final."""
    from baccarat_kit.grading.grade_manual import publish
    from baccarat_kit.grading.grade_manual.page import Session

    hana = _row("hana", "")
    folder = write_book(tmp_path / "graded", [hana, _row("ivy")])
    page = Session(folder, exercises_03(), "en")
    assert page.progress() == "0 of 2 scored"
    marks: dict[str, manual.Mark] = {}
    for a in manual.answers([hana, _row("ivy")]):
        marks = manual.set_mark(marks, a, "0" if a.learner == "hana" else "3", "empty" if a.learner == "hana" else "")
    manual.save(folder, marks)
    doc = publish.publish(folder, exercises_03(), "en")
    assert [r["score"] for r in doc["submissions"]] == [8, 11]
    assert Session(folder, exercises_03(), "en").progress() == "2 of 2 scored"

    # collected again: her new text (same folder, a later collect's file)
    rows = json.loads((folder / "results.json").read_text(encoding="utf-8"))["submissions"]
    again = _row("hana", "Because the player stood, the banker stands on 6.")
    again["file"], again["feedback"] = "w2/hana/03-banker-rule.ipynb", rows[0]["feedback"]
    write_book(folder, [again, rows[1]])
    doc = publish.publish(folder, exercises_03(), "en")
    hana_row = doc["submissions"][0]
    q9 = hana_row["questions"]["q9"]
    assert (q9["pending"], q9["manual"], q9["earlier"]["score"], hana_row["pending_points"]) == (True, None, 0, 3)
    saved = json.loads((folder / "results.json").read_text(encoding="utf-8"))["submissions"][0]
    assert saved["pending_points"] == 3 and saved["questions"]["q9"]["pending"] is True
    canvas = {r[0]: r[5] for r in csv.reader(io.StringIO((folder / "canvas.csv").read_text(encoding="utf-8")))}
    moodle = dict(csv.reader(io.StringIO((folder / "moodle.csv").read_text(encoding="utf-8"))))
    assert (canvas["hana"], moodle["hana"]) == ("", "") and (canvas["ivy"], moodle["ivy"]) == ("11", "11")
    wide = {r["learner"]: r for r in csv.DictReader(io.StringIO((folder / "grades.csv").read_text(encoding="utf-8")))}
    assert wide["hana"]["03-banker-rule:q9"] == "pending" and wide["hana"]["pending_points"] == "3"
    long = {r["learner"]: r for r in csv.DictReader(io.StringIO((folder / "grades-long.csv").read_text(encoding="utf-8")))
            if r["question"] == "q9"}
    assert (long["hana"]["score"], long["hana"]["answer_changed"]) == ("pending", "true")
    html = (folder / hana_row["feedback"]).read_text(encoding="utf-8")
    assert "changed after it was scored" in html and "8 of 11 points graded; 3 pending" in html
    assert "empty" not in html.split("Your answer", 1)[1]  # the earlier answer's comment is not hers now
    # the page: pending again, counted so, the earlier score beside it; scored again, done
    page = Session(folder, exercises_03(), "en")
    assert page.progress() == "1 of 2 scored"
    item = next(page.item(i, manual.load(folder)) for i, a in enumerate(page.answers) if a.learner == "hana")
    assert item["score"] is None and item["earlier"] == {"score": 0, "comment": "empty"}
    out = page.save({"id": item["id"], "sha256": item["sha256"], "score": "2", "comment": "(a) and (b)"})
    assert out["score"] == 2 and out["earlier"] is None and page.progress() == "2 of 2 scored"
    canvas = {r[0]: r[5] for r in csv.reader(io.StringIO((folder / "canvas.csv").read_text(encoding="utf-8")))}
    assert canvas["hana"] == "10"


def _request(url: str, data: bytes | None = None, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    req = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as err:
        return err.code, err.read()


def test_the_page_needs_its_token_and_host_and_escapes_every_answer(gradebook: Path) -> None:
    from baccarat_kit.grading.grade_manual.page import Session, serve

    exercises = {"03-banker-rule": Exercise.from_metadata(source()["metadata"]["baccarat_kit"], "03")}
    session = Session(gradebook, exercises, "en")
    server, url = serve(session)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = url.split("/?")[0]
    try:
        assert _request(base + "/")[0] == 403
        assert _request(base + "/?token=wrong")[0] == 403
        assert _request(url.replace("127.0.0.1", "localhost"))[0] == 200
        assert _request(url, headers={"Host": "evil.example:80"})[0] == 403
        code, page = _request(url)
        html = page.decode("utf-8")
        assert code == 200 and "<script>document" not in html and "<img" not in html
        assert "\\u003cscript\\u003edocument.title" in html  # the answer is JSON data, put in by textContent
        assert "Keys: j / k next / previous answer" in html and "built-in method" not in html
        ann_sha = answer_digest(HOSTILE.strip())
        body = json.dumps({"id": 0, "sha256": ann_sha, "score": "2", "comment": "(a)"}).encode()
        json_headers = {"Content-Type": "application/json"}
        assert _request(base + "/save", body, json_headers)[0] == 403  # no token
        assert _request(base + "/save", body, {**json_headers, "X-Manual-Token": "x"})[0] == 403
        token = {**json_headers, "X-Manual-Token": session.token}
        code, out = _request(base + "/save", json.dumps({"id": 0, "sha256": ann_sha, "score": "9"}).encode(), token)
        assert code == 400 and "9 is more than this question's 3 points" in json.loads(out)["error"]
        code, out = _request(base + "/save", json.dumps({"id": 7, "score": "1"}).encode(), token)
        assert code == 400
        # a save names the answer's text: another digest (ben's, none) is refused, nothing kept
        for other in (SHA, None):
            code, out = _request(base + "/save", json.dumps({"id": 0, "sha256": other, "score": "1"}).encode(), token)
            assert code == 400 and "not the one the page was opened with" in json.loads(out)["error"]
        assert not (gradebook / "manual.json").exists()
        code, out = _request(base + "/save", body, token)
        assert code == 200 and json.loads(out)["item"]["score"] == 2
    finally:
        server.shutdown()
        server.server_close()
    doc = json.loads((gradebook / "results.json").read_text(encoding="utf-8"))
    ann = next(r for r in doc["submissions"] if r["learner"] == "ann")
    assert ann["score"] == 10 and ann["questions"]["q9"]["manual"]["comment"] == "(a)"
    assert (gradebook / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert "&lt;script&gt;" in (gradebook / "feedback" / "ann--03-banker-rule.html").read_text(encoding="utf-8")
    assert "ann,,,ann,,10" in (gradebook / "canvas.csv").read_text(encoding="utf-8")
    assert not any(p.name.endswith(".tmp") for p in gradebook.iterdir())


def test_anonymous_sends_no_learner_name(gradebook: Path) -> None:
    from baccarat_kit.grading.grade_manual.page import Session, page_html

    exercises = {"03-banker-rule": Exercise.from_metadata(source()["metadata"]["baccarat_kit"], "03")}
    session = Session(gradebook, exercises, "en", anonymous=True)
    html, csp = page_html(session)
    data = html.split('id="data">', 1)[1].split("</script>", 1)[0]
    assert "ann" not in data and "ben" not in data and '"who": "#' in data
    assert "script-src 'sha256-" in csp and "connect-src 'self'" in csp and "unsafe-eval" not in csp
    for i, a in enumerate(session.answers):  # nor does a refused save name her (it said "ann 03-banker-rule q9: …")
        for body in ({"id": i, "sha256": a.sha256, "score": "7"}, {"id": i, "sha256": "?", "score": "1"}):
            with pytest.raises(manual.ManualError) as err:
                session.save(body)
            assert a.learner not in err.value.message("en"), err.value.message("en")


def test_a_deep_copy_of_rows_is_not_changed_by_apply() -> None:
    rows = [_row("ann")]
    before = copy.deepcopy(rows)
    manual.apply(rows, _marks(("ann", 3)))
    assert rows == before


def test_check_says_a_written_answer_is_scored_by_hand(tmp_path: Path) -> None:
    from baccarat_kit.grading.notebook import Checker

    for edition_name in ("class", "self-study"):
        folder = tmp_path / edition_name
        folder.mkdir()
        copy_ = release_notebook(edition(source(), "en"), str(SOURCE), edition_name, "en")
        (folder / "03-banker-rule.ipynb").write_text(json.dumps(copy_), encoding="utf-8")
        said = Checker("03-banker-rule", folder=folder)("q9", lang="en", namespace={}).text
        assert said.startswith("✍ q9: a written answer, its cell is still empty") and "(3 points)" in said
        assert ("score yourself against this rubric" in said) == (edition_name == "self-study")
        for cell in copy_["cells"]:
            if (cell.get("metadata", {}).get("baccarat_kit") or {}).get("written") == "q9":
                cell["source"] = "Because the player stood."
        (folder / "03-banker-rule.ipynb").write_text(json.dumps(copy_), encoding="utf-8")
        said = Checker("03-banker-rule", folder=folder)("q9", lang="en", namespace={}).text
        assert "25 characters written (as last saved)" in said and "nothing is judged here" in said
