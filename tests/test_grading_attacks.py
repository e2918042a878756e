"""Issue 20's attacks on points and on the sandbox (10-13, 15), graded in one batch with controls.

The attack notebooks (tests/fixtures/submissions/attacks/, made by make_fixtures.py) start from
exercise 03's *solved* source: every answer is right, so an attack that got through would keep
full marks. Beside them the plain solution is the control and must keep full marks.
"""

from __future__ import annotations

import csv
import io
import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.cli import main
from baccarat_kit.grading.sandbox import bwrap as _bwrap
from baccarat_kit.grading.sandbox import cgroup as _cgroup
from baccarat_kit.grading.sandbox import session

ROOT = Path(__file__).resolve().parents[1]
ATTACKS = sorted((ROOT / "tests" / "fixtures" / "submissions" / "attacks").glob("*.ipynb"))
CONTROLS = sorted((ROOT / "exercises" / "source").glob("*.ipynb"))
try:
    _bwrap.check()
    HAVE_BWRAP = True
except _bwrap.SandboxMissing:
    HAVE_BWRAP = False
CGROUP, WHY = _cgroup.create(64, 8)
if CGROUP is not None:
    CGROUP.remove()

needs_sandbox = pytest.mark.skipif(not HAVE_BWRAP, reason="bubblewrap cannot make a sandbox here")
needs_cgroup = pytest.mark.skipif(CGROUP is None, reason=f"no cgroup per sandbox here: {WHY}")


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if not HAVE_BWRAP:
        pytest.skip("bubblewrap cannot make a sandbox here")
    out = tmp_path_factory.mktemp("attacks") / "out"
    paths = [*CONTROLS, *ATTACKS]
    code = main(["--lang", "en", "grade", *map(str, paths), "--out", str(out), "--jobs", "2", "--no-progress",
                 "--memory-mb", "1031", "--timeout", "8", "--notebook-timeout", "40"])
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    rows = list(csv.DictReader(io.StringIO((out / "grades.csv").read_text(encoding="utf-8"))))
    return {"code": code, "doc": doc, "subs": {Path(s["file"]).name: s for s in doc["submissions"]},
            "rows": {Path(r["file"]).name: r for r in rows}}


def test_controls_keep_full_marks(batch: dict[str, Any]) -> None:
    assert batch["code"] == 0
    for path in CONTROLS:
        row = batch["rows"][path.name]
        assert row["status"] == "ok" and float(row["score"]) == float(row["max_score"]) - float(row["pending_points"]), row


@pytest.mark.parametrize("attack", ATTACKS, ids=lambda p: p.stem)
def test_every_attack_earns_nothing(batch: dict[str, Any], attack: Path) -> None:
    row = batch["rows"][attack.name]
    assert row["score"] == "0", row


@needs_cgroup
def test_fork_and_allocate_is_held_to_the_sandboxs_total(batch: dict[str, Any]) -> None:
    """Attack 11: 8 children x 400 MB under --memory-mb 1031 held 3.4 GB and kept 11/11."""
    s = batch["subs"]["fork-and-allocate.ipynb"]
    assert s["status"] == "kernel_died"
    assert "1031 MB" in s["reason"]["en"]
    assert batch["doc"]["limits"]["scope"] == f"sandbox (cgroup v{CGROUP.version if CGROUP else '?'})"
    assert batch["doc"]["limits"]["memory_mb"] == 1031


# ---------------------------------------------------------------- the cgroup itself
@needs_cgroup
def test_a_cgroup_is_joined_before_the_command_runs_and_removed_after() -> None:
    group, why = _cgroup.create(256, 16)
    assert group is not None, why
    try:
        script = "cat /proc/self/cgroup"
        out = subprocess.run(group.wrap(["/bin/sh", "-c", script]), capture_output=True, text=True, timeout=30,
                             check=True).stdout
        name = os.path.basename(group.folders["memory"])
        assert any(line.split(":")[1] in ("memory", "") and line.endswith(name) for line in out.splitlines())
        limit = Path(group.folders["memory"],
                     "memory.limit_in_bytes" if group.version == 1 else "memory.max").read_text().strip()
        assert int(limit) == 256 * 1024 * 1024
        sleeper = subprocess.Popen(group.wrap(["/bin/sleep", "600"]))
        # it joins first (200 sched_yield()s, as before, have no duration: had they ended first, an
        # empty cgroup was removed and the join's failure, exit 125, passed for the kill)
        while not group.pids_in():
            assert sleeper.poll() is None, sleeper.returncode
            time.sleep(0.01)
    finally:
        group.remove()
    sleeper.wait(60)
    assert sleeper.returncode == -signal.SIGKILL  # removing the cgroup killed what was in it
    assert not any(Path(f).exists() for f in group.folders.values())


@needs_cgroup
def test_a_process_that_cannot_join_runs_nothing() -> None:
    group, why = _cgroup.create(64, 8)
    assert group is not None, why
    group.remove()  # gone: joining fails
    proc = subprocess.run(group.wrap(["/bin/echo", "learner code ran"]), capture_output=True, text=True, timeout=30)
    assert proc.returncode == 125 and "learner code ran" not in proc.stdout


def test_without_a_cgroup_the_grader_says_so_loudly(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(_cgroup, "create", lambda memory_mb, pids: (None, "not root (test)"))
    monkeypatch.setattr(session, "_scopes", [])
    assert session._group(session.Limits()) is None
    assert session._group(session.Limits()) is None
    err = capsys.readouterr().err
    assert err.count("WARNING") == 1 and "not root (test)" in err and "per-process only" in err
    assert session.limits_scope() == session.PER_PROCESS_ONLY


def test_threads_reading_stdin_and_fds_forge_nothing(batch: dict[str, Any]) -> None:
    """Attack 12: learner threads read fd 0, every /proc/self/fd and other processes' fds and
    memory for the extraction code and nonce, and wrote a forged all-right record to every fd.
    The supervisor holds the grader's channel and the nonce: the notebook's own (wrong) answers
    are what was graded."""
    s = batch["subs"]["stdin-reader.ipynb"]
    assert s["status"] == "ok" and s["learner"] == "mallory"
    assert all(not q["passed"] for q in s["questions"].values())


@needs_sandbox
def test_the_runner_sends_the_grader_nothing_but_its_own_lines() -> None:
    """Unit: a cell prints a fake record to every fd; the grader's parse sees only the real one."""
    from baccarat_kit.grading.judge.checks import Question

    q = Question.from_dict({"id": "q1", "kind": "value", "answer": "x", "points": 1, "type": "int",
                            "key": {"fn": "fixed", "args": [3]}, "public": ["type"]}, "test")
    cells = ["x = 2", "import os\nfor fd in range(64):\n    try:\n        os.write(fd, b'cells\\nanswers \"x\"\\n')\n"
                      "    except OSError:\n        pass"]
    report, parsed = session.run_notebook(cells, [q.extraction()], session.Limits(cell_timeout=10, notebook_timeout=30))
    assert report["status"] in ("ok", "kernel_broken")
    if report["status"] == "ok":
        assert parsed is not None and parsed["answers"]["q1"] == {"status": "ok", "value": 2}


SOLVERS = [p for p in ATTACKS if p.stem.startswith("solver-")]


@pytest.mark.parametrize("solver", SOLVERS, ids=lambda p: p.stem)
def test_a_generic_solver_cell_on_an_untouched_copy_earns_nothing(batch: dict[str, Any], solver: Path) -> None:
    """Attack 10: a cell asking the kit's key code (or the engine, through globals()/exec/
    get_ipython()/__main__) for every answer, appended to an untouched copy, earned 44 of 54."""
    s = batch["subs"][solver.name]
    assert s["status"] in ("ok", "not_attempted") and s["score"] == 0  # (no answer of its own left)
    # issue 30: in the grading run the kit's key code is absent (the only baccarat_kit is the
    # exercise API), so the solver's calls fail there; nothing is scored from reading its code
    answered = [q for q in s["questions"].values() if q.get("answer") not in (None, "None", "Ellipsis")]
    assert all(not q["passed"] for q in answered), answered
    assert any("failed" in w["en"] for w in s["warnings"]), s["warnings"]  # its cell failed, and the row says so
