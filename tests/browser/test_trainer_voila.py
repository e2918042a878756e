"""The trainer (``make trainer``): the widgets as a Voilà app with no code, driven by keyboard.

A learner who does not want code opens the trainer in a browser. This test serves
``trainer/trainer.ipynb`` with Voilà, checks that no code is shown and that the hand builder,
the rule checker and the quiz are there, then uses them with the keyboard only (Tab, typing,
arrow keys, Space, Enter): the rule checker's list of third-card values, and the quiz, answered
wrong first (the misconception is named), then right (confirmed).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

import baccarat_kit as bk
from baccarat_kit.i18n import message
from conftest import KERNEL_START_MS

pytestmark = pytest.mark.browser

TRAINER = Path(__file__).resolve().parents[2] / "trainer" / "trainer.ipynb"
LANG = "zh"


@pytest.fixture(scope="module")
def trainer_url(voila: Any) -> Any:
    with voila(TRAINER) as url:
        yield url


def squash(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("\xa0", " ")).strip()


def focused(page: Any, script: str) -> Any:
    return page.evaluate(f"() => {{ const el = document.activeElement; return {script}; }}")


def tab_to(page: Any, condition: str, limit: int = 80) -> None:
    """Press Tab until ``condition`` (JS, with ``el`` the focused element) holds."""
    for _ in range(limit):
        if focused(page, f"!!({condition})"):
            return
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached an element where {condition}")


def radio_label(page: Any) -> str:
    return squash(focused(page, "el.closest('label') ? el.closest('label').innerText : ''"))


def choose_by_keyboard(page: Any, text: str) -> None:
    """With focus in the quiz's options, move (arrow keys) to the option ending in ``text``
    and check it (Space)."""
    for _ in range(10):
        if radio_label(page).endswith(text):
            page.keyboard.press("Space")
            return
        page.keyboard.press("ArrowDown")
    raise AssertionError(f"no quiz option ending in {text!r}")


def submit_by_keyboard(page: Any) -> None:
    tab_to(page, "el.closest('.bk-quiz-submit')", limit=10)
    page.keyboard.press("Enter")


def test_trainer_shows_the_widgets_without_code_and_works_from_the_keyboard(
    trainer_url, page, shot
):
    page.goto(trainer_url, wait_until="domcontentloaded")
    expect(page.locator(".bk-quiz .bk-quiz-options")).to_be_visible(timeout=KERNEL_START_MS)
    for root in (".bk-hand-builder", ".bk-rule-checker", ".bk-quiz"):
        expect(page.locator(root)).to_have_count(1)
    source = json.loads(TRAINER.read_text(encoding="utf-8"))
    for cell in source["cells"]:
        if cell["cell_type"] == "code":
            first = "".join(cell["source"]).splitlines()[0]
            expect(page.get_by_text(first, exact=False)).to_have_count(0)
    # The hand builder starts on BCR-001 and shows the engine's result.
    coup = bk.play("2 3 3 4 4")
    winner = message(f"coup.result-{coup.winner}", LANG, player=coup.player_total,
                     banker=coup.banker_total)
    expect(page.locator(".bk-hand-builder .bk-winner")).to_contain_text(winner)

    # The rule checker from the keyboard: Tab to the player's-third-card list, type 8, then
    # arrow down to 9 (source 000, BCR-002 and its variant: a banker 3 meets 8, then 9).
    checker = ".bk-rule-checker"
    banker = int(page.locator(f"{checker} .bk-banker-total select").evaluate(
        "el => el.options[el.selectedIndex].textContent.trim()"))
    tab_to(page, "el.closest('.bk-player-third') && el.tagName === 'SELECT'")
    for third, key in ((8, "type"), (9, "ArrowDown")):
        page.keyboard.press("8" if key == "type" else key)
        expect(page.locator(
            f'{checker} td.bk-selected[data-total="{banker}"][data-third="{third}"]')).to_be_visible()
        kind = "draw" if bk.banker_draws(banker, third) else "stand"
        expect(page.locator(f"{checker} .bk-decision")).to_have_text(
            message(f"widgets.rc.decision-{kind}", LANG))

    # The quiz's first question is the trainer's own set: a banker-matrix cell no source case
    # uses; its answer and the misconception a wrong answer names come from the engine.
    question = bk.widgets.Quiz.lesson("trainer").questions[0]
    right = question.options[question.answer].text[LANG]
    (wrong_option,) = [o for i, o in enumerate(question.options) if i != question.answer]
    wrong = wrong_option.text[LANG]
    feedback = page.locator(".bk-quiz .bk-quiz-feedback")
    expect(page.locator(".bk-quiz .bk-quiz-prompt")).to_have_text(question.prompt[LANG])

    tab_to(page, "el.closest('.bk-quiz-options') && el.type === 'radio'")
    choose_by_keyboard(page, wrong)
    submit_by_keyboard(page)
    misconception = bk.misconceptions.get(wrong_option.misconception)
    expect(page.locator(".bk-quiz .bk-quiz-feedback .bk-wrong")).to_have_count(1)
    expect(feedback).to_contain_text(misconception.claim(LANG))
    expect(feedback).to_contain_text(misconception.correction(LANG))
    shot(page.locator(".bk-quiz"), "trainer-quiz-wrong")

    page.keyboard.press("Shift+Tab")  # back to the options
    tab_to(page, "el.closest('.bk-quiz-options') && el.type === 'radio'")
    choose_by_keyboard(page, right)
    submit_by_keyboard(page)
    expect(page.locator(".bk-quiz .bk-quiz-feedback .bk-right")).to_have_count(1)
    expect(feedback).not_to_contain_text(misconception.claim(LANG))
    page.locator("h1").first.scroll_into_view_if_needed()
    shot(page, "trainer")  # the top of the app, as it opens


def test_the_drill_is_at_most_three_tab_presses_away(trainer_url: str, page: Any) -> None:
    """Issue 37: a keyboard learner reaches the drill, the trainer's last tool, in at most three
    Tab presses from the page's load. The first Tab reaches the skip link at the top ("跳到規則練習
    · Skip to the rule drill", a link to the drill's own heading, ``#4.-規則練習-·-Rule-drill``);
    Enter follows it and the next Tab is in the drill (without the link it took the hand
    builder's, the rule checker's and the quiz's dozens of controls). Then the drill answered
    from the keyboard: Tab on to its first answer button, Enter."""
    page.goto(trainer_url, wait_until="domcontentloaded")
    drill = page.locator(".bk-drill")
    # every tool drawn (Voilà draws the widgets one after another: wait for the last one's)
    expect(drill.locator(".bk-drill-answers button").first).to_be_visible(timeout=KERNEL_START_MS)
    expect(page.locator(".bk-quiz .bk-quiz-options input[type=radio]").first).to_be_visible()
    heading = page.locator("h2", has_text="Rule drill")
    skip = page.locator("a", has_text="Skip to the rule drill")
    assert heading.get_attribute("id") is not None
    inside = "() => !!document.activeElement && !!document.activeElement.closest('.bk-drill')"
    page.keyboard.press("Tab")
    presses = 1
    expect(skip).to_be_focused()
    page.keyboard.press("Enter")
    expect(heading).to_be_in_viewport()  # the link was followed (the page scrolled to the drill)
    while not page.evaluate(inside) and presses < 3:
        page.keyboard.press("Tab")
        presses += 1
    assert page.evaluate(inside), (presses, page.evaluate("() => document.activeElement.outerHTML"))
    assert presses <= 3
    answer = drill.locator(".bk-drill-answers button").first
    for _ in range(8):  # past the language switch to the first answer button
        if answer.evaluate("b => b === document.activeElement"):
            break
        page.keyboard.press("Tab")
    expect(answer).to_be_focused()
    prompt = drill.locator(".bk-drill-prompt").inner_text()
    page.keyboard.press("Enter")
    expect(drill.locator(".bk-drill-feedback").locator(".bk-right, .bk-wrong")).to_have_count(1)
    expect(drill.locator(".bk-drill-prompt")).not_to_have_text(prompt)
