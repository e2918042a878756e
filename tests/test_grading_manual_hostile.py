"""Red team against written answers scored by hand (issue 35): ids a learner claims, the CSV
round-trip. Each test failed before its fix."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from test_grading_manual import _csv, _marks, _row, exercises_03, gradebook, write_book  # noqa: F401  (a fixture)

from baccarat_kit.grading.term import manual


def _claimed(learner: str, text: str = "Because the player stood.") -> dict[str, object]:
    row = _row(learner, text)
    row["owner"] = None  # a file graded without collect: its id is only her claim
    return row


def test_an_id_differing_only_in_case_gets_no_one_elses_score() -> None:
    """Bob claims LEARNER_ID = "ANN": the gradebook keeps "ANN" and "ann" apart (two learners, two
    LMS rows), so the score the instructor gave ann's answer must not become his."""
    rows = [_claimed("ann"), _claimed("ANN", "Bob's own text.")]
    found = manual.answers(rows)
    assert sorted(a.learner for a in found) == ["ANN", "ann"]
    assert len({a.key for a in found}) == 2  # two answers, two scores to give
    merged = {r["learner"]: r for r in manual.apply(rows, _marks(("ann", 3), loose=True))}
    assert merged["ann"]["score"] == 11
    assert merged["ANN"]["score"] == 8 and merged["ANN"]["questions"]["q9"]["pending"] is True


def test_the_csv_takes_a_learner_by_her_own_case_and_refuses_an_ambiguous_one() -> None:
    rows = [_claimed("ann"), _claimed("ANN", "Bob's own text.")]
    table = list(csv.DictReader(io.StringIO(manual.export_csv(rows, {}))))
    for line in table:
        line["score"] = "1" if line["learner"] == "ann" else "2"
    got = manual.import_csv(_csv(table), rows, {}, "s.csv")
    assert {m.learner: m.score for m in got.values()} == {"ann": 1, "ANN": 2}
    # one learner typed in another case is still hers; a case that could be either is refused
    only = [_claimed("cai")]
    one = list(csv.DictReader(io.StringIO(manual.export_csv(only, {}))))
    one[0]["learner"], one[0]["score"] = "CAI", "3"
    assert [m.learner for m in manual.import_csv(_csv(one), only, {}, "s.csv").values()] == ["cai"]
    table[0]["learner"] = "Ann"
    try:
        manual.import_csv(_csv(table), rows, {}, "s.csv")
    except manual.ManualError as err:
        assert "column learner" in err.message("en") and "ANN, ann" in err.message("en")
    else:
        raise AssertionError("an ambiguous learner was taken")


def test_a_csv_round_trip_leaves_a_mark_it_did_not_change_as_it_was() -> None:
    """The export writes a comment as spreadsheet-safe text (a leading ' before = + - @, line breaks
    as spaces); reading the unchanged file back must not add the ' or join the lines."""
    rows = [_row("ann"), _row("ben")]
    marks = {**_marks(("ann", 2)), **_marks(("ben", 1))}
    key_ann, key_ben = (manual.place_key(w, f"{w}.ipynb", "03-banker-rule", "q9") for w in ("ann", "ben"))
    marks[key_ann] = manual.Mark("ann", "03-banker-rule", "q9", 2, "-1: (b) missing\nsee the rule table",
                                 marks[key_ann].answer_sha256, "t0", "ann", "ann.ipynb")
    marks[key_ben] = manual.Mark("ben", "03-banker-rule", "q9", 1, "=good start", marks[key_ben].answer_sha256, "t0",
                                 "ben", "ben.ipynb")
    text = manual.export_csv(rows, marks)
    assert "'-1: (b) missing see the rule table" in text and "'=good start" in text  # safe in a spreadsheet
    again = manual.import_csv(text.encode("utf-8"), rows, marks, "s.csv")
    assert again == marks  # nothing changed: nothing taken (not even graded_at)
    table = list(csv.DictReader(io.StringIO(text)))
    table[1]["score"] = "1.5"  # ben's score changed; his comment as exported
    changed = manual.import_csv(_csv(table), rows, marks, "s.csv")
    assert changed[key_ann] == marks[key_ann]
    assert (changed[key_ben].score, changed[key_ben].comment) == (1.5, "=good start")
    table[1]["comment"] = "'=better"  # a comment typed in the spreadsheet, quoted as the export does
    assert manual.import_csv(_csv(table), rows, marks, "s.csv")[key_ben].comment == "=better"


def test_a_score_json_takes_but_no_rubric_gives_is_refused_naming_the_mark(tmp_path: Path) -> None:
    """manual.json edited by hand: NaN, Infinity or a negative score is a clear error naming the
    file and the mark (before the fix NaN and Infinity crashed ``grade --update`` in apply, and a
    negative score took points off the row)."""
    for bad in ("NaN", "Infinity", "-2"):
        (tmp_path / manual.MANUAL_NAME).write_text(
            '{"version": 1, "marks": [{"learner": "ann", "exercise": "03-banker-rule", "question": "q9", '
            f'"score": {bad}}}]}}', encoding="utf-8")
        with pytest.raises(manual.ManualError) as err:
            manual.load(tmp_path)
        assert "mark 1: score" in err.value.message("en") and "manual.json" in err.value.message("en")


def test_a_hostile_csv_is_a_clear_error_and_puts_no_escape_on_the_terminal(tmp_path: Path) -> None:
    """A CSV passed along (a TA's, a spreadsheet's) is not trusted: a field over the csv module's
    limit was a traceback; a cell holding a terminal escape was echoed raw in the error."""
    rows = [_row("ann")]
    head = b"learner,exercise,question,answer_sha256,score\n"
    with pytest.raises(manual.ManualError) as err:
        manual.import_csv(head + b"ann,03-banker-rule,q9,x," + b"9" * 200_000 + b"\n", rows, {}, "s.csv")
    assert "s.csv" in err.value.message("en") and "line 2" in err.value.message("en")
    for bad in (b"\x1b]52;c;aGk=\x07ann,03-banker-rule,q9,x,1\n", b"ann,03-banker-rule,q9,x,1\x1b[2J\n",
                b"ann,\x1b[31m03,q9,x,1\n", "ann,03-banker-rule,q9\x9b,x,1\n".encode()):
        with pytest.raises(manual.ManualError) as err:
            manual.import_csv(head + bad, rows, {}, "s.csv")
        for lang in ("zh", "en"):
            said = err.value.message(lang)
            assert "\x1b" not in said and "\x07" not in said and "\x9b" not in said, said
            assert "\\u001b" in said or "\\u009b" in said, said


def test_import_csv_refuses_a_fifo_instead_of_waiting_forever(gradebook: Path, tmp_path: Path) -> None:  # noqa: F811
    import os
    import subprocess
    import sys

    fifo = tmp_path / "scores.csv"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-c", "import sys; from baccarat_kit.cli import main; sys.exit(main(sys.argv[1:]))",
                           "--lang", "en", "grade-manual", str(gradebook), "--import-csv", str(fifo)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "is not a regular file" in done.stderr + done.stdout, done.stderr[-800:]


def test_a_loose_file_claiming_a_scored_learner_gets_neither_her_score_nor_her_comment(tmp_path: Path) -> None:
    """Before: after ann's collected answer was scored 3 / 3 with a comment, a loose file claiming
    LEARNER_ID = "ann" with another answer got 3 / 3, and its feedback page carried the comment
    (marks were filed by identity). A mark now belongs to the answer and the place it was given for."""
    from baccarat_kit.grading.grade_manual import publish

    ann = _row("ann")
    ann["file"] = "collected/w1/ann/exercises/03-banker-rule.ipynb"
    other = _claimed("ann", "Someone else's answer.")
    other["file"] = "loose/03-banker-rule.ipynb"
    copy = _claimed("ann")  # even her very text, in a file of no folder
    copy["file"] = "loose/copy.ipynb"
    folder = write_book(tmp_path / "graded", [ann, other, copy])
    found = manual.answers([ann, other, copy])
    assert [(a.learner, a.owner, a.file) for a in found] == [("ann", "ann", ann["file"])]  # hers counts
    marks = manual.set_mark({}, found[0], "3", "ann: see me about (c), privately")
    manual.save(folder, marks)
    doc = publish.publish(folder, exercises_03(), "en")
    rows = {r["file"]: r for r in doc["submissions"]}
    assert rows[ann["file"]]["questions"]["q9"]["manual"]["score"] == 3 and rows[ann["file"]]["score"] == 11
    for loose in (other["file"], copy["file"]):
        q9 = rows[loose]["questions"]["q9"]
        assert (q9["pending"], q9["manual"], q9["earlier"], rows[loose]["score"]) == (True, None, None, 8)
        assert "see me" not in json.dumps(q9)
        html = (folder / rows[loose]["feedback"]).read_text(encoding="utf-8")
        assert "see me" not in html and "3 / 3" not in html and "Pending" in html
    assert "see me" in (folder / rows[ann["file"]]["feedback"]).read_text(encoding="utf-8")
    long = (folder / "grades-long.csv").read_text(encoding="utf-8")
    assert long.count("see me") == 1
    # and with the loose file alone (ann never collected), her folder's mark still is not its own
    alone = manual.apply([other], marks)[0]["questions"]["q9"]
    assert alone["manual"] is None and alone["earlier"] is None


def test_an_anonymous_export_writes_no_name_and_its_key_apart(gradebook: Path, tmp_path: Path,  # noqa: F811
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Before: ``grade-manual --anonymous --export-csv`` wrote every learner's name."""
    from baccarat_kit.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(["--lang", "en", "grade-manual", str(gradebook), "--anonymous", "--export-csv", "s.csv"]) == 0
    assert "which number is whom is in s-key.csv" in capsys.readouterr().out
    text = (tmp_path / "s.csv").read_text(encoding="utf-8")
    assert "ann" not in text and "ben" not in text
    table = list(csv.DictReader(io.StringIO(text)))
    assert sorted(r["learner"] for r in table) == ["#1", "#2"]
    key = dict(csv.reader(io.StringIO((tmp_path / "s-key.csv").read_text(encoding="utf-8"))))
    assert sorted(key.values()) == ["ann", "ben", "learner"] and (tmp_path / "s-key.csv").stat().st_mode & 0o777 == 0o600
    for r in table:
        r["score"], r["comment"] = ("1", "for ann") if key[r["learner"]] == "ann" else ("2", "for ben")
    (tmp_path / "scored.csv").write_bytes(_csv(table))
    # without its key the numbers are refused, naming --key; nothing is taken
    assert main(["--lang", "en", "grade-manual", str(gradebook), "--import-csv", "scored.csv"]) == 2
    assert "give its key with --key" in capsys.readouterr().err
    assert not (gradebook / manual.MANUAL_NAME).exists()
    assert main(["--lang", "en", "grade-manual", str(gradebook), "--import-csv", "scored.csv", "--key", "s-key.csv"]) == 0
    got = {m.learner: (m.score, m.comment) for m in manual.load(gradebook).values()}
    assert got == {"ann": (1, "for ann"), "ben": (2, "for ben")}
    # neither file is ever overwritten
    assert main(["--lang", "en", "grade-manual", str(gradebook), "--anonymous", "--export-csv", "s.csv"]) == 2
    (tmp_path / "s.csv").rename(tmp_path / "s-old.csv")
    assert main(["--lang", "en", "grade-manual", str(gradebook), "--anonymous", "--export-csv", "s.csv"]) == 2
    assert not (tmp_path / "s.csv").exists()
