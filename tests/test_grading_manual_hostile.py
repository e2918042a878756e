"""Red team against written answers scored by hand (issue 35): ids a learner claims, the CSV
round-trip. Each test failed before its fix."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from test_grading_manual import _csv, _marks, _row, gradebook  # noqa: F401  (a fixture)

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
    merged = {r["learner"]: r for r in manual.apply(rows, _marks(("ann", 3)))}
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
    key_ann, key_ben = (manual.mark_key(w, "03-banker-rule", "q9") for w in ("ann", "ben"))
    marks[key_ann] = manual.Mark("ann", "03-banker-rule", "q9", 2, "-1: (b) missing\nsee the rule table",
                                 marks[key_ann].answer_sha256, "t0")
    marks[key_ben] = manual.Mark("ben", "03-banker-rule", "q9", 1, "=good start", marks[key_ben].answer_sha256, "t0")
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
    head = b"learner,exercise,question,score\n"
    with pytest.raises(manual.ManualError) as err:
        manual.import_csv(head + b"ann,03-banker-rule,q9," + b"9" * 200_000 + b"\n", rows, {}, "s.csv")
    assert "s.csv" in err.value.message("en") and "line 2" in err.value.message("en")
    for bad in (b"\x1b]52;c;aGk=\x07ann,03-banker-rule,q9,1\n", b"ann,03-banker-rule,q9,1\x1b[2J\n",
                b"ann,\x1b[31m03,q9,1\n", "ann,03-banker-rule,q9\x9b,1\n".encode()):
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
