"""Issue 31's learner interface in a real browser (JupyterLab and the Voilà trainer).

* at 390 px wide (a phone) the rule checker's matrix and the hand builder are usable: every
  column can be reached by scrolling within the widget, every card picker is on screen;
* ↓ on lesson 06's quiz changes the answer, not JupyterLab's cell selection;
* a quiz hint, a Predict retry and the final test driven from the keyboard, at 390 px;
* the trainer (Voilà): its quiz is one Tab stop, its hint and the drill from the keyboard.

Every check waits with Playwright's ``expect`` for what it asserts; expected texts come from the
engine and the kit's messages.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

import baccarat_kit as bk
from baccarat_kit.i18n import message

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 1000}


@pytest.fixture
def phone(lab_page: Any) -> Any:
    """The shared JupyterLab page at 390 px wide, its side bars closed as a learner on a phone
    has them (back to its size and its file browser afterwards)."""
    lab_page.set_viewport_size(PHONE)
    lab_page.evaluate("() => { window.jupyterapp.shell.collapseLeft(); window.jupyterapp.shell.collapseRight(); }")
    try:
        yield lab_page
    finally:
        lab_page.set_viewport_size(DESKTOP)
        lab_page.evaluate("() => window.jupyterapp.shell.expandLeft()")


def _within(locator: Any, width: int = PHONE["width"]) -> None:
    """``locator`` is wholly on screen, inside the notebook's visible area (nothing of it clipped)."""
    box = locator.bounding_box()
    area = locator.page.locator(f"{NOTEBOOK} .jp-OutputArea-output").first.bounding_box()
    right = min(width, area["x"] + area["width"]) if area else width
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= right + 0.5, (box, right)


def test_rule_checker_and_hand_builder_are_usable_at_390_px(open_lab: Any, make_notebook: Any, phone: Any) -> None:
    page = open_lab(make_notebook(
        "import baccarat_kit as bk",
        'bk.widgets.RuleChecker(lang="en")',
        'bk.widgets.HandBuilder("2 3 3 4 4", lang="en")',
    ))
    table = page.locator(f"{NOTEBOOK} .bk-rule-checker .bk-matrix-table")
    expect(table).to_have_count(1)
    heads = table.locator("tr").first.locator("th")
    expect(heads).to_have_count(12)  # the corner, "player stood", then the values 0-9
    page.screenshot(path="/tmp/ui/rc-390.png", full_page=False)
    for i in range(12):  # each column scrolled into view inside the widget, then on screen
        heads.nth(i).scroll_into_view_if_needed()
        _within(heads.nth(i))
    scroller = page.locator(f"{NOTEBOOK} .bk-rule-checker .bk-matrix")
    assert scroller.evaluate("e => e.scrollLeft") > 0  # the matrix scrolled, inside the widget
    caption = page.locator(f"{NOTEBOOK} .bk-rule-checker .bk-matrix-caption")
    _within(caption)  # wrapped to the widget's width and still in place: readable
    assert caption.bounding_box()["x"] >= scroller.bounding_box()["x"] - 0.5
    for css in ("bk-banker-total", "bk-player-third"):
        _within(page.locator(f"{NOTEBOOK} .bk-rule-checker .{css} select"))
    hb = page.locator(f"{NOTEBOOK} .bk-hand-builder")
    for slot in ("p1", "b1", "p2", "b2", "next1", "next2"):
        picker = hb.locator(f".bk-card-{slot} select")
        picker.scroll_into_view_if_needed()
        _within(picker)
    hb.locator(".bk-card-b2 select").select_option("5")  # BCR-001's variant: banker 8, a natural
    coup = bk.play("2 3 3 5")
    expect(hb.locator(".bk-winner")).to_contain_text(message(f"coup.result-{coup.winner}", "en",
                                                             player=coup.player_total, banker=coup.banker_total))
    _within(hb.locator(".bk-winner"))
    _within(hb.locator(".bk-sequence input"))
    page.screenshot(path="/tmp/ui/hb-390.png")
