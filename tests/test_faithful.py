"""Every quotation the course attributes to a source page is that page's own words.

A quotation is a 「…」 that follows a source id (``000`` … ``004``) in the same sentence
(:func:`baccarat_kit.sources.attributed_quotes`). It must appear on that page character for
character, with the allowances of :mod:`baccarat_kit.sources` (whitespace, 『』, "…"), which
``baccarat-kit release`` and ``baccarat-kit cases check`` apply too; the pages are found as the
kit finds them (``$BACCARAT_KIT_SOURCES``, else ``shared/seeds`` beside the checkout).

Checked in the lesson sources (both editions' Markdown), the exercise sources (cells, their
English translations, comments of the model solutions), the misconceptions, the quizzes, the
hedges and notes, the cheat-sheet's texts and the trainer. The cases' quotes are checked by
tests/test_cases.py."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from baccarat_kit import sources
from baccarat_kit.sources import Pages, attributed_quotes

ROOT = Path(__file__).resolve().parents[1]


def _texts() -> list[tuple[str, str]]:
    out = [(f"notebooks/src/{p.name}", p.read_text(encoding="utf-8"))
           for p in sorted((ROOT / "notebooks" / "src").glob("*.py"))]
    for path in sorted((ROOT / "exercises" / "source").glob("*.ipynb")):
        for n, cell in enumerate(json.loads(path.read_text(encoding="utf-8"))["cells"]):
            src = cell["source"] if isinstance(cell["source"], str) else "".join(cell["source"])
            out.append((f"exercises/source/{path.name} cell {n}", src))
            for lang, text in (cell.get("metadata", {}).get("translations") or {}).items():
                out.append((f"exercises/source/{path.name} cell {n} ({lang})", text))
    for rel in ("baccarat_kit/data/misconceptions.toml", "baccarat_kit/data/quizzes.toml",
                "baccarat_kit/data/hedges.toml", "baccarat_kit/locale/cheatsheet.toml",
                "trainer/trainer.ipynb"):
        out.append((rel, (ROOT / rel).read_text(encoding="utf-8")))
    return out


def test_the_finder_sees_the_course_quotations() -> None:
    """The check has something to check: hundreds of attributed quotations, in both editions."""
    quotes = [q for _, text in _texts() for q in attributed_quotes(text)]
    assert len(quotes) > 250
    assert {sid for sid, _ in quotes} == {"000", "001", "002", "003", "004"}


def test_every_attributed_quotation_is_the_sources_own_words(source_pages: Pages) -> None:
    wrong = []
    for where, text in _texts():
        for sid, quote in attributed_quotes(text):
            missing = source_pages.missing(sid, quote)
            if missing:
                wrong.append(f"{where}: {sid} 「{quote}」 (not on the page: {missing})")
    assert not wrong, "\n".join(wrong)


def test_a_changed_character_is_caught(source_pages: Pages) -> None:
    """The comparison is exact apart from the stated allowances: a full-width ？ for 003's ?
    or a stitched sentence fails."""
    assert source_pages.missing("003", "這些規則適用所有百家樂變體嗎?") == []
    assert source_pages.missing("003", "這些規則適用所有百家樂變體嗎？")
    assert source_pages.missing("002", "任一方首兩張是不是 8 或 9？｜是 → Natural， 雙方不再補牌。") == []
    assert source_pages.missing("002", "任一方首兩張是不是 8 或 9？是 → Natural，雙方不再補牌。")


def test_the_finder_says_where_it_looked(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``$BACCARAT_KIT_SOURCES`` names the folder; one without pages is not taken, and the
    message says where the kit looked."""
    monkeypatch.setenv(sources.ENV, str(tmp_path))
    assert sources.find() is None and sources.where_looked() == str(tmp_path)
    (tmp_path / "000_abc.txt").write_text("閒家 0～5 點補牌\n", encoding="utf-8")
    pages = sources.find()
    assert pages is not None and pages.folder == tmp_path and pages.ids == ("000",)
    assert pages.missing("000", "閒家0～5點補牌") == [] and pages.missing("001", "x") is None
