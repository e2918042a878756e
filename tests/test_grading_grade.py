"""The batch grader on the shipped solutions, the learners' copies and every hostile fixture.

One batch (module-scoped, ``--jobs 2``) is graded through the CLI and shared by the tests.
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.grade import Limits, grade_file, load_exercises
from baccarat_kit.grading.sandbox import bwrap as _bwrap
from baccarat_kit.grading.sandbox import landlock as _sandbox
from baccarat_kit.grading.sandbox.session import run_notebook as _run_notebook

ROOT = Path(__file__).resolve().parents[1]
SOURCES = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
COPIES = sorted((ROOT / "exercises").glob("*.ipynb"))
FIXTURES = sorted((ROOT / "tests" / "fixtures" / "submissions").glob("*.ipynb"))
LIMITS = ["--timeout", "8", "--notebook-timeout", "40"]  # (room for a loaded machine; the endless loop waits them out)
try:
    _bwrap.check()
    SANDBOX: list[str] = []
except _bwrap.SandboxMissing:  # the grader's logic is still tested; tests/test_grading_sandbox.py says why
    SANDBOX = ["--no-sandbox"]
KIND = "none" if SANDBOX else "bwrap"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    paths = [*SOURCES, *COPIES, *FIXTURES]
    before = {p: digest(p) for p in paths}
    parent = tmp_path_factory.mktemp("grading")
    out = parent / "out"
    scratch = tmp_path_factory.mktemp("grading-scratch")  # the grader's temporary folders (no sandbox)
    with pytest.MonkeyPatch.context() as mp:
        if KIND == "none":  # (a sandbox's stepping stones must stay world-readable: not under the clone)
            mp.setattr(tempfile, "tempdir", str(scratch))
        code = main(["--lang", "en", "grade", *map(str, paths), "--out", str(out), "--jobs", "2",
                     "--no-progress", *LIMITS, *SANDBOX])
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    return {"code": code, "out": out, "parent": parent, "scratch": scratch, "before": before, "paths": paths,
            "subs": {Path(s["file"]).resolve(): s for s in doc["submissions"]},
            "rows": {Path(r["file"]).resolve(): r for r in rows}, "doc": doc}


def sub(batch: dict[str, Any], path: Path) -> dict[str, Any]:
    return batch["subs"][path.resolve()]


def test_every_submission_gets_a_row_and_exit_0(batch: dict[str, Any]) -> None:
    assert batch["code"] == 0
    assert len(batch["subs"]) == len(batch["paths"]) == len(batch["rows"])
    assert [p.name for p in batch["parent"].iterdir()] == ["out"]  # no temporary folder left behind


def test_submissions_are_never_modified(batch: dict[str, Any]) -> None:
    for path, before in batch["before"].items():
        assert digest(path) == before, path
        assert sub(batch, path)["sha256"] == before


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: p.stem)
def test_every_solution_scores_full_marks(batch: dict[str, Any], source: Path) -> None:
    s = sub(batch, source)
    assert s["status"] == "ok"
    assert s["score"] == s["max_score"] - s["pending_points"] > 0, {q: r["message"]["en"] for q, r in s["questions"].items()}
    assert s["learner"] == "demo-learner"


@pytest.mark.parametrize("copy", COPIES, ids=lambda p: p.stem)
def test_every_learner_copy_scores_zero(batch: dict[str, Any], copy: Path) -> None:
    """A copy handed in as it came is "not attempted": no points, no flag, no claimed id."""
    s = sub(batch, copy)
    assert s["status"] == "not_attempted" and s["score"] == 0 and s["max_score"] > 0
    assert all(not q["passed"] for q in s["questions"].values())
    assert not s["identity_mismatch"]
    assert [w for w in s["warnings"] if "--no-sandbox" not in w["en"]] == []


EXPECTED = {
    # fixture: (status, question whose message is checked, words in that message)
    # its imports of the grader's modules fail alone; what is left is her own lambda (always True),
    # graded as any always-True banker_draws is (:data:`OWN_SCORE`)
    "cheat-patch-checker": ("ok", "q5", "wrong result(s)"),
    "cheat-fake-pass": ("not_attempted", "q1", "still `...`"),
    # its forged "PASS" lines never arrive: the grader reads the notebook's own (wrong) values
    "cheat-input-transformer": ("ok", "q1", "('PASS') is not the kind"),
    "cheat-run-cell-hook": ("ok", "q1", "('PASS') is not the kind"),
    "cheat-patch-shell": ("ok", "q1", "('PASS') is not the kind"),
    "cheat-eq-always-true": ("ok", "q1", "AlwaysTrue"),
    "cheat-patch-builtins": ("ok", "q1", "('PASS') is not the kind"),  # builtins reset for the extraction
    "cheat-kill-parent": (None, None, ""),  # ok under Landlock (signal refused), else worker_failed
    "cheat-escape": ("ok", "q1", "not the kind of answer"),
    "endless-loop": ("cell_timeout", None, "endless loop"),
    "endless-function": ("ok", "q5", "did not finish"),
    "deleted-cells": ("not_attempted", "q1", "No answer `case_a`"),
    "giant-output": (None, None, ""),
    # a missing answer whose cell failed says so: that cell, and its exception
    "memory-hog": ("ok", "q1", "`case_a` has no value: the cell that sets it (code cell 3) failed when graded (NameError)"),
    # issue 30: the kit's rule code is absent from the grading run, so each way of reaching it
    # fails there (the call raises, the name is not there, the module is the exercise API)
    "delegate-call": ("ok", "q5", "returned AbsentError"),
    "delegate-default-arg": ("ok", "q5", "the cell that sets it (code cell 10) failed when graded (AbsentError)"),
    "delegate-table": ("ok", "q5", "returned NameError"),
    "delegate-assign": ("ok", "q5", "the cell that sets it (code cell 10) failed when graded (AbsentError)"),
    "delegate-getattr": ("ok", "q5", "returned AbsentError"),
    "delegate-hidden-global": ("ok", "q5", "NameError"),
    "delegate-typing-sys": ("ok", "q5", "returned KeyError"),
    "delegate-match-pattern": ("ok", "q5", "returned TypeError"),
    "delegate-formatter": ("ok", "q5", "returned AbsentError"),
    "delegate-update-wrapper": ("ok", "q5", "returned TypeError"),
    "cheat-daemon": ("not_attempted", "q1", "still `...`"),
    "cheat-metadata": ("ok", "q1", "not the kind of answer"),
    "cheat-formula-id": ("not_attempted", "q1", "still `...`"),
    "cheat-snoop": ("ok", "q4", "('FileNotFoundError')"),  # what it read (issue 30: no rules.py there)
    "not-json": ("not_json", None, "Not a JSON file"),
    "not-a-notebook": ("not_notebook", None, "Not a readable Jupyter notebook"),
}


def test_every_fixture_has_an_expectation() -> None:
    assert sorted(p.stem for p in FIXTURES) == sorted(EXPECTED)


def _always_true_banker_draws() -> float:
    """What a banker_draws that always says True earns (her own rule, however poor)."""
    from baccarat_kit.grading.judge.checks import grade_question

    q5 = load_exercises(ROOT / "exercises" / "source")["03-banker-rule"].question("q5")
    answer = {"status": "ok", "results": [True] * len(q5.inputs()), "tripped": 0, "kit_function": False}
    return float(grade_question(q5, answer, None).score)


def _own_stood_rule_banker_draws() -> float:
    """delegate-table's banker_draws: its own line for a player who stood (``total <= 5``); every
    other cell reads the kit's table, which is not in the grading run, so it raises there."""
    from baccarat_kit.grading.judge.checks import grade_question

    q5 = load_exercises(ROOT / "exercises" / "source")["03-banker-rule"].question("q5")
    results = [total <= 5 if third is None else {"$error": "NameError"} for total, third in q5.inputs()]
    answer = {"status": "ok", "results": results, "tripped": 0, "kit_function": False}
    return float(grade_question(q5, answer, None).score)


OWN_SCORE = {"cheat-patch-checker": _always_true_banker_draws,
             "delegate-table": _own_stood_rule_banker_draws}
"""Fixtures whose only points are for code of their own (issue 30: nothing of the kit to patch)."""


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_every_hostile_fixture_scores_zero(batch: dict[str, Any], fixture: Path) -> None:
    s = sub(batch, fixture)
    status, qid, words = EXPECTED[fixture.stem]
    own = OWN_SCORE[fixture.stem]() if fixture.stem in OWN_SCORE else 0
    assert s["score"] == own
    assert float(batch["rows"][fixture.resolve()]["score"]) == own
    if status is not None:
        assert s["status"] == status, s["reason"]["en"]
    text = s["questions"][qid]["message"]["en"] if qid else s["reason"]["en"]
    if fixture.stem == "endless-loop" and "having used only" in text:
        # On a machine loaded past ~12 (2 cores), a busy loop gets under 8 s of CPU in the 48 s
        # wall backstop: the backstop ends it first, with its own words. Either way it scores 0.
        words = "wall-clock time"
    assert words in text, text
    if fixture.stem.startswith("delegate-"):  # the kit's function is not in the grading run
        assert "wrong result" in text or "the cell that sets it" in text


def test_learner_code_cannot_write_outside_its_folder(batch: dict[str, Any]) -> None:
    escaped = ROOT / "tests" / "fixtures" / "escaped-by-learner.txt"
    if _sandbox.abi_version() < 1:
        escaped.unlink(missing_ok=True)
        pytest.skip("Linux Landlock is not available here: writes are not confined")
    assert not escaped.exists()
    assert batch["doc"]["limits"]["sandbox"].startswith("NONE" if SANDBOX else "bubblewrap")


def test_a_kernel_cannot_kill_its_grading_worker(batch: dict[str, Any]) -> None:
    s = sub(batch, ROOT / "tests" / "fixtures" / "submissions" / "cheat-kill-parent.ipynb")
    if _sandbox.abi_version() >= 6:
        # the signal was refused, the notebook's (no) answers were read as usual
        assert s["status"] == "not_attempted", s["reason"]["en"]
    else:
        assert s["status"] == "worker_failed" and "ended abnormally" in s["reason"]["en"]


def test_forged_answers_never_arrive(batch: dict[str, Any]) -> None:
    """The transformer and the pre_run_cell hook printed engine-correct answers with the nonce;
    the grader saw the learner's real (wrong) answers instead."""
    for name in ("cheat-input-transformer", "cheat-run-cell-hook", "cheat-patch-shell"):
        s = sub(batch, ROOT / "tests" / "fixtures" / "submissions" / f"{name}.ipynb")
        assert s["status"] == "ok" and s["learner"] == "mallory"
        assert all(not q["passed"] for q in s["questions"].values())


def test_memory_limit_is_what_stops_the_memory_hog(tmp_path: Path) -> None:
    """Positive control: with a generous limit the same notebook does answer (and scores)."""
    exercises = load_exercises(ROOT / "exercises" / "source")
    hog = ROOT / "tests" / "fixtures" / "submissions" / "memory-hog.ipynb"
    roomy = grade_file(hog, exercises, Limits(cell_timeout=20, notebook_timeout=60, memory_mb=4096, sandbox=KIND))
    assert roomy.score > 0


def test_grading_the_same_file_twice_gives_the_same_row(batch: dict[str, Any]) -> None:
    exercises = load_exercises(ROOT / "exercises" / "source")
    source = next(p for p in SOURCES if p.stem.startswith("04-"))
    again = grade_file(source, exercises, Limits(8, 40, sandbox=KIND), display=sub(batch, source)["file"])
    first = sub(batch, source)
    batch_fields = ("feedback", "graded_at", "submitted_at", "late", "owner", "claimed_id", "file_mtime",
                    "time_source", "deadline", "sandbox")  # set for the batch (term.handin.stamp)
    # (as is the warning of a --no-sandbox batch, where bubblewrap is missing)
    first = {**first, "warnings": [w for w in first["warnings"] if "--no-sandbox" not in w["en"]]}
    assert {k: v for k, v in again.to_json().items() if k not in batch_fields} == \
        {k: v for k, v in first.items() if k not in batch_fields}


def test_gradebook_columns_and_feedback_pages(batch: dict[str, Any]) -> None:
    text = (batch["out"] / "grades.csv").read_text(encoding="utf-8")
    header = text.splitlines()[0].split(",")
    assert header[:4] == ["file", "learner", "score", "max_score"]
    exercises = load_exercises(ROOT / "exercises" / "source")
    assert header[4:-10] == [f"{ex}:{q.id}" for ex in sorted(exercises) for q in exercises[ex].questions]
    assert header[-10:] == ["graded_at", "submitted_at", "late", "status", "owner", "sandbox", "claimed_id",
                            "identity_mismatch", "raw_score", "pending_points"]
    pages = sorted(p.name for p in (batch["out"] / "feedback").iterdir())
    assert len(pages) == len(batch["paths"])
    s = sub(batch, next(p for p in FIXTURES if p.stem == "cheat-eq-always-true"))
    page = (batch["out"] / s["feedback"]).read_text(encoding="utf-8")
    total = exercises["03-banker-rule"].max_score
    assert "q5" in page and f"0 / {total}" in page and "<AlwaysTrue>" not in page
    # its function (an ``__eq__`` that always says yes) is refused by the own-work check now;
    # a learner's text with markup is escaped
    assert "uses def __eq__" in page or "&lt;AlwaysTrue&gt;" in page


def test_the_submissions_own_metadata_is_never_trusted(batch: dict[str, Any]) -> None:
    """cheat-metadata claims 100 points per question and no checks: the sources decide."""
    s = sub(batch, ROOT / "tests" / "fixtures" / "submissions" / "cheat-metadata.ipynb")
    assert s["max_score"] == load_exercises(ROOT / "exercises" / "source")["03-banker-rule"].max_score
    assert s["questions"]["q1"]["points"] == 1


def _processes_named(name: str, scratch: Path) -> list[int]:
    """Live processes called ``name`` that THIS test started (another grading batch on the same
    machine, a CI runner's or an instructor's, may run the same fixture: not looked at).
    Ours are: in a sandbox as root, those of this grader's sandbox uids; in a sandbox as another
    user, the descendants of this process (a PID namespace dies with its init, ours); without a
    sandbox, those whose working folder lies in ``scratch``, where the grader made its folders."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if not entry.name.isdigit() or (entry / "comm").read_text().strip() != name:
                continue
            if not _bwrap._alive(int(entry.name)):
                continue  # ended (a zombie holds nothing but its pid)
            if KIND == "none":
                ours = os.readlink(entry / "cwd").startswith(str(scratch) + "/")
            elif os.geteuid() == 0:
                ours = entry.stat().st_uid in _bwrap.host_uids()
            else:
                ours = _descends_from(int(entry.name), os.getpid())
            if ours:
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _descends_from(pid: int, ancestor: int) -> bool:
    while pid > 1:
        if pid == ancestor:
            return True
        stat = Path(f"/proc/{pid}/stat").read_bytes()
        pid = int(stat[stat.rindex(b")") + 2:].split()[1])
    return False


def test_no_process_of_a_kernel_outlives_its_grading(batch: dict[str, Any]) -> None:
    """cheat-daemon leaves three double-forked, setsid daemons (named bk-fx-daemon) running."""
    if not Path("/proc").is_dir():
        pytest.skip("no /proc")
    assert _processes_named("bk-fx-daemon", batch["scratch"]) == []


def test_end_descendants_kills_a_daemonized_grandchild(tmp_path: Path) -> None:
    """Positive control for the above: a subreaper finds and ends a setsid double-forked daemon."""
    import subprocess
    import sys

    script = tmp_path / "reaper.py"
    script.write_text(
        "import os, sys, time\n"
        "from baccarat_kit.grading.sandbox.reaper import become_subreaper, end_descendants\n"
        "assert become_subreaper()\n"
        "r, w = os.pipe()\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        "        os.write(w, str(os.getpid()).encode())\n"
        "        time.sleep(60)\n"
        "    os._exit(0)\n"
        "daemon = int(os.read(r, 20))\n"
        "time.sleep(0.2)\n"
        "alive_before = os.path.exists(f'/proc/{daemon}')\n"
        "killed = end_descendants()\n"
        "print(alive_before, killed >= 1, os.path.exists(f'/proc/{daemon}'))\n", encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=30)
    assert out.stdout.split() == ["True", "True", "False"], out.stderr


ESCAPE = """
import importlib, os
def banker_draws(total, player_third):
    outcome = []
    for what, attempt in (("kit", lambda: importlib.import_module("baccarat_kit.rules")),
                          ("rules", lambda: open(RULES).read()),
                          ("proc", lambda: open("/proc/" + str(os.getppid()) + "/cmdline").read())):
        try:
            attempt()
            outcome.append(what + ":read")
        except Exception as err:
            outcome.append(what + ":" + type(err).__name__)
    return " ".join(outcome)
"""


def _run_function(code: str, question: Any, limits: Limits) -> dict[str, Any]:
    """A function answer as the grader gets it: called on every input in the notebook's own run."""
    report, parsed = _run_notebook([code], [question.extraction()], limits)
    assert report["status"] == "ok" and parsed is not None, report
    return dict(parsed["answers"][question.id])


def test_function_answers_can_neither_import_nor_read_the_kit() -> None:
    """A function answer is called in the notebook's run, whose only baccarat_kit is the exercise
    API (issue 30): the kit's rule module is not importable, its file not there (or, without
    bubblewrap, refused by Landlock), the supervisor's command line refused."""
    exercises = load_exercises(ROOT / "exercises" / "source")
    question = next(q for q in exercises["03-banker-rule"].questions if q.kind == "function")
    code = f"RULES = {str(ROOT / 'baccarat_kit' / 'rules.py')!r}\n" + ESCAPE
    answer = _run_function(code, question, Limits(cell_timeout=20, sandbox=KIND))
    assert answer["status"] == "ok", answer
    outcome = dict(item.split(":") for item in answer["results"][0].split())
    assert outcome["kit"] in ("AbsentModule", "ModuleNotFoundError")
    if KIND == "bwrap":
        assert outcome["rules"] == "FileNotFoundError"
    if _sandbox.abi_version() < 1:
        pytest.skip("Linux Landlock is not available here: reading is not confined")
    assert outcome["rules"] in ("PermissionError", "FileNotFoundError") and outcome["proc"] == "PermissionError"


def test_a_learner_id_never_becomes_a_spreadsheet_formula(batch: dict[str, Any]) -> None:
    path = (ROOT / "tests" / "fixtures" / "submissions" / "cheat-formula-id.ipynb").resolve()
    assert sub(batch, path)["learner"].startswith("=HYPERLINK(")  # results.json keeps the claim
    assert batch["rows"][path]["learner"].startswith("'=HYPERLINK(")


def test_a_learner_id_claimed_by_several_files_is_flagged(batch: dict[str, Any]) -> None:
    """Ids are the notebook's own claim: the many fixtures that say "mallory" are flagged;
    a submission with an id of its own is not."""
    fake = sub(batch, ROOT / "tests" / "fixtures" / "submissions" / "cheat-patch-shell.ipynb")
    assert fake["status"] == "ok"
    assert any("mallory" in w["en"] and "cheat-run-cell-hook.ipynb" in w["en"] for w in fake["warnings"])
    # one with no answer at all ("not attempted") is no one's work: it flags nothing, is flagged by nothing
    empty = sub(batch, ROOT / "tests" / "fixtures" / "submissions" / "cheat-fake-pass.ipynb")
    assert empty["status"] == "not_attempted" and empty["claimed_id"] == "mallory"
    assert not empty["identity_mismatch"] and not any("mallory" in w["en"] for w in empty["warnings"])
    assert not any("cheat-fake-pass.ipynb" in w["en"] for w in fake["warnings"])
    source = sub(batch, SOURCES[0])
    assert [w for w in source["warnings"] if "--no-sandbox" not in w["en"]] == []  # (that one: no bubblewrap here)


DAEMON = """
import os
def ANSWER(*args):
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            __import__("ctypes").CDLL(None).prctl(15, b"bk-fx-rdaemon", 0, 0, 0)
            __import__("time").sleep(90)
        os._exit(0)
    return True
"""


def test_no_process_of_a_function_answer_outlives_its_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A function answer that forks daemons (one per input): all are ended with its run."""
    exercises = load_exercises(ROOT / "exercises" / "source")
    question = next(q for q in exercises["02-naturals-player"].questions if q.kind == "function")
    if KIND == "none":
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    answer = _run_function(DAEMON.replace("ANSWER", question.answer), question, Limits(cell_timeout=20, sandbox=KIND))
    assert answer["status"] == "ok" and answer["results"][0] is True, answer
    assert _processes_named("bk-fx-rdaemon", tmp_path) == []


def test_a_kernel_reads_only_python_the_kit_and_its_own_folder(batch: dict[str, Any]) -> None:
    """cheat-snoop's answers are what its reads gave: the parent's environment and command line
    are refused, the instructor's source is refused or (in the bubblewrap sandbox) not there;
    the kit's rule code is not there at all (issue 30: the package beside ``bk.__file__`` is the
    exercise API)."""
    if _sandbox.abi_version() < 1:
        pytest.skip("Linux Landlock is not available here: reading is not confined")
    s = sub(batch, ROOT / "tests" / "fixtures" / "submissions" / "cheat-snoop.ipynb")
    # (what it observed is its answer, shown beside the refusal: its values come from os/open)
    got = {q: str(s["questions"][q].get("answer")) + " " + s["questions"][q]["message"]["en"]
           for q in ("q1", "q2", "q3", "q4")}
    assert all("'PermissionError'" in got[q] for q in ("q1", "q3")), got
    assert "'PermissionError'" in got["q2"] or "'FileNotFoundError'" in got["q2"], got
    assert "'FileNotFoundError'" in got["q4"], got


def test_a_missing_answer_whose_cell_failed_names_that_cell_and_its_exception() -> None:
    """Her feedback said "No answer `case_a` … (was the cell deleted, renamed or not run?)" when the
    cell that sets it had failed in grading: now it names the cell (counted from the top of her
    notebook) and the exception, and nothing of a hidden check."""
    from baccarat_kit.grading.grade import cell_failed_answers
    from baccarat_kit.grading.judge.checks import grade_question
    from baccarat_kit.grading.records import Submission
    from baccarat_kit.grading.report.feedback import feedback_html

    exercises = load_exercises(ROOT / "exercises" / "source")
    two = exercises["02-naturals-player"]  # q6 has hidden checks
    cells = ["LEARNER_ID = 's1'", "natural_4_4 = 1 / 0", "x = 1\nbcr006_banker_total = undefined",
             "print(natural_2_4 == 1)"]
    failed = {2: "ZeroDivisionError: division by zero", 3: "NameError: name 'undefined' is not defined",
              4: "NameError: name 'natural_2_4' is not defined"}
    answers = cell_failed_answers(cells, failed, two.questions, {q.id: {"status": "missing"} for q in two.questions})
    by_answer = {q.answer: answers[q.id] for q in two.questions}
    assert by_answer["natural_4_4"] == {"status": "cell-failed", "cell": 2, "error": "ZeroDivisionError"}
    assert by_answer["bcr006_banker_total"] == {"status": "cell-failed", "cell": 3, "error": "NameError"}
    assert by_answer["natural_2_4"] == {"status": "missing"}  # read, not set, in the failed cell: no answer
    results = [grade_question(q, answers[q.id], "s1") for q in two.questions]
    q6 = next(r for r, q in zip(results, two.questions, strict=True) if q.answer == "bcr006_banker_total")
    assert q6.score == 0 and q6.message("en") == (
        "`bcr006_banker_total` has no value: the cell that sets it (code cell 3) failed when graded (NameError) "
        "and did not finish. Fix that cell, run it again, then check().")
    assert "第 3 個程式格" in q6.message("zh") and "NameError" in q6.message("zh")
    page = feedback_html(Submission("x/02-naturals-player.ipynb", "ab" * 32, two.id, "s1", "ok", {}, results,
                                    two.max_score), exercises, "en")
    assert "(code cell 2) failed when graded (ZeroDivisionError)" in page
    assert "No answer `natural_4_4`" not in page and "hidden check" not in page
    # what her file says is never more than a name: a forged error text is "error"
    forged = grade_question(two.questions[0], {"status": "cell-failed", "cell": "<b>", "error": "<script>"}, "s1")
    assert "(code cell ?)" not in forged.message("en") and "<script>" not in forged.message("en")
    assert "(error)" in forged.message("en")
