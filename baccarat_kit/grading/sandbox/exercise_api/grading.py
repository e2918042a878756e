"""``bk.grading`` in a grading run: the checker and the exercise's data, nothing that decides.

``check(...)`` records nothing and says that the notebook is being graded; ``check.options`` and
``check.letter`` read the options in the learner's order, and ``hands_for`` / ``settlement_for``
the data, all computed by the grader on its own side for the learner this file is keyed for and
handed in as literals (:func:`._state.configure`).
"""

from __future__ import annotations

import sys
from decimal import Decimal, InvalidOperation
from typing import Any

from . import _state
from ._state import absent_error
from .ledger import Ledger

__all__ = ["CheckReport", "Checker", "ChoiceError", "LearnerIdMissing", "hands_for", "settlement_for"]
__path__: list[str] = []  # a package without submodules: ``baccarat_kit.grading.judge`` is absent, and says so


class LearnerIdMissing(ValueError):
    """``LEARNER_ID`` is not set (or not the one this run was keyed for)."""


class ChoiceError(ValueError):
    """``check.letter`` used wrongly: what is wrong and the valid choices, in Traditional Chinese
    then in English (a parameter given as ``{"zh": …, "en": …}`` is taken in each language)."""

    def __init__(self, key: str, **params: Any) -> None:
        texts = [_state.text(key, lang, **{k: (v.get(lang, "") if isinstance(v, dict) else v)
                                          for k, v in params.items()}) for lang in ("zh", "en")]
        super().__init__(" / ".join(texts))


def _short(value: object, limit: int = 80) -> str:
    text = str(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


class CheckReport:
    """What ``check(qid)`` shows."""

    def __init__(self, qid: str, text: str, passed: bool = False) -> None:
        self.qid, self.text, self.passed, self.result = qid, text, passed, None

    def __repr__(self) -> str:
        return self.text

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(self.text)


def _learner(learner_id: object) -> str:
    if type(learner_id) is not str or not learner_id.strip():
        raise LearnerIdMissing(_state.text("learner_id", value=repr(learner_id)))
    return learner_id.strip()


def _keyed(learner_id: object, exercise: str | None = None) -> dict[str, Any]:
    """The run's data if ``learner_id`` (and ``exercise``) are the ones it was keyed for."""
    data = _state.data()
    learner = _learner(learner_id)
    keyed = data.get("learner")
    if keyed is None or learner != str(keyed).strip() or (exercise is not None and exercise != data.get("exercise")):
        raise LearnerIdMissing(_state.text("not_keyed", value=learner, exercise=exercise or data.get("exercise", "?"),
                                           keyed=keyed if keyed is not None else "-"))
    return data


def hands_for(exercise: str, learner_id: object) -> list[str]:
    """This learner's hands of ``exercise`` (cards in deal order, as text), as the grader dealt them."""
    hands = _keyed(learner_id, exercise).get("hands")
    if not isinstance(hands, list):
        raise absent_error("bk.grading.hands_for", attribute=True)
    return list(hands)


def settlement_for(learner_id: object) -> dict[str, object]:
    """The hands, stakes and ledger of the settlement exercise for this learner."""
    found = _keyed(learner_id).get("settlement")
    if not isinstance(found, dict):
        raise absent_error("bk.grading.settlement_for", attribute=True)
    out: dict[str, object] = {k: v for k, v in found.items() if k not in ("ledger_csv", "opening_balance")}
    out["ledger"] = Ledger.from_csv(found["ledger_csv"], found.get("opening_balance"))
    return out


def _caller_namespace() -> dict[str, Any]:
    frame = sys._getframe(2)
    while frame.f_back is not None and str(frame.f_globals.get("__name__", "")).startswith("baccarat_kit"):
        frame = frame.f_back
    return frame.f_globals


def _means(option: dict[str, Any], want: Any) -> bool:
    means = option.get("means")
    if isinstance(want, Decimal):
        try:
            return Decimal(str(means)) == want
        except InvalidOperation:
            return False
    return type(means) is type(want) and means == want


_PLAIN = (bool, int, str, Decimal, type(None))


class Checker:
    """``check = bk.grading.Checker("NN-name")``: in a grading run it checks nothing."""

    def __init__(self, exercise: str, lang: str | None = None, folder: object = None) -> None:
        self.exercise_id = exercise
        self.lang = lang
        self.edition = _state.data().get("edition", "class")

    def _lang(self, lang: str | None) -> str:
        chosen = lang or self.lang
        return "en" if str(chosen or _state.language()).lower().startswith("en") else "zh"

    def __call__(self, qid: str, lang: str | None = None, namespace: object = None) -> CheckReport:
        return CheckReport(qid, _state.text("grading_mode", self._lang(lang)), False)

    def _options(self, qid: str, namespace: Any) -> list[list[Any]]:
        data = _state.data()
        options = (data.get("options") or {}).get(qid)
        if options is None:
            raise LearnerIdMissing(_state.text("unknown_question", value=qid,
                                               choices=", ".join(data.get("options") or {}) or "-"))
        ns = namespace if isinstance(namespace, dict) else _caller_namespace()
        learner = ns.get("LEARNER_ID")
        keyed = data.get("learner")
        shown = learner.strip() if type(learner) is str and learner.strip() else None
        if data.get("shuffled", True) and shown != (str(keyed).strip() if keyed else None):
            raise LearnerIdMissing(_state.text("not_keyed", value=shown or "-", exercise=data.get("exercise", "?"),
                                               keyed=keyed if keyed is not None else "-"))
        return list(options)

    def options(self, qid: str, lang: str | None = None, namespace: object = None) -> CheckReport:
        """A choice question's options, lettered in this learner's order."""
        chosen = self._lang(lang)
        lines = [f'"{letter}": {opt.get(chosen, "")}' for letter, opt in self._options(qid, namespace)]
        return CheckReport(qid, "\n".join(lines), True)

    def letter(self, qid: str, means: Any, namespace: object = None) -> str:
        """The letter (in this learner's order) of the option that means ``means`` (a plain value);
        used wrongly, a :class:`ChoiceError` naming what is wrong and what would do."""
        shown = _short(qid)
        if type(means) not in _PLAIN:
            raise ChoiceError("letter_value", qid=shown, type=type(means).__name__[:60])
        data = _state.data()
        choices = data.get("options") or {}
        if not isinstance(qid, str) or qid not in choices:
            raise ChoiceError("letter_no_question" if choices else "letter_no_choices", qid=shown,
                              exercise=data.get("exercise", "?"), choices=", ".join(choices))
        options = self._options(qid, namespace)
        for letter, opt in options:
            if _means(opt, means):
                return str(letter)
        raise ChoiceError("letter_no_option", qid=shown, value=_short(repr(means)), choices={
            lang: ", ".join(f"{opt.get('means')!r} ({opt.get(lang, '')})" for _letter, opt in options)
            for lang in ("zh", "en")})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        raise absent_error(f"check.{name}", attribute=True)
