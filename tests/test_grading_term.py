"""A whole term for a made-up class, run with the commands of docs/instructors.md as written.

Seven learners on a JupyterHub-style tree (``home/<learner>/exercises/``): one with every answer
right, one with the classic mistakes, one who left everything blank (and no id), one whose code
raises, one who types answers the natural way (floats, ``5.0``, text), one who hands in late,
and one with a hostile folder name and learner id. The test checks every row, the exports'
columns, that an instructor's files in the output folder survive, that regrading one learner
keeps the others, that feedback is returned, and that no submission changes by a byte.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import re
import shlex
import shutil
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.term.authoring import read_source

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "instructors.md"
DEADLINE = 1_796_140_740  # 2026-12-01T15:59:00Z = the documented 23:59+08:00
ON_TIME = DEADLINE - 3600
LATE = DEADLINE + 3600
HOSTILE_ID = ' =HYPERLINK("http://x.example/steal","click")'


def documented_commands() -> list[list[str]]:
    text = DOC.read_text(encoding="utf-8")
    section = text.split("<!-- term:start -->", 1)[1].split("<!-- term:end -->", 1)[0]
    return [shlex.split(line[2:])[1:] for line in section.splitlines() if line.startswith("$ baccarat-kit ")]


def _source(name: str) -> dict[str, Any]:
    return read_source(ROOT / "exercises" / "source" / f"{name}.ipynb")


def notebook(name: str, learner: str, answers: dict[str, str] | None = None,
             base: dict[str, Any] | None = None) -> str:
    """A learner's notebook: the source's solutions (or ``base``), LEARNER_ID set, and each
    ``answers`` name's line (or a function's whole cell) replaced by the given code."""
    nb = json.loads(json.dumps(base or _source(name)))
    for cell in nb["cells"]:
        if cell["cell_type"] != "code":
            continue
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        src = re.sub(r'^LEARNER_ID = .*$', f"LEARNER_ID = {learner!r}", src, flags=re.M)
        for var, code in (answers or {}).items():
            if re.search(rf"^def {var}\(", src, flags=re.M):
                src = code
            else:
                src = re.sub(rf"^{var} = .*$", lambda _m, c=code, v=var: f"{v} = {c}", src, flags=re.M)
        cell["source"] = src
    return json.dumps(nb, ensure_ascii=False, indent=1)


BANKER_RAISES_ON_6 = '''def banker_draws(total, player_third):
    if total == 6:
        raise ValueError("forgot six")
    if player_third is None:
        return total <= 5
    if total <= 2:
        return True
    if total == 3:
        return player_third != 8
    if total == 4:
        return 2 <= player_third <= 7
    if total == 5:
        return 4 <= player_third <= 7
    return False
'''


def class_files(handout: Path) -> dict[str, dict[str, str]]:
    blank01 = json.loads((handout / "01-card-values.ipynb").read_text(encoding="utf-8"))
    blank03 = json.loads((handout / "03-banker-rule.ipynb").read_text(encoding="utf-8"))
    return {
        "alice": {n: notebook(n, "alice") for n in
                  ("01-card-values", "03-banker-rule", "05-settlement", "06-misconceptions")},
        "bob": {
            "01-card-values": notebook("01-card-values", "bob", {"value_K": "10", "total_7_8": "7 + 8"}),
            "03-banker-rule": notebook("03-banker-rule", "bob", {
                "case_a": "True", "case_d": "False", "bcr007_banker_total": "2"}),
            "05-settlement": notebook("05-settlement", "bob", {
                "commission_winnings": 'v["commission_stake"]',
                "tie_returned": 'v["tie_tie_stake"] * 9'}),
            "06-misconceptions": notebook("06-misconceptions", "bob", {"q1": 'check.letter("q1", True)'}),
        },
        "carol": {"01-card-values": notebook("01-card-values", "", base=blank01),
                  "03-banker-rule": notebook("03-banker-rule", "", base=blank03)},
        "dave": {"03-banker-rule": notebook("03-banker-rule", "dave", {
            "case_b": "1 / 0", "banker_draws": BANKER_RAISES_ON_6})},
        "erin": {
            "01-card-values": notebook("01-card-values", "erin", {"total_7_8": "5.0", "total_K_6": '"6"'}),
            "05-settlement": notebook("05-settlement", "erin", {
                "commission_winnings": 'v["commission_stake"] * 0.95',
                "commission_amount": 'v["commission_stake"] * 0.05',
                "super6_returned": "float(s6 + s6 / 2)",
                "tie_returned": 'str(Decimal(v["tie_player_stake"]) + 9 * Decimal(v["tie_tie_stake"]))',
                "wrong_line": "float(n)"}),
        },
        "frank": {"03-banker-rule": notebook("03-banker-rule", "frank")},
        "-mallory": {"01-card-values": notebook("01-card-values", HOSTILE_ID)},
    }


def digests(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def rows_of(graded: Path) -> dict[tuple[str, str], dict[str, Any]]:
    doc = json.loads((graded / "results.json").read_text(encoding="utf-8"))
    return {(s["owner"], s["exercise"]): s for s in doc["submissions"]}


@pytest.mark.sandbox
def test_a_whole_term_with_the_documented_commands(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(ROOT / "exercises" / "source", tmp_path / "exercises" / "source")
    commands = documented_commands()
    assert [c[0] for c in commands] == ["release", "collect", "collect", "grade", "grade", "grade-manual",
                                        "grade-manual", "return"]
    release, collect, collect_late, grade, regrade, export_scores, import_scores, give_back = commands

    # 1. release
    assert main(["--lang", "en", *release]) == 0
    handout = tmp_path / "handout"
    assert len(list(handout.glob("*.ipynb"))) == 6

    # 2. learners work (written here); frank hands in after the deadline, his file dated before it
    home = tmp_path / "home"
    files_of = class_files(handout)
    for learner, files in files_of.items():
        folder = home / learner / "exercises"
        folder.mkdir(parents=True)
        for name, text in files.items():
            if learner == "frank":
                continue
            path = folder / f"{name}.ipynb"
            path.write_text(text, encoding="utf-8")
            os.utime(path, (ON_TIME, ON_TIME))
    (home / "alice" / "exercises" / ".draft.ipynb").write_text("{}", encoding="utf-8")
    (home / "alice" / "notes.txt").write_text("not a notebook", encoding="utf-8")
    before = digests(home)

    # 3. collect at the deadline (the collect's clock is the hand-in time), then frank's late one
    from datetime import UTC, datetime

    from baccarat_kit.grading.term import collect as collect_module

    capsys.readouterr()
    monkeypatch.setattr(collect_module, "clock", lambda: datetime.fromtimestamp(DEADLINE, UTC))
    assert main(["--lang", "en", *collect]) == 0
    err = capsys.readouterr().err
    assert ".draft.ipynb" in err and "hidden" in err  # skipped, and said so
    frank = home / "frank" / "exercises" / "03-banker-rule.ipynb"
    frank.write_text(files_of["frank"]["03-banker-rule"], encoding="utf-8")
    os.utime(frank, (ON_TIME, ON_TIME))  # a forged time: before the deadline
    before = digests(home)
    monkeypatch.setattr(collect_module, "clock", lambda: datetime.fromtimestamp(LATE, UTC))
    assert main(["--lang", "en", *collect_late]) == 0
    week = tmp_path / "collected" / "week1"
    late_week = tmp_path / "collected" / "week1-late"
    assert sorted(p.name for p in late_week.iterdir()) == [".baccarat-kit-collected.json", "frank"]
    collected_before = digests(week)
    assert (late_week / "frank" / "exercises" / "03-banker-rule.ipynb").stat().st_mtime == ON_TIME

    # 4. grade
    assert main(["--lang", "en", *grade]) == 0
    graded = tmp_path / "graded"
    rows = rows_of(graded)
    assert len(rows) == 15
    # carol handed in her copies as they came: "not attempted" (no points, no flag); the rest graded
    assert {k: r["status"] for k, r in rows.items() if r["status"] != "ok"} == {
        ("carol", "01-card-values"): "not_attempted", ("carol", "03-banker-rule"): "not_attempted"}, \
        {k: r["reason"]["en"] for k, r in rows.items()}
    for key, r in rows.items():
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", r["graded_at"]), key
        assert r["submitted_at"] is not None and r["time_source"] == "collect"
        assert r["late"] is (key[0] == "frank"), key
        assert r["learner"] == key[0]  # the owner, whatever LEARNER_ID says
        for q in r["questions"].values():
            assert set(q) >= {"score", "points", "text", "answer", "misconception"}
            assert q["text"]["zh"] and q["text"]["en"]

    # every answer right: full marks
    for ex in ("01-card-values", "03-banker-rule", "05-settlement", "06-misconceptions"):
        assert rows[("alice", ex)]["score"] == rows[("alice", ex)]["max_score"] - rows[("alice", ex)]["pending_points"], ex
    frank_row = rows[("frank", "03-banker-rule")]  # all right, an hour late: 10 % off by the stated rule
    full = frank_row["max_score"] - frank_row["pending_points"]  # q9, written, is scored by hand later
    assert frank_row["raw_score"] == full and frank_row["late_policy"] == "10%/day"
    assert frank_row["score"] == pytest.approx(full * 0.9)
    assert frank_row["file_mtime"] == "2026-12-01T14:59:00Z" and frank_row["submitted_at"] == "2026-12-01T16:59:00Z"
    # the classic mistakes are named
    named = {(ex, q): r["questions"][q]["misconception"]
             for (who, ex), r in rows.items() if who == "bob" for q in r["questions"]}
    assert named[("01-card-values", "q1")] == "face-card-ten"
    assert named[("01-card-values", "q2")] == "total-keeps-tens"
    assert named[("03-banker-rule", "q1")] == "banker-3-always"
    assert named[("03-banker-rule", "q4")] == "banker-6-always-stands"
    assert named[("03-banker-rule", "q7")] == "eight-stops-low-banker"
    assert named[("05-settlement", "q1")] == "banker-pays-even"
    assert named[("05-settlement", "q4")] == "tie-loses-main-bets"
    assert named[("06-misconceptions", "q1")] == "banker-3-always"
    assert "A banker 3 stands" in rows[("bob", "03-banker-rule")]["questions"]["q1"]["message"]["en"]
    # blanks: not attempted, 0, no id, still a row with the learner's folder; blank in the LMS files
    for ex in ("01-card-values", "03-banker-rule"):
        r = rows[("carol", ex)]
        assert r["score"] == 0 and r["learner"] == "carol" and r["claimed_id"] == "" and not r["warnings"]
        assert r["status"] == "not_attempted" and "Not attempted" in r["reason"]["en"]
    # exceptions: the rest still graded; a function wrong on 11 of 88 inputs earns 3.5 of 4
    dave = rows[("dave", "03-banker-rule")]["questions"]
    assert dave["q2"]["score"] == 0 and dave["q1"]["score"] == 1
    assert dave["q5"]["score"] == 3.5 and "banker_draws(6," in dave["q5"]["message"]["en"]
    # natural formats: floats, 5.0 and text are read at the question's precision
    erin = rows[("erin", "05-settlement")]
    assert erin["score"] == erin["max_score"] - erin["pending_points"], {q: v["message"]["en"] for q, v in erin["questions"].items()}
    assert rows[("erin", "01-card-values")]["questions"]["q2"]["score"] == 1
    assert rows[("erin", "01-card-values")]["questions"]["q3"]["score"] == 1
    # hostile id: kept in results.json, never a formula in any CSV
    assert rows[("-mallory", "01-card-values")]["claimed_id"] == HOSTILE_ID.strip()
    assert rows[("-mallory", "01-card-values")]["learner"] == "-mallory"
    assert not any(r["identity_mismatch"] for r in rows.values())
    assert "LEARNER_ID" not in capsys.readouterr().err  # no noise: no claim names another learner
    for name in ("grades.csv", "grades-long.csv", "canvas.csv", "moodle.csv"):
        for row in csv.reader(io.StringIO((graded / name).read_text(encoding="utf-8"))):
            for cell in row:
                assert cell.lstrip()[:1] not in ("=", "+", "-", "@") or cell.startswith("'"), (name, cell)
                assert "\t" not in cell and "\n" not in cell, (name, cell)

    # exports' columns
    wide = list(csv.DictReader(io.StringIO((graded / "grades.csv").read_text(encoding="utf-8"))))
    assert len(wide) == 15 and {"file", "learner", "score", "max_score", "graded_at", "late"} <= set(wide[0])
    long = list(csv.DictReader(io.StringIO((graded / "grades-long.csv").read_text(encoding="utf-8"))))
    assert list(long[0]) == ["learner", "exercise", "question", "score", "points", "misconception", "answer",
                             "status", "file", "graded_at", "late", "comment", "answer_changed"]
    assert len(long) == sum(len(r["questions"]) for r in rows.values())
    canvas = list(csv.reader(io.StringIO((graded / "canvas.csv").read_text(encoding="utf-8"))))
    assert canvas[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert canvas[1][0] == "Points Possible"
    moodle = list(csv.reader(io.StringIO((graded / "moodle.csv").read_text(encoding="utf-8"))))
    assert moodle[0][0] == "ID number" and "alice" in [r[0] for r in moodle]

    # feedback pages: named by learner and exercise, question text, no grader path, hidden counted
    pages = sorted(p.name for p in (graded / "feedback").iterdir())
    assert "alice--01-card-values.html" in pages and "carol--03-banker-rule.html" in pages
    page = (graded / "feedback" / "bob--03-banker-rule.html").read_text(encoding="utf-8")
    assert "Source 002, case A" in page and str(tmp_path) not in page and "collected/" not in page
    assert "[eight-stops-low-banker]" in page  # q7's check is hidden, the misconception is named
    page = (graded / "feedback" / "dave--03-banker-rule.html").read_text(encoding="utf-8")
    assert "banker_draws(6, 7)" in page  # the failing public input
    # a function's verdict on every input (its domain is public; issue 31): all 11 wrong cells listed
    assert "banker_draws(6, None)" in page and "Wrong inputs (11)" in page
    assert "hidden check(s) failed" not in page
    # a late page says how late, beside the penalty (issue 44)
    page = (graded / "feedback" / "frank--03-banker-rule.html").read_text(encoding="utf-8")
    assert "late by 1 h 0 min" in page
    assert "handed in 1 h 0 min after the deadline (2026-12-01 15:59:00 UTC)" in page

    # an instructor's own files in the output folder
    (graded / "notes.txt").write_text("my notes", encoding="utf-8")
    (graded / "sub").mkdir()
    (graded / "sub" / "data.txt").write_text("data", encoding="utf-8")
    others_before = {k: v for k, v in rows_of(graded).items() if k != ("bob", "03-banker-rule")}
    order_before = list(rows_of(graded))
    pages_before = {p.name: p.read_bytes() for p in (graded / "feedback").iterdir()}

    # 5. regrade one learner: bob's corrected file (the instructor accepted a correction)
    fixed = week / "bob" / "exercises" / "03-banker-rule.ipynb"
    fixed.write_text(notebook("03-banker-rule", "bob"), encoding="utf-8")
    collected_before[str(fixed.relative_to(week))] = hashlib.sha256(fixed.read_bytes()).hexdigest()
    assert main(["--lang", "en", *regrade]) == 0
    after = rows_of(graded)
    assert len(after) == 15
    assert list(after) == order_before  # bob's new row in the place of his old one
    assert after[("bob", "03-banker-rule")]["score"] == after[("bob", "03-banker-rule")]["max_score"] - after[("bob", "03-banker-rule")]["pending_points"]
    assert {k: v for k, v in after.items() if k != ("bob", "03-banker-rule")} == others_before
    for name, data in pages_before.items():
        if name != "bob--03-banker-rule.html":
            assert (graded / "feedback" / name).read_bytes() == data, name
    assert (graded / "notes.txt").read_text(encoding="utf-8") == "my notes"
    assert (graded / "sub" / "data.txt").read_text(encoding="utf-8") == "data"

    # frank's late file regraded the same way keeps the gradebook's late rule: the regrade once
    # dropped it silently (full marks for a late hand-in whose others lost 10 %/day)
    capsys.readouterr()
    frank_file = late_week / "frank" / "exercises" / "03-banker-rule.ipynb"
    assert main(["--lang", "en", "grade", str(frank_file), "--out", str(graded), "--update", "--no-progress"]) == 0
    assert "keep this gradebook's late rule, 10%/day" in capsys.readouterr().err
    again = rows_of(graded)[("frank", "03-banker-rule")]
    assert (again["score"], again["late_policy"]) == (frank_row["score"], "10%/day")
    assert main(["--lang", "en", "grade", str(frank_file), "--out", str(graded), "--update", "--no-progress",
                 "--late-penalty", "none"]) == 0  # waived, when the instructor says so
    waived = rows_of(graded)[("frank", "03-banker-rule")]
    assert waived["score"] == waived["max_score"] - waived["pending_points"] and waived["late"] is True and waived["late_policy"] is None
    # a waiver for one file is not the gradebook's rule: the next regrade keeps 10%/day
    assert json.loads((graded / "results.json").read_text(encoding="utf-8"))["late_policy"] == "10%/day"
    assert main(["--lang", "en", "grade", str(frank_file), "--out", str(graded), "--update", "--no-progress"]) == 0
    assert rows_of(graded)[("frank", "03-banker-rule")]["score"] == frank_row["score"]
    now = rows_of(graded)
    for key, row in others_before.items():
        if key[0] != "frank":
            assert now[key] == row, (key, {f: (row.get(f), now[key].get(f)) for f in row if row.get(f) != now[key].get(f)})

    # grading a few files into the gradebook without --update is refused: no row is dropped
    capsys.readouterr()
    assert main(["--lang", "en", "grade", str(fixed), "--out", str(graded), "--no-progress"]) == 2
    assert "--update" in capsys.readouterr().err
    assert len(rows_of(graded)) == 15
    # and a folder the grader did not make is refused before any grading
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "keep.txt").write_text("keep", encoding="utf-8")
    capsys.readouterr()
    assert main(["--lang", "en", "grade", str(week), "--out", str(mine), "--no-progress"]) == 2
    assert "not made by the grader" in capsys.readouterr().err
    assert sorted(p.name for p in mine.iterdir()) == ["keep.txt"]

    # 6. written answers scored by hand, in a spreadsheet: pending (blank in the LMS files) until then
    capsys.readouterr()
    def lms(name: str) -> dict[str, list[str]]:
        return {r[0]: r for r in csv.reader(io.StringIO((graded / name).read_text(encoding="utf-8")))}

    written = [k for k, r in rows_of(graded).items() if r["pending_points"]]
    assert ("alice", "03-banker-rule") in written and ("frank", "03-banker-rule") in written
    column = lms("moodle.csv")["ID number"].index(next(
        t for t in lms("moodle.csv")["ID number"] if "3" in t and "banker" in t.casefold()))
    assert all(lms("moodle.csv")[who][column] == "" for who, ex in written)
    assert main(["--lang", "en", *export_scores]) == 0
    table = list(csv.DictReader(io.StringIO((tmp_path / "scores.csv").read_text(encoding="utf-8"))))
    assert sorted(r["learner"] for r in table) == sorted(who for who, _ex in written)
    for r in table:
        r["score"], r["comment"] = ("3", "All three, in your words.") if r["learner"] != "carol" else ("0", "Empty.")
    with (tmp_path / "scores.csv").open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(table[0]))
        writer.writeheader()
        writer.writerows(table)
    assert main(["--lang", "en", *import_scores]) == 0
    scored = rows_of(graded)
    assert not any(r["pending_points"] for r in scored.values())
    alice03 = scored[("alice", "03-banker-rule")]
    assert alice03["score"] == alice03["max_score"] and lms("moodle.csv")["alice"][column] == str(alice03["score"])

    # 7. return
    assert main(["--lang", "en", *give_back]) == 0
    assert "All three, in your words." in (home / "alice" / "feedback" / "03-banker-rule.html").read_text(encoding="utf-8")
    returned = home / "alice" / "feedback" / "01-card-values.html"
    assert "alice" in returned.read_text(encoding="utf-8")
    assert (home / "-mallory" / "feedback" / "01-card-values.html").exists()

    # nothing the learners handed in changed (only the feedback folders are new)
    assert {k: v for k, v in digests(home).items() if "/feedback/" not in f"/{k}"} == before
    assert {k: v for k, v in digests(week).items() if k.endswith(".ipynb")} == \
        {k: v for k, v in collected_before.items() if k.endswith(".ipynb")}
