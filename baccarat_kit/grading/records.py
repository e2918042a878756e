"""The records every step of grading passes on: one graded submission, and the grader user's mistakes.

:class:`Submission` is what :mod:`.grade` makes of one file, what :mod:`.report.feedback` renders
and what :mod:`.term.gradebook` writes (``results.json`` rows are its :meth:`~Submission.to_json`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import BaccaratError
from .judge.checks import QuestionResult

SCHEMA_VERSION = 6
"""``results.json``'s schema: 3 names each row's learner by its owner, 4 says what each row's keys
were computed from (``keys``: "term" or "public-id"; see :mod:`.term.gradebook`), 5 gives each
question its ``misconceptions`` and a function answer's ``wrong`` cells (issue 31), 6 written
answers scored by hand (a row's ``pending_points``; a written question's ``pending``, ``written``,
``manual``: :mod:`.term.manual`)."""


class GradeUsageError(BaccaratError):
    """A mistake of the grader's user: a path that does not exist, a file that is not a notebook."""


def without_surrogates(value: Any) -> Any:
    """``value`` (plain JSON data) with every lone surrogate of its strings, keys included,
    replaced by U+FFFD. JSON lets a notebook hold one (``"\\ud800"``), Python a cell's string
    literal; no UTF-8 file can (redteam: one in a written answer or a LEARNER_ID stopped ``grade``
    with UnicodeEncodeError while it wrote grades-long.csv: no gradebook for the class).

    >>> without_surrogates({"a\\ud800": ["x\\udfffy", 3, "😀 中"]}) == {"a\\ufffd": ["x\\ufffdy", 3, "😀 中"]}
    True
    """
    if isinstance(value, str):
        return _SURROGATES.sub("\ufffd", value) if not value.isascii() else value
    if isinstance(value, list):
        return [without_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {without_surrogates(k): without_surrogates(v) for k, v in value.items()}
    return value


_SURROGATES = re.compile("[\ud800-\udfff]")


def file_text(name: str) -> str:
    """A file's name as text every gradebook file can hold: a byte that is not UTF-8 (Python's
    ``surrogateescape``: a name she chose, ``bad\\xff.ipynb``) written as ``\\xff``.

    >>> file_text("subs/bad\\udcff-03.ipynb"), file_text("中.ipynb")
    ('subs/bad\\\\xff-03.ipynb', '中.ipynb')
    """
    if name.isascii():
        return name
    try:
        return name.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:
        return str(without_surrogates(name))


def visible(text: str, limit: int = 120) -> str:
    """Learner text as it may be shown anywhere (a terminal, a page, a log): control, format and
    line-separating characters become escapes (no raw newline, no terminal escape, no direction
    change), cut to ``limit``.

    >>> visible("s1\\u202e2\\n"), visible("\\x1b]52;c;aGk=\\x07ann")
    ('s1\\\\u202e2\\\\u000a', '\\\\u001b]52;c;aGk=\\\\u0007ann')
    """
    if text.isprintable():
        return text if len(text) <= limit else text[: limit - 1] + "…"
    out = "".join(f"\\u{ord(ch):04x}" if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") else ch for ch in text)
    return out if len(out) <= limit else out[: limit - 1] + "…"



@dataclass
class Submission:
    """The graded result of one file."""

    file: str
    sha256: str
    exercise: str | None
    learner: str
    """Who the row is: the owner when the file was collected, else the notebook's ``LEARNER_ID``."""
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
    claimed_id: str = ""
    """The notebook's own ``LEARNER_ID`` (a claim, shown to the instructor, never the row's learner
    when there is an owner)."""
    identity_mismatch: bool = False
    """The claim names another learner of the class (or two owners claim one id)."""
    file_mtime: str | None = None
    """The file's modification time (set by the learner: information only)."""
    time_source: str | None = None
    """Where ``submitted_at`` comes from: "collect" (its own time) or "mtime" (untrusted)."""
    deadline: str | None = None
    penalty: float = 1.0
    """What the score is multiplied by under the late policy (1: none)."""
    late_policy: str | None = None
    keys: str = "public-id"
    """What the answer keys were computed from: "term" (the term secret and ``keyed_for``),
    "public-id" (a copy released without a term secret: the public learner id) or "none" (refused
    before grading: a term copy without, or with another, secret)."""
    keyed_for: str | None = None
    """Whose keys a term row was graded against: the owner (else the copy's own term mark)."""
    language: str | None = None
    """The language of the edition her copy was released in ("zh" or "en", from its metadata:
    only ever one of the two), which her feedback page is written in; None: the copy does not say
    (released before it was recorded, or not a copy), and the page is in ``grade --lang``."""

    @property
    def raw_score(self) -> int | float:
        if self.status != "ok":
            return 0
        total = sum(Fraction(q.score).limit_denominator(10_000) for q in self.questions)
        return int(total) if total.denominator == 1 else round(float(total), 4)

    @property
    def score(self) -> int | float:
        raw = self.raw_score
        if self.penalty >= 1:
            return raw
        total = Fraction(raw).limit_denominator(10_000) * Fraction(self.penalty).limit_denominator(10_000)
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
            "claimed_id": self.claimed_id, "identity_mismatch": self.identity_mismatch,
            "file_mtime": self.file_mtime, "time_source": self.time_source, "deadline": self.deadline,
            "raw_score": self.raw_score, "late_policy": self.late_policy,
            "keys": self.keys, "keyed_for": self.keyed_for, "language": self.language,
            "pending_points": self.pending_points,
        }

    @property
    def pending_points(self) -> int:
        """The points of written answers not scored by hand yet (the score is "n of m points
        graded", n = ``max_score`` − these)."""
        return sum(q.points for q in self.questions if q.pending) if self.status == "ok" else 0

