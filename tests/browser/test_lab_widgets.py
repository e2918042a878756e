"""The kit's widgets in JupyterLab, as a learner uses them: open a notebook, run all, click.

Each test opens its own copy of a notebook, runs every cell in JupyterLab, changes something in
the widget with the mouse (or the keyboard) and reads what Chromium shows. Every expected text
is computed here from the engine (``bk.play``, ``bk.banker_draws``) and the kit's messages, or
quoted from the source pages; nothing restates the drawing table.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

import baccarat_kit as bk
from baccarat_kit.i18n import message

pytestmark = pytest.mark.browser

LANG = "zh"  # what a learner sees first
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
LESSON_04 = NOTEBOOKS / "04-banker-rule.ipynb"
LESSON_05 = NOTEBOOKS / "05-bcr-cases.ipynb"


def squash(text: str) -> str:
    """Text with all runs of white space (including no-break spaces) made one space."""
    return re.sub(r"\s+", " ", text.replace("\xa0", " ")).strip()


def expect_text(page: Any, selector: str, *parts: str, timeout: float = 15_000) -> str:
    """Wait until the element's text contains every part (white space squashed); return it."""
    wanted = [squash(p) for p in parts]
    page.wait_for_function(
        """([sel, parts]) => {
            const el = document.querySelector(sel);
            if (!el) return false;
            const text = el.innerText.replace(/\\s+/g, ' ').trim();
            return parts.every(p => text.includes(p));
        }""",
        arg=[selector, wanted],
        timeout=timeout,
    )
    return squash(page.locator(selector).inner_text())


def result_line(coup: bk.Coup, lang: str = LANG) -> str:
    return message(f"coup.result-{coup.winner}", lang, player=coup.player_total,
                   banker=coup.banker_total)


# --------------------------------------------------------------------------- HandBuilder


def test_hand_builder_change_a_card_updates_totals_steps_and_winner(
    open_lab, make_notebook, shot
):
    # BCR-001 of source 000: 閒2、莊3、閒3、莊4, the player draws 4 → 閒9 莊7, 閒勝.
    # Its variant changes only the banker's second card 4 → 5: 莊3+5=8 天牌, 莊勝.
    before, after = bk.play("2 3 3 4 4"), bk.play("2 3 3 5 4")
    assert (before.winner, after.winner) == ("player", "banker")  # as source 000 says

    page = open_lab(make_notebook(
        "from baccarat_kit.widgets import HandBuilder",
        'HandBuilder("2 3 3 4 4")',
    ))
    root = ".bk-hand-builder"
    expect_text(page, f"{root} .bk-winner", result_line(before))
    expect_text(page, f"{root} .bk-steps", *(s.explain(LANG) for s in before.steps))
    totals = expect_text(page, f"{root} .bk-totals")
    assert str(before.player_total) in totals and str(before.banker_total) in totals

    page.locator(f"{root} .bk-card-b2 select").select_option("5")

    expect_text(page, f"{root} .bk-winner", result_line(after))
    steps = expect_text(page, f"{root} .bk-steps", *(s.explain(LANG) for s in after.steps))
    for step in before.steps:  # the player's draw of 4 is gone: a natural stops both hands
        assert squash(step.explain(LANG)) not in steps
    totals = expect_text(page, f"{root} .bk-totals")
    assert str(after.player_total) in totals and str(after.banker_total) in totals
    assert squash(page.locator(f"{root} .bk-sequence input").input_value()) == "2 3 3 5 4"
    shot(page.locator(root), "hand-builder")

    # The language switch: the same result, now in English.
    page.locator(f"{root} .bk-lang button", has_text="English").click()
    expect_text(page, f"{root} .bk-winner", result_line(after, "en"))


# --------------------------------------------------------------------------- RuleChecker


def test_rule_checker_in_lesson_04_choose_a_cell_shows_draw_or_stand_and_the_reason(
    open_lab, shot
):
    # The lesson itself (a copy), run from top to bottom as a learner would.
    page = open_lab(LESSON_04)
    root = ".bk-rule-checker"
    assert page.locator(root).count() == 1
    # Source 000, BCR-002 and its variant: a banker 3 meets the player's third card 8, then 9.
    for third in (8, 9):
        page.locator(f"{root} .bk-banker-total select").select_option("3")
        page.locator(f"{root} .bk-player-third select").select_option(str(third))
        # The widget re-renders decision, reason and matrix together: once the matrix marks
        # the chosen cell, the kernel has answered this choice (not the one before).
        selected = page.locator(
            f'{root} .bk-matrix td.bk-selected[data-total="3"][data-third="{third}"]'
        )
        selected.wait_for()
        assert page.locator(f"{root} .bk-matrix td.bk-selected").count() == 1
        draws = bk.banker_draws(3, third)
        kind = "draw" if draws else "stand"
        assert f"bk-{kind}" in (selected.get_attribute("class") or "")
        decision = squash(page.locator(f"{root} .bk-decision").inner_text())
        assert decision == message(f"widgets.rc.decision-{kind}", LANG)
        reason = squash(page.locator(f"{root} .bk-reason").inner_text())
        assert bk.banker_rule(3, third) in reason
        assert message(f"action.{kind}", LANG) in reason
        if third == 8:
            shot(page.locator(root), "rule-checker")
    assert bk.banker_draws(3, 8) != bk.banker_draws(3, 9)  # the two cells differ: a real flip


# --------------------------------------------------------------------------- CaseViewer


def _choose_case(page: Any, root: str, case_id: str) -> None:
    select = page.locator(f"{root} .bk-case-select select")
    value = select.evaluate(
        """(el, id) => {
            const opt = [...el.options].find(o => o.textContent.trim().startsWith(id)
                                                 && !o.textContent.includes(id + '-'));
            return opt ? opt.value : null;
        }""",
        case_id,
    )
    assert value is not None, f"{case_id} is not among the CaseViewer's cases"
    select.select_option(value=value)


def _step_to_the_end(page: Any, root: str, coup: bk.Coup) -> None:
    """From the first line (a case just shown), click "next step" until the last line (first
    two cards, then each step) is shown, waiting for the kernel's answer to each click."""
    lines = 1 + len(coup.steps)
    next_step = page.locator(f"{root} button.bk-step-next")
    for shown in range(1, lines + 1):
        if shown > 1:
            next_step.click()
        expect_text(page, f"{root} .bk-case-progress",
                    message("widgets.cv.progress", LANG, shown=shown, total=lines))
    assert next_step.is_disabled()


def test_case_viewer_in_lesson_05_toggle_the_variant_and_the_result_flips_as_the_source_says(
    open_lab, shot
):
    catalogue = bk.cases.load()
    case, variant = catalogue["BCR-001"], catalogue["BCR-001-variant"]
    # Source 000, BCR-001: 閒9＞莊7，閒勝; its variant (莊第二張4改成5): 莊3+5=8為天牌 … 莊勝.
    assert (case.coup().winner, variant.coup().winner) == ("player", "banker")

    page = open_lab(LESSON_05)  # its viewer ends on BCR-004's variant, toggle on
    root = ".bk-case-viewer"
    assert page.locator(root).count() == 1
    toggle = page.locator(f"{root} button.bk-variant-toggle")
    _choose_case(page, root, "BCR-001")
    if "mod-active" in (toggle.get_attribute("class") or ""):
        toggle.click()  # back to the case itself
    page.wait_for_function(
        """sel => !document.querySelector(sel).classList.contains('mod-active')""",
        arg=f"{root} button.bk-variant-toggle",
    )
    info = expect_text(page, f"{root} .bk-case-info", f"{case.id}\u3000{case.title(LANG)}")
    assert variant.id not in info
    _step_to_the_end(page, root, case.coup())
    expect_text(page, f"{root} .bk-case-result", result_line(case.coup()))

    toggle.click()
    expect_text(page, f"{root} .bk-case-info", variant.id, variant.change(LANG))
    _step_to_the_end(page, root, variant.coup())
    result = expect_text(page, f"{root} .bk-case-result", result_line(variant.coup()))
    assert squash(result_line(case.coup())) not in result
    shot(page.locator(root), "case-viewer")


# --------------------------------------------------------------------------- Quiz


def test_quiz_wrong_answer_names_the_misconception_right_answer_is_confirmed(
    open_lab, make_notebook, shot
):
    # Source 000's self-check: 閒首兩張5、莊3；閒第三張8。莊補還是停？
    draws = bk.banker_draws(3, 8)
    page = open_lab(make_notebook(
        "from baccarat_kit.widgets import Quiz",
        "Quiz.banker_rule([(3, 8)])",
    ))
    root = ".bk-quiz"
    right_text = message("widgets.quiz.draw" if draws else "widgets.quiz.stand", LANG)
    wrong_text = message("widgets.quiz.stand" if draws else "widgets.quiz.draw", LANG)
    options = page.locator(f"{root} .bk-quiz-options label")

    options.filter(has_text=wrong_text).locator("input").check()
    page.locator(f"{root} button.bk-quiz-submit").click()
    misconception = bk.misconceptions.get("banker-3-always")  # "莊家 3 點一定補牌" (source 002)
    feedback = expect_text(page, f"{root} .bk-quiz-feedback", misconception.claim(LANG),
                           misconception.correction(LANG))
    assert page.locator(f"{root} .bk-quiz-feedback .bk-wrong").count() == 1
    assert page.locator(f"{root} .bk-quiz-feedback .bk-right").count() == 0
    shot(page.locator(root), "quiz-wrong")

    options.filter(has_text=right_text).locator("input").check()
    page.locator(f"{root} button.bk-quiz-submit").click()
    page.locator(f"{root} .bk-quiz-feedback .bk-right").wait_for()
    feedback = squash(page.locator(f"{root} .bk-quiz-feedback").inner_text())
    assert misconception.claim(LANG) not in feedback
    assert page.locator(f"{root} .bk-quiz-feedback .bk-wrong").count() == 0
