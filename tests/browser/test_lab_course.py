"""The course as a learner follows it alone, in JupyterLab (issue 13).

* an unrun lesson's first view (the stored outputs, nothing executed);
* ↑/↓ on a focused value picker change its value, not the notebook's cell selection;
* a quiz resubmission after the correct answer was shown is not scored;
* the course map's links open the right notebooks;
* the ShoeTracker updates the odds after each coup.

Every check waits with Playwright's ``expect``; expected texts come from the engine and the
kit's messages.
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

LANG = "zh"
NOTEBOOKS = Path(__file__).resolve().parents[2] / "notebooks"
NOTEBOOK = ".jp-NotebookPanel:not(.lm-mod-hidden)"


def active_cell_index(page: Any) -> int:
    return int(page.evaluate(
        """sel => [...document.querySelectorAll(sel + ' .jp-Notebook .jp-Cell')]
                 .findIndex(c => c.classList.contains('jp-mod-active'))""", NOTEBOOK))


def test_an_unrun_lesson_shows_what_its_widgets_show_and_how_to_make_them_live(open_unrun):
    # Lesson 04 as it is in the repository: a learner opens it and runs nothing. A notebook
    # from a clone is not trusted, so JupyterLab shows each widget's static preview.
    page = open_unrun(NOTEBOOKS / "04-banker-rule.ipynb")
    static = page.locator(f"{NOTEBOOK} .bk-static")
    expect(static.first).to_be_visible()
    expect(static.first).to_contain_text(message("widgets.static-note", LANG))
    # the rule checker's preview: its decision for banker 3 / player stood and the matrix
    checker = static.filter(has_text=message("widgets.rc.title", LANG))
    expect(checker).to_have_count(1)
    kind = "draw" if bk.banker_draws(3, None) else "stand"
    expect(checker).to_contain_text(message(f"widgets.rc.decision-{kind}", LANG))
    expect(checker.locator("table.bk-matrix-table")).to_have_count(1)
    # no bare repr such as "RuleChecker(banker_total=3, …)" anywhere
    expect(page.locator(f"{NOTEBOOK} .jp-OutputArea-output", has_text="RuleChecker(")).to_have_count(0)
    # the quiz's preview asks its first question and shows no answer
    question = bk.widgets.Quiz.lesson("04").questions[0]
    quiz = static.filter(has_text=question.prompt[LANG])
    expect(quiz).to_have_count(1)
    expect(quiz).not_to_contain_text(message("widgets.quiz.correct-is", LANG, answer="").rstrip())


def test_lesson_00_first_view_says_how_to_run_it(open_unrun):
    page = open_unrun(NOTEBOOKS / "00-how-to-use.ipynb")
    first = page.locator(f"{NOTEBOOK} .jp-MarkdownCell").first
    expect(first).to_contain_text("Run → Run All Cells")
    expect(page.locator(f"{NOTEBOOK} .jp-MarkdownCell", has_text="Restart Kernel and Run All Cells")
           ).not_to_have_count(0)


def test_arrow_keys_change_a_focused_picker_not_the_cell(open_lab, make_notebook):
    page = open_lab(make_notebook(
        "import baccarat_kit as bk",
        "bk.widgets.RuleChecker(banker_total=3, player_third=8)",
        "1 + 1",
    ))
    root = ".bk-rule-checker"
    select = page.locator(f"{root} .bk-banker-total select")
    expect(page.locator(f'{root} td.bk-selected[data-total="3"][data-third="8"]')).to_be_visible()
    select.focus()
    cell = active_cell_index(page)
    page.keyboard.press("ArrowDown")
    expect(select).to_have_value(re.compile(r"\d"))
    expect(page.locator(f'{root} td.bk-selected[data-total="4"][data-third="8"]')).to_be_visible()
    kind = "draw" if bk.banker_draws(4, 8) else "stand"
    expect(page.locator(f"{root} .bk-decision")).to_have_text(message(f"widgets.rc.decision-{kind}", LANG))
    assert active_cell_index(page) == cell  # the notebook's selection stayed where it was
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowUp")
    expect(page.locator(f'{root} td.bk-selected[data-total="2"][data-third="8"]')).to_be_visible()
    assert active_cell_index(page) == cell
    # the third-card picker too
    third = page.locator(f"{root} .bk-player-third select")
    third.focus()
    page.keyboard.press("ArrowDown")
    expect(page.locator(f'{root} td.bk-selected[data-total="2"][data-third="9"]')).to_be_visible()
    assert active_cell_index(page) == cell


def test_a_resubmission_after_the_answer_was_shown_is_not_scored(open_lab, make_notebook):
    questions = bk.widgets.Quiz.lesson("04").questions
    page = open_lab(make_notebook("import baccarat_kit as bk", 'bk.widgets.Quiz.lesson("04")'))
    root = ".bk-quiz"
    q = questions[0]
    right = q.options[q.answer].text[LANG]
    wrong = next(o.text[LANG] for i, o in enumerate(q.options) if i != q.answer)
    options = page.locator(f"{root} .bk-quiz-options label")
    submit = page.locator(f"{root} button.bk-quiz-submit")
    score = page.locator(f"{root} .bk-quiz-score")

    options.filter(has_text=wrong).locator("input").check()
    submit.click()
    expect(page.locator(f"{root} .bk-quiz-feedback .bk-wrong")).to_have_count(1)
    expect(page.locator(f"{root} .bk-quiz-feedback")).to_contain_text(right)  # the answer is shown
    options.filter(has_text=right).locator("input").check()
    submit.click()
    expect(page.locator(f"{root} .bk-quiz-feedback .bk-right")).to_have_count(1)
    expect(page.locator(f"{root} .bk-quiz-feedback .bk-not-counted")).to_have_count(1)
    expect(score).to_have_text(message("widgets.quiz.score", LANG, right=0, total=len(questions)))
    # start again: the answers shown are cleared; the score stays the first answers'
    page.locator(f"{root} button.bk-quiz-reset").click()
    expect(page.locator(f"{root} .bk-quiz-feedback")).to_have_text("")
    expect(score).to_have_text(message("widgets.quiz.score", LANG, right=0, total=len(questions)))
    expect(page.locator(f"{root} .bk-quiz-progress")).to_have_text(
        message("widgets.quiz.progress", LANG, number=1, total=len(questions)))


def test_the_course_map_links_open_the_right_notebooks(lab, lab_page):
    page = lab_page  # JupyterLab is running in it: lab.open opens from inside
    folder = lab.add_course()
    lab.open(page, f"{folder}/notebooks/00-how-to-use.ipynb")
    course_map = page.locator(f"{NOTEBOOK} .jp-MarkdownCell", has_text="對應的練習")
    expect(course_map).to_have_count(1)
    links = course_map.locator("a")
    expect(links).not_to_have_count(0)
    hrefs = [links.nth(i).get_attribute("href") or "" for i in range(links.count())]
    # JupyterLab resolves a relative link to the file's URL: …/files/<folder>/<path>?…
    targets = {h.split("?")[0].split(f"/files/{folder}/", 1)[-1] for h in hrefs if "/files/" in h}
    wanted = {f"notebooks/{p.name}" for p in NOTEBOOKS.glob("*.ipynb")}
    wanted |= {f"exercises/{p.name}" for p in (NOTEBOOKS.parent / "exercises").glob("*.ipynb")}
    wanted.add("trainer/trainer.ipynb")
    assert wanted <= targets, sorted(wanted - targets)
    opened: list[str] = []
    try:
        # click one lesson, one exercise and the trainer (every link's target is checked
        # above and in tests/test_lessons.py); each must open that very file
        for text, expected in (("01", f"{folder}/notebooks/01-card-values.ipynb"),
                               ("練習 03", f"{folder}/exercises/03-banker-rule.ipynb")):
            course_map.locator("a", has_text=re.compile(rf"^{text}")).first.click()
            tab = page.locator("#jp-main-dock-panel .lm-TabBar-tab.lm-mod-current")
            expect(tab).to_have_text(expected.rsplit("/", 1)[-1])
            expect(page).to_have_url(re.compile(re.escape(expected)))
            opened.append(expected)
            page.locator("#jp-main-dock-panel .lm-TabBar-tab", has_text="00-how-to-use.ipynb").click()
            expect(course_map).to_be_visible()
        trainer = course_map.locator("a[href*='trainer/trainer.ipynb']").first
        trainer.click()
        expect(page).to_have_url(re.compile(re.escape(f"{folder}/trainer/trainer.ipynb")))
        opened.append(f"{folder}/trainer/trainer.ipynb")
    finally:
        for name in [f"{folder}/notebooks/00-how-to-use.ipynb", *opened]:
            lab.shutdown(name)


def test_the_shoe_tracker_updates_after_each_coup(open_lab, make_notebook):
    page = open_lab(make_notebook("import baccarat_kit as bk",
                                  "bk.widgets.ShoeTracker(decks=8, seed=2026)"))
    root = ".bk-shoe-tracker"
    shoe = bk.Shoe(8, seed=2026)
    status = page.locator(f"{root} .bk-shoe-status")
    expect(status).to_contain_text(message("widgets.st.round", LANG, rounds=0, left=len(shoe)))
    expect(status).to_contain_text(message("widgets.st.cut", LANG, cards=14))
    odds = page.locator(f"{root} .bk-shoe-odds")
    banker = odds.locator('tr[data-bet="banker/commission"] td.bk-ev')
    from baccarat_kit.widgets.shoe_tracker import percent

    expect(banker).to_have_text(percent(bk.exact_odds(shoe).expected_value("banker")))
    page.locator(f"{root} button.bk-shoe-deal").click()
    first = shoe.deal()
    expect(status).to_contain_text(message("widgets.st.round", LANG, rounds=1, left=len(shoe)))
    expect(page.locator(f"{root} .bk-shoe-coup")).to_contain_text(
        message(f"coup.result-{first.coup.winner}", LANG, player=first.coup.player_total,
                banker=first.coup.banker_total))
    expect(banker).to_have_text(percent(bk.exact_odds(shoe).expected_value("banker")))
    page.locator(f"{root} button.bk-shoe-deal-ten").click()
    for _ in range(10):
        shoe.deal()
    expect(status).to_contain_text(message("widgets.st.round", LANG, rounds=11, left=len(shoe)))
    expect(banker).to_have_text(percent(bk.exact_odds(shoe).expected_value("banker")))
