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

import csv
import functools
import hashlib
import html
import io
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
from pathlib import Path
from typing import Any

from ..errors import BaccaratError
from ..i18n import both, message
from . import _extract
from . import reaper as _reaper
from . import sandbox as _sandbox
from .checks import Exercise, Question, QuestionResult, grade_question
from .ownwork import ALLOWED_MODULES, function_code, own_work

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

    @property
    def score(self) -> int:
        return sum(q.score for q in self.questions) if self.status == "ok" else 0

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file, "sha256": self.sha256, "exercise": self.exercise,
            "learner": self.learner, "score": self.score, "max_score": self.max_score,
            "status": self.status, "reason": self.reason, "feedback": f"feedback/{self.feedback_name}.html",
            "questions": {q.id: q.to_json() for q in self.questions},
            "warnings": self.warnings,
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
        meta = json.loads(path.read_text(encoding="utf-8")).get("metadata", {}).get("baccarat_kit")
        ex = Exercise.from_metadata(meta, str(path))
        out[ex.id] = ex
    if not out:
        raise GradeUsageError("grading.cli.no_sources", path=folder)
    return out


def collect_paths(paths: Iterable[str | Path]) -> list[Path]:
    """The notebooks named by files and folders (folders: every ``*.ipynb`` below, sorted)."""
    found: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if not p.exists():
            raise GradeUsageError("grading.cli.no_path", path=raw)
        if p.is_dir():
            inside = sorted(
                q for q in p.rglob("*.ipynb")
                if q.is_file() and not any(part.startswith(".") for part in q.relative_to(p).parts)
            )
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
def grade_paths(
    paths: Sequence[Path], exercises: dict[str, Exercise], limits: Limits = Limits(), jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[Submission]:
    """Grade every path (``jobs`` at a time); results in the order of ``paths``."""
    results: dict[int, Submission] = {}
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        futures = {pool.submit(grade_file, p, exercises, limits): i for i, p in enumerate(paths)}
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
    _name_feedback(ordered)
    _flag_duplicates(ordered)
    return ordered


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


def _name_feedback(subs: list[Submission]) -> None:
    used: set[str] = set()
    for s in subs:
        base = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in Path(s.file).stem) or "submission"
        name, n = base, 2
        while name in used:
            name, n = f"{base}-{n}", n + 1
        used.add(name)
        s.feedback_name = name


def question_columns(subs: Sequence[Submission], exercises: dict[str, Exercise]) -> list[tuple[str, str]]:
    """(exercise, question) of every question of every exercise in the batch."""
    seen = sorted({s.exercise for s in subs if s.exercise})
    return [(ex, q.id) for ex in seen for q in exercises[ex].questions]


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet will not run as a formula (a learner id such as ``=HYPERLINK(…)``).

    >>> spreadsheet_text("=1+1"), spreadsheet_text("s123")
    ("'=1+1", 's123')
    """
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def grades_csv(subs: Sequence[Submission], exercises: dict[str, Exercise]) -> str:
    cols = question_columns(subs, exercises)
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["file", "learner", "score", "max_score", *(f"{ex}:{q}" for ex, q in cols)])
    for s in subs:
        scores = {(s.exercise, q.id): q.score for q in s.questions} if s.status == "ok" else {}
        row = [spreadsheet_text(s.file), spreadsheet_text(s.learner), s.score, s.max_score]
        for ex, q in cols:
            row.append(scores.get((ex, q), 0 if s.exercise == ex else ""))
        writer.writerow(row)
    return buf.getvalue()


def feedback_html(sub: Submission, exercises: dict[str, Exercise], lang: str = "zh") -> str:
    """One submission's feedback page: per question, the score and the message."""
    e = html.escape
    title = message("grading.feedback.title", lang)
    ex = exercises.get(sub.exercise or "")
    ex_title = ex.title.get(lang, "") if ex else ""
    rows = []
    for q in sub.questions:
        mark = "✔" if q.passed else "✘"
        rows.append(f"<tr class=\"{'pass' if q.passed else 'fail'}\"><td>{e(q.id)}</td>"
                    f"<td>{q.score} / {q.points}</td><td>{mark} {e(q.message(lang))}</td></tr>")
    if not rows and ex:
        for q in ex.questions:
            rows.append(f"<tr class=\"fail\"><td>{e(q.id)}</td><td>0 / {q.points}</td>"
                        f"<td>✘ {e(sub.reason.get(lang, ''))}</td></tr>")
    return (
        "<!DOCTYPE html>\n<html lang=\"" + ("zh-Hant" if lang == "zh" else "en") + "\"><head><meta charset=\"utf-8\">"
        f"<title>{e(title)}: {e(sub.file)}</title>"
        "<style>body{font-family:sans-serif;margin:2em}td,th{border:1px solid #ccc;padding:4px 8px}"
        "table{border-collapse:collapse}.pass td{background:#eefbea}.fail td{background:#fdecea}</style>"
        "</head><body>\n"
        f"<h1>{e(title)}</h1>\n<p>{e(sub.file)} · {e(sub.exercise or '?')} {e(ex_title)} · "
        f"{e(sub.learner or '?')}</p>\n<p class=\"reason\">{e(sub.reason.get(lang, ''))}</p>\n"
        f"<p class=\"total\">{e(message('grading.feedback.total', lang))}: {sub.score} / {sub.max_score}</p>\n"
        f"<table><tr><th>{e(message('grading.feedback.question', lang))}</th>"
        f"<th>{e(message('grading.feedback.score', lang))}</th>"
        f"<th>{e(message('grading.feedback.result', lang))}</th></tr>\n" + "\n".join(rows) +
        "\n</table>\n</body></html>\n"
    )


def write_outputs(out: str | Path, subs: Sequence[Submission], exercises: dict[str, Exercise],
                  limits: Limits, lang: str = "zh") -> Path:
    """Write grades.csv, results.json and feedback/ into ``out``, all at once (temp folder + rename)."""
    target = Path(out)
    if target.exists() and not target.is_dir():
        raise GradeUsageError("grading.cli.out_is_input", path=out)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{target.name}.tmp-", dir=target.parent))
    try:
        (tmp / "grades.csv").write_text(grades_csv(subs, exercises), encoding="utf-8")
        doc = {
            "limits": {"cell_timeout": limits.cell_timeout, "notebook_timeout": limits.notebook_timeout,
                       "memory_mb": limits.memory_mb, "sandbox": sandbox_description()},
            "submissions": [s.to_json() for s in subs],
        }
        (tmp / "results.json").write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        (tmp / "feedback").mkdir()
        for s in subs:
            (tmp / "feedback" / f"{s.feedback_name}.html").write_text(feedback_html(s, exercises, lang),
                                                                      encoding="utf-8")
        if target.exists():
            old = target.parent / f".{target.name}.old-{secrets.token_hex(4)}"
            os.rename(target, old)
            os.rename(tmp, target)
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, target)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return target
