"""The pre-imported runner (sandbox/template.py, issue 32): forked into each submission's own
bubblewrap sandbox, it is what a Python started there is (credentials, capabilities, namespaces,
cgroup, environment, sys.path, modules), each submission's namespaces are its own, the template
holds nothing of the kit, nothing of a run is left behind, and a template that cannot enter a
sandbox gives way to the old start (loudly), never to an unconfined run."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.grading.grade import load_exercises
from baccarat_kit.grading.sandbox import bwrap, session
from baccarat_kit.grading.sandbox import template as _template

ROOT = Path(__file__).resolve().parents[1]
Q1 = load_exercises(ROOT / "exercises" / "source")["03-banker-rule"].question("q1").extraction()

try:
    bwrap.check()
    WORKING = ""
except bwrap.SandboxMissing as err:
    WORKING = str(err)
pytestmark = pytest.mark.skipif(bool(WORKING), reason=f"no working bubblewrap: {WORKING}")

PROBE = r'''
import ctypes, os, signal, sys
libc = ctypes.CDLL(None)
with open("/proc/self/status") as fh:
    status = {k: v.strip() for k, _, v in (line.partition(":") for line in fh)}
seen = {k: status[k] for k in ("Uid", "Gid", "Groups", "CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb",
                               "NoNewPrivs", "Seccomp")}
seen.update(dumpable=libc.prctl(3, 0, 0, 0, 0), umask=os.umask(0o22), host=os.uname().nodename, cwd=os.getcwd(),
            fds=sorted(os.listdir("/proc/self/fd")), env=sorted(os.environ.items()), path=sys.path,
            signals=[s for s in range(1, 32) if signal.getsignal(s) not in (signal.SIG_DFL, None)],
            modules=sorted(sys.modules), cgroup=open("/proc/self/cgroup").read().split(),
            ns={n: os.readlink("/proc/self/ns/" + n) for n in ("user", "mnt", "pid", "ipc", "net", "uts", "cgroup")})
text = __import__("json").dumps(seen)
case_a = [text[i:i + 1500] for i in range(0, len(text), 1500)]
'''
# (Not probed: what template.py says differs, sys.flags.no_site and the pid, 3 beside the placeholder.)


def _probe(monkeypatch: pytest.MonkeyPatch, fork: str) -> dict[str, Any]:
    monkeypatch.setenv(session.FORK_ENV, fork)
    report, parsed = session.run_notebook([PROBE], [Q1], session.Limits())
    assert report["status"] == "ok" and parsed is not None, report
    return dict(json.loads("".join(parsed["answers"]["q1"]["value"])))


def test_a_forked_runner_is_what_a_started_one_is(monkeypatch: pytest.MonkeyPatch) -> None:
    started = _probe(monkeypatch, "0")
    forked = _probe(monkeypatch, "1")
    assert session._TEMPLATE.broken is None
    assert "forked from a pre-imported template" in session.sandbox_description()
    ns_started, ns_forked = started.pop("ns"), forked.pop("ns")
    assert forked == started  # uid, capabilities, no_new_privs, cgroup, environment, sys.path, modules …
    assert forked["CapBnd"] == forked["CapEff"] == "0000000000000000" and forked["NoNewPrivs"] == "1"
    assert not {"baccarat_kit.rules", "baccarat_kit.coup", "baccarat_kit.settlement"} & set(forked["modules"])
    mine = {n: os.readlink(f"/proc/self/ns/{n}") for n in ns_forked}
    assert not set(ns_forked.values()) & set(mine.values())  # none of the grader's namespaces (alive)
    assert ns_forked.keys() == ns_started.keys()


HOLD = """
import ctypes, signal, time
go = []
signal.signal(signal.SIGUSR1, lambda *_: go.append(1))  # (before the name: the test may find it at once)
ctypes.CDLL(None).prctl(15, NAME, 0, 0, 0)  # PR_SET_NAME: how the test finds this process
began = time.monotonic()
while not go and time.monotonic() - began < 100:  # until the test has read both sandboxes
    time.sleep(0.02)
case_a = bool(go)
"""


def _wait_for(names: list[bytes]) -> dict[bytes, int]:
    """The host pid of the process called each of ``names`` (each cell's), once all are there."""
    import time

    found: dict[bytes, int] = {}
    deadline = time.monotonic() + 120
    while len(found) < len(names) and time.monotonic() < deadline:
        for entry in os.listdir("/proc"):
            try:
                if entry.isdigit() and (name := Path(f"/proc/{entry}/comm").read_bytes().strip()) in names:
                    found[name] = int(entry)
            except OSError:
                continue
        time.sleep(0.02)
    return found


def test_each_submission_has_namespaces_of_its_own(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two submissions graded at once (``--jobs 2``), each holding on until the test has read, from
    the host, the namespaces of both while both are alive (a namespace's number is reused once it
    is gone: two runs one after the other may show the same): none in common, and none of the
    grader's or the template's."""
    import secrets
    import signal
    from concurrent.futures import ThreadPoolExecutor

    monkeypatch.setenv(session.FORK_ENV, "1")
    names = [f"bk-ns-{secrets.token_hex(4)}".encode() for _ in range(2)]
    with ThreadPoolExecutor(2) as pool:
        runs = [pool.submit(session.run_notebook, [HOLD.replace("NAME", repr(n))], [Q1], session.Limits())
                for n in names]
        pids = _wait_for(names)
        try:
            assert len(pids) == 2, pids
            ns = {n: {k: os.readlink(f"/proc/{pid}/ns/{k}") for k in _template.NAMESPACES} for n, pid in pids.items()}
        finally:
            for pid in pids.values():
                os.kill(pid, signal.SIGUSR1)
        results = [r.result() for r in runs]
    assert all(rep["status"] == "ok" and got is not None and got["answers"]["q1"]["value"] is True
               for rep, got in results), results
    one, two = (set(ns[n].values()) for n in names)
    assert not one & two, ns
    proc = session._TEMPLATE.proc
    assert proc is not None
    theirs = {os.readlink(f"/proc/{p}/ns/{k}") for p in (os.getpid(), proc.pid) for k in _template.NAMESPACES}
    assert not (one | two) & theirs, ns


def test_nothing_of_a_forked_run_is_left_behind(monkeypatch: pytest.MonkeyPatch) -> None:
    """When run_notebook returns, the sandbox's init has ended, so every process of the run has
    been reaped: the template (their subreaper) has no child left, no zombie either."""
    _probe(monkeypatch, "1")
    proc = session._TEMPLATE.proc
    assert proc is not None and proc.poll() is None
    kids = [k for t in os.listdir(f"/proc/{proc.pid}/task")
            for k in Path(f"/proc/{proc.pid}/task/{t}/children").read_text().split()]
    assert kids == []


def _template_view(site_main: bool) -> str:
    """What the template's own check says of a ``python -I -S`` that imported what it imports,
    after ``site.main()`` (the host's .pth files) or as the template does it (none read)."""
    folders = bwrap.python_folders()
    code = ("import sys\nsource = sys.argv[1]\nexec(compile(source.replace('if __name__ == \"__main__\"', 'if False'), "
            "'template', 'exec'))\n"
            + ("import site\nsite.main()\n" if site_main else "_site_packages()\n")
            + "import importlib\nfor n in PRELOAD:\n    importlib.import_module(n)\n"
            f"print(_not_a_sandboxs({folders!r}))\n")
    out = subprocess.run([sys.executable, "-I", "-S", "-c", code, Path(_template.__file__).read_text(encoding="utf-8")],
                         capture_output=True, text=True, cwd="/", check=True)
    return out.stdout.strip()


def test_the_template_holds_nothing_of_the_kit() -> None:
    assert _template_view(site_main=False) == "None"


def test_the_templates_check_sees_the_hosts_pth_files() -> None:
    """Positive control: this venv's kit is an editable install, whose .pth puts a finder for the
    checkout into every Python that reads it (the sandbox masks it); the check refuses that."""
    pth = [p for folder in bwrap.python_folders() if os.path.isdir(folder)
           for p in Path(folder).rglob("__editable__*baccarat_kit*.pth")]
    if not pth:
        pytest.skip("the kit is not installed editable here: no host .pth to catch")
    assert _template_view(site_main=True) != "None"


def test_a_template_that_cannot_enter_gives_way_loudly(monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A request naming a namespace the sandbox's placeholder is not in (here: every inode off by
    one) is refused by the fork, before any learner code; the grader then starts the run the old
    way, says so once on stderr, and starts every later one the old way too."""
    monkeypatch.setattr(session, "_TEMPLATE", session._Template())
    real = os.stat

    def off_by_one(path: Any, *args: Any, **kwargs: Any) -> Any:
        got = real(path, *args, **kwargs)
        if isinstance(path, str) and path.startswith("/proc/") and "/ns/" in path:
            return os.stat_result((*got[:1], got.st_ino + 1, *got[2:10]))
        return got

    monkeypatch.setattr(os, "stat", off_by_one)
    monkeypatch.setenv(session.FORK_ENV, "1")
    report, parsed = session.run_notebook(["case_a = True"], [Q1], session.Limits())
    assert report["status"] == "ok" and parsed is not None and parsed["answers"]["q1"]["value"] is True, report
    assert session._TEMPLATE.broken is not None and "not the sandbox's" in session._TEMPLATE.broken
    assert "the pre-imported runner cannot enter a sandbox here" in capsys.readouterr().err
    assert not session._TEMPLATE.usable()


def test_a_forked_reader_answers_as_a_started_one(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Readers are forked from the template too (a fresh limited process per file, no Python
    started): each answer is the started reader's, for notebooks and for files that are not."""
    (tmp_path / "not-json.ipynb").write_text("{", encoding="utf-8")
    (tmp_path / "no-cells.ipynb").write_text('{"nbformat": 4}', encoding="utf-8")
    (tmp_path / "much-code.ipynb").write_text(json.dumps({"nbformat": 4, "cells": [
        {"cell_type": "code", "source": "x = 1\n" * 200_000}]}), encoding="utf-8")
    paths = [*sorted((ROOT / "exercises" / "source").glob("*.ipynb")), *sorted(tmp_path.glob("*.ipynb"))]
    monkeypatch.setenv(session.FORK_ENV, "0")
    started = [session.read_submission(p) for p in paths]
    monkeypatch.setenv(session.FORK_ENV, "1")
    assert session._TEMPLATE.usable()  # (started now, if it was not)

    def no_process(*_: Any, **__: Any) -> Any:
        raise AssertionError("a reader was started, not forked")

    monkeypatch.setattr(subprocess, "Popen", no_process)
    forked = [session.read_submission(p) for p in paths]
    assert forked == started
    assert sorted({r[2]["status"] for r in forked}) == ["not_json", "not_notebook", "ok", "too_much_code"]
