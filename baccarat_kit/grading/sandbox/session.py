"""Run learner code in a sandbox and talk to it: the grader's side of :mod:`.runner`.

* :func:`run_notebook` runs a submission's code cells in a fresh sandbox (:mod:`.bwrap`
  namespaces, or none with ``--no-sandbox``) through :mod:`.runner`, whose only ``baccarat_kit``
  is the exercise API (:mod:`.api_tree`), keeps the per-cell and whole-notebook clocks, then has
  :mod:`._extract` print the answers after a random nonce (the value answers, then each function
  answer called on every input);
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
from ..judge import pasted as _pasted
from ..judge.checks import Question
from . import _extract
from . import api_tree as _api_tree
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



def extraction_code(questions: Sequence[Question], nonce: str, seconds: float | None = None) -> str:
    """The code run in the learner's kernel after the learner's cells (no expected answers).
    For a notebook, ``nonce`` is the public :data:`.runner.MARKER`: the runner's supervisor, out of
    the learner's reach, swaps in the real nonce. ``seconds``: each function answer's time for all
    its inputs."""
    source = _source(_extract)
    ns = f"_bk_grader_{nonce[:12]}"
    wanted = [q.extraction() for q in questions]
    return (
        f"{ns} = {{'__name__': '_bk_grader'}}\n"
        f"exec(compile({source!r}, '<baccarat-kit grader>', 'exec'), {ns})\n"
        f"{ns}['emit'](globals(), {nonce!r}, {wanted!r}, {seconds!r})\n"
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


def _drive(proc: subprocess.Popen[bytes], cells: list[str], extractions: list[str], limits: Limits,
           writable: list[str], api: dict[str, Any] | None = None, nonce: str = "") -> dict[str, Any]:
    """Talk to :mod:`.runner` (see there) and keep its clocks: the status of the run.

    Everything is sent at once, before any learner code runs, and the pipe is closed: the
    runner's supervisor keeps the nonce, its learner process gets the rest. ``extractions``: the
    value answers' code, then one per function answer; the report's ``extractions`` holds what
    each printed, as far as they came (a function answer that hangs or dies ends the list there)."""
    lines = _Lines(proc.stdout)
    job = {"cells": cells, "memory_mb": limits.memory_mb, "cpu_seconds": int(limits.notebook_timeout) + 10
           + int(limits.cell_timeout + 1) * len(extractions),
           "processes": PROCESSES if limits.sandbox == "bwrap" else 0, "file_mb": FILE_MB,
           "open_files": OPEN_FILES, "writable": writable, "api": api or {}, "extractions": extractions,
           "nonce": nonce}
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
    report: dict[str, Any] = {"status": "ok", "cell": None, "errors": 0, "extractions": [], "failed": {}}
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
            rest = line[len(expected):]
            if not line.startswith(expected) or (expected.startswith("done") and rest != "ok" and not (
                    rest == "error" or rest.startswith("error "))):
                return {**report, "status": "kernel_broken", "cell": index}
            if expected.startswith("done") and rest != "ok":
                report["errors"] += 1  # a failing cell fails alone: the next one runs
                report.setdefault("failed", {})[index] = rest[len("error "):][:500] or "error"
    after = len(cells) + 1
    # The grader's own steps get a per-cell limit each, beyond the notebook limit.
    line = lines.next(time.monotonic() + limits.cell_timeout)
    if line is None:
        return {**report, "status": "no_answers", "cell": after}
    if line == "":
        return {**report, "status": "kernel_died", "cell": after}
    if line != "cells":
        return {**report, "status": "kernel_broken", "cell": after}
    texts: list[str] = []
    for n in range(len(extractions)):
        line = lines.next(time.monotonic() + limits.cell_timeout + 1)
        if line is None or line == "" or not line.startswith("answers "):
            if n == 0:  # not even the value answers
                status = "no_answers" if line is None else "kernel_died" if line == "" else "kernel_broken"
                return {**report, "status": status, "cell": after}
            report["stopped"] = "timeout" if line is None else "died"
            break
        try:
            text = json.loads(line[len("answers "):])
        except ValueError:
            return {**report, "status": "kernel_broken", "cell": after}
        texts.append(text if isinstance(text, str) else "")
    return {**report, "extractions": texts}


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



def read_submission(path: Path, functions: Sequence[str] = (),
                    values: Mapping[str, Any] | None = None) -> tuple[str, int, dict[str, Any]]:
    """sha256, size and the reader's answer (:mod:`.reader`) for ``path``: the size is checked
    before the file is read, the file is read once, and parsed once in a memory-limited process.
    (``functions`` and ``values`` are no longer used: nothing read there scores, issue 30.)"""
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
    header = json.dumps({"pasted": _source(_pasted), "size": len(data), "memory_mb": READER_MEMORY_MB})
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
                 api: dict[str, Any] | None = None, cgroup: bool = True) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Run ``cells`` in a fresh sandbox (:mod:`.runner`); extract ``questions`` (value, choice and
    function answers: each function is called there, on every input).

    ``api``: what the exercise API (the run's only ``baccarat_kit``, :mod:`.api_tree`) is told
    before any learner code runs: the exercise, the learner the file is keyed for, her hands,
    settlement data and option order (computed here, by the grader), the messages it shows.
    A function answer that does not finish (or dies) gets ``run-failed``; the answers already
    reported still count. ``cgroup=False``: no cgroup, no warning (``check()`` in a learner's kernel)."""
    nonce = secrets.token_hex(16)
    box = _box(limits) if cgroup else _bwrap.Sandbox("none")
    group = _group(limits) if cgroup else None
    values = [q for q in questions if q.kind != "function"]
    functions = [q for q in questions if q.kind == "function"]
    extractions = [extraction_code(values, _runner.MARKER)] + [
        extraction_code([q], _runner.MARKER, limits.cell_timeout) for q in functions]
    folder = _api_tree.INSIDE if box.isolated else _bwrap.api_folder()
    proc, workdir = _start(box, [sys.executable, "-I", "-c", _api_tree.BOOT, folder],
                           lambda home: _runner_env(home, "/tmp" if box.isolated else f"{home}/tmp"), group)
    try:
        writable = ["/tmp"] if box.isolated else []
        report = _drive(proc, cells, extractions, limits, writable, api, nonce)
        if group is not None and group.oom_kills():  # a process of the sandbox went over its total:
            # the memory limit ends the whole run, as it always has
            report = {**report, "status": "kernel_died", "cell": report.get("cell") or len(cells) + 1}
    finally:
        _finish(proc, box, workdir, group)
    if report.get("status") != "ok":
        return report, None
    texts = report.get("extractions", [])
    parsed = parse_extraction(str(texts[0]) if texts else "", nonce)
    if parsed is None:
        return report, None
    answers = dict(parsed["answers"])
    for q in values:  # what is not in the values' line is not an answer
        answers.setdefault(q.id, {"status": "missing"})
    for n, q in enumerate(functions, 1):
        got = parse_extraction(str(texts[n]), nonce) if n < len(texts) else None
        one = got["answers"].get(q.id) if got is not None else None
        if isinstance(one, dict):
            answers[q.id] = one
        else:
            why = report.get("stopped")
            reason = (both("grading.reason.function_timeout", seconds=limits.cell_timeout) if why == "timeout"
                      else both("grading.reason.function_failed",
                                detail=f"over the {limits.memory_mb} MB memory limit" if why == "memory"
                                else "the run ended"))
            answers[q.id] = {"status": "run-failed", "reason": reason}
    parsed["answers"] = answers
    return report, parsed
