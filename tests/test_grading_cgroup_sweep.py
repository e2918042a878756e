"""Cgroups of graders killed with SIGKILL are swept by the next grader (cgroup.py's
``sweep_stale``): only the kit's names, only empty ones, only once their grader is gone, in the
cgroup v1 layout (these machines' memory and pids controllers) and the v2 one (the cgroup2
hierarchy mounted at /sys/fs/cgroup/unified here, used as a v2 root)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from baccarat_kit.grading.sandbox import cgroup

V2_ROOT = "/sys/fs/cgroup/unified"

MAKE = ("import json, sys, time\nfrom baccarat_kit.grading.sandbox import cgroup\n"
        "group, why = cgroup.create(64, 16)\nprint(json.dumps(group.folders if group else why), flush=True)\n"
        "time.sleep(600)\n")


def _v1() -> None:
    if os.geteuid() != 0 or cgroup.layout() != 1:
        pytest.skip("needs root and the cgroup v1 memory and pids controllers")
    group, why = cgroup.create(64, 16)
    if group is None:
        pytest.skip(why)
    group.remove()


def _grader() -> tuple[subprocess.Popen[str], dict[str, str]]:
    """A process that makes a cgroup as a grader does and lives on; its folders."""
    import json

    proc = subprocess.Popen([sys.executable, "-c", MAKE], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    folders = json.loads(proc.stdout.readline())
    assert isinstance(folders, dict), folders
    return proc, folders


def _gone_pid() -> int:
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _swept(mine: list[str], min_age: float | None = 0) -> list[str]:
    """Sweep the parents of ``mine`` (this test's folders); which of them are gone after it.
    Other graders on the machine (another test's killed one, in another worker) share these
    parents, and their sweeps may run at the same time: a test looks only at its own folders."""
    swept: set[str] = set()
    for parent in {os.path.dirname(f) for f in mine}:
        swept.update(cgroup.sweep_stale(parent, min_age=min_age))
    return sorted(f for f in mine if f in swept or not os.path.exists(f))


def test_v1_a_killed_graders_cgroups_are_swept_a_live_ones_kept() -> None:
    _v1()
    live, live_folders = _grader()
    dead, dead_folders = _grader()
    try:
        dead.send_signal(signal.SIGKILL)  # never removes its cgroups
        dead.wait(10)
        assert all(os.path.isdir(f) for f in dead_folders.values())
        # (other graders on this machine, such as another test's killed one, may be swept beside
        # ours: the test looks only at the folders of the graders it started)
        ours = sorted([*dead_folders.values(), *live_folders.values()])
        assert _swept(ours, min_age=None) == []  # a minute has not passed: left for now
        assert _swept(ours) == sorted(dead_folders.values())  # memory and pids
        assert all(os.path.isdir(f) for f in live_folders.values())  # its grader lives
    finally:
        live.kill()
        live.wait(10)
    assert _swept(sorted(live_folders.values())) == sorted(live_folders.values())


def test_v1_the_next_graders_first_cgroup_sweeps(monkeypatch: pytest.MonkeyPatch) -> None:
    _v1()
    dead, dead_folders = _grader()
    dead.send_signal(signal.SIGKILL)
    dead.wait(10)
    monkeypatch.setattr(cgroup, "STALE_AFTER_S", 0.0)
    monkeypatch.setattr(cgroup, "_swept", set())
    group, why = cgroup.create(64, 16)
    assert group is not None, why
    group.remove()
    assert not any(os.path.exists(f) for f in dead_folders.values())


def test_v1_a_cgroup_with_a_process_in_it_or_of_another_name_is_kept() -> None:
    _v1()
    parent = os.path.join(cgroup.ROOT, "pids", (cgroup._own("pids") or "/").lstrip("/"))
    busy = os.path.join(parent, f"baccarat-kit-{_gone_pid()}-0-0123abcd")
    other = os.path.join(parent, f"not-baccarat-kit-{_gone_pid()}-0-0123abcd")
    os.mkdir(busy)
    os.mkdir(other)
    sleeper = subprocess.Popen(["/bin/sh", "-c", f'echo $$ > "{busy}/cgroup.procs" && exec sleep 600'])
    try:
        deadline = time.monotonic() + 30
        while not Path(busy, "cgroup.procs").read_text().strip():
            assert time.monotonic() < deadline and sleeper.poll() is None
            time.sleep(0.01)
        assert _swept([busy, other]) == []
        assert os.path.isdir(busy) and os.path.isdir(other)
    finally:
        sleeper.kill()
        sleeper.wait(10)
        os.rmdir(other)
    deadline = time.monotonic() + 30
    while Path(busy, "cgroup.procs").read_text().strip():  # the killed process leaves a moment later
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert _swept([busy]) == [busy]


def test_v2_an_empty_cgroup_of_a_gone_grader_is_swept(monkeypatch: pytest.MonkeyPatch) -> None:
    if os.geteuid() != 0 or not os.path.exists(os.path.join(V2_ROOT, "cgroup.controllers")):
        pytest.skip("needs root and a cgroup2 hierarchy at /sys/fs/cgroup/unified")
    monkeypatch.setattr(cgroup, "ROOT", V2_ROOT)
    assert cgroup.layout() == 2
    parent = os.path.join(V2_ROOT, (cgroup._own("") or "/").lstrip("/"))
    dead = os.path.join(parent, f"baccarat-kit-{_gone_pid()}-3-0123abcd")
    mine = os.path.join(parent, f"baccarat-kit-{os.getpid()}-4-0123abcd")
    nested = os.path.join(parent, f"baccarat-kit-{_gone_pid()}-5-0123abcd")
    for folder in (dead, mine, nested, os.path.join(nested, "child")):
        os.mkdir(folder)
    try:
        assert _swept([dead, mine, nested]) == [dead]
        assert os.path.isdir(mine) and os.path.isdir(nested)  # this grader's own; not empty
    finally:
        for folder in (os.path.join(nested, "child"), nested, mine, dead):
            if os.path.isdir(folder):
                os.rmdir(folder)


def test_the_kits_name_is_what_the_sweep_looks_for() -> None:
    assert cgroup.NAME.fullmatch(cgroup._name())
    assert not cgroup.NAME.fullmatch("baccarat-kit-12-0-0123abcd-x") and not cgroup.NAME.fullmatch("baccarat-hub")


@pytest.mark.sandbox
def test_a_grader_killed_mid_notebook_leaves_a_cgroup_the_next_grader_removes(tmp_path: Path) -> None:
    """A real `baccarat-kit grade`, SIGKILLed while a learner cell runs in its sandbox: its sandbox
    dies with it (bwrap --die-with-parent), its cgroup stays, empty; the next sweep removes it."""
    import json

    from baccarat_kit.grading.sandbox import bwrap

    _v1()
    try:
        bwrap.check()
    except bwrap.SandboxMissing as err:
        pytest.skip(str(err))
    root = Path(__file__).resolve().parents[1]
    nb = json.loads((root / "exercises" / "01-card-values.ipynb").read_text(encoding="utf-8"))
    nb["cells"].append({"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
                        "source": "import time\nwhile True:\n    time.sleep(0.1)\n"})
    (tmp_path / "01-card-values.ipynb").write_text(json.dumps(nb), encoding="utf-8")
    grader = subprocess.Popen([sys.executable, "-m", "baccarat_kit.cli", "grade", str(tmp_path / "01-card-values.ipynb"),
                               "--out", str(tmp_path / "out"), "--timeout", "300", "--notebook-timeout", "300",
                               "--no-progress"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    parent = os.path.join(cgroup.ROOT, "pids", (cgroup._own("pids") or "/").lstrip("/"))
    mine = f"baccarat-kit-{grader.pid}-"
    try:
        deadline = time.monotonic() + 240
        busy: list[str] = []
        while not busy:  # its notebook's sandbox runs in a cgroup of its own
            assert grader.poll() is None and time.monotonic() < deadline, "the grader never ran the notebook"
            busy = [os.path.join(parent, n) for n in os.listdir(parent) if n.startswith(mine)
                    and Path(parent, n, "cgroup.procs").read_text().strip()]
            time.sleep(0.05)
        grader.send_signal(signal.SIGKILL)
        grader.wait(30)
        # Its own budget from the kill on: reaching the notebook may take most of the first one on
        # a loaded machine (seen at load 15: 240 s used up by the start, the sandbox then gone
        # a few ms too late for a deadline that had begun before the grader started).
        deadline = time.monotonic() + 60
        while any(Path(f, "cgroup.procs").read_text().strip() for f in busy):  # the sandbox dies with it
            assert time.monotonic() < deadline, "the sandbox outlived its grader (60 s after its SIGKILL)"
            time.sleep(0.05)
        left = sorted(os.path.join(p, n) for p in (parent, os.path.join(cgroup.ROOT, "memory",
                      (cgroup._own("memory") or "/").lstrip("/"))) for n in os.listdir(p) if n.startswith(mine))
        assert left and all(os.path.isdir(f) for f in busy)  # what a SIGKILL leaves
        assert _swept(left) == left
    finally:
        if grader.poll() is None:
            grader.kill()
            grader.wait(30)
