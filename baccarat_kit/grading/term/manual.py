"""Written answers scored by hand: the instructor's scores, merged into the gradebook.

``grade`` leaves a written question pending (:mod:`..judge.written`). The instructor scores each
answer against the rubric, with a comment for the learner, on the page of :mod:`..grade_manual.page`
or through a CSV (:func:`export_csv`, :func:`import_csv`). Her scores live in ``GRADED/manual.json``,
a file of the instructor's that ``grade`` never writes (it is not in the gradebook's marker):
written through a temporary file in the same folder and ``os.replace`` (never half a file), read
back by every ``grade --update``, so a regrade keeps every score and comment.

A mark belongs to the answer it was given for (issue 43): it is filed under where the answer was
collected (:func:`place_key`: the owner's folder, else, for a file graded without collect, the
file itself; never the id a notebook claims) and it holds the SHA-256 of the answer's text. It is
applied only to a row of that place whose answer has that digest; a row of that place with
another text is pending again, the earlier mark shown beside it (``earlier``) until it is scored
again.

:func:`apply` merges the scores into ``results.json``'s rows (the written questions' ``score``,
``pending``, ``manual`` and ``earlier``; each row's ``pending_points``, ``raw_score`` and ``score``
after its late penalty); :func:`..grade_manual.publish.publish` rewrites the gradebook's files from
them (results.json and its index, the CSVs and LMS exports, the feedback pages of the rows that
have written answers).

>>> row = {"learner": "ann", "owner": "ann", "exercise": "03", "status": "ok", "score": 5, "raw_score": 5,
...        "max_score": 8, "late": False, "file": "w1/ann/03.ipynb",
...        "questions": {"q1": {"score": 5, "points": 5, "passed": True},
...        "q9": {"kind": "written", "score": 0, "points": 3, "pending": True, "written": "Because …",
...               "answer_sha256": "ab", "manual": None}}}
>>> mark = Mark("ann", "03", "q9", 2, "(a) and (b)", "ab", "2026-12-04T00:00:00Z", owner="ann")
>>> done = apply([row], {mark.key: mark})[0]
>>> done["score"], done["pending_points"], done["questions"]["q9"]["manual"]["score"]
(7, 0, 2)
>>> changed = {**row, "questions": {**row["questions"], "q9": {**row["questions"]["q9"], "answer_sha256": "cd"}}}
>>> again = apply([changed], {mark.key: mark})[0]
>>> again["score"], again["pending_points"], again["questions"]["q9"]["earlier"]["score"]
(5, 3, 2)
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
MANUAL_VERSION = 2
"""Version 2 files a mark under where its answer was collected (``owner``, ``file``); a version 1
file (marks filed by the learner's id) is read with each mark belonging to the folder of that name."""
MAX_COMMENT = 4000
MAX_CSV_BYTES = 20 * 1024 * 1024
CSV_COLUMNS = ("learner", "exercise", "question", "points", "score", "comment", "earlier_score",
               "answer_sha256", "answer")
"""The columns :func:`export_csv` writes; :func:`import_csv` reads ``learner``, ``exercise``,
``question``, ``score`` (empty: not scored), ``comment`` and ``answer_sha256`` (the answer the
score is for; the others are for reading: ``earlier_score`` is the score an earlier answer of hers
in the same place had)."""
KEY_COLUMNS = ("learner_number", "learner")
"""The key of an anonymous export (:func:`anonymous_numbers`), a file of its own."""
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
    """The SHA-256 of the answer it was given for: applied to no other text."""
    graded_at: str
    owner: str | None = None
    """The learner folder the answer was collected from; None for a file graded without collect."""
    file: str = ""
    """The file the answer was in, as the gradebook names it (the place of an answer without owner)."""

    @property
    def key(self) -> str:
        return place_key(self.owner, self.file, self.exercise, self.question)

    def to_json(self) -> dict[str, Any]:
        return {"learner": self.learner, "owner": self.owner, "file": self.file, "exercise": self.exercise,
                "question": self.question, "score": self.score, "comment": self.comment,
                "answer_sha256": self.answer_sha256, "graded_at": self.graded_at}


def place_key(owner: str | None, file: str, exercise: str, question: str) -> str:
    """Where an answer was collected, a mark's key: the owner's folder (every later collect of hers
    is the same place), else the file itself. Never the id a notebook claims (redteam: a loose file
    claiming ``LEARNER_ID = "ann"`` got ann's score and the comment written for her)."""
    return json.dumps(["owner", owner, exercise, question] if owner else ["file", file, exercise, question])


def lookup(marks: Mapping[str, Mark], owner: str | None, file: str, exercise: str, question: str,
           sha256: str) -> tuple[Mark | None, Mark | None]:
    """(the mark given for this answer, or None; a mark given to an earlier, other text in the same
    place, or None)."""
    mark = marks.get(place_key(owner or None, file, exercise, question))
    if mark is None:
        return None, None
    return (mark, None) if mark.answer_sha256 and mark.answer_sha256 == sha256 else (None, mark)


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
    if not isinstance(doc, dict) or doc.get("version") not in (1, MANUAL_VERSION) or not isinstance(doc.get("marks"), list):
        raise ManualError("manual.error.store", path=path, detail=f"version {MANUAL_VERSION} expected")
    out: dict[str, Mark] = {}
    for i, m in enumerate(doc["marks"], 1):
        try:
            owner = m["owner"] if doc["version"] > 1 else m["learner"]  # (version 1: the folder of her name)
            mark = Mark(str(m["learner"]), str(m["exercise"]), str(m["question"]), m["score"],
                        str(m.get("comment") or ""), str(m.get("answer_sha256") or ""), str(m.get("graded_at") or ""),
                        str(owner) if owner else None, str(m.get("file") or ""))
        except (KeyError, TypeError):
            raise ManualError("manual.error.store", path=path, detail=f"mark {i}") from None
        if (isinstance(mark.score, bool) or not isinstance(mark.score, int | float)
                or not 0 <= mark.score < float("inf")):  # (NaN, Infinity, a negative: json takes them)
            raise ManualError("manual.error.store", path=path, detail=f"mark {i}: score")
        out[mark.key] = mark
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
        os.chmod(tmp, 0o600)  # scores, comments, the gradebook: the instructor's alone
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
    owner: str | None = None

    @property
    def key(self) -> str:
        return place_key(self.owner, self.file, self.exercise, self.question)

    def marks(self, marks: Mapping[str, Mark]) -> tuple[Mark | None, Mark | None]:
        """(its mark, an earlier answer's mark in the same place): :func:`lookup`."""
        return lookup(marks, self.owner, self.file, self.exercise, self.question, self.sha256)


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
                                      str(q.get("answer_sha256") or ""), str(row.get("file") or ""),
                                      str(row["owner"]) if row.get("owner") else None))
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
    """The rows with every written answer's score by hand merged in (pending where there is none
    for that text in that place: :func:`lookup`), their totals computed again; rows without written
    answers are given back unchanged."""
    out = []
    for row in rows:
        found = row.get("questions")
        questions: dict[str, Any] = found if isinstance(found, dict) else {}
        if not any(isinstance(q, dict) and q.get("kind") == WRITTEN for q in questions.values()):
            out.append(dict(row))
            continue
        owner, file, exercise = row.get("owner") or None, str(row.get("file") or ""), str(row.get("exercise") or "")
        merged: dict[str, Any] = {}
        pending = 0
        for qid, q in questions.items():
            if not (isinstance(q, dict) and q.get("kind") == WRITTEN):
                merged[qid] = q
                continue
            mark, earlier = lookup(marks, owner, file, exercise, str(qid), str(q.get("answer_sha256") or ""))
            points = int(q.get("points") or 0)
            if mark is None:
                pending += points
                key = ("manual.result.pending_changed" if earlier else "manual.result.pending" if q.get("written")
                       else "manual.result.pending_empty")
                merged[qid] = {**q, "score": 0, "pending": True, "passed": False, "manual": None,
                               "earlier": {"score": earlier.score, "comment": earlier.comment,
                                           "graded_at": earlier.graded_at} if earlier else None,
                               "message": both(key, points=points)}
                continue
            score = min(Fraction(str(mark.score)), Fraction(points))
            said = both("manual.result.scored", score=number(score), points=points)
            merged[qid] = {**q, "score": number(score), "pending": False, "passed": score == points,
                           "manual": {"score": number(score), "comment": mark.comment, "graded_at": mark.graded_at},
                           "earlier": None,
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
def anonymous_numbers(found: Sequence[Answer]) -> dict[str, str]:
    """learner → ``#n``, a number each in an order no one can guess (``--anonymous``)."""
    import secrets

    learners = sorted({a.learner for a in found})
    numbers = list(range(1, len(learners) + 1))
    secrets.SystemRandom().shuffle(numbers)
    return {who: f"#{n}" for who, n in zip(learners, numbers, strict=True)}


def key_csv(numbers: Mapping[str, str]) -> str:
    """The key of an anonymous export (:data:`KEY_COLUMNS`), in number order."""
    return export._csv(KEY_COLUMNS, sorted(((n, who) for who, n in numbers.items()), key=lambda x: int(x[0][1:])))


def delimiter(text: str) -> str:
    """The column separator of a CSV's header line: ``,`` as exported, or the ``;`` (or tab) a
    spreadsheet in a locale whose decimal mark is a comma saves with (its columns were then
    reported missing though every one was there).

    >>> delimiter("learner,exercise"), delimiter("learner;exercise;score\\nann;03;2,5"), delimiter("a\\tb")
    (',', ';', '\\t')
    """
    first = text.split("\n", 1)[0]
    return max((",", ";", "\t"), key=lambda d: (first.count(d), d == ","))


def read_key(data: bytes, name: str) -> dict[str, str]:
    """``#n`` → learner, from a key :func:`key_csv` wrote."""
    try:
        text = data.decode("utf-8-sig")
        table = list(csv.DictReader(io.StringIO(text), delimiter=delimiter(text)))
    except (UnicodeDecodeError, csv.Error):
        raise ManualError("manual.error.csv_encoding", file=name) from None
    if not table or any(c not in table[0] for c in KEY_COLUMNS):
        raise ManualError("manual.error.csv_columns", file=name, missing=", ".join(KEY_COLUMNS),
                          columns=", ".join(KEY_COLUMNS))
    return {str(r["learner_number"]).strip(): _unformula(str(r["learner"]).strip()) for r in table}


def export_csv(rows: Sequence[Mapping[str, Any]], marks: Mapping[str, Mark],
               numbers: Mapping[str, str] | None = None) -> str:
    """One row per learner × written question (:data:`CSV_COLUMNS`), her answer as spreadsheet-safe
    text (:func:`.export.spreadsheet_text`: no formula, no control character, line breaks as spaces).
    An answer that changed since it was scored has no score (it is pending); ``earlier_score`` says
    what the earlier one had. ``numbers`` (:func:`anonymous_numbers`): each learner as her number,
    the rows in number order; no name is written."""
    out = []
    for a in answers(rows):
        mark, earlier = a.marks(marks)
        out.append([numbers[a.learner] if numbers else a.learner, a.exercise, a.question, a.points,
                    mark.score if mark else "", mark.comment if mark else "", earlier.score if earlier else "",
                    a.sha256, a.text])
    if numbers:
        out.sort(key=lambda r: (int(str(r[0])[1:]), r[1], r[2]))
    return export._csv(CSV_COLUMNS, out)


def _unformula(text: str) -> str:
    """A cell written by :func:`.export.spreadsheet_text` read back (its leading ``'`` dropped)."""
    return text[1:] if text.startswith("'") and text[1:].lstrip()[:1] in export.FORMULA_STARTS else text


def import_csv(data: bytes, rows: Sequence[Mapping[str, Any]], marks: Mapping[str, Mark],
               name: str = "scores.csv", key: Mapping[str, str] | None = None) -> dict[str, Mark]:
    """``marks`` with the scores of a CSV in :data:`CSV_COLUMNS`'s layout taken in (``score`` empty:
    that answer is left as it is). Every row is checked before anything is taken; the errors
    (:class:`ManualError`) name the file, the row (counted as a spreadsheet does: the header is
    row 1) and the column: a score that is not a number or more than the question's points, a
    learner, exercise or question the gradebook has no written answer for, a row given twice, a
    score for an answer that is not the one exported (``answer_sha256``: her answer changed since,
    or the cell is empty). ``key``: ``#n`` → learner, for an anonymous export (:func:`read_key`)."""
    if len(data) > MAX_CSV_BYTES:
        raise ManualError("manual.error.csv_size", file=name, limit=MAX_CSV_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ManualError("manual.error.csv_encoding", file=name) from None
    sep = delimiter(text)
    reader = csv.DictReader(io.StringIO(text), delimiter=sep)
    header = [h.strip() for h in reader.fieldnames or []]
    missing = [c for c in ("learner", "exercise", "question", "score", "answer_sha256") if c not in header]
    if missing:
        raise ManualError("manual.error.csv_columns", file=name, missing=", ".join(missing),
                          columns=", ".join(CSV_COLUMNS))
    known = {(a.learner, a.exercise, a.question): a for a in answers(rows)}
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
            if learner.startswith("#") and (key is not None or learner not in learners):  # anonymous: its key
                if key is None:
                    raise ManualError("manual.error.needs_key", where=f"{where}, column learner", value=_shown(learner))
                if learner not in key:
                    raise ManualError("manual.error.unknown", where=f"{where}, column learner", value=_shown(learner),
                                      choices=_few(sorted(key, key=lambda x: (len(x), x))))
                learner = key[learner]
            same = [x for x in learners if x == learner] or [x for x in learners if x.casefold() == learner.casefold()]
            if len(same) != 1:  # none, or a case that could be either of two learners
                raise ManualError("manual.error.unknown", where=f"{where}, column learner", value=_shown(learner),
                                  choices=_few(same if same else learners))
            learner = same[0]
            if ex not in exercises:
                raise ManualError("manual.error.unknown", where=f"{where}, column exercise", value=_shown(ex),
                                  choices=_few(exercises))
            answer = known.get((learner, ex, qid))
            if answer is None:
                mine = sorted({a.question for a in known.values() if a.exercise == ex})
                raise ManualError("manual.error.unknown", where=f"{where}, column question", value=_shown(qid),
                                  choices=_few(mine))
            if answer.key in seen:
                raise ManualError("manual.error.twice", where=where, first=seen[answer.key])
            seen[answer.key] = n
            score_text = row.get("score", "").strip()
            if sep == ";" and re.fullmatch(r"\d+,\d+", score_text):  # (its decimal comma: 2,5 is 2.5)
                score_text = score_text.replace(",", ".")
            raw_comment = row.get("comment", "")
            if score_text:
                parse_score(score_text, answer.points, f"{where}, column score")
            if score_text and row.get("answer_sha256", "").strip() != answer.sha256:
                raise ManualError("manual.error.answer_changed", where=f"{where}, column answer_sha256",
                                  answer=_shown(f"{row.get('learner', '').strip()} {ex} {qid}"))
            before, _earlier = answer.marks(out)
            if before is not None and score_text and _same_score(score_text, before.score) and (
                    raw_comment.strip() in (before.comment, export.spreadsheet_text(before.comment))):
                continue  # the row as exported: the mark stays as it was (its lines, its time)
            comment = clean_comment(_unformula(raw_comment.strip()), f"{where}, column comment")
            if not score_text:
                if comment:
                    raise ManualError("manual.error.comment_only", where=f"{where}, column score")
                continue
            out = set_mark(out, answer, score_text, comment, f"{where}, column score")
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


def set_mark(marks: Mapping[str, Mark], answer: Answer, score: Any, comment: Any,
             where: str | None = None) -> dict[str, Mark]:
    """``marks`` with ``answer`` scored, the mark filed under its place and holding its digest
    (``score`` None or "": its score removed, pending again)."""
    where = where or f"{answer.learner} {answer.exercise} {answer.question}"
    out = dict(marks)
    if score is None or (isinstance(score, str) and not score.strip()):
        out.pop(answer.key, None)
        return out
    out[answer.key] = Mark(answer.learner, answer.exercise, answer.question,
                           parse_score(score, answer.points, where), clean_comment(comment, where),
                           answer.sha256, now(), answer.owner, answer.file)
    return out
