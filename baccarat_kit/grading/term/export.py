"""The gradebook files written beside ``results.json``, all from its rows (plain dicts).

* ``grades.csv``: one row per submission (wide: a column per ``exercise:question``);
* ``grades-long.csv``: one row per submission × question (for pivot tables);
* ``canvas.csv``: Canvas's gradebook import layout (one row per learner, a column per exercise);
* ``moodle.csv``: a Moodle grade import file (``ID number``, then a column per exercise).

A written answer not scored by hand yet (:mod:`.manual`) is ``pending`` in the first two, and
its submission's cell is blank in the LMS files until every answer of it is scored.

Every text cell of every file goes through :func:`spreadsheet_text` (in :func:`_csv`, the one
writer), so no learner id, file name or answer becomes a formula in a spreadsheet or carries a
control character (a terminal escape, a bell) into it. The columns are documented in
``docs/grading.md``.

>>> rows = [{"file": "s1/03-banker-rule.ipynb", "learner": "s1", "exercise": "03-banker-rule",
...          "score": 5.5, "max_score": 8, "status": "ok", "graded_at": "2026-01-01T00:00:00Z",
...          "submitted_at": None, "late": None, "owner": "s1",
...          "questions": {"q1": {"score": 1, "points": 1, "answer": "False", "misconception": None},
...                        "q5": {"score": 4.5, "points": 7, "answer": "def …", "misconception": None}}}]
>>> print(long_csv(rows).splitlines()[1])
s1,03-banker-rule,q1,1,1,,False,ok,s1/03-banker-rule.ipynb,2026-01-01T00:00:00Z,,,
>>> print(moodle_csv(rows, {"03-banker-rule": "Exercise 3"}))
ID number,Exercise 3
s1,5.5
<BLANKLINE>
"""

from __future__ import annotations

import csv
import io
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@")
SPACED = "\t\r\n\v\f"
"""Line and column breaks: a space each (a cell stays one line)."""
SHOWN_AS_ESCAPE = ("Cc", "Cf", "Zl", "Zp")
"""Unicode categories written as ``\\u001b``-style text (four hex digits): every other C0 and C1 control and DEL
(``Cc``), format characters such as a direction override (``Cf``) and line/paragraph separators;
the same escapes :func:`..records.visible` shows on pages and terminals."""


def spreadsheet_text(text: str) -> str:
    """Text a spreadsheet will not run as a formula and that holds no control character: tabs and
    line breaks become spaces; every other control, format or separator character (ESC, BEL, DEL,
    C1, U+202E …) becomes its escape as visible text (``\\u001b``); then a cell that starts
    (after any whitespace) with ``=``, ``+``, ``-`` or ``@`` gets a leading ``'``.

    >>> spreadsheet_text("=1+1"), spreadsheet_text(" =HYPERLINK(1)"), spreadsheet_text("s123")
    ("'=1+1", "' =HYPERLINK(1)", 's123')
    >>> spreadsheet_text("a\\tb\\nc"), spreadsheet_text("\\t-2")
    ('a b c', "' -2")
    >>> print(spreadsheet_text("s1\\x1b]52;c;aGk=\\x07\\x7f"), spreadsheet_text("\\x1c=1"))
    s1\\u001b]52;c;aGk=\\u0007\\u007f \\u001c=1
    """
    flat = text if text.isprintable() else _flat(text)  # (most cells: checked in C, kept as they are)
    return "'" + flat if flat.lstrip()[:1] in FORMULA_STARTS and flat.lstrip() else flat


_SPACES = str.maketrans(dict.fromkeys(SPACED, " "))


def _flat(text: str) -> str:
    """``text`` with its breaks as spaces and every character of :data:`SHOWN_AS_ESCAPE` escaped."""
    text = text.translate(_SPACES)
    if text.isprintable():
        return text
    return "".join(f"\\u{ord(ch):04x}" if not ch.isprintable() and unicodedata.category(ch) in SHOWN_AS_ESCAPE
                   else ch for ch in text)


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
    # (a number, or text that needs nothing, as it is without a call: a gradebook has millions of cells)
    writer.writerows([v if (t := type(v)) is int or t is float or (
        t is str and v.isprintable() and v.lstrip()[:1] not in FORMULA_STARTS) else _cell(v) for v in row]
        for row in rows)
    return buf.getvalue()


def question_columns(rows: Sequence[Mapping[str, Any]], questions: Mapping[str, Sequence[str]]) -> list[tuple[str, str]]:
    """(exercise, question) of every question of every exercise in the rows."""
    seen = sorted({str(r["exercise"]) for r in rows if r.get("exercise")})
    return [(ex, q) for ex in seen for q in questions.get(ex, ())]


def grades_csv(rows: Sequence[Mapping[str, Any]], questions: Mapping[str, Sequence[str]]) -> str:
    """The wide gradebook: ``file, learner, score, max_score``, one column per
    ``exercise:question``, then ``graded_at, submitted_at, late, status, owner, sandbox, claimed_id,
    identity_mismatch, raw_score`` (``owner``: the learner folder ``collect`` took the file from, and
    then also ``learner``; ``sandbox``: "bwrap", or "none" for a row graded with ``--no-sandbox``;
    ``claimed_id``: the notebook's LEARNER_ID; ``raw_score``: before a late penalty)."""
    cols = question_columns(rows, questions)
    out = []
    for r in rows:
        scores = {q: PENDING if v.get("pending") else v.get("score")
                  for q, v in r.get("questions", {}).items()} if r.get("status") == "ok" else {}
        line: list[Any] = [r.get("file"), r.get("learner"), r.get("score"), r.get("max_score")]
        for ex, q in cols:
            line.append(scores.get(q, 0) if r.get("exercise") == ex else None)
        line += [r.get("graded_at"), r.get("submitted_at"), r.get("late"), r.get("status"), r.get("owner"),
                 r.get("sandbox", "bwrap"), r.get("claimed_id"), r.get("identity_mismatch"),
                 r.get("raw_score", r.get("score")), r.get("pending_points") or 0]
        out.append(line)
    header = ["file", "learner", "score", "max_score", *(f"{ex}:{q}" for ex, q in cols),
              "graded_at", "submitted_at", "late", "status", "owner", "sandbox", "claimed_id",
              "identity_mismatch", "raw_score", "pending_points"]
    return _csv(header, out)


LONG_COLUMNS = ("learner", "exercise", "question", "score", "points", "misconception", "answer", "status",
                "file", "graded_at", "late", "comment", "answer_changed")
PENDING = "pending"
"""A written answer not scored by hand yet, in grades.csv and grades-long.csv (:mod:`.manual`)."""


def long_csv(rows: Sequence[Mapping[str, Any]]) -> str:
    """One row per submission × question (:data:`LONG_COLUMNS`); a written answer's score is
    ``pending`` until it is scored by hand, then its ``comment`` follows; ``answer_changed``: it is
    pending again because her answer changed after an earlier one was scored."""
    out = []
    for r in rows:
        for qid, q in r.get("questions", {}).items():
            manual = q.get("manual") if isinstance(q.get("manual"), dict) else {}
            score = (PENDING if q.get("pending") else q.get("score")) if r.get("status") == "ok" else 0
            out.append([r.get("learner"), r.get("exercise"), qid, score,
                        q.get("points"), q.get("misconception"), q.get("answer"), r.get("status"), r.get("file"),
                        r.get("graded_at"), r.get("late"), manual.get("comment"),
                        True if q.get("earlier") else None])
    return _csv(LONG_COLUMNS, out)


def lms_score(row: Mapping[str, Any]) -> Any:
    """The score an LMS file gets for a row: blank while written answers of it are pending (an
    LMS import takes a blank cell as not graded, never a part-total as final), and blank for a
    copy handed in with no answer at all (``not_attempted``: as a copy not handed in; the LMS's
    own policy for missing work applies, and an exercise not due yet gets no 0), and blank for a row
    the grader could not grade for reasons not hers (:data:`UNGRADED`: no 0 she did not earn)."""
    return ("" if row.get("pending_points") or row.get("status") == "not_attempted" or row.get("status") in UNGRADED
            else row.get("score"))


UNGRADED = frozenset({"kernel_start", "worker_failed", "needs_secret", "other_secret"})
"""Rows scored 0 because the grader could not grade them, not for anything in them (a kernel that
did not start on a loaded machine, a Dask worker lost, no or another class's ``--secret-file``):
blank in the LMS files until graded again (``grade --update``); ``grade`` says how to."""


def identity(row: Mapping[str, Any]) -> str:
    """Who a row is: its owner (the learner folder or Hub user it was collected from), else its
    ``learner`` (the notebook's claim, for a file graded without collect); "" when neither."""
    return str(row.get("owner") or row.get("learner") or "").strip()


def counting_order(row: Mapping[str, Any]) -> tuple[bool, bool, str, bool, str, str]:
    """Of one learner's rows of one exercise the greatest counts: a collected one (it has an owner)
    before any that only claims her id (redteam: a loose file saying "alice", its mtime 2100, was
    alice's grade over her own collected file), then an answered copy before one handed in as it
    came (``not_attempted``: an untouched copy collected beside or after hers, e.g. the course's
    self-study copy, never blanks her answered one), then the latest hand-in, then one whose
    claimed id does not name someone else, then the latest graded, then the file name (never the
    best score: handing in many files must not pay)."""
    return (bool(row.get("owner")), row.get("status") != "not_attempted", str(row.get("submitted_at") or ""),
            not row.get("identity_mismatch"), str(row.get("graded_at") or ""), str(row.get("file") or ""))


def per_learner(rows: Sequence[Mapping[str, Any]], fold: bool = False
                ) -> tuple[dict[str, dict[str, Any]], list[Mapping[str, Any]]]:
    """learner → exercise → the row that counts (:func:`counting_order`); and the rows of no learner.

    The learner is the row's owner when it was collected (:func:`identity`), so two learners with
    an empty ``LEARNER_ID`` stay two learners and a claimed id never takes another owner's place.
    ``fold`` (the LMS files): ids that differ only in case are one learner, spelled as where she
    was collected, else as first claimed (redteam: a loose file claiming "ALICE" was a row of its
    own in the LMS files beside alice's, which an LMS matching ids without case takes as hers).
    """
    spelling: dict[str, str] = {}
    for owners_only in (True, False) if fold else ():  # the spelling of her folder, else of the first claim
        for r in rows:
            who = identity(r)
            if who and (r.get("owner") or not owners_only):
                spelling.setdefault(who.casefold(), who)
    table: dict[str, dict[str, Any]] = {}
    nameless = []
    for r in rows:
        learner = spelling.get(identity(r).casefold(), "") if fold else identity(r)
        if not learner or not r.get("exercise"):
            nameless.append(r)
            continue
        mine = table.setdefault(learner, {})
        old = mine.get(str(r["exercise"]))
        if old is None or counting_order(r) >= counting_order(old):
            mine[str(r["exercise"])] = r
    return table, nameless


NOT_GRADED = frozenset({"batch_limit"})
"""Statuses of rows the instructor's own limit left ungraded (the batch's wall-clock budget ran
out): no score of theirs goes to an LMS (grade them again with ``--update``)."""


def _graded(rows: Sequence[Mapping[str, Any]]) -> list[Mapping[str, Any]]:
    return [r for r in rows if r.get("status") not in NOT_GRADED]


def canvas_csv(rows: Sequence[Mapping[str, Any]], titles: Mapping[str, str],
               ids: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """Canvas's gradebook import layout: ``Student, ID, SIS User ID, SIS Login ID, Section``,
    one column per exercise named by its title, then a ``Points Possible`` row. ``ids``: what the
    class list gives of each learner (:func:`.deadlines.read_lms_ids`: ``name``, ``canvas_id``,
    ``sis_user_id``, ``sis_login_id``, ``section``); without them the learner id fills ``SIS
    Login ID`` (what Canvas matches on when ``ID`` is empty) and ``Student``.

    >>> row = {"learner": "ann", "owner": "ann", "exercise": "01", "score": 3, "max_score": 5, "status": "ok"}
    >>> print(canvas_csv([row], {"01": "Ex 1"}, {"ann": {"name": "Ann Lee", "canvas_id": "4711", "sis_user_id": "S001"}}))
    Student,ID,SIS User ID,SIS Login ID,Section,Ex 1
    Points Possible,,,,,5
    Ann Lee,4711,S001,ann,,3
    <BLANKLINE>
    """
    ids = {k.casefold(): v for k, v in (ids or {}).items()}  # a list's "Alice" is the hub's "alice"
    table, _ = per_learner(_graded(rows), fold=True)
    exercises = sorted({ex for mine in table.values() for ex in mine})
    header = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *(titles.get(ex, ex) for ex in exercises)]
    points: list[Any] = ["Points Possible", "", "", "", ""]
    for ex in exercises:
        points.append(next((mine[ex].get("max_score") for mine in table.values() if ex in mine), ""))
    out = [points]
    for learner in sorted(table):
        mine = table[learner]
        who = ids.get(learner.casefold(), {})
        out.append([who.get("name") or learner, who.get("canvas_id", ""), who.get("sis_user_id", ""),
                    who.get("sis_login_id") or learner, who.get("section", ""),
                    *(lms_score(mine[ex]) if ex in mine else "" for ex in exercises)])
    return _csv(header, out)


def moodle_csv(rows: Sequence[Mapping[str, Any]], titles: Mapping[str, str],
               ids: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """A Moodle grade import file: ``ID number`` (map it to the user field "ID number" when
    importing), then one column per exercise named by its title (map each to a grade item).
    ``ID number`` is the class list's ``sis_user_id`` where it gives one (the institution's id,
    what Moodle's ID number holds), else the learner id; ``ids`` as :func:`canvas_csv`'s.

    >>> row = {"learner": "ann", "owner": "ann", "exercise": "01", "score": 3, "max_score": 5, "status": "ok"}
    >>> print(moodle_csv([row], {"01": "Ex 1"}, {"Ann": {"sis_user_id": "S001"}}))
    ID number,Ex 1
    S001,3
    <BLANKLINE>
    """
    ids = {k.casefold(): v for k, v in (ids or {}).items()}
    table, _ = per_learner(_graded(rows), fold=True)
    exercises = sorted({ex for mine in table.values() for ex in mine})
    header = ["ID number", *(titles.get(ex, ex) for ex in exercises)]
    out = [[ids.get(learner.casefold(), {}).get("sis_user_id") or learner,
            *(lms_score(table[learner][ex]) if ex in table[learner] else "" for ex in exercises)]
           for learner in sorted(table)]
    return _csv(header, out)
