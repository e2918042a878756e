"""The gradebook files written beside ``results.json``, all from its rows (plain dicts).

* ``grades.csv``: one row per submission (wide: a column per ``exercise:question``);
* ``grades-long.csv``: one row per submission × question (for pivot tables);
* ``canvas.csv``: Canvas's gradebook import layout (one row per learner, a column per exercise);
* ``moodle.csv``: a Moodle grade import file (``ID number``, then a column per exercise).

Every text cell goes through :func:`spreadsheet_text`, so no learner id, file name or answer
becomes a formula in a spreadsheet. The columns are documented in ``docs/grading.md``.

>>> rows = [{"file": "s1/03-banker-rule.ipynb", "learner": "s1", "exercise": "03-banker-rule",
...          "score": 5.5, "max_score": 8, "status": "ok", "graded_at": "2026-01-01T00:00:00Z",
...          "submitted_at": None, "late": None, "owner": "s1",
...          "questions": {"q1": {"score": 1, "points": 1, "answer": "False", "misconception": None},
...                        "q5": {"score": 4.5, "points": 7, "answer": "def …", "misconception": None}}}]
>>> print(long_csv(rows).splitlines()[1])
s1,03-banker-rule,q1,1,1,,False,ok,s1/03-banker-rule.ipynb,2026-01-01T00:00:00Z,
>>> print(moodle_csv(rows, {"03-banker-rule": "Exercise 3"}))
ID number,Exercise 3
s1,5.5
<BLANKLINE>
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@")


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet will not run as a formula: a cell that starts (after any whitespace)
    with ``=``, ``+``, ``-`` or ``@`` gets a leading ``'``; tabs and line breaks become spaces.

    >>> spreadsheet_text("=1+1"), spreadsheet_text(" =HYPERLINK(1)"), spreadsheet_text("s123")
    ("'=1+1", "' =HYPERLINK(1)", 's123')
    >>> spreadsheet_text("a\\tb\\nc"), spreadsheet_text("\\t-2")
    ('a b c', "' -2")
    """
    flat = "".join(" " if ch in "\t\r\n\v\f" else ch for ch in text)
    return "'" + flat if flat.lstrip()[:1] in FORMULA_STARTS and flat.lstrip() else flat


def _cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return value
    return spreadsheet_text(str(value))


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow([_cell(h) for h in header])
    for row in rows:
        writer.writerow([_cell(v) for v in row])
    return buf.getvalue()


def question_columns(rows: Sequence[Mapping[str, Any]], questions: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """(exercise, question) of every question of every exercise in the rows."""
    seen = sorted({str(r["exercise"]) for r in rows if r.get("exercise")})
    return [(ex, q) for ex in seen for q in questions.get(ex, ())]


def grades_csv(rows: Sequence[Mapping[str, Any]], questions: Mapping[str, Sequence[str]]) -> str:
    """The wide gradebook: ``file, learner, score, max_score``, one column per
    ``exercise:question``, then ``graded_at, submitted_at, late, status, owner, sandbox`` (``owner``:
    the learner folder ``collect`` took the file from; ``sandbox``: "bwrap", or "none" for a row
    graded with ``--no-sandbox``)."""
    cols = question_columns(rows, questions)
    out = []
    for r in rows:
        scores = {q: v.get("score") for q, v in r.get("questions", {}).items()} if r.get("status") == "ok" else {}
        line: list[Any] = [r.get("file"), r.get("learner"), r.get("score"), r.get("max_score")]
        for ex, q in cols:
            line.append(scores.get(q, 0) if r.get("exercise") == ex else None)
        line += [r.get("graded_at"), r.get("submitted_at"), r.get("late"), r.get("status"), r.get("owner"),
                 r.get("sandbox", "bwrap")]
        out.append(line)
    header = ["file", "learner", "score", "max_score", *(f"{ex}:{q}" for ex, q in cols),
              "graded_at", "submitted_at", "late", "status", "owner", "sandbox"]
    return _csv(header, out)


LONG_COLUMNS = ("learner", "exercise", "question", "score", "points", "misconception", "answer", "status",
                "file", "graded_at", "late")


def long_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """One row per submission × question (:data:`LONG_COLUMNS`)."""
    out = []
    for r in rows:
        for qid, q in r.get("questions", {}).items():
            out.append([r.get("learner"), r.get("exercise"), qid, q.get("score") if r.get("status") == "ok" else 0,
                        q.get("points"), q.get("misconception"), q.get("answer"), r.get("status"), r.get("file"),
                        r.get("graded_at"), r.get("late")])
    return _csv(LONG_COLUMNS, out)


def per_learner(rows: Sequence[Mapping[str, Any]]) -> tuple[dict[str, dict[str, Any]], list[Mapping[str, Any]]]:
    """learner → exercise → the latest-graded row; and the rows that have no learner id.

    The learner id is the notebook's ``LEARNER_ID``, or, when it has none, the learner folder
    the file was collected from (``owner``).
    """
    table: dict[str, dict[str, Any]] = {}
    nameless = []
    for r in rows:
        learner = str(r.get("learner") or r.get("owner") or "").strip()
        if not learner or not r.get("exercise"):
            nameless.append(r)
            continue
        mine = table.setdefault(learner, {})
        old = mine.get(str(r["exercise"]))
        if old is None or str(r.get("graded_at") or "") >= str(old.get("graded_at") or ""):
            mine[str(r["exercise"])] = r
    return table, nameless


def canvas_csv(rows: Sequence[Mapping[str, Any]], titles: Mapping[str, str]) -> str:
    """Canvas's gradebook import layout: ``Student, ID, SIS User ID, SIS Login ID, Section``,
    one column per exercise named by its title, then a ``Points Possible`` row. The learner id
    fills ``SIS Login ID`` (what Canvas matches on when ``ID`` is empty) and ``Student``."""
    table, _ = per_learner(rows)
    exercises = sorted({ex for mine in table.values() for ex in mine})
    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *(titles.get(ex, ex) for ex in exercises)]
    points: list[Any] = ["Points Possible", "", "", "", ""]
    for ex in exercises:
        points.append(next((mine[ex].get("max_score") for mine in table.values() if ex in mine), ""))
    out = [points]
    for learner in sorted(table):
        mine = table[learner]
        out.append([learner, "", "", learner, "", *(mine[ex].get("score") if ex in mine else "" for ex in exercises)])
    return _csv(header, out)


def moodle_csv(rows: Sequence[Mapping[str, Any]], titles: Mapping[str, str]) -> str:
    """A Moodle grade import file: ``ID number`` (map it to the user field "ID number" when
    importing), then one column per exercise named by its title (map each to a grade item)."""
    table, _ = per_learner(rows)
    exercises = sorted({ex for mine in table.values() for ex in mine})
    header = ["ID number", *(titles.get(ex, ex) for ex in exercises)]
    out = [[learner, *(table[learner][ex].get("score") if ex in table[learner] else "" for ex in exercises)]
           for learner in sorted(table)]
    return _csv(header, out)
