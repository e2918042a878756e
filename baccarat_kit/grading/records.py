"""The bottom of grading's pipeline: the records every step passes on, and the ids and kinds they
share. Imports nothing of grading (docs/architecture.md draws the pipeline).

* :class:`QuestionResult` (with its :class:`CheckResult` and a function answer's :class:`WrongCell`)
  is what :mod:`.judge` decides for one question;
* :class:`Submission` is what :mod:`.grade` makes of one file, what :mod:`.term.gradebook` writes
  (``results.json`` rows are its :meth:`~Submission.to_json`) and :mod:`.report.feedback` renders;
* :class:`GradeUsageError` is the grader user's mistake; :func:`visible` shows learner text anywhere.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..errors import BaccaratError
from ..i18n import message, normalize_language

SCHEMA_VERSION = 6
"""``results.json``'s schema: 3 names each row's learner by its owner, 4 says what each row's keys
were computed from (``keys``: "term" or "public-id"; see :mod:`.term.gradebook`), 5 gives each
question its ``misconceptions`` and a function answer's ``wrong`` cells (issue 31), 6 written
answers scored by hand (a row's ``pending_points``; a written question's ``pending``, ``written``,
``manual``: :mod:`.term.manual`)."""

SELF_STUDY_ID = "self-study"
"""The learner id of a self-study copy (``LEARNER_ID`` preset by ``release --self-study``)."""
WRITTEN = "written"
"""A written answer (free text in a marked Markdown cell), scored by hand against the question's
``rubric`` (:mod:`.judge.written`): ``grade`` leaves it pending."""


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



# ---------------------------------------------------------------- what the judge decides
@dataclass(frozen=True)
class WrongCell:
    """One input where her function's answer is not the engine's."""

    input: tuple[Any, ...]
    got: str
    """Her answer, as shown (at most 80 characters)."""
    want: str
    """The engine's answer, as shown."""
    rule: str | None = None
    """The rule id of the engine's step (``banker-3-vs-8``), for a decision."""
    misconception: str | None = None
    """The named misconception that explains this cell, if any."""

    def call(self, name: str) -> str:
        return f"{name}({', '.join(repr(a) for a in self.input)})"

    def line(self, name: str, lang: str | None = None) -> str:
        """``banker_draws(3, 8) returned True, expected False (banker-3-vs-8)``."""
        key = "grading.cells.cell" if self.rule else "grading.cells.cell_plain"
        return message(key, lang, call=self.call(name), got=self.got, want=self.want, rule=self.rule or "")

    def to_json(self) -> dict[str, Any]:
        return {"input": list(self.input), "got": self.got, "want": self.want, "rule": self.rule,
                "misconception": self.misconception}


@dataclass(frozen=True)
class CheckResult:
    """One check of one question: passed or not, and why (a message key and its values).

    ``share`` is the part of the check that passed (right inputs or items / all of them);
    ``misconception`` the id of the misconception the wrong value matches, if any.
    """

    check: str
    passed: bool
    key: str
    params: dict[str, Any]
    hidden: bool = False
    share: Fraction | None = None
    misconception: str | None = None
    wrong: tuple[WrongCell, ...] = ()
    """A function check's wrong cells, every one, in the domain's order (:mod:`.judge.cells`)."""
    misconceptions: tuple[str, ...] = ()
    """Every misconception a function check named (``misconception`` is the first)."""

    def message(self, lang: str | None = None) -> str:
        lang = normalize_language(lang)
        params = dict(self.params)
        for name in ("claim", "correction", "reason", "wanted", "detail"):
            if isinstance(params.get(name), dict):
                params[name] = params[name].get(lang, "")
        return message(self.key, lang, **params)


@dataclass(frozen=True)
class QuestionResult:
    """The result of one question: its score (a whole or partial share of the points), every
    check that ran, the question's text and a short display of the learner's answer."""

    id: str
    points: int
    score: int | float
    checks: tuple[CheckResult, ...]
    text: dict[str, str] = field(default_factory=dict)
    answer: str | None = None
    option: str | None = None
    """A choice question's chosen option as the source names it (``a``, ``b`` … of the source, not
    the learner's shuffled letter), ``""`` when she gave no valid option; None for other kinds.
    The class report's item analysis counts the options by it (:mod:`.report.items`)."""
    written: dict[str, Any] | None = None
    """A written answer (:mod:`.judge.written`): ``{"text": …, "sha256": …}``; its score is given by hand
    (``grade`` leaves it pending: :attr:`pending`)."""

    @property
    def pending(self) -> bool:
        """A written answer not scored by hand yet (its score counts 0 until it is)."""
        return self.written is not None

    @property
    def passed(self) -> bool:
        return self.score == self.points and not self.pending

    @property
    def misconception(self) -> str | None:
        """The misconception the wrong answer expresses (a function's: the widest check's first)."""
        found = self.misconceptions
        return found[0] if found else None

    def _widest_function_check(self) -> CheckResult | None:
        """The function check that looked at the most cells (all inputs, when it ran)."""
        looked = [c for c in self.checks if c.check in ("all-inputs", "inputs") and c.share is not None
                  and c.key != "grading.check.no_results"]  # no results: nothing was judged
        return max(looked, key=lambda c: c.check == "all-inputs", default=None)

    @property
    def wrong(self) -> tuple[WrongCell, ...] | None:
        """A function answer's wrong cells (of all inputs when they were checked, else of the
        public ones), in the domain's order; None for other questions or no checked answer."""
        widest = self._widest_function_check()
        return widest.wrong if widest is not None else None

    @property
    def misconceptions(self) -> tuple[str, ...]:
        """Every misconception the wrong answer expresses: a function's, as its widest check
        found them (all its inputs, when they were checked); else each failing check's."""
        widest = self._widest_function_check()
        if widest is not None:
            return widest.misconceptions
        out: list[str] = []
        for c in self.checks:
            if not c.passed and c.misconception and c.misconception not in out:
                out.append(c.misconception)
        return tuple(out)

    def failed(self, hidden: bool | None = None) -> list[CheckResult]:
        """The failed checks (``hidden``: only hidden ones, or only public ones)."""
        return [c for c in self.checks if not c.passed and (hidden is None or c.hidden == hidden)]

    def message(self, lang: str | None = None) -> str:
        # "Calls the kit's own rule" explains every other failure of a function: say it first.
        failed = sorted((c for c in self.checks if not c.passed), key=lambda c: c.check != "own-work")
        # a function's check of all inputs says everything its public inputs' check says
        everything = any(c.check == "all-inputs" for c in failed)
        failed.sort(key=lambda c: everything and c.check == "inputs")
        if not failed:
            return message("grading.result.passed", lang, n=len(self.checks))
        return failed[0].message(lang)

    def to_json(self) -> dict[str, Any]:
        return {
            "score": self.score, "points": self.points, "passed": self.passed,
            "message": {"zh": self.message("zh"), "en": self.message("en")},
            "checks": [{"check": c.check, "passed": c.passed, "hidden": c.hidden} for c in self.checks],
            "text": dict(self.text) or {"zh": "", "en": ""},
            "answer": self.answer,
            "misconception": self.misconception,
            "misconceptions": list(self.misconceptions),
            "wrong": [c.to_json() for c in self.wrong] if self.wrong is not None else None,
            **({"option": self.option or None} if self.option is not None else {}),
            **({"kind": WRITTEN, "pending": True, "written": self.written.get("text", ""),
                "answer_sha256": self.written.get("sha256", ""), "manual": None} if self.written is not None else {}),
        }



# ---------------------------------------------------------------- one graded file
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

