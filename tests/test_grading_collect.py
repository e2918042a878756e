"""collect (a folder of learner folders, JupyterHub homes) and return."""

from __future__ import annotations

import json
import os
from datetime import UTC, datetime
from pathlib import Path

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.term.collect import MANIFEST, collect, manifest_entry
from baccarat_kit.grading.term.hand_back import return_feedback

DEADLINE = "2026-12-01T12:00:00Z"
BEFORE = datetime(2026, 12, 1, 11, 0, tzinfo=UTC).timestamp()
AFTER = datetime(2026, 12, 1, 13, 0, tzinfo=UTC).timestamp()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    root = tmp_path / "home"
    for learner, when in (("ann", BEFORE), ("ben", AFTER)):
        folder = root / learner / "exercises"
        folder.mkdir(parents=True)
        nb = folder / "03-banker-rule.ipynb"
        nb.write_text('{"cells": []}', encoding="utf-8")
        os.utime(nb, (when, when))
    (root / "ann" / "exercises" / ".secret.ipynb").write_text("{}", encoding="utf-8")
    (root / "ben" / "exercises" / "copy.ipynb").symlink_to(root / "ann" / "exercises" / "03-banker-rule.ipynb")
    (root / "ann" / ".ipynb_checkpoints").mkdir()
    (root / "cai").mkdir()
    (root / "cai" / "exercises").symlink_to(root / "ann" / "exercises")  # cai hands in ann's work
    return root


def test_collect_time_is_the_hand_in_time_and_it_reports_what_it_skips(home: Path, tmp_path: Path) -> None:
    before = sorted((str(p), p.stat().st_mtime) for p in home.rglob("*") if p.is_file())
    done = collect(home, tmp_path / "out", pattern="exercises/*.ipynb", deadline=DEADLINE,
                   now=datetime(2026, 12, 1, 11, 59, tzinfo=UTC))
    assert done.folder.name == "2026-12-01T115900Z"
    assert sorted(p.relative_to(done.folder).as_posix() for p in done.files) == [
        "ann/exercises/03-banker-rule.ipynb", "ben/exercises/03-banker-rule.ipynb"]
    ann = done.folder / "ann" / "exercises" / "03-banker-rule.ipynb"
    assert ann.stat().st_mtime == BEFORE
    assert manifest_entry(ann) == {"owner": "ann", "source": str(home / "ann" / "exercises" / "03-banker-rule.ipynb"),
                                   "submitted_at": "2026-12-01T11:59:00Z", "file_mtime": "2026-12-01T11:00:00Z",
                                   "late": False, "deadline": DEADLINE, "size": 13}
    # ben's file says 13:00, after the deadline, but it was collected before it: on time (the
    # learner sets her file's time; only the collect's own time is the hand-in time)
    ben = manifest_entry(done.folder / "ben" / "exercises" / "03-banker-rule.ipynb")
    assert ben is not None and ben["late"] is False and ben["file_mtime"] == "2026-12-01T13:00:00Z"
    skipped = {s["file"]: s["en"] for s in done.skipped}
    assert "hidden" in skipped["ann/exercises/.secret.ipynb"]
    assert "symbolic link" in skipped["ben/exercises/copy.ipynb"]
    assert "symbolic link" in skipped["cai/exercises"]
    assert not (done.folder / "cai").exists()
    assert json.loads((done.folder / MANIFEST).read_text(encoding="utf-8"))["deadline"] == DEADLINE
    assert sorted((str(p), p.stat().st_mtime) for p in home.rglob("*") if p.is_file()) == before
    late = collect(home, tmp_path / "out", pattern="exercises/*.ipynb", deadline=DEADLINE, only={"ben"},
                   now=datetime(2026, 12, 1, 12, 0, 1, tzinfo=UTC))  # a collect after the deadline
    assert [p.relative_to(late.folder).as_posix() for p in late.files] == ["ben/exercises/03-banker-rule.ipynb"]
    assert manifest_entry(late.files[0])["late"] is True  # type: ignore[index]


def test_a_learners_own_deadline_from_a_class_list(home: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    classes = tmp_path / "class.csv"
    classes.write_text("learner,deadline\nann,\nben,2026-12-08T12:00Z\n", encoding="utf-8")
    assert main(["--lang", "en", "collect", str(home), "--glob", "exercises/*.ipynb", "--out", str(tmp_path / "c"),
                 "--deadline", DEADLINE, "--class-list", str(classes), "--name", "w1"]) == 0
    # the collect ran now, in 2026 December or later: after ann's deadline, before ben's
    folder = tmp_path / "c" / "w1"
    now = datetime.now(UTC)
    ann = manifest_entry(folder / "ann" / "exercises" / "03-banker-rule.ipynb")
    ben = manifest_entry(folder / "ben" / "exercises" / "03-banker-rule.ipynb")
    assert ann is not None and ben is not None
    assert ben["deadline"] == "2026-12-08T12:00:00Z" and ann["deadline"] == DEADLINE
    assert ann["late"] is (now > datetime(2026, 12, 1, 12, tzinfo=UTC))
    assert ben["late"] is (now > datetime(2026, 12, 8, 12, tzinfo=UTC))
    # a collect after a deadline says whose files it flagged late (before: only in its manifest)
    out = capsys.readouterr().out
    assert ("1 learner(s) handed in after their deadline" in out and ": ann." in out) is ann["late"]
    assert main(["--lang", "zh", "collect", str(home), "--glob", "exercises/*.ipynb", "--out", str(tmp_path / "c"),
                 "--deadline", "2000-01-01T00:00Z", "--name", "w2"]) == 0
    assert "其中 2 位學員的檔案是在她的期限之後收取的，標為遲交（照收）：ann, ben。" in capsys.readouterr().out
    # a list whose header has no learner column says what its header is
    other = tmp_path / "names.csv"
    other.write_text("name,deadline\nann,\n", encoding="utf-8")
    assert main(["--lang", "en", "collect", str(home), "--out", str(tmp_path / "e"), "--class-list", str(other)]) == 2
    assert "has no learner column (its header row is 'name', 'deadline')" in capsys.readouterr().err
    other.write_text("ann,\nben,\n", encoding="utf-8")  # no header at all: its first learner is the header
    assert main(["--lang", "zh", "collect", str(home), "--out", str(tmp_path / "e"), "--class-list", str(other)]) == 2
    assert "沒有 learner 欄（它的標題列是 'ann', ''）" in capsys.readouterr().err
    classes.write_text("learner,deadline\nben,next friday\n", encoding="utf-8")
    assert main(["--lang", "en", "collect", str(home), "--out", str(tmp_path / "d"), "--class-list", str(classes)]) == 2


def test_collect_command_and_bad_input(home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "collect", str(home), "--out", str(tmp_path / "c"), "--name", "w1"]) == 0
    assert (tmp_path / "c" / "w1" / "ben" / "exercises" / "03-banker-rule.ipynb").exists()
    assert ".secret.ipynb" in capsys.readouterr().err
    assert main(["--lang", "en", "collect", str(home), "--out", str(tmp_path / "c"), "--name", "w1"]) == 2
    assert "Give another --name" in capsys.readouterr().err  # not "collect again in a moment": same name
    assert main(["--lang", "zh", "collect", str(home), "--out", str(tmp_path / "c"), "--name", "w1"]) == 2
    assert "請換一個 --name" in capsys.readouterr().err
    assert main(["--lang", "en", "collect", str(tmp_path / "nope"), "--out", str(tmp_path / "c")]) == 2
    assert main(["--lang", "en", "collect", str(home), "--out", str(tmp_path / "d"), "--deadline", "Friday"]) == 2
    assert "ISO 8601" in capsys.readouterr().err


def test_return_never_writes_over_a_learners_own_file(home: Path, tmp_path: Path) -> None:
    graded = tmp_path / "graded"
    (graded / "feedback").mkdir(parents=True)
    rows = []
    for learner in ("ann", "ben", "nobody"):
        page = graded / "feedback" / f"{learner}--03-banker-rule.html"
        page.write_text("<!-- baccarat-kit feedback -->\n<p>ok</p>", encoding="utf-8")
        rows.append({"file": f"{learner}.ipynb", "owner": learner, "exercise": "03-banker-rule",
                     "feedback": f"feedback/{page.name}"})
    (graded / "results.json").write_text(json.dumps({"submissions": rows}), encoding="utf-8")
    (home / "ben" / "feedback").mkdir()
    own = home / "ben" / "feedback" / "03-banker-rule.html"
    own.write_text("ben's own notes", encoding="utf-8")
    written, problems = return_feedback(graded, home)
    assert written == [home / "ann" / "feedback" / "03-banker-rule.html"]
    assert own.read_text(encoding="utf-8") == "ben's own notes"
    assert {"file": str(own), "reason": "not_ours"} in problems
    assert {"file": str(home / "nobody" / "feedback" / "03-banker-rule.html"), "reason": "no_folder"} in problems
    again, _ = return_feedback(graded, home)  # a page the grader wrote may be replaced
    assert again == written


def test_one_learner_collected_twice_is_not_flagged_as_a_claim() -> None:
    """Step 3b of docs/instructors.md (collect her again at her deadline) gave every exercise of
    hers "Learner id 'dan' also appears in other submissions … the id is the learner's own claim":
    her two hand-ins are hers (the row is the folder's owner). Files graded without collect, whose
    ids are claims, are still flagged."""
    from baccarat_kit.grading.grade import _flag_duplicates
    from baccarat_kit.grading.records import Submission

    def row(file: str, learner: str, owner: str | None, sha: str) -> Submission:
        return Submission(file, sha * 64, "03-banker-rule", learner, "ok", {"zh": "", "en": ""}, owner=owner)

    twice = [row("c/w1/dan/exercises/03-banker-rule.ipynb", "dan", "dan", "a"),
             row("c/w1-late/dan/exercises/03-banker-rule.ipynb", "dan", "dan", "b")]
    same_bytes = [row("c/w1/dan/exercises/03-banker-rule.ipynb", "dan", "dan", "a"),
                  row("c/w1-late/dan/exercises/03-banker-rule.ipynb", "dan", "dan", "a")]
    claims = [row("subs/a.ipynb", "dan", None, "c"), row("subs/b.ipynb", "dan", None, "d")]
    for subs in (twice, same_bytes, claims):
        _flag_duplicates(subs)
    assert [s.warnings for s in twice + same_bytes] == [[]] * 4
    assert all(any("also appears" in w["en"] for w in s.warnings) for s in claims)


def test_only_takes_several_learners_and_refuses_a_name_with_no_folder(home: Path, tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``--only bne`` (a typo) made an empty folder and said "Collected 0", exit 0; ``--only ben
    --only ann`` kept only the last. Now a name with no folder is exit 2 before anything is
    written, listing the folders there; --only may be given again."""
    names = sorted(p.name for p in home.iterdir() if p.is_dir())
    assert len(names) >= 2
    for lang, words in (("en", "who have no folder in"), ("zh", "沒有資料夾，沒有收取任何檔案")):
        assert main(["--lang", lang, "collect", str(home), "--out", str(tmp_path / "c"), "--name", "typo",
                     "--only", "nobody-here"]) == 2
        err = capsys.readouterr().err
        assert words in err and "nobody-here" in err and names[0] in err
    assert not (tmp_path / "c" / "typo").exists()
    assert main(["--lang", "en", "collect", str(home), "--out", str(tmp_path / "c"), "--name", "two",
                 "--only", names[0], "--only", names[1]]) == 0
    assert sorted(p.name for p in (tmp_path / "c" / "two").iterdir() if p.is_dir()) == names[:2]
