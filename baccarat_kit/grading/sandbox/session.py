"""Run learner code in a sandbox and talk to it: the grader's side of :mod:`.runner`.

* :func:`run_notebook` runs a submission's code cells in a fresh sandbox (:mod:`.bwrap`
  namespaces, or none with ``--no-sandbox``) through :mod:`.runner`, keeps the per-cell and
  whole-notebook clocks, then has :mod:`._extract` print the answers after a random nonce;
* :func:`run_function` runs one function answer's vetted code alone, in another sandbox;
* :func:`read_submission` has a submission parsed once in a memory-limited process (:mod:`.reader`).

Nothing here grades: it returns plain, strictly parsed JSON values for :mod:`..judge` to compare.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ...i18n import both, message
from ..judge import ownwork
from ..judge.checks import Question
from ..judge.ownwork import ALLOWED_MODULES
from . import _extract
from . import bwrap as _bwrap
from . import cgroup as _cgroup
from . import landlock as _landlock
from . import reader as _reader
from . import reaper as _reaper
from . import runner as _runner

DEFAULT_CELL_TIMEOUT = 10.0
DEFAULT_NOTEBOOK_TIMEOUT = 60.0
DEFAULT_MEMORY_MB = 1024
MAX_FILE_BYTES = 20 * 1024 * 1024
"""Largest submission file read (checked before reading; larger: status ``too_large``)."""
MAX_REPORT_BYTES = 32 * 1024 * 1024
"""Most bytes the grader reads from one sandboxed process (larger: status ``kernel_broken``)."""
PROCESSES = 64
"""Processes (threads included) one sandbox may run at once (``RLIMIT_NPROC`` inside it)."""
OPEN_FILES = 256
READER_MEMORY_MB = _reader.MEMORY_MB
"""Address space of the process that parses a submission (:mod:`.reader`)."""
FILE_MB = 64
"""Largest file learner code may write, in MB (``RLIMIT_FSIZE``)."""
STARTUP_ALLOWANCE = 60.0
"""Seconds the grader allows a worker beyond the notebook limit (kernel start and shutdown)."""
WORKER_GRACE = 10.0
"""Seconds a worker told to stop (SIGTERM) has to clean up before it is killed."""


@functools.cache
def _source(module: Any) -> str:
    """A module's text, read once: what the grader sends never changes during a batch."""
    return Path(module.__file__).read_text(encoding="utf-8")


_used_sandbox: list[_bwrap.Sandbox] = []


def sandbox_description() -> str:
    """What confined learner code in the last batch (written to results.json): bubblewrap's
    namespaces and Landlock, or ``NONE: --no-sandbox …``."""
    if _used_sandbox:
        return _used_sandbox[-1].describe()
    abi = _landlock.abi_version()
    return f"not started yet (landlock ABI {abi})" if abi else "not started yet (no Landlock)"


def record_sandbox(box: _bwrap.Sandbox) -> None:
    """Note what confined learner code that ran elsewhere (on Dask workers, :mod:`..cluster`),
    for :func:`sandbox_description`."""
    if not _used_sandbox or _used_sandbox[-1] != box:
        _used_sandbox.append(box)


_scopes: list[str] = []
"""How the last sandboxes' memory and process limits applied: per sandbox (a cgroup) or not."""
PER_PROCESS_ONLY = "per-process only"


def limits_scope() -> str:
    """What ``--memory-mb`` and the process count limited in the last batch (results.json's
    ``limits.scope``): ``sandbox (cgroup v1)`` / ``sandbox (cgroup v2)``, or ``per-process only``."""
    return _scopes[-1] if _scopes else "not started yet"


def record_scope(scope: str) -> None:
    """Note how the limits applied where learner code ran elsewhere (on Dask workers,
    :mod:`..cluster`), for :func:`limits_scope`."""
    if not _scopes or _scopes[-1] != scope:
        _scopes.append(scope)


def _group(limits: Limits) -> _cgroup.Cgroup | None:
    """A cgroup for one sandbox (memory ``limits.memory_mb`` in all, :data:`PROCESSES` tasks), or
    None, after a loud warning (once per batch), where the grader cannot make one."""
    group, why = _cgroup.create(limits.memory_mb, PROCESSES + 8)  # + bwrap, its init and wrappers
    scope = f"sandbox (cgroup v{group.version})" if group is not None else PER_PROCESS_ONLY
    if not _scopes or _scopes[-1] != scope:
        _scopes.append(scope)
        if group is None:
            print(f"baccarat-kit grade: WARNING: {message('grading.warning.per_process', None, reason=why)}",
                  file=sys.stderr, flush=True)
    return group


def _box(limits: Limits) -> _bwrap.Sandbox:
    """The sandbox learner code runs in: bubblewrap (checked once), or none with ``--no-sandbox``."""
    box = _bwrap.check() if limits.sandbox == "bwrap" else _bwrap.Sandbox("none")
    record_sandbox(box)
    return box



@dataclass(frozen=True)
class Limits:
    """Per-cell and whole-notebook time limits (seconds), the memory limit (MB) of the whole
    sandbox (its cgroup; each process is also held to it), and the sandbox: ``bwrap`` (namespaces) or ``none`` (``--no-sandbox``)."""

    cell_timeout: float = DEFAULT_CELL_TIMEOUT
    notebook_timeout: float = DEFAULT_NOTEBOOK_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    sandbox: str = "bwrap"



def extraction_code(questions: Sequence[Question], nonce: str) -> str:
    """The code run in the learner's kernel after the learner's cells (no expected answers).
    For a notebook, ``nonce`` is the public :data:`.runner.MARKER`: the runner's supervisor, out of
    the learner's reach, swaps in the real nonce."""
    source = _source(_extract)
    ns = f"_bk_grader_{nonce[:12]}"
    wanted = [q.extraction() for q in questions]
    return (
        f"{ns} = {{'__name__': '_bk_grader'}}\n"
        f"exec(compile({source!r}, '<baccarat-kit grader>', 'exec'), {ns})\n"
        f"{ns}['emit'](globals(), {nonce!r}, {wanted!r})\n"
    )


def _reject(*_: Any) -> Any:
    raise ValueError("not a plain JSON value")


def parse_extraction(output: str, nonce: str) -> dict[str, Any] | None:
    """The answers printed after ``nonce``, strictly parsed; None if absent, repeated or malformed."""
    lines = [line[len(nonce):] for line in output.splitlines() if line.startswith(nonce)]
    if len(lines) != 1:
        return None
    try:
        data = json.loads(lines[0], parse_float=_reject, parse_constant=_reject)
    except (ValueError, RecursionError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("answers"), dict):
        return None
    learner = data.get("learner_id")
    if learner is not None and (not isinstance(learner, str) or len(learner) > 100):
        return None
    return data


class _Lines:
    """Lines from a sandboxed process's stdout, each waited for until a deadline, never more
    than :data:`MAX_REPORT_BYTES` in all (the grader's memory stays bounded)."""

    def __init__(self, stream: Any) -> None:
        self.fd = stream.fileno()
        os.set_blocking(self.fd, False)
        self.buffer = b""
        self.total = 0
        self.eof = False

    def next(self, deadline: float) -> str | None:
        """The next line (without its newline); ``""`` at the end of output (or past the byte
        limit); None when the deadline passed first."""
        import select

        while b"\n" not in self.buffer:
            if self.eof:
                return ""
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            ready, _, _ = select.select([self.fd], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self.fd, 1 << 16)
            except BlockingIOError:
                continue
            self.total += len(chunk)
            if not chunk or self.total > MAX_REPORT_BYTES:
                self.eof = True
                self.buffer = b"" if chunk else self.buffer
                continue
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        return line.decode("utf-8", "replace")


def _send(proc: subprocess.Popen[bytes], text: str) -> bool:
    try:
        assert proc.stdin is not None
        proc.stdin.write(text.encode("utf-8") + b"\n")
        proc.stdin.flush()
        return True
    except (BrokenPipeError, OSError):
        return False


def _runner_env(home: str, tmp: str) -> dict[str, str]:
    """A minimal environment for learner code: no inherited variables, secrets or startup files."""
    return {
        "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "HOME": home,
        "IPYTHONDIR": f"{home}/.ipython", "MPLCONFIGDIR": f"{home}/.mpl", "MPLBACKEND": "Agg",
        "TMPDIR": tmp, "PYTHONNOUSERSITE": "1", "PYTHONDONTWRITEBYTECODE": "1", "PYTHONHASHSEED": "0",
        "BACCARAT_KIT_GRADING": "1",
    }


def _start(box: _bwrap.Sandbox, command: list[str], env_for: Callable[[str], dict[str, str]],
           group: _cgroup.Cgroup | None = None) -> tuple[subprocess.Popen[bytes], str | None]:
    """Start ``command`` in a fresh sandbox (inside ``group`` from its first process on); without
    one, through the reaper in a temporary folder (returned, for the caller to remove)."""
    if box.isolated:
        return box.popen(command, env_for(_bwrap.INSIDE_HOME), cgroup=group), None
    workdir = tempfile.mkdtemp(prefix="bk-grade-")
    os.makedirs(os.path.join(workdir, ".home", "tmp"))
    env = env_for(os.path.join(workdir, ".home"))
    command = [sys.executable, "-I", "-S", "-c", _source(_reaper), *command]
    return box.popen(command, env, cgroup=group, cwd=workdir), workdir


def _finish(proc: subprocess.Popen[bytes], box: _bwrap.Sandbox, workdir: str | None,
            group: _cgroup.Cgroup | None = None) -> None:
    """End a sandbox and everything in it. With bubblewrap, killing ``bwrap`` ends its PID
    namespace (``--die-with-parent``), with it every process, System V IPC object and file of
    the submission. Without, the reaper gets SIGTERM (and ends what the code forked)."""
    try:
        if box.isolated:
            box.end(proc)
        else:
            try:
                proc.wait(2 if proc.poll() is None else 0)
            except subprocess.TimeoutExpired:
                _stop(proc)
            _kill_group(proc)
    finally:
        for stream in (proc.stdin, proc.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass
        if group is not None:
            group.remove()
        if workdir:
            shutil.rmtree(workdir, ignore_errors=True)


def _drive(proc: subprocess.Popen[bytes], cells: list[str], extraction: str, limits: Limits,
           writable: list[str], public: dict[str, Any] | None = None, nonce: str = "",
           allowed_calls: Sequence[str] = (), watch: Sequence[str] = ()) -> dict[str, Any]:
    """Talk to :mod:`.runner` (see there) and keep its clocks: the status of the run.

    Everything is sent at once, before any learner code runs, and the pipe is closed: the
    runner's supervisor keeps the nonce, its learner process gets the rest."""
    lines = _Lines(proc.stdout)
    job = {"cells": cells, "memory_mb": limits.memory_mb, "cpu_seconds": int(limits.notebook_timeout) + 10,
           "processes": PROCESSES if limits.sandbox == "bwrap" else 0, "file_mb": FILE_MB,
           "open_files": OPEN_FILES, "writable": writable, "notebook": public, "extraction": extraction,
           "nonce": nonce, "allowed_calls": list(allowed_calls), "watch": list(watch)}
    sent = _send(proc, json.dumps(job))
    try:
        assert proc.stdin is not None
        proc.stdin.close()
    except OSError:
        pass
    if not sent:
        return {"status": "kernel_start", "detail": "the sandbox did not start"}
    ready = lines.next(time.monotonic() + STARTUP_ALLOWANCE)
    if ready != "ready":
        return {"status": "kernel_start", "detail": (ready or "exited before it was ready")[:200]}
    end = time.monotonic() + limits.notebook_timeout
    report: dict[str, Any] = {"status": "ok", "cell": None, "errors": 0, "extraction": ""}
    for index in range(1, len(cells) + 1):
        remaining = end - time.monotonic()
        if remaining <= 0:
            return {**report, "status": "notebook_timeout", "cell": index}
        deadline = time.monotonic() + min(limits.cell_timeout, remaining)
        for expected in (f"start {index}", f"done {index} "):
            line = lines.next(deadline)
            if line is None:
                return {**report, "cell": index,
                        "status": "cell_timeout" if remaining > limits.cell_timeout else "notebook_timeout"}
            if line == "":
                return {**report, "status": "kernel_died", "cell": index}
            if not line.startswith(expected) or (expected.startswith("done") and line[len(expected):] not in (
                    "ok", "error")):
                return {**report, "status": "kernel_broken", "cell": index}
            if line.endswith(" error"):
                report["errors"] += 1
    after = len(cells) + 1
    # The grader's own step gets a per-cell limit, beyond the notebook limit.
    deadline = time.monotonic() + limits.cell_timeout
    line = lines.next(deadline)
    if line is not None and line.startswith("trips "):  # answers computed after the kit's code tripped
        try:  # learner code can write this line too: it claims trips, never removes a static verdict
            trips = json.loads(line[len("trips "):])
        except (ValueError, RecursionError):
            trips = None
        late = trips.get("late") if isinstance(trips, dict) else None
        report["late"] = {str(k)[:100]: f"{str(v[0])[:80]}, cell {v[1]}" for k, v in late.items()
                          if isinstance(v, list) and len(v) == 2 and type(v[1]) is int} if isinstance(late, dict) else {}
        line = lines.next(deadline)
    if line == "cells":
        line = lines.next(deadline)
    if line is None:
        return {**report, "status": "no_answers", "cell": after}
    if line == "":
        return {**report, "status": "kernel_died", "cell": after}
    if not line.startswith("answers "):
        return {**report, "status": "kernel_broken", "cell": after}
    try:
        text = json.loads(line[len("answers "):])
    except ValueError:
        return {**report, "status": "kernel_broken", "cell": after}
    return {**report, "extraction": text if isinstance(text, str) else ""}


def _stop(proc: subprocess.Popen[Any]) -> None:
    """SIGTERM (a reaper then ends everything the learner's code left behind), then SIGKILL to
    the whole group after :data:`WORKER_GRACE` seconds."""
    proc.terminate()
    try:
        proc.wait(WORKER_GRACE)
    except subprocess.TimeoutExpired:
        pass
    _kill_group(proc)


def _kill_group(proc: subprocess.Popen[Any]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()



def read_submission(path: Path, functions: Sequence[str],
                    values: Mapping[str, tuple[Sequence[str], Sequence[str]]] | None = None) -> tuple[str, int, dict[str, Any]]:
    """sha256, size and the reader's answer (:mod:`.reader`) for ``path``: the size is checked
    before the file is read, the file is read once, and parsed once in a memory-limited process.
    ``values``: per exercise id, its value and choice answer names and the kit calls it allows."""
    size = path.stat().st_size
    digest = hashlib.sha256()
    if size > MAX_FILE_BYTES:
        with path.open("rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        return digest.hexdigest(), size, {"status": "too_large"}
    with path.open("rb") as fh:
        data = fh.read(MAX_FILE_BYTES + 1)
    digest.update(data)
    if len(data) > MAX_FILE_BYTES:
        return digest.hexdigest(), len(data), {"status": "too_large"}
    header = json.dumps({"ownwork": _source(ownwork), "names": sorted(set(functions)), "size": len(data),
                         "values": {ex: {"names": sorted(set(names)), "allowed": list(allowed)}
                                    for ex, (names, allowed) in (values or {}).items()},
                         "memory_mb": READER_MEMORY_MB})
    proc = subprocess.Popen([sys.executable, "-I", "-S", "-c", _source(_reader)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
                            env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
    try:
        out, _ = proc.communicate(header.encode("utf-8") + b"\n" + data, timeout=_reader.CPU_SECONDS + 10)
    except subprocess.TimeoutExpired:
        _kill_group(proc)
        return digest.hexdigest(), len(data), {"status": "too_complex"}
    finally:
        del data
    try:
        answer = json.loads(out)
    except ValueError:
        answer = None
    if not isinstance(answer, dict) or not isinstance(answer.get("status"), str):
        return digest.hexdigest(), size, {"status": "too_complex"}
    return digest.hexdigest(), size, answer



def run_notebook(cells: list[str], questions: Sequence[Question], limits: Limits,
                 public: dict[str, Any] | None = None,
                 allowed_calls: Sequence[str] = ()) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Run ``cells`` in a fresh sandbox (:mod:`.runner`); extract ``questions``.

    ``public`` (``{"name": "EXERCISE.ipynb", "metadata": …}``) is written to the sandbox's working
    folder: only the learner copy's public metadata (from the trusted sources), as beside a
    learner's notebook, so ``check.options`` and ``check.letter`` work there as in her kernel.
    ``allowed_calls``: the exercise's kit calls, the only way into the kit's decision and key code
    while the cells run (:func:`._extract.install_absence`); the report's ``late`` names the
    answers computed after a call that tripped."""
    nonce = secrets.token_hex(16)
    box = _box(limits)
    group = _group(limits)
    proc, workdir = _start(box, [sys.executable, "-I", "-m", "baccarat_kit.grading.sandbox.runner"],
                           lambda home: _runner_env(home, "/tmp" if box.isolated else f"{home}/tmp"), group)
    try:
        writable = ["/tmp"] if box.isolated else []
        report = _drive(proc, cells, extraction_code(questions, _runner.MARKER), limits, writable, public, nonce,
                        allowed_calls, [q.answer for q in questions])
        if group is not None and group.oom_kills():  # a process of the sandbox went over its total
            report = {**report, "status": "kernel_died", "cell": report.get("cell") or len(cells) + 1}
    finally:
        _finish(proc, box, workdir, group)
    parsed = parse_extraction(str(report.get("extraction", "")), nonce) if report.get("status") == "ok" else None
    return report, parsed


FUNCTION_RUNNER = r"""
import builtins, importlib, json, os, resource, sys, types
job = json.loads(sys.stdin.readline())
allowed = job["allowed_modules"]
for name in allowed:  # imported now: once confined, nothing else can be read from disk
    importlib.import_module(name)
for name in ("collections.abc", "threading", "types"):  # what the grader's own code needs
    importlib.import_module(name)
sandbox = {"__name__": "_bk_sandbox"}
exec(compile(job.pop("sandbox"), "<baccarat-kit sandbox>", "exec"), sandbox)
grader = {"__name__": "_bk_grader"}
exec(compile(job.pop("extract"), "<baccarat-kit grader>", "exec"), grader)
emit = grader["emit"]
real_import = builtins.__import__
def limited_import(name, globals=None, locals=None, fromlist=(), level=0):
    if level or name.split(".")[0] not in allowed:
        raise ImportError(f"{name} is not available to a function answer")
    return real_import(name, globals, locals, fromlist, level)
safe = {k: v for k, v in vars(builtins).items() if k not in job["removed_builtins"]}
safe["__import__"] = limited_import
sandbox["confine"]([os.getcwd()], readable=[])
real_stdout = sys.stdout
sys.stdout = sys.stderr = open(os.devnull, "w")
limit = job["memory_mb"] * 1024 * 1024
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
resource.setrlimit(resource.RLIMIT_CPU, (job["cpu_seconds"], job["cpu_seconds"]))
resource.setrlimit(resource.RLIMIT_FSIZE, (0, 0))
resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
if job["processes"]:
    resource.setrlimit(resource.RLIMIT_NPROC, (job["processes"], job["processes"]))
learner = {"__name__": "__main__", "__builtins__": safe}
try:
    exec(compile(job.pop("code"), "<answer>", "exec"), learner)
except Exception:
    pass
sys.stdout = real_stdout
emit(learner, job["nonce"], job["questions"])
"""
"""Runs a function answer's own code in a bare ``python -I -S`` (no site-packages, so the kit
cannot be imported) in its own sandbox (namespaces, separate from the notebook's), with
memory, CPU, process and file limits, then prints the results. The allowed standard modules
are imported first; then, where Landlock exists, the process is confined so that it can read
no file at all (not even what its sandbox shows). The learner's code sees builtins without
``open``, ``exec``, ``eval``, ``compile``, ``getattr`` … and an ``__import__`` that gives only
the allowed modules (a speed bump, not the barrier: see docs/grading.md)."""

REMOVED_BUILTINS = ("open", "exec", "eval", "compile", "breakpoint", "input", "help", "getattr",
                    "setattr", "delattr", "globals", "locals", "vars", "exit", "quit", "copyright",
                    "credits", "license", "__loader__", "__spec__")



def run_function(code: str, question: Question, limits: Limits) -> dict[str, Any]:
    nonce = secrets.token_hex(16)
    job = {
        "code": code, "questions": [question.extraction()], "nonce": nonce,
        "extract": _source(_extract), "sandbox": _source(_landlock),
        "allowed_modules": sorted(ALLOWED_MODULES), "removed_builtins": list(REMOVED_BUILTINS),
        "memory_mb": limits.memory_mb, "cpu_seconds": int(limits.cell_timeout) + 2,
        "processes": PROCESSES if limits.sandbox == "bwrap" else 0,
    }
    box = _box(limits)
    group = _group(limits)
    proc, workdir = _start(box, [sys.executable, "-I", "-S", "-c", FUNCTION_RUNNER],
                           lambda home: {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"}, group)
    found: str | None = None
    timed_out = False
    over_memory = False
    try:
        if _send(proc, json.dumps(job)):
            lines = _Lines(proc.stdout)
            deadline = time.monotonic() + limits.cell_timeout
            while True:
                line = lines.next(deadline)
                if line is None:
                    timed_out = True
                    break
                if line == "":
                    break
                if line.startswith(nonce):
                    found = line if found is None else ""
        over_memory = group is not None and group.oom_kills() > 0
    finally:
        _finish(proc, box, workdir, group)
    if over_memory:
        return {"status": "run-failed",
                "reason": both("grading.reason.function_failed", detail=f"over the {limits.memory_mb} MB memory limit")}
    if timed_out:
        return {"status": "run-failed",
                "reason": both("grading.reason.function_timeout", seconds=limits.cell_timeout)}
    parsed = parse_extraction(found, nonce) if found else None
    if parsed is None:
        return {"status": "run-failed",
                "reason": both("grading.reason.function_failed", detail=f"exit {proc.returncode}")}
    answer = parsed["answers"].get(question.id, {"status": "missing"})
    return answer if isinstance(answer, dict) else {"status": "missing"}

