"""The sources' hedges (``baccarat_kit/data/hedges.toml``) travel with every restatement.

Where the course restates a rule a source hedges ("usually", "or some other compensating rule",
"check first whether the table is standard"), the restatement carries the hedge, in both
editions: the generated lesson notebooks, the misconceptions' corrections and the exercise
copies (instructor source, Chinese and English learner copies)."""

from __future__ import annotations

import html
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

import baccarat_kit as bk
from baccarat_kit.grading.term.authoring import read_source
from baccarat_kit.i18n import LANGUAGES
from baccarat_kit.widgets import question_sets as qs

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(bk.__file__).parent / "data" / "hedges.toml"
_DATA = tomllib.loads(DATA.read_text(encoding="utf-8"))
HEDGES = _DATA["hedge"]
NOTES = _DATA["note"]
PLACES = [(h, n, w) for h in HEDGES for n, w in enumerate(h["where"])]
NOTE_PLACES = [(h, n, w) for h in NOTES for n, w in enumerate(h["where"])]


def _text(cell: dict[str, Any]) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _lesson_cell(lesson: str, lang: str, near: str) -> str:
    folder = ROOT / "notebooks" if lang == "zh" else ROOT / "notebooks" / "en"
    nb = json.loads((folder / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    found = [_text(c) for c in nb["cells"] if c["cell_type"] == "markdown" and near in _text(c)]
    assert len(found) == 1, f"{folder.name}/{lesson}.ipynb: {len(found)} Markdown cells contain {near!r}"
    return found[0]


def _exercise_prompts(exercise: str, question: str) -> dict[str, str]:
    """The question's prompt cell in each copy: {"source zh", "source en", "zh", "en"};
    ``question = "header"`` is the exercise's opening cell (its title, sources and conventions)."""
    heading = re.compile(r"^# " if question == "header" else rf"^#+\s*{re.escape(question)}\b", re.M)
    out = {}
    for label, path in (("source", ROOT / "exercises" / "source"), ("zh", ROOT / "exercises"),
                        ("en", ROOT / "exercises" / "en")):
        nb = read_source(path / f"{exercise}.ipynb")  # (a learner copy is read as it is)
        (cell,) = [c for c in nb["cells"] if c["cell_type"] == "markdown" and heading.match(_text(c))]
        if label == "source":
            out["source zh"] = _text(cell)
            out["source en"] = cell["metadata"]["translations"]["en"]
        else:
            out[label] = _text(cell)
    return out


def test_every_hedge_is_bilingual_and_has_places() -> None:
    ids = [h["id"] for h in HEDGES]
    assert len(ids) == len(set(ids))
    for h in HEDGES:
        assert all(h["rule"][k] for k in LANGUAGES) and all(h["phrases"][k] for k in LANGUAGES), h["id"]
        assert h["quote"] and all(q["zh"] and q["en"] and q["source"] for q in h["quote"]), h["id"]
        assert h["where"], h["id"]
        # the zh phrase is the source's own hedge word: some quote carries it
        assert all(any(p in q["zh"] for q in h["quote"]) for p in h["phrases"]["zh"]), h["id"]
        # and the kit's translation of the quote carries the English phrase
        assert all(any(p in q["en"] for q in h["quote"]) for p in h["phrases"]["en"]), h["id"]


@pytest.mark.parametrize("hedge", HEDGES, ids=lambda h: h["id"])
def test_hedge_quotes_are_the_sources_own_words(hedge: dict[str, Any], source_pages: Any) -> None:
    for q in hedge["quote"]:
        assert source_pages.has(q["source"], q["zh"]), (hedge["id"], q["source"])


def _quiz_texts(name: str, question: str) -> dict[str, str]:
    """Everything a learner reads of one quiz question, per language: prompt, options, whys,
    explanation and hint."""
    (q,) = [q for q in qs.lesson_tables(name) if q["id"] == question]
    built = qs.build_question(q)
    out = {}
    for lang in LANGUAGES:
        parts = [built.prompt[lang], *(o.text[lang] for o in built.options)]
        parts += [w[lang] for w in qs.option_whys(q) if w is not None]
        parts += [t[lang] for t in (built.explain, built.hint) if t is not None]
        out[lang] = "\n".join(parts)
    return out


def _place_texts(where: dict[str, Any]) -> dict[str, str]:
    """The texts at one place, keyed by a label whose last word is the language."""
    if "lesson" in where:
        return {lang: _lesson_cell(where["lesson"], lang, where["near"][lang]) for lang in LANGUAGES}
    if "misconception" in where:
        m = bk.misconceptions.get(where["misconception"])
        return {lang: m.correction(lang) for lang in LANGUAGES}
    if "exercise" in where:
        return _exercise_prompts(where["exercise"], where["question"])
    if "quiz" in where:
        return _quiz_texts(where["quiz"], where["question"])
    if where.get("trainer"):
        nb = json.loads((ROOT / "trainer" / "trainer.ipynb").read_text(encoding="utf-8"))
        intro = _text(nb["cells"][0])  # the trainer's opening cell holds both languages
        return {"trainer zh": intro, "trainer en": intro}
    if where.get("cheatsheet"):
        from baccarat_kit.cheatsheet import html_page

        committed = (ROOT / "docs" / "cheat-sheet.html").read_text(encoding="utf-8")
        page = html.unescape(html_page())
        return {"page zh": page, "page en": page, "docs/cheat-sheet.html zh": html.unescape(committed),
                "docs/cheat-sheet.html en": html.unescape(committed)}
    return {}


@pytest.mark.parametrize(("hedge", "n", "where"), PLACES,
                         ids=[f"{h['id']}-{n}" for h, n, _ in PLACES])
def test_each_restatement_carries_its_hedge_in_both_editions(hedge: dict[str, Any], n: int, where: dict[str, Any]) -> None:
    texts = _place_texts(where)
    assert texts, f"{hedge['id']} where #{n}: expected lesson, misconception, exercise, quiz or cheatsheet"
    for label, text in texts.items():
        lang = label.split()[-1]
        missing = [p for p in hedge["phrases"][lang] if p not in text]
        assert not missing, f"{hedge['id']} at {where} ({label}): the restatement lacks {missing}"


def test_every_note_is_bilingual_and_has_places() -> None:
    ids = [h["id"] for h in NOTES]
    assert len(ids) == len(set(ids))
    for h in NOTES:
        assert all(h["about"][k] for k in LANGUAGES) and all(h["phrases"][k] for k in LANGUAGES), h["id"]
        assert h["where"], h["id"]


@pytest.mark.parametrize("note", [h for h in NOTES if "quote" in h], ids=lambda h: h["id"])
def test_a_note_flags_the_sources_own_words(note: dict[str, Any], source_pages: Any) -> None:
    assert source_pages.has(note["quote"]["source"], note["quote"]["zh"]), note["id"]


@pytest.mark.parametrize(("note", "n", "where"), NOTE_PLACES,
                         ids=[f"{h['id']}-{n}" for h, n, _ in NOTE_PLACES])
def test_each_note_is_where_the_course_says_it(note: dict[str, Any], n: int, where: dict[str, Any]) -> None:
    """Issue 31's faithfulness items: the course's own statements are marked as its own, the
    source slips it quotes are flagged, and the inexact words they replaced are gone."""
    texts = _place_texts(where)
    assert texts, f"{note['id']} where #{n}: no such place"
    for label, text in texts.items():
        lang = label.split()[-1]
        missing = [p for p in note["phrases"][lang] if p not in text]
        assert not missing, f"{note['id']} at {where} ({label}): lacks {missing}"
        still = [p for p in note.get("absent", {}).get(lang, []) if p in text]
        assert not still, f"{note['id']} at {where} ({label}): still says {still}"


def test_the_004_banker_4_slip_is_answered_by_the_engine_in_both_editions() -> None:
    """Lesson 04 quotes 004's "banker 4 stands because the third card is 8 or 9" and shows the
    engine's answer, 0, 1, 8 and 9, right after it."""
    assert [v for v in range(10) if not bk.banker_draws(4, v)] == [0, 1, 8, 9]
    for folder in (ROOT / "notebooks", ROOT / "notebooks" / "en"):
        cells = json.loads((folder / "04-banker-rule.ipynb").read_text(encoding="utf-8"))["cells"]
        (i,) = [i for i, c in enumerate(cells) if c["cell_type"] == "markdown" and "剛好是 8 或 9" in _text(c)]
        code = cells[i + 1]
        assert code["cell_type"] == "code" and "bk.banker_draws(4" in _text(code)
        shown = "".join("".join(o.get("data", {}).get("text/plain", "")) for o in code["outputs"])
        assert shown == "([0, 1, 8, 9], True)", folder


def test_no_lesson_says_every_wrong_option_names_a_misconception() -> None:
    """The self-checks: a wrong answer shows why, and names a misconception only when the option
    is one (some wrong options carry only a why)."""
    for folder, words in ((ROOT / "notebooks", "答錯時會看到正確答案與它對應的常見誤解"),
                          (ROOT / "notebooks" / "en", "shows the correct one and the common misconception behind it")):
        for nb in sorted(folder.glob("[0-9]*.ipynb")):
            text = "\n".join(_text(c) for c in json.loads(nb.read_text(encoding="utf-8"))["cells"])
            assert words not in text, nb


def test_no_lesson_calls_a_whole_coup_a_hand() -> None:
    """A hand is one side's cards; the round is a coup (lessons 00, 05, 07)."""
    for name, words in (("00-how-to-use", ["every hand played out", "still shows the hand the text"]),
                        ("05-bcr-cases", ["worked hands", "all eight hands", "teaching hands", "Play your own hand"]),
                        ("07-settlement", ["source hands"])):
        text = "\n".join(_text(c) for c in json.loads(
            (ROOT / "notebooks" / "en" / f"{name}.ipynb").read_text(encoding="utf-8"))["cells"])
        assert not [w for w in words if w in text], name


def test_a_dropped_hedge_is_caught() -> None:
    """The check fails on a restatement without its hedge (the misconception before issue 23)."""
    before = "免傭桌在莊家以 6 點獲勝時只賠一半（Super 6：押 100 只淨贏 50，連本金拿回 150）。"
    (h,) = [h for h in HEDGES if h["id"] == "no-commission-is-a-variant"]
    assert [p for p in h["phrases"]["zh"] if p not in before] == h["phrases"]["zh"]


def test_the_final_tests_tie_keys_say_whose_rule_they_are() -> None:
    """Issue 42: a final-test settlement on a tie keys the course's own table. Its explanation
    says so in both editions, with 000's "usually" for the push and "no source gives" for the
    tie bet's odds; no settlement prompt calls the course's table "standard"."""
    from baccarat_kit.widgets import final_bank

    items = [i for seed in range(8) for i in final_bank.bank(seed, 1) if i.kind == "settle"]
    ties = [(i, i.question.id.split("-")[2]) for i in items
            if bk.play(" ".join(i.question.id.split("-")[3:])).winner == "tie"]
    assert {area for _, area in ties} >= {"tie", "banker"} or {area for _, area in ties} >= {"tie", "player"}
    for item, area in ties:
        explain = item.question.explain
        assert explain is not None
        assert "本課程" in explain["zh"] and "this course's" in explain["en"], item.id
        if area == "tie":
            assert "來源沒有給和注" in explain["zh"] and "no source gives the tie" in explain["en"], item.id
        else:
            assert "通常" in explain["zh"] and "usually" in explain["en"], item.id
    for item in items:
        assert "標準傭金桌" not in item.question.prompt["zh"], item.id
        assert "standard commission table" not in item.question.prompt["en"], item.id
