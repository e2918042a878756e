"""End every process a learner's code leaves behind (standard library only, Linux).

A learner's code can fork, ``os.setsid()`` and fork again: such a daemon leaves the process
group that the grader kills and is re-parented to init, so it would outlive grading. A *child
subreaper* (``prctl(PR_SET_CHILD_SUBREAPER)``) receives those orphans instead of init, and can
find and end them: :func:`end_descendants`.

In the bubblewrap sandbox (:mod:`.bwrap`) a PID namespace does this. With ``--no-sandbox`` the
runner and the function runner are started through this module's text (``python -I -S -c
TEXT COMMAND…``), which runs COMMAND (stdin and stdout passed through), then ends whatever
COMMAND left behind, also when it is told to stop with SIGTERM; it exits with COMMAND's exit
code.
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from typing import Any

PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> bool:
    """Make orphaned descendants re-parent to this process; False where unsupported."""
    try:
        return bool(ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process visible in /proc."""
    out = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as fh:
                stat = fh.read()
            out[int(entry)] = int(stat[stat.rindex(b")") + 2:].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return out


def end_descendants(rounds: int = 100) -> int:
    """SIGKILL every descendant of this process (again and again, for forks in flight), reap
    them, and return how many were signalled."""
    if not os.path.isdir("/proc"):
        return 0
    me = os.getpid()
    killed = 0
    for _ in range(rounds):
        parents = _parents()
        mine = {me}
        grew = True
        while grew:
            new = {pid for pid, ppid in parents.items() if ppid in mine and pid not in mine}
            mine |= new
            grew = bool(new)
        mine.discard(me)
        for pid in mine:
            try:
                os.kill(pid, signal.SIGKILL)
                killed += 1
            except OSError:
                pass
        while True:
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                pid = 0
            if pid == 0:
                break
        if not mine:
            break
        time.sleep(0.02)
    return killed


def _terminate(signum: int, frame: Any) -> None:
    raise SystemExit(128 + signum)


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGTERM, _terminate)
    become_subreaper()
    code = 1
    try:
        code = subprocess.run(argv, check=False).returncode
    finally:
        end_descendants()
    return code


if __name__ == "__main__":  # pragma: no cover - runs as a subprocess of the grader
    raise SystemExit(main(sys.argv[1:]))
