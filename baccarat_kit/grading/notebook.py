"""``check("q3")`` inside an exercise notebook: instant feedback from the public checks only.

The setup cell of every exercise makes a checker::

    check = bk.grading.Checker("03-banker-rule")

It reads the public checks from the exercise notebook in the current folder, collects the
answer from the notebook's globals exactly as the grader does, and reports in Traditional
Chinese (``lang="en"`` for English). It never says "all passed": hidden checks run only in
the grader. While a notebook is being graded, ``check`` does nothing.
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..i18n import message, normalize_language
from . import _extract
from .checks import Exercise, QuestionResult, SpecError, grade_question, public_metadata

GRADING_ENV = "BACCARAT_KIT_GRADING"


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


class Checker:
    """Instant feedback for one exercise; call it with a question id."""

    def __init__(self, exercise: str, lang: str | None = None, folder: str | Path | None = None) -> None:
        self.exercise_id = exercise
        self.lang = normalize_language(lang) if lang else None
        self.folder = Path(folder) if folder is not None else None
        self._exercise: Exercise | None = None

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
                self._exercise = Exercise.from_metadata(public_metadata(meta), str(path))
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
        ns = namespace if namespace is not None else sys._getframe(1).f_globals
        collected = _extract.collect(ns, [question.extraction()])
        result = grade_question(question, collected["answers"][question.id], collected["learner_id"],
                                hidden=False)
        if result.passed:
            text = message("grading.notebook.public_passed", lang, qid=qid, n=len(result.checks))
        else:
            text = message("grading.notebook.public_failed", lang, qid=qid, message=result.message(lang))
        return CheckReport(qid, text, result.passed, result)
