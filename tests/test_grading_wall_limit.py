"""A notebook that only waits cannot hold a grading slot past ``--wall-limit`` (session.py's
``wall_deadline``), and a batch cannot run past ``--batch-wall-limit`` (grade.py's ``BatchBudget``).

Each way of waiting without CPU (``time.sleep``, ``select``, ``threading.Event().wait``, a read on
a pipe nobody writes to, ``asyncio.sleep``) is stopped at a small wall limit with a verdict that
names it, and a process it left behind does not outlive the sandbox; a batch of such notebooks
beside honest ones ends within its budget, the honest ones with full marks. The limits here are
small (seconds) so the tests stay quick; the per-cell backstop (60 s) is far beyond them, so
what stops each notebook is the wall limit and nothing else.

No test here races the machine (issue 41): the honest part of each notebook must fit in its wall
limit, and on a loaded machine it takes many times longer, so each test first grades the honest
part as it is here and now (:func:`_measured`) and sets its limits from that (:func:`_room`,
:func:`_limits`); what it then asserts is the verdict and the accounting (which limit, which
cell, how long), with the same head-room."""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import secrets
import time
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.grade import BatchBudget, Limits, grade_file, grade_paths, load_exercises
from baccarat_kit.grading.sandbox import bwrap, session
from baccarat_kit.grading.term.authoring import read_source

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = load_exercises(ROOT / "exercises" / "source")
SOLUTION = ROOT / "exercises" / "source" / "03-banker-rule.ipynb"
try:
    bwrap.check()
    KIND = "bwrap"
except bwrap.SandboxMissing:
    KIND = "none"

WAITS = {
    "time.sleep": "import time\ntime.sleep(1000)",
    "select": "import select\nselect.select([], [], [], 1000)",
    "threading.Event": "import threading\nthreading.Event().wait()",
    "pipe read": "import os\nr, w = os.pipe()\nos.read(r, 1)",
    "asyncio.sleep": "import asyncio\nasyncio.run(asyncio.sleep(1000))",
}
"""Ways to wait that use no CPU: none ends before its wall limit."""
LEFT_BEHIND = """
import ctypes, os, time
if os.fork() == 0:  # a child that would sleep on after the notebook: it must not outlive the sandbox
    ctypes.CDLL(None).prctl(15, NAME, 0, 0, 0)  # PR_SET_NAME: how the test looks for it
    time.sleep(1000)
    os._exit(0)
"""


def _comms() -> set[bytes]:
    out = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                out.add(Path(f"/proc/{entry}/comm").read_bytes().strip())
            except OSError:
                pass
    return out


def waiting_notebook(folder: Path, wait: str, name: str = "03-banker-rule.ipynb", marker: bytes = b"") -> Path:
    """The model solution of exercise 03 (full marks when it ends) with a last cell that waits
    (``WAITS[wait]``), after one that leaves a child named ``marker`` sleeping (if given)."""
    nb = read_source(SOLUTION)
    extra = ([LEFT_BEHIND.replace("NAME", repr(marker))] if marker else []) + [WAITS[wait]]
    nb["cells"] += [{"cell_type": "code", "execution_count": None, "id": f"wait-{n}", "metadata": {},
                     "outputs": [], "source": code} for n, code in enumerate(extra)]
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


HEAD_ROOM = 4
"""How many times what the honest part took when measured (:func:`_measured`) its limit allows:
the load may grow this much between the measurement and the test's own run."""


def _measured(paths: list[Path], jobs: int = 1) -> float:
    """Seconds (wall clock) that grading ``paths`` takes here and now, sandbox starts and ends
    included; each must be graded ``ok`` with every automatic point (a positive control too)."""
    began = time.monotonic()
    subs = grade_paths(paths, EXERCISES, Limits(sandbox=KIND), jobs=jobs)
    took = time.monotonic() - began
    for s in subs:
        assert s.status == "ok" and s.score == s.max_score - s.pending_points, s.to_json()
    return took


def _room(least: int, honest: float) -> int:
    """A wall limit (whole seconds, as the verdicts print them): ``least``, or :data:`HEAD_ROOM`
    times what the honest part took (``honest`` s) when the machine is slower than that."""
    return max(least, math.ceil(HEAD_ROOM * honest))


def _limits(wall: float, **more: Any) -> Limits:
    """Limits under which ``wall`` (``--wall-limit``) is what stops a waiting notebook: each CPU
    limit's wall backstop (:data:`.session.WALL_FACTOR` times it) at least twice as long."""
    cell = max(10, math.ceil(2 * wall / session.WALL_FACTOR))
    return Limits(cell_timeout=cell, notebook_timeout=6 * cell, sandbox=KIND, wall_limit=wall, **more)


@pytest.mark.parametrize("wait", sorted(WAITS))
def test_a_notebook_that_only_waits_is_stopped_at_the_wall_limit(tmp_path: Path, wait: str) -> None:
    marker = f"bk-wl-{secrets.token_hex(4)}".encode()
    honest = _measured([SOLUTION])  # the model solution: the cells before the waiting ones
    wall = _room(2, honest)
    began = time.monotonic()
    row = grade_file(waiting_notebook(tmp_path, wait, marker=marker), EXERCISES, _limits(wall)).to_json()
    took = time.monotonic() - began
    assert row["status"] == "wall_limit" and row["score"] == 0, row
    assert f" {wall} s of wall-clock time from its first cell (the limit per submission, --wall-limit)" in row["reason"]["en"]
    assert "--wall-limit" in row["reason"]["zh"] and f" {wall} 秒實際時間" in row["reason"]["zh"], row
    code_cells = sum(1 for c in read_source(SOLUTION)["cells"] if c["cell_type"] == "code")
    assert f"at cell {code_cells + 2}," in row["reason"]["en"], row  # the waiting cell, the last
    # the wall limit, then the sandbox's start and end (as long as a whole honest run, at most
    # HEAD_ROOM times; the worker's grace if the group must be killed): not a later backstop
    assert wall <= took < wall + HEAD_ROOM * honest + session.WORKER_GRACE, (took, honest)
    time.sleep(0.2)
    assert marker not in _comms(), "a process of the notebook outlived its sandbox"


def test_the_cpu_limit_still_stops_busy_code_under_a_roomy_wall_limit(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """The wall limit is for waiting: code that computes is stopped by its CPU limit, with that
    verdict. (The CPU limit's own wall backstop, 6 s for its 1 s, is out of the way: on a loaded
    machine a busy loop gets less than 1 s of CPU in 6 s, as in tests/test_grading_sandbox_clock.py.)"""
    monkeypatch.setattr(session, "WALL_FACTOR", 600.0)
    nb = read_source(SOLUTION)
    nb["cells"].append({"cell_type": "code", "execution_count": None, "id": "spin", "metadata": {},
                        "outputs": [], "source": "while True:\n    pass"})
    path = tmp_path / "03-banker-rule.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    row = grade_file(path, EXERCISES, Limits(cell_timeout=1, notebook_timeout=60, sandbox=KIND,
                                             wall_limit=600)).to_json()
    assert row["status"] == "cell_timeout" and "CPU time" in row["reason"]["en"], row


def test_a_function_answer_that_waits_fails_alone_at_the_wall_limit() -> None:
    """As with a function answer's own time limit: the answers already reported keep their points."""
    code = [c for c in _solution_cells() if "def banker_draws" not in c]
    code.append("def banker_draws(total, third):\n    import time\n    time.sleep(1000)\n")
    q = [q.extraction() for q in EXERCISES["03-banker-rule"].questions]
    wall = _room(3, _measured([SOLUTION]))  # the cells and the value answers come before the limit
    report, parsed = session.run_notebook(code, q, _limits(wall))
    assert report["status"] == "ok" and report["limit"] == "wall_limit", report
    assert parsed is not None
    answers = parsed["answers"]
    assert answers["q5"]["status"] == "run-failed", answers["q5"]
    assert f"--wall-limit, {wall} s" in answers["q5"]["reason"]["en"], answers["q5"]
    assert answers["q1"]["status"] == "ok", answers["q1"]  # the value answers were reported before it


def _solution_cells() -> list[str]:
    nb = read_source(SOLUTION)
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in nb["cells"] if c["cell_type"] == "code"]


HONEST = sorted((ROOT / "tests" / "fixtures" / "submissions" / "honest").glob("*-0[36].ipynb"))[:3]


def test_a_batch_of_waiting_notebooks_ends_within_its_budget_and_honest_ones_keep_full_marks(tmp_path: Path) -> None:
    waiting = [waiting_notebook(tmp_path / f"learner-{n}", wait) for n, wait in enumerate(sorted(WAITS)[:3])]
    honest = [SOLUTION, *HONEST]
    jobs = 2
    alone = _measured(honest, jobs)  # the honest ones, as a batch of their own
    wall = _room(4, alone)  # each of them fits in it (it is longer than all of them together)
    budget = 10 * (wall + alone)  # far more than the batch needs: it is what the batch must end within
    limits = _limits(wall, batch_wall_limit=budget)
    began = time.monotonic()
    subs = grade_paths([*waiting, *honest], EXERCISES, limits, jobs=jobs)
    took = time.monotonic() - began
    assert took < budget
    # the waiting ones cost the batch at most their wall limit each, in rounds of --jobs (and
    # their sandboxes' starts and ends, like the honest ones'), not their cells' 60 s backstops
    assert took < math.ceil(len(waiting) / jobs) * wall + HEAD_ROOM * alone + session.WORKER_GRACE, (took, alone)
    for s in subs[:len(waiting)]:
        assert s.status == "wall_limit" and s.score == 0, s.to_json()
    for s in subs[len(waiting):]:
        assert s.status == "ok" and s.score == s.max_score - s.pending_points, s.to_json()


def test_when_the_batch_budget_runs_out_the_rest_is_left_ungraded_and_out_of_the_lms(tmp_path: Path) -> None:
    for n in range(3):
        waiting_notebook(tmp_path / "class" / f"learner-{n}", "time.sleep")
    out = tmp_path / "out"
    # the budget must outlast the batch's start and its first sandbox's (an honest batch of one
    # takes as long, and more), and end long before that submission's own wall limit
    honest = _measured([SOLUTION])
    budget = _room(3, honest)
    wall = 20 * budget
    args = ["--lang", "en", "grade", str(tmp_path / "class"), "--out", str(out), "--no-progress",
            "--jobs", "1", "--wall-limit", str(wall), "--batch-wall-limit", str(budget)]
    began = time.monotonic()
    code = main(args + (["--no-sandbox"] if KIND == "none" else []))
    took = time.monotonic() - began
    assert code == 1  # every row is the instructor's budget's, none the learners' doing
    assert took < budget + HEAD_ROOM * honest + session.WORKER_GRACE < wall, (took, honest)  # not its wall limit
    rows = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
    assert [r["status"] for r in rows] == ["batch_limit"] * 3, rows
    # each had its fair share of the budget (issue 43): a third of it, then half of what was left;
    # the last one started (if any did) all that was left, the others none
    assert "when its share of the batch's wall-clock budget ran out" in rows[0]["reason"]["en"], rows[0]
    assert any(w.get("about") == "batch_share" for w in rows[0]["warnings"]), rows[0]
    assert all("share of the batch's wall-clock budget ran out" in r["reason"]["en"]
               or "ran out while this submission was at cell" in r["reason"]["en"]
               or "ran out before this submission started" in r["reason"]["en"] for r in rows[1:]), rows
    assert all("--update" in r["reason"]["en"] for r in rows)
    canvas = list(csv.reader(io.StringIO((out / "canvas.csv").read_text(encoding="utf-8"))))
    assert [r[0] for r in canvas] == ["Student", "Points Possible"], canvas  # no learner's 0 for an LMS


def test_a_sleeper_first_in_name_order_does_not_starve_the_honest_ones(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """--jobs 1 --batch-wall-limit: the sleeper gets its share of the budget (a quarter, of four), not
    all of it; the three honest notebooks after it are graded in full, and the instructor is told
    which submission waited (issue 43: they were put into batch_limit, "not the learners'")."""
    waiting_notebook(tmp_path / "class" / "learner-0", "time.sleep")
    for n, path in enumerate([SOLUTION, *HONEST[:2]], 1):
        (tmp_path / "class" / f"learner-{n}").mkdir(parents=True)
        (tmp_path / "class" / f"learner-{n}" / path.name).write_bytes(path.read_bytes())
    alone = _measured([SOLUTION, *HONEST[:2]])  # the three honest ones, one after the other
    budget = 4 * _room(4, alone)  # the sleeper's quarter; every honest one's share is more than all three take
    out = tmp_path / "out"
    args = ["--lang", "en", "grade", str(tmp_path / "class"), "--out", str(out), "--no-progress", "--jobs", "1",
            "--wall-limit", str(20 * budget), "--batch-wall-limit", str(budget)]
    assert main(args + (["--no-sandbox"] if KIND == "none" else [])) == 0
    rows = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"]
    assert "learner-0" in rows[0]["file"] and rows[0]["status"] == "batch_limit", rows[0]
    share = re.search(r"\(([\d.]+) s of --batch-wall-limit ([\d.]+) s", rows[0]["reason"]["en"])
    assert share is not None and float(share[2]) == budget and float(share[1]) <= budget / 4, rows[0]
    for r in rows[1:]:
        assert r["status"] == "ok" and r["score"] == r["max_score"] - r["pending_points"], r
    err = capsys.readouterr().err
    assert f"{rows[0]['file']}: This submission waited" in err, err
    assert "not the learners'" not in err, err


def test_results_json_records_both_wall_limits(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["--lang", "en", "grade", str(SOLUTION), "--out", str(out), "--no-progress", "--notebook-timeout", "50"]
    assert main(args + (["--no-sandbox"] if KIND == "none" else [])) == 0
    limits = json.loads((out / "results.json").read_text(encoding="utf-8"))["limits"]
    assert limits["wall_limit"] == 50 * session.WALL_LIMIT_FACTOR and limits["batch_wall_limit"] is None, limits
    row = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"][0]
    assert row["score"] == row["max_score"] - row["pending_points"], row  # 03's q9 is scored by hand


@pytest.mark.parametrize("option", ["--wall-limit", "--batch-wall-limit"])
def test_a_wall_limit_that_is_not_positive_is_a_usage_mistake(tmp_path: Path, option: str,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "en", "grade", str(SOLUTION), "--out", str(tmp_path / "o"), option, "0"]) == 2
    assert f"{option} 0" in capsys.readouterr().err


def test_a_batch_budget_spent_runs_nothing() -> None:
    budget = BatchBudget(Limits(batch_wall_limit=0.001))
    time.sleep(0.01)
    assert budget.now() is None
    row = budget.grade(grade_file, SOLUTION, EXERCISES)
    assert row.status == "batch_limit" and row.exercise is None, row.to_json()
    assert BatchBudget(Limits()).now() == Limits()


def test_the_instructor_and_the_learner_are_told_which_limit_stopped_it(tmp_path: Path) -> None:
    out = tmp_path / "out"
    args = ["--lang", "en", "grade", str(waiting_notebook(tmp_path / "class", "select")), "--out", str(out),
            "--no-progress", "--wall-limit", "2"]
    assert main(args + (["--no-sandbox"] if KIND == "none" else [])) == 0
    row = json.loads((out / "results.json").read_text(encoding="utf-8"))["submissions"][0]
    assert row["status"] == "wall_limit" and row["score"] == 0, row
    page = (out / row["feedback"]).read_text(encoding="utf-8")
    assert "--wall-limit" in page and ("2.0 s of wall-clock time" in page or "2.0 秒實際時間" in page), page[-2000:]
    grades = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    assert grades[0]["status"] == "wall_limit", grades
