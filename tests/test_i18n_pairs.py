"""Every zh/en pair of learner-facing text says the same thing in the checkable ways: the same
``{placeholders}`` and the same numbers.

The pairs: every message of ``baccarat_kit/locale/*.toml``, and every ``zh``/``en`` table of
``baccarat_kit/data/misconceptions.toml`` and ``baccarat_kit/data/quizzes.toml``. Numbers are
compared as multisets of digit runs (full-width digits read as ASCII, thousands separators
dropped); Chinese numerals and number words are read too (``兩`` 2, ``two`` 2 …) so that "兩個" and
"2" agree. A pair whose numbers differ on purpose is listed in ``SAME_ON_PURPOSE`` with the reason.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.i18n import catalogue

DATA = Path(__file__).resolve().parents[1] / "baccarat_kit" / "data"
_PLACEHOLDER = re.compile(r"(?<!\{)\{([A-Za-z_][\w.]*)(?:[!:][^{}]*)?\}(?!\})")
_FULLWIDTH = str.maketrans("０１２３４５６７８９．，", "0123456789.,")
_NUMBER = re.compile(r"\d+(?:\.\d+)?")

# Pairs whose numbers differ on purpose: key → why.
SAME_ON_PURPOSE: dict[str, str] = {}


def data_pairs(path: Path) -> dict[str, dict[str, str]]:
    """Every table with a ``zh`` and an ``en`` string in a data file, keyed by its path."""
    found: dict[str, dict[str, str]] = {}

    def walk(node: Any, where: str) -> None:
        if isinstance(node, dict):
            if isinstance(node.get("zh"), str) and isinstance(node.get("en"), str):
                found[where] = {"zh": node["zh"], "en": node["en"]}
                return
            for key, value in node.items():
                walk(value, f"{where}.{key}" if where else str(key))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                ident = value.get("id") if isinstance(value, dict) else None
                walk(value, f"{where}[{ident or i}]")

    walk(tomllib.loads(path.read_text(encoding="utf-8")), path.stem)
    return found


def tree_pairs(node: Any, where: str) -> dict[str, dict[str, str]]:
    """Every ``{"zh": …, "en": …}`` table in a parsed document, keyed by its path."""
    found: dict[str, dict[str, str]] = {}
    if isinstance(node, dict):
        if isinstance(node.get("zh"), str) and isinstance(node.get("en"), str):
            return {where: {"zh": node["zh"], "en": node["en"]}}
        for key, value in node.items():
            found.update(tree_pairs(value, f"{where}.{key}"))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            ident = value.get("id") if isinstance(value, dict) else None
            found.update(tree_pairs(value, f"{where}[{ident or i}]"))
    return found


def all_pairs() -> dict[str, dict[str, str]]:
    """Messages, misconceptions, quizzes, and the exercises' bilingual metadata (titles, options)."""
    pairs = dict(catalogue())
    for name in ("misconceptions.toml", "quizzes.toml"):
        pairs.update(data_pairs(DATA / name))
    for source in sorted((DATA.parents[1] / "exercises" / "source").glob("*.ipynb")):
        meta = read_source(source)["metadata"].get("baccarat_kit", {})
        meta = {**meta, "questions": [{k: v for k, v in q.items() if k != "text"} for q in meta.get("questions", [])]}
        pairs.update(tree_pairs(meta, f"exercises/{source.stem}"))  # (a question's text: its cells, tests/test_exercise_editions.py)
    return pairs


def placeholders(text: str) -> Counter[str]:
    return Counter(_PLACEHOLDER.findall(text))


def numbers(text: str) -> Counter[str]:
    """The numbers a text states: digit runs, without the parts inside {placeholders}."""
    text = _PLACEHOLDER.sub(" ", text).translate(_FULLWIDTH)
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)  # 5,000 → 5000
    return Counter(_NUMBER.findall(text))


PAIRS = all_pairs()


def test_the_pairs_were_read() -> None:
    assert len(PAIRS) > 500
    assert "lessons.q07.void-why" in PAIRS and "nb.col.cards" in PAIRS
    assert any(k.startswith("misconceptions.misconception[") for k in PAIRS)
    assert any(k.startswith("quizzes.quiz.") for k in PAIRS)
    assert "exercises/06-misconceptions.questions[q7].options.a" in PAIRS


@pytest.mark.parametrize("key", sorted(PAIRS))
def test_same_placeholders(key: str) -> None:
    pair = PAIRS[key]
    assert placeholders(pair["zh"]) == placeholders(pair["en"]), f"{key}: {pair}"


@pytest.mark.parametrize("key", sorted(PAIRS))
def test_same_numbers(key: str) -> None:
    pair = PAIRS[key]
    if key in SAME_ON_PURPOSE:
        return
    assert numbers(pair["zh"]) == numbers(pair["en"]), f"{key}: zh {pair['zh']!r} / en {pair['en']!r}"


def test_numbers_and_placeholders_are_read() -> None:
    assert numbers("押莊 １００ 拿回 195、5,000 靴、{n} 局") == Counter({"100": 1, "195": 1, "5000": 1})
    assert placeholders("莊家 {total} 點、{rule!r}、{{literal}}") == Counter({"total": 1, "rule": 1})


def test_no_english_message_puts_a_possessive_after_a_quoted_name() -> None:
    """``'{owner}''s`` reads as "'dan''s": say "counts for '{owner}'" instead."""
    assert [key for key, pair in catalogue().items() if "''s" in pair.get("en", "")] == []
