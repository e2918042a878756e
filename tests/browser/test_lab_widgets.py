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

pytest.importorskip("playwright")
from playwright.sync_api import expect

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
    """Wait (Playwright's ``expect``) until the element's text contains every part; return
    the text, white space squashed."""
    locator = page.locator(selector)
    for part in parts:
        expect(locator).to_contain_text(squash(part), timeout=timeout)
    return squash(locator.inner_text())


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
    expect_text(page, f"{root} .bk-totals", str(before.player_total), str(before.banker_total))

    page.locator(f"{root} .bk-card-b2 select").select_option("5")

    expect_text(page, f"{root} .bk-winner", result_line(after))
    expect_text(page, f"{root} .bk-steps", *(s.explain(LANG) for s in after.steps))
    for step in before.steps:  # the player's draw of 4 is gone: a natural stops both hands
        expect(page.locator(f"{root} .bk-steps")).not_to_contain_text(squash(step.explain(LANG)))
    expect_text(page, f"{root} .bk-totals", str(after.player_total), str(after.banker_total))
    expect(page.locator(f"{root} .bk-sequence input")).to_have_value("2 3 3 5 4")
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
    expect(page.locator(root)).to_have_count(1)
    # Source 000, BCR-002 and its variant: a banker 3 meets the player's third card 8, then 9.
    for third in (8, 9):
        page.locator(f"{root} .bk-banker-total select").select_option("3")
        page.locator(f"{root} .bk-player-third select").select_option(str(third))
        # The widget re-renders decision, reason and matrix together: once the matrix marks
        # the chosen cell, the kernel has answered this choice (not the one before).
        selected = page.locator(
            f'{root} .bk-matrix td.bk-selected[data-total="3"][data-third="{third}"]'
        )
        expect(selected).to_be_visible()
        expect(page.locator(f"{root} .bk-matrix td.bk-selected")).to_have_count(1)
        draws = bk.banker_draws(3, third)
        kind = "draw" if draws else "stand"
        expect(selected).to_have_class(re.compile(rf"\bbk-{kind}\b"))
        expect(page.locator(f"{root} .bk-decision")).to_have_text(
            message(f"widgets.rc.decision-{kind}", LANG))
        expect(page.locator(f"{root} .bk-reason")).to_contain_text(bk.banker_rule(3, third))
        expect(page.locator(f"{root} .bk-reason")).to_contain_text(message(f"action.{kind}", LANG))
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
        expect(page.locator(f"{root} .bk-case-progress")).to_have_text(
            message("widgets.cv.progress", LANG, shown=shown, total=lines))
    expect(next_step).to_be_disabled()


def test_case_viewer_in_lesson_05_toggle_the_variant_and_the_result_flips_as_the_source_says(
    open_lab, shot
):
    catalogue = bk.cases.load()
    case, variant = catalogue["BCR-001"], catalogue["BCR-001-variant"]
    # Source 000, BCR-001: 閒9＞莊7，閒勝; its variant (莊第二張4改成5): 莊3+5=8為天牌 … 莊勝.
    assert (case.coup().winner, variant.coup().winner) == ("player", "banker")

    page = open_lab(LESSON_05)  # after Run All its viewer is still on BCR-001, as the text says
    root = ".bk-case-viewer"
    expect(page.locator(root)).to_have_count(1)
    toggle = page.locator(f"{root} button.bk-variant-toggle")
    expect(toggle).not_to_have_class(re.compile(r"\bmod-active\b"))
    _choose_case(page, root, "BCR-002")  # away and back: the selection reaches the kernel
    expect_text(page, f"{root} .bk-case-info", "BCR-002")
    _choose_case(page, root, "BCR-001")
    expect_text(page, f"{root} .bk-case-info", f"{case.id}\u3000{case.title(LANG)}")
    expect(page.locator(f"{root} .bk-case-info")).not_to_contain_text(variant.id)
    # the source's words stand beside the engine's steps
    expect(page.locator(f"{root} .bk-case-source .bk-quote")).to_contain_text("閒5補4")
    _step_to_the_end(page, root, case.coup())
    expect_text(page, f"{root} .bk-case-result", result_line(case.coup()))

    toggle.click()
    expect_text(page, f"{root} .bk-case-info", variant.id, variant.change(LANG))
    _step_to_the_end(page, root, variant.coup())
    expect_text(page, f"{root} .bk-case-result", result_line(variant.coup()))
    expect(page.locator(f"{root} .bk-case-result")).not_to_contain_text(
        squash(result_line(case.coup())))
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
    expect_text(page, f"{root} .bk-quiz-feedback", misconception.claim(LANG),
                misconception.correction(LANG))
    expect(page.locator(f"{root} .bk-quiz-feedback .bk-wrong")).to_have_count(1)
    expect(page.locator(f"{root} .bk-quiz-feedback .bk-right")).to_have_count(0)
    shot(page.locator(root), "quiz-wrong")

    options.filter(has_text=right_text).locator("input").check()
    page.locator(f"{root} button.bk-quiz-submit").click()
    expect(page.locator(f"{root} .bk-quiz-feedback .bk-right")).to_have_count(1)
    expect(page.locator(f"{root} .bk-quiz-feedback")).not_to_contain_text(misconception.claim(LANG))
    expect(page.locator(f"{root} .bk-quiz-feedback .bk-wrong")).to_have_count(0)
    # the correct answer had been shown: this second answer is not scored
    expect(page.locator(f"{root} .bk-quiz-feedback .bk-not-counted")).to_have_count(1)
    expect(page.locator(f"{root} .bk-quiz-score")).to_have_text(
        message("widgets.quiz.score", LANG, right=0, total=1))
