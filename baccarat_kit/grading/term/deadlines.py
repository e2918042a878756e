"""Deadlines per learner (a class list) and a stated late policy, as nbgrader offers them.

A class list is a CSV file with a header; the columns read here are ``learner`` (the learner
folder or Hub user: the owner ``collect`` records) and ``deadline`` (ISO 8601, UTC if no zone;
empty: the class deadline), and, for the LMS files, the optional :data:`LMS_COLUMNS` (her name
and the LMS's ids of her: :func:`read_lms_ids`). Other columns are left for other steps. The late policy is
``--late-penalty P%/day`` (or ``/hour``): a late hand-in is kept and flagged, and its score is
reduced by P % of itself for each started day (hour) after the learner's deadline, never below 0.

>>> policy = parse_penalty("10%/day")
>>> policy.factor(0), policy.factor(1), policy.factor(86_400), policy.factor(86_401), policy.factor(10 ** 7)
(1.0, 0.9, 0.9, 0.8, 0.0)
>>> policy.text
'10%/day'
"""

from __future__ import annotations

import csv
import io
import math
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from .collect import CollectError, iso, parse_deadline

UNITS = {"day": 86_400, "hour": 3_600}
MAX_CLASS_LIST_BYTES = 5 * 1024 * 1024


@dataclass(frozen=True)
class LatePenalty:
    """``percent`` of the score per started ``unit`` late (:data:`UNITS`)."""

    percent: float
    unit: str

    @property
    def text(self) -> str:
        return f"{self.percent:g}%/{self.unit}"

    def factor(self, seconds_late: float) -> float:
        """What a score is multiplied by, ``seconds_late`` after the deadline."""
        if seconds_late <= 0:
            return 1.0
        started = math.ceil(seconds_late / UNITS[self.unit])
        return max(0.0, round(1 - started * self.percent / 100, 10))


def parse_penalty(text: str) -> LatePenalty:
    """``"10%/day"``, ``"5%/hour"`` (a percent of the score per started day or hour)."""
    found = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*%\s*/\s*(day|hour)\s*", text)
    if not found or not 0 < float(found.group(1)) <= 100:
        raise CollectError("grading.deadline.bad_penalty", value=text, units=", ".join(UNITS))
    return LatePenalty(float(found.group(1)), found.group(2))


NO_PENALTY = "none"
"""``--late-penalty none``: no late penalty (with ``--update``: not the gradebook's rule either)."""


def penalty_option(text: str) -> LatePenalty | None:
    """``--late-penalty``'s value: a rule (:func:`parse_penalty`) or ``none``.

    >>> penalty_option("none"), penalty_option("5%/hour").text
    (None, '5%/hour')
    """
    return None if text.strip().lower() == NO_PENALTY else parse_penalty(text)


def gradebook_penalty(doc: dict[str, object]) -> LatePenalty | None:
    """The late rule an existing gradebook (``results.json``) was graded with, which ``grade --update``
    keeps for the files it regrades unless ``--late-penalty`` says otherwise: its ``late_policy``
    (written since this was kept), else the one rule its rows were penalised by (an older gradebook);
    None when it had none. Rows penalised by different rules: the caller must be told which applies.

    >>> gradebook_penalty({"late_policy": "10%/day", "submissions": []}).text
    '10%/day'
    >>> gradebook_penalty({"submissions": [{"late_policy": None}, {"late_policy": "5%/hour"}]}).text
    '5%/hour'
    >>> gradebook_penalty({"late_policy": None, "submissions": [{"late_policy": "5%/hour"}]}) is None
    True
    """
    if "late_policy" in doc:
        recorded = doc.get("late_policy")
        return parse_penalty(recorded) if isinstance(recorded, str) and recorded else None
    rows = doc.get("submissions")
    rules = sorted({str(r.get("late_policy")) for r in rows if isinstance(r, dict) and r.get("late_policy")}
                   if isinstance(rows, list) else set())
    if len(rules) > 1:
        raise CollectError("grading.deadline.several_penalties", rules=", ".join(rules))
    return parse_penalty(rules[0]) if rules else None


LMS_COLUMNS = ("name", "canvas_id", "sis_user_id", "sis_login_id", "section")
"""Optional class list columns the LMS files carry (canvas.csv's ``Student``, ``ID``, ``SIS User
ID``, ``SIS Login ID``, ``Section``; an empty one: the kit's default, the learner id or blank)."""


def _rows(path: str | Path) -> list[dict[str, str]]:
    """The class list's rows (a header with ``learner`` required), each value stripped."""
    file = Path(path)
    try:
        raw = file.read_bytes()[:MAX_CLASS_LIST_BYTES + 1]
    except OSError:
        raise CollectError("grading.deadline.no_class_list", path=path) from None
    if len(raw) > MAX_CLASS_LIST_BYTES:
        raise CollectError("grading.deadline.bad_class_list", path=path, columns="learner,deadline")
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as err:  # (a name read with replacement characters is another name)
        raise CollectError("grading.deadline.not_utf8", path=path, line=raw[:err.start].count(b"\n") + 1) from None
    rows = list(csv.DictReader(io.StringIO(text)))
    if rows and len(raw) <= MAX_CLASS_LIST_BYTES and "learner" not in rows[0]:  # say what its header is
        header = ", ".join(repr(str(k)[:40]) for k in list(rows[0])[:10] if k is not None)
        raise CollectError("grading.deadline.no_learner_column", path=path, header=header or "-",
                           columns="learner,deadline")
    if len(raw) > MAX_CLASS_LIST_BYTES or not rows:
        raise CollectError("grading.deadline.bad_class_list", path=path, columns="learner,deadline")
    out = [{str(k): v.strip() for k, v in row.items() if k is not None and isinstance(v, str)} for row in rows]
    _unique_ids(path, out)
    return out


UNIQUE_COLUMNS = ("learner", "canvas_id", "sis_user_id", "sis_login_id")
"""Columns no two learners of a class list share (case aside): a learner twice has two deadlines,
one LMS id twice puts two learners' grades on one LMS user."""


def _unique_ids(path: str | Path, rows: list[dict[str, str]]) -> None:
    """Refuse a class list in which a value of :data:`UNIQUE_COLUMNS` is on more than one row,
    naming the column, the values and their lines (``tests/test_grading_export.py``)."""
    from ..records import visible

    for column in UNIQUE_COLUMNS:
        lines: dict[str, list[int]] = {}
        for n, row in enumerate(rows, 2):
            value = row.get(column, "")
            if value:
                lines.setdefault(value.casefold(), []).append(n)
        twice = [(rows[ns[0] - 2][column], ns) for ns in lines.values() if len(ns) > 1]
        if twice:
            shown = "; ".join(f"'{visible(v, 60)}' ({', '.join(map(str, ns))})" for v, ns in twice[:10])
            raise CollectError("grading.deadline.duplicate", path=path, column=column, values=shown)


def read_lms_ids(path: str | Path) -> dict[str, dict[str, str]]:
    """``{learner: {column: value}}`` of the :data:`LMS_COLUMNS` a class list gives (only the
    non-empty ones; a learner with none is left out).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = Path(d, "c.csv").write_text("learner,name,sis_user_id,canvas_id\\nann,Ann Lee,S001,4711\\nben,,,\\n")
    ...     read_lms_ids(Path(d, "c.csv"))
    {'ann': {'name': 'Ann Lee', 'canvas_id': '4711', 'sis_user_id': 'S001'}}
    """
    out: dict[str, dict[str, str]] = {}
    for row in _rows(path):
        ids = {c: row[c] for c in LMS_COLUMNS if row.get(c)}
        if row.get("learner") and ids:
            out[row["learner"]] = ids
    return out


def read_roster(path: str | Path) -> list[tuple[str, str | None]]:
    """``(learner, deadline or None)`` of every row of a class list, in its order (the one parser
    of class lists: ``grade``/``collect`` read the deadlines, ``release --class-list`` the learners).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = Path(d, "c.csv").write_text("learner,deadline,name\\nann,2026-12-08T23:59+08:00,Ann\\nben,,Ben\\n")
    ...     read_roster(Path(d, "c.csv"))
    [('ann', '2026-12-08T15:59:00Z'), ('ben', None)]
    """
    rows = _rows(path)
    out: list[tuple[str, str | None]] = []
    for n, row in enumerate(rows, 2):
        learner = (row.get("learner") or "").strip()
        when = (row.get("deadline") or "").strip()
        if not learner:
            continue
        try:
            out.append((learner, iso(parse_deadline(when)) if when else None))
        except CollectError:
            raise CollectError("grading.deadline.bad_row", path=path, line=n, value=when) from None
    return out


def read_class_list(path: str | Path) -> dict[str, str]:
    """``{learner: deadline}`` (ISO UTC) of the learners of a class list with their own deadline.

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as d:
    ...     _ = Path(d, "c.csv").write_text("learner,deadline,name\\nann,2026-12-08T23:59+08:00,Ann\\nben,,Ben\\n")
    ...     read_class_list(Path(d, "c.csv"))
    {'ann': '2026-12-08T15:59:00Z'}
    """
    return {learner: when for learner, when in read_roster(path) if when}


@dataclass(frozen=True)
class TermDeadlines:
    """The deadlines a batch is graded with, and where each came from (``given``: this command's
    option; ``kept``: the gradebook's ``results.json``; ``none``: neither)."""

    deadline: str | None
    deadlines: dict[str, str]
    class_list: str | None
    """The class list's file as it was given (information only: its deadlines are kept, not the path)."""
    deadline_from: str
    class_list_from: str
    lms: dict[str, dict[str, str]] = field(default_factory=dict)
    """The LMS ids the class list gives (:func:`read_lms_ids`), for canvas.csv."""

    def record(self) -> dict[str, object]:
        """What ``results.json`` keeps of them for the next ``grade --update``."""
        return {"deadline": self.deadline,
                "class_list": ({"file": self.class_list, "deadlines": dict(self.deadlines),
                                **({"lms": dict(self.lms)} if self.lms else {})}
                               if self.class_list_from != "none" else None)}


def term_deadlines(deadline: str | None, class_list: str | None, doc: dict[str, object] | None = None
                   ) -> TermDeadlines:
    """``--deadline`` and ``--class-list`` of a batch; with ``doc`` (the gradebook ``--update``
    writes into), each one not given is the gradebook's (its ``deadline`` and ``class_list``, kept
    since issue 35; an older gradebook has neither, and then none is used, as before).

    >>> kept = {"deadline": "2026-12-08T15:59:00Z", "class_list": {"file": "c.csv", "deadlines": {"ann": "2026-12-09T00:00:00Z"}}}
    >>> t = term_deadlines(None, None, kept)
    >>> t.deadline, t.deadlines, t.deadline_from, t.class_list_from
    ('2026-12-08T15:59:00Z', {'ann': '2026-12-09T00:00:00Z'}, 'kept', 'kept')
    >>> t = term_deadlines("2026-12-10T00:00Z", None, kept)
    >>> t.deadline, t.deadline_from, t.class_list_from
    ('2026-12-10T00:00:00Z', 'given', 'kept')
    >>> t = term_deadlines(None, None, {"submissions": []})
    >>> t.deadline, t.deadlines, t.deadline_from, t.class_list_from
    (None, {}, 'none', 'none')
    """
    given_deadline = iso(parse_deadline(deadline)) if deadline else None
    given = read_class_list(class_list) if class_list else {}
    kept_deadline, kept_list = _kept(doc) if doc is not None else (None, None)
    if given_deadline is not None:
        when, when_from = given_deadline, "given"
    elif kept_deadline is not None:
        when, when_from = kept_deadline, "kept"
    else:
        when, when_from = None, "none"
    if class_list:
        return TermDeadlines(when, given, str(class_list), when_from, "given", read_lms_ids(class_list))
    if kept_list is not None:
        return TermDeadlines(when, kept_list[1], kept_list[0], when_from, "kept", kept_lms(doc or {}))
    return TermDeadlines(when, {}, None, when_from, "none")


def kept_lms(doc: Mapping[str, object]) -> dict[str, dict[str, str]]:
    """The LMS ids a gradebook recorded with its class list (``{}``: none, or not as written here)."""
    record = doc.get("class_list")
    lms = record.get("lms") if isinstance(record, dict) else None
    if not isinstance(lms, dict):
        return {}
    return {str(k): {c: v[c] for c in LMS_COLUMNS if isinstance(v.get(c), str)}
            for k, v in lms.items() if isinstance(v, dict)}


def _kept(doc: dict[str, object]) -> tuple[str | None, tuple[str | None, dict[str, str]] | None]:
    """The deadline and the class list (its file and deadlines) a gradebook recorded; each
    checked as this kit writes it (a value that is not is refused, never half-used)."""
    when = doc.get("deadline")
    if when is not None and not isinstance(when, str):
        raise CollectError("grading.deadline.bad_kept", field="deadline")
    kept_when = iso(parse_deadline(when)) if when else None
    record = doc.get("class_list")
    if record is None:
        return kept_when, None
    if not isinstance(record, dict) or not isinstance(record.get("deadlines"), dict):
        raise CollectError("grading.deadline.bad_kept", field="class_list")
    file = record.get("file")
    deadlines: dict[str, str] = {}
    for learner, value in record["deadlines"].items():
        if not isinstance(learner, str) or not isinstance(value, str):
            raise CollectError("grading.deadline.bad_kept", field="class_list")
        deadlines[learner] = iso(parse_deadline(value))
    return kept_when, (file if isinstance(file, str) else None, deadlines)
