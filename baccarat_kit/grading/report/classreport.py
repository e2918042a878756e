"""The class report: ``baccarat-kit report GRADED_DIR [--out FILE] [--lang zh|en]``.

One self-contained HTML page made from a graded folder's ``results.json`` (no network: styles,
its one script and the charts, SVG built in pure Python by :mod:`.charts`, are inline; a Content-Security-Policy
forbids every other source and any other script). It holds, in the instructor's language:

1. per exercise, the score distribution and each question's success rate, hardest first;
2. the misconceptions the class showed: how many learners, on which questions, one example
   answer without a name, and a link to the lesson section that teaches the correction
   (``lesson`` in ``baccarat_kit/data/misconceptions.toml``);
3. a learners × exercises grid (text in every cell, shaded by score, late and refused submissions
   marked), kept as data in the page (:func:`grid_data`) and shown by the script 100 learners a page,
   sorted by any column and searched by name over the whole class (10,000 learners' rows as
   markup took 22 s to open in Chromium);
4. the grading statuses that need the instructor's eye (timeouts, refused files, sandbox
   refusals, failed grading, warnings).

and the item analysis (:mod:`.items`: each question's difficulty, discrimination, options and flags;
``templates/items.html.j2``).

``results.json`` is read tolerantly: fields added by later graders (per submission
``graded_at``, ``submitted_at``, ``late``; per question ``text``, ``answer``, ``misconception``,
fractional ``score``) are used when present; without them there is no late flag, the question
id stands for its text and misconceptions come only from the messages that name them.

The pipeline is three small steps: :func:`load_results` (the JSON), :func:`build_report`
(the numbers, a :class:`ClassReport`) and :func:`render_html` (the page); :func:`write_report`
runs them and writes the file atomically.
"""

from __future__ import annotations

import gc
import json
import os
import re
import statistics
import sys
import tempfile
import tomllib
import urllib.parse
from collections import Counter
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cache
from itertools import repeat
from pathlib import Path
from typing import Any

from ...errors import BaccaratError
from ...i18n import message, normalize_language
from ..records import visible
from ..term.export import counting_order
from ..term.index import Indexed, read_index
from .items import ExerciseStat, ItemStat, QuestionStat, analyse, page_rows, source_exercises

GENERATOR = "baccarat-kit report"
CATEGORIES = ("timeout", "refused", "sandbox", "failed", "warning", "other")
STATUS_CATEGORY = {
    "cell_timeout": "timeout", "notebook_timeout": "timeout", "function_timeout": "timeout",
    "wall_limit": "timeout", "batch_limit": "failed",
    "not_json": "refused", "not_notebook": "refused", "too_large": "refused",
    "unknown_exercise": "refused", "unreadable": "refused", "skipped": "refused",
    "hidden_file": "refused", "refused": "refused", "needs_secret": "refused", "other_secret": "refused",
    "kernel_died": "sandbox", "kernel_broken": "sandbox", "no_answers": "sandbox",
    "worker_failed": "failed", "kernel_start": "failed",
    "not_attempted": "not_attempted",  # (a grid mark only: nothing in the list to look at)
}
"""Which heading a submission status goes under (an unknown status goes under "other")."""
_EPS = 1e-9
_REPO = Path(__file__).resolve().parents[3]
_MISCONCEPTION_IN_MESSAGE = re.compile(r"misconception \[([a-z0-9-]+)\]")
_OPTION_IN_MESSAGE = re.compile(r"^Option (\S+) is not right")


class ReportError(BaccaratError):
    """A graded folder without a usable results.json, or an --out that must not be overwritten."""


# ---------------------------------------------------------------- the numbers
@dataclass
class Cell:
    """One learner's chosen submission of one exercise."""

    score: float
    max_score: float
    status: str
    late: bool | None
    files: int
    file: str
    submitted_at: str | None = None
    mismatch: bool = False
    """Its ``LEARNER_ID`` names another learner (``identity_mismatch``): a copy of someone else's?"""
    pending: float = 0.0
    """Points of its written answers not scored by hand yet: its score is not final."""


@dataclass
class MisconceptionStat:
    id: str
    learners: set[str] = field(default_factory=set)
    questions: Counter[tuple[str, str]] = field(default_factory=Counter)
    answers: Counter[str] = field(default_factory=Counter)

    def example(self) -> str | None:
        """The most frequent recorded answer (ties: the first in text order); no learner named."""
        if not self.answers:
            return None
        top = max(self.answers.values())
        return min(a for a, n in self.answers.items() if n == top)


@dataclass
class Attention:
    category: str
    file: str
    learner: str
    exercise: str
    question: str
    detail: dict[str, str]


@dataclass
class Learner:
    key: str
    label: str
    known: bool


@dataclass
class ClassReport:
    exercises: list[ExerciseStat]
    learners: list[Learner]
    cells: dict[tuple[str, str], Cell]
    misconceptions: list[MisconceptionStat]
    attention: list[Attention]
    sandbox: str
    submissions: int
    graded_at: str | None
    items: list[ItemStat] = field(default_factory=list)
    """Each question's item analysis (:mod:`.items`)."""
    _totals: dict[str, float] | None = field(default=None, repr=False, compare=False)

    def total(self, learner: str) -> tuple[float, float]:
        """(score, maximum) over every exercise of the class; a missing submission scores 0."""
        if self._totals is None:
            self._totals = {}
            for (lk, _), c in self.cells.items():
                self._totals[lk] = self._totals.get(lk, 0.0) + c.score
        return self._totals.get(learner, 0.0), sum(e.max_score for e in self.exercises)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector off for a step that makes millions of objects and no
    cycles: the results of 10,000 learners are about 20 million objects, and the collector went
    over them again and again (half the time of reading them, more than half of the page's).
    Also a decorator (a ``contextmanager`` is one)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


@_collector_paused()
def load_results(graded: str | Path) -> dict[str, Any]:
    """``results.json`` of a graded folder (or the file itself), checked for its shape: what the
    report reads of it, from its index (:mod:`.index`) when that is the index of the file as it
    is now, else from the whole file."""
    path = Path(graded)
    file = path / "results.json" if path.is_dir() else path
    if not file.is_file():
        raise ReportError("report.error.no_results", path=graded)
    doc = read_index(file)
    if doc is None:
        try:
            doc = json.loads(file.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, ValueError) as err:
            raise ReportError("report.error.bad_results", path=file, detail=type(err).__name__) from None
    if not isinstance(doc, dict) or not isinstance(doc.get("submissions"), list):
        raise ReportError("report.error.bad_results", path=file, detail="no list of submissions")
    subs = doc["submissions"]
    if not (set(map(type, subs)) <= {dict} and set(map(type, map(dict.get, subs, repeat("file"), repeat("")))) <= {str}):
        for i, sub in enumerate(subs):  # (which one: each checked in C above, 60,000 rows)
            if not isinstance(sub, dict) or not isinstance(sub.get("file", ""), str):
                raise ReportError("report.error.bad_results", path=file, detail=f"submission {i + 1}")
    from ..term.gradebook import upgrade  # an older schema: learners by owner, like the exports

    try:
        return upgrade(doc)
    except BaccaratError as err:
        raise ReportError("report.error.bad_results", path=file, detail=str(err)) from None


def _exercise_of(file: str, known: Sequence[str]) -> str | None:
    """The exercise a file's name says (``03-banker-rule.ipynb``, ``03-…``): a broken file of a
    learner is shown in her row as refused, not as not handed in."""
    stem = Path(file).stem
    for ex_id in sorted(known):
        number = ex_id.split("-", 1)[0]
        if stem.startswith(ex_id) or (number.isdigit() and stem.startswith(number + "-")):
            return ex_id
    return None


_FLOAT_MAX = int(sys.float_info.max)


def _number(value: Any) -> float | None:
    """A number of results.json as a float; None for anything else: text, true, null, NaN,
    infinity, or an integer beyond a float (shown as a missing number is, not as a crash).

    >>> [_number(x) for x in (7, 2.5, "7", True, float("nan"), float("inf"), 10 ** 400)]
    [7.0, 2.5, None, None, None, None, None]
    """
    kind = type(value)
    if kind is float:  # (the common cases first: a class of 10,000 has 900,000 numbers)
        return value if value - value == 0.0 else None
    if kind is int:
        return float(value) if -_FLOAT_MAX <= value <= _FLOAT_MAX else None
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return _number(float(value)) if -_FLOAT_MAX <= value <= _FLOAT_MAX else None


def _num(value: Any, default: float = 0.0) -> float:
    if type(value) is float and value - value == 0.0:
        return value
    if type(value) is int and -_FLOAT_MAX <= value <= _FLOAT_MAX:
        return float(value)
    number = _number(value)
    return default if number is None else number


def _texts(value: Any, fallback: str) -> dict[str, str]:
    if isinstance(value, dict):
        return {lang: str(value.get(lang) or value.get("en") or value.get("zh") or fallback) for lang in ("zh", "en")}
    if isinstance(value, str) and value:
        return {"zh": value, "en": value}
    return {"zh": fallback, "en": fallback}


@cache
def _exercise_titles() -> dict[str, dict[str, str]]:
    """Titles of the kit's own exercises (results.json does not carry them); {} without sources."""
    return {k: dict(v.title) for k, v in source_exercises().items()}


@cache
def _known_misconceptions() -> frozenset[str]:
    from ...misconceptions import all_misconceptions

    return frozenset(m.id for m in all_misconceptions())


@cache
def _message_pattern(key: str) -> re.Pattern[str]:
    """A message of the locale files as a pattern (its ``{fields}`` match anything)."""
    from ...i18n import catalogue

    text = catalogue()[key]["en"]
    parts = re.split(r"\{[a-z_]+\}", text)
    return re.compile(".*?".join(re.escape(p) for p in parts), re.S)


def _question_misconception(q: dict[str, Any]) -> str | None:
    if "misconception" in q:  # the field of the class workflow: trusted when present, even null
        mid = q["misconception"]
        return mid if isinstance(mid, str) and mid in _known_misconceptions() else None
    if q.get("passed") is True:
        return None
    msg = q.get("message", {})
    found = _MISCONCEPTION_IN_MESSAGE.search(str(msg.get("en", ""))) if isinstance(msg, dict) else None
    return found.group(1) if found and found.group(1) in _known_misconceptions() else None


def _question_answer(q: dict[str, Any], mid: str | None = None) -> str | None:
    """The answer to show as an example of misconception ``mid``: for a function answer (shown as
    ``def …``, which says nothing) its first wrong cell that ``mid`` explains, as ``(3, 8) → True``.

    >>> _question_answer({"answer": "def …", "wrong": [{"input": [4, 3], "got": "False", "misconception": None},
    ...                   {"input": [3, 8], "got": "True", "misconception": "banker-3-always"}]}, "banker-3-always")
    '(3, 8) → True'
    """
    cells = [w for w in q.get("wrong") or [] if isinstance(w, dict) and isinstance(w.get("input"), list)]
    cells = [w for w in cells if w.get("misconception") == mid] or cells
    if cells:
        w = cells[0]
        return f"({', '.join(repr(a) for a in w['input'])}) → {w.get('got', '')}"[:200]
    if "answer" in q:
        return None if q["answer"] is None else str(q["answer"])[:200]
    msg = q.get("message", {})
    found = _OPTION_IN_MESSAGE.search(str(msg.get("en", ""))) if isinstance(msg, dict) else None
    return found.group(1) if found else None


def short_names(files: Sequence[str]) -> dict[str, str]:
    """File names without the folder they all share (the grader records absolute paths).

    >>> short_names(["/srv/t1/alice/03.ipynb", "/srv/t1/bob/03.ipynb"])["/srv/t1/bob/03.ipynb"]
    'bob/03.ipynb'
    """
    # (a path's folder depends only on what precedes its last "/": dirname once per folder)
    dirs = {os.path.dirname(head) for head in {f[:f.rfind("/") + 1] for f in set(files) if f}}
    try:
        base = os.path.commonpath(dirs) if dirs and all(os.path.isabs(d) for d in dirs) else ""
    except ValueError:
        base = ""
    if not base:
        return {f: f for f in files}
    # (a folder's own files, as relpath writes them, by slicing: 60,000 relpath calls were 0.3 s)
    under = base.rstrip("/") + "/"
    return {f: f[len(under):] if f.startswith(under) and "/." not in f and "//" not in f
            else os.path.relpath(f, base) if f else f for f in set(files)}


@_collector_paused()
def build_report(doc: dict[str, Any]) -> ClassReport:
    """The numbers of the report from a results document (see the module docstring)."""
    subs = [s for s in doc["submissions"] if isinstance(s, dict)]
    titles = _exercise_titles()
    learners: dict[str, Learner] = {}
    chosen: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
    exercises: dict[str, ExerciseStat] = {}
    attention: list[Attention] = []
    known_ids = sorted({e for e in set(map(dict.get, subs, repeat("exercise"))) if isinstance(e, str) and e}
                       | set(titles))
    handed_in = len(subs)  # what was graded or refused by the grader; collect's refusals are not submissions
    for entry in doc.get("skipped") or []:  # refused at collect (a link, a FIFO, too large …)
        if isinstance(entry, dict) and entry.get("owner"):
            subs.append({"file": str(entry.get("file", "")), "learner": str(entry["owner"]),
                         "owner": entry["owner"], "exercise": None, "status": "refused", "score": 0,
                         "max_score": None, "reason": {k: entry.get(k, "") for k in ("zh", "en")},
                         "_collect_refused": True})
    names = [f if type(f) is str else str(f) for f in map(dict.get, subs, repeat("file"), repeat(""))]
    short = short_names(names)
    counts: dict[tuple[str, str], int] = {}
    for i, sub in enumerate(subs):  # (a loop of 60,000 rows: each step as plain as it can be)
        file = short[names[i]]
        raw = sub.get("learner")
        lid = raw.strip() if isinstance(raw, str) else ""
        person = lid.casefold() if lid else "\0" + file  # (a file of no id is a row of its own)
        ex = sub.get("exercise")
        status = sub.get("status", "?")
        if status != "ok":
            status = str(status)
            if not ex and lid:
                ex = _exercise_of(file, known_ids)  # shown where it belongs, as refused
            if status != "not_attempted":  # (no answer handed in: nothing to look at)
                attention.append(Attention(STATUS_CATEGORY.get(status, "other"), file, lid, str(ex or ""), "",
                                           _texts(sub.get("reason"), status)))
        if person not in learners and ((lid and not sub.get("_collect_refused")) or (isinstance(ex, str) and ex)):
            learners[person] = Learner(person, lid or file, bool(lid))  # a file of no exercise and no id: no row; nor a refused folder
        warnings = sub.get("warnings")
        if warnings:
            for w in warnings:
                attention.append(Attention("warning", file, lid, str(ex or ""), "", _texts(w, "?")))
        if not isinstance(ex, str) or not ex:
            continue
        stat = exercises.get(ex)  # (not setdefault: that would make a stat for every row)
        if stat is None:
            stat = exercises[ex] = ExerciseStat(ex, titles.get(ex, {"zh": ex, "en": ex}), 0.0)
        most = _num(sub.get("max_score"))
        if most > stat.max_score:
            stat.max_score = most
        key = (person, ex)
        before = chosen.get(key)
        if before is None:
            chosen[key] = (i, sub)
            counts[key] = 1
            continue
        counts[key] += 1
        # The row the exports and return count (export.counting_order: an answered copy, the latest hand-in, then
        # one whose claim names no one else, then the latest graded), else the later in the file.
        if (counting_order(sub), i) >= (counting_order(before[1]), before[0]):
            chosen[key] = (i, sub)
    cells: dict[tuple[str, str], Cell] = {}
    found: dict[str, MisconceptionStat] = {}
    by_id: dict[str, dict[str, QuestionStat]] = {}  # each exercise's questions by id
    # Each question's facts by id(question) when the questions are shared (the index's: a few
    # thousand among 600,000): once per question. Else (each question its own) once per row.
    facts: dict[int, _Facts] | None = {} if isinstance(doc, Indexed) else None
    graded_rows: dict[str, list[Any]] = {}
    for key, (_, sub) in chosen.items():
        stat = exercises[key[1]]
        ok = sub.get("status") == "ok"
        score = _num(sub.get("score")) if ok else 0.0
        late = sub.get("late") if isinstance(sub.get("late"), bool) else None
        submitted = sub.get("submitted_at") if isinstance(sub.get("submitted_at"), str) else None
        file = short[str(sub.get("file", ""))]
        pending = _num(sub.get("pending_points")) if ok else 0.0
        cells[key] = Cell(score, _num(sub.get("max_score"), stat.max_score), str(sub.get("status", "?")),
                          late, counts[key], file, submitted, sub.get("identity_mismatch") is True, pending)
        if not ok:
            if sub.get("status") == "not_attempted":
                stat.not_attempted += 1
            else:
                stat.not_graded += 1
            continue
        stat.pending_points += pending
        stat.scores.append(score)
        questions = sub.get("questions")
        graded_rows.setdefault(stat.id, []).append(questions)  # (for the item analysis)
        known = by_id.setdefault(stat.id, {})
        who = learners[key[0]]
        for qid, q in (questions.items() if isinstance(questions, dict) else ()):
            fact = facts.get(id(q)) if facts is not None else None
            if fact is None:
                if not isinstance(q, dict):
                    continue
                fact = _question_facts(q)
                if facts is not None:
                    facts[id(q)] = fact
            own_points, got, flag, mid, answer = fact
            qs = known.get(qid)
            if qs is None:
                qs = QuestionStat(stat.id, str(qid), _texts(q.get("text"), str(qid)),
                                  1.0 if own_points is None else own_points)
                stat.questions.append(qs)
                known[qid] = qs
            points = qs.points if own_points is None else own_points
            if points > qs.points:
                qs.points = points
            if isinstance(q, dict) and q.get("pending") is True:
                qs.pending += 1
                continue  # a written answer not scored by hand yet: not a 0, not counted
            qs.graded += 1
            qs.earned += got
            if got >= points - _EPS and points > 0:
                qs.full += 1
            if flag is not None:
                attention.append(Attention(flag[0], file, who.label if who.known else "", stat.id, str(qid), flag[1]))
            if mid and got < points - _EPS:
                qs.misconceptions[mid] += 1
                m = found.get(mid)
                if m is None:
                    m = found[mid] = MisconceptionStat(mid)
                m.learners.add(key[0])
                m.questions[(stat.id, str(qid))] += 1
                if answer is not None:
                    m.answers[answer] += 1
    order = {k: i for i, k in enumerate(_known_misconceptions_order())}
    misconceptions = sorted(found.values(), key=lambda m: (-len(m.learners), order.get(m.id, 999), m.id))
    rank = {c: i for i, c in enumerate(CATEGORIES)}
    attention.sort(key=lambda a: (rank[a.category], a.file, a.exercise, a.question))
    stamps = [str(s["graded_at"]) for s in subs if isinstance(s.get("graded_at"), str)]
    limits = doc.get("limits")
    limits = limits if isinstance(limits, dict) else {}
    ordered = [exercises[k] for k in sorted(exercises)]
    return ClassReport(
        ordered,
        sorted(learners.values(), key=lambda lr: (not lr.known, lr.label.casefold(), lr.label)),
        cells, misconceptions, attention, str(limits.get("sandbox", "")), handed_in,
        max(stamps) if stamps else None, analyse(graded_rows, ordered),
    )


def _known_misconceptions_order() -> list[str]:
    from ...misconceptions import all_misconceptions

    return [m.id for m in all_misconceptions()]


_Facts = tuple[float | None, float, tuple[str, dict[str, str]] | None, str | None, str | None]
"""What the report takes from one question, whoever answered it: its points (None: not a number;
the question's most points stand for them), its score, :func:`_question_attention`,
:func:`_question_misconception` (counted only when the score is below the points) and
:func:`_question_answer` of that misconception."""


def _question_facts(q: dict[str, Any]) -> _Facts:
    points, score = _number(q.get("points")), _num(q.get("score"))
    if q.get("passed") is True and not q.get("misconception"):  # (most answers: no status, no misconception)
        return points, score, None, None, None
    mid = _question_misconception(q)
    return points, score, _question_attention(q), mid, _question_answer(q, mid) if mid else None


def _question_attention(q: dict[str, Any]) -> tuple[str, dict[str, str]] | None:
    """Question-level statuses (category, detail): a function answer refused for reaching the
    kit, or timed out."""
    if q.get("passed") is True:
        return None
    msg = _texts(q.get("message"), "")
    checks = q.get("checks")
    failed = {c.get("check") for c in (checks if isinstance(checks, list) else [])
              if isinstance(c, dict) and c.get("passed") is False}
    if "own-work" in failed:
        return "sandbox", {lang: message("report.sandbox_refusal.own_work", lang, message=msg[lang]) for lang in ("zh", "en")}
    elif any(_message_pattern(f"grading.reason.function_timeout{clock}").search(msg["en"]) for clock in ("", "_wall")):
        return "timeout", msg
    return None


# ---------------------------------------------------------------- lesson links
@cache
def lesson_links() -> dict[str, str]:
    """``{misconception id: "NN-lesson.ipynb#heading-id"}`` from misconceptions.toml."""
    from ... import misconceptions

    data = tomllib.loads(misconceptions._FILE.read_text(encoding="utf-8"))
    return {m["id"]: m["lesson"] for m in data["misconception"] if m.get("lesson")}


def heading_id(markdown_heading: str) -> str:
    """The id JupyterLab (and nbconvert) give a Markdown heading: its text, spaces as ``-``.

    >>> heading_id("## 4. 補牌後的 8、9 不是例牌")
    '4.-補牌後的-8、9-不是例牌'
    >>> heading_id("## 4. 規則引擎：`import baccarat_kit as bk`")
    '4.-規則引擎：import-baccarat_kit-as-bk'
    """
    text = markdown_heading.lstrip("#").strip()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text).replace("`", "").replace("**", "")
    return text.replace(" ", "-")


def notebook_headings(notebook: Path) -> dict[str, str]:
    """``{heading id: heading text}`` of a lesson notebook's Markdown headings."""
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    out: dict[str, str] = {}
    for cell in nb.get("cells", []):
        if cell.get("cell_type") != "markdown":
            continue
        src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
        for line in src.splitlines():
            if re.match(r"^#{1,6} ", line):
                out.setdefault(heading_id(line), line.lstrip("#").strip().replace("`", ""))
    return out


def _lesson_label(lesson: str) -> str:
    """'04-banker-rule · 7. 一整局…': the notebook and its heading (read from the checkout)."""
    file, _, anchor = lesson.partition("#")
    heading = anchor.replace("-", " ")
    path = _REPO / "notebooks" / file
    if path.is_file():
        try:
            heading = notebook_headings(path).get(anchor, heading)
        except (ValueError, KeyError):
            pass
    return f"{Path(file).stem} · {heading}"


def default_lessons_url(out: Path) -> str:
    """The kit's ``notebooks/`` folder relative to the report (``notebooks/`` without a checkout)."""
    folder = _REPO / "notebooks"
    if not folder.is_dir():
        return "notebooks/"
    rel = os.path.relpath(folder, out.resolve().parent)
    return Path(rel).as_posix().rstrip("/") + "/"


def lesson_href(lesson: str, base: str) -> str:
    """The link to a lesson section under ``base`` (a folder: ``…/notebooks`` and ``…/notebooks/``
    are the same folder, so a ``--lessons-url`` without its last slash still links).

    >>> lesson_href("03-player-rule.ipynb#2.-x", "http://127.0.0.1:8888/lab/tree/notebooks")
    'http://127.0.0.1:8888/lab/tree/notebooks/03-player-rule.ipynb#2.-x'
    """
    file, _, anchor = lesson.partition("#")
    if base and not base.endswith("/"):
        base += "/"
    return base + urllib.parse.quote(file) + ("#" + urllib.parse.quote(anchor, safe="-._~") if anchor else "")


# ---------------------------------------------------------------- the page
def fmt(value: float) -> str:
    """A score: whole numbers without decimals, else up to two (``7``, ``7.5``, ``2.67``)."""
    if abs(value - round(value)) < _EPS:
        return str(round(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


def pct(value: float) -> str:
    return f"{100 * value:.0f}%"


def exercise_plot(ex: ExerciseStat, lang: str, salt: str) -> str:
    """The score histogram of an exercise (:func:`.charts.bar_chart`): one bar per point value (a
    fractional score counts in the bar of its whole part). Each question's success rate is a bar
    in its table row."""
    from .charts import bar_chart

    top = int(ex.max_score) if ex.max_score else 1
    bins = Counter(min(int(s + _EPS), top) for s in ex.scores)
    xs = list(range(top + 1))
    return bar_chart(xs, [bins.get(x, 0) for x in xs], message("report.plot.scores", lang),
                     message("report.plot.learners", lang), message("report.plot.dist_caption", lang, exercise=ex.id),
                     salt)


def misconception_plot(ms: Sequence[MisconceptionStat], lang: str, salt: str) -> str:
    """Learners per misconception, the most common on top (:func:`.charts.hbar_chart`)."""
    from .charts import hbar_chart

    return hbar_chart([m.id for m in ms], [len(m.learners) for m in ms], message("report.plot.learners", lang),
                      message("report.misconceptions.caption", lang), salt)


SCRIPT = """
(function () {
  // The learners x exercises grid: its rows are data (the script block #grid-data, see
  // classreport.grid_data), shown a page at a time; sorting and finding work on all of them.
  var table = document.querySelector('table.grid'), store = document.getElementById('grid-data');
  if (!table || !store) return;
  var data = JSON.parse(store.textContent), body = table.tBodies[0], size = data.page;
  var find = document.getElementById('grid-find'), status = document.getElementById('grid-status');
  var prev = document.getElementById('grid-prev'), next = document.getElementById('grid-next');
  var all = data.rows.map(function (r, i) { r.i = i; return r; }), shown = all, first = 0;
  var collator = new Intl.Collator(document.documentElement.lang);
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function shade(share) { return 'h' + Math.round(97 - 40 * Math.max(0, Math.min(1, share))); }
  function mark(cls, text) { return el('span', cls, text); }
  function cell(c, j) {
    if (c === null) {
      var td = el('td', 'missing', '\u2014 ');
      td.dataset.v = '-1';
      td.appendChild(mark('mark', data.marks.missing));
      return td;
    }
    var most = c[5] === undefined || c[5] === null ? data.max[j] : c[5];
    var state = c[4] || '', tips = [c[1]], cls = state ? 'refused' : shade(most ? c[0] / most : 0);
    var marks = [];
    if (state) { marks.push(mark('mark r', data.status[state])); tips.push(state); }
    if (c[3] & 1) { cls += ' late'; marks.push(mark('mark l', data.marks.late)); }
    if (c[2]) tips.push(c[2]);
    if (c[3] & 2) marks.push(mark('mark w', data.marks.mismatch));
    if (c[3] & 4) marks.push(mark('mark p', data.marks.pending));
    if (c[6] > 1) { marks.push(mark('mark', '\u00d7' + c[6])); tips.push(data.files[c[6]]); }
    var td = el('td', cls, (state === 'not_attempted' ? '\u2014' : c[0]) + '/' + most);  // (not scored: no 0)
    td.dataset.score = c[0];
    if (c[5] !== undefined && c[5] !== null) td.dataset.max = c[5];
    if (state) td.dataset.status = state;
    td.title = tips.join(' \u00b7 ');
    marks.forEach(function (m) { td.appendChild(m); });
    return td;
  }
  function row(r, n) {
    var tr = el('tr'), lr = el('td', r[3] ? 'lr' : 'lr unknown', r[0]);
    tr.setAttribute('aria-rowindex', String(n + 2));
    if (r[1] !== r[0]) lr.dataset.v = r[1];
    if (r[2]) lr.title = r[2];
    tr.appendChild(lr);
    for (var j = 0; j < data.max.length; j++) tr.appendChild(cell(r[5 + j], j));
    var share = data.top ? r[4] / data.top : 0, tot = el('td', 'tot ' + shade(share), r[4] + '/' + data.top + ' ');
    tot.dataset.v = r[4];
    tot.appendChild(mark('mark', Math.round(100 * share) + '%'));
    if (r.slice(5).some(function (c) { return c && (c[3] & 4); })) tot.appendChild(mark('mark p', data.marks.pending));
    tr.appendChild(tot);
    return tr;
  }
  function draw() {
    var last = Math.min(first + size, shown.length), frag = document.createDocumentFragment();
    for (var n = first; n < last; n++) frag.appendChild(row(shown[n], n));
    body.replaceChildren(frag);
    table.setAttribute('aria-rowcount', String(shown.length + 1));
    status.textContent = shown.length ? data.marks.showing.replace('{first}', first + 1).replace('{last}', last)
      .replace('{count}', shown.length) : data.marks.none.replace('{query}', find.value);
    prev.disabled = first === 0;
    next.disabled = last >= shown.length;
  }
  function key(r, col, numeric) {
    if (!numeric) return r[1];
    if (col > data.max.length) return r[4];
    var c = r[4 + col];
    if (c === null) return -1;
    var most = c[5] === undefined || c[5] === null ? data.max[col - 1] : c[5];
    return most ? c[0] / most : 0;
  }
  table.querySelectorAll('thead button[data-col]').forEach(function (button) {
    button.addEventListener('click', function () {
      var col = Number(button.dataset.col), numeric = button.dataset.type === 'number';
      var th = button.closest('th'), now = th.getAttribute('aria-sort');
      var dir = now ? (now === 'descending' ? 1 : -1) : (numeric ? -1 : 1);
      var keyed = all.map(function (r) { return {k: key(r, col, numeric), r: r}; });
      keyed.sort(function (a, b) {
        var d = numeric ? a.k - b.k : collator.compare(a.k, b.k);
        return d * dir || a.r.i - b.r.i;
      });
      all = keyed.map(function (e) { return e.r; });
      table.querySelectorAll('thead th').forEach(function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', dir < 0 ? 'descending' : 'ascending');
      filter();
    });
  });
  function filter() {
    var q = find.value.trim().toLowerCase();
    shown = q ? all.filter(function (r) { return r[1].toLowerCase().indexOf(q) >= 0; }) : all;
    first = 0;
    draw();
  }
  find.addEventListener('input', filter);
  prev.addEventListener('click', function () { first = Math.max(0, first - size); draw(); });
  next.addEventListener('click', function () { if (first + size < shown.length) { first += size; draw(); } });
  draw();
})();
"""

STYLE = """
body{font-family:system-ui,"Noto Sans CJK TC","PingFang TC","Microsoft JhengHei",sans-serif;margin:0 auto;
max-width:1200px;padding:1em 1.5em;color:#1b1b1b;line-height:1.45}
h1{margin-bottom:.2em}h2{border-bottom:2px solid #ddd;padding-bottom:.2em;margin-top:1.6em}
nav a{margin-right:1em}.warn{background:#fff4d6;border-left:4px solid #c98a00;padding:.5em .8em}
table{border-collapse:collapse;font-size:.92em}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f3f3}figure{margin:.6em 0}svg.plot{max-width:100%;height:auto;display:block}
figcaption{font-size:.88em;color:#444}.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(520px,1fr));gap:1.2em}
.exercise{border:1px solid #ddd;border-radius:6px;padding:0 .8em .8em}.exercise table{width:100%}
.scroll{max-height:70vh;overflow:auto;border:1px solid #ccc;content-visibility:auto;contain-intrinsic-size:auto 70vh}.scroll table{border:0}
.grid thead th{position:sticky;top:0;z-index:1}.grid td.lr,.grid th.lr{position:sticky;left:0;background:#fff;z-index:1}
.grid thead th.lr{z-index:2;background:#f3f3f3}.grid tbody td{text-align:center;white-space:nowrap;min-width:5.5em}
th button{font:inherit;font-weight:bold;border:0;background:none;cursor:pointer;padding:0}
th button::after{content:" ⇅";color:#888}th[aria-sort=descending] button::after{content:" ▼"}
th[aria-sort=ascending] button::after{content:" ▲"}
.grid td.refused{background:repeating-linear-gradient(45deg,#fdecea,#fdecea 5px,#fff 5px,#fff 10px)}
.grid td.missing{color:#666}.mark{display:block;font-size:.82em}.late .mark.l{font-weight:bold}
.grid td.lr{max-width:16em;overflow-wrap:anywhere;text-align:left;white-space:normal;min-width:0}.grid td.unknown{font-style:italic}
ul.glance{background:#f4f7fb;border-left:4px solid #3b6ea5;padding:.5em 1em .5em 2em}td.rate{position:relative;min-width:8.5em;white-space:nowrap}
td.rate .bar{position:absolute;left:0;top:2px;bottom:2px;background:#c9dcf0;border-right:2px solid #3b6ea5}
td.rate .t{position:relative}.m-claim{font-weight:bold}.small{font-size:.85em;color:#444}
.gridbar{display:flex;flex-wrap:wrap;gap:.3em .8em;align-items:center;margin:.5em 0}.gridbar input{font:inherit}
.gridbar button{font:inherit}#grid-status{min-width:14em}
"""


SHADES = "".join(f".grid td.h{light}{{background:hsl(210,60%,{light}%)}}" for light in range(57, 98))
"""A class per shade, light to dark blue by score share (``h97`` … ``h57``: the lightness; the grid's
script picks it, text stays dark enough to read on every shade)."""


def _category_text(cat: str, lang: str) -> str:
    return message(f"report.category.{cat}", lang)


@_collector_paused()
def render_html(rep: ClassReport, lang: str = "zh", lessons_url: str = "notebooks/") -> str:
    """The page (see the module docstring), from ``templates/classreport.html.j2`` with autoescape;
    every text from results.json is escaped and shown through :func:`visible`."""
    from ...misconceptions import get
    from .templates import markup, render, report_csp

    lang = normalize_language(lang)
    m = _messages(lang)
    glance = []
    if rep.misconceptions:
        top = rep.misconceptions[0]
        glance.append(m("report.glance.misconception", id=top.id, count=len(top.learners)))
    graded_qs = [q for e in rep.exercises for q in e.questions if q.graded]
    if graded_qs:
        hard = min(graded_qs, key=lambda q: (q.rate, q.exercise, q.id))
        glance.append(m("report.glance.hardest", question=f"{hard.exercise}:{hard.id}", rate=pct(hard.rate)))
    glance.append(m("report.glance.attention", count=len(rep.attention)))
    exercises = []
    for n, ex in enumerate(rep.exercises):
        mean = statistics.fmean(ex.scores) if ex.scores else 0.0
        exercises.append({
            "id": ex.id, "title": ex.title.get(lang, ex.id), "graded": len(ex.scores), "mean_attr": f"{mean:.4f}",
            "max": fmt(ex.max_score),
            "number": ex.id.split("-", 1)[0], "name": ex.id.split("-", 1)[-1],
            "stats": m("report.exercise.stats", graded=len(ex.scores), mean=f"{mean:.2f}", max=fmt(ex.max_score),
                       median=fmt(statistics.median(ex.scores)))
            + (" " + m("report.exercise.pending", points=fmt(ex.pending_points)) if ex.pending_points else "")
            if ex.scores else "",
            "not_graded": " ".join([*([m("report.exercise.not_graded", count=ex.not_graded)] if ex.not_graded else []),
                                    *([m("report.exercise.not_attempted", count=ex.not_attempted)]
                                      if ex.not_attempted else [])]),
            "plot": markup(exercise_plot(ex, lang, f"bk-report-{n}")),
            "caption": m("report.plot.dist_caption", exercise=ex.id),
            "questions": [{
                "id": q.id, "text": q.text.get(lang, q.id) if q.text.get(lang) != q.id else "",
                "rate_attr": f"{q.rate:.6f}", "full": q.full, "graded": q.graded, "width": f"{100 * q.rate:.1f}",
                "rate": pct(q.rate), "mean": fmt(q.mean) if q.graded else "—", "points": fmt(q.points),
                "pending": m("report.questions.pending", count=q.pending) if q.pending else "",
                "misconceptions": q.misconceptions.most_common(),
            } for q in ex.hardest_first()],
        })
    links = lesson_links()
    misconceptions = []
    for ms in rep.misconceptions:
        info = get(ms.id)
        example = ms.example()
        lesson = links.get(ms.id)
        misconceptions.append({
            "id": ms.id, "learners": len(ms.learners), "claim": info.claim(lang), "correction": info.correction(lang),
            "questions": [(e, q, c) for (e, q), c in sorted(ms.questions.items())],
            "example": example, "times": ms.answers[example] if example is not None else 0,
            "lesson": lesson, "lesson_href": lesson_href(lesson, lessons_url) if lesson else "",
            "lesson_label": _lesson_label(lesson) if lesson else "",
        })
    most_points = sum(e.max_score for e in rep.exercises)
    grid = markup(script_json(grid_data(rep, m, lang, most_points)))
    counts = Counter(a.category for a in rep.attention)
    attention = [{"category": a.category, "category_text": _category_text(a.category, lang), "file": a.file,
                  "learner": a.learner, "where": a.exercise + (f":{a.question}" if a.question else ""),
                  "detail": a.detail.get(lang, "")} for a in rep.attention]
    return render(
        "classreport.html.j2", m=m, rep=rep, html_lang="zh-Hant" if lang == "zh" else "en",
        csp=report_csp(SCRIPT), generator=GENERATOR, style=STYLE + SHADES, script=SCRIPT,
        known=sum(1 for lr in rep.learners if lr.known), glance=glance, exercises=exercises,
        misconceptions=misconceptions,
        misconception_plot=markup(misconception_plot(rep.misconceptions, lang, "bk-report-m")) if rep.misconceptions else "",
        grid=grid, attention=attention, items=page_rows(rep.items, lang),
        attention_counts=m("report.attention.counts", **{c: counts.get(c, 0) for c in CATEGORIES}),
    )


GRID_PAGE = 100
"""Learners per page of the grid (the page shows one page at a time; sorting and finding see all)."""


def _short(value: float) -> float | int:
    """A score as :func:`fmt` writes it, as a JSON number (``7``, ``7.5``, ``2.67``)."""
    if abs(value - round(value)) < _EPS:
        return round(value)
    return round(value, 2)


def grid_data(rep: ClassReport, m: Any, lang: str, top: float) -> dict[str, Any]:
    """The grid as data for the page's script (the script block ``#grid-data``), which shows it a
    page (:data:`GRID_PAGE` learners) at a time, sorts and finds over all of it, and writes every
    text with ``textContent`` (never as markup). Every text of a learner's goes through
    :func:`visible` here.

    ``rows``: one list per learner, ``[shown name, sort key, whole name or 0 (when the shown one
    is whole), known (1/0), total, cell …]``, a cell per exercise of ``max`` (the columns' maxima):
    ``null`` when not handed in, else ``[score, file, handed in at or "", flags (1 late, 2 another's
    id, 4 written answers pending: the score is not final), status or "" (ok), its maximum or null (the column's), files]``, the last four only when
    one of them is not the usual. ``status``: each status's mark; ``files``: the tip of a count
    of files; ``marks``: the other words (``showing`` and ``none`` with ``{first}``, ``{last}``,
    ``{count}``, ``{query}`` for the script to fill)."""
    no_id = m("report.grid.no_id")
    marks = {"missing": m("report.grid.missing"), "late": "⏰ " + m("report.grid.late"),
             "mismatch": "⚠ " + m("report.grid.mismatch"), "pending": "✍ " + m("report.grid.pending"),
             "showing": m("report.grid.showing", first="{first}", last="{last}", count="{count}"),
             "none": m("report.grid.none", query="{query}")}
    statuses: dict[str, str] = {}
    files: dict[int, str] = {}
    maxima = [e.max_score for e in rep.exercises]
    ids = [e.id for e in rep.exercises]
    get = rep.cells.get
    rows = []
    for lr in rep.learners:
        label = lr.label if lr.known else f"{no_id} {lr.label}"
        shown, whole = visible(label, 60), visible(label, 300)
        row: list[Any] = [shown, visible(lr.label.casefold(), 200), whole if whole != shown else 0,
                          1 if lr.known else 0, _short(rep.total(lr.key)[0])]
        for ex, most in zip(ids, maxima, strict=True):
            c = get((lr.key, ex))
            if c is None:
                row.append(None)
                continue
            file, when, score = c.file, c.submitted_at or "", c.score
            if not (file.isprintable() and len(file) <= 300):  # (visible's own test first: 120,000 texts)
                file = visible(file, 300)
            if not (when.isprintable() and len(when) <= 40):
                when = visible(when, 40)
            cell: list[Any] = [round(score) if abs(score - round(score)) < _EPS else round(score, 2), file, when]
            if c.late or c.mismatch or c.pending or c.status != "ok" or c.max_score != most or c.files > 1:
                status = "" if c.status == "ok" else visible(c.status or "?")
                if status and status not in statuses:
                    statuses[status] = ("" if c.status == "not_attempted" else "✘ ") + _category_text(
                        STATUS_CATEGORY.get(c.status, "other"), lang)
                if c.files > 1 and c.files not in files:
                    files[c.files] = m("report.grid.files", count=c.files)
                cell += [(1 if c.late else 0) | (2 if c.mismatch else 0) | (4 if c.pending else 0), status,
                         _short(c.max_score) if c.max_score != most else None, c.files]
            row.append(cell)
        rows.append(row)
    return {"page": GRID_PAGE, "max": [_short(x) for x in maxima], "top": _short(top), "marks": marks,
            "status": statuses, "files": files, "rows": rows}


def script_json(value: Any) -> str:
    """``value`` as JSON for a ``<script type="application/json">`` block: ``<``, ``>`` and ``&``
    as ``\\u`` escapes, so no text in it can end the block or open a comment.

    >>> script_json({"id": "</script><!--"})
    '{"id":"\\\\u003c/script\\\\u003e\\\\u003c!--"}'
    """
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def _messages(lang: str) -> Any:
    """``m(key, **params)``: a message in ``lang``."""
    def m(key: str, **params: Any) -> str:
        return message(key, lang, **params)

    return m


# ---------------------------------------------------------------- the file
def default_out(graded: Path) -> Path:
    """``GRADED_DIR-report.html`` beside the folder: regrading replaces the graded folder, and
    this keeps the report out of what the grader owns."""
    folder = graded.resolve() if graded.is_dir() else graded.resolve().parent
    return folder.parent / f"{folder.name}-report.html"


def write_report(graded: str | Path, out: str | Path | None = None, lang: str = "zh",
                 lessons_url: str | None = None) -> tuple[Path, ClassReport]:
    """Read ``graded``'s results, write the page to ``out`` (atomically); return the path and numbers.

    An existing ``out`` is replaced only when it is a report this function wrote.
    """
    graded = Path(graded)
    with _collector_paused():  # from reading to the page: see the note below
        doc = load_results(graded)
        target = Path(out) if out is not None else default_out(graded)
        if target.is_dir():
            raise ReportError("report.error.out_is_dir", path=target)
        if target.exists() and f'content="{GENERATOR}"' not in _head(target):
            raise ReportError("report.error.out_exists", path=target)
        rep = build_report(doc)
        # The document goes (by reference counts) before the collector is back: its objects,
        # 20 million for 10,000 learners read without the index, stay in the collector's
        # youngest generation while it is paused, and its first pass would walk them all, its
        # next passes again (2 of the 5 CPU-s of such a report).
        del doc
        page = render_html(rep, lang, default_lessons_url(target) if lessons_url is None else lessons_url)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(page)
        os.chmod(tmp, 0o600)  # every learner's grades: the instructor's alone
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target, rep


def _head(path: Path) -> str:
    try:
        with path.open("rb") as fh:
            return fh.read(4096).decode("utf-8", errors="replace")
    except OSError:
        return ""


# ---------------------------------------------------------------- command line
