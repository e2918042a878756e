"""The grader's stage folder (bwrap.py's ``_stage_folder``, the world-readable folder a root
grader binds unreachable folders onto) does not outlive a grader that was killed: the next
grader removes it. A live grader's folder, another user's folder, a link, a folder made a
moment ago and an earlier kit's folder are left alone."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from baccarat_kit.grading.sandbox import bwrap

MAKE = ("import sys, time\nfrom baccarat_kit.grading.sandbox import bwrap\n"
        "print(bwrap.new_stage(sys.argv[1]), flush=True)\ntime.sleep(600)\n")


def _grader(parent: Path) -> tuple[subprocess.Popen[str], Path]:
    """A process that makes its stage folder in ``parent`` and lives on; its folder."""
    proc = subprocess.Popen([sys.executable, "-c", MAKE, str(parent)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    folder = Path(proc.stdout.readline().strip())
    (folder / "0").mkdir()  # as a sandbox's staged folder
    return proc, folder


def _age(folder: Path, seconds: float = 3600) -> None:
    then = time.time() - seconds
    os.utime(folder, (then, then))


def test_a_killed_graders_folder_is_removed_a_live_ones_is_not(tmp_path: Path) -> None:
    live, live_folder = _grader(tmp_path)
    dead, dead_folder = _grader(tmp_path)
    try:
        dead.send_signal(signal.SIGKILL)  # atexit never runs
        dead.wait(10)
        _age(live_folder)
        _age(dead_folder)
        assert bwrap.sweep_stale_stages(str(tmp_path)) == [str(dead_folder)]
        assert not dead_folder.exists()
        assert (live_folder / "0").is_dir()
    finally:
        live.kill()
        live.wait(10)
    assert bwrap.sweep_stale_stages(str(tmp_path)) == [str(live_folder)]  # gone with its grader


def test_a_folder_made_a_moment_ago_a_link_and_other_names_are_left(tmp_path: Path) -> None:
    young = tmp_path / f"{bwrap.STAGE_PREFIX}young"
    young.mkdir()  # not locked yet: a grader that is just starting
    target = tmp_path / "instructors-folder"
    (target / "notes").mkdir(parents=True)
    link = tmp_path / f"{bwrap.STAGE_PREFIX}link"
    link.symlink_to(target)
    other = tmp_path / "bk-grade-keep"
    other.mkdir()
    _age(other)
    earlier = tmp_path / "bk-grader-stage-x1y2z3"  # an earlier kit's: no lock, may be live
    earlier.mkdir()
    _age(earlier)
    _age(target)
    assert bwrap.sweep_stale_stages(str(tmp_path)) == []
    assert young.is_dir() and link.is_symlink() and (target / "notes").is_dir()
    assert other.is_dir() and earlier.is_dir()
    _age(young)
    assert bwrap.sweep_stale_stages(str(tmp_path)) == [str(young)]
    assert (target / "notes").is_dir()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="giving a folder to another uid needs root")
def test_another_users_folder_is_left(tmp_path: Path) -> None:
    theirs = tmp_path / f"{bwrap.STAGE_PREFIX}theirs"
    theirs.mkdir()
    os.chown(theirs, 65534, 65534)
    _age(theirs)
    assert bwrap.sweep_stale_stages(str(tmp_path)) == []
    assert theirs.is_dir()


def test_the_graders_own_folder_is_locked_and_swept_after_it(tmp_path: Path) -> None:
    """What ``_stage_folder`` does, in a grader process of its own: sweep, then make a new one."""
    code = ("import os, signal, sys, tempfile\ntempfile.tempdir = sys.argv[1]\n"
            "from baccarat_kit.grading.sandbox import bwrap\n"
            "bwrap._world_readable = lambda path: True  # (pytest's folders are closed: not /tmp)\n"
            "print(bwrap._stage_folder(), flush=True)\nos.kill(os.getpid(), signal.SIGKILL)\n")
    first = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True)
    old = Path(first.stdout.strip())
    assert old.parent == tmp_path and old.is_dir()
    _age(old)
    second = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True)
    new = Path(second.stdout.strip())
    assert new.is_dir() and not old.exists()


def test_a_new_folder_is_locked_before_others_can_open_it(tmp_path: Path) -> None:
    """Made 0700 with its lock file locked, then opened to others (0755): nobody can lock it
    first, and while its grader lives no one else gets the lock (the sweep's try never waits)."""
    proc, folder = _grader(tmp_path)
    lock = folder / bwrap.STAGE_LOCK
    try:
        assert folder.stat().st_mode & 0o777 == 0o755 and lock.stat().st_mode & 0o777 == 0o600
        assert lock.stat().st_uid == os.geteuid()
        probe = ("import fcntl, os, sys\nfd = os.open(sys.argv[1], os.O_RDONLY)\n"
                 "try:\n    fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)\nexcept OSError:\n    sys.exit(3)\n")
        assert subprocess.run([sys.executable, "-c", probe, str(lock)]).returncode == 3
    finally:
        proc.kill()
        proc.wait(10)
    assert subprocess.run([sys.executable, "-c", probe, str(lock)]).returncode == 0


HOLD = ("import fcntl, os, sys\nfd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY)\n"
        "try:\n    os.open(os.path.join(sys.argv[1], sys.argv[2]), os.O_RDONLY)\n    print('opened', flush=True)\n"
        "except PermissionError:\n    print('refused', flush=True)\nexcept OSError:\n    print('absent', flush=True)\n"
        "fcntl.flock(fd, fcntl.LOCK_SH)\nprint('locked', flush=True)\n"  # (waits while an earlier kit's grader lives)
        "sys.stdin.read()\n")
"""uid 65534's side: try the lock file, then lock the stage folder itself and keep the lock."""


SYSTEM_PYTHON = "/usr/bin/python3"
"""A Python the second uid can run (this venv's may live under /root)."""


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0 or not os.access(SYSTEM_PYTHON, os.X_OK),
                    reason="a second uid needs root, and a Python it can run")
def test_another_users_lock_does_not_keep_a_dead_graders_folder() -> None:
    """uid 65534 opens a live grader's stage folder (it is world-readable), locks the folder and
    keeps the lock after the grader is killed; she cannot open the lock file. The sweep removes
    the dead grader's folder all the same."""
    import tempfile

    # (pytest's folders are closed to other users: she must reach the stage folder, as in /tmp)
    with tempfile.TemporaryDirectory(prefix="bk-stage-test-", dir="/tmp") as where:
        os.chmod(where, 0o755)
        _another_users_lock(Path(where))


def _another_users_lock(tmp_path: Path) -> None:
    grader, folder = _grader(tmp_path)

    def as_nobody() -> None:
        os.setgroups([])
        os.setgid(65534)
        os.setuid(65534)
    her = subprocess.Popen([SYSTEM_PYTHON, "-I", "-c", HOLD, str(folder), bwrap.STAGE_LOCK], stdin=subprocess.PIPE,
                           stdout=subprocess.PIPE, text=True, preexec_fn=as_nobody)
    try:
        assert her.stdout is not None
        assert her.stdout.readline().strip() == "refused"  # she cannot open the lock file
        grader.send_signal(signal.SIGKILL)
        grader.wait(10)
        assert her.stdout.readline().strip() == "locked"  # but holds a lock on the folder itself
        _age(folder)
        assert bwrap.sweep_stale_stages(str(tmp_path)) == [str(folder)]
        assert not folder.exists() and her.poll() is None  # removed while she still holds her lock
    finally:
        if grader.poll() is None:
            grader.kill()
            grader.wait(10)
        her.kill()
        her.wait(10)


def test_one_sweep_looks_at_a_bounded_number_of_names(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bwrap, "SWEEP_AT_MOST", 2)
    for i in range(3):
        (tmp_path / f"{bwrap.STAGE_PREFIX}dead{i}").mkdir()
        _age(tmp_path / f"{bwrap.STAGE_PREFIX}dead{i}")
    assert len(bwrap.sweep_stale_stages(str(tmp_path))) == 2
    assert len(bwrap.sweep_stale_stages(str(tmp_path))) == 1
    assert not list(tmp_path.iterdir())
