"""Run one submission's code cells in IPython, in a plain process (no Jupyter kernel, no ZMQ).

The grader starts ``python -I -m baccarat_kit.grading.sandbox.runner`` inside the submission's sandbox
(:mod:`.bwrap`) and talks to it through pipes:

1. it writes one line of JSON (the code cells, the limits, what Landlock should allow);
2. the runner sets its resource limits (inside the namespaces, before any learner code), confines
   itself with Landlock where Linux has it, sends its stdout and stderr to ``/dev/null`` and says
   ``ready``;
3. it runs each cell with IPython's own :class:`~IPython.core.interactiveshell.InteractiveShell`
   (``run_cell``: magics, ``display``, the displayhook, tracebacks: what a Jupyter kernel does,
   minus the messaging) and reports ``start N`` and ``done N ok|error``; the grader keeps the
   clock (per cell and for the whole notebook) and ends the sandbox when a limit is over;
4. after ``cells`` it reads one more line, the extraction code (with a nonce the learner's cells
   never saw), resets IPython's hooks, runs it and reports what that code printed, as
   ``answers "JSON string"``.

Learner code can write to the report pipe too: at worst it forges its own statuses or value
answers, which are its own claims anyway (see docs/grading.md); function answers never come
from here.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Any

MAX_CAPTURE = 4 * 1024 * 1024
"""Largest extraction output reported (characters)."""
SYSTEM_READABLE = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc/ld.so.cache", "/etc/localtime",
                   "/dev", "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/filesystems")
"""System paths Landlock lets the runner read, besides Python, the kit and its own folders."""


class _Capture:
    """A bounded stand-in for ``sys.stdout`` while the extraction code runs."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0

    def write(self, text: str) -> int:
        text = str(text)
        if self.size < MAX_CAPTURE:
            keep = text[: MAX_CAPTURE - self.size]
            self.parts.append(keep)
            self.size += len(keep)
        return len(text)

    def flush(self) -> None:
        pass


def readable_paths(extra: list[str]) -> list[str]:
    """Python (installation, environment, ``sys.path``), the kit's package, system paths, the
    runner's own ``/proc`` entry and ``extra``: what Landlock lets it read."""
    kit = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    wanted = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, kit,
              *[p for p in sys.path if p and os.path.isabs(p)], *SYSTEM_READABLE, f"/proc/{os.getpid()}", *extra]
    out: list[str] = []
    for path in wanted:
        if os.path.exists(path) and path not in out:
            out.append(path)
    return out


def main() -> int:
    report_fd = os.dup(1)
    os.set_inheritable(report_fd, False)
    report = os.fdopen(report_fd, "w", encoding="utf-8", buffering=1)
    stdin = sys.stdin
    job: dict[str, Any] = json.loads(stdin.readline())

    def send(line: str) -> None:
        report.write(line + "\n")
        report.flush()

    from IPython.core.interactiveshell import InteractiveShell
    from traitlets.config import Config

    from . import _extract
    from .bwrap import set_limits
    from .landlock import confine

    reset_shell, capture_class = _extract.reset_shell, _Capture  # bound before learner code runs
    os.makedirs(os.environ.get("IPYTHONDIR", os.path.join(os.getcwd(), ".ipython")), exist_ok=True)
    config = Config()
    config.HistoryManager.enabled = False
    config.InteractiveShell.colors = "NoColor"
    shell = InteractiveShell.instance(config=config)
    shell.user_ns["__name__"] = "__main__"
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 1)
    os.dup2(null, 2)
    os.close(null)
    set_limits(int(job["memory_mb"]), int(job["cpu_seconds"]), int(job["processes"]), int(job["file_mb"]),
               int(job["open_files"]))
    notebook = job.get("notebook")
    if notebook:  # the learner copy's public metadata, as beside a learner's notebook (for check())
        name = os.path.basename(str(notebook["name"]))
        with open(os.path.join(os.getcwd(), name), "w", encoding="utf-8") as fh:
            json.dump({"cells": [], "metadata": notebook["metadata"], "nbformat": 4, "nbformat_minor": 5}, fh)
    writable = [os.getcwd(), *job.get("writable", [])]
    try:
        confine(writable, readable=readable_paths(writable))
    except OSError as err:  # fail closed: no learner code rather than unconfined code
        send(f"confine-failed {err}")
        return 4
    send("ready")
    for index, code in enumerate(job["cells"], 1):
        send(f"start {index}")
        result = shell.run_cell(code, store_history=True)  # type: ignore[no-untyped-call]
        send(f"done {index} {'ok' if result.success else 'error'}")
    send("cells")
    extraction = json.loads(stdin.readline())
    reset_shell()  # type: ignore[no-untyped-call]
    capture = capture_class()
    real = sys.stdout
    sys.stdout = capture  # type: ignore[assignment,unused-ignore]
    try:
        shell.run_cell(extraction, store_history=False)  # type: ignore[no-untyped-call]
    finally:
        sys.stdout = real
    send("answers " + json.dumps("".join(capture.parts)))
    report.close()
    os._exit(0)  # now: a learner's thread must not keep the sandbox waiting


if __name__ == "__main__":  # pragma: no cover - runs inside the sandbox
    raise SystemExit(main())
