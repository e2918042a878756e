"""Quiz questions as data: :class:`Question`, :class:`Option`, and questions generated from
the rules engine (:func:`banker_questions`, :func:`player_questions`). No widget here; the
:class:`~baccarat_kit.widgets.Quiz` shows them and ``question_sets`` builds the lessons' sets.

>>> (q,) = banker_questions([(3, 8)])
>>> q.id, q.options[q.answer].text["en"]
('banker-3-vs-8', 'stands')
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import BaccaratError
from ..i18n import LANGUAGES, both
from ..misconceptions import get as get_misconception
from ..rules import (
    PLAYER_DRAWS_ON,
    banker_draws,
    banker_rule,
    format_values,
    player_draws,
    player_rule,
)
from ._common import WidgetError, banker_reason


def _texts(value: object, qid: str, name: str) -> dict[str, str]:
    if not isinstance(value, Mapping) or any(not isinstance(value.get(k), str) for k in LANGUAGES):
        raise WidgetError("widgets.quiz.bad-field", id=qid, field=name,
                          expected='{"zh": "…", "en": "…"}')
    return {k: str(value[k]) for k in LANGUAGES}


@dataclass(frozen=True, slots=True)
class Option:
    """One answer: its text in each language; for a wrong one, a misconception id; and ``why``
    (zh, en): for a wrong option the rule step that disagrees, for the right one why it is right."""

    text: dict[str, str]
    misconception: str | None = None
    why: dict[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Question:
    """One multiple-choice question; ``answer`` is the index of the correct option."""

    id: str
    prompt: dict[str, str]
    options: tuple[Option, ...]
    answer: int
    explain: dict[str, str] | None = field(default=None)
    hint: dict[str, str] | None = field(default=None)
    """Shown on request, before the answer (zh, en)."""

    def __post_init__(self) -> None:
        if len(self.options) < 2:
            raise WidgetError("widgets.quiz.too-few-options", id=self.id, given=len(self.options))
        if (isinstance(self.answer, bool) or not isinstance(self.answer, int)
                or not 0 <= self.answer < len(self.options)):
            raise WidgetError("widgets.quiz.bad-answer", id=self.id, value=self.answer,
                              last=len(self.options) - 1)
        for opt in self.options:
            if opt.misconception is not None:
                get_misconception(opt.misconception)  # an unknown id is an error now

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Question:
        """A question from a dict (or a TOML table) of the documented shape."""
        qid = str(data.get("id", "?"))
        raw_options = data.get("options")
        if not isinstance(raw_options, Sequence) or isinstance(raw_options, str):
            raise WidgetError("widgets.quiz.bad-field", id=qid, field="options",
                              expected="[{zh, en, misconception?}, …]")
        options = tuple(
            Option(_texts(o, qid, "options"), o.get("misconception") if isinstance(o, Mapping) else None,
                   _texts(o["why"], qid, "why") if isinstance(o, Mapping) and "why" in o else None)
            for o in raw_options
        )
        explain = data.get("explain")
        hint = data.get("hint")
        return cls(
            id=qid,
            prompt=_texts(data.get("prompt"), qid, "prompt"),
            options=options,
            answer=data.get("answer"),  # type: ignore[arg-type]  # checked in __post_init__
            explain=_texts(explain, qid, "explain") if explain is not None else None,
            hint=hint_texts(_texts(hint, qid, "hint"), qid) if hint is not None else None,
        )


def hint_texts(texts: dict[str, str], qid: str) -> dict[str, str]:
    """A question's ``hint``: both languages, neither empty (else an error naming the question)."""
    empty = [lang for lang in LANGUAGES if not texts.get(lang, "").strip()]
    if empty:
        raise WidgetError("widgets.quiz.empty-hint", id=qid, langs=", ".join(empty))
    return texts


def load_questions(path: str | Path) -> tuple[Question, ...]:
    """Questions from a TOML file of ``[[question]]`` tables (the dict shape above)."""
    data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    return tuple(Question.from_dict(q) for q in data.get("question", []))


def _draw_stand_options(draws: bool, wrong_misconception: str | None) -> tuple[tuple[Option, ...], int]:
    """Options "draws" / "stands" (always in this order), the answer index from the engine."""
    draw = Option(both("widgets.quiz.draw"), None if draws else wrong_misconception)
    stand = Option(both("widgets.quiz.stand"), wrong_misconception if draws else None)
    return (draw, stand), (0 if draws else 1)


def _known(mid: str) -> str | None:
    try:
        get_misconception(mid)
    except BaccaratError:
        return None
    return mid


def banker_misconception(total: int, third: int | None) -> str | None:
    """The misconception a wrong answer to "banker ``total``, player third ``third``" shows.

    Chosen by comparing the engine's answer with the answer each misconception gives;
    ``None`` when none fits.

    >>> banker_misconception(3, 8), banker_misconception(6, 7), banker_misconception(1, 8)
    ('banker-3-always', 'banker-6-always-stands', 'eight-stops-low-banker')
    >>> banker_misconception(5, None), banker_misconception(4, 1)
    ('banker-copies-player', 'banker-0-5-always')
    """
    draws = banker_draws(total, third)
    if third is None:
        # wrongly standing with a low total: "the player stood, so the banker stands too"
        return "banker-copies-player" if draws else None
    # a belief about this very total ("banker 3 always draws", "banker 6 always stands")
    specific = _known(f"banker-{total}-always-stands" if draws else f"banker-{total}-always")
    if specific:
        return specific
    if draws and third == 8:
        return "eight-stops-low-banker"  # the wrong answer stands on the player's 8
    if draws != banker_draws(total, None):
        return "banker-0-5-always"  # the wrong answer is the player-stood rule's answer
    return None


def banker_questions(cells: Iterable[tuple[int, int | None]]) -> list[Question]:
    """For each (banker total, player third value or None): draw or stand? The answer, its
    reason and the misconception a wrong answer shows all come from the engine."""
    questions = []
    for total, third in cells:
        draws = banker_draws(total, third)
        options, answer = _draw_stand_options(draws, banker_misconception(total, third))
        prompt = (both("widgets.quiz.banker-question-stood", total=total) if third is None
                  else both("widgets.quiz.banker-question-third", total=total, value=third))
        rule = banker_rule(total, third)
        explain = {lang_: both("widgets.quiz.rule-reason", rule=rule,
                               reason=banker_reason(total, third, lang_))[lang_]
                   for lang_ in LANGUAGES}
        hint = (both("widgets.quiz.banker-hint-stood", total=total) if third is None
                else both("widgets.quiz.banker-hint-third", total=total, value=third))
        questions.append(Question(rule, prompt, options, answer, explain, hint))
    return questions


def player_questions(totals: Iterable[int]) -> list[Question]:
    """For each player two-card total (0–7, no natural): draw or stand?"""
    questions = []
    draws_on = format_values(PLAYER_DRAWS_ON)
    stands_on = format_values(set(range(8)) - PLAYER_DRAWS_ON)
    for total in totals:
        draws = player_draws(total)
        options, answer = _draw_stand_options(draws, None)
        rule = player_rule(total)
        explain = {
            k: both("widgets.quiz.rule-reason", rule=rule, reason=both(
                "widgets.quiz.player-reason", total=total, draws=draws_on, stands=stands_on,
                action=both("action.draw" if draws else "action.stand")[k])[k])[k]
            for k in LANGUAGES
        }
        questions.append(Question(rule, both("widgets.quiz.player-question", total=total),
                                  options, answer, explain, both("widgets.quiz.player-hint", total=total)))
    return questions
