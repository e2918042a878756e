"""The records every step of grading passes on: one graded submission, and the grader user's mistakes.

:class:`Submission` is what :mod:`.grade` makes of one file, what :mod:`.report.feedback` renders
and what :mod:`.term.gradebook` writes (``results.json`` rows are its :meth:`~Submission.to_json`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import BaccaratError
from .judge.checks import QuestionResult


class GradeUsageError(BaccaratError):
    """A mistake of the grader's user: a path that does not exist, a file that is not a notebook."""



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

