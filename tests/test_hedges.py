"""The sources' hedges (``baccarat_kit/data/hedges.toml``) travel with every restatement.

Where the course restates a rule a source hedges ("usually", "or some other compensating rule",
"check first whether the table is standard"), the restatement carries the hedge, in both
editions: the generated lesson notebooks, the misconceptions' corrections and the exercise
copies (instructor source, Chinese and English learner copies)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import pytest

import baccarat_kit as bk
from baccarat_kit.i18n import LANGUAGES

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(bk.__file__).parent / "data" / "hedges.toml"
HEDGES = tomllib.loads(DATA.read_text(encoding="utf-8"))["hedge"]
PLACES = [(h, n, w) for h in HEDGES for n, w in enumerate(h["where"])]


def _seeds() -> Path | None:
    for candidate in (ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"):
        if candidate.is_dir():
            return candidate
    return None


def _text(cell: dict) -> str:
    return cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])


def _lesson_cell(lesson: str, lang: str, near: str) -> str:
    folder = ROOT / "notebooks" if lang == "zh" else ROOT / "notebooks" / "en"
    nb = json.loads((folder / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    found = [_text(c) for c in nb["cells"] if c["cell_type"] == "markdown" and near in _text(c)]
    assert len(found) == 1, f"{folder.name}/{lesson}.ipynb: {len(found)} Markdown cells contain {near!r}"
    return found[0]


def _exercise_prompts(exercise: str, question: str) -> dict[str, str]:
    """The question's prompt cell in each copy: {"source zh", "source en", "zh", "en"}."""
    heading = re.compile(rf"^#+\s*{re.escape(question)}\b", re.M)
    out = {}
    for label, path in (("source", ROOT / "exercises" / "source"), ("zh", ROOT / "exercises"),
                        ("en", ROOT / "exercises" / "en")):
        nb = json.loads((path / f"{exercise}.ipynb").read_text(encoding="utf-8"))
        (cell,) = [c for c in nb["cells"] if c["cell_type"] == "markdown" and heading.search(_text(c))]
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


@pytest.mark.skipif(_seeds() is None, reason="the source pages (../shared/seeds) are not here")
@pytest.mark.parametrize("hedge", HEDGES, ids=lambda h: h["id"])
def test_hedge_quotes_are_the_sources_own_words(hedge: dict) -> None:
    seeds = _seeds()
    assert seeds is not None
    for q in hedge["quote"]:
        (page,) = seeds.glob(f"{q['source']}_*.txt")
        assert q["zh"] in page.read_text(encoding="utf-8"), (hedge["id"], q["source"])


@pytest.mark.parametrize(("hedge", "n", "where"), PLACES,
                         ids=[f"{h['id']}-{n}" for h, n, _ in PLACES])
def test_each_restatement_carries_its_hedge_in_both_editions(hedge: dict, n: int, where: dict) -> None:
    texts: dict[str, str] = {}
    if "lesson" in where:
        texts = {lang: _lesson_cell(where["lesson"], lang, where["near"][lang]) for lang in LANGUAGES}
    elif "misconception" in where:
        m = bk.misconceptions.get(where["misconception"])
        texts = {lang: m.correction(lang) for lang in LANGUAGES}
    elif "exercise" in where:
        texts = _exercise_prompts(where["exercise"], where["question"])
    assert texts, f"{hedge['id']} where #{n}: expected lesson, misconception or exercise"
    for label, text in texts.items():
        lang = label.split()[-1]
        missing = [p for p in hedge["phrases"][lang] if p not in text]
        assert not missing, f"{hedge['id']} at {where} ({label}): the restatement lacks {missing}"


def test_a_dropped_hedge_is_caught() -> None:
    """The check fails on a restatement without its hedge (the misconception before issue 23)."""
    before = "免傭桌在莊家以 6 點獲勝時只賠一半（Super 6：押 100 只淨贏 50，連本金拿回 150）。"
    (h,) = [h for h in HEDGES if h["id"] == "no-commission-is-a-variant"]
    assert [p for p in h["phrases"]["zh"] if p not in before] == h["phrases"]["zh"]
