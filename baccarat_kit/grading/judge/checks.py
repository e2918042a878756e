"""Questions, checks and results: the part of grading that compares.

A question is data in an exercise notebook's metadata (``metadata.baccarat_kit``)::

    {"id": "q5", "kind": "function", "answer": "banker_draws", "points": 4, "type": "bool",
     "key": {"fn": "banker_draws"}, "domain": "banker",
     "public": [{"check": "inputs", "inputs": [[3, 8], [4, 3]]}, {"check": "own-work"}],
     "hidden": [{"check": "all-inputs"}]}

``kind`` is ``value`` (a number, text, money, a list), ``function`` (graded on every input of
its ``domain``) or ``choice`` (an option letter; each wrong option may name a misconception).
``key`` names an engine computation in :mod:`baccarat_kit.grading.judge.keys`. The learner's copy
keeps only the ``public`` checks; the grader runs ``public`` and ``hidden``, in its own process.
A question earns its points only when every check passes.

>>> q = Question.from_dict({"id": "q1", "kind": "value", "answer": "t", "type": "int",
...     "points": 1, "key": {"fn": "hand_total", "args": ["7 8"]}, "public": ["type", "equals"]})
>>> grade_question(q, {"status": "ok", "value": 5}, "x").score
1
>>> grade_question(q, {"status": "ok", "value": 6}, "x").message("en")
'`t` is not right (your answer: 6).'
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, Decimal, InvalidOperation
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...errors import BaccaratError
from ...i18n import catalogue, message, normalize_language
from ..records import WRITTEN, CheckResult, QuestionResult
from . import keys as _keys
from .cells import BAD, CellVerdict, judge_cells

if TYPE_CHECKING:
    from ..sandbox._extract import Wanted

SCHEMA_VERSION = 1
KINDS = ("value", "function", "choice", "written")
SCALAR_TYPES = ("bool", "int", "str", "money", "winner", "choice")
TYPES = (*SCALAR_TYPES, "list[bool]", "list[int]", "list[winner]", "list[money]")
CHECKS = ("type", "equals", "items", "inputs", "all-inputs", "own-work")
FORM_CHECKS = ("type", "own-work")
"""Checks that never evaluate the answer key (the answer's form, whose work it is)."""
SEALED_KEY = "sealed"
"""The ``fn`` of a key a released copy does not carry (:func:`public_metadata`): only the grader,
reading the sources, knows it; ``n`` beside it is the length of a list answer (its form)."""
VARIANT_KEYS = frozenset({"variant_coups", "settlement"})
_WINNERS = {
    "player": "player", "p": "player", "閒": "player", "閒家": "player", "閒勝": "player",
    "banker": "banker", "b": "banker", "莊": "banker", "莊家": "banker", "莊勝": "banker",
    "tie": "tie", "t": "tie", "和": "tie", "和局": "tie",
}
_MONEY = re.compile(r"^[+-]?\d{1,12}(\.\d{1,6})?$")
_FLOAT = re.compile(r"^[+-]?\d{1,16}(\.\d{1,17})?(e[+-]?\d{1,3})?$")
MONEY_PRECISION = "0.01"
"""Money is compared to the cent unless a question says otherwise (``"precision"``)."""
MAX_ANSWER_TEXT = 200
CREDIT_UNIT = Fraction(1, 100)
"""A function question's partial credit is rounded down to this part of a point (monotone: a
function with more wrong cells never scores more)."""


class SpecError(BaccaratError):
    """An exercise notebook whose question metadata is not usable (an authoring mistake)."""


# ---------------------------------------------------------------- the spec
def _as_check(item: Any, where: str) -> dict[str, Any]:
    check = {"check": item} if isinstance(item, str) else dict(item) if isinstance(item, dict) else None
    if check is None or check.get("check") not in CHECKS:
        raise SpecError("grading.spec.bad_check", where=where, value=item, choices=", ".join(CHECKS))
    return check


@dataclass(frozen=True)
class Question:
    """One graded question (see the module docstring for the fields)."""

    id: str
    kind: str
    answer: str
    points: int
    type: str
    key: dict[str, Any]
    public: tuple[dict[str, Any], ...]
    hidden: tuple[dict[str, Any], ...] = ()
    domain: str | None = None
    options: dict[str, dict[str, Any]] = field(default_factory=dict)
    text: dict[str, str] = field(default_factory=dict)
    """The question as the learner reads it (zh, en): shown on the feedback page."""
    steps: int = 0
    """Partial credit of a function question is the share of its inputs right times the points,
    rounded down to a hundredth of a point (:data:`CREDIT_UNIT`); ``steps`` > 0 rounds it down
    to 1/steps of the points instead (coarser: cells that differ may then score the same)."""
    per_item: bool = False
    """A list answer scores each item (points shared out), not all or nothing."""
    precision: str = MONEY_PRECISION
    """Money answers are compared after rounding to this unit (half-even)."""
    shuffle: bool = True
    """Choice options are shown in an order drawn for each learner (seeded by the learner id)."""
    misconceptions: tuple[str, ...] = ()
    """The misconceptions this question examines: named first when several mistakes give the
    same wrong value."""
    rubric: tuple[dict[str, Any], ...] = ()
    """A written question's criteria (``id``, ``points``, ``zh``, ``en``; :mod:`.written`): only
    in the sources, removed from every learner copy (:func:`public_metadata`)."""
    hint: dict[str, str] = field(default_factory=dict)
    """What ``check()`` adds while her answer is not right yet (zh, en); none: nothing."""

    @classmethod
    def from_dict(cls, data: dict[str, Any], where: str = "?") -> Question:
        if isinstance(data, dict) and data.get("kind") == WRITTEN:
            return _written_question(cls, data, where)
        try:
            qid, kind, answer = str(data["id"]), str(data["kind"]), str(data["answer"])
            key = dict(data["key"])
        except (KeyError, TypeError, ValueError):
            raise SpecError("grading.spec.missing_field", where=where, value=data) from None
        here = f"{where}, {qid}"
        sealed = key.get("fn") == SEALED_KEY
        if kind not in KINDS:
            raise SpecError("grading.spec.bad_kind", where=here, value=kind, choices=", ".join(KINDS))
        qtype = str(data.get("type", "choice" if kind == "choice" else ""))
        if qtype not in TYPES:
            raise SpecError("grading.spec.bad_type", where=here, value=qtype, choices=", ".join(TYPES))
        if not sealed and key.get("fn") not in _keys.KEYS:
            raise SpecError("grading.spec.bad_key", where=f"{here}, key.fn", value=key.get("fn"),
                            choices=", ".join(_keys.KEYS))
        try:
            if not sealed:
                _keys.validate(key)
        except BaccaratError as err:
            raise SpecError("grading.spec.key_error", where=f"{here}, key", value=key,
                            reason={"zh": err.message("zh"), "en": err.message("en")}) from None
        length = key.get("n")
        if sealed and (set(key) - {"fn", "n"} or (length is not None and (
                isinstance(length, bool) or not isinstance(length, int) or length < 0))):
            raise SpecError("grading.spec.sealed_check", where=f"{here}, key", value=key)
        domain = data.get("domain")
        if kind == "function":
            _keys.domain(str(domain))
        options = {str(k): dict(v) for k, v in dict(data.get("options", {})).items()}
        if kind == "choice" and len(options) < 2:
            raise SpecError("grading.spec.no_options", where=here)
        points = data.get("points", 1)
        if isinstance(points, bool) or not isinstance(points, int) or points < 1:
            raise SpecError("grading.spec.bad_points", where=here, value=points)
        text = data.get("text", {})
        for mid in data.get("misconceptions", []):
            from ...misconceptions import UnknownMisconception, get

            try:
                get(str(mid))
            except UnknownMisconception as err:
                raise SpecError("grading.spec.key_error", where=f"{here}, misconceptions", value=mid,
                                reason={"zh": err.message("zh"), "en": err.message("en")}) from None
        steps = data.get("steps", 0)
        if isinstance(steps, bool) or not isinstance(steps, int) or steps < 0:
            raise SpecError("grading.spec.bad_points", where=f"{here}, steps", value=steps)
        hint = _hint(data, here)
        question = cls(
            qid, kind, answer, points, qtype, key,
            tuple(_as_check(c, here) for c in data.get("public", [])),
            tuple(_as_check(c, here) for c in data.get("hidden", [])),
            str(domain) if domain is not None else None, options,
            {"zh": str(text.get("zh", "")), "en": str(text.get("en", ""))} if isinstance(text, dict) else {},
            steps, bool(data.get("per_item", False)), str(data.get("precision", MONEY_PRECISION)),
            bool(data.get("shuffle", True)), tuple(str(m) for m in data.get("misconceptions", [])),
            hint=hint,
        )
        if sealed:
            uses = [c["check"] for c in (*question.public, *question.hidden) if c["check"] not in FORM_CHECKS]
            if uses:  # a check that would need the key the copy does not carry
                raise SpecError("grading.spec.sealed_check", where=here, value=uses[0])
        elif kind != "function" and not question.needs_learner:
            # Evaluate the key once now: a wrong card text or bet fails here, naming the question.
            try:
                want = _keys.expected(key, "")
                if kind == "choice":
                    correct_option(question, "")
            except BaccaratError as err:
                raise SpecError("grading.spec.key_error", where=f"{here}, key", value=key,
                                reason={"zh": err.message("zh"), "en": err.message("en")}) from None
            del want
        return question

    @property
    def needs_learner(self) -> bool:
        return self.key.get("fn") in VARIANT_KEYS

    @property
    def sealed(self) -> bool:
        """A question of a released copy whose key the copy does not carry (:data:`SEALED_KEY`)."""
        return self.key.get("fn") == SEALED_KEY

    def inputs(self) -> list[list[Any]]:
        """Every input of a function question (empty for other kinds)."""
        return _keys.domain(self.domain) if self.kind == "function" and self.domain else []

    def option_order(self, learner_id: str | None) -> list[str]:
        """The option keys in the order this learner sees them (letters a, b, c … in turn).

        Seeded by the exercise-free pair (question id, learner id), so the grader and the
        learner's notebook agree; a question with ``"shuffle": false`` keeps the source order.
        """
        keys = list(self.options)
        if self.shuffle and self.kind == "choice":
            seed = _keys.learner_seed(f"choice:{self.id}:{self.answer}", learner_id or "")
            random.Random(seed).shuffle(keys)
        return keys

    def shown_options(self, learner_id: str | None) -> dict[str, str]:
        """Shown letter → option key, for this learner."""
        return {chr(ord("a") + i): k for i, k in enumerate(self.option_order(learner_id))}

    def extraction(self) -> Wanted:
        """What the learner's kernel is told about this question: where the answer is."""
        out: Wanted = {"id": self.id, "kind": self.kind, "answer": self.answer}
        if self.kind == "function":
            out["inputs"] = self.inputs()
        return out


def _hint(data: dict[str, Any], where: str) -> dict[str, str]:
    """A question's ``hint``: a sentence in each language, or none."""
    hint = data.get("hint")
    if hint is None:
        return {}
    if not isinstance(hint, dict) or not all(isinstance(hint.get(k), str) and hint[k].strip() for k in ("zh", "en")):
        raise SpecError("grading.spec.hint", where=where)
    return {"zh": hint["zh"].strip(), "en": hint["en"].strip()}


BASE_CALLS = ("bk.set_language", "bk.grading.Checker", "check", "check.options", "check.letter")
"""What the exercise API offers every exercise (its ``metadata.baccarat_kit.allowed_calls`` adds
the data it hands out: ``bk.grading.hands_for`` …); the only kit a grading run holds (issue 30)."""
LEGACY_ALLOWED_CALLS = ("bk.grading.hands_for", "bk.grading.settlement_for")
"""What a copy released before ``allowed_calls`` existed allows besides the base calls: the data
calls (inputs, never answers), so that its ``check()`` does not refuse its own setup cell."""
ALLOWED_CALL = re.compile(r"^(bk|check)(\.[A-Za-z][A-Za-z0-9_]*)*$")


def _allowed_calls(value: Any, where: str) -> tuple[str, ...]:
    """``metadata.baccarat_kit.allowed_calls``: dotted ``bk.…`` (or ``check.…``) paths."""
    if not isinstance(value, list) or not all(isinstance(c, str) and ALLOWED_CALL.match(c) for c in value):
        raise SpecError("grading.spec.allowed_calls", where=where, value=value)
    return tuple(value)


@dataclass(frozen=True)
class Exercise:
    """An exercise: its id, title and questions (from a notebook's ``metadata.baccarat_kit``)."""

    id: str
    title: dict[str, str]
    questions: tuple[Question, ...]
    allowed_calls: tuple[str, ...] = ()
    """The kit calls this exercise allows in an answer's code besides
    :data:`BASE_CALLS` (``metadata.baccarat_kit.allowed_calls``; the data it hands out,
    ``bk.grading.hands_for`` …): any other call into the kit makes a value or choice answer not
    own work (issue 20)."""
    public: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)
    """The learner copy's metadata (:func:`public_metadata`, no hidden checks): what ``check()``
    reads beside a learner's notebook, handed to the sandbox so that it sees the same."""

    @classmethod
    def from_metadata(cls, meta: Any, where: str) -> Exercise:
        if not isinstance(meta, dict) or "exercise" not in meta:
            raise SpecError("grading.spec.no_metadata", where=where)
        version = meta.get("schema_version")
        if version != SCHEMA_VERSION:
            raise SpecError("grading.spec.version", where=where, value=version, choices=SCHEMA_VERSION)
        questions = tuple(Question.from_dict(q, where) for q in meta.get("questions", []))
        ids = [q.id for q in questions]
        if not questions or len(set(ids)) != len(ids):
            raise SpecError("grading.spec.question_ids", where=where, value=", ".join(ids))
        title = meta.get("title", {})
        return cls(str(meta["exercise"]), {"zh": str(title.get("zh", "")), "en": str(title.get("en", ""))},
                   questions, _allowed_calls(meta.get("allowed_calls", list(LEGACY_ALLOWED_CALLS)), where),
                   public_metadata(meta))

    @property
    def all_allowed_calls(self) -> tuple[str, ...]:
        """What the exercise API offers this exercise: :data:`BASE_CALLS`, then this exercise's."""
        return (*BASE_CALLS, *(c for c in self.allowed_calls if c not in BASE_CALLS))

    def question(self, qid: str) -> Question:
        for q in self.questions:
            if q.id == qid:
                return q
        raise SpecError("grading.notebook.unknown_question", value=qid,
                        choices=", ".join(q.id for q in self.questions))

    @property
    def max_score(self) -> int:
        return sum(q.points for q in self.questions)


def public_metadata(meta: dict[str, Any]) -> dict[str, Any]:
    """The metadata of a learner's copy: every question without its hidden checks (nor its
    ``text``, which the grader's pages read from the source), its choice options without their
    ``misconception`` (only the wrong ones had one, so the tag marked the
    right option: issue 20; the whys come with the graded feedback page, from the source), its
    key sealed unless a public check uses it (:func:`seal`), and ``"released": true`` (the grader
    refuses such a copy as a source)."""
    out = dict(meta)
    questions = []
    for q in meta.get("questions", []):
        public = {k: v for k, v in q.items() if k not in ("hidden", "rubric", "text")}
        if isinstance(q.get("options"), dict):
            public["options"] = {key: {k: v for k, v in option.items() if k != "misconception"}
                                 if isinstance(option, dict) else option for key, option in q["options"].items()}
        questions.append(seal(public))
    out["questions"] = questions
    out["released"] = True
    out.pop("source_cells", None)  # (a compiled source's cell numbers: ..term.authoring.SOURCE_CELLS)
    return out


def _check_name(check: Any) -> Any:
    return check if isinstance(check, str) else check.get("check") if isinstance(check, dict) else None


def seal(q: dict[str, Any]) -> dict[str, Any]:
    """One question of a learner's copy with its answer key sealed (:data:`SEALED_KEY`) unless
    one of its public checks evaluates the key (then ``check()`` judges the value anyway). A
    ``fixed`` key is the right answer written out: always sealed, and the public checks that
    would use it are left to the grader (redteam: 06 q7's key was ``"same"``, and its option
    ``means`` "same"). A list answer keeps its length (``n``: its form, checked by ``type``).

    >>> seal({"id": "q7", "type": "choice", "key": {"fn": "fixed", "args": ["same"]}, "public": ["type", "equals"]})
    {'id': 'q7', 'type': 'choice', 'key': {'fn': 'sealed'}, 'public': ['type']}
    >>> seal({"id": "q1", "type": "int", "key": {"fn": "hand_total", "args": ["7 8"]}, "public": ["type", "equals"]})["key"]
    {'fn': 'hand_total', 'args': ['7 8']}
    """
    key = q.get("key")
    if not isinstance(key, dict) or key.get("fn") == SEALED_KEY:
        return q
    checks = list(q.get("public", [])) if isinstance(q.get("public"), list) else []
    if key.get("fn") != "fixed" and any(_check_name(c) not in FORM_CHECKS for c in checks):
        return q
    sealed: dict[str, Any] = {"fn": SEALED_KEY}
    if str(q.get("type", "")).startswith("list["):
        try:
            n = _keys.answer_length(key) if key.get("fn") in VARIANT_KEYS else len(_keys.expected(key, ""))
        except (BaccaratError, TypeError, ValueError):
            n = None
        if n is not None:
            sealed["n"] = n
    return {**q, "key": sealed, "public": [c for c in checks if _check_name(c) in FORM_CHECKS]}


# ---------------------------------------------------------------- answers as plain values
class _Bad(Exception):
    pass


def _number(value: Any) -> Decimal:
    """A numeric answer as Decimal: int, float (its shortest repr, as sent by the kernel:
    ``{"$float": "99.75"}``), Decimal (``{"$decimal": …}``) or numeric text; bool refused."""
    if type(value) is int:
        return Decimal(value)
    if type(value) is dict and len(value) == 1 and type(next(iter(value.values()))) is str:
        (tag, text), = value.items()
        if (tag == "$decimal" and _MONEY.match(text.strip())) or (tag == "$float" and _FLOAT.match(text.lower())):
            try:
                return Decimal(text)
            except InvalidOperation:  # pragma: no cover - the patterns admit only numbers
                raise _Bad from None
        raise _Bad
    if type(value) is str:
        text = value.strip().replace(",", "").replace("元", "").replace("$", "").strip()
        if _MONEY.match(text):
            return Decimal(text)
    raise _Bad


FLOAT_NOISE = Decimal("1e-12")
"""How far from ``precision`` a float answer may be and still be read at it (relative, at least
this much absolute): binary arithmetic's error (``105 * 0.95`` is 99.74999999999999), not a digit
she gave."""


def decode_money(value: Any, precision: str = MONEY_PRECISION) -> Decimal:
    """A money answer (int, float, decimal text, or ``{"$decimal": …}``) as Decimal, at
    ``precision`` (the cent) where it is there: ``stake * 0.95`` typed as a float counts like
    ``"99.75"``. A digit past it that is hers, not a float's noise, is kept: 161.499 is not 161.50.

    >>> decode_money({"$float": "99.74999999999999"}), decode_money("1,234.5"), decode_money(95)
    (Decimal('99.75'), Decimal('1234.50'), Decimal('95.00'))
    >>> decode_money("161.499"), decode_money({"$float": "161.499"})
    (Decimal('161.499'), Decimal('161.499'))
    """
    number = _number(value)
    rounded = number.quantize(Decimal(precision), rounding=ROUND_HALF_EVEN)
    is_float = type(value) is dict and "$float" in value
    if number == rounded or (is_float and abs(number - rounded) <= FLOAT_NOISE * max(Decimal(1), abs(rounded))):
        return rounded
    return number


def decode_int(value: Any) -> int:
    """A whole-number answer: int, or a float, Decimal or text with a whole value (``5.0``, ``"5"``).

    >>> decode_int({"$float": "5.0"}), decode_int(" 5 "), decode_int({"$decimal": "5.00"})
    (5, 5, 5)
    """
    number = _number(value)
    if number != number.to_integral_value():
        raise _Bad
    return int(number)


def coerce(qtype: str, value: Any, options: dict[str, Any] | None = None,
           precision: str = MONEY_PRECISION) -> Any:
    """The learner's plain value read as ``qtype``; :class:`_Bad` if it is not one."""
    if qtype.startswith("list["):
        if type(value) is not list:
            raise _Bad
        return [coerce(qtype[5:-1], v, options, precision) for v in value]
    if qtype == "bool" and type(value) is bool:
        return value
    if qtype == "int" and type(value) is not bool:
        return decode_int(value)
    if qtype == "str" and type(value) is str:
        return value.strip()
    if qtype == "winner" and type(value) is str and value.strip().lower() in _WINNERS:
        return _WINNERS[value.strip().lower()]
    if qtype == "money" and type(value) is not bool:
        return decode_money(value, precision)
    if qtype == "choice" and type(value) is str and value.strip().lower() in (options or {}):
        return value.strip().lower()
    raise _Bad


def _same(got: Any, want: Any, precision: str = MONEY_PRECISION) -> bool:
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(
            _same(g, w, precision) for g, w in zip(got, want, strict=True))
    if isinstance(want, Decimal):
        return isinstance(got, Decimal) and got == want.quantize(Decimal(precision), rounding=ROUND_HALF_EVEN)
    return type(got) is type(want) and got == want


def _show(value: Any) -> str:
    if isinstance(value, dict) and "$error" in value:
        return f"{value['$error']}"
    if isinstance(value, dict) and "$bad" in value:
        return f"<{value['$bad']}>"
    if isinstance(value, dict) and set(value) in ({"$decimal"}, {"$float"}):
        return str(next(iter(value.values())))
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "…"


ERROR_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]{0,79}")
"""An exception's name as a feedback page shows it (``ZeroDivisionError``); anything else is "error"."""


def answer_text(answer: Any) -> str | None:
    """A short display of the learner's answer (at most :data:`MAX_ANSWER_TEXT` characters), or
    None when there is none.

    >>> answer_text({"status": "ok", "value": {"$float": "99.75"}}), answer_text({"status": "missing"})
    ('99.75', None)
    """
    if not isinstance(answer, dict):
        return None
    status = answer.get("status")
    if status == "ok" and "value" in answer:
        value = answer["value"]
        if isinstance(value, list):
            text = "[" + ", ".join(_show(v) for v in value) + "]"
        else:
            text = _show(value)
    elif status == "ok" and "results" in answer:
        text = "def …"
    elif status == "bad-type" and answer.get("type") == "ellipsis":
        return None
    elif status in ("bad-type", "not-function"):
        text = f"<{str(answer.get('type', '?'))[:60]}>"
    else:
        return None
    return text if len(text) <= MAX_ANSWER_TEXT else text[:MAX_ANSWER_TEXT - 1] + "…"


def _means(option: dict[str, Any], want: Any) -> bool:
    means = option.get("means")
    if isinstance(want, Decimal):
        try:
            return Decimal(str(means)) == want
        except InvalidOperation:
            return False
    return type(means) is type(want) and means == want


def correct_option(question: Question, learner_id: str) -> str:
    """The letter of the option whose meaning the engine confirms."""
    want = _keys.expected(question.key, learner_id)
    right = [k for k, opt in question.options.items() if _means(opt, want)]
    if len(right) != 1:
        raise SpecError("grading.spec.choice_key", where=question.id, value=want,
                        choices=", ".join(question.options))
    return right[0]


# ---------------------------------------------------------------- results
VALUE_CHECKS = frozenset({"equals", "items", "inputs", "all-inputs"})
"""Checks that look at the value itself (``type`` and ``own-work`` do not)."""


def _number_json(score: Fraction | int) -> int | float:
    value = Fraction(score)
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _fail(check: str, key: str, hidden: bool, share: Fraction | None = None, misconception: str | None = None,
          **params: Any) -> CheckResult:
    return CheckResult(check, False, key, params, hidden, share, misconception)


def _ok(check: str, hidden: bool) -> CheckResult:
    return CheckResult(check, True, "grading.check.ok", {}, hidden, Fraction(1))


def wanted_text(qtype: str) -> dict[str, str]:
    """What a question of ``qtype`` wants, in plain words (zh, en)."""
    key = f"grading.type.{qtype.replace('list[', 'list_').rstrip(']')}"
    return {"zh": message(key, "zh"), "en": message(key, "en")}


def _score(question: Question, results: list[CheckResult]) -> int | float:
    """All checks passed: the points. Otherwise, where the question allows partial credit, the
    share of inputs (function) or items (``per_item`` lists) right, in the question's steps."""
    if results and all(r.passed for r in results):
        return question.points
    if any(not r.passed and r.check in ("own-work", "type") for r in results):
        return 0
    widest = [r.share for r in results if r.check in ("all-inputs", "equals") and r.share is not None]
    shares = widest or [r.share for r in results if r.check in VALUE_CHECKS and r.share is not None]
    if not shares:
        return 0
    share = min(shares)  # all inputs (all items) when they were checked, else the public ones
    if question.kind == "function" and question.steps:
        value = Fraction(math.floor(share * question.steps), question.steps) * question.points
    elif question.kind == "function":
        # the share of cells right, rounded down to a hundredth of a point: monotone in the cells
        value = math.floor(share * question.points / CREDIT_UNIT) * CREDIT_UNIT
    elif question.per_item:
        value = share * question.points
    else:
        return 0
    return _number_json(value)


def grade_question(
    question: Question,
    answer: Any,
    learner_id: str | None,
    *,
    hidden: bool = True,
    static_ownwork: tuple[bool, str] | None = None,
) -> QuestionResult:
    """Run the question's public checks (and hidden ones if ``hidden``) on a plain answer.

    ``answer`` is what :func:`baccarat_kit.grading.sandbox._extract.collect` gives for this question;
    it is validated again here, whatever produced it. ``static_ownwork`` is no longer read (issue
    30: no score comes from reading code; the grading run holds no kit code to call) and is
    accepted for old callers only.
    """
    checks = [(c, False) for c in question.public] + ([(c, True) for c in question.hidden] if hidden else [])
    results: list[CheckResult] = []
    name = question.answer
    status = answer.get("status") if isinstance(answer, dict) else None
    shown = answer_text(answer)
    stop: CheckResult | None = None
    if status == "timeout":  # a function answer out of time (the whole notebook still counted)
        key = "grading.reason.function_timeout" + ("_wall" if answer.get("clock") == "wall" else "")  # which clock
        answer = {"status": "run-failed", "reason": {
            "zh": message(key, "zh", seconds=answer.get("seconds", "?")),
            "en": message(key, "en", seconds=answer.get("seconds", "?"))}}
        status = "run-failed"
    if status == "missing" or status is None:
        stop = _fail("answer", "grading.check.missing", False, name=name)
    elif status == "bad-type" and answer.get("type") == "ellipsis":
        stop = _fail("answer", "grading.check.unanswered", False, name=name)
    elif status == "bad-type":
        stop = _fail("answer", "grading.check.bad_type", False, name=name,
                     type=str(answer.get("type", "?"))[:60], wanted=wanted_text(question.type))
    elif status == "not-function":
        stop = _fail("answer", "grading.check.not_function", False, name=name,
                     type=str(answer.get("type", "?"))[:60])
    elif status == "run-failed":
        reason = answer.get("reason") if isinstance(answer.get("reason"), dict) else {}
        stop = _fail("answer", "grading.check.run_failed", False, name=name, reason=dict(reason))
    elif status == "cell-failed":  # no value, because the cell that sets it failed (cells.cell_failed)
        cell, error = answer.get("cell"), answer.get("error")
        numbered = type(cell) is int and 0 < cell < 100_000  # (check() has no notebook numbers: none)
        stop = _fail("answer", "grading.check.cell_failed" if numbered else "grading.check.cell_failed_here", False,
                     name=name, cell=cell if numbered else "?",
                     error=error if isinstance(error, str) and ERROR_NAME.fullmatch(error) else "error")
    elif status != "ok":
        stop = _fail("answer", "grading.check.missing", False, name=name)
    elif question.needs_learner and not learner_id:
        stop = _fail("answer", "grading.check.no_learner", False, name=name)
    option = "" if question.kind == "choice" else None
    if stop is not None:
        return QuestionResult(question.id, question.points, 0, (stop,), question.text, shown, option)
    lid = learner_id or ""
    if question.kind == "choice":
        shown_options = question.shown_options(lid)
        try:
            option = shown_options[coerce("choice", answer.get("value"), shown_options)]
        except _Bad:
            pass
    for check, is_hidden in checks:
        if question.kind == "function":
            results.append(_function_check(question, check, answer, lid, is_hidden, static_ownwork))
        else:
            results.append(_value_check(question, check, answer.get("value"), lid, is_hidden))
    return QuestionResult(question.id, question.points, _score(question, results), tuple(results),
                          question.text, shown, option)


def _choice_check(question: Question, kind: str, raw: Any, lid: str, hidden: bool) -> CheckResult:
    name = question.answer
    shown = question.shown_options(lid)
    try:
        letter = coerce("choice", raw, shown)
    except _Bad:
        return _fail(kind, "grading.check.choice_invalid", hidden, name=name, got=_show(raw),
                     choices=", ".join(shown))
    if kind == "type":
        return _ok(kind, hidden)
    right = correct_option(question, lid)
    if shown[letter] == right:
        return _ok(kind, hidden)
    chosen = question.options[shown[letter]]
    mid = chosen.get("misconception")
    if mid:
        from ...misconceptions import get

        m = get(str(mid))
        return _fail(kind, "grading.check.choice_misconception", hidden, Fraction(0), m.id, name=name,
                     got=letter, id=m.id, claim=dict(m.claims), correction=dict(m.corrections))
    return _fail(kind, "grading.check.choice_wrong", hidden, Fraction(0), name=name, got=letter)


def _misconception_of(question: Question, got: Any, lid: str) -> str | None:
    """The misconception whose mistaken rule, played by the engine, gives ``got``."""
    found = _keys.mistaken_answers(question.key, lid)
    found.sort(key=lambda item: item[0] not in question.misconceptions)
    for mid, value in found:
        try:
            if _same(got, value if not isinstance(value, list) else list(value), question.precision):
                return mid
        except TypeError:
            continue
    return None


def _value_check(question: Question, check: dict[str, Any], raw: Any, lid: str, hidden: bool) -> CheckResult:
    kind = check["check"]
    name = question.answer
    if question.kind == "choice":
        return _choice_check(question, kind, raw, lid, hidden)
    if kind == "type" and (question.needs_learner or question.sealed):
        # the form only, without evaluating the key: in a term copy's kernel it needs the secret,
        # and a sealed key is not in the copy at all
        try:
            got = coerce(question.type, raw, precision=question.precision)
        except _Bad:
            return _fail(kind, "grading.check.bad_type", hidden, name=name, type=_show(raw),
                         wanted=wanted_text(question.type))
        n = question.key.get("n") if question.sealed else _keys.answer_length(question.key)
        if n is not None and (not isinstance(got, list) or len(got) != n):
            return _fail(kind, "grading.check.length", hidden, name=name, n=n,
                         got=len(got) if isinstance(got, list) else "-")
        return _ok(kind, hidden)
    want = _keys.expected(question.key, lid)
    try:
        got = coerce(question.type, raw, precision=question.precision)
    except _Bad:
        return _fail(kind, "grading.check.bad_type", hidden, name=name, type=_show(raw),
                     wanted=wanted_text(question.type))
    if isinstance(want, list) and (not isinstance(got, list) or len(got) != len(want)):
        return _fail(kind, "grading.check.length", hidden, name=name, n=len(want),
                     got=len(got) if isinstance(got, list) else "-")
    if kind == "type":
        return _ok(kind, hidden)
    if kind == "items":
        indices = check.get("indices", [0])
        wrong_items = [i for i in indices if not _same(got[i], want[i], question.precision)]
        if not wrong_items:
            return _ok(kind, hidden)
        i = wrong_items[0]
        return _fail(kind, "grading.check.item_wrong", hidden, Fraction(len(indices) - len(wrong_items), len(indices)),
                     name=name, n=i + 1, got=_show(got[i]))
    if kind == "equals":
        if _same(got, want, question.precision):
            return _ok(kind, hidden)
        mid = _misconception_of(question, got, lid)
        if isinstance(want, list):
            wrong = [i + 1 for i, (g, w) in enumerate(zip(got, want, strict=True))
                     if not _same(g, w, question.precision)]
            share = Fraction(len(want) - len(wrong), len(want))
            if mid:
                return _misconception_fail(kind, hidden, share, mid, name, _show(raw))
            return _fail(kind, "grading.check.items_wrong", hidden, share, name=name,
                         items=", ".join(map(str, wrong)), count=len(wrong))
        if mid:
            return _misconception_fail(kind, hidden, Fraction(0), mid, name, _show(raw))
        return _fail(kind, "grading.check.wrong", hidden, Fraction(0), name=name, got=_show(raw))
    raise SpecError("grading.spec.bad_check", where=question.id, value=kind,
                    choices="type, equals, items")


def _misconception_fail(kind: str, hidden: bool, share: Fraction, mid: str, name: str, got: str) -> CheckResult:
    from ...misconceptions import get

    m = get(mid)
    return _fail(kind, "grading.check.value_misconception", hidden, share, m.id, name=name, got=got,
                 id=m.id, claim=dict(m.claims), correction=dict(m.corrections))


def _function_check(
    question: Question, check: dict[str, Any], answer: dict[str, Any], lid: str, hidden: bool,
    static_ownwork: tuple[bool, str] | None,
) -> CheckResult:
    kind = check["check"]
    name = question.answer
    if kind == "own-work":  # old metadata: only "the answer is a function of the kit's API itself"
        if answer.get("kit_function") is True:
            return _fail(kind, "grading.check.kit_function", hidden, name=name)
        return _ok(kind, hidden)
    inputs = question.inputs()
    results = answer.get("results")
    if type(results) is not list or len(results) != len(inputs):
        return _fail(kind, "grading.check.no_results", hidden, Fraction(0), name=name)
    if kind == "inputs":
        wanted = [list(i) for i in check.get("inputs", [])]
        indices = sorted({inputs.index(w) for w in wanted if w in inputs})  # in the domain's order
    elif kind == "all-inputs":
        indices = list(range(len(inputs)))
    else:
        raise SpecError("grading.spec.bad_check", where=question.id, value=kind,
                        choices="inputs, all-inputs, own-work")
    verdict = _cells(question, [inputs[i] for i in indices], [results[i] for i in indices], lid)
    if not verdict.wrong:
        return _ok(kind, hidden)
    detail = {lang: verdict.detail(name, lang, everything=kind == "all-inputs") for lang in ("zh", "en")}
    key = "grading.check.cells_wrong" if kind == "all-inputs" else "grading.check.public_cells_wrong"
    first = verdict.misconceptions[0] if verdict.misconceptions else None
    return CheckResult(kind, False, key, {"name": name, "count": len(verdict.wrong), "total": verdict.total,
                                          "right": verdict.right, "detail": detail},
                       hidden, verdict.share, first, verdict.wrong, verdict.misconceptions)


def _cells(question: Question, inputs: list[list[Any]], raws: list[Any], lid: str) -> CellVerdict:
    """Her function's answers on ``inputs`` judged cell by cell (:func:`.cells.judge_cells`)."""
    got = []
    for raw in raws:
        try:
            got.append(coerce(question.type, raw, precision=question.precision))
        except _Bad:
            got.append(BAD)
    return judge_cells(question.key, lid, inputs, got, [_show(r) for r in raws],
                       lambda a, b: _same(a, b, question.precision), question.misconceptions)


def allowed_calls_line(exercise: Exercise, lang: str) -> str:
    """The line of an exercise's title cell that says which kit calls it allows (from its
    ``allowed_calls``; a test keeps the two equal).

    >>> ex = Exercise("x", {}, (), ("bk.grading.hands_for",))
    >>> allowed_calls_line(ex, "en")[:60]
    '**Kit calls allowed:** `bk.set_language`, `bk.grading.Checke'
    """
    sep = "、" if normalize_language(lang) == "zh" else ", "
    return message("grading.notebook.allowed_calls", lang, calls=sep.join(f"`{c}`" for c in exercise.all_allowed_calls))


# ---------------------------------------------------------------- a written question (scored by hand)
_WRITTEN_ID = re.compile(r"^[A-Za-z0-9_-]{1,40}$")


def _written_criterion(item: Any, where: str, seen: set[str]) -> dict[str, Any]:
    if not isinstance(item, dict):
        raise SpecError("manual.spec.criterion", where=where, value=repr(item)[:80])
    cid, points = item.get("id"), item.get("points")
    if not isinstance(cid, str) or not _WRITTEN_ID.match(cid) or cid in seen:
        raise SpecError("manual.spec.criterion_id", where=where, value=repr(cid)[:80])
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise SpecError("grading.spec.bad_points", where=f"{where}, rubric {cid}", value=points)
    texts = {lang: item.get(lang) for lang in ("zh", "en")}
    if not all(isinstance(t, str) and t.strip() for t in texts.values()):
        raise SpecError("manual.spec.criterion_text", where=f"{where}, rubric {cid}")
    seen.add(cid)
    return {"id": cid, "points": points, "zh": str(texts["zh"]).strip(), "en": str(texts["en"]).strip()}


def _written_question(cls: type[Question], data: dict[str, Any], where: str) -> Question:
    """A ``written`` question (:mod:`.written` judges its answers) from its metadata (a source's, with its rubric; a learner copy's,
    without). The rubric's points must add up to the question's."""
    qid = data.get("id")
    if not isinstance(qid, str) or not _WRITTEN_ID.match(qid):
        raise SpecError("grading.spec.missing_field", where=where, value=data)
    here = f"{where}, {qid}"
    answer = data.get("answer", qid)
    if not isinstance(answer, str) or not _WRITTEN_ID.match(answer):
        raise SpecError("grading.spec.missing_field", where=here, value=data)
    points = data.get("points", 1)
    if isinstance(points, bool) or not isinstance(points, int) or points < 1:
        raise SpecError("grading.spec.bad_points", where=here, value=points)
    raw = data.get("rubric", [])
    if not isinstance(raw, list):
        raise SpecError("manual.spec.criterion", where=here, value=repr(raw)[:80])
    seen: set[str] = set()
    rubric = tuple(_written_criterion(item, here, seen) for item in raw)
    if rubric and sum(c["points"] for c in rubric) != points:
        raise SpecError("manual.spec.rubric_sum", where=here, total=sum(c["points"] for c in rubric), points=points)
    text = data.get("text", {})
    return cls(qid, WRITTEN, answer, points, "str", {}, (), (),
               text={"zh": str(text.get("zh", "")), "en": str(text.get("en", ""))} if isinstance(text, dict) else {},
               rubric=rubric, hint=_hint(data, here))


# ---------------------------------------------------------------- what the exercise API is told
API_MESSAGES = {"absent": "grading.api.absent", "not_keyed": "grading.api.not_keyed",
                "learner_id": "grading.learner_id", "grading_mode": "grading.notebook.grading_mode",
                "unknown_question": "grading.notebook.unknown_question",
                "letter_value": "grading.notebook.letter_value", "letter_no_question": "grading.notebook.letter_no_question",
                "letter_no_option": "grading.notebook.letter_no_option",
                "letter_no_choices": "grading.notebook.letter_no_choices"}
"""What the exercise API may say, by its own name → the key in ``locale/grading.toml``."""


def api_payload(exercise: Exercise, shown: dict[str, object], key_id: str | None, learner: str | None) -> dict[str, object]:
    """What the exercise API (:mod:`..sandbox.exercise_api`, the grading run's only ``baccarat_kit``)
    is told for one file, computed here with the engine: the exercise (``shown``: the metadata of
    the learner's copy), ``learner`` (whom the file is keyed for: the id its hands are for) and, for ``key_id`` (her public id or term token), her hands,
    settlement data (the ledger as CSV rows) and every choice's options in her order, plus the
    messages in both languages. No key, no rule: only the exercise's data."""
    meta = Exercise.from_metadata(shown, exercise.id)
    out: dict[str, object] = {
        "exercise": exercise.id, "learner": learner.strip() if isinstance(learner, str) and learner.strip() else None,
        "edition": str(shown.get("edition", "class")),
        "messages": {name: {lang: message(key, lang) if name in ("grading_mode",) else _template(key, lang)
                            for lang in ("zh", "en")} for name, key in API_MESSAGES.items()},
    }
    calls = exercise.all_allowed_calls
    if key_id and "bk.grading.hands_for" in calls:
        out["hands"] = _keys.variant_hands(exercise.id, key_id)
    if key_id and "bk.grading.settlement_for" in calls:
        data = _keys.settlement_variant(key_id, exercise.id)
        ledger = data.pop("ledger")
        out["settlement"] = {**{k: v for k, v in data.items()}, "ledger_csv": ledger.to_csv(),
                             "opening_balance": str(ledger.opening_balance)}
    options: dict[str, object] = {}
    shuffled = False
    for q in meta.questions:
        if q.kind != "choice":
            continue
        shuffled = shuffled or q.shuffle
        options[q.id] = [[letter, {k: v for k, v in q.options[key].items() if k in ("zh", "en", "means")}]
                         for letter, key in q.shown_options(out["learner"] or "").items()]  # type: ignore[arg-type]
    out["options"] = options
    out["shuffled"] = shuffled
    return out


def _template(key: str, lang: str) -> str:
    """A message's text with its ``{fields}`` left in (the API fills them)."""
    return catalogue()[key][lang]
