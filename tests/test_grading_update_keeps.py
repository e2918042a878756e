"""``grade --update`` keeps the gradebook's ``--deadline`` and ``--class-list`` (results.json) unless
given again, and says which it used; the summary line gives each exercise against its own maximum
(issue 35)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading import grade as g
from baccarat_kit.grading.records import QuestionResult
from baccarat_kit.i18n import both

ROOT = Path(__file__).resolve().parents[1]
HANDED_IN = 1_796_000_000  # 2026-11-29T…Z: the file's modification time, its hand-in time here
CLASS_DEADLINE = "2026-11-01T00:00:00Z"  # before the hand-in: late
OWN_DEADLINE = "2026-12-31T00:00:00Z"  # s1's extension: on time


def _fake_grade(scores: dict[str, tuple[str, int, int]]) -> object:
    """grade_file giving each file (by name) its exercise, score and maximum, learner s1 / s2 …"""
    def grade_file(path: Path, exercises: object, limits: object = None, display: object = None) -> g.Submission:
        exercise, score, most = scores[path.name]
        learner = path.stem.split("_")[0]
        return g.Submission(str(path), path.name.encode().hex().ljust(64, "0")[:64], exercise, learner, "ok",
                            {}, questions=[QuestionResult("q1", most, score, ())], max_score=most)
    return grade_file


def _run(capsys: pytest.CaptureFixture[str], *argv: str, lang: str = "en") -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["--lang", lang, *argv, "--no-progress", "--no-sandbox"])
    out = capsys.readouterr()
    return code, out.out, out.err


def _files(tmp_path: Path, *names: str) -> Path:
    folder = tmp_path / "subs"
    folder.mkdir(exist_ok=True)
    for name in names:
        path = folder / name
        path.write_text("{}", encoding="utf-8")
        os.utime(path, (HANDED_IN, HANDED_IN))
    return folder


def _doc(out: Path) -> dict[str, object]:
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert isinstance(doc, dict)
    return doc


def _row(out: Path, learner: str) -> dict[str, object]:
    rows = [r for r in _doc(out)["submissions"] if r["learner"] == learner]  # type: ignore[attr-defined]
    assert len(rows) == 1
    row = rows[0]
    assert isinstance(row, dict)
    return row


@pytest.fixture
def graded(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> Path:
    """A gradebook graded with --deadline and a class list giving s1 an extension."""
    monkeypatch.setattr(g, "grade_file", _fake_grade({"s1_03.ipynb": ("03-banker-rule", 9, 11),
                                                      "s2_03.ipynb": ("03-banker-rule", 8, 11)}))
    folder = _files(tmp_path, "s1_03.ipynb", "s2_03.ipynb")
    (tmp_path / "class.csv").write_text(f"learner,deadline,sis_user_id\ns1,{OWN_DEADLINE},S-0001\ns2,,\n",
                                        encoding="utf-8")
    out = tmp_path / "out"
    code, _, _ = _run(capsys, "grade", str(folder), "--out", str(out), "--deadline", CLASS_DEADLINE,
                      "--class-list", str(tmp_path / "class.csv"))
    assert code == 0
    assert (_row(out, "s1")["deadline"], _row(out, "s1")["late"]) == (OWN_DEADLINE, False)
    assert (_row(out, "s2")["deadline"], _row(out, "s2")["late"]) == (CLASS_DEADLINE, True)
    return out


def test_grading_records_the_deadline_and_the_class_list(graded: Path, tmp_path: Path) -> None:
    doc = _doc(graded)
    assert doc["deadline"] == CLASS_DEADLINE
    assert doc["class_list"] == {"file": str(tmp_path / "class.csv"), "deadlines": {"s1": OWN_DEADLINE},
                                 "lms": {"s1": {"sis_user_id": "S-0001"}}}
    assert "s1,,S-0001,s1," in (graded / "canvas.csv").read_text(encoding="utf-8")  # (issue 44)


def test_update_keeps_them_and_says_so(graded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "class.csv").unlink()  # kept in the gradebook: the file itself is not needed again
    for learner in ("s1", "s2"):
        code, _, err = _run(capsys, "grade", str(tmp_path / "subs" / f"{learner}_03.ipynb"), "--out", str(graded),
                            "--update")
        assert code == 0
        assert f"deadline {CLASS_DEADLINE} (this gradebook's; give --deadline to change it)" in err
        assert "learner(s) with a deadline of their own (this gradebook's; give --class-list to change it)" in err
    # before: the regrade had no deadline (late None) and lost s1's extension
    assert (_row(graded, "s1")["deadline"], _row(graded, "s1")["late"]) == (OWN_DEADLINE, False)
    assert (_row(graded, "s2")["deadline"], _row(graded, "s2")["late"]) == (CLASS_DEADLINE, True)
    doc = _doc(graded)  # and kept for the next --update
    assert doc["deadline"] == CLASS_DEADLINE and doc["class_list"]["deadlines"] == {"s1": OWN_DEADLINE}  # type: ignore[index]
    assert "s1,,S-0001,s1," in (graded / "canvas.csv").read_text(encoding="utf-8")  # the ids kept too


def test_an_option_given_again_wins(graded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    later = "2026-12-15T00:00:00Z"
    (tmp_path / "new.csv").write_text("learner,deadline\ns2,2026-12-20T00:00:00Z\n", encoding="utf-8")
    code, _, err = _run(capsys, "grade", str(tmp_path / "subs"), "--out", str(graded), "--update",
                        "--deadline", later)
    assert code == 0 and f"deadline {later} (the --deadline given)" in err and "(this gradebook's; give --class-list" in err
    assert (_row(graded, "s1")["deadline"], _row(graded, "s2")["deadline"]) == (OWN_DEADLINE, later)
    assert _doc(graded)["deadline"] == later
    code, _, err = _run(capsys, "grade", str(tmp_path / "subs"), "--out", str(graded), "--update",
                        "--class-list", str(tmp_path / "new.csv"))
    assert code == 0 and "(the --class-list given)" in err and f"deadline {later} (this gradebook's" in err
    assert (_row(graded, "s1")["deadline"], _row(graded, "s2")["deadline"]) == (later, "2026-12-20T00:00:00Z")
    assert _doc(graded)["class_list"]["deadlines"] == {"s2": "2026-12-20T00:00:00Z"}  # type: ignore[index]


def test_an_older_gradebook_without_them_is_updated_as_before(graded: Path, tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    doc = _doc(graded)
    del doc["deadline"], doc["class_list"]
    (graded / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = _run(capsys, "grade", str(tmp_path / "subs" / "s2_03.ipynb"), "--out", str(graded), "--update")
    assert code == 0 and "not recorded in this gradebook, no --deadline given" in err
    assert (_row(graded, "s2")["deadline"], _row(graded, "s2")["late"]) == (None, None)
    assert _row(graded, "s1")["deadline"] == OWN_DEADLINE  # the other row stays
    after = _doc(graded)
    assert (after["deadline"], after["class_list"]) == (None, None)
    code, _, err = _run(capsys, "grade", str(tmp_path / "subs" / "s2_03.ipynb"), "--out", str(graded), "--update",
                        "--deadline", CLASS_DEADLINE)  # given again, as the docs said before
    assert code == 0 and (_row(graded, "s2")["deadline"], _row(graded, "s2")["late"]) == (CLASS_DEADLINE, True)


def test_a_kept_value_this_kit_did_not_write_is_refused(graded: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    doc = _doc(graded)
    doc["class_list"] = {"file": "x.csv", "deadlines": ["s1"]}
    (graded / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    code, _, err = _run(capsys, "grade", str(tmp_path / "subs"), "--out", str(graded), "--update")
    assert code == 2 and "class_list this kit did not write" in err


@pytest.mark.parametrize("lang, words", [
    ("en", "03-banker-rule: mean 8.5 / 11 (n=2); 04-whole-coups: mean 7.0 / 8 (n=1)"),
    ("zh", "03-banker-rule：平均 8.5／11 分（2 份）；04-whole-coups：平均 7.0／8 分（1 份）"),
])
def test_the_summary_gives_each_exercise_against_its_own_maximum(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str,
        words: str) -> None:
    monkeypatch.setattr(g, "grade_file", _fake_grade({"s1_03.ipynb": ("03-banker-rule", 9, 11),
                                                      "s2_03.ipynb": ("03-banker-rule", 8, 11),
                                                      "s3_04.ipynb": ("04-whole-coups", 7, 8)}))
    folder = _files(tmp_path, "s1_03.ipynb", "s2_03.ipynb", "s3_04.ipynb")
    code, out, _ = _run(capsys, "grade", str(folder), "--out", str(tmp_path / "out"), lang=lang)
    assert code == 0 and words in out  # before: one mean of 8.0 over maxima of 11 and 8
    assert "8.00" not in out


@pytest.mark.parametrize("lang, words", [
    ("en", "03-banker-rule: mean 8.5 / 11 graded so far (of 14), 6 points pending (n=2)"),
    ("zh", "03-banker-rule：已評部分平均 8.5／11 分（滿分 14），6 分待評（2 份）"),
])
def test_the_summary_says_the_points_pending_and_never_averages_them_as_0(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, lang: str,
        words: str) -> None:
    """Before: "mean 8.5 / 14", a written answer's 3 pending points counted as 0 (issue 43)."""
    from baccarat_kit.grading.judge.checks import Question
    from baccarat_kit.grading.judge.written import written_result

    q9 = Question.from_dict({"id": "q9", "kind": "written", "points": 3, "rubric": [
        {"id": "a", "points": 3, "zh": "甲", "en": "A"}]})

    def grade_file(path: Path, exercises: object, limits: object = None, display: object = None) -> g.Submission:
        score = 9 if path.name.startswith("s1") else 8
        return g.Submission(str(path), path.name.encode().hex().ljust(64, "0")[:64], "03-banker-rule",
                            path.stem.split("_")[0], "ok", {},
                            questions=[QuestionResult("q1", 11, score, ()), written_result(q9, "Because.")],
                            max_score=14)

    monkeypatch.setattr(g, "grade_file", grade_file)
    folder = _files(tmp_path, "s1_03.ipynb", "s2_03.ipynb")
    code, out, _ = _run(capsys, "grade", str(folder), "--out", str(tmp_path / "out"), lang=lang)
    assert code == 0 and words in out, out
    assert "/ 14 (n=2)" not in out and "／14 分（2 份）" not in out


def test_the_summary_counts_files_of_no_exercise_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(g, "grade_file", lambda path, exercises, limits=None: g.Submission(
        str(path), "0" * 64, None, "", "not_json", both("grading.reason.not_json", detail="-")))
    folder = _files(tmp_path, "s1_03.ipynb")
    code, out, _ = _run(capsys, "grade", str(folder), "--out", str(tmp_path / "out"))
    assert code == 0 and "Graded 1 submission(s): files of no known exercise: n=1;" in out


def _merge_by_scanning(old: list[dict[str, object]], new: list[dict[str, object]]) -> list[dict[str, object]]:
    """The merge as it was before its index (issue 43): every new row scans the whole gradebook
    (the same keys: what is compared is the index)."""
    from baccarat_kit.grading.term.gradebook import merge_keys as keys

    out: list[dict[str, object] | None] = list(old)
    for row in new:
        mine = keys(row)
        hits = [i for i, r in enumerate(out) if r is not None and keys(r) & mine]
        for i in hits[1:]:
            out[i] = None
        if hits:
            out[hits[0]] = row
        else:
            out.append(row)
    return [r for r in out if r is not None]


def test_the_indexed_merge_is_the_merge_it_replaces() -> None:
    import random

    from baccarat_kit.grading.term.gradebook import _merge

    rng = random.Random(43)

    def row(n: int) -> dict[str, object]:  # few files, owners, claims and exercises: many collisions
        return {"file": f"f{rng.randrange(12)}", "owner": rng.choice([None, "", "ann", "Ann ", "bob"]),
                "learner": rng.choice(["", "ann", "cai", "bob"]), "exercise": rng.choice([None, "03", "04"]), "n": n}

    for _ in range(2000):
        old = [row(n) for n in range(rng.randrange(8))]
        new = [row(100 + n) for n in range(rng.randrange(5))]
        assert _merge(old, new) == _merge_by_scanning(old, new), (old, new)


def test_an_update_with_an_owner_differing_only_in_case_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team: `grade --update` of a file collected from folder `Alice` into a gradebook of
    `alice` replaced her row (the merge ignores case) while canvas.csv then listed `Alice` and
    `alice` as two learners. Refused (exit 2), naming both, and nothing in the gradebook changes."""
    monkeypatch.setattr(g, "grade_file", _fake_grade({"03.ipynb": ("03-banker-rule", 9, 11)}))
    for name in ("alice", "bob"):
        (tmp_path / "home" / name).mkdir(parents=True)
        (tmp_path / "home" / name / "03.ipynb").write_text("{}", encoding="utf-8")
    (tmp_path / "home2" / "Alice").mkdir(parents=True)
    (tmp_path / "home2" / "Alice" / "03.ipynb").write_text("{}", encoding="utf-8")
    for root, name in (("home", "w1"), ("home2", "w2")):
        assert main(["collect", str(tmp_path / root), "--out", str(tmp_path / "c"), "--name", name]) == 0
    out = tmp_path / "out"
    assert _run(capsys, "grade", str(tmp_path / "c" / "w1"), "--out", str(out))[0] == 0
    before = {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()}
    code, _, err = _run(capsys, "grade", str(tmp_path / "c" / "w2" / "Alice" / "03.ipynb"), "--out", str(out),
                        "--update")
    assert code == 2 and "Alice / alice" in err
    assert {p.name: p.read_bytes() for p in out.iterdir() if p.is_file()} == before
    # (and in one batch: two folders of one name but for case are refused before any row is written)
    code, _, err = _run(capsys, "grade", str(tmp_path / "c"), "--out", str(tmp_path / "out2"))
    assert code == 2 and "Alice / alice" in err and not (tmp_path / "out2").exists()


def test_collected_work_the_gradebook_and_the_report_are_the_instructors_alone(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team: with the usual umask 022 the collected notebooks, the manifest, grades.csv,
    canvas.csv, results.json, the feedback pages and the class report (every learner's grades)
    were world-readable. Folders 0700, files 0600, also when the output folder is the instructor's
    own 0755 one and after an --update."""
    import stat

    monkeypatch.setattr(g, "grade_file", _fake_grade({"03.ipynb": ("03-banker-rule", 9, 11)}))
    old = os.umask(0o022)
    try:
        (tmp_path / "home" / "alice").mkdir(parents=True)
        (tmp_path / "home" / "alice" / "03.ipynb").write_text("{}", encoding="utf-8")
        assert main(["collect", str(tmp_path / "home"), "--out", str(tmp_path / "c"), "--name", "w1"]) == 0
        out = tmp_path / "out"
        out.mkdir(mode=0o755)
        assert _run(capsys, "grade", str(tmp_path / "c" / "w1"), "--out", str(out))[0] == 0
        code, _, err = _run(capsys, "grade", str(tmp_path / "c" / "w1"), "--out", str(out), "--update")
        assert main(["report", str(out)]) == 0
        assert main(["return", str(out), "--to", str(tmp_path / "home")]) == 0  # her pages: her folder, 0700
        assert stat.S_IMODE((tmp_path / "home" / "alice" / "feedback").stat().st_mode) == 0o700
        # (no deadline kept or given: the collect's own applies, never "(none)")
        assert code == 0 and "get the deadline (the one each collect recorded, if any)" in err
    finally:
        os.umask(old)
    made = [*(tmp_path / "c" / "w1").rglob("*"), tmp_path / "c" / "w1", *out.rglob("*"), tmp_path / "out-report.html"]
    modes = {str(p.relative_to(tmp_path)): stat.S_IMODE(p.stat().st_mode) for p in made}
    assert {k for k in modes if k.endswith((".ipynb", ".json", ".csv", ".html"))} >= {
        "c/w1/alice/03.ipynb", "c/w1/.baccarat-kit-collected.json", "out/grades.csv", "out/canvas.csv",
        "out/results.json", "out-report.html"}
    assert {k: m for k, m in modes.items() if m != (0o700 if (tmp_path / k).is_dir() else 0o600)} == {}


def test_a_file_time_outside_the_term_makes_a_loose_file_neither_late_nor_on_time(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team: a file graded without collect has only its modification time; `touch -d 2100`
    made it late (10 %/day: 0 points) and counted it as her latest, `touch -d 1970` made it on
    time. Such a time is no hand-in time: unknown (late None, no penalty), said on the row."""
    monkeypatch.setattr(g, "grade_file", _fake_grade({n: ("03-banker-rule", 9, 11) for n in
                                                      ("s1_03.ipynb", "s2_03.ipynb", "s3_03.ipynb")}))
    folder = _files(tmp_path, "s1_03.ipynb", "s2_03.ipynb", "s3_03.ipynb")
    os.utime(folder / "s1_03.ipynb", (4_102_444_800, 4_102_444_800))  # 2100-01-01
    os.utime(folder / "s2_03.ipynb", (86_400, 86_400))  # 1970-01-02
    out = tmp_path / "out"
    code, _, _ = _run(capsys, "grade", str(folder), "--out", str(out), "--deadline", CLASS_DEADLINE,
                        "--late-penalty", "10%/day")
    assert code == 0
    for learner in ("s1", "s2"):
        row = _row(out, learner)
        assert (row["late"], row["submitted_at"], row["score"]) == (None, None, 9), row
        assert any("cannot be a hand-in of this term" in w["en"] for w in row["warnings"])  # type: ignore[attr-defined]
    assert (_row(out, "s3")["late"], _row(out, "s3")["score"]) == (True, 0)  # (2026-11-29, a month late: 0)


def test_the_summary_line_never_averages_an_untouched_copy_as_0(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team: a class copy handed back as it came is not attempted (no score, blank in the LMS
    files), yet the summary line averaged it as 0: "mean 4.5 / 7" for a class whose answers
    averaged 6.75, and "mean 0.0 / 11" for an exercise nobody had started."""
    fake = _fake_grade({"s1_03.ipynb": ("03-banker-rule", 9, 11), "s2_03.ipynb": ("03-banker-rule", 0, 11),
                        "s1_02.ipynb": ("02-naturals-player", 0, 11)})

    def grade_file(path: Path, *args: object, **kwargs: object) -> g.Submission:
        sub = fake(path, *args, **kwargs)  # type: ignore[operator]
        if path.name != "s1_03.ipynb":
            sub.status = "not_attempted"
        return sub  # type: ignore[no-any-return]
    monkeypatch.setattr(g, "grade_file", grade_file)
    folder = _files(tmp_path, "s1_03.ipynb", "s2_03.ipynb", "s1_02.ipynb")
    code, out, err = _run(capsys, "grade", str(folder), "--out", str(tmp_path / "out"))
    assert code == 0 and "2 copies not attempted" in err
    assert "03-banker-rule: mean 9.0 / 11 (n=1)" in out and "02-naturals-player" not in out
    code, out, _ = _run(capsys, "grade", str(folder / "s1_02.ipynb"), "--out", str(tmp_path / "out2"))
    assert code == 0 and "no copy answered (no mean)" in out and "mean" not in out.replace("no mean", "")


def test_a_class_list_names_a_learner_whatever_the_case(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team: the LMS's list says "S1", the hub user (her folder) is "s1": her extension was
    not hers (flagged late, penalised) and canvas.csv left her Canvas ids out."""
    monkeypatch.setattr(g, "grade_file", _fake_grade({"s1_03.ipynb": ("03-banker-rule", 9, 11)}))
    folder = _files(tmp_path, "s1_03.ipynb")
    (tmp_path / "class.csv").write_text(f"learner,deadline,canvas_id\nS1,{OWN_DEADLINE},4711\n", encoding="utf-8")
    out = tmp_path / "out"
    code, _, _ = _run(capsys, "grade", str(folder), "--out", str(out), "--deadline", CLASS_DEADLINE,
                      "--class-list", str(tmp_path / "class.csv"), "--late-penalty", "10%/day")
    assert code == 0
    assert (_row(out, "s1")["deadline"], _row(out, "s1")["late"], _row(out, "s1")["score"]) == (OWN_DEADLINE, False, 9)
    assert "s1,4711,,s1,,9" in (out / "canvas.csv").read_text(encoding="utf-8")


def test_a_deadline_that_is_a_date_alone_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--deadline 2026-12-08` (or a class list's) was read as 2026-12-08T00:00Z: every hand-in of
    that day was late. Refused, saying what to write."""
    folder = _files(tmp_path, "s1_03.ipynb")
    (tmp_path / "class.csv").write_text("learner,deadline\ns1,2026-12-08\n", encoding="utf-8")
    for extra in (["--deadline", "2026-12-08"], ["--class-list", str(tmp_path / "class.csv")]):
        code, _, err = _run(capsys, "grade", str(folder), "--out", str(tmp_path / "out"), *extra)
        assert code == 2 and "2026-12-08T23:59+08:00" in err and not (tmp_path / "out").exists()
    capsys.readouterr()
    assert main(["--lang", "en", "collect", str(folder), "--out", str(tmp_path / "c"), "--deadline", "2026-12-08"]) == 2
    assert "a date alone" in capsys.readouterr().err


def test_collect_refuses_an_out_folder_inside_the_learner_folders(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Red team: `collect home --out home/collected` worked; the next collect took home/collected
    as learner "collected", every learner's collected notebooks as hers. A hub's own prefix keeps
    the instructor's home (not a learner's) usable."""
    (tmp_path / "home" / "ann").mkdir(parents=True)
    (tmp_path / "home" / "ann" / "01.ipynb").write_text("{}", encoding="utf-8")
    for out in ("home/collected", "home", "home/ann/c"):
        capsys.readouterr()
        assert main(["--lang", "en", "collect", str(tmp_path / "home"), "--out", str(tmp_path / out)]) == 2
        assert "is inside the folder of learner folders" in capsys.readouterr().err
    assert main(["collect", str(tmp_path / "home"), "--out", str(tmp_path / "home" / "teacher"),
                 "--hub-prefix", "jupyter-"]) == 0
    assert main(["collect", str(tmp_path / "home"), "--out", str(tmp_path / "c")]) == 0
    assert not (tmp_path / "home" / "collected").exists()


def test_an_update_with_an_untouched_copy_keeps_her_answered_row(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """Red team: `grade --update` of an untouched copy of hers (collected again later: a fresh
    hand-out, the self-study copy) replaced her answered row in the gradebook, so her 9 became a
    blank in the LMS files. It is left out, said on stderr; her row stays."""
    def grade_file(path: Path, *args: object, **kwargs: object) -> g.Submission:
        sub = _fake_grade({"03.ipynb": ("03-banker-rule", 9, 11)})(path, *args, **kwargs)  # type: ignore[operator]
        if "w2" in path.parts:
            sub.status = "not_attempted"
        return sub  # type: ignore[no-any-return]
    monkeypatch.setattr(g, "grade_file", grade_file)
    (tmp_path / "home" / "alice").mkdir(parents=True)
    (tmp_path / "home" / "alice" / "03.ipynb").write_text("{}", encoding="utf-8")
    for name in ("w1", "w2"):
        assert main(["collect", str(tmp_path / "home"), "--out", str(tmp_path / "c"), "--name", name]) == 0
    out = tmp_path / "out"
    assert _run(capsys, "grade", str(tmp_path / "c" / "w1"), "--out", str(out))[0] == 0
    before = (out / "results.json").read_bytes()
    code, _, err = _run(capsys, "grade", str(tmp_path / "c" / "w2"), "--out", str(out), "--update")
    assert code == 0 and "untouched copy never replaces it" in err, err
    assert (out / "results.json").read_bytes() == before and "alice,9" in (out / "moodle.csv").read_text()
