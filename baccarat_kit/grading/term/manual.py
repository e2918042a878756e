"""Written answers scored by hand: the instructor's scores, merged into the gradebook.

``grade`` leaves a written question pending (:mod:`..judge.written`). The instructor scores each
answer against the rubric, with a comment, on the page of :mod:`..grade_manual.page` or through a CSV
(:func:`export_csv`, :func:`import_csv`). Her scores live in ``GRADED/manual.json``, a file of the
instructor's that ``grade`` never writes (it is not in the gradebook's marker): written through a
temporary file in the same folder and ``os.replace`` (never half a file), read back by every
``grade --update``, so a regrade keeps every score and comment. A score is keyed by the learner
(the row's owner, else its claimed id: :func:`.export.identity`), the exercise and the question;
it remembers the SHA-256 of the answer it was given for, and when a regrade brings another text
the score stays and the question says ``answer_changed``.

:func:`apply` merges the scores into ``results.json``'s rows (the written questions' ``score``,
``pending`` and ``manual``; each row's ``pending_points``, ``raw_score`` and ``score`` after its
late penalty); :func:`..grade_manual.publish.publish` rewrites the gradebook's files from them (results.json and its
index, the CSVs and LMS exports, the feedback pages of the rows that have written answers).

>>> row = {"learner": "ann", "owner": "ann", "exercise": "03", "status": "ok", "score": 5, "raw_score": 5,
...        "max_score": 8, "late": False, "questions": {"q1": {"score": 5, "points": 5, "passed": True},
...        "q9": {"kind": "written", "score": 0, "points": 3, "pending": True, "written": "Because …",
...               "answer_sha256": "ab", "manual": None}}}
>>> marks = {mark_key("ann", "03", "q9"): Mark("ann", "03", "q9", 2, "(a) and (b)", "ab", "2026-12-04T00:00:00Z")}
>>> done = apply([row], marks)[0]
>>> done["score"], done["pending_points"], done["questions"]["q9"]["manual"]["answer_changed"]
(7, 0, False)
>>> apply([row], {})[0]["pending_points"]
3
"""

from __future__ import annotations

import csv
import io
import json
import os
import re
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any

from ...errors import BaccaratError
from ...i18n import both, message
from ..records import WRITTEN
from . import export

MANUAL_NAME = "manual.json"
"""The instructor's scores of written answers, in the gradebook folder (never written by ``grade``)."""
MANUAL_VERSION = 1
MAX_COMMENT = 4000
MAX_CSV_BYTES = 20 * 1024 * 1024
CSV_COLUMNS = ("learner", "exercise", "question", "points", "score", "comment", "answer_changed",
               "answer_sha256", "answer")
"""The columns :func:`export_csv` writes; :func:`import_csv` reads ``learner``, ``exercise``,
``question``, ``score`` (empty: not scored), ``comment`` and ``answer_sha256`` (the others are for reading)."""
SCORE_STEP = Fraction(1, 100)
_SCORE = re.compile(r"^\s*\d{1,6}(\.\d{1,2})?\s*$")


class ManualError(BaccaratError):
    """A score the instructor gave that cannot be taken (the message names the row and column)."""

    def message(self, lang: str | None = None) -> str:
        from ...i18n import normalize_language

        chosen = normalize_language(lang)
        params = {k: (v.get(chosen, "") if isinstance(v, dict) else v) for k, v in self.params.items()}
        return message(self.key, chosen, **params)

    def __str__(self) -> str:
        return f"{self.message('zh')} / {self.message('en')}"


@dataclass(frozen=True)
class Mark:
    """One written answer's score by hand."""

    learner: str
    exercise: str
    question: str
    score: int | float
    comment: str
    answer_sha256: str
    """The answer's SHA-256 when it was scored (a regrade with another text: ``answer_changed``)."""
    graded_at: str

    def to_json(self) -> dict[str, Any]:
        return {"learner": self.learner, "exercise": self.exercise, "question": self.question,
                "score": self.score, "comment": self.comment, "answer_sha256": self.answer_sha256,
                "graded_at": self.graded_at}


def mark_key(learner: str, exercise: str, question: str) -> str:
    """A mark's key: the learner exactly as the gradebook keeps her (:func:`.export.per_learner`:
    "ANN" and "ann" are two learners there, so two here; redteam: an id claimed in another case
    was given the score of the classmate it imitates), the exercise and the question."""
    return json.dumps([learner.strip(), exercise, question])


def now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else round(float(value), 4)


def parse_score(text: Any, points: int, where: str, lang_free: bool = True) -> int | float:
    """A score typed by the instructor: a number from 0 to ``points`` in hundredths (``2``,
    ``1.5``); else :class:`ManualError` naming ``where`` and the valid range.

    >>> parse_score("1.5", 3, "x"), parse_score(2, 3, "x")
    (1.5, 2)
    >>> parse_score("4", 3, "row 2, column score")
    Traceback (most recent call last):
    ...
    baccarat_kit.grading.term.manual.ManualError: row 2, column score：4 分超過此題的 3 分（可填 0 到 3，最多兩位小數）。 / row 2, column score: 4 is more than this question's 3 points (give 0 to 3, at most two decimals).
    """
    shown = _shown(str(text).strip(), 40)
    if isinstance(text, bool) or not isinstance(text, int | float | str):
        raise ManualError("manual.error.score", where=where, value=shown, points=points)
    if isinstance(text, float) and text != text:  # NaN
        raise ManualError("manual.error.score", where=where, value=shown, points=points)
    if isinstance(text, str) and not _SCORE.match(text):
        raise ManualError("manual.error.score", where=where, value=shown, points=points)
    try:
        value = Fraction(str(text).strip())
    except (ValueError, ZeroDivisionError):
        raise ManualError("manual.error.score", where=where, value=shown, points=points) from None
    if value < 0 or (value / SCORE_STEP).denominator != 1:
        raise ManualError("manual.error.score", where=where, value=shown, points=points)
    if value > points:
        raise ManualError("manual.error.too_many", where=where, value=shown, points=points)
    return number(value)


def _shown(text: str, limit: int = 80) -> str:
    """A value from a score, a CSV or the page as an error may show it on a terminal (no escape,
    no control character: :func:`..records.visible`)."""
    from ..records import visible

    return visible(text, limit)


def clean_comment(text: Any, where: str) -> str:
    if text is None:
        return ""
    if not isinstance(text, str):
        raise ManualError("manual.error.comment", where=where, limit=MAX_COMMENT)
    clean: str = text.replace("\r\n", "\n").strip()
    if len(clean) > MAX_COMMENT:
        raise ManualError("manual.error.comment", where=where, limit=MAX_COMMENT)
    return clean


# ---------------------------------------------------------------- manual.json
def load(folder: str | Path) -> dict[str, Mark]:
    """The scores kept in ``folder/manual.json`` ({} when there is none); a file that is not one
    of ours is refused, naming it (it is the instructor's: never overwritten by a guess)."""
    path = Path(folder) / MANUAL_NAME
    if not path.exists():
        return {}
    if path.is_symlink() or not path.is_file():
        raise ManualError("manual.error.store", path=path, detail="not a regular file")
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as err:
        raise ManualError("manual.error.store", path=path, detail=type(err).__name__) from None
    if not isinstance(doc, dict) or doc.get("version") != MANUAL_VERSION or not isinstance(doc.get("marks"), list):
        raise ManualError("manual.error.store", path=path, detail=f"version {MANUAL_VERSION} expected")
    out: dict[str, Mark] = {}
    for i, m in enumerate(doc["marks"], 1):
        try:
            mark = Mark(str(m["learner"]), str(m["exercise"]), str(m["question"]), m["score"],
                        str(m.get("comment") or ""), str(m.get("answer_sha256") or ""), str(m.get("graded_at") or ""))
        except (KeyError, TypeError):
            raise ManualError("manual.error.store", path=path, detail=f"mark {i}") from None
        if (isinstance(mark.score, bool) or not isinstance(mark.score, int | float)
                or not 0 <= mark.score < float("inf")):  # (NaN, Infinity, a negative: json takes them)
            raise ManualError("manual.error.store", path=path, detail=f"mark {i}: score")
        out[mark_key(mark.learner, mark.exercise, mark.question)] = mark
    return out


def write_atomic(path: Path, data: bytes) -> None:
    """``data`` into ``path`` through a temporary file in the same folder and ``os.replace``: the
    file is the old one or the new one, never half of either; a link at ``path`` is refused."""
    if path.is_symlink():
        raise ManualError("manual.error.store", path=path, detail="a link")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o600 if path.name == MANUAL_NAME else 0o644)
        os.replace(tmp, path)
    except BaseException:
        with_suppressed_unlink(tmp)
        raise


def with_suppressed_unlink(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def save(folder: str | Path, marks: Mapping[str, Mark]) -> Path:
    path = Path(folder) / MANUAL_NAME
    doc = {"version": MANUAL_VERSION, "marks": [m.to_json() for _, m in sorted(marks.items())]}
    write_atomic(path, (json.dumps(doc, ensure_ascii=False, indent=1) + "\n").encode("utf-8"))
    return path


# ---------------------------------------------------------------- the answers of a gradebook
@dataclass(frozen=True)
class Answer:
    """One written answer of a gradebook, as the instructor scores it."""

    learner: str
    exercise: str
    question: str
    points: int
    text: str
    sha256: str
    file: str

    @property
    def key(self) -> str:
        return mark_key(self.learner, self.exercise, self.question)


def answers(rows: Sequence[Mapping[str, Any]]) -> list[Answer]:
    """Every written answer of the rows that count (one per learner and exercise: the row the
    exports take, :func:`.export.per_learner`), in learner, exercise, question order."""
    table, _nameless = export.per_learner(rows)
    out = []
    for learner in sorted(table, key=lambda x: (x.casefold(), x)):
        for ex in sorted(table[learner]):
            row = table[learner][ex]
            if row.get("status") != "ok":
                continue
            for qid, q in (row.get("questions") or {}).items():
                if isinstance(q, dict) and q.get("kind") == WRITTEN:
                    out.append(Answer(learner, ex, str(qid), int(q.get("points") or 0), str(q.get("written") or ""),
                                      str(q.get("answer_sha256") or ""), str(row.get("file") or "")))
    return out


# ---------------------------------------------------------------- merging into the rows
def _penalty(row: Mapping[str, Any]) -> Fraction:
    """What the row's score is multiplied by under its late rule (as :func:`.handin.stamp` did)."""
    from .collect import parse_deadline
    from .deadlines import parse_penalty

    policy, late = row.get("late_policy"), row.get("late")
    if not late or not policy or not row.get("submitted_at") or not row.get("deadline"):
        return Fraction(1)
    seconds = (parse_deadline(str(row["submitted_at"])) - parse_deadline(str(row["deadline"]))).total_seconds()
    return Fraction(parse_penalty(str(policy)).factor(seconds)).limit_denominator(10_000)


def apply(rows: Sequence[Mapping[str, Any]], marks: Mapping[str, Mark]) -> list[dict[str, Any]]:
    """The rows with every written answer's score by hand merged in (pending where there is none),
    their totals computed again; rows without written answers are given back unchanged."""
    out = []
    for row in rows:
        found = row.get("questions")
        questions: dict[str, Any] = found if isinstance(found, dict) else {}
        if not any(isinstance(q, dict) and q.get("kind") == WRITTEN for q in questions.values()):
            out.append(dict(row))
            continue
        who = export.identity(row)
        merged: dict[str, Any] = {}
        pending = 0
        for qid, q in questions.items():
            if not (isinstance(q, dict) and q.get("kind") == WRITTEN):
                merged[qid] = q
                continue
            mark = marks.get(mark_key(who, str(row.get("exercise") or ""), str(qid))) if who else None
            points = int(q.get("points") or 0)
            if mark is None:
                pending += points
                merged[qid] = {**q, "score": 0, "pending": True, "passed": False, "manual": None,
                               "message": both("manual.result.pending" if q.get("written") else
                                               "manual.result.pending_empty", points=points)}
                continue
            changed = bool(mark.answer_sha256) and mark.answer_sha256 != q.get("answer_sha256")
            score = min(Fraction(str(mark.score)), Fraction(points))
            said = both("manual.result.scored", score=number(score), points=points)
            merged[qid] = {**q, "score": number(score), "pending": False, "passed": score == points,
                           "manual": {"score": number(score), "comment": mark.comment, "graded_at": mark.graded_at,
                                      "answer_changed": changed},
                           "message": {lang: said[lang] + (f" {mark.comment}" if mark.comment else "")
                                       for lang in ("zh", "en")}}
        new = {**row, "questions": merged, "pending_points": pending if row.get("status") == "ok" else 0}
        if row.get("status") == "ok":
            raw = sum((Fraction(str(q.get("score") or 0)).limit_denominator(10_000)
                       for q in merged.values() if isinstance(q, dict)), Fraction(0))
            new["raw_score"] = number(raw)
            new["score"] = number(raw * _penalty(row))
        out.append(new)
    return out


def summary(rows: Sequence[Mapping[str, Any]]) -> tuple[int, int]:
    """(written answers scored, written answers in all) of the rows that count."""
    found = answers(rows)
    table, _ = export.per_learner(rows)
    scored = 0
    for a in found:
        q = table[a.learner][a.exercise]["questions"][a.question]
        scored += not q.get("pending", True)
    return scored, len(found)


# ---------------------------------------------------------------- the CSV round-trip
def export_csv(rows: Sequence[Mapping[str, Any]], marks: Mapping[str, Mark]) -> str:
    """One row per learner × written question (:data:`CSV_COLUMNS`), her answer as spreadsheet-safe
    text (:func:`.export.spreadsheet_text`: no formula, no control character, line breaks as spaces)."""
    out = []
    for a in answers(rows):
        mark = marks.get(a.key)
        out.append([a.learner, a.exercise, a.question, a.points, mark.score if mark else "",
                    mark.comment if mark else "",
                    (bool(mark.answer_sha256) and mark.answer_sha256 != a.sha256) if mark else "",
                    a.sha256, a.text])
    return export._csv(CSV_COLUMNS, out)


def _unformula(text: str) -> str:
    """A cell written by :func:`.export.spreadsheet_text` read back (its leading ``'`` dropped)."""
    return text[1:] if text.startswith("'") and text[1:].lstrip()[:1] in export.FORMULA_STARTS else text


def import_csv(data: bytes, rows: Sequence[Mapping[str, Any]], marks: Mapping[str, Mark],
               name: str = "scores.csv") -> dict[str, Mark]:
    """``marks`` with the scores of a CSV in :data:`CSV_COLUMNS`'s layout taken in (``score`` empty:
    that answer is left as it is). Every row is checked before anything is taken; the errors
    (:class:`ManualError`) name the file, the row (counted as a spreadsheet does: the header is
    row 1) and the column: a score that is not a number or more than the question's points, a
    learner, exercise or question the gradebook has no written answer for, a row given twice."""
    if len(data) > MAX_CSV_BYTES:
        raise ManualError("manual.error.csv_size", file=name, limit=MAX_CSV_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ManualError("manual.error.csv_encoding", file=name) from None
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in ("learner", "exercise", "question", "score") if c not in header]
    if missing:
        raise ManualError("manual.error.csv_columns", file=name, missing=", ".join(missing),
                          columns=", ".join(CSV_COLUMNS))
    known = {a.key: a for a in answers(rows)}
    learners = sorted({a.learner for a in known.values()}, key=lambda x: (x.casefold(), x))
    exercises = sorted({a.exercise for a in known.values()})
    out = dict(marks)
    seen: dict[str, int] = {}
    problems: list[ManualError] = []
    try:
        table = list(reader)
    except csv.Error as err:  # (a field over the csv module's limit, a quote never closed …)
        raise ManualError("manual.error.csv_broken", file=name, line=reader.line_num + 1,
                          detail=_shown(str(err), 120)) from None
    for n, raw in enumerate(table, 2):
        row = {str(k).strip(): (v if isinstance(v, str) else "") for k, v in raw.items() if k is not None}
        learner, ex, qid = (_unformula(row.get(c, "").strip()) for c in ("learner", "exercise", "question"))
        where = f"{name}, row {n}"
        try:
            same = [x for x in learners if x == learner] or [x for x in learners if x.casefold() == learner.casefold()]
            if len(same) != 1:  # none, or a case that could be either of two learners
                raise ManualError("manual.error.unknown", where=f"{where}, column learner", value=_shown(learner),
                                  choices=_few(same if same else learners))
            learner = same[0]
            if ex not in exercises:
                raise ManualError("manual.error.unknown", where=f"{where}, column exercise", value=_shown(ex),
                                  choices=_few(exercises))
            key = mark_key(learner, ex, qid)
            answer = known.get(key)
            if answer is None:
                mine = sorted({a.question for a in known.values() if a.exercise == ex})
                raise ManualError("manual.error.unknown", where=f"{where}, column question", value=_shown(qid),
                                  choices=_few(mine))
            if key in seen:
                raise ManualError("manual.error.twice", where=where, first=seen[key])
            seen[key] = n
            score_text = row.get("score", "").strip()
            raw_comment = row.get("comment", "")
            before = out.get(key)
            if before is not None and score_text and _same_score(score_text, before.score) and (
                    raw_comment.strip() in (before.comment, export.spreadsheet_text(before.comment))):
                continue  # the row as exported: the mark stays as it was (its lines, its time)
            comment = clean_comment(_unformula(raw_comment.strip()), f"{where}, column comment")
            if not score_text:
                if comment:
                    raise ManualError("manual.error.comment_only", where=f"{where}, column score")
                continue
            score = parse_score(score_text, answer.points, f"{where}, column score")
            digest = row.get("answer_sha256", "").strip() or answer.sha256
            out[key] = Mark(answer.learner, ex, qid, score, comment, digest, now())
        except ManualError as err:
            problems.append(err)
    if problems:
        raise ManualError("manual.error.csv_rows", file=name, count=len(problems),
                          rows={lang: "\n".join(p.message(lang) for p in problems[:20]) for lang in ("zh", "en")})
    return out


def _same_score(text: str, score: int | float) -> bool:
    try:
        return Fraction(text) == Fraction(str(score))
    except (ValueError, ZeroDivisionError):
        return False


def _few(names: Sequence[str], limit: int = 8) -> str:
    return ", ".join(names[:limit]) + (" …" if len(names) > limit else "") if names else "-"


def set_mark(marks: dict[str, Mark], answer: Answer, score: Any, comment: Any) -> dict[str, Mark]:
    """``marks`` with ``answer`` scored (``score`` None or "": its score removed, pending again)."""
    where = f"{answer.learner} {answer.exercise} {answer.question}"
    out = dict(marks)
    if score is None or (isinstance(score, str) and not score.strip()):
        out.pop(answer.key, None)
        return out
    out[answer.key] = Mark(answer.learner, answer.exercise, answer.question,
                           parse_score(score, answer.points, where), clean_comment(comment, where),
                           answer.sha256, now())
    return out
