"""A class of four scores written answers by hand, end to end (issue 35).

Four learners hand in exercise 03 with a written answer to q9 (one in Markdown, one that is HTML
and script, one left empty, one plain); ``collect`` takes them, ``grade`` grades them in the
sandbox (q9 pending), the instructor scores every answer on the ``grade-manual`` page in Chromium
with the keyboard only, exports the scores, returns the feedback, and then ``grade --update``
(everyone, then one learner whose answer changed) keeps every score and comment.
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
from baccarat_kit.grading.authoring import read_source

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
    from baccarat_kit.grading.term.manual_page import Session, serve

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
        for learner in ("ann", "ben", "cai", "dan"):  # each: a digit, c, the comment, Enter
            expect(page.locator("#heading")).to_contain_text(learner)
            score, comment = SCORES[learner]
            page.keyboard.press("Escape")
            page.keyboard.press(score)
            expect(page.locator("#score")).to_be_focused()
            expect(page.locator("#score")).to_have_value(score)
            page.keyboard.press("Escape")
            page.keyboard.press("c")
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
        assert (q9["score"], q9["manual"]["comment"], q9["manual"]["answer_changed"]) == (float(score), comment, False)
        assert again[learner]["score"] == rows[learner]["score"]
    # dan rewrites his answer and hands in again: his score stays, marked "answer changed since graded"
    (home / "dan" / "exercises" / "03-banker-rule.ipynb").write_text(_notebook("dan", "A new text."), encoding="utf-8")
    assert main(["--lang", "en", "collect", "home", "--glob", "exercises/*.ipynb", "--out", "collected",
                 "--name", "w2", "--only", "dan"]) == 0
    assert main(["--lang", "en", "grade", "collected/w2/dan/exercises/03-banker-rule.ipynb", "--out", "graded",
                 "--update", "--no-progress"]) == 0
    last = _rows(graded)
    assert last["dan"]["questions"]["q9"]["manual"]["answer_changed"] is True
    assert last["dan"]["questions"]["q9"]["score"] == 3 and last["dan"]["questions"]["q9"]["written"] == "A new text."
    for learner in ("ann", "ben", "cai"):
        assert last[learner]["questions"]["q9"]["manual"]["comment"] == SCORES[learner][1]
    dan_page = (graded / last["dan"]["feedback"]).read_text(encoding="utf-8")
    assert "earlier version of your answer" in dan_page
