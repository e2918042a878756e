"""A batch that stops keeps what it graded (issue 43): every finished row is in the output folder's
journal (:mod:`baccarat_kit.grading.term.journal`) as it finishes; SIGTERM (and Ctrl-C) leave a
partial gradebook and one line saying what was kept; SIGKILL leaves the journal; the same command
run again grades only the rest, into a gradebook identical to an uninterrupted one (apart from the
grading times).

Nothing here waits on time: the batch is stopped once its journal holds a row (with a deadline
far beyond any machine's load), and each run is waited for until it ends."""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.grading.grade import load_exercises
from baccarat_kit.grading.records import CheckResult, QuestionResult, Submission, WrongCell
from baccarat_kit.grading.term.journal import JOURNAL_NAME, Journal, decode, encode

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "exercises" / "source"
EXERCISES = load_exercises(SOURCE)
WAIT = 600.0
"""Seconds a condition may take to come true on the busiest machine (never reached when all is well)."""


def _class(folder: Path, n: int = 6) -> Path:
    """``n`` learner folders, each with a model solution (every other one with a wrong answer)."""
    for i in range(n):
        nb = json.loads((SOURCE / "03-banker-rule.ipynb").read_text(encoding="utf-8"))
        for cell in nb["cells"]:
            if cell["cell_type"] == "code" and i % 2:
                text = "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
                cell["source"] = text.replace('LEARNER_ID = "', f'LEARNER_ID = "s{i}')
        (folder / f"learner-{i}").mkdir(parents=True)
        (folder / f"learner-{i}" / "03-banker-rule.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    return folder


def _grade(*args: str) -> subprocess.Popen[str]:
    sandbox = [] if _bwrap_ok() else ["--no-sandbox"]
    return subprocess.Popen([sys.executable, "-c", "import sys; from baccarat_kit.cli import main; sys.exit(main())",
                             "--lang", "en", "grade", *args, "--no-progress", "--jobs", "1", *sandbox],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd="/")


def _bwrap_ok() -> bool:
    from baccarat_kit.grading.sandbox import bwrap

    try:
        bwrap.check()
    except bwrap.SandboxMissing:
        return False
    return True


def _journal_rows(out: Path) -> int:
    try:
        return max(0, (out / JOURNAL_NAME).read_bytes().count(b"\n") - 1)  # (its first line: the settings)
    except OSError:
        return 0


def _stop_halfway(proc: subprocess.Popen[str], out: Path, how: signal.Signals) -> tuple[int, str]:
    """Send ``how`` once the journal holds a row; the exit code and stderr."""
    end = time.monotonic() + WAIT
    while _journal_rows(out) < 1 and proc.poll() is None and time.monotonic() < end:
        time.sleep(0.05)
    assert proc.poll() is None, ("the batch ended before it could be stopped", proc.communicate())
    proc.send_signal(how)
    _, err = proc.communicate(timeout=WAIT)
    return proc.returncode, err


def _without_times(out: Path) -> dict[str, Any]:
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    doc.pop("graded_at")
    doc["submissions"] = [{k: v for k, v in r.items() if k != "graded_at"} for r in doc["submissions"]]
    pages = {p.name: "\n".join(line for line in p.read_text(encoding="utf-8").splitlines() if "Graded at" not in line)
             for p in sorted((out / "feedback").iterdir())}
    csvs = {name: [{k: v for k, v in row.items() if k != "graded_at"}
                   for row in csv.DictReader(io.StringIO((out / name).read_text(encoding="utf-8")))]
            for name in ("grades.csv", "grades-long.csv", "canvas.csv", "moodle.csv")}
    return {"results": doc, "pages": pages, "csv": csvs}


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any]]:
    folder = _class(tmp_path_factory.mktemp("class"))
    out = tmp_path_factory.mktemp("whole") / "out"
    proc = _grade(str(folder), "--out", str(out))
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err
    assert not (out / JOURNAL_NAME).exists()  # a whole batch leaves no journal
    return folder, _without_times(out)


@pytest.mark.sandbox
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_a_stopped_batch_keeps_its_rows_and_resumes_to_the_same_gradebook(
        tmp_path: Path, uninterrupted: tuple[Path, dict[str, Any]], how: signal.Signals) -> None:
    folder, whole = uninterrupted
    out = tmp_path / "out"
    code, err = _stop_halfway(_grade(str(folder), "--out", str(out)), out, how)
    kept = _journal_rows(out)
    assert 1 <= kept <= 6
    if how == signal.SIGKILL:
        assert code == -signal.SIGKILL and not (out / "results.json").exists()
    else:  # a partial gradebook of what finished, and one line that says so and how to go on
        assert code == 128 + how, err
        partial = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
        assert len(partial) == kept and all(r["status"] == "ok" for r in partial), partial
        assert f"with {kept} of 6 files graded" in err and "--resume" in err and f"the other {6 - kept}" in err, err
        before = {r["file"]: r["graded_at"] for r in partial}
    proc = _grade(str(folder), "--out", str(out), *(["--resume"] if how != signal.SIGKILL else []))  # (or the same command)
    _, err = proc.communicate(timeout=WAIT)
    assert proc.returncode == 0, err
    assert f"the {kept} rows already graded are kept" in err, err
    assert _without_times(out) == whole
    assert not (out / JOURNAL_NAME).exists()
    if how != signal.SIGKILL:  # the rows kept were not graded again
        after = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
        assert {r["file"]: r["graded_at"] for r in after if r["file"] in before} == before


def test_resume_without_a_stopped_batch_is_a_usage_mistake(tmp_path: Path) -> None:
    from baccarat_kit.cli import main

    assert main(["--lang", "en", "grade", str(SOURCE / "03-banker-rule.ipynb"), "--out", str(tmp_path / "o"),
                 "--resume"]) == 2


def test_a_journal_of_other_settings_is_not_resumed(tmp_path: Path) -> None:
    from baccarat_kit.grading.records import GradeUsageError

    Journal(tmp_path, {"timeout": 10}).open()
    with pytest.raises(GradeUsageError) as err:
        Journal(tmp_path, {"timeout": 20}).open()
    assert err.value.params["differ"] == "timeout"


def test_a_row_is_kept_losslessly_and_a_torn_last_line_is_skipped(tmp_path: Path) -> None:
    check = CheckResult("all-inputs", False, "grading.check.x", {"got": (1, 2), "share": Fraction(3, 4)},
                        share=Fraction(3, 4), wrong=(WrongCell((3, 8), "True", "False", "banker-3-vs-8"),),
                        misconceptions=("banker-3-always",))
    sub = Submission("a.ipynb", "ab" * 32, "03-banker-rule", "ann", "ok", {"zh": "好", "en": "ok"},
                     [QuestionResult("q1", 2, 1.5, (check,), {"en": "t"}, "x", written={"text": "t", "sha256": "s"})],
                     14, warnings=[{"en": "w", "zh": "w"}], graded_at="2026-01-01T00:00:00Z")
    assert decode(json.loads(json.dumps(encode(sub)))) == sub
    journal = Journal(tmp_path, {})
    journal.open()
    journal.add(sub)
    with (tmp_path / JOURNAL_NAME).open("ab") as fh:
        fh.write(b'{"row": {"file": "b.ipynb", "sha2')  # a kill while writing
    assert journal.rows(["a.ipynb", "b.ipynb"]) == {"a.ipynb": sub}
    assert journal.done() == {"a.ipynb": "ab" * 32}
    Journal(tmp_path, {}).open()  # resumed: the torn line goes, the next row starts a line of its own
    journal.add(replace(sub, file="b.ipynb"))
    assert list(journal.rows(["a.ipynb", "b.ipynb"])) == ["a.ipynb", "b.ipynb"]
    journal.stop()
    assert not journal.add(sub)  # a run the stop ended is not a grade
    assert os.stat(tmp_path / JOURNAL_NAME).st_mode & 0o077 == 0
