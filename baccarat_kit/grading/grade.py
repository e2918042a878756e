"""Grade a batch of submissions: ``baccarat-kit grade FILES_OR_FOLDERS… --out DIR``.

For each submission the grader (this process):

1. reads the file once (it is never written to), hashes it, parses it as JSON and takes its
   code cells; a file that is not JSON or not a notebook scores 0 with the reason;
2. finds the exercise (``metadata.baccarat_kit.exercise`` or the file name) among the trusted
   sources (``exercises/source``), whose questions, public and hidden checks it uses;
   the submission's own metadata is never trusted for checks or points;
3. reads function answers' source itself (:mod:`.ownwork`);
4. runs the code in a fresh kernel through :mod:`.worker` (a subprocess), in a temporary
   copy, with per-cell, whole-notebook and memory limits; the kernel only prints the answers
   as plain JSON after a random nonce (:mod:`._extract`);
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
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..errors import BaccaratError
from ..i18n import both, message
from . import _extract
from . import reaper as _reaper
from . import sandbox as _sandbox
from .checks import Exercise, Question, QuestionResult, grade_question, question_texts
from .ownwork import ALLOWED_MODULES, function_code, own_work
from .release import is_learner_copy

DEFAULT_CELL_TIMEOUT = 10.0
DEFAULT_NOTEBOOK_TIMEOUT = 60.0
DEFAULT_MEMORY_MB = 1024
MAX_FILE_BYTES = 20 * 1024 * 1024
STARTUP_ALLOWANCE = 60.0
"""Seconds the grader allows a worker beyond the notebook limit (kernel start and shutdown)."""
WORKER_GRACE = 10.0
"""Seconds a worker told to stop (SIGTERM) has to clean up before it is killed."""


@functools.cache
def _source(module: Any) -> str:
    """A module's text, read once: what the grader sends never changes during a batch."""
    return Path(module.__file__).read_text(encoding="utf-8")


def sandbox_description() -> str:
    """What confines learner code on this machine (written to results.json)."""
    abi = _sandbox.abi_version()
    return f"landlock ABI {abi}" if abi else "none (Landlock not available)"


class GradeUsageError(BaccaratError):
    """A mistake of the grader's user: a path that does not exist, a file that is not a notebook."""


@dataclass(frozen=True)
class Limits:
    """Per-cell and whole-notebook time limits (seconds) and the kernel's memory limit (MB)."""

    cell_timeout: float = DEFAULT_CELL_TIMEOUT
    notebook_timeout: float = DEFAULT_NOTEBOOK_TIMEOUT
    memory_mb: int = DEFAULT_MEMORY_MB


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
            "owner": self.owner,
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
def _code_cells(nb: Any) -> list[str]:
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise ValueError("no list of cells")
    if nb.get("nbformat") != 4:
        raise ValueError(f"nbformat {nb.get('nbformat')!r}, not 4")
    cells = []
    for cell in nb["cells"]:
        if not isinstance(cell, dict) or "cell_type" not in cell:
            raise ValueError("a cell without a type")
        if cell["cell_type"] != "code":
            continue
        src = cell.get("source", "")
        if isinstance(src, list) and all(isinstance(s, str) for s in src):
            src = "".join(src)
        if not isinstance(src, str):
            raise ValueError("a code cell whose source is not text")
        cells.append(src)
    return cells


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


def _run_worker(job: dict[str, Any], limits: Limits) -> dict[str, Any]:
    nonce = secrets.token_hex(16)
    payload = json.dumps({**job, "result_nonce": nonce})
    proc = subprocess.Popen(
        [sys.executable, "-m", "baccarat_kit.grading.worker"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        start_new_session=True, text=True, encoding="utf-8",
    )
    try:
        out, _ = proc.communicate(payload, timeout=limits.notebook_timeout + STARTUP_ALLOWANCE)
    except subprocess.TimeoutExpired:
        _stop(proc)
        return {"status": "notebook_timeout", "cell": None}
    finally:
        if proc.poll() is None:
            _kill_group(proc)
    for line in out.splitlines():
        if line.startswith(nonce):
            try:
                report = json.loads(line[len(nonce):])
            except ValueError:
                break
            if isinstance(report, dict):
                return report
    return {"status": "worker_failed", "detail": f"exit {proc.returncode}"}


def _stop(proc: subprocess.Popen[str]) -> None:
    """SIGTERM (a worker or reaper then ends everything the learner's code left behind), then
    SIGKILL to the whole group after :data:`WORKER_GRACE` seconds."""
    proc.terminate()
    try:
        proc.wait(WORKER_GRACE)
    except subprocess.TimeoutExpired:
        pass
    _kill_group(proc)


def _kill_group(proc: subprocess.Popen[str]) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    proc.wait()


def grade_file(path: Path, exercises: dict[str, Exercise], limits: Limits = Limits(),
               display: str | None = None) -> Submission:
    """Grade one notebook file (see the module docstring). Never raises for a bad submission."""
    shown = display or str(path)
    data = path.read_bytes()
    digest = hashlib.sha256(data).hexdigest()

    def broken(status: str, exercise: Exercise | None = None, **params: Any) -> Submission:
        return Submission(shown, digest, exercise.id if exercise else None, "", status,
                          both(f"grading.reason.{status}", **params),
                          max_score=exercise.max_score if exercise else 0)

    if len(data) > MAX_FILE_BYTES:
        return broken("too_large", size=len(data), limit=MAX_FILE_BYTES)
    try:
        nb = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as err:
        return broken("not_json", detail=type(err).__name__)
    try:
        cells = _code_cells(nb)
    except ValueError as err:
        return broken("not_notebook", detail=str(err)[:100])
    exercise = _which_exercise(nb, path, exercises)
    if exercise is None:
        return broken("unknown_exercise", choices=", ".join(sorted(exercises)))
    warnings = exercise_warnings(nb, path, exercises)
    values = [q for q in exercise.questions if q.kind != "function"]
    functions = [q for q in exercise.questions if q.kind == "function"]
    static = {q.id: own_work(cells, q.answer) for q in functions}
    # Run 1: the whole notebook, then the value and choice answers.
    report, parsed = _session(path, data, cells, values, limits)
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
    answers.update(_function_answers(path, data, cells, functions, static, limits))
    results = [
        grade_question(q, answers.get(q.id, {"status": "missing"}), learner or None, hidden=True,
                       static_ownwork=static.get(q.id))
        for q in exercise.questions
    ]
    return Submission(shown, digest, exercise.id, learner, "ok", both("grading.reason.ok"), results,
                      exercise.max_score, warnings=warnings)


def _session(path: Path, data: bytes, cells: list[str], questions: Sequence[Question],
             limits: Limits) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """Run ``cells`` in a fresh kernel, in a temporary copy of the submission; extract ``questions``."""
    nonce = secrets.token_hex(16)
    workdir = Path(tempfile.mkdtemp(prefix="bk-grade-"))
    try:
        (workdir / path.name).write_bytes(data)
        report = _run_worker({
            "workdir": str(workdir), "cells": cells, "extraction": extraction_code(questions, nonce),
            "cell_timeout": limits.cell_timeout, "notebook_timeout": limits.notebook_timeout,
            "memory_mb": limits.memory_mb,
        }, limits)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    parsed = parse_extraction(str(report.get("extraction", "")), nonce) if report.get("status") == "ok" else None
    return report, parsed


FUNCTION_RUNNER = r"""
import builtins, importlib, json, os, resource, sys, types
job = json.loads(sys.stdin.read())
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
learner = {"__name__": "__main__", "__builtins__": safe}
try:
    exec(compile(job.pop("code"), "<answer>", "exec"), learner)
except Exception:
    pass
sys.stdout = real_stdout
emit(learner, job["nonce"], job["questions"])
"""
"""Runs a function answer's own code in a bare ``python -I -S`` (no site-packages, so the kit
cannot be imported), with memory, CPU and file limits, then prints the results. The allowed
standard modules are imported first; then, where Landlock exists, the process is confined so
that it can read no file at all (not the kit, not the sources, not ``/proc``). The learner's
code sees builtins without ``open``, ``exec``, ``eval``, ``compile``, ``getattr`` … and an
``__import__`` that gives only the allowed modules (a speed bump, not the barrier: see
docs/grading.md)."""

REMOVED_BUILTINS = ("open", "exec", "eval", "compile", "breakpoint", "input", "help", "getattr",
                    "setattr", "delattr", "globals", "locals", "vars", "exit", "quit", "copyright",
                    "credits", "license", "__loader__", "__spec__")


def _function_answers(path: Path, data: bytes, cells: list[str], functions: Sequence[Question],
                      static: dict[str, tuple[bool, str]], limits: Limits) -> dict[str, Any]:
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
            out[q.id] = _run_function(function_code(cells, q.answer) or "", q, limits)
    return out


def _run_function(code: str, question: Question, limits: Limits) -> dict[str, Any]:
    nonce = secrets.token_hex(16)
    job = {
        "code": code, "questions": [question.extraction()], "nonce": nonce,
        "extract": _source(_extract), "sandbox": _source(_sandbox),
        "allowed_modules": sorted(ALLOWED_MODULES), "removed_builtins": list(REMOVED_BUILTINS),
        "memory_mb": limits.memory_mb, "cpu_seconds": int(limits.cell_timeout) + 2,
    }
    workdir = tempfile.mkdtemp(prefix="bk-grade-fn-")
    proc = subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", _source(_reaper), sys.executable, "-I", "-S", "-c", FUNCTION_RUNNER],
        cwd=workdir, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"},
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
        text=True, encoding="utf-8", errors="replace",
    )
    try:
        stdout, _ = proc.communicate(json.dumps(job), timeout=limits.cell_timeout)
    except subprocess.TimeoutExpired:
        _stop(proc)
        return {"status": "run-failed",
                "reason": both("grading.reason.function_timeout", seconds=limits.cell_timeout)}
    finally:
        if proc.poll() is None:
            _kill_group(proc)
        shutil.rmtree(workdir, ignore_errors=True)
    parsed = parse_extraction(stdout[:MAX_FILE_BYTES], nonce)
    if parsed is None:
        return {"status": "run-failed",
                "reason": both("grading.reason.function_failed", detail=f"exit {proc.returncode}")}
    return parsed["answers"].get(question.id, {"status": "missing"})


# ---------------------------------------------------------------- a batch
REQUIRED_MODULES = ("jupyter_client", "ipykernel", "zmq", "nbformat", "tqdm")
"""What running a submission needs (the ``grade`` extra)."""
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
