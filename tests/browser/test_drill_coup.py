"""Issue 37 in a real browser: the drill's whole coup, dealt card by card, answered by keyboard.

In JupyterLab, the learner's record puts a whole coup next (its step count one short of
``COUP_EVERY``). From the key box alone she answers the player's decision wrongly, then the
banker's decision and who wins rightly; the screen shows the first four cards, then the third
cards one by one, the engine's reason of each step, the cell her wrong answer is a miss of (in
words), and the record the kernel writes has that miss and the coup. The drill has one live
region that stays while its text changes (issue 42).
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

SEED = 7
LIVE_WATCH = """() => {
  const has = (n) => n.nodeType === 1 && (n.matches('[role=status]') || n.querySelector('[role=status]'));
  window.bkLive = {added: 0, removed: 0};
  new MutationObserver((ms) => { for (const m of ms) {
    for (const n of m.addedNodes) { if (has(n)) { window.bkLive.added++; } }
    for (const n of m.removedNodes) { if (has(n)) { window.bkLive.removed++; } } } })
    .observe(document.querySelector('.bk-drill'), {childList: true, subtree: true});
}"""


def test_a_whole_coup_is_answered_card_by_card_by_keyboard(lab: Any, lab_page: Any) -> None:
    from baccarat_kit import drill
    from baccarat_kit.widgets.drill import KEYS, cell_words

    page = lab_page
    folder = lab.add_course()
    coup = drill.coup_item(SEED, 0).params["coup"]  # the coup the drill deals next (the engine's)
    questions = drill.coup_questions(coup)
    first = questions[0]
    wrong = next(v for v in drill.COUP_CHOICES["player"] if v != first.answer)
    _, said = drill.CardByCard(coup).answer(wrong)
    record = {"schema": 2, "seed": SEED,
              "drill": {"step": drill.COUP_EVERY - 1, "seed": SEED, "cells": {}, "coups": {"seen": 0, "right": 0}}}
    (lab.root / folder / ".baccarat-progress.json").write_text(json.dumps(record), encoding="utf-8")
    nb = {"cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                     "source": 'import baccarat_kit as bk\nbk.widgets.Drill(lang="en")'}],
          "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                      "language": "python"}}, "nbformat": 4, "nbformat_minor": 5}
    name = f"{folder}/notebooks/drill-coup.ipynb"
    (lab.root / name).write_text(json.dumps(nb), encoding="utf-8")
    p = [c.label for c in coup.player_cards]
    b = [c.label for c in coup.banker_cards]
    try:
        lab.open(page, name)
        lab.run_all(page, name)
        prompt = page.locator(".bk-drill-prompt")
        feedback = page.locator(".bk-drill-feedback")
        expect(prompt).to_contain_text(f"Player {' '.join(p[:2])}, banker {' '.join(b[:2])}.")
        expect(prompt).to_contain_text("the kit dealt from a shuffled shoe")
        expect(prompt).to_contain_text("Or is there a natural")
        expect(page.locator(".bk-drill-answers button")).to_have_text(["Draw (D)", "Stand (S)", "Natural (N)"])
        box = page.locator(".bk-drill-keys input")
        # Issue 42: one persistent live region (``live``), marked once in the browser; no element
        # with a role of status is added or removed while she answers, and its text follows.
        live = page.locator(".bk-drill-live .widget-html-content")
        expect(live).to_have_attribute("role", "status")
        expect(live).to_have_attribute("aria-live", "polite")
        page.evaluate(LIVE_WATCH)
        box.focus()  # from here only keys are pressed
        page.keyboard.press(KEYS[wrong])
        expect(feedback).to_contain_text(f"counts as a miss of the cell '{cell_words(said.missed, 'en')}'")
        expect(feedback).to_contain_text(first.step.explain("en"))
        for q in questions[1:]:
            if q.stage == "banker":
                expect(prompt).to_contain_text("Banker: draw or stand?")
                expect(prompt).to_contain_text(f"Player {' '.join(p)}, banker {' '.join(b[:2])}.")
                expect(page.locator(".bk-drill-answers button")).to_have_text(["Draw (D)", "Stand (S)"])
            else:
                expect(prompt).to_contain_text("Who wins?")
                expect(prompt).to_contain_text(f"Player {' '.join(p)}, banker {' '.join(b)}.")
            expect(box).to_be_focused()
            page.keyboard.press(KEYS[q.answer])
            expect(feedback.locator(".bk-right")).to_have_count(1)
            if q.step is not None:
                expect(feedback).to_contain_text(q.step.explain("en"))
        expect(feedback).to_contain_text(f"This coup: {len(questions) - 1} of {len(questions)} answers right.")
        expect(feedback).to_contain_text("Result:")
        expect(prompt).not_to_contain_text("shuffled shoe")  # a cell's question next
        expect(page.locator(".bk-drill-mastery")).to_contain_text("whole coups right 0 / 1")
        assert page.evaluate("window.bkLive") == {"added": 0, "removed": 0}  # was 24 and 23 in 24 answers
        expect(live).to_have_attribute("role", "status")
        expect(live).to_contain_text(f"This coup: {len(questions) - 1} of {len(questions)} answers right.")
        assert page.locator(".bk-drill [role=status]").count() == 1
    finally:
        lab.shutdown(name)
    saved = json.loads((lab.root / folder / ".baccarat-progress.json").read_text(encoding="utf-8"))
    assert saved["drill"]["coups"] == {"seen": 1, "right": 0}
    assert saved["drill"]["step"] == drill.COUP_EVERY
    entry = saved["drill"]["cells"][said.missed]
    assert entry["lapses"] == 1 and entry["last"] == "wrong" and entry["clock"] == "coup"
    assert set(saved["drill"]["cells"]) == {said.missed}  # a right decision is no review of its cell
    assert re.fullmatch(r"(natural|player|banker)-.+", said.missed)
