"""Issue 37's "Done when", on the learner's screen: a suspended leech and a slow row on lesson 04's drill map.

The record is the one :func:`baccarat_kit.drill.replay` leaves after eight daily sessions of 60
answers of a learner always wrong on banker 3 against a player third card 8 and right but slow
(4 s, over the 3 s mastery time) on the banker-6 row, right in 2 s everywhere else (the
scheduler's side of it is :func:`tests.test_drill.test_replay_a_leech_never_takes_over_a_session_and_a_slow_row_is_not_mastered_until_fast`).
Lesson 04 is opened in JupyterLab, both editions, and run; its drill's map (read by its CSS
classes and its words) marks the leech, suspended at its 5th miss (issue 42), with ‖ and names it in
words under the map, marks the eleven
banker-6 cells ◷, each saying how slow it was, and shows the learner's median time. With
``BK_SCREENSHOTS`` set (``tests/browser/take_screenshots.py``) the Chinese edition's map is saved
as ``drill-map-leech-slow.png``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from baccarat_kit import drill, progress
from baccarat_kit.i18n import message
from baccarat_kit.widgets.drill import cell_words

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
LEECH = "banker-3-vs-8"
SLOW_ROW = tuple(c for c in drill.MASTERY_CELLS if c.startswith("banker-6-"))
SESSION, SESSIONS = 60, 8


def seed(record_path: Path) -> dict[str, Any]:
    """Replay the learner (module docstring) over the past ``SESSIONS`` days into the record
    at ``record_path``; return the drill cells written."""
    cells: dict[str, Any] = {}
    start = time.time() - (SESSIONS + 1) * drill.DAY
    log = drill.replay(lambda c, _s: c != LEECH, SESSIONS * SESSION, seed=0, session=SESSION, cells=cells,
                       start=start, seconds=lambda c, _s: 4.0 if c in SLOW_ROW else 2.0)

    def write(r: progress.Record) -> None:
        r["drill"]["cells"] = cells
        r["drill"]["step"] = len(log)
        r["drill"]["t"] = start + SESSIONS * drill.DAY

    progress.update(write, record_path, log=False)  # the days' log is not today's: not logged
    return cells


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_drill_map_names_the_leech_and_marks_the_slow_row(lab: Any, lab_page: Any, shot: Any,
                                                              lang: str) -> None:
    page = lab_page
    folder = lab.add_course()
    cells = seed(lab.root / folder / progress.FILENAME)
    # The replay itself: the record holds what the map must show.
    assert drill.suspended(cells) == [LEECH] and drill.leeches(cells) == []
    assert all(drill.is_slow(cells[c]) and not drill.is_mastered(cells[c]) for c in SLOW_ROW)
    median = drill.median_seconds(cells)
    assert median is not None
    lesson = f"{folder}/notebooks/{'en/' if lang == 'en' else ''}04-banker-rule.ipynb"
    if lang == "en":  # the course copy holds the Chinese edition; the English one beside it
        (lab.root / folder / "notebooks" / "en").mkdir(exist_ok=True)
        (lab.root / lesson).write_bytes((REPO / "notebooks/en/04-banker-rule.ipynb").read_bytes())
    try:
        lab.open(page, lesson)
        lab.run_all(page, lesson)
        heatmap = page.locator(".bk-drill .bk-drill-heatmap")
        expect(heatmap).to_have_count(1)
        table = heatmap.locator("table.bk-heatmap")
        # The leech, suspended: ‖ in its cell (row 3, column 8) and named in words under the map.
        leech = table.locator("td.bk-heat-suspended")
        expect(leech).to_have_count(1)
        expect(leech).to_have_attribute("title", cell_words(LEECH, lang) + ": "
                                        + message("widgets.drill.state-suspended", lang))
        expect(leech).to_contain_text("‖")
        row3 = table.locator("tbody tr").nth(3)
        expect(row3.locator("th")).to_have_text("3")
        expect(row3.locator("td").nth(8)).to_have_class("bk-heat-suspended")
        expect(table.locator("caption")).to_contain_text(
            message("widgets.drill.suspended-cells", lang, cells=cell_words(LEECH, lang)))
        expect(page.locator(".bk-drill .bk-drill-unsuspend")).to_be_visible()
        # The slow row: its eleven cells ◷, each with its own time; no other cell slow.
        row6 = table.locator("tbody tr").nth(6)
        expect(row6.locator("th")).to_have_text("6")
        expect(row6.locator("td.bk-heat-slow")).to_have_count(len(SLOW_ROW))
        expect(table.locator("td.bk-heat-slow")).to_have_count(len(SLOW_ROW))
        for td in row6.locator("td").all():
            expect(td).to_contain_text("◷")
            expect(td).to_have_attribute("title", slow_title(lang))
        # The learner's median time against the mastery time.
        expect(heatmap.locator(".bk-drill-median")).to_have_text(
            message("widgets.drill.median", lang, seconds=f"{median:.1f}", limit=f"{drill.MASTERY_SECONDS:g}"))
        if lang == "zh":
            table.scroll_into_view_if_needed()
            shot(table, "drill-map-leech-slow")  # the map with its caption (legend, leech, median)
    finally:
        lab.shutdown(lesson)


def slow_title(lang: str) -> Any:
    """A slow banker-6 cell's title: its name, "slow" and its 4.0 s (a pattern: any of the row)."""
    import re

    slow = message("widgets.drill.state-slow", lang) + message("widgets.drill.cell-time", lang, seconds="4.0")
    names = "|".join(re.escape(cell_words(c, lang)) for c in SLOW_ROW)
    return re.compile(f"^({names}): {re.escape(slow)}$")
