"""Grade a batch of submissions: ``baccarat-kit grade FILES_OR_FOLDERS… --out DIR``.

For each submission the grader (this process):

1. checks the file's size, reads it once (it is never written to), hashes it, and has it parsed
   once in a memory-limited process (:mod:`.sandbox.reader`): code cells, the exercise and the
   ``LEARNER_ID`` it claims, fingerprints of its functions (a pasted copy of the kit's code is
   flagged for the instructor, :mod:`.judge.pasted`); a file that is too large, not JSON or not a
   notebook scores 0 with the reason;
2. finds the exercise (``metadata.baccarat_kit.exercise`` or the file name) among the trusted
   sources (``exercises/source``), whose questions, public and hidden checks it uses;
   the submission's own metadata is never trusted for checks or points;
3. runs the code cells with IPython in a sandbox of their own (:mod:`.sandbox.bwrap` namespaces,
   :mod:`.sandbox.runner`), with per-cell, whole-notebook and memory limits, whose only
   ``baccarat_kit`` is the exercise API (:mod:`.sandbox.api_tree`): no rule code to call (issue
   30); a cell that fails fails alone; the runner prints the answers as plain JSON after a random
   nonce (:mod:`.sandbox._extract`), each function answer called there on every input;
4. parses that JSON strictly, validates every type, computes the expected answers with the
   engine (:mod:`.judge.keys`) and compares (:mod:`.judge.checks`); under a term secret
   (``--secret-file``) every key is computed from the owner's term token (:func:`file_keys`).

Outputs (written to a temporary folder, then renamed into place): ``grades.csv``
(``file, learner, score, max_score``, one column per question ``exercise:question``),
``results.json`` and ``feedback/NAME.html``.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..i18n import both, message
from .judge import ran as judge_ran
from .judge.checks import (
    ERROR_NAME,
    Exercise,
    Question,
    api_payload,
    grade_question,
)
from .judge.written import written_result
from .records import WRITTEN, CheckResult, GradeUsageError, QuestionResult, Submission, file_text
from .sandbox import reader as _reader
from .sandbox.session import (
    DEFAULT_CELL_TIMEOUT,
    DEFAULT_MEMORY_MB,
    DEFAULT_NOTEBOOK_TIMEOUT,
    MAX_FILE_BYTES,
    READER_MEMORY_MB,
    STARTUP_CPU,
    STARTUP_WALL,
    WALL_FACTOR,
    WALL_LIMIT_FACTOR,
    WALL_LIMITS,
    Limits,
    read_submission,
    run_notebook,
)
from .term.deadlines import LatePenalty
from .term.gradebook import name_feedback
from .term.journal import Journal
from .term.release import default_source, load_exercises, term_metadata
from .term.secret import TermKeys, TermSecret

__all__ = [
    "DEFAULT_CELL_TIMEOUT", "DEFAULT_MEMORY_MB", "DEFAULT_NOTEBOOK_TIMEOUT", "WALL_FACTOR", "WALL_LIMIT_FACTOR",
    "BatchBudget", "BatchStopped", "GradeUsageError", "Limits", "Submission", "batch_failure", "collect_paths", "default_source",
    "grade_file", "grade_paths", "load_exercises", "missing_extra",
]

DEFAULT_LIMITS = Limits()
"""The limits of a batch when none are given."""
Submit = Callable[[Path, "TermKeys | None"], "Future[Submission]"]
"""How a batch sends one file to be graded: locally a thread pool over :func:`grade_file`;
:class:`.cluster.DaskSubmit` sends it to Dask workers."""


# ---------------------------------------------------------------- inputs
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
                if q.is_dir() and not q.is_symlink():
                    continue  # (a link or a FIFO named like a notebook gets a row: refused, unread)
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



GIVEN_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_NOCTTY", 0)


class NotRead(Exception):
    """A file given to grade that is not read: ``status`` (``unreadable`` or ``too_large``) and
    the reason's key and values."""

    def __init__(self, status: str, key: str, **params: Any) -> None:
        super().__init__(key)
        self.status, self.key, self.params = status, key, params


def read_given(path: Path, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a file given to ``grade``, read as ``collect`` reads a learner's: from its own
    descriptor, never through a link (``O_NOFOLLOW``), never waiting on a FIFO (``O_NONBLOCK``; a
    special file is refused), at most ``limit`` + 1 bytes. Graded from a learner's own folder
    (without collect), a FIFO named like a notebook hung grade, a 10 GB sparse file took 48 s to
    be hashed, and a link to a file of the instructor's was read and graded (redteam)."""
    try:
        fd = os.open(path, GIVEN_FLAGS)
    except OSError as err:
        if err.errno == errno.ELOOP:
            raise NotRead("unreadable", "grading.reason.not_regular") from None
        raise NotRead("unreadable", "grading.reason.unreadable", detail=type(err).__name__) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotRead("unreadable", "grading.reason.not_regular")
        if st.st_size > limit:
            raise NotRead("too_large", "grading.reason.too_large", size=st.st_size, limit=limit)
        chunks, got = [], 0
        while True:
            try:
                chunk = os.read(fd, min(1 << 20, limit + 1 - got))
            except OSError as err:
                raise NotRead("unreadable", "grading.reason.unreadable", detail=type(err).__name__) from None
            if not chunk:
                break
            got += len(chunk)
            if got > limit:  # it grew, or says size 0 and holds more (/proc)
                raise NotRead("too_large", "grading.reason.too_large", size=f"> {limit}", limit=limit)
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _read(path: Path) -> tuple[str, int, dict[str, Any]]:
    """:func:`.sandbox.session.read_submission` of ``path``'s bytes as :func:`read_given` read them
    (a private copy is what the reader gets), or ``{"status": "not_read", "error": NotRead}``."""
    try:
        data = read_given(path)
    except NotRead as why:
        return "", 0, {"status": "not_read", "error": why}
    with tempfile.TemporaryDirectory(prefix="bk-read-") as private:
        copy = Path(private) / "submission.ipynb"
        copy.write_bytes(data)
        del data
        return read_submission(copy)


def grade_file(path: Path, exercises: dict[str, Exercise], limits: Limits = DEFAULT_LIMITS,
               display: str | None = None, term: TermKeys | None = None) -> Submission:
    """Grade one notebook file (see the module docstring). Never raises for a bad submission.

    ``term``: the file's keys under a term secret (:func:`file_keys`: the tokens of its owner).
    Then every key is computed from her token, never from the id the notebook claims; a term copy
    graded without ``term``, or released with another secret, is refused (``needs_secret``,
    ``other_secret``); a copy that has no term mark is keyed by the term all the same (removing
    the mark does not bring back the public keys). Without ``term`` a copy released before the
    term secret is keyed by its public ``LEARNER_ID`` as before (``keys: "public-id"``).
    """
    shown = file_text(display or str(path))  # (a name that is not UTF-8 must not stop the batch's files)
    digest, size, read = _read(path)
    if read["status"] == "not_read":
        why = read["error"]
        return Submission(shown, "", None, "", why.status, both(why.key, **why.params))

    language = copy_language(read)

    def broken(status: str, exercise: Exercise | None = None, **params: Any) -> Submission:
        return Submission(shown, digest, exercise.id if exercise else None, "", status,
                          both(f"grading.reason.{status}", **params),
                          max_score=exercise.max_score if exercise else 0, language=language)

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
    mark = read.get("term") if isinstance(read.get("term"), dict) else None
    if mark is not None and term is None:
        refused = broken("needs_secret", exercise, fingerprint=str(mark.get("fingerprint", "?"))[:20])
        refused.keys = "none"
        return refused
    if mark is not None and term is not None and mark.get("fingerprint") != term.fingerprint:
        refused = broken("other_secret", exercise, theirs=str(mark.get("fingerprint", "?"))[:20], ours=term.fingerprint)
        refused.keys = "none"
        return refused
    if term is not None and mark is None:
        warnings.append(both("grading.warning.not_term_copy", learner=term.learner or "-"))
    # The whole notebook, in a run whose only baccarat_kit is the exercise API (issue 30): its
    # data computed here for the learner the file is keyed for; every answer, functions included.
    shown_meta = exercise.public
    key_id = (term.token(exercise.id) if term is not None else None) or None
    claimed_id = read.get("learner_id") if isinstance(read.get("learner_id"), str) else None
    if term is not None and key_id is not None and term.learner:
        # beside the notebook, what her own term copy says (her option letters; no token in it)
        shown_meta = term_metadata(exercise.public, exercise, key_id, term.fingerprint, term.learner)
    api = api_payload(exercise, shown_meta, key_id if term is not None else (claimed_id or "").strip() or None,
                      term.learner if term is not None else claimed_id)
    auto = tuple(q for q in exercise.questions if q.kind != WRITTEN)  # written answers: text, scored by hand
    report, parsed = run_notebook(cells, [q.extraction() for q in auto], limits, api, kit=judge_ran.kit_hashes())
    warnings.extend(pasted_warnings(read.get("fingerprints")))
    found = judge_ran.read_run(report.get("ran"))
    warnings.extend(ran_warnings(found.to_json() if found else None, report.get("status") == "ok"))
    status = report.get("status")
    if status in ("cell_timeout", "notebook_timeout"):  # which clock ran out: CPU, or the wall backstop
        limit = limits.cell_timeout if status == "cell_timeout" else limits.notebook_timeout
        row = broken(status, exercise, cell=report.get("cell"), seconds=limit)
        if report.get("clock") == "wall":
            row.reason = both(f"grading.reason.{status}_wall", cell=report.get("cell"), wall=limit * WALL_FACTOR,
                              cpu=report.get("cpu_s", "?"))
        return row
    if status == "batch_limit" and limits.batch_share is not None:  # it had its share of the batch's budget
        row = broken("batch_share", exercise, cell=report.get("cell"), seconds=limits.batch_share,
                     budget=limits.batch_wall_limit, cpu=report.get("cpu_s", "?"))
        row.status = "batch_limit"  # (not graded: out of the LMS exports, for a later --update)
        row.warnings.append({**both("grading.warning.batch_share", seconds=limits.batch_share,
                                    cpu=report.get("cpu_s", "?")), "about": "batch_share"})  # (the instructor's)
        return row
    if status in WALL_LIMITS:  # waited (or was starved) past the submission's or the batch's wall-clock limit
        return broken(status, exercise, cell=report.get("cell"), seconds=report.get("limit_s"),
                      cpu=report.get("cpu_s", "?"))
    if status == "kernel_died":
        return broken("kernel_died", exercise, cell=report.get("cell"), memory=limits.memory_mb)
    if status == "kernel_start":
        row = broken("kernel_start", exercise, detail=report.get("detail", "?"))
        if report.get("clock") == "cpu":
            row.reason = both("grading.reason.kernel_start_cpu", seconds=STARTUP_CPU)
        elif report.get("clock") == "wall":
            row.reason = both("grading.reason.kernel_start_wall", seconds=STARTUP_WALL, cpu=report.get("cpu_s", "?"))
        return row
    if status == "kernel_broken":
        return broken("kernel_broken", exercise, cell=report.get("cell"))
    if status == "no_answers":
        return broken("no_answers", exercise)
    if status != "ok":
        return broken("worker_failed", exercise, detail=str(report.get("detail", status))[:100])
    if parsed is None:
        return broken("no_answers", exercise)
    learner = parsed.get("learner_id") or ""
    answers = cell_failed_answers(cells, report.get("failed"), auto, parsed["answers"])
    warnings.extend(failed_cells_warnings(report.get("failed")))
    if term is None:
        key_id = learner or None
    given = read.get("written")
    texts: dict[str, Any] = given if isinstance(given, dict) else {}
    results = [
        written_result(q, texts.get(q.answer)) if q.kind == WRITTEN
        else grade_question(q, answers.get(q.id, {"status": "missing"}), key_id, hidden=True)
        for q in exercise.questions
    ]
    if term is not None and mark is not None and term.learner and mark.get("learner") != term.learner:
        # her copy, handed in by someone else: its per-learner answers are hers, not the owner's
        results = [_not_this_learners(q, r, str(mark.get("learner")), term.learner) if per_learner(q) else r
                   for q, r in zip(exercise.questions, results, strict=True)]
    attempted = any(answered(q, answers.get(q.id), texts.get(q.answer)) for q in exercise.questions)
    # A copy with no answer is no one's work: its LEARNER_ID (another's, the self-study copies'
    # shared one) and its bytes (the same untouched copy in many homes) flag nothing
    # (_flag_duplicates, .term.handin.stamp).
    return Submission(shown, digest, exercise.id, learner, "ok" if attempted else NOT_ATTEMPTED,
                      both("grading.reason.ok" if attempted else "grading.reason.not_attempted"), results,
                      exercise.max_score, warnings=warnings, keys="term" if term is not None else "public-id",
                      keyed_for=term.learner if term is not None else None, language=language)


NOT_ATTEMPTED = "not_attempted"
"""A copy handed in with no question answered: every answer as the copy came (``...``, an empty
function, the written answer's placeholder). Not a wrong answer: no points and no flag (it claims
no learner id and is no one's copy); its LMS cell is blank, as for a copy not handed in
(:func:`.term.export.lms_score`)."""


def answered(q: Question, answer: Any, text: Any) -> bool:
    """Whether she gave question ``q`` any answer of her own (right or wrong).

    >>> q = Question.from_dict({"id": "q1", "kind": "value", "answer": "t", "type": "int",
    ...     "points": 1, "key": {"fn": "hand_total", "args": ["7 8"]}, "public": ["type", "equals"]})
    >>> answered(q, {"status": "bad-type", "type": "ellipsis"}, None), answered(q, {"status": "ok", "value": 3}, None)
    (False, True)
    """
    if q.kind == WRITTEN:
        return bool((written_result(q, text).written or {}).get("text"))
    status = answer.get("status") if isinstance(answer, dict) else "missing"
    if status == "missing" or (status == "bad-type" and answer.get("type") == "ellipsis"):
        return False
    return not (q.kind == "function" and status == "ok" and answer.get("empty") is True)


FEEDBACK_LANGUAGES = ("zh", "en")


def copy_language(read: Mapping[str, Any]) -> str | None:
    """The language of the edition the learner's copy was released in, as the reader found it in
    the copy's metadata (:func:`.sandbox.reader.copy_language`): ``"zh"``, ``"en"`` or None. The
    value comes from her file, so it is only ever used as a choice between the two languages.

    >>> copy_language({"status": "ok", "language": "en"}), copy_language({"status": "ok", "language": "<i>"})
    ('en', None)
    """
    value = read.get("language") if read.get("status") == "ok" else None
    return next((lang for lang in FEEDBACK_LANGUAGES if value == lang), None)


def per_learner(q: Question) -> bool:
    """Whether a question differs between learners: its key (hands, amounts) or its option order."""
    return q.needs_learner or (q.kind == "choice" and q.shuffle)


def _not_this_learners(q: Question, result: QuestionResult, released_for: str, owner: str) -> QuestionResult:
    from dataclasses import replace

    check = CheckResult("answer", False, "grading.check.other_learners_copy",
                        {"name": q.answer, "learner": released_for[:64], "owner": owner}, False)
    return replace(result, score=0, checks=(check,))



_PLAIN_EQUALS = re.compile(r"(?<![=!<>])=(?!=)")
"""The first ``=`` of a line that is an assignment's (not ``==``, ``!=``, ``<=``, ``>=``)."""


def sets_name(source: str, name: str) -> bool:
    r"""Whether a cell's code assigns ``name`` (``name = …``, ``a, name = …``, ``name: int = …``,
    ``name += …``, on any line) or defines it (``def name(``). Read line by line, never parsed:
    the code is the learner's, and this runs in the grader.

    >>> sets_name("x = 1\ncase_a = 1 / 0", "case_a"), sets_name("case_b, case_a = f()", "case_a")
    (True, True)
    >>> sets_name("print(case_a == 1)", "case_a"), sets_name("f(case_a=1)", "case_a"), sets_name("case_ab = 1", "case_a")
    (False, False, False)
    >>> sets_name("def banker_draws(total, third):\n    return 1 / 0", "banker_draws")
    True
    """
    define = re.compile(rf"(async\s+)?def\s+{re.escape(name)}\s*\(")
    for line in source.split("\n"):
        text = line.split("#", 1)[0].strip()
        if define.match(text):
            return True
        found = _PLAIN_EQUALS.search(text)
        if found is None:
            continue
        target = text[:found.start()].rstrip("+-*/%&|^@")
        if "(" in target and not target.startswith("("):  # a call's keyword argument, not an assignment
            continue
        if name in re.split(r"[\s,()\[\]*:]+", target):
            return True
    return False


def cell_failed_answers(cells: Sequence[str], failed: Any, questions: Sequence[Question],
                        answers: Mapping[str, Any]) -> dict[str, Any]:
    """``answers`` with each missing answer whose cell failed in the run said so: ``{"status":
    "cell-failed", "cell": N, "error": "ZeroDivisionError"}`` (the last failed code cell, 1-based,
    that sets it: :func:`sets_name`), so that her feedback names the failed cell and its exception
    instead of "no answer". ``failed`` is the run's report of failed cells (number → "Name: text")."""
    out = dict(answers)
    if not isinstance(failed, dict) or not failed:
        return out
    numbered = sorted((int(k), str(v)) for k, v in failed.items() if str(k).isdigit() and 0 < int(k) <= len(cells))
    for q in questions:
        got = out.get(q.id)
        if isinstance(got, dict) and got.get("status") not in ("missing", None):
            continue
        setting = [(n, why) for n, why in numbered if sets_name(cells[n - 1], q.answer)]
        if setting:
            n, why = setting[-1]
            error = why.split(":", 1)[0].strip()
            out[q.id] = {"status": "cell-failed", "cell": n, "error": error if ERROR_NAME.fullmatch(error) else "error"}
    return out


def failed_cells_warnings(failed: Any, label: str = "grading.warning.code_cell") -> list[dict[str, str]]:
    """(``"about": "notebook"``: a warning about the notebook itself, also on her feedback page.)
    One warning naming the cells that failed in the grading run (the first three, with why:
    ``code cell 4: AttributeError: bk.play: the kit's rule code is not in the grading run …``;
    a code cell counted from the top of her notebook; ``check()`` counts the cells she ran:
    ``label`` "grading.warning.cell_run")."""
    if not isinstance(failed, dict) or not failed:
        return []
    first = sorted(failed.items(), key=lambda kv: int(kv[0]) if str(kv[0]).isdigit() else 0)[:3]
    warning = {lang: message("grading.warning.cells_failed", lang, count=len(failed), cells="; ".join(
        f"{message(label, lang, n=k)}: {str(v)[:500]}" for k, v in first)) for lang in ("zh", "en")}
    return [{**warning, "about": "notebook"}]


def pasted_warnings(found: Any) -> list[dict[str, str]]:
    """A warning for the instructor when the notebook holds the kit's own code (:mod:`.judge.pasted`:
    normalized syntax trees, computed by the reader); never a score."""
    from .judge.pasted import pasted

    if not isinstance(found, list):
        return []
    pairs = pasted([tuple(f) for f in found if isinstance(f, list) and len(f) == 2
                    and all(isinstance(x, str) for x in f)])
    if not pairs:
        return []
    return [{**both("grading.warning.pasted_kit", names=", ".join(sorted({n for n, _ in pairs}))[:200],
                    kit=", ".join(sorted({k for _, k in pairs}))[:200]), "about": "instructor"}]



RAN_ORDER = ("bk.rules", "bk.coup", "bk.settlement", "bk.cards", "bk.shoe", "bk.ledger", "bk.misconceptions")
"""The kit's modules in the order a flag names them (the rule first)."""


def _public_first(name: str) -> tuple[bool, bool, bool, str]:
    """Public functions first, then classes and their methods, then private names and bodies."""
    return name.startswith(("_", "<")), "." in name, name[:1].isupper(), name.lower()


def ran_warnings(found: Any, finished: bool = True) -> list[dict[str, str]]:
    """Warnings for the instructor from what ran in the grading run (issue 35, :mod:`.judge.ran`):
    the kit's own code that ran without being typed in her cells (unpacked, decompressed,
    unmarshalled, renamed), where it came from; and "could not verify what ran" when the run did
    something that can defeat that check (traces: reading its own memory, a sub-interpreter, a
    program started) or, for a run that ``finished``, its report lost a line, a walk or a check.
    Never a score, and never on the learner's page (``"about": "instructor"``)."""
    if not isinstance(found, dict):
        return []
    out: list[dict[str, str]] = []
    matches = [m for m in found.get("matches") or [] if isinstance(m, dict)]
    if matches:
        by_module: dict[str, list[str]] = {}
        for m in matches:
            kit = str(m.get("kit", "?"))
            module, _, name = kit.partition(".<")[0].rpartition(".")
            if kit.endswith(".<module>"):
                module, name = kit[:-len(".<module>")], "<module>"
            elif "." in module and module.rsplit(".", 1)[1][:1].isupper():  # bk.coup.Coup.play: the module, the method
                module, _, cls = module.rpartition(".")
                name = f"{cls}.{name}"
            if name not in by_module.setdefault(module, []):
                by_module[module].append(name)
        order = sorted(by_module, key=lambda mod: (RAN_ORDER.index(mod) if mod in RAN_ORDER else len(RAN_ORDER), mod))
        kits = "; ".join(f"{mod}: {', '.join(sorted(by_module[mod], key=_public_first)[:6])}"
                         + (f" … ({len(by_module[mod])} in all)" if len(by_module[mod]) > 6 else "") for mod in order)
        places: list[str] = []
        for m in matches:
            place = f"{m.get('how', '?')}: {m.get('where', '?')}"
            if place not in places:
                places.append(place)
        named = sorted({f"{m.get('as', '?')} = {m.get('kit', '?')}" for m in matches
                        if str(m.get("as", "")).rpartition(".")[2] != str(m.get("kit", "")).rpartition(".")[2]})
        out.append({**both("grading.warning.ran_kit", kit=kits[:400], where="; ".join(places[:6])[:600],
                           names=", ".join(named[:6])[:300] or "-"), "about": "instructor"})
    traces = sorted({str(t.get("event", "?")) for t in found.get("traces") or [] if isinstance(t, dict)})
    problems = [str(p) for p in found.get("problems") or []] if finished and not found.get("complete") else []
    if traces or problems:
        why = "; ".join([*problems[:3], *(traces and [", ".join(traces)])])
        out.append({**both("grading.warning.ran_unverified", why=why[:300]), "about": "instructor"})
    return out


# ---------------------------------------------------------------- a batch
REQUIRED_MODULES = ("IPython", "tqdm", "jinja2")
"""What grading imports (the ``grade`` extra): a submission runs in an IPython shell of its own
(:mod:`.sandbox.runner`), not in a Jupyter kernel, so jupyter_client, ipykernel and zmq are not needed."""
NOT_THE_LEARNERS = frozenset({"kernel_start", "worker_failed", "needs_secret", "other_secret", "batch_limit"})
"""Statuses that are not the learner's doing when every submission of a batch shares them."""


def missing_extra() -> list[str]:
    """The modules of the ``grade`` extra that are not installed (empty when all are)."""
    import importlib.util

    return [m for m in REQUIRED_MODULES if importlib.util.find_spec(m) is None]


def _unreadable(path: Path) -> str | None:
    """Why ``path`` cannot be opened at all (never waiting on a FIFO: :func:`grade_file` refuses
    a link or a special file with its own reason)."""
    try:
        fd = os.open(path, GIVEN_FLAGS)
    except OSError as err:
        return None if err.errno == errno.ELOOP else type(err).__name__
    os.close(fd)
    return None


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(read_given(path)).hexdigest()
    except NotRead:
        return ""


class BatchStopped(Exception):
    """The batch was told to stop (SIGTERM; Ctrl-C is :class:`KeyboardInterrupt`): raised by the
    ``grade`` command's signal handler while :func:`grade_paths` waits."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def grade_paths(
    paths: Sequence[Path], exercises: dict[str, Exercise], limits: Limits = DEFAULT_LIMITS, jobs: int = 1,
    progress: Callable[[int], None] | None = None, deadline: str | None = None,
    deadlines: Mapping[str, str] | None = None, penalty: LatePenalty | None = None, known: Sequence[str] = (),
    submit: Submit | None = None, term: TermSecret | None = None, journal: Journal | None = None,
) -> list[Submission]:
    """Grade every path (``jobs`` at a time, or each through ``submit``); results in the order of ``paths``.

    Each row gets its grading time, its owner, hand-in time and lateness (:func:`.term.handin.stamp`:
    from ``collect``'s manifest, else the file's untrusted modification time) and its feedback
    page's name. With ``term`` (the term secret), each file is graded against its owner's keys
    (:func:`file_keys`); the secret itself stays in this process.

    ``journal`` (:mod:`.term.journal`): each row is appended to it as it finishes, and not kept
    here; a file whose row it already holds (the same bytes) is not graded again. When the batch
    is stopped (:class:`BatchStopped`, :class:`KeyboardInterrupt`), the running sandboxes are
    ended, nothing more is journaled, and the exception goes on: :func:`journal_rows` then gives
    what was kept.
    """
    from .sandbox.session import stop_runs
    from .term.collect import utc_now

    results: dict[int, Submission] = {}
    done = journal.done() if journal is not None else {}
    todo = {}
    for i, p in enumerate(paths):
        shown = file_text(str(p))
        if shown in done and done[shown] == _digest(p):  # graded before the batch stopped
            if progress:
                progress(1)
            continue
        problem = _unreadable(p)
        if problem is None:
            todo[i] = p
            continue
        results[i] = Submission(shown, "", None, "", "unreadable", both("grading.reason.unreadable", detail=problem))
        if progress:
            progress(1)

    def finished(i: int, sub: Submission) -> None:
        sub.graded_at = utc_now()
        sub.sandbox = limits.sandbox
        if journal is None:
            results[i] = sub
        else:
            journal.add(sub)  # (kept there, not here: a class of rows is not held in memory)

    for i in list(results):
        finished(i, results.pop(i))
    budget = BatchBudget(limits, len(todo), jobs)
    stop_runs(False)
    pool = ThreadPoolExecutor(max_workers=max(1, jobs))
    futures: dict[Future[Submission], int] = {}
    try:
        def local(p: Path, keys: TermKeys | None) -> Future[Submission]:
            return pool.submit(budget.grade, grade_file, p, exercises, keys)

        send = submit or local
        futures.update({send(p, file_keys(p, term, exercises) if term is not None else None): i for i, p in todo.items()})
        for fut in as_completed(futures):
            i = futures[fut]
            try:
                sub = fut.result()
            except Exception as err:
                digest = _digest(paths[i])
                sub = Submission(file_text(str(paths[i])), digest, None, "", "worker_failed",
                                 both("grading.reason.worker_failed", detail=type(err).__name__))
            finished(i, sub)
            if progress:
                progress(1)
    except BaseException:  # stopped: keep what finished, end what runs, start nothing more
        if journal is not None:
            journal.stop()
        for fut in futures:
            fut.cancel()
        stop_runs()
        pool.shutdown(wait=True, cancel_futures=True)
        raise
    pool.shutdown(wait=True)
    if journal is None:
        return finish_rows(paths, [results[i] for i in range(len(paths))], deadline, deadlines, penalty, known)
    return journal_rows(paths, journal, deadline, deadlines, penalty, known)


def journal_rows(paths: Sequence[Path], journal: Journal, deadline: str | None = None,
                 deadlines: Mapping[str, str] | None = None, penalty: LatePenalty | None = None,
                 known: Sequence[str] = ()) -> list[Submission]:
    """The rows ``journal`` holds of ``paths`` (in their order; a batch that stopped: only those
    that finished), owned, stamped and named as :func:`grade_paths` gives them."""
    rows = journal.rows([file_text(str(p)) for p in paths])
    kept = [(p, rows[file_text(str(p))]) for p in paths if file_text(str(p)) in rows]
    return finish_rows([p for p, _ in kept], [s for _, s in kept], deadline, deadlines, penalty, known)


def finish_rows(paths: Sequence[Path], ordered: list[Submission], deadline: str | None = None,
                deadlines: Mapping[str, str] | None = None, penalty: LatePenalty | None = None,
                known: Sequence[str] = ()) -> list[Submission]:
    """What a batch's rows get together: owner, hand-in time and lateness, feedback names, the flags
    of files that share an id or bytes."""
    from .term.handin import stamp

    stamp(paths, ordered, deadline, deadlines, penalty, known)  # owner, hand-in time, lateness
    name_feedback(ordered)
    _flag_duplicates(ordered)
    return ordered


class BatchBudget:
    """The batch's wall-clock budget (``--batch-wall-limit``, ``limits.batch_wall_limit``), counted
    from the batch's start: each submission is graded with what is left of it when it starts
    (``limits.batch_end``: its run ends by then, status ``batch_limit``), and one that would
    start after the budget is spent is not run (:meth:`not_run`: a row that says so, with no
    exercise, so it is in no LMS export; grade it again with ``--update``). Without a budget,
    every submission gets ``limits`` as they are. The Dask path asks it too (:mod:`.cluster`)."""

    def __init__(self, limits: Limits, count: int = 0, jobs: int = 1) -> None:
        import threading
        import time

        self.limits, self.clock = limits, time.time  # (the wall clock: a Dask worker reads it too)
        self.end = self.clock() + limits.batch_wall_limit if limits.batch_wall_limit is not None else None
        self.left, self.jobs, self.lock = count, max(1, jobs), threading.Lock()

    def now(self) -> Limits | None:
        """The limits of a submission starting now, or None when the budget is spent.

        With ``count`` (the submissions to grade) each gets a fair share of what is left when it
        starts: what is left × ``jobs`` / the submissions not started yet (itself included), so
        that one that only waits cannot spend the batch's budget on the others (issue 43: a
        sleeper first in name order put three honest rows into ``batch_limit``). A submission
        that ends early leaves its time to those after it.

        >>> budget = BatchBudget(Limits(batch_wall_limit=60), count=4)
        >>> budget.clock = lambda: budget.end - 60  # (the batch's start)
        >>> [budget.now().batch_share for _ in range(4)]
        [15.0, 20.0, 30.0, None]
        """
        if self.end is None:
            return self.limits
        start = self.clock()
        if self.end <= start:
            return None
        with self.lock:
            waiting, self.left = self.left, max(0, self.left - 1)
        share = (self.end - start) * self.jobs / waiting if waiting > self.jobs else None
        if share is None:
            return replace(self.limits, batch_end=self.end)
        return replace(self.limits, batch_end=start + share, batch_share=round(share, 1))

    def not_run(self, path: Path, display: str | None = None) -> Submission:
        return Submission(display or str(path), _digest(path), None, "", "batch_limit",
                          both("grading.reason.batch_limit_not_run", seconds=self.limits.batch_wall_limit))

    def grade(self, grade: Callable[..., Submission], path: Path, exercises: dict[str, Exercise],
              keys: TermKeys | None = None) -> Submission:
        """``grade(path, exercises, limits[, term=keys])`` with the limits of now, or :meth:`not_run`."""
        limits = self.now()
        if limits is None:
            return self.not_run(path)
        return grade(path, exercises, limits) if keys is None else grade(path, exercises, limits, term=keys)


def file_keys(path: Path, term: TermSecret, exercises: Mapping[str, Exercise]) -> TermKeys:
    """The keys of one file under a term: its owner's tokens (the learner folder or Hub user
    ``collect`` took it from, :func:`.term.collect.manifest_entry`), never the id it claims. A
    file graded without ``collect`` has no owner: then the learner its term copy was released
    for (its mark, read by the bounded reader), else none (its per-learner questions cannot be
    graded and say so)."""
    from .term.collect import manifest_entry

    entry = manifest_entry(path)
    owner = str(entry.get("owner") or "") if entry is not None else ""
    if not owner:
        _hash, _size, read = _read(path)
        mark = read.get("term") if read.get("status") == "ok" else None
        learner = mark.get("learner") if isinstance(mark, dict) else None
        owner = learner if isinstance(learner, str) and learner != "?" else ""
    return term.keys_for(owner or None, exercises)


def batch_failure(subs: Sequence[Submission]) -> dict[str, str] | None:
    """The reason when every submission failed for one reason that is not the learners' own
    (the kernel cannot start, the grading process fails): the batch then exits non-zero."""
    if not subs or any(s.status not in NOT_THE_LEARNERS for s in subs):
        return None
    reasons = {s.status if s.status == "batch_limit" else s.reason.get("en") for s in subs}  # (stopped, or not run)
    if len(reasons) != 1:
        return None  # the budget's own words, not a submission's that waited past its share:
    return next((s.reason for s in reversed(subs) if not waited(s)), subs[0].reason)


def waited(sub: Submission) -> bool:
    """Whether ``sub`` was stopped at its share of the batch's budget, having waited (:class:`BatchBudget`)."""
    return any(isinstance(w, dict) and w.get("about") == "batch_share" for w in sub.warnings)


def _flag_duplicates(subs: list[Submission]) -> None:
    """Warn (for the instructor) when files share a learner id within an exercise, or are the
    same bytes: the learner id is the notebook's own claim, so one learner can claim another's."""
    groups: dict[tuple[str, ...], list[Submission]] = {}
    for s in subs:
        if s.status == "ok" and s.learner.strip():  # the seed strips the id too
            groups.setdefault(("learner", s.exercise or "", s.learner.strip().casefold()), []).append(s)
        if s.sha256 and s.status != NOT_ATTEMPTED:  # the same bytes from one owner (collected twice) are one hand-in, not a copy
            groups.setdefault(("file", s.sha256), []).append(s)
    for key in list(groups):  # one owner's hand-ins (collected again: a late hand-in, an extension)
        if len({m.owner for m in groups[key]}) == 1 and groups[key][0].owner:
            del groups[key]  # are hers, not a claim: the exports take the latest, the report says ×2
    for key, members in groups.items():
        if len(members) < 2:
            continue
        for s in members:
            others = ", ".join(o.file for o in members if o is not s)
            if key[0] == "learner":
                s.warnings.append(both("grading.warning.same_learner", learner=s.learner, others=others))
            else:
                s.warnings.append(both("grading.warning.same_file", others=others))

