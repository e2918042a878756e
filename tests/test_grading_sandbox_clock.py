"""The time limits count the sandbox's CPU time, with a wall-clock backstop (session.py's
``_Clock``, ``WALL_FACTOR``): a cell that computes without end is stopped by the CPU clock, one that
sleeps by the wall backstop, and an honest cell whose wall time passes its limit because the
machine starved it (here: the test stops it with SIGSTOP, then lets it go on) keeps its points.
Each clock is tried from the sandbox's cgroup (cgroup v1 ``cpuacct`` / v2 ``cpu.stat``, where the
grader can make one) and from its process tree (/proc), as where no cgroup can be made. No
assertion depends on the machine's speed or load: only on what each clock counted. Where a test
asserts what the CPU clock decides (it stops a busy cell, or it lets a starved one go on), the wall
backstop is moved out of its way (:func:`cpu_clock_alone`): with the real one (6 times a 1 s limit)
a busy loop on a loaded machine got 0.91 s of CPU in its 6 s, and the backstop, not the CPU clock,
stopped it (issue 41). The backstop itself is tried on a cell that sleeps, where no load can make
the CPU clock run out first."""

from __future__ import annotations

import json
import os
import secrets
import signal
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.grading.grade import grade_file, load_exercises
from baccarat_kit.grading.sandbox import bwrap, cgroup, session

ROOT = Path(__file__).resolve().parents[1]
EXERCISES = load_exercises(ROOT / "exercises" / "source")
Q1 = EXERCISES["03-banker-rule"].question("q1").extraction()  # case_a, a bool

try:
    bwrap.check()
    KIND = "bwrap"
except bwrap.SandboxMissing:
    KIND = "none"


@pytest.fixture(params=["cgroup", "tree"])
def source(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Where the grader reads the sandbox's CPU time: its cgroup, or (no cgroup) its process tree."""
    if request.param == "tree":
        monkeypatch.setattr(cgroup, "create", lambda *_: (None, "this test reads the process tree"))
        return session.TREE_SOURCE
    group, why = cgroup.create(64, 16)
    if group is None or group.cpu_source is None:
        if group is not None:
            group.remove()
        pytest.skip(f"no cgroup that counts CPU here: {why or 'v1 without cpuacct'}")
    group.remove()
    return str(group.cpu_source)


def _run(cells: list[str], limits: session.Limits) -> tuple[dict[str, Any], dict[str, Any] | None]:
    return session.run_notebook(cells, [Q1], limits)


ROOMY = 600.0
"""The wall backstop (and the submission's wall limit) of a test of the CPU clock: 600 s for a 1 s
CPU limit. No load of this machine keeps 3 busy processes under 1 s of CPU for 10 minutes; a CPU
clock that never ran out would still end the test, at this backstop, with ``clock: wall``."""


@pytest.fixture
def cpu_clock_alone(monkeypatch: pytest.MonkeyPatch) -> float:
    """The wall backstop out of the CPU clock's way (:data:`ROOMY` seconds for a 1 s limit): what
    the test asserts is then the CPU clock's doing, however little CPU the machine gives the cell."""
    monkeypatch.setattr(session, "WALL_FACTOR", ROOMY)
    return ROOMY


SPIN = """
import os
for _ in range(2):  # two children spin too: the whole sandbox's CPU counts
    if os.fork() == 0:
        while True:
            pass
while True:
    pass
"""


def test_a_cell_that_computes_without_end_is_stopped_by_the_cpu_clock(source: str, cpu_clock_alone: float) -> None:
    limits = session.Limits(cell_timeout=1, notebook_timeout=30, sandbox=KIND, wall_limit=cpu_clock_alone)
    report, parsed = _run(["case_a = True", SPIN], limits)
    assert report["status"] == "cell_timeout" and report["cell"] == 2 and parsed is None, report
    assert report["clock"] == "cpu" and report["cpu_s"] >= limits.cell_timeout, report  # what it used: its limit
    assert session.cpu_source() == source


def test_a_cell_that_sleeps_is_stopped_by_the_wall_backstop(source: str) -> None:
    """The real backstop: a sleeping cell uses next to no CPU, so on a loaded machine too it is
    the wall clock that runs out, and the report says how much of each clock the cell used."""
    limits = session.Limits(cell_timeout=1, notebook_timeout=30, sandbox=KIND)
    report, parsed = _run(["case_a = True", "import time\ntime.sleep(1000)"], limits)
    assert report["status"] == "cell_timeout" and report["cell"] == 2 and parsed is None, report
    assert report["clock"] == "wall", report
    assert report["wall_s"] >= limits.cell_timeout * session.WALL_FACTOR > report["cpu_s"], report
    assert session.cpu_source() == source


STARVED = """
import ctypes, signal, time
go = []
signal.signal(signal.SIGUSR1, lambda *_: go.append(1))  # the test's word that the stop is over
gap, last = 0.0, time.monotonic()  # (read before the name is set: the stop can come at once)
ctypes.CDLL(None).prctl(15, NAME, 0, 0, 0)  # PR_SET_NAME: how the test finds this process
while not go:  # until the test has stopped it and let it go on
    time.sleep(0.02)
    now = time.monotonic()
    gap, last = max(gap, now - last), now
spent = time.process_time()
while time.process_time() - spent < 0.3:  # then some honest work
    pass
case_a = gap > LIMIT
"""


def _stop_once(name: bytes, seconds: float, done: threading.Event, found: list[int]) -> None:
    """SIGSTOP the process called ``name`` (the cell's) for ``seconds``, then SIGCONT it and tell it
    so (SIGUSR1): the cell does not guess from its clock when the stop is over."""
    deadline = time.monotonic() + ROOMY
    while not done.is_set() and time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            try:
                if entry.isdigit() and Path(f"/proc/{entry}/comm").read_bytes().strip() == name:
                    pid = int(entry)
                    os.kill(pid, signal.SIGSTOP)
                    found.append(pid)
                    time.sleep(seconds)
                    os.kill(pid, signal.SIGCONT)
                    os.kill(pid, signal.SIGUSR1)
                    return
            except OSError:
                continue
        time.sleep(0.02)


def test_an_honest_cell_starved_past_its_limit_keeps_its_points(source: str, cpu_clock_alone: float) -> None:
    """The cell is stopped (SIGSTOP) for longer than its limit: by the wall clock it is over, by
    the CPU clock it is not (a stopped process, like a starved one, uses no CPU). (The real
    backstop, 18 s here, is out of the way: the stop and the cell's 0.3 s of work, starved on a
    loaded machine, could reach it, and then the test would time the machine, not the clock.)"""
    limits = session.Limits(cell_timeout=3, notebook_timeout=30, sandbox=KIND, wall_limit=cpu_clock_alone)
    stop = limits.cell_timeout + 2
    name = f"bk-st-{secrets.token_hex(4)}".encode()
    cell = STARVED.replace("NAME", repr(name)).replace("LIMIT", str(limits.cell_timeout))
    done, found = threading.Event(), []  # type: ignore[var-annotated]
    stopper = threading.Thread(target=_stop_once, args=(name, stop, done, found))
    stopper.start()
    try:
        report, parsed = _run([cell], limits)
    finally:
        done.set()
        stopper.join()
    assert found, "the cell's process was never found"
    assert report["status"] == "ok", report  # with a wall-clock limit: cell_timeout, 0 points
    assert report["wall_s"] > limits.cell_timeout, report  # its wall time did pass the limit
    assert parsed is not None and parsed["answers"]["q1"] == {"status": "ok", "value": True}, parsed
    assert session.cpu_source() == source


def _notebook(tmp_path: Path, code: str) -> Path:
    """The learner's copy of exercise 03 with ``code`` as its last cell."""
    nb = json.loads((ROOT / "exercises" / "03-banker-rule.ipynb").read_text(encoding="utf-8"))
    nb["cells"].append({"cell_type": "code", "execution_count": None, "id": "last", "metadata": {},
                        "outputs": [], "source": code})
    path = tmp_path / "03-banker-rule.ipynb"
    path.write_text(json.dumps(nb), encoding="utf-8")
    return path


@pytest.mark.parametrize(("code", "clock"), [("while True:\n    pass", "CPU"), ("import time\ntime.sleep(1000)", "wall")])
def test_the_reason_says_which_clock_ran_out(tmp_path: Path, code: str, clock: str,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    limits = session.Limits(cell_timeout=1, notebook_timeout=60, sandbox=KIND)
    if clock == "CPU":  # the busy loop's CPU clock, not a race with the backstop (cpu_clock_alone)
        monkeypatch.setattr(session, "WALL_FACTOR", ROOMY)
        limits = session.Limits(cell_timeout=1, notebook_timeout=60, sandbox=KIND, wall_limit=ROOMY)
    row = grade_file(_notebook(tmp_path, code), EXERCISES, limits).to_json()
    assert row["status"] == "cell_timeout" and row["score"] == 0, row
    if clock == "CPU":
        assert "s of CPU time (an endless loop?)" in row["reason"]["en"] and "CPU 時間" in row["reason"]["zh"], row
    else:
        assert f"after {limits.cell_timeout * session.WALL_FACTOR} s of wall-clock time" in row["reason"]["en"], row
        assert "實際時間" in row["reason"]["zh"], row


def test_a_function_answer_is_timed_on_both_clocks() -> None:
    """In the learner's process a function answer has ``seconds`` of CPU time (a loop stops
    there) and a wall backstop (a sleep stops there); the answer says which ran out."""
    from baccarat_kit.grading.sandbox import _extract

    def spin(*_: Any) -> None:
        while True:
            pass

    def sleep(*_: Any) -> None:
        time.sleep(1000)

    assert _extract._function_answer(spin, [[1]], 0.2, 600)["clock"] == "cpu"  # type: ignore[no-untyped-call]
    assert _extract._function_answer(sleep, [[1]], 0.2, 0.5) == {  # type: ignore[no-untyped-call]
        "status": "timeout", "seconds": 0.5, "clock": "wall"}


def test_results_json_says_what_the_limits_count(tmp_path: Path) -> None:
    from baccarat_kit.cli import main

    out = tmp_path / "out"
    args = ["--lang", "en", "grade", str(ROOT / "exercises" / "source" / "01-card-values.ipynb"), "--out", str(out),
            "--no-progress", "--timeout", "7", "--notebook-timeout", "50"]
    assert main(args + (["--no-sandbox"] if KIND == "none" else [])) == 0
    limits = json.loads((out / "results.json").read_text(encoding="utf-8"))["limits"]
    assert limits["counts"] == "cpu" and limits["cpu_source"] in (
        session.TREE_SOURCE, "cgroup v1 cpuacct.usage", "cgroup v2 cpu.stat usage_usec"), limits
    assert limits["wall_backstop"]["cell_timeout"] == 7 * session.WALL_FACTOR, limits
    assert limits["wall_backstop"]["notebook_timeout"] == 50 * session.WALL_FACTOR, limits
