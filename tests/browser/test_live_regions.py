"""Issue 42: one persistent live region per widget whose text changes, in JupyterLab.

Before, the quiz's feedback was a new ``role="status"`` element on every answer (removed 23 times
and added 24 times in 24 answers), and screen readers announce a region inserted with its text
unreliably. Here the quiz, the final test, Predict, the hand builder, the rule checker, the case
viewer and the shoe tracker are each used several times while a MutationObserver counts every
element with ``role="status"``, ``role="alert"`` or ``aria-live`` put into or taken out of their
widgets: none may be; each widget holds one such region, the same element throughout, whose text
changes with every action.
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from conftest import KERNEL_START_MS

pytestmark = pytest.mark.browser

NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"
WIDGETS = {
    "quiz": ('bk.widgets.Quiz.lesson("04", lang="en")', ".bk-quiz:not(.bk-final-test)"),
    "final": ('bk.widgets.FinalTest(lang="en", seed=11)', ".bk-final-test"),
    "predict": ('bk.widgets.Predict("BCR-001", lang="en")', ".bk-predict"),
    "hand": ('bk.widgets.HandBuilder("2 3 3 4 4", lang="en")', ".bk-hand-builder"),
    "rule": ('bk.widgets.RuleChecker(lang="en")', ".bk-rule-checker"),
    "case": ('bk.widgets.CaseViewer("BCR-001", lang="en")', ".bk-case-viewer"),
    "shoe": ('bk.widgets.ShoeTracker(lang="en", decks=1)', ".bk-shoe-tracker"),
}
LIVE = "[role=status],[role=alert],[aria-live]"

# Count, inside every widget root, the elements that are (or hold) a live region as they are
# put into the page or taken out of it; keep each root's live regions as found now.
WATCH_JS = """([roots, live]) => {
    const found = el => el.nodeType === 1 && (el.matches(live) || !!el.querySelector(live));
    window.bkLive = {added: 0, removed: 0, regions: {}};
    for (const [name, css] of Object.entries(roots)) {
        const root = document.querySelector(css);
        window.bkLive.regions[name] = [...root.querySelectorAll(live)];
        new MutationObserver(records => {
            for (const r of records) {
                for (const n of r.addedNodes) if (found(n)) window.bkLive.added++;
                for (const n of r.removedNodes) if (found(n)) window.bkLive.removed++;
            }
        }).observe(root, {childList: true, subtree: true});
    }
}"""


def region_text(page: Any, name: str) -> str:
    return page.evaluate("n => window.bkLive.regions[n][0].textContent", name)


def test_each_widget_has_one_persistent_live_region_whose_text_changes(open_lab: Any, make_notebook: Any) -> None:
    page = open_lab(make_notebook("import baccarat_kit as bk", *(code for code, _css in WIDGETS.values())))
    roots = {name: f"{NOTEBOOK} {css}" for name, (_code, css) in WIDGETS.items()}
    for css in roots.values():  # each drawn, its region marked by the page
        expect(page.locator(css)).to_have_count(1, timeout=KERNEL_START_MS)
        expect(page.locator(f"{css} .bk-live > .widget-html-content[role=status]")).to_have_count(1)
    page.evaluate(WATCH_JS, [roots, LIVE])
    assert page.evaluate("() => Object.values(window.bkLive.regions).map(r => r.length)") == [1] * len(WIDGETS)

    said: dict[str, list[str]] = {name: [] for name in WIDGETS}

    def act(name: str, action: Any) -> None:
        """Do ``action`` and wait until the widget's region says something new."""
        before = region_text(page, name)
        action()
        page.wait_for_function("([n, t]) => window.bkLive.regions[n][0].textContent !== t", arg=[name, before],
                               timeout=KERNEL_START_MS)
        said[name].append(region_text(page, name))

    def answer(name: str, count: int) -> None:
        root = page.locator(roots[name])
        for i in range(count):
            expect(root.locator(".bk-quiz-progress")).to_contain_text(f"Question {i + 1} of")
            radios = root.locator(".bk-quiz-options input[type=radio]")
            expect(radios.first).to_be_enabled()
            radios.nth(i % 2).check()
            act(name, lambda: root.locator(".bk-quiz-submit").click())
            root.locator(".bk-quiz-next").click()

    answer("quiz", 3)
    act("quiz", lambda: page.locator(f"{roots['quiz']} .bk-quiz-hint-button").click())
    answer("final", 3)

    predict = page.locator(roots["predict"])
    act("predict", lambda: predict.locator(".bk-predict-draw").click())  # BCR-001: the banker's decision
    predict.locator(".bk-predict-retry").click()
    act("predict", lambda: predict.locator(".bk-predict-stand").click())

    hand = page.locator(roots["hand"])
    for card in ("5", "6", "7"):
        act("hand", lambda card=card: hand.locator(".bk-card-b2 select").select_option(card))

    rule = page.locator(roots["rule"])
    for total, third in (("3", "8"), ("6", "6"), ("6", "5")):
        rule.locator(".bk-banker-total select").select_option(total)
        act("rule", lambda third=third: rule.locator(".bk-player-third select").select_option(third))

    case = page.locator(roots["case"])
    for _ in range(2):
        act("case", lambda: case.locator(".bk-step-next").click())

    shoe = page.locator(roots["shoe"])
    for _ in range(3):
        act("shoe", lambda: shoe.locator(".bk-shoe-deal").click())

    counts = page.evaluate("() => [window.bkLive.added, window.bkLive.removed]")
    assert counts == [0, 0], f"live regions put in / taken out: {counts}"
    for name, css in roots.items():
        same = page.evaluate("([n, css, live]) => { const now = [...document.querySelector(css).querySelectorAll(live)];"
                             " return now.length === 1 && now[0] === window.bkLive.regions[n][0]"
                             " && now[0].isConnected; }", [name, css, LIVE])
        assert same, f"{name}: not the one region it had"
        assert len(said[name]) >= 2 and all(said[name]), (name, said[name])
