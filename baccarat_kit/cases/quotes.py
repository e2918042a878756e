"""Each case's ``quote`` checked against its source page (:mod:`baccarat_kit.sources`).

* a ``quote`` must be its page's words (:func:`baccarat_kit.sources.on_page`), line by line:
  else a ``quote`` problem, showing where it leaves the page (exit 1);
* a ``quote`` needs its ``quote_en``: the English case card would otherwise show the Chinese
  words untranslated (a file problem, exit 2);
* a case of the instructor's own (``source = "instructor"``) has no page and no quote: it shows
  its label (:data:`INSTRUCTOR`) where a source's words would be;
* where the pages cannot be found, or hold no page the case cites, the quote is not verified:
  one problem per file says so, with the cases and the folders looked in (exit 2), never a
  silent pass.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..sources import Pages, divergence
from .problems import Problem

if TYPE_CHECKING:
    from .catalogue import Case

INSTRUCTOR = "instructor"
"""The ``source`` of a case the instructor made up: no page to quote."""


def check_quotes(cases: Iterable[Case], pages: Pages | None, looked: str) -> tuple[Problem, ...]:
    """Every quote problem of ``cases`` (variants have no quote of their own); ``pages`` the
    source pages found (None: not found, ``looked`` says where they were looked for)."""
    problems: list[Problem] = []
    unverified: dict[str, list[str]] = {}
    for case in cases:
        if case.parent is not None:
            continue
        if case.source == INSTRUCTOR:
            if case.quote is not None:
                problems.append(Problem(case.file, case.id, "quote", "cases.err.own-quote", {}))
            continue
        if case.quote is None:
            continue
        if case.quote_en is None:
            problems.append(Problem(case.file, case.id, "quote_en", "cases.err.no-quote-en", {}))
        if pages is None:
            unverified.setdefault(case.file, []).append(case.id)
            continue
        for line in case.quote.strip("\n").splitlines():
            held = pages.has(case.source, line)
            if held is None:
                problems.append(Problem(case.file, case.id, "source", "cases.err.no-page", {
                    "source": case.source, "folder": str(pages.folder),
                    "pages": ", ".join(pages.ids)}, "unverified"))
                break
            if not held:
                before, after = divergence(pages.text(case.source) or "", line)
                key = "cases.err.misquote" if before else "cases.err.misquote-start"
                problems.append(Problem(case.file, case.id, "quote", key, {
                    "source": case.source, "before": before, "after": after}, "quote"))
                break
    for file, ids in unverified.items():
        shown = ", ".join(ids) if len(ids) <= 4 else f"{ids[0]} … {ids[-1]}"
        problems.append(Problem(file, None, "quote", "cases.err.no-sources", {
            "count": len(ids), "cases": shown, "looked": looked}, "unverified"))
    return tuple(problems)
