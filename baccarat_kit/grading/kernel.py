"""Launch an IPython kernel for one submission, inside resource limits.

Run as ``python -m baccarat_kit.grading.kernel --memory-mb N --cpu-seconds S -f CONNECTION``
(the grader's temporary kernelspec does this). Before ipykernel starts, and so before any
learner code, it sets:

* ``RLIMIT_AS`` (address space) to ``--memory-mb``: a learner who allocates too much gets a
  ``MemoryError`` or a dead kernel, never the grader's memory;
* ``RLIMIT_CPU`` to ``--cpu-seconds`` (a backstop for the wall-clock limits of the grader);
* ``RLIMIT_FSIZE`` (files the kernel writes) and ``RLIMIT_CORE`` 0;
* a watchdog thread that ends the kernel when the process that started it is gone, so a
  killed grading worker never leaves a kernel running;
* a Landlock sandbox where Linux offers one (:mod:`.sandbox`): files may be written only in
  the submission's temporary folder (the kernel's working folder) and the connection folder,
  and read only there, in Python's installation and the kit's package, and in the system's
  program folders (:func:`readable_paths`): not other submissions, the instructor's sources,
  earlier results, the grader's home, nor another process's ``/proc`` entry (the grader's
  environment and command line); TCP only on the kernel's own ports, signals only inside the
  sandbox.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import threading
import time

FILE_LIMIT = 64 * 1024 * 1024


def _limit(which: int, value: int) -> None:
    _soft, hard = resource.getrlimit(which)
    if hard != resource.RLIM_INFINITY:
        value = min(value, hard)
    resource.setrlimit(which, (value, value if hard == resource.RLIM_INFINITY else hard))


def _watchdog(parent: int) -> None:
    getppid, exit_now, sleep = os.getppid, os._exit, time.sleep  # bound before learner code runs

    def watch() -> None:
        while True:
            if getppid() != parent:
                exit_now(3)
            sleep(0.5)

    threading.Thread(target=watch, name="bk-grader-watchdog", daemon=True).start()


SYSTEM_READABLE = ("/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin", "/etc", "/dev", "/sys",
                   "/proc/cpuinfo", "/proc/meminfo", "/proc/stat", "/proc/filesystems")
"""System folders and files a kernel may read (programs, libraries, fonts, time zones…)."""


def readable_paths() -> list[str]:
    """What the learner's kernel may read besides its own folders: Python (the installation,
    the virtual environment, every folder on ``sys.path``), the kit's package folder (not the
    checkout around it), :data:`SYSTEM_READABLE` and its own ``/proc`` entry."""
    kit = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    wanted = [sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix, kit,
              *[p for p in sys.path if p and os.path.isabs(p)], *SYSTEM_READABLE, f"/proc/{os.getpid()}"]
    out: list[str] = []
    for path in wanted:
        if os.path.exists(path) and path not in out:
            out.append(path)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="baccarat_kit.grading.kernel")
    parser.add_argument("--memory-mb", type=int, required=True)
    parser.add_argument("--cpu-seconds", type=int, required=True)
    parser.add_argument("-f", dest="connection_file", required=True)
    args = parser.parse_args(argv)
    _limit(resource.RLIMIT_AS, args.memory_mb * 1024 * 1024)
    _limit(resource.RLIMIT_CPU, args.cpu_seconds)
    _limit(resource.RLIMIT_FSIZE, FILE_LIMIT)
    _limit(resource.RLIMIT_CORE, 0)
    _watchdog(os.getppid())
    ports = json.loads(open(args.connection_file, encoding="utf-8").read())
    from .sandbox import confine

    try:
        confine(
            [os.getcwd(), os.path.dirname(os.path.abspath(args.connection_file))],
            bind_ports=[int(ports[k]) for k in ("shell_port", "iopub_port", "stdin_port", "control_port", "hb_port")],
            connect_ports=[int(ports["shell_port"])],
            readable=readable_paths(),
        )
    except OSError as err:  # fail closed: no kernel rather than an unconfined one
        sys.stderr.write(f"baccarat-kit grader: sandbox failed: {err}\n")
        raise SystemExit(4) from err
    from ipykernel.kernelapp import launch_new_instance

    sys.argv = [sys.argv[0], "-f", args.connection_file, "--HistoryManager.enabled=False",
                "--IPKernelApp.quiet=True"]
    launch_new_instance()


if __name__ == "__main__":  # pragma: no cover - runs as the kernel process
    main()
