"""The five source pages the course quotes, found once, and the one check of a quotation.

The pages (``000_….txt`` … ``004_….txt``, Traditional Chinese) are not shipped with the kit: they
sit beside a checkout of it (``../shared/seeds``). :func:`find` looks, in this order, in
``$BACCARAT_KIT_SOURCES`` (or the folder given), then beside the checkout the kit runs from. Every
part of the kit that checks a quotation — ``baccarat-kit cases check``, ``baccarat-kit release``
and the tests — finds them here; where they are not found, each says so (:func:`where_looked`),
never skipping in silence.

A quotation must be on its page character for character, with three allowances that change no
character of the source: whitespace is ignored (002's page has spaces after its full-width
punctuation), a quote nested in another is written 『…』, and "…" marks words left out. Table
cells may be joined with ｜ (read as the page's ``|``).

>>> attributed_quotes("000：「先確認」；BCR-001「閒2」。004 說「通常」")
[('000', '先確認'), ('004', '通常')]
>>> plain("閒 5 → 第三張 8； 莊 3") == plain("閒5→第三張8；莊3")
True
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ENV", "Pages", "attributed_quotes", "candidates", "find", "plain", "where_looked"]

ENV = "BACCARAT_KIT_SOURCES"
"""Environment variable: the folder that holds the source pages (``000_*.txt`` …)."""
PAGE_IDS = ("000", "001", "002", "003", "004")
"""The pages the course is built from (a folder may hold more: an instructor's own)."""
_SOURCE_ID = re.compile(r"(?<![\w-])(00[0-4])(?![\w-])")


def candidates(folder: str | os.PathLike[str] | None = None) -> list[Path]:
    """Where the pages are looked for: ``folder`` if given, else ``$BACCARAT_KIT_SOURCES`` if set,
    else ``shared/seeds`` beside the checkout the kit runs from (one or two folders up)."""
    if folder is not None and str(folder).strip():
        return [Path(folder).expanduser()]
    env = os.environ.get(ENV, "").strip()
    if env:
        return [Path(env).expanduser()]
    root = Path(__file__).resolve().parents[1]  # the checkout (or site-packages: then nothing there)
    return [root.parent / "shared" / "seeds", root.parent.parent / "shared" / "seeds"]


def where_looked(folder: str | os.PathLike[str] | None = None) -> str:
    """The folders :func:`find` looked in, for a message that says the pages are missing."""
    return ", ".join(str(p) for p in candidates(folder))


def plain(text: str) -> str:
    """Text as compared: no whitespace (nor a lesson source's ``# `` line prefix), 『』 as 「」,
    ｜ as ``|``."""
    text = re.sub(r"\n# ?", "\n", text)
    text = text.replace("『", "「").replace("』", "」").replace("｜", "|")
    return re.sub(r"\s+", "", text)


def attributed_quotes(text: str) -> list[tuple[str, str]]:
    """(source id, quoted words) for each 「…」 that follows a source id (``000`` … ``004``) with
    no sentence end (。, 」 or a new line) between them: 「000：「…」」, 「來源 001：「…」」,
    「002 的常見問題：「…」」, and the English ``003's FAQ … 「…」``."""
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


@dataclass(frozen=True)
class Pages:
    """The source pages of one folder, by page id (``"000"`` …)."""

    folder: Path
    texts: dict[str, str] = field(repr=False)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(sorted(self.texts))

    def text(self, page: str) -> str | None:
        """The page's text as it is, or None when the folder has no such page."""
        return self.texts.get(page)

    def missing(self, page: str, quote: str) -> list[str] | None:
        """The parts of ``quote`` (split at "…") that are not on ``page``: ``[]`` when all are;
        None when the folder has no such page."""
        text = self.texts.get(page)
        if text is None:
            return None
        flat = plain(text)
        return [part for part in re.split(r"…+", plain(quote)) if part and part not in flat]


def divergence(page_text: str, words: str, width: int = 12) -> tuple[str, str]:
    """Where ``words`` (compared :func:`plain`) leave the page: the end of their longest start that
    is on it, and what follows (each at most ``width`` characters, "…" where cut).

    >>> divergence("莊家 3 點停牌； 其他補牌", "莊家3點補牌")
    ('莊家3點', '補牌')
    """
    flat, want = plain(page_text), plain(words)
    low, high = 0, len(want)
    while low < high:  # the longest start of ``want`` on the page (a start of a start is on it too)
        mid = (low + high + 1) // 2
        if want[:mid] in flat:
            low = mid
        else:
            high = mid - 1
    before, after = want[:low], want[low:]
    before = before if len(before) <= width else "…" + before[-width:]
    after = after if len(after) <= width else after[:width] + "…"
    return before, after


def find(folder: str | os.PathLike[str] | None = None) -> Pages | None:
    """The source pages (:func:`candidates`: the first folder that holds pages ``NNN_*.txt``,
    each page's id the part of its name before ``_``), or None.

    A folder given (or named by ``$BACCARAT_KIT_SOURCES``) that holds no page gives None too:
    the caller says where it looked (:func:`where_looked`)."""
    for path in candidates(folder):
        pages = sorted(path.glob("*_*.txt")) if path.is_dir() else []
        texts = {p.name.split("_", 1)[0]: p.read_text(encoding="utf-8") for p in pages}
        if texts:
            return Pages(path, texts)
    return None
