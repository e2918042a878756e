"""Item analysis for the class report: how each question of each exercise behaved.

Classical test theory, one exercise at a time (an exercise is the test, its questions are the
items). The learners are those whose counted submission of the exercise was graded (status
``ok``: the row the grid and the exports count); a refused or timed-out file has no item scores.
A question missing from a graded row (an older grader, a malformed row) is left out of that
question's figures, not counted as 0; a question she left blank *is* in her row, scored 0 by the
grader, and counts as wrong.

For learner *i* and question *j*, with ``m_j`` the question's points:

* ``x_ij`` her score on *j* (0 … ``m_j``; partial credit for function and per-item answers);
* ``T_i = Σ_j x_ij`` her total on the exercise (the questions' scores: a late penalty is not an
  item's), and ``R_ij = T_i − x_ij`` her **rest score**, the total without this question, so a
  question is never correlated with itself (the "corrected" item–total statistics; with 5–9
  questions an exercise is short and the uncorrected ones would be much inflated).

Over the ``n_j`` learners with a score on *j*:

**Difficulty** ``p_j = (Σ_i x_ij / n_j) / m_j``: the share right for a right/wrong question, the
mean score over the points for partial credit (higher is *easier*; the classical name).

**Item–rest correlation** (the point-biserial for a right/wrong question): Pearson's correlation
of ``x`` and ``R``::

    r_j = Σ (x_ij − x̄)(R_ij − R̄) / √( Σ (x_ij − x̄)² · Σ (R_ij − R̄)² )

For a right/wrong question it equals ``(M₁ − M₀) / s_R · √(p (1 − p))``, ``M₁`` and ``M₀`` the mean
rest scores of those right and those wrong, ``s_R`` their standard deviation (divisor ``n``).

**Upper–lower index** (Kelley's 27 %): ``k = ⌊0.27 n + ½⌋`` learners (at least 1) with the highest
rest scores and ``k`` with the lowest; ``D_j = (x̄_upper − x̄_lower) / m_j``, the difference of the
two groups' shares right. Learners tied on the rest score at a group's edge are taken each with
the same weight (the share of the tie that fits in the group), so ``D`` does not depend on the
order of the rows.

Both are **undefined** (None, shown in words, never NaN) when they cannot say anything: no or one
response, everyone with the same score on the question (everyone right, or everyone 0), or
everyone with the same rest score (an exercise of one question).

**Flags** (:data:`FLAG_ORDER`), judged only from :data:`MIN_RESPONSES` responses on (fewer: the
single flag ``too_few``; the standard error of a correlation is about ``1/√n``, 0.18 at 30):

* ``negative``: ``r < 0``: learners who did better on the rest of the exercise did *worse* here (a
  wrong key, a misleading wording, a trick that catches the careful);
* ``weak``: ``0 ≤ r <`` :data:`WEAK_BELOW` (0.20): the question hardly tells stronger from weaker
  learners. The usual rules of thumb (Ebel & Frisbie, *Essentials of Educational Measurement*,
  1991, for ``D``; applied alike to ``r``): 0.40 and above very good, 0.30–0.39 good, 0.20–0.29
  marginal, below 0.20 poor;
* ``too_easy``: ``p >`` :data:`TOO_EASY` (0.90); ``too_hard``: ``p <`` :data:`TOO_HARD` (0.20). Common
  classical-test-theory bounds (textbooks put them between 0.10–0.30 and 0.80–0.95): outside
  them a question separates few learners, whatever its ``r``;
* ``unchosen``: an option of a choice question that no learner chose (a distractor that does no
  work: no one holds that misconception, or the option gives itself away).

Each option of a choice question is counted by the option the grader recorded (``option`` in
results.json: the source's key, not her shuffled letter). Results written before that field
existed are read as far as they tell: a right answer is the right option, a wrong one the option
whose misconception it names when exactly one option names it; anything else is counted as
"not recorded". Other questions list the misconceptions their wrong answers named, with shares.

Pure Python whose loops run in C (``map``, ``zip``, ``sorted``, ``itertools.compress``; no numpy,
which the report does not otherwise need): a question at a time, its result in each row, each
distinct result read once, then the sums. ``benchmarks/bench_report.py`` prints its share of
the report for 10,000 learners × 6 exercises.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import compress, repeat
from operator import mul, sub
from typing import Any

from ...i18n import message

MIN_RESPONSES = 30
"""Fewer responses than this: the figures are shown, no question is judged (``too_few``)."""
WEAK_BELOW = 0.20
TOO_EASY = 0.90
TOO_HARD = 0.20
GROUP_SHARE = 0.27
"""Kelley's upper and lower groups: 27 % of the learners each."""
FLAG_ORDER = ("too_few", "negative", "weak", "too_hard", "too_easy", "unchosen")
NO_ANSWER = ""
"""The option key of a choice question answered with no valid option."""
NOT_RECORDED = "?"
"""The option key of an answer whose option the results do not say (an older grader)."""
_TIE = 1e-9


# ---------------------------------------------------------------- what the class report counts (classreport fills them)
@dataclass
class QuestionStat:
    exercise: str
    id: str
    text: dict[str, str]
    points: float
    graded: int = 0
    full: int = 0
    earned: float = 0.0
    misconceptions: Counter[str] = field(default_factory=Counter)
    pending: int = 0
    """Written answers of it not scored by hand yet: neither a 0 nor graded."""

    @property
    def rate(self) -> float:
        """Share of graded submissions with full points (0 when none was graded)."""
        return self.full / self.graded if self.graded else 0.0

    @property
    def mean(self) -> float:
        return self.earned / self.graded if self.graded else 0.0


@dataclass
class ExerciseStat:
    id: str
    title: dict[str, str]
    max_score: float
    scores: list[float] = field(default_factory=list)
    not_graded: int = 0
    questions: list[QuestionStat] = field(default_factory=list)
    not_attempted: int = 0
    """Copies handed in as they came: no score, nothing wrong with them either."""
    pending_points: float = 0.0
    """Points of written answers not scored by hand yet, over the submissions that count."""

    def hardest_first(self) -> list[QuestionStat]:
        """Hardest first; a question nobody's answer of is graded yet (all pending) last: it is not hard."""
        order = {q.id: i for i, q in enumerate(self.questions)}
        return sorted(self.questions, key=lambda q: (not q.graded, q.rate, q.mean / q.points if q.points else 0,
                                                     order[q.id]))


@dataclass(frozen=True)
class OptionStat:
    """One option of a choice question: how many learners chose it."""

    key: str
    """The source's key (``a``, ``b`` …), :data:`NO_ANSWER` or :data:`NOT_RECORDED`."""
    text: dict[str, str]
    right: bool | None
    chosen: int
    misconception: str | None


@dataclass(frozen=True)
class ItemStat:
    """One question's figures (see the module docstring for each)."""

    exercise: str
    id: str
    text: dict[str, str]
    points: float
    kind: str
    """``choice`` when it has options, else ``other``."""
    n: int
    full: int
    difficulty: float | None
    r: float | None
    d: float | None
    undefined: str | None
    """Why ``r`` and ``d`` are None: ``none``, ``one``, ``all_full``, ``all_zero``, ``all_same``, ``rest_same``."""
    options: tuple[OptionStat, ...]
    misconceptions: tuple[tuple[str, int], ...]
    flags: tuple[str, ...]

    @property
    def unchosen(self) -> tuple[str, ...]:
        return tuple(o.key for o in self.options if o.chosen == 0 and o.key not in (NO_ANSWER, NOT_RECORDED))


# ---------------------------------------------------------------- the two indices
def item_rest_correlation(x: Sequence[float], rest: Sequence[float]) -> float | None:
    """Pearson's r of the item scores ``x`` and the rest scores ``rest`` (the point-biserial when
    ``x`` is right/wrong); None when it is undefined (fewer than 2, or either is constant).

    >>> round(item_rest_correlation([1, 1, 0, 0], [3, 2, 2, 1]), 6)
    0.707107
    >>> item_rest_correlation([1, 1, 1], [3, 2, 1]) is None
    True
    """
    if len(x) < 2 or min(x) == max(x) or max(rest) - min(rest) <= _TIE:
        return None
    return _r(list(map(float, x)), list(map(float, rest)))


def _r(x: list[float], rest: list[float]) -> float | None:
    """:func:`item_rest_correlation` without its checks: centred sums, each a loop in C."""
    n = len(x)
    mx, mr = sum(x) / n, sum(rest) / n
    dx = [a - mx for a in x]
    dr = [b - mr for b in rest]
    sxx, srr, sxr = sum(map(mul, dx, dx)), sum(map(mul, dr, dr)), sum(map(mul, dx, dr))
    if sxx <= 0.0 or srr <= 0.0:
        return None
    r: float = sxr / math.sqrt(sxx * srr)
    return max(-1.0, min(1.0, r))


def group_size(n: int, share: float = GROUP_SHARE) -> int:
    """Learners in each of the upper and lower groups: ``⌊share·n + ½⌋``, at least 1.

    >>> group_size(100), group_size(10), group_size(2), group_size(1)
    (27, 3, 1, 1)
    """
    return max(1, math.floor(share * n + 0.5))


def upper_lower_index(x: Sequence[float], rest: Sequence[float], points: float,
                      share: float = GROUP_SHARE) -> float | None:
    """Kelley's upper–lower index ``(x̄_upper − x̄_lower) / points`` over the :func:`group_size`
    learners with the highest and the lowest rest scores, ties at a group's edge shared out
    evenly; None when fewer than 2, ``points`` ≤ 0, or either is constant.

    >>> round(upper_lower_index([1, 1, 0, 0, 1, 0, 0, 0, 1, 0], [9, 8, 7, 6, 5, 4, 3, 2, 1, 0], 1), 6)
    0.333333
    >>> round(upper_lower_index([1, 0, 1, 0], [5, 5, 5, 0], 1), 6)  # 1 of the 3 tied at 5 is the upper group
    0.666667
    """
    if len(x) < 2 or points <= 0 or min(x) == max(x) or max(rest) - min(rest) <= _TIE:
        return None
    return _d(list(map(float, x)), list(map(float, rest)), points, group_size(len(x), share))


def _d(x: list[float], rest: list[float], points: float, k: int, ordered: list[float] | None = None) -> float:
    """:func:`upper_lower_index` without its checks (``ordered``: ``rest`` sorted, if at hand).
    The k-th highest (lowest) rest score is the group's edge: those beyond it are in, those tied
    with it (within 1e-9) share the places left; the counts come from the sorted list."""
    ordered = sorted(rest) if ordered is None else ordered
    n = len(ordered)
    top, bottom = ordered[-k], ordered[k - 1]
    n_in, n_all = n - bisect_right(ordered, top + _TIE), n - bisect_left(ordered, top - _TIE)
    upper = _edge_mean(x, rest, k, n_in, n_all, (top + _TIE).__lt__, (top - _TIE).__le__)
    n_in, n_all = bisect_left(ordered, bottom - _TIE), bisect_right(ordered, bottom + _TIE)
    lower = _edge_mean(x, rest, k, n_in, n_all, (bottom - _TIE).__gt__, (bottom + _TIE).__ge__)
    return (upper - lower) / points


def _edge_mean(x: list[float], rest: list[float], k: int, n_in: int, n_all: int,
               beyond: Callable[[float], bool], reached: Callable[[float], bool]) -> float:
    """The mean of ``x`` over a group of ``k``: the ``n_in`` whose rest score is ``beyond`` the
    edge, and a share (places left / tied) of the ``n_all − n_in`` who ``reached`` it but no further."""
    sum_in = sum(compress(x, map(beyond, rest))) if n_in else 0.0
    sum_all = sum(compress(x, map(reached, rest)))
    return (sum_in + (sum_all - sum_in) * (k - n_in) / (n_all - n_in)) / k


# ---------------------------------------------------------------- from the rows
@cache
def source_exercises() -> dict[str, Any]:
    """The kit's own exercises (``exercises/source``) by id: their titles, questions and options,
    as the report shows them; {} without sources (a kit installed without its exercises: ids stand
    for titles, options come from the rows alone). Read without proving their keys against the
    model answers: ``grade`` does that before it judges, the report judges nothing (proving was
    a quarter of a small class's report)."""
    from ...errors import BaccaratError
    from ..judge.checks import Exercise
    from ..term.authoring import read_source
    from ..term.release import default_source

    out = {}
    for path in sorted(default_source().glob("*.ipynb")):
        try:
            nb = read_source(path)  # (its questions written in cells, their texts with them)
            ex = Exercise.from_metadata(nb["metadata"]["baccarat_kit"], str(path))
        except (OSError, ValueError, KeyError, TypeError, AttributeError, BaccaratError):
            continue  # (not an exercise source: grade says why)
        out[ex.id] = ex
    return out


def _source_questions() -> dict[str, dict[str, Any]]:
    """The kit's exercises' questions by exercise and id (their options)."""
    return {e: {q.id: q for q in ex.questions} for e, ex in source_exercises().items()}


def _right_option(question: Any) -> str | None:
    """The right option's key of a source question whose key needs no learner, else None."""
    if question is None or question.kind != "choice" or question.needs_learner or question.sealed:
        return None
    from ..judge.checks import correct_option

    try:
        return correct_option(question, "")
    except Exception:  # an exercise whose key the engine cannot evaluate: no key marked
        return None


def _number(value: Any) -> float:
    """A score as a float (0 for anything not a finite number, as the report reads it)."""
    if type(value) is float:
        return value if value - value == 0.0 else 0.0
    if type(value) is int:
        return float(value) if abs(value) < 1e300 else 0.0
    return 0.0


@cache
def _known_misconceptions() -> frozenset[str]:
    from ...misconceptions import all_misconceptions

    return frozenset(m.id for m in all_misconceptions())


_Fact = tuple[float, str | None, str | None]
"""(score, option key or None for a question without options, misconception named or None)."""


def _fact(q: dict[str, Any], question: Any, right: str | None) -> _Fact:
    """A question's result read: its score, the option chosen, the misconception it names when
    it is below its points (as the report's other tables count them)."""
    score = _number(q.get("score"))
    passed = q.get("passed") is True
    choice = question is not None and question.kind == "choice"
    if passed and not choice and not q.get("misconception") and "option" not in q:
        return score, None, None  # (most results; read in full, without the index, one per row)
    mid = q.get("misconception")
    mid = mid if isinstance(mid, str) and mid in _known_misconceptions() else None
    points = q.get("points")
    if mid is not None and (score >= _number(points) - _TIE if type(points) in (int, float) else passed):
        mid = None
    if "option" in q:
        option = q["option"]
        key = option if isinstance(option, str) and option else NO_ANSWER
    elif not choice:
        key = None
    elif passed:  # an older grader: the right answer is the right option
        key = right or NOT_RECORDED
    elif q.get("answer") is None:
        key = NO_ANSWER
    else:  # a wrong answer: the one option naming its misconception, if exactly one does
        named = [k for k, o in question.options.items() if mid and o.get("misconception") == mid]
        key = named[0] if len(named) == 1 else NOT_RECORDED
    return score, key, mid


def analyse(rows: dict[str, list[Any]], exercises: Iterable[ExerciseStat],
            min_responses: int = MIN_RESPONSES) -> list[ItemStat]:
    """Every question of ``exercises`` (in their order), from ``rows``: per exercise, the
    ``questions`` of each learner's counted, graded submission (a dict of question id →
    result, as results.json has it)."""
    out: list[ItemStat] = []
    sources = _source_questions()
    for ex in exercises:
        source = sources.get(ex.id, {})
        out.extend(_exercise_items(ex, rows.get(ex.id, []), source, min_responses))
    return out


def _exercise_items(ex: ExerciseStat, rows: list[Any], source: dict[str, Any],
                    min_responses: int) -> list[ItemStat]:
    """One exercise's items. A question at a time, each step a loop in C (``map``, ``zip``,
    ``compress``): its result in every row, each distinct result's facts once (the index shares
    one result between many rows), the scores by the result's id."""
    rows = [qs for qs in rows if isinstance(qs, dict)]
    columns: list[list[float]] = []
    present: list[list[bool] | None] = []
    counted: list[tuple[Counter[str], Counter[str]]] = []
    rights = {q.id: _right_option(source.get(q.id)) for q in ex.questions}
    for q in ex.questions:
        results = list(map(dict.get, rows, repeat(q.id)))
        ids = list(map(id, results))
        facts = {k: _fact(v, source.get(q.id), rights[q.id])
                 if isinstance(v, dict) and v.get("pending") is not True else None  # a written answer
                 for k, v in dict(zip(ids, results, strict=True)).items()}          # not yet scored: no response
        scores = {k: f[0] if f is not None else 0.0 for k, f in facts.items()}
        columns.append(list(map(scores.__getitem__, ids)))
        absent = {k for k, f in facts.items() if f is None}
        present.append([k not in absent for k in ids] if absent else None)
        options: Counter[str] = Counter()
        named: Counter[str] = Counter()
        for k, count in Counter(ids).items():
            fact = facts[k]
            if fact is not None and fact[1] is not None:
                options[fact[1]] += count
            if fact is not None and fact[2] is not None:
                named[fact[2]] += count
        counted.append((options, named))
    totals = list(map(sum, zip(*columns, strict=True))) if columns else []  # an absent result adds 0
    items = []
    for j, q in enumerate(ex.questions):
        mask = present[j]
        x = columns[j] if mask is None else list(compress(columns[j], mask))
        rest = list(map(sub, totals if mask is None else compress(totals, mask), x))
        items.append(_item(ex.id, q.id, q.text, q.points, x, rest, *counted[j], source.get(q.id),
                           rights[q.id], min_responses))
    return items


def _undefined(x: Sequence[float], ordered: Sequence[float], points: float) -> str | None:
    """Why discrimination is undefined (``ordered``: the rest scores sorted), or None."""
    n = len(x)
    if n == 0:
        return "none"
    if n == 1:
        return "one"
    if min(x) == max(x):
        return "all_full" if x[0] >= points - _TIE and points > 0 else "all_zero" if x[0] == 0 else "all_same"
    if ordered[-1] - ordered[0] <= _TIE:
        return "rest_same"
    return None


def _item(exercise: str, qid: str, text: dict[str, str], points: float, x: list[float], rest: list[float],
          chosen: Counter[str], named: Counter[str], question: Any, right: str | None,
          min_responses: int) -> ItemStat:
    n = len(x)
    ordered = sorted(rest)
    undefined = _undefined(x, ordered, points)
    r = None if undefined else _r(x, rest)
    d = None if undefined or points <= 0 else _d(x, rest, points, group_size(n), ordered)
    difficulty = math.fsum(x) / n / points if n and points > 0 else None
    full = sum(map((points - _TIE).__le__, x)) if points > 0 else 0
    opts: list[OptionStat] = []
    if question is not None and question.kind == "choice":
        for key, o in question.options.items():
            mid = o.get("misconception")
            opts.append(OptionStat(key, {"zh": str(o.get("zh", key)), "en": str(o.get("en", key))},
                                   None if right is None else key == right, chosen.get(key, 0),
                                   str(mid) if mid else None))
    seen = {o.key for o in opts}
    for key in sorted(k for k in chosen if k not in seen and k not in (NO_ANSWER, NOT_RECORDED)):
        opts.append(OptionStat(key, {"zh": key, "en": key}, None, chosen[key], None))  # not in the source
    for key in (NO_ANSWER, NOT_RECORDED):
        if chosen.get(key):
            opts.append(OptionStat(key, {"zh": key, "en": key}, None, chosen[key], None))
    flags: list[str] = []
    if n < min_responses:
        flags.append("too_few")
    else:
        if r is not None and r < 0:
            flags.append("negative")
        elif r is not None and r < WEAK_BELOW:
            flags.append("weak")
        if difficulty is not None and difficulty < TOO_HARD:
            flags.append("too_hard")
        elif difficulty is not None and difficulty > TOO_EASY:
            flags.append("too_easy")
        if any(o.chosen == 0 and o.key not in (NO_ANSWER, NOT_RECORDED) for o in opts):
            flags.append("unchosen")
    return ItemStat(exercise, qid, text, points, "choice" if opts else "other", n, full, difficulty, r, d,
                    undefined, tuple(opts), tuple(named.most_common()), tuple(flags))


# ---------------------------------------------------------------- what the page shows
def _signed(value: float) -> str:
    """``+0.41``, ``−0.12`` (a true minus sign), ``0.00``."""
    text = f"{value:+.2f}"
    return "0.00" if text in ("+0.00", "-0.00") else text.replace("-", "−")


def page_rows(items: Sequence[ItemStat], lang: str) -> dict[str, Any]:
    """What ``templates/items.html.j2`` shows, in ``lang``: the rows, grouped by exercise."""
    from ...misconceptions import get

    def m(key: str, **params: Any) -> str:
        return message(f"report.items.{key}", lang, **params)

    groups: list[dict[str, Any]] = []
    for it in items:
        if not groups or groups[-1]["exercise"] != it.exercise:
            groups.append({"exercise": it.exercise, "rows": []})
        shown_options = []
        for o in it.options:
            share = o.chosen / it.n if it.n else 0.0
            if o.key == NO_ANSWER:
                label = m("no_answer")
            elif o.key == NOT_RECORDED:
                label = m("not_recorded")
            else:
                label = f"{o.key} · {o.text.get(lang, o.key)}"
            claim = get(o.misconception).claim(lang) if o.misconception in _known_misconceptions() else ""
            shown_options.append({"key": o.key, "label": label, "chosen": o.chosen, "share": f"{100 * share:.0f}%",
                                  "right": o.right, "misconception": o.misconception or "", "claim": claim,
                                  "unchosen": o.chosen == 0 and o.key not in (NO_ANSWER, NOT_RECORDED)})
        named = [{"id": mid, "count": c, "share": f"{100 * c / it.n:.0f}%" if it.n else "0%",
                  "claim": get(mid).claim(lang)} for mid, c in it.misconceptions]
        flags = [{"flag": f, "text": m(f"flag.{f}", unchosen=", ".join(it.unchosen) or "—", n=it.n,
                                      least=MIN_RESPONSES)} for f in it.flags]
        groups[-1]["rows"].append({
            "id": it.id, "text": it.text.get(lang, it.id) if it.text.get(lang) != it.id else "",
            "n": it.n, "full": it.full,
            "p": "—" if it.difficulty is None else f"{it.difficulty:.2f}",
            "p_attr": "" if it.difficulty is None else f"{it.difficulty:.6f}",
            "r": "—" if it.r is None else _signed(it.r), "r_attr": "" if it.r is None else f"{it.r:.6f}",
            "d": "—" if it.d is None else _signed(it.d), "d_attr": "" if it.d is None else f"{it.d:.6f}",
            "undefined": m(f"undefined.{it.undefined}") if it.undefined else "",
            "options": shown_options, "named": named, "flags": flags,
        })
    flagged = sum(1 for it in items if any(f != "too_few" for f in it.flags))
    few = sum(1 for it in items if "too_few" in it.flags)
    return {"groups": groups, "count": len(items), "flagged": flagged, "few": few,
            "summary": m("summary", count=len(items), flagged=flagged, few=few, least=MIN_RESPONSES)}


def to_json(items: Sequence[ItemStat]) -> list[dict[str, Any]]:
    """The figures as plain data, both languages (numbers unrounded; None where undefined)."""
    from ...misconceptions import get

    def claim(mid: str | None) -> dict[str, str] | None:
        return dict(get(mid).claims) if mid in _known_misconceptions() and mid is not None else None

    return [{
        "exercise": it.exercise, "question": it.id, "text": dict(it.text), "points": it.points, "n": it.n,
        "full": it.full, "difficulty": it.difficulty, "item_rest_r": it.r, "upper_lower_d": it.d,
        "undefined": it.undefined, "flags": list(it.flags),
        "options": [{"option": o.key, "text": dict(o.text), "right": o.right, "chosen": o.chosen,
                     "share": o.chosen / it.n if it.n else None, "misconception": o.misconception,
                     "claim": claim(o.misconception)} for o in it.options],
        "misconceptions": [{"misconception": mid, "count": c, "claim": claim(mid)} for mid, c in it.misconceptions],
    } for it in items]
