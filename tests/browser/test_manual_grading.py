"""Written answers scored by hand in Chromium, by keyboard (issues 35 and 43).

A class of four, end to end: each hands in exercise 03 with a written answer to q9 (one in
Markdown, one that is HTML and script, one left empty, one plain); ``collect`` takes them, ``grade``
grades them in the sandbox (q9 pending), the instructor scores every answer on the ``grade-manual``
page with the documented keys, exports the scores, returns the feedback, and then ``grade
--update`` keeps every score and comment of everyone, while the one learner whose answer changed
is pending again (blank in the LMS files) until scored again.

A class of nine typed at speed: every save is held back (Playwright's route interception) while
the next answers' keys are typed, so each key is typed before the save before it returns; every
score and comment must be found on the answer it was typed for.
"""

from __future__ import annotations

import csv
import io
import json
import re
import threading
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.term.authoring import read_source

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<script>document.title='pwned'</script><img src=x onerror=\"document.title='img'\">"
ANSWERS = {
    "ann": "閒家 6 點停牌，沒有第三張；莊家只看自己的點數，6 點停。\n**粗體**也只是文字。",
    "ben": HOSTILE,
    "cai": "",
    "dan": "The player stood, so the banker stands on 6; a banker 6 draws on a player third card of 6 or 7.",
}
SCORES = {"ann": ("2", "(a) and (b); (c) is missing."), "ben": ("0", "No explanation: HTML only."),
          "cai": ("0", "Empty."), "dan": ("3", "All three.")}


def _notebook(learner: str, text: str) -> str:
    nb = read_source(ROOT / "exercises" / "source" / "03-banker-rule.ipynb")
    for cell in nb["cells"]:
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        if cell["cell_type"] == "code":
            cell["source"] = re.sub(r"^LEARNER_ID = .*$", f"LEARNER_ID = {learner!r}", src, flags=re.M)
        elif (cell.get("metadata", {}).get("baccarat_kit") or {}).get("written") == "q9":
            cell["source"] = text
    return json.dumps(nb, ensure_ascii=False)


def _rows(graded: Path) -> dict[str, dict[str, Any]]:
    doc = json.loads((graded / "results.json").read_text(encoding="utf-8"))
    return {r["owner"]: r for r in doc["submissions"]}


@pytest.mark.sandbox
def test_a_class_of_four_scored_by_keyboard_exported_returned_and_kept(
        tmp_path: Path, page: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from playwright.sync_api import expect

    from baccarat_kit.grading.grade import default_source, load_exercises
    from baccarat_kit.grading.grade_manual.page import Session, serve

    monkeypatch.chdir(tmp_path)
    home = tmp_path / "home"
    for learner, text in ANSWERS.items():
        folder = home / learner / "exercises"
        folder.mkdir(parents=True)
        (folder / "03-banker-rule.ipynb").write_text(_notebook(learner, text), encoding="utf-8")
    assert main(["--lang", "en", "collect", "home", "--glob", "exercises/*.ipynb", "--out", "collected",
                 "--name", "w1"]) == 0
    assert main(["--lang", "en", "grade", "collected/w1", "--out", "graded", "--jobs", "2", "--no-progress"]) == 0
    graded = tmp_path / "graded"
    rows = _rows(graded)
    assert set(rows) == set(ANSWERS)
    for row in rows.values():  # every auto-graded point earned; q9 pending, not zero
        assert row["status"] == "ok" and row["pending_points"] == 3, row["reason"]
        assert row["score"] == row["max_score"] - 3 and row["questions"]["q9"]["pending"] is True
    assert "pending" in (graded / "grades-long.csv").read_text(encoding="utf-8")

    # the page, served as `grade-manual graded` serves it, scored with the keyboard only
    session = Session(graded, load_exercises(default_source()), "en")
    server, url = serve(session)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        page.goto(url)
        expect(page.locator("#progress")).to_have_text("0 of 4 scored")
        assert "token" not in page.url  # taken out of the address bar
        # ben's HTML and script are text: nothing of it ran or became an element
        page.keyboard.press("Escape")
        for _ in range(3):
            page.keyboard.press("k")  # back to the first whatever j/k did
        for _ in range(1):
            page.keyboard.press("j")
        expect(page.locator("#heading")).to_contain_text("ben")
        expect(page.locator("#answer")).to_have_text(HOSTILE)
        assert page.locator("#answer img, #answer script").count() == 0
        assert page.title() not in ("pwned", "img")
        expect(page.locator("#rubric li")).to_have_count(3)
        expect(page.locator("#rubric li").first).to_contain_text("000")
        page.keyboard.press("k")
        expect(page.locator("#heading")).to_contain_text("ann")
        expect(page.locator("#answer")).to_have_text(ANSWERS["ann"])
        for learner in ("ann", "ben", "cai", "dan"):  # each as documented: a digit, c, the comment, Enter
            expect(page.locator("#heading")).to_contain_text(learner)
            score, comment = SCORES[learner]
            page.keyboard.press("Escape")
            page.keyboard.press(score)
            expect(page.locator("#score")).to_be_focused()
            expect(page.locator("#score")).to_have_value(score)
            page.keyboard.press("c")  # from the score field: to the comment (it typed a "c" there before)
            expect(page.locator("#score")).to_have_value(score)
            expect(page.locator("#comment")).to_be_focused()
            page.keyboard.type(comment)
            page.keyboard.press("Enter")
            expect(page.locator("#status")).to_contain_text(f"saved: {learner} q9")
        expect(page.locator("#progress")).to_have_text("4 of 4 scored")
        # a score over the points is refused on the page, naming the limit, and nothing changes
        page.keyboard.press("Escape")
        page.keyboard.press("k")
        page.locator("#score").fill("5")
        page.locator("#score").press("Enter")
        expect(page.locator("#status")).to_contain_text("more than this question's 3 points")
        # Tab reaches the list; focusing an entry shows it
        page.locator("#item-0").focus()
        page.keyboard.press("Tab")
        expect(page.locator("#heading")).to_contain_text("ben")
    finally:
        server.shutdown()
        server.server_close()

    rows = _rows(graded)
    for learner, (score, comment) in SCORES.items():
        q9 = rows[learner]["questions"]["q9"]
        assert q9["pending"] is False and q9["score"] == float(score) and q9["manual"]["comment"] == comment
        assert rows[learner]["pending_points"] == 0
        assert rows[learner]["score"] == rows[learner]["max_score"] - 3 + float(score)
    canvas = {r[0]: r[5] for r in csv.reader(io.StringIO((graded / "canvas.csv").read_text(encoding="utf-8")))}
    assert canvas["ann"] == "13" and canvas["dan"] == "14" and canvas["ben"] == "11"

    # exported: one row per learner × question, the scores and comments as given
    assert main(["--lang", "en", "grade-manual", "graded", "--export-csv", "scores.csv"]) == 0
    exported = list(csv.DictReader(io.StringIO((tmp_path / "scores.csv").read_text(encoding="utf-8"))))
    assert [(r["learner"], r["score"], r["comment"]) for r in exported] == [
        (who, s, c) for who, (s, c) in SCORES.items()]
    assert main(["--lang", "en", "grade-manual", "graded", "--export-csv", "scores.csv"]) == 2  # never overwritten

    # returned: each learner's page has her score by hand, her answer as text, the comment
    assert main(["--lang", "en", "return", "graded", "--to", "home"]) == 0
    ben_page = (home / "ben" / "feedback" / "03-banker-rule.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;document.title" in ben_page and "<script>document" not in ben_page
    assert "No explanation: HTML only." in ben_page
    assert "All three." in (home / "dan" / "feedback" / "03-banker-rule.html").read_text(encoding="utf-8")

    # regraded, everyone: every score and comment kept
    assert main(["--lang", "en", "grade", "collected/w1", "--out", "graded", "--update", "--no-progress"]) == 0
    again = _rows(graded)
    for learner, (score, comment) in SCORES.items():
        q9 = again[learner]["questions"]["q9"]
        assert (q9["score"], q9["manual"]["comment"], q9["earlier"]) == (float(score), comment, None)
        assert again[learner]["score"] == rows[learner]["score"]
    # dan rewrites his answer and hands in again: pending again until scored again, blank in the LMS files
    (home / "dan" / "exercises" / "03-banker-rule.ipynb").write_text(_notebook("dan", "A new text."), encoding="utf-8")
    assert main(["--lang", "en", "collect", "home", "--glob", "exercises/*.ipynb", "--out", "collected",
                 "--name", "w2", "--only", "dan"]) == 0
    assert main(["--lang", "en", "grade", "collected/w2/dan/exercises/03-banker-rule.ipynb", "--out", "graded",
                 "--update", "--no-progress"]) == 0
    last = _rows(graded)
    dan = last["dan"]["questions"]["q9"]
    assert (dan["pending"], dan["manual"], dan["earlier"]["score"], dan["written"]) == (True, None, 3, "A new text.")
    assert last["dan"]["pending_points"] == 3 and last["dan"]["score"] == last["dan"]["max_score"] - 3
    for learner in ("ann", "ben", "cai"):
        assert last[learner]["questions"]["q9"]["manual"]["comment"] == SCORES[learner][1]
    dan_page = (graded / last["dan"]["feedback"]).read_text(encoding="utf-8")
    assert "changed after it was scored" in dan_page and "All three." not in dan_page
    for name in ("canvas.csv", "moodle.csv"):
        table = list(csv.reader(io.StringIO((graded / name).read_text(encoding="utf-8"))))
        lms = {r[0]: r[-1] for r in table}
        assert lms["dan"] == "" and lms["ann"] == "13", name


CLASS = {"amy": ("3", "amy: good"), "bob": ("0", "bob: misconception"), "cho": ("2", "cho: (a) and (b)"),
         "dov": ("1", "dov: only (a)"), "eve": ("3", "eve: all three"), "fay": ("0", "fay: empty"),
         "gus": ("2", "gus: (b) and (c)"), "hal": ("1", "hal: see the table"), "ivy": ("5", "ivy: over the points")}


def _book(folder: Path) -> Path:
    """A gradebook of :data:`CLASS` as ``grade`` leaves it: q9 pending for each."""
    from baccarat_kit.grading.judge.checks import Question
    from baccarat_kit.grading.judge.written import written_result
    from baccarat_kit.grading.records import Submission
    from baccarat_kit.grading.term.gradebook import MARKER, results_bytes

    q9 = Question.from_dict({"id": "q9", "kind": "written", "points": 3, "rubric": [
        {"id": "a", "points": 3, "zh": "甲", "en": "A"}]})
    rows = []
    for who in CLASS:
        row = Submission(f"collected/w1/{who}/exercises/03-banker-rule.ipynb", "", "03-banker-rule", who, "ok", {},
                         [written_result(q9, f"{who} wrote this answer.")], 3, owner=who).to_json()
        row["feedback"] = f"feedback/{who}--03-banker-rule.html"
        rows.append(row)
    (folder / "feedback").mkdir(parents=True)
    results, index = results_bytes({"schema_version": 6, "submissions": rows, "skipped": []})
    (folder / "results.json").write_bytes(results)
    (folder / "results.index.json").write_bytes(index)
    files = ["results.json", "results.index.json", "grades.csv", "grades-long.csv", "canvas.csv", "moodle.csv",
             *(r["feedback"] for r in rows)]
    (folder / MARKER).write_text(json.dumps({"files": files}), encoding="utf-8")
    return folder


def test_keys_typed_before_a_save_returns_land_on_the_answer_they_were_typed_for(tmp_path: Path, page: Any) -> None:
    """Before: bob 3, c, "bob: good", Enter, then carol's keys while the save was out gave bob 0
    with carol's comment and left carol pending (the page moved on only when the save returned).
    Here no save returns until every answer's keys are typed."""
    from playwright.sync_api import expect

    from baccarat_kit.grading.grade import default_source, load_exercises
    from baccarat_kit.grading.grade_manual.page import Session, serve

    graded = _book(tmp_path / "graded")
    session = Session(graded, load_exercises(default_source()), "en")
    assert [a.learner for a in session.answers] == list(CLASS)
    server, url = serve(session)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    held: list[Any] = []
    holding = [True]

    def save_route(route: Any) -> None:  # every save held back until the test lets them go
        if holding[0]:
            held.append(route)
        else:
            route.continue_()

    try:
        page.route("**/save", save_route)
        page.goto(url)
        expect(page.locator("#progress")).to_have_text("0 of 9 scored")
        for n, (who, (score, comment)) in enumerate(CLASS.items()):
            expect(page.locator("#heading")).to_contain_text(who)  # the page moved on at Enter
            expect(page.locator("#score")).to_be_focused()
            if n % 2:  # the documented keys: a digit, then c
                page.keyboard.press(score)
                page.keyboard.press("c")
            else:  # the keys of issue 43's report: Esc, a digit, Esc, c
                page.keyboard.press("Escape")
                page.keyboard.press(score)
                page.keyboard.press("Escape")
                page.keyboard.press("c")
            expect(page.locator("#comment")).to_be_focused()
            page.keyboard.type(comment)
            page.keyboard.press("Enter")
        # not one save has returned: the first is held, the others wait their turn in the page
        expect(page.locator("#progress")).to_have_text("0 of 9 scored")
        assert len(held) <= 1
        # an answer whose save is out cannot be typed into
        page.keyboard.press("Escape")
        page.keyboard.press("k")
        expect(page.locator("#heading")).to_contain_text("hal")
        expect(page.locator("#score")).to_have_js_property("readOnly", True)
        page.keyboard.press("9")
        expect(page.locator("#score")).to_have_value(CLASS["hal"][0])
        expect(page.locator("#item-7")).to_contain_text("saving")
        holding[0] = False
        for route in held:
            route.continue_()
        expect(page.locator("#progress")).to_have_text("8 of 9 scored")
        expect(page.locator("#item-8")).to_contain_text("not saved")  # ivy's 5 of 3: refused, kept to fix
        expect(page.locator("#status")).to_contain_text("not saved: ivy q9: Score: 5 is more than this question's 3 points")
        expect(page.locator("#score")).to_have_js_property("readOnly", False)  # hal's, back from its save
        for n, (who, (score, _comment)) in enumerate(list(CLASS.items())[:8]):
            expect(page.locator(f"#item-{n}")).to_contain_text(f"{who} · 03-banker-rule q9 · {score} / 3")
        page.keyboard.press("Escape")
        page.keyboard.press("j")
        expect(page.locator("#heading")).to_contain_text("ivy")
        expect(page.locator("#score")).to_have_value("5")  # what was typed, not lost
        expect(page.locator("#comment")).to_have_value(CLASS["ivy"][1])
        page.locator("#score").fill("2")
        page.locator("#score").press("Enter")
        expect(page.locator("#progress")).to_have_text("9 of 9 scored")
    finally:
        server.shutdown()
        server.server_close()
    rows = _rows(graded)
    typed = {**CLASS, "ivy": ("2", CLASS["ivy"][1])}
    for who, (score, comment) in typed.items():
        q9 = rows[who]["questions"]["q9"]
        assert (q9["score"], q9["manual"]["comment"], q9["pending"]) == (float(score), comment, False), who
    canvas = {r[0]: r[5] for r in csv.reader(io.StringIO((graded / "canvas.csv").read_text(encoding="utf-8")))}
    assert {who: canvas[who] for who in CLASS} == {who: score for who, (score, _c) in typed.items()}
