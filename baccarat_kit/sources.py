"""The five source pages the course quotes, found once, and the one rule a quotation is held to.

The pages (``000_….txt`` … ``004_….txt``, Traditional Chinese) are not shipped with the kit: they
sit beside a checkout of it (``../shared/seeds``). :func:`find` looks in the folder given, else in
``$BACCARAT_KIT_SOURCES``, else beside the checkout the kit runs from (or beside its parent, a
worktree). Every part of the kit that checks a quotation — ``baccarat-kit cases check``,
``baccarat-kit release`` and the tests (``tests/test_faithful.py``) — finds them here and compares
with :func:`on_page`; where they are not found, each says so and where it looked
(:func:`where_looked`), never passing in silence.

**A quotation** is a 「…」 (nested quotes inside it are part of it); it is *attributed* when a
source id (``000`` … ``004``) stands before it in the same sentence (no 。, 」 or new line between):
「000：「…」」, 「來源 001：「…」」, ``003's FAQ … 「…」`` (:func:`quotations`).

**How it is compared.** Character for character, with allowances that change no word of the
page: whitespace is ignored (002's page has spaces after its full-width punctuation), a quote
nested inside another may be written 『…』, table cells may be joined with ｜ (the page's ``|``).
"…" or "……" marks words left out, and then the pieces must be found in the quotation's order,
each within :data:`WINDOW` characters of the page's text after the previous one (whitespace not
counted), and each "…" must stand for words: an ellipsis that replaces only punctuation fuses two
clauses into one the page does not have.

>>> quotations("000：「先確認」；BCR-001「閒2」。004 說「通常」")
[('000', '先確認'), (None, '閒2'), ('004', '通常')]
>>> page = plain("閒家取得的第三張牌是8時，莊家3點停牌；第三張不是8時通常補牌。")
>>> on_page("莊家3點停牌；第三張不是8時", page), on_page("閒家取得的第三張牌是8時……不是8時通常補牌", page)
(True, True)
>>> on_page("莊家3點停牌……第三張不是8時", page)  # the "……" hides only the 「；」
False
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["ENV", "WINDOW", "Pages", "attributed_quotes", "candidates", "divergence", "find", "on_page",
           "plain", "quotations", "where_looked"]

ENV = "BACCARAT_KIT_SOURCES"
"""Environment variable: the folder that holds the source pages (``000_*.txt`` …)."""
WINDOW = 80
"""The most characters of page text (whitespace not counted) a "…" may leave out."""
_SOURCE_ID = re.compile(r"(?<![\w-])(00[0-4])(?![\w-])")
_WORD = re.compile(r"\w")


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
    """Text as compared: no whitespace, 『』 as 「」, ｜ as ``|``."""
    text = text.replace("『", "「").replace("』", "」").replace("｜", "|")
    return re.sub(r"\s+", "", text)


def quotations(text: str) -> list[tuple[str | None, str]]:
    """(source id or None, quoted words) for each outermost 「…」 of ``text``: the id is the last
    one before the quote with no sentence end (。, a closing 」 or a new line) between them."""
    found: list[tuple[str | None, str]] = []
    i = 0
    while (start := text.find("「", i)) >= 0:
        depth, end = 0, start
        for end in range(start, len(text)):
            depth += {"「": 1, "」": -1}.get(text[end], 0)
            if depth == 0:
                break
        before = text[max(0, start - 80):start]
        ids = list(_SOURCE_ID.finditer(before))
        sid = ids[-1].group(1) if ids and not re.search(r"[。」\n]", before[ids[-1].end():]) else None
        found.append((sid, text[start + 1:end]))
        i = end + 1
    return found


def attributed_quotes(text: str) -> list[tuple[str, str]]:
    """(source id, quoted words) for each quotation of ``text`` that names its source."""
    return [(sid, q) for sid, q in quotations(text) if sid is not None]


def _placements(pieces: list[str], text: str, after: int | None = None) -> Iterator[list[int]]:
    """Start positions of ``pieces`` in ``text``, in order, each gap within :data:`WINDOW` and
    holding a word; ``after`` is where the previous piece ended (None: the first piece)."""
    if not pieces:
        yield []
        return
    piece, rest = pieces[0], pieces[1:]
    start = 0 if after is None else after
    while (at := text.find(piece, start)) >= 0:
        if after is not None and at - after > WINDOW:
            return
        if after is None or _WORD.search(text[after:at]):
            for tail in _placements(rest, text, at + len(piece)):
                yield [at, *tail]
                return
        start = at + 1


def on_page(quote: str, page: str) -> bool:
    """Whether ``quote`` is the words of a page (``page`` as compared: :func:`plain`)."""
    pieces = [p for p in re.split(r"…+", plain(quote)) if p]
    return bool(pieces) and next(_placements(pieces, page), None) is not None


def divergence(page: str, quote: str, width: int = 12) -> tuple[str, str]:
    """Where a quotation that is not on the page (``page`` as compared) leaves it: the end of the
    longest start of its first piece missing from the page, and what follows (each at most
    ``width`` characters, "…" where cut). When every piece is on the page, only not in its order
    or not near enough, the start is ``""`` and what follows is the quotation.

    >>> divergence(plain("莊家 3 點停牌； 其他補牌"), "莊家3點補牌")
    ('莊家3點', '補牌')
    """
    pieces = [p for p in re.split(r"…+", plain(quote)) if p]
    want = next((p for p in pieces if p not in page), None)
    if want is None:
        whole = plain(quote)
        return "", whole if len(whole) <= 2 * width else whole[:2 * width] + "…"
    low, high = 0, len(want)
    while low < high:  # the longest start of ``want`` on the page (a start of a start is on it too)
        mid = (low + high + 1) // 2
        if want[:mid] in page:
            low = mid
        else:
            high = mid - 1
    before, after = want[:low], want[low:]
    before = before if len(before) <= width else "…" + before[-width:]
    after = after if len(after) <= width else after[:width] + "…"
    return before, after


@dataclass(frozen=True)
class Pages:
    """The source pages of one folder, by page id (``"000"`` …), as compared (:func:`plain`)."""

    folder: Path
    texts: dict[str, str] = field(repr=False)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(sorted(self.texts))

    def text(self, page: str) -> str | None:
        """The page as compared (:func:`plain`), or None when the folder has no such page."""
        return self.texts.get(page)

    def has(self, page: str, quote: str) -> bool | None:
        """Whether ``quote`` is on ``page`` (:func:`on_page`); None when the folder has no such page."""
        text = self.texts.get(page)
        return None if text is None else on_page(quote, text)


def find(folder: str | os.PathLike[str] | None = None) -> Pages | None:
    """The source pages (:func:`candidates`: the first folder that holds pages ``NNN_*.txt``,
    each page's id the part of its name before ``_``), or None.

    A folder given (or named by ``$BACCARAT_KIT_SOURCES``) that holds no page gives None too:
    the caller says where it looked (:func:`where_looked`)."""
    for path in candidates(folder):
        pages = sorted(path.glob("*_*.txt")) if path.is_dir() else []
        texts = {p.name.split("_", 1)[0]: plain(p.read_text(encoding="utf-8")) for p in pages}
        if texts:
            return Pages(path, texts)
    return None
