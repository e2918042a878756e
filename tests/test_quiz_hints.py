"""Every quiz question has a hint, and the trainer's questions are cells no case uses (issue 31).

A hint (``hint = { zh = "…", en = "…" }`` in ``baccarat_kit/data/quizzes.toml``) nudges toward
the rule step to look at; it never gives the answer. The trainer's question set is not a hand
list: its banker cells are read from the case catalogue's coverage when the quiz is built."""

from __future__ import annotations

import re

import pytest

from baccarat_kit.cases import load
from baccarat_kit.cases.coverage import coverage
from baccarat_kit.i18n import LANGUAGES
from baccarat_kit.rules import banker_rule
from baccarat_kit.widgets import question_sets as qs

QUESTIONS = [(name, q) for name in qs.lesson_names() for q in qs.lesson_questions(name)]
IDS = [f"{name}-{q.id}" for name, q in QUESTIONS]


@pytest.mark.parametrize(("name", "q"), QUESTIONS, ids=IDS)
def test_every_question_has_a_hint_in_both_languages(name: str, q: qs.Question) -> None:
    assert q.hint is not None, f"{name}/{q.id}: no hint"
    for lang in LANGUAGES:
        assert q.hint[lang].strip(), f"{name}/{q.id}: an empty {lang} hint"
    assert re.search(r"[\u4e00-\u9fff]", q.hint["zh"]) and not re.search(r"[\u4e00-\u9fff]{4}", q.hint["en"])


@pytest.mark.parametrize(("name", "q"), QUESTIONS, ids=IDS)
def test_a_hint_does_not_give_the_answer(name: str, q: qs.Question) -> None:
    """The hint names the rule step, not the answer: it does not repeat the right option's words
    (a word like "banker" aside) nor the explanation shown after answering."""
    for lang in LANGUAGES:
        right = q.options[q.answer].text[lang]
        if len(right) > 8:
            assert right not in q.hint[lang], (name, q.id, lang)
        if q.explain is not None:
            assert q.explain[lang] not in q.hint[lang] and q.hint[lang] not in q.explain[lang], (name, q.id, lang)
        assert q.hint[lang] != q.prompt[lang], (name, q.id, lang)


def test_the_trainer_asks_cells_no_case_uses_read_from_the_catalogue() -> None:
    missing = set(coverage(load()).missing)
    trainer = qs.lesson_questions("trainer")
    cells = qs.uncovered_banker_cells()
    assert len(trainer) == len(cells) >= 6
    assert [q.id for q in trainer] == [f"banker-{t}-stood" if v is None else f"banker-{t}-vs-{v}"
                                       for t, v in cells]
    for t, v in cells:
        assert banker_rule(t, v) in missing, (t, v)
    # issue 31: the hand list named banker 6 vs 7, which 001-EX-4, HK-D and TW-B use
    assert (6, 7) not in cells and banker_rule(6, 7) not in missing


def test_the_04_self_check_asks_cells_no_case_uses() -> None:
    """Lesson 04 says its self-check asks matrix cells the sources' cases do not use."""
    missing = set(coverage(load()).missing)
    for q in qs.lesson_tables("04"):
        if q["kind"] == "banker":
            third = None if q["third"] == "stood" else int(q["third"])
            assert banker_rule(int(q["total"]), third) in missing, q["id"]
