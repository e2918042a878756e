"""Every quotation the course attributes to a source page is that page's own words.

A quotation is a 「…」 that follows a source id (``000`` … ``004``) in the same sentence:
「000：「…」」, 「來源 001：「…」」, 「002 的常見問題：「…」」, and the English edition's
``003's FAQ … 「…」``. It must appear on that page character for character, with three
allowances that change no character of the source: whitespace is ignored (002's page has spaces
after its full-width punctuation), a quote nested inside another is written 『…』, and "…" marks
words left out. Table cells may be joined with ｜ (read as the page's ``|``).

Checked in the lesson sources (both editions' Markdown), the exercise sources (cells, their
English translations, comments of the model solutions), the misconceptions, the quizzes, the
hedges and notes, the cheat-sheet's texts and the trainer. The cases' quotes are checked by
tests/test_cases.py."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _seeds() -> Path | None:
    for candidate in (ROOT.parent / "shared" / "seeds", ROOT.parent.parent / "shared" / "seeds"):
        if candidate.is_dir():
            return candidate
    return None


SEEDS = _seeds()
_SOURCE_ID = re.compile(r"(?<![\w-])(00[0-4])(?![\w-])")


def _plain(text: str) -> str:
    """Text as compared: no whitespace (nor a lesson source's "# " line prefix), 『』 as 「」, ｜ as |."""
    text = re.sub(r"\n# ?", "\n", text)
    text = text.replace("『", "「").replace("』", "」").replace("｜", "|")
    return re.sub(r"\s+", "", text)


def attributed_quotes(text: str) -> list[tuple[str, str]]:
    """(source id, quoted words) for each 「…」 that follows a source id with no sentence end
    (。, 」 or a new line) between them.

    >>> attributed_quotes("000：「先確認」；BCR-001「閒2」。004 說「通常」")
    [('000', '先確認'), ('004', '通常')]
    """
    found = []
    i = 0
    while (start := text.find("「", i)) >= 0:
        depth, end = 0, start
        for end in range(start, len(text)):
            depth += {"「": 1, "」": -1}.get(text[end], 0)
            if depth == 0:
                break
        before = text[max(0, start - 80):start]
        ids = list(_SOURCE_ID.finditer(before))
        if ids and not re.search(r"[。」\n]", before[ids[-1].end():]):
            found.append((ids[-1].group(1), text[start + 1:end]))
        i = end + 1
    return found


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


@pytest.mark.skipif(SEEDS is None, reason="the source pages (../shared/seeds) are not here")
def test_every_attributed_quotation_is_the_sources_own_words() -> None:
    assert SEEDS is not None
    pages = {p.name[:3]: _plain(p.read_text(encoding="utf-8")) for p in SEEDS.glob("00[0-4]_*.txt")}
    wrong = []
    for where, text in _texts():
        for sid, quote in attributed_quotes(text):
            parts = [p for p in re.split(r"…+", _plain(quote)) if p]
            missing = [p for p in parts if p not in pages[sid]]
            if missing:
                wrong.append(f"{where}: {sid} 「{quote}」 (not on the page: {missing})")
    assert not wrong, "\n".join(wrong)


@pytest.mark.skipif(SEEDS is None, reason="the source pages (../shared/seeds) are not here")
def test_a_changed_character_is_caught() -> None:
    """The comparison is exact apart from the stated allowances: a full-width ？ for 003's ?
    or a stitched sentence fails."""
    assert SEEDS is not None
    (page,) = SEEDS.glob("003_*.txt")
    text = _plain(page.read_text(encoding="utf-8"))
    assert _plain("這些規則適用所有百家樂變體嗎?") in text
    assert _plain("這些規則適用所有百家樂變體嗎？") not in text
    (page,) = SEEDS.glob("002_*.txt")
    text = _plain(page.read_text(encoding="utf-8"))
    assert _plain("任一方首兩張是不是 8 或 9？｜是 → Natural， 雙方不再補牌。") in text
    assert _plain("任一方首兩張是不是 8 或 9？是 → Natural，雙方不再補牌。") not in text
