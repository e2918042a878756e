"""What a learner studying alone does today: pure functions of the progress record and the time.

The "today" view (``bk.widgets.TodayView``, at the top of lesson 00's course map and in the
trainer) shows what :func:`today` returns; nothing here needs a widget.

* **Due now** — the drill's cells whose FSRS due time has come (:func:`baccarat_kit.drill.due_cells`),
  most overdue first, in the learner's words (:func:`cell_words`: the engine's item, never a cell id).
* **The daily goal** — drill answers a day, set by the learner (:func:`check_goal`: a whole number
  from :data:`GOAL_MIN` to :data:`GOAL_MAX`; :data:`GOAL_DEFAULT`, 20, until one is set: about
  two minutes of the drill, a third of the sessions the scheduler's replays are measured with).
  It is kept in the record (``daily.goal``, :data:`baccarat_kit.progress.DAILY`).
* **Answers today** — the drill answers (coups included) given on today's calendar day.
* **Study days in a row** (:func:`streak`; not called a "streak", 連續, in the view: the course
  uses that word for runs of banker or player wins) — the number of consecutive calendar days,
  up to today, on each of which the
  drill answers reached the goal (each past day by the goal in force on it). Today counts once
  its goal is met; until the day ends a streak is not broken by today (a learner who met the goal
  yesterday and the five days before has a streak of 6 all today, 7 once today's goal is met, and
  0 only if today ends short of it).
* **Review** — the mistakes of past days (before today): a lesson's self-check or the trainer's
  quiz missed, a prediction missed, an exercise's ``check()`` short of full points, a drill cell
  missed, a final-test item missed. Each says where it came from and what, in the learner's words,
  with the day of its latest miss, and whether it has been put right since (a later right answer;
  a final-test item is not asked again, so it stays to review).

**Days here are calendar days in UTC**, so a learner in Taipei starts a new day at 08:00 local
time. (The drill's mastery never counts dates: it counts elapsed time, :data:`baccarat_kit.drill.SPACING`.) The dates come from the record's
``daily`` part (:func:`baccarat_kit.progress.log_changes`); a record written before it has no
daily counts (no streak yet) and its mistakes are dated by their latest answer.

>>> DAY = 86400.0
>>> record = {"daily": {"goal": 2, "days": {"2027-01-13": {"drill": 3}, "2027-01-14": {"drill": 2}}}}
>>> t = 1_800_000_000.0                      # 2027-01-15, 08:00 UTC
>>> streak(record, t), answers_on(record, "2027-01-15")   # today not met yet: the streak lives
(2, 0)
>>> record["daily"]["days"]["2027-01-15"] = {"drill": 2}
>>> streak(record, t), streak(record, t + 2 * DAY)        # today met; two days later: broken
(3, 0)
>>> check_goal("30"), goal({})
(30, 20)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, timedelta
from functools import cache
from typing import Any

from . import progress
from .i18n import LANGUAGES, BaccaratError, both, message
from .progress import GOAL_DEFAULT, GOAL_MAX, GOAL_MIN, day_of, score_text

__all__ = ["GOAL_DEFAULT", "GOAL_MAX", "GOAL_MIN", "GoalError", "Mistake", "Today", "answers_on", "cell_words",
           "check_goal", "day_of", "due", "goal", "record_goal", "review", "set_goal", "streak", "today"]


class GoalError(BaccaratError):
    """A daily goal that is not a whole number of drill answers in range."""


def check_goal(value: Any) -> int:
    """``value`` (a number, or text a learner typed) as a daily goal, or a :class:`GoalError`
    that shows the bad value and the valid range.

    >>> check_goal(" 25 ")
    25
    >>> try:
    ...     check_goal("0")
    ... except GoalError as err:
    ...     print(err.message("en"))
    '0' is not a daily goal: use a whole number of drill answers from 1 to 500 (the default is 20).
    """
    number: int | None = None
    if isinstance(value, int) and not isinstance(value, bool):
        number = value
    elif isinstance(value, float) and value.is_integer():
        number = int(value)
    elif isinstance(value, str) and value.strip().isdecimal() and value.strip().isascii():
        number = int(value.strip())
    if number is None or not GOAL_MIN <= number <= GOAL_MAX:
        raise GoalError("today.goal-invalid", value=value if isinstance(value, str) else repr(value),
                        low=GOAL_MIN, high=GOAL_MAX, default=GOAL_DEFAULT)
    return number


def _daily(record: Mapping[str, Any]) -> Mapping[str, Any]:
    daily = record.get("daily")
    return daily if isinstance(daily, Mapping) else {}


def goal(record: Mapping[str, Any]) -> int:
    """The learner's daily goal (:data:`GOAL_DEFAULT` until one is set)."""
    return progress.daily_goal(dict(record))


def set_goal(record: dict[str, Any], value: Any, now: float) -> int:
    """Set the daily goal in ``record`` (checked by :func:`check_goal`; nothing changes on a bad
    value); today's entry, if any, takes the new goal."""
    new = check_goal(value)
    daily = record.setdefault("daily", {})
    daily["goal"], daily["t"] = new, float(now)
    entry = daily.get("days", {}).get(day_of(now))
    if isinstance(entry, dict):
        entry["goal"] = new
    return new


def record_goal(value: Any) -> int:
    """Set the daily goal in the learner's record (:func:`baccarat_kit.progress.update`)."""
    import time

    new = check_goal(value)  # a bad value raises before the record is touched
    progress.update(lambda r: set_goal(r, new, time.time()))
    return new


def answers_on(record: Mapping[str, Any], day: str) -> int:
    """Drill answers given on ``day`` (``"YYYY-MM-DD"``, UTC)."""
    entry = _daily(record).get("days", {}).get(day)
    return int(entry.get("drill", 0)) if isinstance(entry, Mapping) else 0


def _met(record: Mapping[str, Any], day: str, today: bool) -> bool:
    entry = _daily(record).get("days", {}).get(day)
    if not isinstance(entry, Mapping):
        return False
    own = entry.get("goal")
    target = goal(record) if today or not isinstance(own, int) else own
    return int(entry.get("drill", 0)) >= target


def streak(record: Mapping[str, Any], now: float) -> int:
    """Consecutive days, up to today, whose drill answers reached the goal (module docstring:
    today counts once met, and does not break the streak before it ends)."""
    day = date.fromisoformat(day_of(now))
    count = 1 if _met(record, day.isoformat(), True) else 0
    day -= timedelta(days=1)
    while _met(record, day.isoformat(), False):
        count += 1
        day -= timedelta(days=1)
    return count


def due(record: Mapping[str, Any], now: float) -> list[str]:
    """The drill's cells due at ``now``, most overdue first."""
    from .drill import due_cells

    cells = record.get("drill", {}).get("cells", {})
    return due_cells(cells if isinstance(cells, Mapping) else {}, now)


def cell_words(cell: str, lang: str) -> str:
    """A drill cell in the learner's words, from the engine's item, as the drill names it
    (``widgets.drill.cell-*``: the heat map, the leech notes).

    >>> cell_words("banker-3-vs-8", "en"), cell_words("banker-6-player-stood", "zh")
    ('banker 3 against a player third card 8', '閒家停牌時莊家 6 點')
    >>> cell_words("banker-6-player-stood", "en"), cell_words("player-5", "zh"), cell_words("natural-8", "en")
    ('banker 6 when the player stood', '閒家 5 點', 'a first-two-card total of 8')
    """
    from .drill import item

    p = item(cell).params
    if cell.startswith("natural-"):
        return message("widgets.drill.cell-natural", lang, total=p["total"])
    if cell.startswith("player-"):
        return message("widgets.drill.cell-player", lang, total=p["total"])
    if p["third"] is None:
        return message("widgets.drill.cell-banker-stood", lang, total=p["total"])
    return message("widgets.drill.cell-banker", lang, total=p["total"], value=p["third"])


# ---------------------------------------------------------------- mistakes of past days
@dataclass(frozen=True)
class Mistake:
    """A mistake of a past day: ``kind`` (``quiz``, ``exercise``, ``drill``, ``final``), where it
    came from and what it was (in each language), the day (UTC) and time of its latest miss
    before today, how many misses before today, and whether it has been put right since."""

    kind: str
    key: str
    where: dict[str, str]
    what: dict[str, str]
    day: str
    t: float
    misses: int
    fixed: bool


@cache
def _questions(name: str) -> dict[str, tuple[int, dict[str, str]]]:
    """A lesson's (or the trainer's) quiz: question id → (its number, its prompt in each language);
    {} where the question sets cannot be read (no ipywidgets)."""
    try:
        from .widgets.question_sets import lesson_names, lesson_questions

        if name not in lesson_names():
            return {}
        return {q.id: (i + 1, dict(q.prompt)) for i, q in enumerate(lesson_questions(name))}
    except Exception:
        return {}


@cache
def _exercise_titles() -> dict[str, dict[str, str]]:
    """Exercise id → its title in each language, from the learner copies' metadata."""
    titles: dict[str, dict[str, str]] = {}
    for root in progress.course_roots("exercises"):
        for path in sorted((root / "exercises").glob("*.ipynb")):
            try:
                meta = json.loads(path.read_text(encoding="utf-8"))["metadata"]["baccarat_kit"]
                title = meta.get("title") or {}
                if all(isinstance(title.get(lang), str) for lang in LANGUAGES):
                    titles[str(meta["exercise"])] = {lang: title[lang] for lang in LANGUAGES}
            except (OSError, ValueError, KeyError, TypeError):
                continue
        if titles:
            break
    return titles


_ASKS = {"banker_decision": "today.predict-banker", "player_decision": "today.predict-player",
         "winner": "today.predict-winner", "returned": "today.predict-returned"}


def _quiz_words(quiz: str, qid: str, lesson: str | None) -> tuple[dict[str, str], dict[str, str]]:
    if quiz == "predict":  # "05/en/BCR-001:winner", or (older) "BCR-001:winner"
        path, _colon, asks = qid.rpartition(":")
        case = path.split("/")[-1]
        where_lesson = path.split("/")[0] if "/" in path else (lesson or "")
        where = (both("today.from-predict", lesson=where_lesson) if where_lesson
                 else both("today.from-predict-any"))
        return where, both(_ASKS.get(asks, "today.predict-other"), case=case)
    where = (both("today.from-lesson", lesson=quiz) if quiz.isdigit() else
             both("today.from-trainer") if quiz == "trainer" else both("today.from-quiz", name=quiz))
    found = _questions(quiz).get(qid)
    if found is None:
        return where, both("today.question-unknown")
    number, prompt = found
    return where, {lang: message("today.question", lang, number=number, prompt=prompt.get(lang, ""))
                   for lang in LANGUAGES}


def _words(miss: Mapping[str, Any]) -> tuple[dict[str, str], dict[str, str]]:
    kind = miss["kind"]
    if kind == "drill":
        return both("today.from-drill"), {lang: cell_words(str(miss["id"]), lang) for lang in LANGUAGES}
    if kind == "quiz":
        return _quiz_words(str(miss["quiz"]), str(miss["id"]), miss.get("lesson"))
    if kind == "exercise":
        ex = str(miss["exercise"])
        title = _exercise_titles().get(ex) or both("today.from-exercise", id=ex)
        score = miss.get("score")
        what = (both("today.exercise-score", qid=miss["id"], score=score_text(float(score)), points=miss["points"])
                if score is not None and miss.get("points") is not None
                else both("today.exercise-check", qid=miss["id"]))
        return dict(title), what
    attempt = miss.get("attempt")
    where = both("today.from-final-attempt", attempt=attempt) if attempt else both("today.from-final")
    mid = miss.get("misconception")
    if mid:
        from .misconceptions import get

        try:
            found = get(str(mid))
            return where, {lang: f"{found.claim(lang)} → {found.correction(lang)}" for lang in LANGUAGES}
        except Exception:
            pass
    lesson = str(miss.get("lesson") or "")
    return where, (both("today.final-lesson", lesson=lesson) if lesson else both("today.question-unknown"))


def _item_key(miss: Mapping[str, Any]) -> str:
    kind = miss["kind"]
    place = miss.get("quiz") if kind == "quiz" else miss.get("exercise") if kind == "exercise" else ""
    return f"{kind}:{place}:{miss['id']}"


def _logged_and_old(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every miss the record holds: those logged (``daily.misses``), then, for an item with none
    logged (a record from before the log), its latest wrong answer as the record keeps it."""
    misses = [dict(m) for m in _daily(record).get("misses", []) if isinstance(m, Mapping) and "kind" in m]
    logged = {_item_key(m) for m in misses}
    older: list[dict[str, Any]] = []
    for name, quiz in (record.get("quizzes") or {}).items():
        for qid, ans in (quiz.get("answers") or {}).items():
            if isinstance(ans, Mapping) and (ans.get("first") is False or ans.get("right") is False):
                older.append({"kind": "quiz", "quiz": name, "id": qid, "t": float(ans.get("t", 0)),
                              "lesson": ans.get("lesson")})
    for ex, entry in (record.get("exercises") or {}).items():
        for qid, q in (entry.get("questions") or {}).items():
            if isinstance(q, Mapping) and float(q.get("score", 0)) < int(q.get("points", 0)):
                older.append({"kind": "exercise", "exercise": ex, "id": qid, "t": float(q.get("t", 0)),
                              "score": q.get("score"), "points": q.get("points")})
    for cell, entry in ((record.get("drill") or {}).get("cells") or {}).items():
        if isinstance(entry, Mapping) and entry.get("last") == "wrong":
            older.append({"kind": "drill", "id": cell, "t": float(entry.get("t", 0))})
    final = record.get("final") or {}
    for m in final.get("missed", []) or []:
        older.append({"kind": "final", "id": m.get("id", ""), "lesson": m.get("lesson", ""),
                      "misconception": m.get("misconception"), "attempt": final.get("attempt"),
                      "t": float(final.get("t", 0))})
    return misses + [m for m in older if _item_key(m) not in logged and m["t"] > 0]


def _fixed(record: Mapping[str, Any], miss: Mapping[str, Any], since: float) -> bool:
    """Whether the item of ``miss`` has been answered right after ``since`` (its latest miss)."""
    kind = miss["kind"]
    if kind == "drill":
        entry = ((record.get("drill") or {}).get("cells") or {}).get(miss["id"]) or {}
        return entry.get("last") == "right" and float(entry.get("t", 0)) > since
    if kind == "quiz":
        ans = (((record.get("quizzes") or {}).get(miss["quiz"]) or {}).get("answers") or {}).get(miss["id"]) or {}
        if float(ans.get("t", 0)) <= since:
            return False
        if "right" in ans:
            return ans["right"] is True
        key = progress._answer_key(str(miss["quiz"])) or {}
        return miss["id"] in key and str(ans.get("answer")) == str(key[miss["id"]])
    if kind == "exercise":
        q = (((record.get("exercises") or {}).get(miss["exercise"]) or {}).get("questions") or {}).get(miss["id"]) or {}
        return float(q.get("t", 0)) > since and float(q.get("score", 0)) >= int(q.get("points", 1))
    return False  # a final-test item is not asked again


def review(record: Mapping[str, Any], now: float) -> list[Mistake]:
    """The mistakes of past days (before today, UTC), one per item (its latest miss before
    today): those not put right first, then the newest first."""
    today = day_of(now)
    items: dict[str, list[dict[str, Any]]] = {}
    for miss in _logged_and_old(record):
        items.setdefault(_item_key(miss), []).append(miss)
    out = []
    for key, misses in items.items():
        past = sorted((m for m in misses if day_of(float(m["t"])) < today), key=lambda m: float(m["t"]))
        if not past:
            continue
        latest = past[-1]
        last_miss = max(float(m["t"]) for m in misses)
        where, what = _words(latest)
        out.append(Mistake(kind=latest["kind"], key=key, where=where, what=what, day=day_of(float(latest["t"])),
                           t=float(latest["t"]), misses=len(past), fixed=_fixed(record, latest, last_miss)))
    return sorted(out, key=lambda m: (m.fixed, -m.t, m.key))


# ---------------------------------------------------------------- the whole view
@dataclass(frozen=True)
class Today:
    """Everything the today view shows at one moment (:func:`today`)."""

    day: str
    goal: int
    done: int
    streak: int
    due: tuple[str, ...]
    review: tuple[Mistake, ...]

    @property
    def met(self) -> bool:
        """Whether today's answers have reached the goal."""
        return self.done >= self.goal

    @property
    def left(self) -> int:
        """Answers still to give today to reach the goal."""
        return max(0, self.goal - self.done)


def today(record: Mapping[str, Any], now: float) -> Today:
    """The today view of ``record`` at ``now`` (seconds since the epoch).

    >>> t = today({}, 1_800_000_000.0)
    >>> t.day, t.goal, t.done, t.streak, t.due, t.review, t.left
    ('2027-01-15', 20, 0, 0, (), (), 20)
    """
    day = day_of(now)
    return Today(day=day, goal=goal(record), done=answers_on(record, day), streak=streak(record, now),
                 due=tuple(due(record, now)), review=tuple(review(record, now)))
