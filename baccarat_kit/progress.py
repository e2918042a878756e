"""The learner's progress record: quiz answers, drill results and exercise checks that last.

One small JSON file in the learner's own folder (never in the tracked repository, never in
``notebooks/``), shared by both language editions:

* ``BACCARAT_KIT_PROGRESS`` — a file, or a folder to hold :data:`FILENAME` (the tests and the
  nbval runs point it at a folder of their own, so stored outputs show the empty state);
* otherwise the course folder found from the notebook's folder upwards — the folder with the
  course manifest (``baccarat-kit course`` / ``make lab``) or with both ``notebooks/`` and
  ``exercises/`` (the JupyterLite site, whose files live in the browser's storage, so the record
  does too) — unless that folder is a git checkout (the repository itself): then the home folder.

Lessons, exercises, the drill, the final test and the trainer (``baccarat-kit trainer`` runs
it with :func:`environment` of the course folder) all keep their progress in this one file.

**Reading never fails.** The file is read with a bound (:data:`MAX_BYTES`) and every field is
checked (:func:`validate`): an entry of the wrong shape is ignored, the good ones are kept, and
one :class:`ProgressWarning` names the file and what was ignored. A file that could not be read
whole is never overwritten: before the next write it is moved aside
(``.baccarat-progress.json.unreadable-<time>``). The record is versioned (:data:`SCHEMA`); older
records are read and upgraded.

The record is plain data; every entry carries ``t`` (seconds since the epoch) so that
:func:`merge` (an import) keeps the newer of two entries. :func:`export` writes a visible copy a
learner can download (JupyterLite: before clearing the browser), :func:`import_file` merges one
back.

>>> import tempfile, os
>>> with tempfile.TemporaryDirectory() as tmp:
...     os.environ[PROGRESS_ENV] = tmp
...     record_check("03-banker-rule", "q5", 3.5, 4, 11, ["q1", "q5"])
...     record_quiz("04", "banker-5-vs-8", "1", True, 1)
...     load()["exercises"]["03-banker-rule"]["questions"]["q5"]["score"]
3.5
>>> del os.environ[PROGRESS_ENV]
"""

from __future__ import annotations

import copy
import json
import math
import os
import re
import secrets
import stat
import time
import warnings
import weakref
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from .i18n import message, normalize_language
from .locations import write_atomic

PROGRESS_ENV = "BACCARAT_KIT_PROGRESS"
FILENAME = ".baccarat-progress.json"
EXPORT_NAME = "baccarat-progress-export.json"
SCHEMA = 2
"""2: the drill's cells carry FSRS cards (1: Leitner boxes; read and upgraded)."""
MAX_BYTES = 4 * 2**20
"""A record larger than this is not read (a whole course's record is a few tens of kB)."""
BACKUP_SUFFIX = ".unreadable-"
COURSE_MANIFEST = ".baccarat-kit-course.json"
SECTIONS = ("quizzes", "drill", "exercises", "final")
DAILY = "daily"
"""The part of the record the "today" view reads (:mod:`baccarat_kit.today`), absent from a
record written before it (and then simply empty):

* ``goal`` — the learner's daily goal, drill answers a day (:data:`GOAL_MIN`–:data:`GOAL_MAX`;
  :func:`baccarat_kit.today.check_goal`),
  with ``t``, when it was set (an import keeps the newer goal);
* ``days`` — per calendar day (UTC, ``"2026-12-04"``): ``drill``, the drill answers given that day,
  and ``goal``, the goal in force at its last answer (so a day's streak is judged by its own goal);
* ``misses`` — the mistakes, each dated (``t``): ``kind`` ``quiz`` (``quiz``, ``id``: a lesson's
  self-check question, the trainer's quiz, a prediction), ``exercise`` (``exercise``, ``id``: a
  ``check()`` that did not give full points, with ``score`` and ``points``), ``drill`` (``id``: the
  cell) or ``final`` (``id``, ``lesson``, ``misconception``, ``attempt``: a missed test item).

:func:`update` writes them: it compares the record before and after each change (the drill's
answers, a quiz answer, a check, a final test), so every widget that writes the record is
counted without knowing of it. At most :data:`MAX_MISSES` misses and :data:`MAX_DAYS` days are
kept (the newest)."""
MAX_MISSES = 500
MAX_DAYS = 800
GOAL_DEFAULT = 20
"""The daily goal until the learner sets one: 20 drill answers (about two minutes)."""
GOAL_MIN = 1
GOAL_MAX = 500


def daily_goal(record: Record) -> int:
    """The learner's daily goal (:data:`GOAL_DEFAULT` until one is set; :func:`baccarat_kit.today.goal`)."""
    daily = record.get(DAILY)
    value = daily.get("goal") if isinstance(daily, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) and GOAL_MIN <= value <= GOAL_MAX \
        else GOAL_DEFAULT

Record = dict[str, Any]


def empty() -> Record:
    """A record with nothing in it."""
    return {"schema": SCHEMA, "quizzes": {}, "drill": {"cells": {}, "step": 0}, "exercises": {}, "final": {}}


def course_folder(start: Path | None = None) -> Path | None:
    """The learner's course folder above ``start`` (default: the current folder), if any."""
    here = (start or Path.cwd()).resolve()
    for folder in [here, *here.parents][:4]:
        if (folder / COURSE_MANIFEST).is_file() or ((folder / "notebooks").is_dir() and (folder / "exercises").is_dir()):
            return folder
    return None


def location(start: Path | None = None) -> Path:
    """Where the record is kept (see the module docstring)."""
    env = os.environ.get(PROGRESS_ENV, "").strip()
    if env:
        path = Path(env).expanduser()
        return path / FILENAME if path.is_dir() or not path.suffix else path
    folder = course_folder(start)
    if folder is None or (folder / ".git").exists():
        return Path.home() / FILENAME
    return folder / FILENAME


# ---------------------------------------------------------------- reading: bounded, checked
class ProgressWarning(UserWarning):
    """A progress record (or part of one) could not be read: it is ignored, the rest is kept."""


_WARNED: set[tuple[str, str]] = set()


def _num(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    try:
        number = float(value)
    except OverflowError:  # an integer of hundreds of digits
        return None
    return number if math.isfinite(number) else None


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


class _Check:
    """Collects what was dropped while a record is read (``where: what``)."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def bad(self, where: str, expected: str, value: Any) -> None:
        self.problems.append(f"{where}: expected {expected}, found {type(value).__name__}")

    def table(self, value: Any, where: str) -> dict[str, Any]:
        """``value`` if it is a JSON object (string keys), else {} (noted)."""
        if isinstance(value, dict):
            return value
        self.bad(where, "an object", value)
        return {}

    def pick(self, raw: dict[str, Any], where: str, spec: dict[str, Callable[[Any], Any]],
             out: dict[str, Any]) -> None:
        """Each field of ``spec`` that ``raw`` has into ``out`` if it passes its check (else noted)."""
        for key, check in spec.items():
            if key in raw:
                value = check(raw[key])
                if value is None:
                    self.bad(f"{where}.{key}" if where else key, check.expected, raw[key])  # type: ignore[attr-defined]
                else:
                    out[key] = value

    def fields(self, raw: dict[str, Any], where: str, spec: dict[str, Callable[[Any], Any]],
               required: tuple[str, ...] = ()) -> dict[str, Any] | None:
        """The fields of ``raw`` that pass their check in ``spec`` (others dropped, noted);
        extra scalar fields are kept as they are (a newer kit's). None when a required one fails."""
        out: dict[str, Any] = {}
        for key, value in raw.items():
            check = spec.get(key)
            if check is None:
                if isinstance(value, str | bool) or _num(value) is not None or value is None:
                    out[key] = value
                else:
                    self.bad(f"{where}.{key}", "a number, text or true/false", value)
                continue
            good = check(value)
            if good is None and value is not None:
                self.bad(f"{where}.{key}", getattr(check, "expected", "another type"), value)
            elif good is not None:
                out[key] = good
        missing = [k for k in required if k not in out]
        if missing:
            self.problems.append(f"{where}: no valid {', '.join(missing)} (entry ignored)")
            return None
        return out


def _expects(text: str) -> Callable[[Callable[[Any], Any]], Callable[[Any], Any]]:
    def wrap(check: Callable[[Any], Any]) -> Callable[[Any], Any]:
        check.expected = text  # type: ignore[attr-defined]
        return check
    return wrap


_NUM = _expects("a number")(_num)
_COUNT = _expects("a whole number ≥ 0")(_count)
_BOOL = _expects("true or false")(lambda v: v if isinstance(v, bool) else None)
_TEXT = _expects("text")(lambda v: v if isinstance(v, str) else str(v) if _count(v) is not None else None)
_TEXTS = _expects("a list of texts")(
    lambda v: [str(x) for x in v] if isinstance(v, list) and all(isinstance(x, str) for x in v) else None)
_LAST = _expects('"right" or "wrong"')(lambda v: v if v in ("right", "wrong") else None)
_PACE = _expects('"fast" or "slow"')(lambda v: v if v in ("fast", "slow") else None)
_SHARE = _expects("a number from 0 to 1")(lambda v: v if (n := _num(v)) is not None and 0 <= n <= 1 else None)
_HISTORY = _expects("answers as 1, 0, R, W (at most 64)")(
    lambda v: v if isinstance(v, str) and len(v) <= 64 and set(v) <= set("10RW") else None)
_RULE = _expects("a mastery rule: 1 or 2")(lambda v: v if v in (1, 2) and not isinstance(v, bool) else None)
_SECONDS = _expects("seconds from 1 to 60")(lambda v: v if (n := _num(v)) is not None and 1 <= n <= 60 else None)


@_expects("an FSRS card (state 1–3, due time)")
def _fsrs_card(value: Any) -> dict[str, Any] | None:
    if not isinstance(value, dict):
        return None
    state, due = value.get("state"), _num(value.get("due"))
    if state not in (1, 2, 3) or isinstance(state, bool) or due is None:
        return None
    step = value.get("step")
    if step is not None and _count(step) is None:
        return None
    out: dict[str, Any] = {"state": state, "step": step, "due": due}
    for key in ("stability", "difficulty", "last_review"):
        number = _num(value.get(key))
        if value.get(key) is not None and (number is None or (key == "stability" and number <= 0)):
            return None
        out[key] = number
    if (out["stability"] is None) != (out["difficulty"] is None) or (state == 2 and out["stability"] is None):
        return None
    return out


def _quizzes(c: _Check, raw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    answer_spec = {"answer": _TEXT, "first": _BOOL, "first_answer": _TEXT, "t": _NUM, "lesson": _TEXT,
                   "lang": _TEXT, "right": _BOOL}
    for name, quiz in c.table(raw, "quizzes").items():
        quiz = c.table(quiz, f"quizzes.{name}")
        entry: dict[str, Any] = {"answers": {}}
        c.pick(quiz, f"quizzes.{name}", {"total": _COUNT}, entry)
        for qid, ans in c.table(quiz.get("answers", {}), f"quizzes.{name}.answers").items():
            where = f"quizzes.{name}.answers.{qid}"
            good = c.fields(c.table(ans, where), where, answer_spec, required=("answer",))
            if good is not None:
                good.setdefault("first", False)
                good.setdefault("first_answer", good["answer"])
                if good["first_answer"].isdigit() != good["answer"].isdigit():  # an option index, or not
                    c.problems.append(f"{where}.first_answer: not the same kind of answer as answer")
                    good["first_answer"] = good["answer"]
                good.setdefault("t", 0.0)
                entry["answers"][qid] = good
        for key, value in quiz.items():  # a newer kit's scalar fields
            if key not in ("answers", "total") and (isinstance(value, str | bool) or _num(value) is not None):
                entry[key] = value
        out[name] = entry
    return out


def _drill(c: _Check, raw: Any) -> dict[str, Any]:
    from .drill import MASTERY_CELLS

    raw = c.table(raw, "drill")
    out: dict[str, Any] = {"cells": {}, "step": 0}
    c.pick(raw, "drill", {"step": _COUNT, "seed": _COUNT, "t": _NUM}, out)
    if "coups" in raw:
        coups = c.fields(c.table(raw["coups"], "drill.coups"), "drill.coups", {"seen": _COUNT, "right": _COUNT})
        if coups is not None:
            out["coups"] = {"seen": coups.get("seen", 0), "right": min(coups.get("right", 0), coups.get("seen", 0))}
    spec = {k: _COUNT for k in ("seen", "right", "lapses", "streak", "fast", "first", "step", "ms", "box",
                                      "slow", "fast_days", "fast_day", "spaced", "base")}
    spec |= {"t": _NUM, "last": _LAST, "pace": _PACE, "fsrs": _fsrs_card, "due": _NUM, "p_known": _SHARE,
             "h": _HISTORY, "anchor": _NUM, "first_right": _BOOL, "suspended": _BOOL}
    if "mastery" in raw:
        mastery = c.fields(c.table(raw["mastery"], "drill.mastery"), "drill.mastery",
                           {"rule": _RULE, "seconds": _SECONDS}, required=("rule", "seconds"))
        if mastery is not None:
            out["mastery"] = mastery
    for cell, entry in c.table(raw.get("cells", {}), "drill.cells").items():
        where = f"drill.cells.{cell}"
        if cell not in MASTERY_CELLS:
            c.problems.append(f"{where}: not a cell of the rule (entry ignored)")
            continue
        good = c.fields(c.table(entry, where), where, spec, required=("seen",))
        if good is None:
            continue
        if "fsrs" not in good:  # schema 1 (a Leitner box, due at an answer number): FSRS starts anew
            good.pop("box", None)
            good.pop("due", None)
            good.setdefault("first", out["step"])  # old cells first, then new ones enter again
        good["right"] = min(good.get("right", 0), good["seen"])
        if "base" in good:
            good["base"] = min(good["base"], good.get("lapses", 0))
        out["cells"][cell] = good
    _upgrade_mastery(out)
    if "rounds" in raw:
        rounds = _drill_rounds(c, raw["rounds"])
        if rounds:
            out["rounds"] = rounds
    return out


def _upgrade_mastery(drill: dict[str, Any]) -> None:
    """A record kept under mastery rule 1 (calendar dates; no ``drill.mastery``), or cells
    without BKT evidence (``h``): each such cell's history is rebuilt from what rule 1 kept (a
    miss if it had one, then its right answers in a row: ``streak``), its P(known) computed from
    it, and its spaced reviews start at its latest answer (its next right, in-time answer 16 h
    or more later is one). Its FSRS card and counts are kept. The record then carries rule 2 and
    the course's mastery time (:data:`baccarat_kit.drill.MASTERY_SECONDS`)."""
    from .drill import HISTORY, MASTERY_RULE, MASTERY_SECONDS, posterior, prior

    cells = drill["cells"]
    old = [c for c, e in cells.items() if "h" not in e]
    for cell in old:
        e = cells[cell]
        e["h"] = (("0" if e.get("lapses") else "") + "1" * int(e.get("streak", 0)))[-HISTORY:]
        e["spaced"] = 0
        e["anchor"] = float(e.get("t", 0.0))
        e.pop("fast_days", None)
        e.pop("fast_day", None)
    if old:
        start = prior(cells)
        for cell in old:
            cells[cell]["p_known"] = round(posterior(cells[cell]["h"], start), 6)
    if drill.get("mastery", {}).get("rule") != MASTERY_RULE:
        drill["mastery"] = {"rule": MASTERY_RULE, "seconds": float(drill.get("mastery", {}).get("seconds",
                                                                                               MASTERY_SECONDS))}


_ROUND_SPEC = {"size": _COUNT, "right": _COUNT, "wrong": _COUNT, "seconds": _NUM, "over": _COUNT,
               "missed": _COUNT, "target": _NUM, "t": _NUM}


def _drill_rounds(c: _Check, raw: Any) -> dict[str, Any]:
    """The drill's timed rounds (``drill.rounds``): how many were finished, the best and the
    latest (size, right, wrong, seconds, cells over target, cells missed, target, when). A
    round whose right answers outnumber its size, or with no valid size, right and seconds, is
    dropped; a record without rounds (older than them) simply has none."""
    raw = c.table(raw, "drill.rounds")
    out: dict[str, Any] = {}
    c.pick(raw, "drill.rounds", {"count": _COUNT}, out)
    for key in ("best", "last"):
        if key not in raw:
            continue
        where = f"drill.rounds.{key}"
        good = c.fields(c.table(raw[key], where), where, _ROUND_SPEC, required=("size", "right", "seconds"))
        if good is None:
            continue
        if good["right"] > good["size"] or good["size"] == 0 or good["seconds"] < 0:
            c.problems.append(f"{where}: {good['right']} right of {good['size']} in {good['seconds']} s "
                              "is not a round (entry ignored)")
            continue
        out[key] = good
    return out


def _exercises_section(c: _Check, raw: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for ex, entry in c.table(raw, "exercises").items():
        where = f"exercises.{ex}"
        entry = c.table(entry, where)
        good: dict[str, Any] = {"questions": {}}
        c.pick(entry, where, {"max": _COUNT, "ids": _TEXTS}, good)
        for qid, q in c.table(entry.get("questions", {}), f"{where}.questions").items():
            qwhere = f"{where}.questions.{qid}"
            fields = c.fields(c.table(q, qwhere), qwhere, {"score": _NUM, "points": _COUNT, "t": _NUM},
                              required=("score", "points"))
            if fields is not None:
                fields.setdefault("t", 0.0)
                good["questions"][qid] = fields
        out[ex] = good
    return out


@_expects("a list of missed questions")
def _missed(value: Any) -> list[dict[str, Any]] | None:
    if not isinstance(value, list):
        return None
    out = []
    for m in value:
        if not isinstance(m, dict) or not isinstance(m.get("id"), str):
            return None
        out.append({"id": m["id"], "lesson": str(m.get("lesson", "")),
                    "misconception": m.get("misconception") if isinstance(m.get("misconception"), str) else None})
    return out


@_expects("a list of attempts (right, total, attempt, t, unfinished, seed, items, answers)")
def _attempts(value: Any) -> list[dict[str, Any]] | None:
    if not isinstance(value, list):
        return None
    out = []
    for a in value:
        if not isinstance(a, dict):
            return None
        right, total = _count(a.get("right")), _count(a.get("total"))
        if right is None or total is None:
            return None
        entry: dict[str, Any] = {"right": min(right, total), "total": total}
        if _count(a.get("attempt")) is not None:
            entry["attempt"] = a["attempt"]
        elif a.get("attempt") is not None:
            return None
        if _num(a.get("t")) is not None:
            entry["t"] = a["t"]
        elif a.get("t") is not None:
            return None
        if a.get("unfinished") is True:
            entry["unfinished"] = True
        kept = _open({"attempt": entry.get("attempt", 0), "seed": a.get("seed"), "items": a.get("items"),
                      "answers": a.get("answers", {})}) if "items" in a else None
        if kept is not None:  # the attempt's questions and first answers: what its score is checked by
            entry.update(seed=kept["seed"], items=kept["items"], answers=kept["answers"])
        elif "items" in a:
            return None
        out.append(entry)
    return out


@_expects("an attempt in progress (attempt, seed, items, answers, right)")
def _open(value: Any) -> dict[str, Any] | None:
    """``final.open``: the final test's attempt in progress (:func:`record_final_answer`)."""
    if not isinstance(value, dict):
        return None
    attempt, items, answers = _count(value.get("attempt")), _TEXTS(value.get("items")), value.get("answers", {})
    seed = value.get("seed")
    if attempt is None or items is None or not isinstance(answers, dict) \
            or not (isinstance(seed, str) or _count(seed) is not None):
        return None
    if any(k not in items or _count(v) is None for k, v in answers.items()):
        return None
    right = _TEXTS(value.get("right", []))
    if right is None or any(k not in answers for k in right):
        return None
    out = {"attempt": attempt, "seed": seed, "items": items, "answers": dict(answers), "right": right}
    if _num(value.get("t")) is not None:
        out["t"] = value["t"]
    return out


def _final(c: _Check, raw: Any) -> dict[str, Any]:
    """The final test's part: the latest completed attempt in full (``right``, ``total``, …),
    ``attempts`` (every completed one) and ``open`` (the one in progress; a record written
    before the kit kept it simply has none)."""
    raw = c.table(raw, "final")
    out: dict[str, Any] = {}
    c.pick(raw, "final", {"open": _open}, out)
    rest = {k: v for k, v in raw.items() if k != "open"}
    if not rest:
        return out
    spec = {"right": _COUNT, "total": _COUNT, "attempt": _COUNT, "t": _NUM, "missed": _missed,
            "asked": _TEXTS, "cells": _TEXTS, "attempts": _attempts}
    good = c.fields(rest, "final", spec) or {}
    if "right" in good and "total" in good:
        good["right"] = min(good["right"], good["total"])
    elif "right" in rest or "total" in rest:  # a latest result without its score: only the list is kept
        c.problems.append("final: no valid right, total (entry ignored)")
        good = {k: v for k, v in good.items() if k == "attempts"}
    else:  # no attempt completed yet (one left unfinished, one in progress)
        good = {k: v for k, v in good.items() if k == "attempts"}
    return {**good, **out}


_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_MISS_KINDS = {"quiz": ("quiz", "id"), "exercise": ("exercise", "id"), "drill": ("id",),
               "final": ("id",)}


def _day_key(value: str) -> bool:
    if not _DAY.match(value):
        return False
    try:
        date.fromisoformat(value)
    except ValueError:
        return False
    return True


@_expects("a daily goal: a whole number of drill answers")
def _goal(value: Any) -> int | None:
    good = _count(value)
    return good if good is not None and GOAL_MIN <= good <= GOAL_MAX else None


def _daily(c: _Check, raw: Any) -> dict[str, Any]:
    raw = c.table(raw, DAILY)
    out: dict[str, Any] = {}
    c.pick(raw, DAILY, {"goal": _goal, "t": _NUM}, out)
    if "days" in raw:
        days: dict[str, Any] = {}
        for key, entry in c.table(raw["days"], f"{DAILY}.days").items():
            where = f"{DAILY}.days.{key}"
            if not _day_key(key):
                c.problems.append(f"{where}: not a date (YYYY-MM-DD) (entry ignored)")
                continue
            good = c.fields(c.table(entry, where), where, {"drill": _COUNT, "goal": _goal}, required=("drill",))
            if good is not None:
                days[key] = good
        out["days"] = dict(sorted(days.items())[-MAX_DAYS:])
    if "misses" in raw:
        misses = []
        value = raw["misses"]
        if not isinstance(value, list):
            c.bad(f"{DAILY}.misses", "a list", value)
            value = []
        spec = {"t": _NUM, "kind": _TEXT, "id": _TEXT, "quiz": _TEXT, "exercise": _TEXT, "lesson": _TEXT,
                "misconception": _TEXT, "score": _NUM, "points": _COUNT, "attempt": _COUNT}
        for i, miss in enumerate(value):
            where = f"{DAILY}.misses[{i}]"
            good = c.fields(c.table(miss, where), where, spec, required=("t", "kind", "id"))
            if good is None:
                continue
            if good["kind"] not in _MISS_KINDS or any(k not in good for k in _MISS_KINDS[good["kind"]]):
                c.problems.append(f"{where}: not a quiz, exercise, drill or final miss (entry ignored)")
                continue
            misses.append(good)
        out["misses"] = sorted(misses, key=lambda m: float(m["t"]))[-MAX_MISSES:]
    return out


FINAL_PASS_MARK = 10
"""The final test's pass mark: 10 right of its 12 questions (:data:`FINAL_QUESTIONS`); a test
of another length passes at the same share, rounded up (:func:`final_pass_mark`)."""
FINAL_QUESTIONS = 12


def final_pass_mark(total: int) -> int:
    """The right answers a final test of ``total`` questions needs to pass (10 of 12).

    >>> final_pass_mark(12), final_pass_mark(6), final_pass_mark(0)
    (10, 5, 1)
    """
    return max(1, -(-total * FINAL_PASS_MARK // FINAL_QUESTIONS))


def final_next_attempt(final: dict[str, Any]) -> int:
    """The number of the next final-test attempt: one more than any attempt the record knows
    (completed, in progress, or counted without a number).

    >>> final_next_attempt({}), final_next_attempt({"attempts": [{"right": 4, "total": 12, "attempt": 1}]})
    (1, 2)
    >>> final_next_attempt({"right": 4, "total": 12, "open": {"attempt": 3}})
    4
    """
    attempts = final_attempts(final)
    numbers = [int(a.get("attempt", 0)) for a in attempts] + [len(attempts), int(final.get("attempt") or 0),
                                                              int((final.get("open") or {}).get("attempt") or 0)]
    return max(numbers) + 1


def final_attempts(final: dict[str, Any]) -> list[dict[str, Any]]:
    """Every final-test attempt the record holds, oldest first. A record written before the
    kit kept a list holds one result: that result is its one attempt."""
    attempts = final.get("attempts")
    if isinstance(attempts, list) and attempts:
        return list(attempts)
    if "right" in final and "total" in final:
        return [{k: final[k] for k in ("right", "total", "attempt", "t") if k in final}]
    return []


def final_checked(final: dict[str, Any]) -> list[dict[str, Any]]:
    """Every attempt of :func:`final_attempts`, its score checked: the record is the learner's
    own file, so an attempt's ``right`` is not taken on its word. A completed attempt keeps its
    draw (``seed``), its questions (``items``) and the first answer to each (``answers``); the
    kit draws the same questions again and counts the answers the engine's keys call right.
    Each attempt comes back with ``right`` as counted (``verified`` True) and ``complete`` (every
    question answered), or, when it cannot be counted (a record written before attempts kept
    their answers, an entry written by hand, the kit's questions changed since), as the record
    says with ``verified`` False: such an attempt is shown, never ticked as a pass.

    What is still trusted: that the answers kept are the ones given first. The file is the
    learner's, and answers written into it by hand that the engine calls right cannot be told
    from answers given in the test."""
    out = []
    for a in final_attempts(final):
        a = dict(a)
        a["verified"] = a["complete"] = False
        items, answers = a.get("items"), a.get("answers")
        if isinstance(items, list) and isinstance(answers, dict) and a.get("attempt") is not None:
            try:
                from .widgets.final_bank import items_for

                found = items_for(items, a.get("seed"), int(a["attempt"]))
            except Exception:  # without ipywidgets (the bare CLI), nothing to count with
                found = None
            if found is not None:
                a["right"] = sum(1 for i in found if answers.get(i.key) == i.question.answer)
                a["total"] = len(found)
                a["complete"] = all(i.key in answers for i in found)
                a["verified"] = True
        out.append(a)
    return out


def final_passed(attempt: dict[str, Any]) -> bool:
    """A checked attempt (:func:`final_checked`) that ticks the map: the course's test (all
    :data:`FINAL_QUESTIONS` questions: ``FinalTest(n=1)`` is practice), counted by the kit, every
    question answered, at the pass mark."""
    return bool(attempt.get("verified") and attempt.get("complete") and not attempt.get("unfinished")
                and attempt["total"] >= FINAL_QUESTIONS and attempt["right"] >= final_pass_mark(attempt["total"]))


def validate(data: Any) -> tuple[Record, list[str]]:
    """The record in ``data`` (parsed JSON) at :data:`SCHEMA`, and what had to be dropped.

    Every field is checked for its type; a bad entry is dropped and the good ones kept. A
    schema-1 record (the drill's Leitner boxes) is upgraded: its cells keep their counts and
    their FSRS cards start due. Top-level parts this kit does not know are kept as they are.

    >>> record, problems = validate({"schema": 1, "quizzes": {"04": {"answers": {"a": {"answer": "1"}, "b": []}}}})
    >>> sorted(record["quizzes"]["04"]["answers"]), problems
    (['a'], ['quizzes.04.answers.b: expected an object, found list', 'quizzes.04.answers.b: no valid answer (entry ignored)'])
    """
    c = _Check()
    record = empty()
    if not isinstance(data, dict):
        return record, [f"!not-object|{type(data).__name__}"]
    schema = data.get("schema", 1)
    if schema not in (1, SCHEMA) or isinstance(schema, bool):
        c.problems.append(f"schema: {schema!r} is not one this kit reads (1 or {SCHEMA}); read as far as it fits")
    c.pick(data, "", {"seed": _COUNT}, record)
    record["quizzes"] = _quizzes(c, data.get("quizzes", {}))
    record["drill"] = _drill(c, data.get("drill", {}))
    record["exercises"] = _exercises_section(c, data.get("exercises", {}))
    record["final"] = _final(c, data.get("final", {}))
    if DAILY in data:
        record[DAILY] = _daily(c, data[DAILY])
    for key, value in data.items():
        if key not in record and key not in (*SECTIONS, DAILY, "schema", "seed"):
            record[key] = value  # another kit's part: kept, never lost
    return record, c.problems


def read(path: Path) -> tuple[Record, list[str]]:
    """The record kept at ``path`` and what could not be read of it (nothing: ``[]``): entries
    as ``where: what``, or one ``!code|detail`` when the whole file could not be read.

    At most :data:`MAX_BYTES` are read; a missing file is an empty record and no problem."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return empty(), []
    except OSError as err:
        return empty(), [f"!unreadable|{err.strerror or err}"]
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return empty(), ["!not-file|"]
        if info.st_size > MAX_BYTES:
            return empty(), [f"!too-big|{info.st_size}"]
        with os.fdopen(fd, "rb", closefd=False) as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as err:
        return empty(), [f"!unreadable|{err.strerror or err}"]
    finally:
        os.close(fd)
    if len(raw) > MAX_BYTES:
        return empty(), [f"!too-big|{len(raw)}"]
    if not raw.strip():
        return empty(), ["!empty|"]
    try:
        data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return empty(), ["!not-utf8|"]
    except (ValueError, RecursionError) as err:
        return empty(), [f"!not-json|{str(err)[:80]}"]
    return validate(data)


def _warn(path: Path, problems: list[str]) -> None:
    """One warning per file and content: what was ignored, and where the copy will go."""
    key = (str(path), "\n".join(problems))
    if key in _WARNED:
        return
    _WARNED.add(key)
    backup_name = path.name + BACKUP_SUFFIX + "…"
    if problems[0].startswith("!"):  # the whole file
        code, _bar, detail = problems[0][1:].partition("|")
        text = message("progress.unreadable", None, path=path, backup=backup_name,
                       why=message(f"progress.why-{code}", None, detail=detail, limit=MAX_BYTES))
    else:
        places = list(dict.fromkeys(p.split(": ", 1)[0] for p in problems))
        shown = ", ".join(places[:4]) + (", …" if len(places) > 4 else "")
        text = message("progress.malformed", None, path=path, n=len(places), places=shown, backup=backup_name)
    warnings.warn(ProgressWarning(text), stacklevel=3)


def kept(write: Callable[[], object], path: Path | None = None) -> bool:
    """Run ``write`` (one of the ``record_…`` functions): False, with one
    :class:`ProgressWarning` per file and reason, when the record could not be written (a
    read-only course folder, a full disk). The widget goes on; the learner is told, once, that
    this session's answers are not being kept. (``progress --import`` calls :func:`update` itself
    and fails loudly instead.)"""
    try:
        write()
    except OSError as err:
        where = path or location()
        key = (str(where), f"not-saved|{type(err).__name__}|{err.errno}")
        if key not in _WARNED:
            _WARNED.add(key)
            why = err.strerror or type(err).__name__
            warnings.warn(ProgressWarning(message("progress.not-saved", None, path=where, why=why)), stacklevel=3)
        return False
    return True


def load(path: Path | None = None) -> Record:
    """The record (an empty one when there is none yet). What cannot be read is ignored with
    one :class:`ProgressWarning` naming the file; the good entries are kept."""
    path = path or location()
    record, problems = read(path)
    if problems:
        _warn(path, problems)
    return record


def save(record: Record, path: Path | None = None) -> Path:
    """Write the record atomically (a temporary file beside it, then a rename)."""
    path = path or location()
    write_atomic(path, json.dumps(record, ensure_ascii=False, indent=1, sort_keys=True).encode("utf-8"))
    return path


def backup(path: Path) -> Path | None:
    """Move the file at ``path`` aside (``<name>.unreadable-<UTC time>``) before it is
    rewritten: a record that could not be read whole is never overwritten."""
    if not path.exists() and not path.is_symlink():
        return None
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    target = path.with_name(f"{path.name}{BACKUP_SUFFIX}{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}{BACKUP_SUFFIX}{stamp}-{n}")
    os.replace(path, target)
    return target


def update(change: Callable[[Record], object], path: Path | None = None, *, log: bool = True) -> Record:
    """Load, apply ``change`` and save: the one way the kit writes the record. The first write
    gives the record its ``seed`` (this learner's order of quiz options and drill cells). A file
    that could not be read whole is moved aside first (:func:`backup`). With ``log`` (not for
    an import) the change is noted, dated, in the record's :data:`DAILY` part
    (:func:`log_changes`), and a drill cell answered since elsewhere is never set back."""
    path = path or location()
    record, problems = read(path)
    if problems:
        _warn(path, problems)
    record.setdefault("seed", secrets.randbelow(2**31))
    before = copy.deepcopy(record) if log else None
    change(record)
    if before is not None:
        _keep_newer_drill(before, record)
        log_changes(before, record, time.time())
    if problems:
        backup(path)
    save(record, path)
    _notify(record, path)
    return record


Watcher = Callable[[Record, Path], object]
_WATCHERS: list[weakref.ref[Any]] = []
"""Who :func:`update` tells of each write, held weakly (:func:`watch`)."""


def watch(callback: Watcher) -> Callable[[], None]:
    """Call ``callback(record, path)`` after each write :func:`update` makes in this process
    (a kernel): the record as written and its file. This is how a view of the record (the today
    view) follows the drill, a quiz or ``check()`` in the same kernel without being asked to
    refresh and without polling. The callback is held weakly (a bound method: as long as its
    object lives; a view that is gone stops being told); it runs after the record is saved, so a
    callback that fails leaves the record written (one :class:`ProgressWarning` says so and the
    other callbacks still run). Returns a function that stops the watching.

    >>> import tempfile, os
    >>> seen = []
    >>> def note(record, path): seen.append(record["quizzes"]["04"]["answers"]["q1"]["answer"])
    >>> stop = watch(note)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     os.environ[PROGRESS_ENV] = tmp
    ...     record_quiz("04", "q1", "2", True, 3)
    ...     stop(); record_quiz("04", "q1", "1", False, 3)
    >>> seen
    ['2']
    >>> del os.environ[PROGRESS_ENV]
    """
    ref: weakref.ref[Any]
    if hasattr(callback, "__self__") and hasattr(callback, "__func__"):
        ref = weakref.WeakMethod(callback)
    else:
        ref = weakref.ref(callback)
    _WATCHERS.append(ref)

    def stop() -> None:
        if ref in _WATCHERS:
            _WATCHERS.remove(ref)
    return stop


def _notify(record: Record, path: Path) -> None:
    for ref in list(_WATCHERS):
        callback = ref()
        if callback is None:
            _WATCHERS.remove(ref)
            continue
        try:
            callback(record, path)
        except Exception as err:  # the record is written: a view that cannot follow must not undo that
            warnings.warn(ProgressWarning(message("progress.watcher-failed", None, path=path,
                                                  error=f"{type(err).__name__}: {err}")), stacklevel=3)


def _keep_newer_drill(before: Record, after: Record) -> None:
    """A drill whose copy of the record is older than the file (a second drill in the same
    kernel, the today view's review, lesson 04 open beside the trainer) writes back every cell
    it holds: a cell answered since elsewhere (a newer ``t``) keeps the file's entry, and the
    answer count and the coups never go down."""
    old, new = before.get("drill", {}), after.get("drill", {})
    cells = new.get("cells", {})
    for cell, entry in old.get("cells", {}).items():
        mine = cells.get(cell)
        if not isinstance(mine, dict) or float(mine.get("t", 0)) < float(entry.get("t", 0)):
            cells[cell] = entry
    if isinstance(old.get("step"), int) and isinstance(new.get("step"), int):
        new["step"] = max(old["step"], new["step"])
    if isinstance(old.get("coups"), dict) and isinstance(new.get("coups"), dict) and \
            int(old["coups"].get("seen", 0)) > int(new["coups"].get("seen", 0)):
        new["coups"] = old["coups"]


def day_of(t: float) -> str:
    """The calendar day (UTC) of ``t`` seconds since the epoch, as the record keys it.

    >>> day_of(0), day_of(1_800_000_000)
    ('1970-01-01', '2027-01-15')
    """
    return datetime.fromtimestamp(float(t), tz=UTC).date().isoformat()


def _add_miss(daily: dict[str, Any], miss: dict[str, Any]) -> None:
    misses = daily.setdefault("misses", [])
    misses.append(miss)
    del misses[:-MAX_MISSES]


def log_changes(before: Record, after: Record, now: float) -> None:
    """Note in ``after``'s :data:`DAILY` part what changed since ``before``: drill answers
    counted on their day (the day of each cell's answer, ``t``), and every new mistake, dated.
    :func:`update` calls it after each change."""
    daily = after.get(DAILY)
    daily = daily if isinstance(daily, dict) else {}
    counts: dict[str, int] = {}
    old_drill, new_drill = before.get("drill", {}), after.get("drill", {})
    old_cells = old_drill.get("cells", {})
    for cell, entry in new_drill.get("cells", {}).items():
        was = old_cells.get(cell) or {}
        answered = int(entry.get("seen", 0)) - int(was.get("seen", 0))
        if answered <= 0 and float(entry.get("t", 0)) > float(was.get("t", 0)):
            answered = 1  # answered by a drill holding an older copy of the cell: one answer still
        if answered <= 0:
            continue
        when = float(entry.get("t", now))
        counts[day_of(when)] = counts.get(day_of(when), 0) + answered
        if int(entry.get("lapses", 0)) > int(was.get("lapses", 0)):
            _add_miss(daily, {"t": when, "kind": "drill", "id": cell})
    coups = int((new_drill.get("coups") or {}).get("seen", 0)) - int((old_drill.get("coups") or {}).get("seen", 0))
    if coups > 0:
        when_coup = day_of(float(new_drill.get("t", now)))
        counts[when_coup] = counts.get(when_coup, 0) + coups
    for name, quiz in after.get("quizzes", {}).items():
        old_answers = (before.get("quizzes", {}).get(name) or {}).get("answers", {})
        for qid, ans in quiz.get("answers", {}).items():
            was = old_answers.get(qid)
            if was == ans:
                continue
            wrong = ans.get("right") is False or (was is None and ans.get("first") is False)
            if wrong:
                _add_miss(daily, {"t": float(ans.get("t", now)), "kind": "quiz", "quiz": name, "id": qid})
    for ex, entry in after.get("exercises", {}).items():
        old_qs = (before.get("exercises", {}).get(ex) or {}).get("questions", {})
        for qid, q in entry.get("questions", {}).items():
            if old_qs.get(qid) != q and float(q.get("score", 0)) < int(q.get("points", 0)):
                _add_miss(daily, {"t": float(q.get("t", now)), "kind": "exercise", "exercise": ex, "id": qid,
                                  "score": float(q["score"]), "points": int(q["points"])})
    final, old_final = after.get("final", {}), before.get("final", {})
    if final and final.get("t") != old_final.get("t"):
        done = {(m.get("id"), m.get("attempt")) for m in daily.get("misses", []) if m.get("kind") == "final"}
        for m in final.get("missed", []) or []:
            if (m.get("id"), final.get("attempt")) in done:
                continue
            miss = {"t": float(final.get("t", now)), "kind": "final", "id": m["id"], "lesson": m.get("lesson", "")}
            if m.get("misconception"):
                miss["misconception"] = m["misconception"]
            if final.get("attempt") is not None:
                miss["attempt"] = final["attempt"]
            _add_miss(daily, miss)
    if counts:
        goal = daily_goal(after)
        days = daily.setdefault("days", {})
        for key, n in counts.items():
            entry = days.setdefault(key, {"drill": 0})
            entry["drill"] = int(entry.get("drill", 0)) + n
            entry["goal"] = goal
        daily["days"] = dict(sorted(days.items())[-MAX_DAYS:])
    if daily:
        after[DAILY] = daily


def course_record(course: str | os.PathLike[str]) -> Path:
    """The record a course folder keeps (what :func:`location` finds from inside it)."""
    return Path(course).expanduser().resolve() / FILENAME


def environment(course: str | os.PathLike[str]) -> dict[str, str]:
    """The environment for a process that must keep its progress in the course folder
    ``course`` whatever its own folder is (``baccarat-kit trainer`` runs Voilà with it, so the
    trainer's drill and quiz write the same file as the lessons and the course map reads it)."""
    return {PROGRESS_ENV: str(course_record(course))}


# ---------------------------------------------------------------- what is recorded
def record_check(exercise: str, qid: str, score: float, points: int, max_score: int,
                 questions: Iterable[str]) -> None:
    """An exercise question checked in a self-study copy (the grader's score)."""
    def change(r: Record) -> None:
        entry = r["exercises"].setdefault(exercise, {"questions": {}})
        entry["max"] = max_score
        entry["ids"] = list(questions)
        entry["questions"][qid] = {"score": score, "points": points, "t": time.time()}
    update(change)


def record_quiz(quiz: str, qid: str, answer: str, first_right: bool, total: int,
                first_answer: str | None = None, *, right: bool | None = None) -> None:
    """A quiz question answered: the latest ``answer`` (``right``: whether it is, when the
    widget knows) and the first one (which is scored)."""
    def change(r: Record) -> None:
        entry = r["quizzes"].setdefault(quiz, {"answers": {}})
        entry["total"] = total
        old = entry["answers"].get(qid) or {}
        entry["answers"][qid] = {"answer": answer, "t": time.time(),
                                 "first": old.get("first", first_right),
                                 "first_answer": old.get("first_answer", first_answer or answer)}
        if right is not None:
            entry["answers"][qid]["right"] = right
    update(change)


def record_predict(lesson: str, key: str, answer: str, first_right: bool, first_answer: str, *,
                   right: bool | None = None) -> None:
    """A predict-first question answered (``bk.widgets.Predict``): kept under
    ``quizzes["predict"]``, ``key`` being ``case id:question``, with the lesson it was asked in."""
    def change(r: Record) -> None:
        entry = r["quizzes"].setdefault("predict", {"answers": {}})
        old = entry["answers"].get(key) or {}
        entry["answers"][key] = {"answer": answer, "lesson": lesson, "t": time.time(),
                                 "first": old.get("first", first_right),
                                 "first_answer": old.get("first_answer", first_answer)}
        if right is not None:
            entry["answers"][key]["right"] = right
    update(change)


def record_final_answer(attempt: int, seed: int | str, items: list[str], item: str, option: int,
                        right: bool) -> dict[str, int]:
    """One answer of the final test's attempt in progress (``final.open``: its number, its
    draw's ``seed``, its ``items`` in order, the first answer to each and the items answered
    right): the first answer to an item stays, whatever is sent after it, so running the cell
    again (or a restart) shows the same attempt with its scored answers. Returns the attempt's
    answers as kept; nothing is written (and ``{}`` returned) when that attempt is already kept.

    An attempt in progress is never dropped: when another attempt begins (a test drawn with
    another seed, or the kit's questions changed), the one left is kept in ``attempts`` with the
    score it had, ``unfinished`` (it never ticks the map).

    >>> import tempfile, os
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     os.environ[PROGRESS_ENV] = tmp
    ...     _ = record_final_answer(1, 7, ["a", "b"], "a", 2, True)
    ...     record_final_answer(1, 7, ["a", "b"], "a", 0, False)   # answered again: the first stays
    ...     _ = record_final_answer(2, 8, ["c", "d"], "c", 1, False)  # attempt 1 left after one answer
    ...     [(a["attempt"], a["right"], a["total"], a.get("unfinished")) for a in load()["final"]["attempts"]]
    {'a': 2}
    [(1, 1, 2, True)]
    >>> del os.environ[PROGRESS_ENV]
    """
    out: dict[str, int] = {}

    def change(r: Record) -> None:
        final = r["final"]
        if any(a.get("attempt") == attempt for a in final_attempts(final)):
            return
        current = final.get("open")
        if not current or current.get("attempt") != attempt or current.get("items") != list(items):
            if current and current.get("answers"):
                _keep_unfinished(r, current)
            current = {"attempt": attempt, "seed": seed, "items": list(items), "answers": {}, "right": []}
        if item not in current["answers"]:
            current["answers"][item] = int(option)
            if right:
                current["right"].append(item)
        current["t"] = time.time()
        r["final"]["open"] = current
        out.update(current["answers"])
    update(change)
    return out


def _keep_unfinished(r: Record, left: dict[str, Any]) -> None:
    """Keep the attempt in progress ``left`` in ``attempts``, as it stood, ``unfinished``."""
    final = r["final"]
    attempts = final_attempts(final)
    if any(a.get("attempt") == left["attempt"] for a in attempts):
        return
    attempts.append({"right": len(left.get("right", [])), "total": len(left["items"]), "attempt": left["attempt"],
                     "t": float(left.get("t", time.time())), "unfinished": True,
                     **{k: left[k] for k in ("seed", "items", "answers") if k in left}})
    final["attempts"] = attempts


def record_final(result: Record) -> None:
    """A final test's attempt completed: the latest one in full (its score, the misconceptions
    shown, the items asked), and its score added to ``attempts``, the list of every completed
    attempt's score; the attempt in progress (``open``) is done. An attempt already kept is
    never changed: its first completion is its score (one test drawn is one attempt)."""
    def change(r: Record) -> None:
        now = time.time()
        final = r["final"]
        current = final.get("open")
        done: dict[str, Any] = {}
        if current and current.get("attempt") == result.get("attempt"):
            done = {k: current[k] for k in ("seed", "items", "answers")}  # how its score is checked
            current = None
        attempts = final_attempts(final)
        if result.get("attempt") is not None and any(a.get("attempt") == result["attempt"] for a in attempts):
            if current is None:
                final.pop("open", None)
            return
        if current and current.get("answers"):  # another attempt left in progress: kept as it stood
            _keep_unfinished(r, current)
            attempts = final_attempts(r["final"])
        attempts.append({k: v for k, v in {"right": result.get("right"), "total": result.get("total"),
                                           "attempt": result.get("attempt"), "t": now, **done}.items()
                         if v is not None})
        r["final"] = {**result, "t": now, "attempts": attempts}
    update(change)


def record_round(summary: dict[str, Any]) -> dict[str, Any]:
    """Keep a finished timed round of the drill (:meth:`baccarat_kit.drill.TimedRound.summary`)
    in the record: ``drill.rounds`` counts the rounds and keeps the latest and the best
    (:func:`baccarat_kit.drill.better_round`). Returns the rounds as kept."""
    from .drill import better_round

    kept_round = {"size": int(summary["size"]), "right": int(summary["right"]), "wrong": int(summary["wrong"]),
                  "seconds": float(summary["seconds"]), "over": len(summary.get("over", ())),
                  "missed": len(summary.get("missed", ())), "t": time.time()}
    if "target" in summary:
        kept_round["target"] = float(summary["target"])
    out: dict[str, Any] = {}

    def change(r: Record) -> None:
        rounds = dict(r["drill"].get("rounds") or {})
        rounds["count"] = int(rounds.get("count", 0)) + 1
        rounds["last"] = kept_round
        if better_round(rounds.get("best"), kept_round):
            rounds["best"] = kept_round
        r["drill"]["rounds"] = rounds
        out.update(rounds)
    update(change)
    return out


# ---------------------------------------------------------------- export and import
def merge(mine: Record, other: Record) -> Record:
    """``mine`` with every entry of ``other`` that is newer (``t``) or missing."""
    def deep(a: Any, b: Any) -> Any:
        if isinstance(a, dict) and isinstance(b, dict):
            if "t" in a or "t" in b:
                return b if float(b.get("t", 0)) > float(a.get("t", 0)) else a
            out = dict(a)
            for key, value in b.items():
                out[key] = deep(a[key], value) if key in a else value
            return out
        return max(a, b) if isinstance(a, int | float) and isinstance(b, int | float) else a
    out = empty()
    if "seed" in mine or "seed" in other:
        out["seed"] = mine.get("seed", other.get("seed"))
    for section in SECTIONS:
        out[section] = deep(mine.get(section, {}), other.get(section, {}))
    if out["final"]:  # the newer final result, with every attempt of both records
        both_attempts = final_attempts(mine.get("final", {})) + final_attempts(other.get("final", {}))
        unique = {(a.get("attempt"), a.get("t"), a["right"], a["total"]): a for a in both_attempts}
        out["final"] = {**out["final"], "attempts": sorted(unique.values(), key=lambda a: float(a.get("t", 0)))}
    daily = _merge_daily(mine.get(DAILY) or {}, other.get(DAILY) or {})
    if daily:
        out[DAILY] = daily
    return out


def _merge_daily(a: dict[str, Any], b: dict[str, Any]) -> dict[str, Any]:
    """The :data:`DAILY` parts of two records: the newer goal, each day's larger count (the same
    export imported twice counts once), every miss of both (once)."""
    out: dict[str, Any] = {}
    goals = [d for d in (a, b) if "goal" in d]
    if goals:
        newer = max(goals, key=lambda d: float(d.get("t", 0)))  # a tie: mine
        out["goal"] = newer["goal"]
        if "t" in newer:
            out["t"] = newer["t"]
    days = {**a.get("days", {})}
    for key, entry in b.get("days", {}).items():
        if key not in days or int(entry.get("drill", 0)) > int(days[key].get("drill", 0)):
            days[key] = entry
    if days:
        out["days"] = dict(sorted(days.items())[-MAX_DAYS:])
    unique = {json.dumps(m, sort_keys=True): m for m in [*a.get("misses", []), *b.get("misses", [])]}
    if unique:
        out["misses"] = sorted(unique.values(), key=lambda m: float(m.get("t", 0)))[-MAX_MISSES:]
    return out


def export(folder: Path | None = None) -> Path:
    """A visible copy of the record (:data:`EXPORT_NAME`) to download and keep."""
    target = (folder or Path.cwd()) / EXPORT_NAME
    return save(load(), target)


def import_file(path: str | Path) -> Record:
    """Merge an exported record into this one (nothing already here is lost)."""
    other = load(Path(path))
    return update(lambda r: r.update(merge(r, other)), log=False)


# ---------------------------------------------------------------- the course map
def _lessons() -> list[tuple[str, int]]:
    from .widgets.question_sets import lesson_names, lesson_questions

    return [(name, len(lesson_questions(name))) for name in lesson_names()]


def course_roots(folder: str) -> Iterator[Path]:
    """The courses that have ``folder`` (``notebooks``, ``exercises``), nearest first: the one
    beside this notebook (:func:`course_folder`), the repository, the kit's packaged copy."""
    from .locations import PACKAGED, repository_root

    for root in (course_folder(), repository_root(), PACKAGED):
        if root is not None and (root / folder).is_dir():
            yield root


def _exercises() -> list[tuple[str, int, list[str]]]:
    """The course's exercises (id, points, question ids), from the learner copies' metadata
    beside the course (or in the kit)."""
    for root in course_roots("exercises"):
        out = []
        for path in sorted((root / "exercises").glob("*.ipynb")):
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]["baccarat_kit"]
                qs = [q for q in meta["questions"] if q.get("kind") != "written"]  # written: scored by hand
                out.append((str(meta["exercise"]), sum(int(q.get("points", 1)) for q in qs),
                            [str(q["id"]) for q in qs]))
            except (OSError, ValueError, KeyError, TypeError):
                continue
        return out
    return []


MASTERY_SHARE = 0.8
"""A lesson's self-check is mastered (ticked ✔ on the course map) when every question has an
answer, at least this share of them was right the first time (4 of 5, 8 of 9), and every
question's latest answer is right (a miss was asked again, with "redo the ones I missed", and
answered right). The first answers measure what the learner knew before any feedback; 80 %
allows one slip in five; the latest answers make sure no rule step is left wrong."""


def lesson_mastered(answers: dict[str, Any], total: int, key: dict[str, int] | None = None) -> bool:
    """Whether a lesson's self-check is mastered (:data:`MASTERY_SHARE`). ``key``: question id →
    the right option (``None``: only the first answers are known).

    >>> a = {f"q{i}": {"answer": "1", "first": i != 0} for i in range(5)}
    >>> lesson_mastered(a, 5), lesson_mastered(a, 5, {f"q{i}": 1 for i in range(5)})
    (True, True)
    >>> lesson_mastered(a, 5, {**{f"q{i}": 1 for i in range(5)}, "q0": 0})   # q0 still wrong
    False
    >>> lesson_mastered({k: {**v, "first": k > "q2"} for k, v in a.items()}, 5)  # 2 of 5 first
    False
    """
    import math

    if key is not None:
        answers = {qid: a for qid, a in answers.items() if qid in key}
    if total <= 0 or len(answers) < total:
        return False
    if sum(1 for a in answers.values() if isinstance(a, dict) and a.get("first")) < math.ceil(MASTERY_SHARE * total):
        return False
    return key is None or all(str(a.get("answer")) == str(key[qid]) for qid, a in answers.items())


def _answer_key(name: str) -> dict[str, int] | None:
    """A lesson's question ids → the right option (the engine's), or None for an unknown set."""
    from .widgets.question_sets import lesson_names, lesson_questions

    try:
        if name not in lesson_names():
            return None
        return {q.id: q.answer for q in lesson_questions(name)}
    except Exception:  # without ipywidgets the map still reads the record
        return None


def course_map(record: Record | None = None, lessons: list[tuple[str, int]] | None = None,
               now: float | None = None) -> list[dict[str, Any]]:
    """One row per lesson quiz, the drill, each exercise and the final test: what is done. The
    drill's row counts the cells mastered at ``now`` (the time by default): mastered and not yet
    due (:func:`baccarat_kit.drill.is_mastered_now`); ``refresh``, the mastered cells due for
    a refresh; ``suspended``."""
    record = record if record is not None else load()
    rows: list[dict[str, Any]] = []
    for name, total in lessons if lessons is not None else _lessons():
        answers = record["quizzes"].get(name, {}).get("answers", {})
        right = sum(1 for a in answers.values() if a.get("first"))
        rows.append({"kind": "lesson", "id": name, "done": lesson_mastered(answers, total, _answer_key(name)),
                     "answered": len(answers), "total": total, "right": right})
    from .drill import MASTERY_CELLS, mastered, refreshes, suspended

    cells = record["drill"].get("cells", {})
    practised = sum(1 for c in MASTERY_CELLS if c in cells)
    now = time.time() if now is None else now
    mastered_now = mastered(cells, now)
    rows.append({"kind": "drill", "id": "drill", "done": mastered_now >= len(MASTERY_CELLS),
                 "answered": practised, "total": len(MASTERY_CELLS), "right": mastered_now,
                 "refresh": len(refreshes(cells, now)), "suspended": len(suspended(cells))})
    for ex, points, ids in _exercises():
        entry = record["exercises"].get(ex, {})
        qs = {k: v for k, v in entry.get("questions", {}).items() if k in ids}
        score = sum(float(q.get("score", 0)) for q in qs.values())
        rows.append({"kind": "exercise", "id": ex, "done": bool(ids) and all(
            i in qs and qs[i]["score"] == qs[i]["points"] for i in ids),
            "answered": len(qs), "total": len(ids), "right": score, "max": points})
    final = record.get("final", {})
    attempts = [a for a in final_checked(final) if a["total"] >= FINAL_QUESTIONS]  # shorter ones are practice
    latest = attempts[-1] if attempts else {"right": 0, "total": 0}
    counted = [a for a in attempts if a["verified"]] or attempts  # an unverified score is no best
    best = max(counted, key=lambda a: (a["right"] / a["total"] if a["total"] else 0, a["right"]), default=latest)
    rows.append({"kind": "final", "id": "final", "done": any(final_passed(a) for a in attempts),
                 "answered": len(attempts), "total": latest["total"], "right": latest["right"],
                 "best": best["right"], "best_total": best["total"], "attempts": len(attempts),
                 "unverified": sum(1 for a in attempts if not a["verified"] and not a.get("unfinished")),
                 "pass_mark": final_pass_mark(latest["total"] or FINAL_QUESTIONS)})
    return rows


def score_text(value: float) -> str:
    """A score as the course map and the today view write it: ``3``, ``2.5``."""
    return str(int(value)) if float(value).is_integer() else str(value)


def describe(row: dict[str, Any], lang: str) -> str:
    """One row of the course map as a sentence."""
    mark = "✔" if row["done"] else "·" if row["answered"] else "○"
    if row["kind"] == "lesson":
        # a lesson's self-check ("00" …), the trainer's quiz (named in words: "測驗 trainer" left
        # an English word in the Chinese edition), or another named quiz
        key = ("progress.lesson" if row["id"].isdigit() else
               "progress.quiz-trainer" if row["id"] == "trainer" else "progress.quiz")
        text = message(key, lang, id=row["id"], answered=row["answered"], total=row["total"],
                       right=row["right"])
    elif row["kind"] == "drill":
        text = message("progress.drill", lang, mastered=row["right"], total=row["total"], seen=row["answered"],
                       refresh=row.get("refresh", 0))
        if row.get("suspended"):
            text += message("progress.drill-suspended", lang, n=row["suspended"])
    elif row["kind"] == "exercise":
        text = message("progress.exercise", lang, id=row["id"], answered=row["answered"], total=row["total"],
                       score=score_text(row["right"]), max=row["max"] or "?")
    else:
        text = (message("progress.final", lang, best=row["best"], best_total=row["best_total"],
                        right=row["right"], total=row["total"], attempts=row["attempts"],
                        pass_mark=row["pass_mark"]) if row["attempts"]
                else message("progress.final-none", lang, pass_mark=final_pass_mark(FINAL_QUESTIONS),
                             total=FINAL_QUESTIONS))
        if row.get("unverified"):
            text += message("progress.final-unverified", lang, n=row["unverified"])
    return f"{mark} {text}"


def report(lang: str | None = None, record: Record | None = None, now: float | None = None) -> str:
    """The course map as text (what ``baccarat-kit progress`` prints)."""
    lang = normalize_language(lang)
    lines = [message("progress.title", lang, path=location())]
    lines += [describe(row, lang) for row in course_map(record, now=now)]
    return "\n".join(lines)


def register(sub: Any) -> None:
    """``baccarat-kit progress [--export DIR] [--import FILE]``: the course map as text."""
    p = sub.add_parser(
        "progress",
        help="show your progress: lessons, drill, exercises, final test / 顯示你的學習進度",
        description="Print the course map from the progress record (BACCARAT_KIT_PROGRESS or the "
                    "course folder's .baccarat-progress.json).",
    )
    p.add_argument("--export", metavar="DIR", default=None, help="write a copy of the record into DIR")
    p.add_argument("--import", dest="import_", metavar="FILE", default=None,
                   help="merge an exported record into yours (nothing of yours is lost)")
    p.set_defaults(func=_cmd_progress)


def _cmd_progress(args: Any) -> int:
    if args.import_:
        import_file(args.import_)
    if args.export:
        print(message("progress.exported", args.lang, path=export(Path(args.export))))
        return 0
    print(report(args.lang))
    return 0
