"""Grade a batch of submissions: ``baccarat-kit grade FILES_OR_FOLDERS… --out DIR``.

For each submission the grader (this process):

1. checks the file's size, reads it once (it is never written to), hashes it, and has it parsed
   once in a memory-limited process (:mod:`.reader`): code cells, the exercise it claims, the
   own-work check of function answers (:mod:`.ownwork`); a file that is too large, not JSON or
   not a notebook scores 0 with the reason;
2. finds the exercise (``metadata.baccarat_kit.exercise`` or the file name) among the trusted
   sources (``exercises/source``), whose questions, public and hidden checks it uses;
   the submission's own metadata is never trusted for checks or points;
3. runs the code cells with IPython in a sandbox of their own (:mod:`.bwrap` namespaces,
   :mod:`.runner`), with per-cell, whole-notebook and memory limits; the runner only prints
   the answers as plain JSON after a random nonce (:mod:`._extract`);
4. runs each function answer's vetted code alone, in another sandbox;
5. parses that JSON strictly, validates every type, computes the expected answers with the
   engine (:mod:`.keys`) and compares (:mod:`.checks`).

Outputs (written to a temporary folder, then renamed into place): ``grades.csv``
(``file, learner, score, max_score``, one column per question ``exercise:question``),
``results.json`` and ``feedback/NAME.html``.
"""

from __future__ import annotations

import functools
import hashlib
import html
import json
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import BaccaratError
from ..i18n import both, message
from . import _extract, ownwork
from . import bwrap as _bwrap
from . import reader as _reader
from . import reaper as _reaper
from . import sandbox as _sandbox
from .checks import Exercise, Question, QuestionResult, grade_question, question_texts
from .ownwork import ALLOWED_MODULES
from .release import is_learner_copy

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
    abi = _sandbox.abi_version()
    return f"not started yet (landlock ABI {abi})" if abi else "not started yet (no Landlock)"


def _box(limits: Limits) -> _bwrap.Sandbox:
    """The sandbox learner code runs in: bubblewrap (checked once), or none with ``--no-sandbox``."""
    box = _bwrap.check() if limits.sandbox == "bwrap" else _bwrap.Sandbox("none")
    if not _used_sandbox or _used_sandbox[-1] != box:
        _used_sandbox.append(box)
    return box


class GradeUsageError(BaccaratError):
    """A mistake of the grader's user: a path that does not exist, a file that is not a notebook."""


@dataclass(frozen=True)
class Limits:
    """Per-cell and whole-notebook time limits (seconds), the memory limit (MB) of each process
    that runs learner code, and the sandbox: ``bwrap`` (namespaces) or ``none`` (``--no-sandbox``)."""

    cell_timeout: float = DEFAULT_CELL_TIMEOUT
    notebook_timeout: float = DEFAULT_NOTEBOOK_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB
    sandbox: str = "bwrap"


@dataclass
class Submission:
    """The graded result of one file."""

    file: str
    sha256: str
    exercise: str | None
    learner: str
    status: str
    reason: dict[str, str]
    questions: list[QuestionResult] = field(default_factory=list)
    max_score: int = 0
    feedback_name: str = ""
    warnings: list[dict[str, str]] = field(default_factory=list)
    graded_at: str = ""
    submitted_at: str | None = None
    late: bool | None = None
    owner: str | None = None
    """The learner folder the file was collected from (``collect``), if any."""
    sandbox: str = "bwrap"
    """What confined the learner's code: "bwrap", or "none" for a ``--no-sandbox`` run."""

    @property
    def score(self) -> int | float:
        if self.status != "ok":
            return 0
        total = sum(Fraction(q.score).limit_denominator(10_000) for q in self.questions)
        return int(total) if total.denominator == 1 else round(float(total), 4)

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file, "sha256": self.sha256, "exercise": self.exercise,
            "learner": self.learner, "score": self.score, "max_score": self.max_score,
            "status": self.status, "reason": self.reason, "feedback": f"feedback/{self.feedback_name}.html",
            "questions": {q.id: q.to_json() for q in self.questions},
            "warnings": self.warnings,
            "graded_at": self.graded_at, "submitted_at": self.submitted_at, "late": self.late,
            "owner": self.owner, "sandbox": self.sandbox,
        }


# ---------------------------------------------------------------- inputs
def default_source() -> Path:
    """``exercises/source`` of the checkout the kit runs from, else of the current folder."""
    here = Path(__file__).resolve().parents[2] / "exercises" / "source"
    return here if here.is_dir() else Path("exercises") / "source"


def load_exercises(source: str | Path) -> dict[str, Exercise]:
    """The trusted exercises (questions with public and hidden checks) from the sources."""
    folder = Path(source)
    if not folder.is_dir():
        raise GradeUsageError("grading.cli.no_sources", path=folder)
    out = {}
    for path in sorted(folder.glob("*.ipynb")):
        nb = json.loads(path.read_text(encoding="utf-8"))
        meta = nb.get("metadata", {}).get("baccarat_kit")
        if is_learner_copy(nb):
            raise GradeUsageError("grading.cli.released_source", path=path)
        ex = Exercise.from_metadata(meta, str(path)).with_texts(question_texts(nb))
        out[ex.id] = ex
    if not out:
        raise GradeUsageError("grading.cli.no_sources", path=folder)
    return out


def collect_paths(paths: Iterable[str | Path], skipped: list[dict[str, str]] | None = None) -> list[Path]:
    """The notebooks named by files and folders (folders: every ``*.ipynb`` below, sorted).

    Inside a folder, hidden files and folders (``.name``) are not graded; each is added to
    ``skipped`` (file and reason) so the command can say so.
    """
    found: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise GradeUsageError("grading.cli.no_path", path=raw)
        if p.is_dir():
            inside = []
            for q in sorted(p.rglob("*.ipynb")):
                if not q.is_file():
                    continue
                if any(part.startswith(".") for part in q.relative_to(p).parts):
                    if skipped is not None:
                        skipped.append({"file": str(q), **both("grading.skipped.hidden")})
                    continue
                inside.append(q)
            if not inside:
                raise GradeUsageError("grading.cli.empty", path=raw)
            found.extend(inside)
        elif p.suffix.lower() != ".ipynb":
            raise GradeUsageError("grading.cli.not_notebook", path=raw)
        else:
            found.append(p)
    unique: list[Path] = []
    for p in found:
        if p not in unique:
            unique.append(p)
    return unique


# ---------------------------------------------------------------- one submission
def _which_exercise(nb: dict[str, Any], path: Path, exercises: dict[str, Exercise]) -> Exercise | None:
    claimed = _claimed_exercise(nb, exercises)
    return claimed or _named_exercise(path, exercises)


def _claimed_exercise(nb: dict[str, Any], exercises: dict[str, Exercise]) -> Exercise | None:
    meta = nb.get("metadata", {})
    claimed = meta.get("baccarat_kit", {}).get("exercise") if isinstance(meta, dict) and isinstance(
        meta.get("baccarat_kit"), dict) else None
    return exercises[claimed] if isinstance(claimed, str) and claimed in exercises else None


def _named_exercise(path: Path, exercises: dict[str, Exercise]) -> Exercise | None:
    for ex_id in sorted(exercises):
        number = ex_id.split("-", 1)[0]
        if path.stem.startswith(ex_id) or (number.isdigit() and path.stem.startswith(number + "-")):
            return exercises[ex_id]
    return None


def exercise_warnings(nb: dict[str, Any], path: Path, exercises: dict[str, Exercise]) -> list[dict[str, str]]:
    """A warning when the notebook's metadata claims another exercise than its file name: the
    notebook is graded as what it claims, so a learner could hand in an easier exercise.

    >>> ex = load_exercises(default_source())
    >>> nb = {"metadata": {"baccarat_kit": {"exercise": "06-misconceptions"}}}
    >>> [w["en"][:40] for w in exercise_warnings(nb, Path("03-banker-rule-s123.ipynb"), ex)]
    ['The notebook says it is exercise 06-misc']
    >>> exercise_warnings(nb, Path("s123.ipynb"), ex)
    []
    """
    claimed, named = _claimed_exercise(nb, exercises), _named_exercise(path, exercises)
    if claimed is not None and named is not None and named is not claimed:
        return [both("grading.warning.other_exercise", claimed=claimed.id, named=named.id)]
    return []


def extraction_code(questions: Sequence[Question], nonce: str) -> str:
    """The code run in the learner's kernel after the learner's cells (no expected answers)."""
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


def _start(box: _bwrap.Sandbox, command: list[str], env_for: Callable[[str], dict[str, str]]
           ) -> tuple[subprocess.Popen[bytes], str | None]:
    """Start ``command`` in a fresh sandbox; without one, through the reaper in a temporary
    folder (returned, for the caller to remove)."""
    if box.isolated:
        return box.popen(command, env_for(_bwrap.INSIDE_HOME)), None
    workdir = tempfile.mkdtemp(prefix="bk-grade-")
    os.makedirs(os.path.join(workdir, ".home", "tmp"))
    env = env_for(os.path.join(workdir, ".home"))
    command = [sys.executable, "-I", "-S", "-c", _source(_reaper), *command]
    return box.popen(command, env, cwd=workdir), workdir


def _finish(proc: subprocess.Popen[bytes], box: _bwrap.Sandbox, workdir: str | None) -> None:
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
        if workdir:
            shutil.rmtree(workdir, ignore_errors=True)


def _drive(proc: subprocess.Popen[bytes], cells: list[str], extraction: str, limits: Limits,
           writable: list[str], public: dict[str, Any] | None = None) -> dict[str, Any]:
    """Talk to :mod:`.runner` (see there) and keep its clocks: the status of the run."""
    lines = _Lines(proc.stdout)
    job = {"cells": cells, "memory_mb": limits.memory_mb, "cpu_seconds": int(limits.notebook_timeout) + 10,
           "processes": PROCESSES if limits.sandbox == "bwrap" else 0, "file_mb": FILE_MB,
           "open_files": OPEN_FILES, "writable": writable, "notebook": public}
    if not _send(proc, json.dumps(job)):
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
    if line == "cells" and _send(proc, json.dumps(extraction)):
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


def _read_submission(path: Path, functions: Sequence[str]) -> tuple[str, int, dict[str, Any]]:
    """sha256, size and the reader's answer (:mod:`.reader`) for ``path``: the size is checked
    before the file is read, the file is read once, and parsed once in a memory-limited process."""
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


def grade_file(path: Path, exercises: dict[str, Exercise], limits: Limits = Limits(),
               display: str | None = None) -> Submission:
    """Grade one notebook file (see the module docstring). Never raises for a bad submission."""
    shown = display or str(path)
    names = [q.answer for ex in exercises.values() for q in ex.questions if q.kind == "function"]
    digest, size, read = _read_submission(path, names)

    def broken(status: str, exercise: Exercise | None = None, **params: Any) -> Submission:
        return Submission(shown, digest, exercise.id if exercise else None, "", status,
                          both(f"grading.reason.{status}", **params),
                          max_score=exercise.max_score if exercise else 0)

    if read["status"] == "too_large":
        return broken("too_large", size=size, limit=MAX_FILE_BYTES)
    if read["status"] == "too_complex":
        return broken("too_complex", memory=READER_MEMORY_MB, seconds=_reader.CPU_SECONDS)
    if read["status"] == "too_much_code":
        return broken("too_much_code", size=read.get("detail", "?"), limit=_reader.MAX_CODE_BYTES)
    if read["status"] == "not_json":
        return broken("not_json", detail=str(read.get("detail", ""))[:100])
    if read["status"] != "ok":
        return broken("not_notebook", detail=str(read.get("detail", ""))[:100])
    cells = [c for c in read.get("cells", []) if isinstance(c, str)]
    claimed = read.get("exercise")
    nb: dict[str, Any] = {"metadata": {"baccarat_kit": {"exercise": claimed}}} if isinstance(claimed, str) else {}
    exercise = _which_exercise(nb, path, exercises)
    if exercise is None:
        return broken("unknown_exercise", choices=", ".join(sorted(exercises)))
    warnings = exercise_warnings(nb, path, exercises)
    values = [q for q in exercise.questions if q.kind != "function"]
    functions = [q for q in exercise.questions if q.kind == "function"]
    analysed = read.get("functions", {})
    static: dict[str, tuple[bool, str]] = {}
    code: dict[str, str] = {}
    for q in functions:
        ok, detail, text = (analysed.get(q.answer) or [False, "", None])[:3]
        static[q.id] = (ok is True, str(detail))
        code[q.id] = text if isinstance(text, str) else ""
    # Run 1: the whole notebook, then the value and choice answers.
    report, parsed = _session(cells, values, limits, exercise)
    status = report.get("status")
    if status == "cell_timeout":
        return broken("cell_timeout", exercise, cell=report.get("cell"), seconds=limits.cell_timeout)
    if status == "notebook_timeout":
        return broken("notebook_timeout", exercise, seconds=limits.notebook_timeout)
    if status == "kernel_died":
        return broken("kernel_died", exercise, cell=report.get("cell"), memory=limits.memory_mb)
    if status == "kernel_start":
        return broken("kernel_start", exercise, detail=report.get("detail", "?"))
    if status == "kernel_broken":
        return broken("kernel_broken", exercise, cell=report.get("cell"))
    if status == "no_answers":
        return broken("no_answers", exercise)
    if status != "ok":
        return broken("worker_failed", exercise, detail=str(report.get("detail", status))[:100])
    if parsed is None:
        return broken("no_answers", exercise)
    learner = parsed.get("learner_id") or ""
    answers = dict(parsed["answers"])
    # Run 2: each function answer alone, from the code the grader itself read and vetted.
    answers.update(_function_answers(functions, static, code, limits))
    results = [
        grade_question(q, answers.get(q.id, {"status": "missing"}), learner or None, hidden=True,
                       static_ownwork=static.get(q.id))
        for q in exercise.questions
    ]
    return Submission(shown, digest, exercise.id, learner, "ok", both("grading.reason.ok"), results,
                      exercise.max_score, warnings=warnings)


def _session(cells: list[str], questions: Sequence[Question], limits: Limits, exercise: Exercise | None = None,
             ) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Run ``cells`` in a fresh sandbox (:mod:`.runner`); extract ``questions``.

    The sandbox's working folder gets ``EXERCISE.ipynb`` holding only the learner copy's public
    metadata (from the trusted sources), as beside a learner's notebook, so ``check.options`` and
    ``check.letter`` work there as in the learner's kernel."""
    nonce = secrets.token_hex(16)
    box = _box(limits)
    proc, workdir = _start(box, [sys.executable, "-I", "-m", "baccarat_kit.grading.runner"],
                           lambda home: _runner_env(home, "/tmp" if box.isolated else f"{home}/tmp"))
    try:
        writable = ["/tmp"] if box.isolated else []
        public = {"name": f"{exercise.id}.ipynb", "metadata": {"baccarat_kit": exercise.public}} if exercise else None
        report = _drive(proc, cells, extraction_code(questions, nonce), limits, writable, public)
    finally:
        _finish(proc, box, workdir)
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


def _function_answers(functions: Sequence[Question], static: dict[str, tuple[bool, str]],
                      code: dict[str, str], limits: Limits) -> dict[str, Any]:
    """Function answers computed from only the code the grader read and vetted itself.

    Each function's ``def`` and the notebook-level statements it uses (:func:`.function_code`)
    run in a fresh, isolated Python process; nothing else of the notebook (imports of the kit,
    patches, IPython hooks) is there.
    """
    empty = {"status": "ok", "results": [], "tripped": 0, "kit_function": False}
    out: dict[str, Any] = {}
    for q in functions:
        ok, detail = static[q.id]
        if not ok and detail == "":
            out[q.id] = {"status": "missing"}
        elif not ok:
            out[q.id] = dict(empty)
        else:
            out[q.id] = _run_function(code[q.id], q, limits)
    return out


def _run_function(code: str, question: Question, limits: Limits) -> dict[str, Any]:
    nonce = secrets.token_hex(16)
    job = {
        "code": code, "questions": [question.extraction()], "nonce": nonce,
        "extract": _source(_extract), "sandbox": _source(_sandbox),
        "allowed_modules": sorted(ALLOWED_MODULES), "removed_builtins": list(REMOVED_BUILTINS),
        "memory_mb": limits.memory_mb, "cpu_seconds": int(limits.cell_timeout) + 2,
        "processes": PROCESSES if limits.sandbox == "bwrap" else 0,
    }
    box = _box(limits)
    proc, workdir = _start(box, [sys.executable, "-I", "-S", "-c", FUNCTION_RUNNER],
                           lambda home: {"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
    found: str | None = None
    timed_out = False
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
    finally:
        _finish(proc, box, workdir)
    if timed_out:
        return {"status": "run-failed",
                "reason": both("grading.reason.function_timeout", seconds=limits.cell_timeout)}
    parsed = parse_extraction(found, nonce) if found else None
    if parsed is None:
        return {"status": "run-failed",
                "reason": both("grading.reason.function_failed", detail=f"exit {proc.returncode}")}
    answer = parsed["answers"].get(question.id, {"status": "missing"})
    return answer if isinstance(answer, dict) else {"status": "missing"}


# ---------------------------------------------------------------- a batch
REQUIRED_MODULES = ("IPython", "tqdm")
"""What grading imports (the ``grade`` extra): a submission runs in an IPython shell of its own
(:mod:`.runner`), not in a Jupyter kernel, so jupyter_client, ipykernel and zmq are not needed."""
NOT_THE_LEARNERS = frozenset({"kernel_start", "worker_failed"})
"""Statuses that are not the learner's doing when every submission of a batch shares them."""


def missing_extra() -> list[str]:
    """The modules of the ``grade`` extra that are not installed (empty when all are)."""
    import importlib.util

    return [m for m in REQUIRED_MODULES if importlib.util.find_spec(m) is None]


def _unreadable(path: Path) -> str | None:
    try:
        with path.open("rb") as fh:
            fh.read(1)
    except OSError as err:
        return type(err).__name__
    return None


def grade_paths(
    paths: Sequence[Path], exercises: dict[str, Exercise], limits: Limits = Limits(), jobs: int = 1,
    progress: Callable[[int], None] | None = None, deadline: str | None = None,
) -> list[Submission]:
    """Grade every path (``jobs`` at a time); results in the order of ``paths``.

    Each row gets its grading time, hand-in time and lateness (from ``collect``'s manifest, or
    the file's modification time when ``deadline`` is given) and its feedback page's name.
    """
    from .collect import is_late, iso, manifest_entry, utc_now

    results: dict[int, Submission] = {}
    todo = {}
    for i, p in enumerate(paths):
        problem = _unreadable(p)
        if problem is None:
            todo[i] = p
            continue
        results[i] = Submission(str(p), "", None, "", "unreadable", both("grading.reason.unreadable", detail=problem))
        if progress:
            progress(1)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(grade_file, p, exercises, limits): i for i, p in todo.items()}
        for fut in as_completed(futures):
            i = futures[fut]
            try:
                results[i] = fut.result()
            except Exception as err:
                digest = hashlib.sha256(paths[i].read_bytes()).hexdigest() if paths[i].is_file() else ""
                results[i] = Submission(str(paths[i]), digest, None, "", "worker_failed",
                                        both("grading.reason.worker_failed", detail=type(err).__name__))
            if progress:
                progress(1)
    ordered = [results[i] for i in range(len(paths))]
    for path, sub in zip(paths, ordered, strict=True):
        sub.graded_at = utc_now()
        sub.sandbox = limits.sandbox
        entry = manifest_entry(path)
        if entry is not None:
            sub.owner = str(entry.get("owner") or "") or None
            sub.submitted_at = entry.get("submitted_at")
            sub.late = is_late(sub.submitted_at, deadline or entry.get("deadline"))
        elif deadline is not None:
            try:
                from datetime import UTC, datetime

                sub.submitted_at = iso(datetime.fromtimestamp(path.stat().st_mtime, UTC))
            except OSError:
                sub.submitted_at = None
            sub.late = is_late(sub.submitted_at, deadline)
        if sub.status == "ok" and not sub.learner.strip():
            sub.warnings.append(both("grading.warning.no_learner_id", owner=sub.owner or "-"))
        elif sub.owner and sub.learner.strip() and sub.learner.strip() != sub.owner:
            sub.warnings.append(both("grading.warning.other_owner", learner=sub.learner, owner=sub.owner))
    _name_feedback(ordered)
    _flag_duplicates(ordered)
    return ordered


def batch_failure(subs: Sequence[Submission]) -> dict[str, str] | None:
    """The reason when every submission failed for one reason that is not the learners' own
    (the kernel cannot start, the grading process fails): the batch then exits non-zero."""
    if not subs or any(s.status not in NOT_THE_LEARNERS for s in subs):
        return None
    reasons = {s.reason.get("en") for s in subs}
    return subs[0].reason if len(reasons) == 1 else None


def _flag_duplicates(subs: list[Submission]) -> None:
    """Warn (for the instructor) when files share a learner id within an exercise, or are the
    same bytes: the learner id is the notebook's own claim, so one learner can claim another's."""
    groups: dict[tuple[str, ...], list[Submission]] = {}
    for s in subs:
        if s.status == "ok" and s.learner.strip():  # the seed strips the id too
            groups.setdefault(("learner", s.exercise or "", s.learner.strip().casefold()), []).append(s)
        if s.sha256:
            groups.setdefault(("file", s.sha256), []).append(s)
    for key, members in groups.items():
        if len(members) < 2:
            continue
        for s in members:
            others = ", ".join(o.file for o in members if o is not s)
            if key[0] == "learner":
                s.warnings.append(both("grading.warning.same_learner", learner=s.learner, others=others))
            else:
                s.warnings.append(both("grading.warning.same_file", others=others))


def feedback_base(sub: Submission) -> str:
    """A feedback page's name: learner (or learner folder, else the file's name) and exercise.

    >>> feedback_base(Submission("x/03-banker-rule.ipynb", "ab" * 32, "03-banker-rule", " =HYPERLINK(1)", "ok", {}))
    'HYPERLINK_1--03-banker-rule'
    """
    from .collect import safe_part

    who = sub.learner.strip() or sub.owner or Path(sub.file).stem
    return f"{safe_part(who, 'submission')}--{safe_part(sub.exercise or 'unknown', 'unknown')}"


def _name_feedback(subs: list[Submission], used: set[str] | None = None) -> None:
    """Stable names: the same learner and exercise give the same page; files that would share
    a name get a part of their sha256 (never a number that shifts when files are added)."""
    taken = set(used or ())
    bases: dict[str, int] = {}
    for s in subs:
        bases[feedback_base(s)] = bases.get(feedback_base(s), 0) + 1
    for s in subs:
        base = feedback_base(s)
        name = base if bases[base] == 1 else f"{base}-{(s.sha256 or hashlib.sha256(s.file.encode()).hexdigest())[:8]}"
        while name in taken:
            name = f"{name}-{hashlib.sha256(s.file.encode()).hexdigest()[:4]}"
        taken.add(name)
        s.feedback_name = name


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet will not run as a formula (see :func:`.export.spreadsheet_text`).

    >>> spreadsheet_text("=1+1"), spreadsheet_text("s123")
    ("'=1+1", 's123')
    """
    from .export import spreadsheet_text as safe

    return safe(text)


def _questions_of(exercises: dict[str, Exercise]) -> dict[str, list[str]]:
    return {ex_id: [q.id for q in ex.questions] for ex_id, ex in exercises.items()}


def grades_csv(subs: Sequence[Submission] | Sequence[dict[str, Any]], exercises: dict[str, Exercise]) -> str:
    """The wide gradebook of these rows (see :func:`.export.grades_csv`)."""
    from .export import grades_csv as wide

    return wide(_rows(subs), _questions_of(exercises))


def _rows(subs: Sequence[Submission] | Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s.to_json() if isinstance(s, Submission) else s for s in subs]


def feedback_html(sub: Submission | dict[str, Any], exercises: dict[str, Exercise], lang: str = "zh") -> str:
    """One submission's feedback page: per question its text, score, every failing public check
    and how many hidden checks failed (never their inputs). Only the file's name is shown."""
    from .collect import FEEDBACK_MARK

    row = sub.to_json() if isinstance(sub, Submission) else sub
    results = {q.id: q for q in sub.questions} if isinstance(sub, Submission) else {}
    e = html.escape
    title = message("grading.feedback.title", lang)
    ex = exercises.get(row.get("exercise") or "")
    ex_title = ex.title.get(lang, "") if ex else ""
    name = Path(str(row.get("file", ""))).name
    rows = []
    questions = ex.questions if ex else ()
    for q in questions:
        got = row.get("questions", {}).get(q.id) if row.get("status") == "ok" else None
        text = e(q.text.get(lang, "")) if q.text else ""
        if got is None:
            rows.append(f"<tr class=\"fail\"><td>{e(q.id)}</td><td class=\"text\">{text}</td><td>0 / {q.points}</td>"
                        f"<td>✘ {e(row.get('reason', {}).get(lang, ''))}</td></tr>")
            continue
        passed = got.get("passed")
        result = results.get(q.id)
        lines = []
        if result is not None:
            # Every failing public check; of the hidden ones only a named misconception (it shows
            # the learner's own answer and the correction, no input of the check) and a count.
            public = result.failed(hidden=False)
            named = [c for c in result.failed(hidden=True) if c.misconception]
            lines = [e(c.message(lang)) for c in [*public, *named]]
            hidden_failed = len(result.failed(hidden=True)) - len(named)
        else:
            lines = [e(got.get("message", {}).get(lang, ""))] if not passed else []
            hidden_failed = sum(1 for c in got.get("checks", []) if c.get("hidden") and not c.get("passed"))
        if hidden_failed:
            lines.append(e(message("grading.feedback.hidden_failed", lang, n=hidden_failed)))
        if passed:
            lines = [e(message("grading.result.passed", lang, n=len(got.get("checks", []))))]
        answer = got.get("answer")
        shown = f"<div class=\"answer\">{e(message('grading.feedback.answer', lang))}: <code>{e(answer)}</code></div>" \
            if answer else ""
        rows.append(f"<tr class=\"{'pass' if passed else 'fail'}\"><td>{e(q.id)}</td><td class=\"text\">{text}{shown}</td>"
                    f"<td>{got.get('score')} / {got.get('points', q.points)}</td>"
                    f"<td>{'✔' if passed else '✘'} " + "<br>".join(lines) + "</td></tr>")
    late = row.get("late")
    late_text = f" · {e(message('grading.feedback.late', lang))}" if late else ""
    return (
        FEEDBACK_MARK + "\n<!DOCTYPE html>\n<html lang=\"" + ("zh-Hant" if lang == "zh" else "en") +
        "\"><head><meta charset=\"utf-8\">"
        f"<title>{e(title)}: {e(str(row.get('learner') or name))} · {e(str(row.get('exercise') or '?'))}</title>"
        "<style>body{font-family:sans-serif;margin:2em}td,th{border:1px solid #ccc;padding:4px 8px;vertical-align:top}"
        "table{border-collapse:collapse}.pass td{background:#eefbea}.fail td{background:#fdecea}"
        ".text{max-width:40em}.answer{color:#555;margin-top:4px}</style>"
        "</head><body>\n"
        f"<h1>{e(title)}</h1>\n<p>{e(name)} · {e(str(row.get('exercise') or '?'))} {e(ex_title)} · "
        f"{e(str(row.get('learner') or '?'))}{late_text}</p>\n"
        f"<p class=\"reason\">{e(row.get('reason', {}).get(lang, ''))}</p>\n"
        f"<p class=\"total\">{e(message('grading.feedback.total', lang))}: {row.get('score')} / {row.get('max_score')}</p>\n"
        f"<table><tr><th>{e(message('grading.feedback.question', lang))}</th>"
        f"<th>{e(message('grading.feedback.text', lang))}</th>"
        f"<th>{e(message('grading.feedback.score', lang))}</th>"
        f"<th>{e(message('grading.feedback.result', lang))}</th></tr>\n" + "\n".join(rows) +
        f"\n</table>\n<p class=\"graded\">{e(message('grading.feedback.graded_at', lang, when=row.get('graded_at', '')))}</p>"
        "\n</body></html>\n"
    )


MARKER = ".baccarat-kit-grades"
"""The file that marks a folder as the grader's output; it lists the files the grader wrote."""
OUTPUT_FILES = ("grades.csv", "grades-long.csv", "canvas.csv", "moodle.csv", "results.json")


def _owned_files(target: Path) -> set[str] | None:
    """The files a previous run wrote into ``target`` (None: not the grader's folder)."""
    marker = target / MARKER
    if not marker.is_file():
        return None
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
        return {str(f) for f in data.get("files", [])}
    except (OSError, ValueError, AttributeError):
        return None


def check_out_folder(out: str | Path, update: bool = False) -> None:
    """Refuse an output folder the grader did not make (before any grading starts)."""
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise GradeUsageError("grading.cli.out_is_input", path=out)
    if target.is_dir() and _owned_files(target) is None and any(target.iterdir()):
        raise GradeUsageError("grading.cli.out_not_ours", path=out, marker=MARKER)
    if update and not (target / "results.json").is_file():
        raise GradeUsageError("grading.cli.nothing_to_update", path=out)


def _merge(old: list[dict[str, Any]], new: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Old rows, each replaced by a new row of the same file or the same learner and exercise."""
    def keys(row: dict[str, Any]) -> set[tuple[str, ...]]:
        out: set[tuple[str, ...]] = {("file", str(row.get("file")))}
        if row.get("learner") and row.get("exercise"):
            out.add(("learner", str(row["exercise"]), str(row["learner"]).strip().casefold()))
        return out

    replaced = set().union(*(keys(r) for r in new)) if new else set()
    kept = [r for r in old if not (keys(r) & replaced)]
    return kept + new


def write_outputs(out: str | Path, subs: Sequence[Submission], exercises: dict[str, Exercise],
                  limits: Limits, lang: str = "zh", *, update: bool = False,
                  skipped: Sequence[dict[str, str]] = ()) -> Path:
    """Write grades.csv, grades-long.csv, canvas.csv, moodle.csv, results.json and feedback/.

    Everything is first written to a temporary folder beside ``out``; then each file is moved
    into ``out``. ``out`` must be new, empty, or marked by an earlier run (:data:`MARKER`):
    only files listed in the marker are ever replaced or removed, so an instructor's own files
    in the folder survive. ``update``: the rows of ``subs`` replace the same files' (or the same
    learner's and exercise's) rows of the existing ``results.json``; every other row and its
    feedback page stay.
    """
    from . import export

    target = Path(out)
    check_out_folder(target, update)
    owned = _owned_files(target) if target.is_dir() else set()
    owned = owned or set()
    old_rows: list[dict[str, Any]] = []
    old_skipped: list[dict[str, str]] = []
    if update:
        old_doc = json.loads((target / "results.json").read_text(encoding="utf-8"))
        old_rows = list(old_doc.get("submissions", []))
        old_skipped = list(old_doc.get("skipped", []))
        kept = _merge(old_rows, [s.to_json() for s in subs])[:-len(subs) or None]
        _name_feedback(list(subs), used={Path(str(r.get("feedback", ""))).stem for r in kept})
    new_rows = [s.to_json() for s in subs]
    rows = _merge(old_rows, new_rows) if update else new_rows
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    try:
        questions = _questions_of(exercises)
        titles = {ex_id: ex.title.get(lang) or ex_id for ex_id, ex in exercises.items()}
        (tmp / "grades.csv").write_text(export.grades_csv(rows, questions), encoding="utf-8")
        (tmp / "grades-long.csv").write_text(export.long_csv(rows), encoding="utf-8")
        (tmp / "canvas.csv").write_text(export.canvas_csv(rows, titles), encoding="utf-8")
        (tmp / "moodle.csv").write_text(export.moodle_csv(rows, titles), encoding="utf-8")
        doc = {
            "schema_version": 2,
            "graded_at": max((str(r.get("graded_at") or "") for r in rows), default=""),
            "limits": {"cell_timeout": limits.cell_timeout, "notebook_timeout": limits.notebook_timeout,
                       "memory_mb": limits.memory_mb, "sandbox": sandbox_description()},
            "submissions": rows,
            "skipped": [*old_skipped, *skipped] if update else list(skipped),
        }
        (tmp / "results.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (tmp / "feedback").mkdir()
        written = [f for f in OUTPUT_FILES]
        for s in subs:
            name = f"feedback/{s.feedback_name}.html"
            (tmp / name).write_text(feedback_html(s, exercises, lang), encoding="utf-8")
            written.append(name)
        keep = {str(r.get("feedback")) for r in rows}
        files = sorted(set(written) | ({f for f in owned if f in keep} if update else set()))
        (tmp / MARKER).write_text(json.dumps({"files": files}, indent=1) + "\n", encoding="utf-8")
        _install(tmp, target, written, owned, files)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return target


def _install(tmp: Path, target: Path, written: list[str], owned: set[str], files: list[str]) -> None:
    """Move the new files into ``target``: feedback pages first, results.json and the marker
    last; then remove files an earlier run wrote that are no longer listed. A file the grader
    did not write is never touched."""
    if not target.exists():
        os.rename(tmp, target)
        tmp.mkdir()  # for the caller's clean-up
        return
    (target / "feedback").mkdir(exist_ok=True)
    ordered = sorted(written, key=lambda f: (f == "results.json", not f.startswith("feedback/"), f))
    for name in ordered:  # check all before moving any
        dest = target / name
        if (dest.exists() or dest.is_symlink()) and (name not in owned or dest.is_symlink() or not dest.is_file()):
            raise GradeUsageError("grading.cli.would_overwrite", path=dest)
    for name in ordered:
        os.replace(tmp / name, target / name)
    os.replace(tmp / MARKER, target / MARKER)
    for stale in owned - set(files):
        path = target / stale
        if path.is_file() and not path.is_symlink():
            path.unlink()
