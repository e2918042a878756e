"""``check("q3")`` inside an exercise notebook: instant feedback.

The setup cell of every exercise makes a checker::

    check = bk.grading.Checker("03-banker-rule")

It reads the checks from the exercise notebook in the current folder, collects the answer from
the notebook's globals exactly as the grader does, and reports in Traditional Chinese
(``lang="en"`` for English). What it runs depends on the copy's ``metadata.baccarat_kit.edition``:

* ``"self-study"`` (the course a learner takes alone: ``make lab``, ``baccarat-kit lab``,
  JupyterLite): every check the grader runs, hidden checks included, scored and worded as the
  grader does (``✔ … correct`` or ``✘ <the grader's message> (score s/p)``); no ``LEARNER_ID``
  is needed (:data:`~baccarat_kit.grading.records.SELF_STUDY_ID`). Each result goes into the
  learner's progress record (:mod:`baccarat_kit.progress`).
* ``"class"`` (an instructor's release; also a copy without the mark): the public checks only.
  It tells three outcomes apart:

* ``✔ checked: correct`` — the public checks looked at the whole value and there is nothing
  hidden (the grader will agree);
* ``✔ public checks passed`` — part of the value was checked (some inputs, the first item);
  the rest is graded after hand-in;
* ``format fine, graded after you hand in`` (no ✔) — only the answer's form was checked
  (a choice, a hidden total): nothing is said about whether it is right.

``check()`` tells the truth (issue 30): it says "the grader's verdict" only when it is one. It runs
the cells run so far (IPython's ``In``) again in a fresh Python whose only ``baccarat_kit`` is the
exercise API, exactly as a grading run does (:func:`grader_verdict`), so an answer that asks the
kit (``case_a = bk.banker_draws(3, 8)``) fails here as it fails there. Where that cannot be done
(JupyterLite), it checks the current value and says that this is not the grader's verdict.

While a notebook is being graded, ``check`` does nothing. ``check.options("q1")`` shows a
choice question's options in this learner's order (drawn from ``LEARNER_ID``).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..i18n import message, normalize_language
from .judge.cells import every_wrong_cell
from .judge.checks import (
    VALUE_CHECKS,
    Exercise,
    Question,
    SpecError,
    _means,
    api_payload,
    grade_question,
    public_metadata,
)
from .records import SELF_STUDY_ID, WRITTEN, QuestionResult
from .sandbox import _extract

GRADING_ENV = "BACCARAT_KIT_GRADING"
SELF_STUDY = "self-study"


def _record(exercise_id: str, exercise: Exercise, result: QuestionResult) -> None:
    """Keep a self-study result in the learner's progress record (never fails the check)."""
    from .. import progress

    progress.kept(lambda: progress.record_check(exercise_id, result.id, result.score, result.points,
                                                exercise.max_score, [q.id for q in exercise.questions]))


@dataclass(frozen=True)
class CheckReport:
    """What ``check(qid)`` shows; ``passed`` is about the public checks only."""

    qid: str
    text: str
    passed: bool
    result: QuestionResult | None = None

    def __repr__(self) -> str:
        return self.text

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text)


def _caller_namespace() -> dict[str, Any]:
    """The globals of the notebook code that called the checker: the first frame out that is
    not the kit's (while a submission is graded, the kit's guard frames sit in between)."""
    frame = sys._getframe(2)
    while frame.f_back is not None and str(frame.f_globals.get("__name__", "")).startswith("baccarat_kit"):
        frame = frame.f_back
    return frame.f_globals


def _every_cell(text: str, result: QuestionResult, question: Question, lang: str, self_study: bool) -> str:
    """A self-study verdict lists every wrong cell of a function answer (the full verdict); a
    class copy's keeps to what its public checks said."""
    every = every_wrong_cell(result.wrong, question.answer, lang) if self_study else ""
    text = f"{text}\n{every}" if every else text
    if question.hint and not result.passed:  # the question's hint, while her answer is not right yet
        text += "\n" + message("grading.notebook.hint", lang, hint=question.hint[lang])
    return text


class Checker:
    """Instant feedback for one exercise; call it with a question id."""

    def __init__(self, exercise: str, lang: str | None = None, folder: str | Path | None = None) -> None:
        self.exercise_id = exercise
        self.lang = normalize_language(lang) if lang else None
        self.folder = Path(folder) if folder is not None else None
        self._exercise: Exercise | None = None
        self._shown_meta: dict[str, Any] | None = None
        self.edition = "class"
        """``"self-study"`` or ``"class"``: read from the exercise notebook's metadata."""

    def _load(self) -> Exercise | None:
        if self._exercise is not None:
            return self._exercise
        folder = self.folder or Path.cwd()
        candidates = [folder / f"{self.exercise_id}.ipynb", *sorted(folder.glob("*.ipynb"))]
        for path in candidates:
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]["baccarat_kit"]
            except (OSError, ValueError, KeyError, TypeError):
                continue
            if isinstance(meta, dict) and meta.get("exercise") == self.exercise_id:
                self.edition = SELF_STUDY if meta.get("edition") == SELF_STUDY else "class"
                self._shown_meta = meta
                # A self-study copy keeps its hidden checks: check() runs what the grader runs.
                self._exercise = Exercise.from_metadata(meta if self.edition == SELF_STUDY
                                                        else public_metadata(meta), str(path))
                return self._exercise
        return None

    def __call__(self, qid: str, lang: str | None = None, namespace: dict[str, Any] | None = None) -> CheckReport:
        lang = normalize_language(lang) if lang else (self.lang or normalize_language(None))
        if os.environ.get(GRADING_ENV):
            return CheckReport(qid, message("grading.notebook.grading_mode", lang), False)
        exercise = self._load()
        if exercise is None:
            return CheckReport(qid, message("grading.notebook.no_spec", lang, exercise=self.exercise_id,
                                            folder=self.folder or Path.cwd()), False)
        try:
            question = exercise.question(qid)
        except SpecError as err:
            return CheckReport(qid, err.message(lang), False)
        if question.kind == WRITTEN:  # free text, scored by hand: nothing to run
            from .judge.written import check_text

            return CheckReport(qid, check_text(question, self._saved_text(question.answer), lang,
                                               self.edition == SELF_STUDY), False)
        ns = namespace if namespace is not None else _caller_namespace()
        self_study = self.edition == SELF_STUDY
        learner = _extract.collect(ns, [])["learner_id"] or (SELF_STUDY_ID if self_study else None)
        verdict = grader_verdict(ns, question, self._shown_meta or {}, learner) if namespace is None else None
        if verdict is None:  # no history to run again (JupyterLite, a plain Python): not the grader's word
            collected = _extract.collect(ns, [question.extraction()])
            answer: Mapping[str, object] = collected["answers"][question.id]
        else:
            answer = verdict
        result = grade_question(question, answer, learner, hidden=self_study)
        if self_study:
            _record(self.exercise_id, exercise, result)
        if verdict is None or not verdict.get("$confined", True):
            # not the grader's word: no cells to run again, or no sandbox here to run them as grading does
            key = outcome_key(question, result) if not self_study or not result.passed else (
                "grading.notebook.checked_correct")
            text = message(key, lang, qid=qid, n=len(result.checks), message=result.message(lang))
            note = "grading.notebook.not_the_grader" if verdict is None else "grading.notebook.unconfined"
            return CheckReport(qid, _every_cell(text, result, question, lang, self_study) + "\n"
                               + message(note, lang), result.passed, result)
        if self_study:
            key = "grading.notebook.grader_correct" if result.passed else "grading.notebook.grader_failed"
        else:
            key = {"grading.notebook.checked_correct": "grading.notebook.grader_correct",
                   "grading.notebook.public_passed": "grading.notebook.grader_public_passed"}.get(
                outcome_key(question, result), outcome_key(question, result))
        text = message(key, lang, qid=qid, n=len(result.checks), message=result.message(lang),
                       score=result.score, points=result.points)
        failed = verdict.get("$failed")
        if failed:
            from .grade import failed_cells_warnings

            text += "\n" + "\n".join(w[lang] for w in failed_cells_warnings(failed, "grading.warning.cell_run"))
        text = _every_cell(text, result, question, lang, self_study)
        return CheckReport(qid, text, result.passed, result)

    def _saved_text(self, mark: str) -> str | None:
        """A written answer as last saved in the exercise notebook (None: not found)."""
        from .judge.written import answer_cells

        folder = self.folder or Path.cwd()
        for path in [folder / f"{self.exercise_id}.ipynb", *sorted(folder.glob("*.ipynb"))]:
            try:
                nb = json.loads(path.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                continue
            meta = nb.get("metadata", {}).get("baccarat_kit") if isinstance(nb, dict) else None
            if isinstance(meta, dict) and meta.get("exercise") == self.exercise_id:
                return answer_cells(nb).get(mark)
        return None

    def _question(self, qid: str, lang: str) -> Question | str:
        exercise = self._load()
        if exercise is None:
            return message("grading.notebook.no_spec", lang, exercise=self.exercise_id, folder=self.folder or Path.cwd())
        try:
            return exercise.question(qid)
        except SpecError as err:
            return err.message(lang)

    def options(self, qid: str, lang: str | None = None, namespace: dict[str, Any] | None = None) -> CheckReport:
        """A choice question's options, lettered in the order drawn for this ``LEARNER_ID``."""
        lang = normalize_language(lang) if lang else (self.lang or normalize_language(None))
        question = self._question(qid, lang)
        if isinstance(question, str):
            return CheckReport(qid, question, False)
        ns = namespace if namespace is not None else _caller_namespace()
        learner = _extract.collect(ns, [])["learner_id"]
        if learner is None and self.edition == SELF_STUDY:
            learner = SELF_STUDY_ID
        if learner is None:
            return CheckReport(qid, message("grading.learner_id", lang, value=repr(ns.get("LEARNER_ID"))), False)
        lines = [f'"{letter}": {question.options[key].get(lang, "")}'
                 for letter, key in question.shown_options(learner).items()]
        return CheckReport(qid, "\n".join(lines), True)

    def letter(self, qid: str, means: Any, namespace: dict[str, Any] | None = None) -> str:
        """The letter (in this learner's order) of the option that means ``means`` (a plain value:
        ``True``, ``"banker"``, ``"150"``; an object of another type is refused, so that no code of
        the notebook runs inside this call).

        Used wrongly it raises :class:`ChoiceError`, naming what is wrong and what would do, in
        both languages: a value that cannot be a meaning, no exercise notebook in the folder, a
        question id that is not one of the exercise's choice questions, a meaning no option has,
        no ``LEARNER_ID`` where the order depends on it."""
        qid_text = _short(qid)
        try:
            _extract.plain(means)
        except _extract._Refused:
            raise ChoiceError("grading.notebook.letter_value", qid=qid_text, type=type(means).__name__[:60]) from None
        exercise = self._load()
        if exercise is None:
            raise ChoiceError("grading.notebook.letter_no_notebook", qid=qid_text, exercise=self.exercise_id,
                              folder=self.folder or Path.cwd())
        choices = [q for q in exercise.questions if q.kind == "choice"]
        question = next((q for q in choices if q.id == qid), None)
        if question is None:
            raise ChoiceError("grading.notebook.letter_no_question" if choices else "grading.notebook.letter_no_choices",
                              qid=qid_text, exercise=exercise.id, choices=", ".join(q.id for q in choices))
        ns = namespace if namespace is not None else _caller_namespace()
        learner = _extract.collect(ns, [])["learner_id"] or (SELF_STUDY_ID if self.edition == SELF_STUDY else None)
        if learner is None and question.shuffle:  # her order depends on her id: never a letter of another order
            raise ChoiceError("grading.learner_id", value=_short(repr(ns.get("LEARNER_ID"))))
        for letter, key in question.shown_options(learner).items():
            if _means(question.options[key], means):
                return letter
        meanings = {lang: ", ".join(f'{question.options[key].get("means")!r} ({question.options[key].get(lang, "")})'
                                    for key in question.option_order(learner)) for lang in ("zh", "en")}
        raise ChoiceError("grading.notebook.letter_no_option", qid=qid_text, value=_short(repr(means)), choices=meanings)


class ChoiceError(SpecError):
    """``check.letter`` used wrongly. Its text names what is wrong and the valid choices, in
    Traditional Chinese, then in English (``message(lang)``: one of them); a parameter given as
    ``{"zh": …, "en": …}`` is taken in each language."""

    def message(self, lang: str | None = None) -> str:
        lang = normalize_language(lang)
        params = {k: (v.get(lang, "") if isinstance(v, dict) else v) for k, v in self.params.items()}
        return message(self.key, lang, **params)

    def __str__(self) -> str:
        return f"{self.message('zh')} / {self.message('en')}"


def _short(value: object, limit: int = 80) -> str:
    """A value of the learner's as an error shows it: text, at most ``limit`` characters."""
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


_LAST_VERDICT: list[Any] = []
"""The last verdict run: ``[key, (report, parsed)]`` (its cells, copy and learner as the key)."""


def grader_verdict(ns: dict[str, Any], question: Question, shown: dict[str, Any],
                   learner: str | None) -> dict[str, Any] | None:
    """This answer as the grader gets it: the cells run so far (IPython's ``In``, in the order run)
    run again in a fresh Python whose only ``baccarat_kit`` is the exercise API, configured as in
    grading (:mod:`.sandbox.api_tree`), then extracted as the grader extracts it. None when that
    cannot be done here (no history: JupyterLite, a plain Python; no subprocess; the copy's
    metadata unreadable): then ``check()`` does not say it is the grader's verdict.

    Where bubblewrap works it runs confined as grading confines it (the kit's copies masked,
    ``"$confined": true``); elsewhere unconfined, and ``check()`` then says that a notebook working
    around the exercise interface is not caught here (redteam 13:53: a wheel install of the kit
    was importable in the unconfined run).
    """
    history = ns.get("In")
    if not isinstance(history, list) or not shown:
        return None
    kind = "none"
    cells = [c for c in history if isinstance(c, str) and c.strip()]
    try:
        from .sandbox import bwrap, session

        exercise = Exercise.from_metadata(shown, "check")
        api = api_payload(exercise, shown, None if shown.get("term") else learner, learner)
        try:  # confined as grading confines it (the kit's copies masked), where bubblewrap works here
            bwrap.check()
            kind = "bwrap"
        except bwrap.SandboxMissing:
            kind = "none"
        key = (json.dumps(shown, sort_keys=True, default=str), tuple(cells), learner, kind)
        if _LAST_VERDICT and _LAST_VERDICT[0] == key:  # the same cells asked again (several checks in one cell)
            report, parsed = _LAST_VERDICT[1]
        else:  # every question at once: the next check of the same cells is free
            report, parsed = session.run_notebook(cells, [q.extraction() for q in exercise.questions],
                                                  session.Limits(sandbox=kind),
                                                  api, cgroup=False)
            _LAST_VERDICT[:] = [key, (report, parsed)]
    except Exception:
        return None
    if report.get("status") != "ok" or parsed is None:
        status = str(report.get("status"))
        return {"status": "run-failed", "$confined": kind == "bwrap",
                "reason": {lang: message(f"grading.reason.{status}", lang, cell=report.get("cell"),
                                         seconds=report.get("limit_s", "?"), cpu=report.get("cpu_s", "?"),
                                         memory="?", detail=str(report.get("detail", ""))[:100])
                           for lang in ("zh", "en")}}
    from .grade import cell_failed_answers

    answer = cell_failed_answers(cells, report.get("failed"), [question], parsed["answers"]).get(question.id)
    answer = dict(answer) if isinstance(answer, dict) else {"status": "missing"}  # (a failed cell: said so)
    answer.pop("cell", None)  # the number of a cell run again here is not one she can find in her notebook
    answer["$failed"] = {k: v for k, v in (report.get("failed") or {}).items()}  # cells that failed there
    answer["$confined"] = kind == "bwrap"
    return answer


def outcome_key(question: Question, result: QuestionResult) -> str:
    """Which of the three outcomes ``check()`` reports (see the module docstring)."""
    if not result.passed:
        return "grading.notebook.public_failed"
    looked = [c for c in result.checks if c.check in VALUE_CHECKS]
    whole = [c for c in looked if c.check in ("equals", "all-inputs")]
    if not question.hidden and whole:
        return "grading.notebook.checked_correct"
    if looked:
        return "grading.notebook.public_passed"
    if question.sealed:  # the copy has no key for it: say so, and who checks it
        return "grading.notebook.sealed"
    return "grading.notebook.format_only"
