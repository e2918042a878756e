"""The today view (issue 37) operated by keyboard in JupyterLab, Voilà and JupyterLite, both editions.

Each test starts from the same learner record (:data:`SEED`, run by Python here for JupyterLab
and Voilà, typed into a new cell of the page for JupyterLite, whose record lives in the browser):
three drill cells answered two days ago (so due now), a self-check question of lesson 04 missed
yesterday, and yesterday's goal met (a streak of 1, alive today). Then, with the keyboard only
(typing, Enter, Tab; a programmatic focus only to enter the widget, as a learner's first Tab),
the learner sets a daily goal of 3, Tabs to "review", presses Enter and answers the three due
cells with their keys (D / S / Y / N) in the review drill that opens with its key box focused.
The view then says the review is done, today's goal is met and the streak is 2; the record holds
the goal and today's three answers. In the trainer the learner then answers its own drill, below
the view, once: the view's count goes to 4 by itself (no "refresh" pressed). Where it shows: lesson 00's course map (JupyterLab,
JupyterLite) and the trainer (Voilà), where Tab from the top of the page reaches the goal box.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from baccarat_kit import drill, progress
from baccarat_kit.i18n import message
from baccarat_kit.widgets.question_sets import lesson_questions
from conftest import KERNEL_START_MS

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[2]
DUE = ("banker-3-vs-8", "player-5", "natural-8")
KEYS = {"draw": "d", "stand": "s", "yes": "y", "no": "n"}
GOAL = 3
SEED = f"""
import time
from baccarat_kit import drill as _drill, progress as _progress

def _seed(r):
    now = time.time()
    for i, cell in enumerate({DUE!r}):
        _drill.answer(r["drill"]["cells"], cell, True, 2.0, step=i, now=now - 2 * 86400 + i)
    r["drill"]["step"] = {len(DUE)}
    daily = r.setdefault("daily", {{}})
    daily.setdefault("misses", []).append(
        {{"t": now - 86400, "kind": "quiz", "quiz": "04", "id": {lesson_questions("04")[0].id!r}}})
    daily.setdefault("days", {{}})[_progress.day_of(now - 86400)] = {{"drill": 20, "goal": 20}}

_progress.update(_seed)
"""


def seed(record_path: Path) -> None:
    """Write :data:`SEED`'s record at ``record_path`` (as a kernel with that record would)."""
    import os

    before = os.environ.get(progress.PROGRESS_ENV)
    os.environ[progress.PROGRESS_ENV] = str(record_path)
    try:
        exec(SEED, {})
    finally:
        if before is None:
            del os.environ[progress.PROGRESS_ENV]
        else:
            os.environ[progress.PROGRESS_ENV] = before


def prompt_keys(lang: str) -> dict[str, str]:
    """Each due cell's prompt, as the drill shows it, → the key of its right answer (the engine's)."""
    from baccarat_kit.widgets import Drill

    shown = Drill(lang=lang, record=False, coups=False)
    return {shown._prompt_text(drill.item(c)): KEYS[drill.item(c).answer] for c in DUE}


def focused(page: Any, script: str) -> Any:
    return page.evaluate(f"() => {{ const el = document.activeElement; return {script}; }}")


def tab_to(page: Any, condition: str, limit: int = 40) -> int:
    """Press Tab until ``condition`` (JS, ``el`` the focused element) holds; the presses it took."""
    for presses in range(limit):
        if focused(page, f"!!({condition})"):
            return presses
        page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached an element where {condition}")


def operate_by_keyboard(page: Any, view: Any, lang: str) -> None:
    """The learner's steps on a today view whose goal box has the focus (module docstring)."""
    expect(view.locator(".bk-today-due li")).to_have_count(len(DUE))
    for cell in DUE:
        from baccarat_kit.today import cell_words

        expect(view.locator(".bk-today-due")).to_contain_text(cell_words(cell, lang))
    mistakes = view.locator(".bk-today-mistakes .bk-today-open")
    expect(mistakes).to_have_count(1)
    expect(mistakes).to_contain_text(message("today.from-lesson", lang, lesson="04"))
    expect(mistakes).to_contain_text(progress.day_of(time.time() - 86400))
    expect(view.locator(".bk-today-streak")).to_contain_text(
        message("today.streak-alive", lang, days=1, left=20).split("；")[0].split(";")[0])

    # The goal: typed, Enter saves it.
    page.keyboard.press("Control+A")
    page.keyboard.type(str(GOAL))
    page.keyboard.press("Enter")
    expect(view.locator(".bk-today-status")).to_have_text(message("today.goal-saved", lang, goal=GOAL))
    expect(view.locator(".bk-today-progress")).to_have_text(
        message("today.progress", lang, done=0, goal=GOAL, left=GOAL))

    # Tab to "review", Enter: the review drill opens with its key box focused.
    tab_to(page, "el.closest('.bk-today-review')", limit=5)
    expect(view.locator(".bk-today-review")).to_have_text(message("today.review-button", lang, n=len(DUE)))
    page.keyboard.press("Enter")
    review = view.locator(".bk-today-drill")
    expect(review).to_have_count(1)
    box = review.locator(".bk-drill-keys input")
    expect(box).to_be_focused()
    answers = prompt_keys(lang)
    prompt = review.locator(".bk-drill-prompt")
    for n in range(len(DUE)):
        expect(prompt).to_have_text(re.compile("|".join(re.escape(p) for p in answers)))
        text = prompt.inner_text().strip()
        page.keyboard.press(answers[text])
        if n < len(DUE) - 1:
            expect(prompt).not_to_have_text(text)
    # Done: the review closed itself; today's goal is met and the streak carried into today.
    expect(review).to_have_count(0)
    expect(view.locator(".bk-today-status")).to_contain_text(
        message("today.review-done", lang, answers=len(DUE), right=len(DUE)))
    expect(view.locator(".bk-today-progress")).to_have_text(
        message("today.progress-met", lang, done=GOAL, goal=GOAL))
    expect(view.locator(".bk-today-streak")).to_contain_text(message("today.streak", lang, days=2))
    expect(view.locator(".bk-today-due")).to_have_text(message("today.due-none", lang))


def check_record(record: dict[str, Any], extra: int = 0) -> None:
    """The goal and today's answers: the review's, and ``extra`` answers of the drill beside it
    (which may have asked one of the due cells too)."""
    assert record["daily"]["goal"] == GOAL
    assert record["daily"]["days"][progress.day_of(time.time())]["drill"] == len(DUE) + extra
    assert all(record["drill"]["cells"][c]["seen"] >= 2 for c in DUE)
    assert sum(record["drill"]["cells"][c]["seen"] for c in DUE) <= 2 * len(DUE) + extra


def answer_the_trainers_drill(page: Any, view: Any, lang: str) -> None:
    """One answer, by its key, in the trainer's own drill (below the today view): the view's
    count goes up by itself, no "refresh" pressed (the record's watchers, issue 37)."""
    main = page.locator(".bk-drill:not(.bk-today-drill)")
    expect(main).to_have_count(1)
    label = main.locator(".bk-drill-answers button").first.inner_text()
    key = re.search(r"\(([A-Z])\)", label)
    assert key, label
    prompt = main.locator(".bk-drill-prompt").inner_text()
    main.locator(".bk-drill-keys input").focus()  # the learner moves to the drill; from here a key
    page.keyboard.press(key.group(1).lower())
    expect(main.locator(".bk-drill-prompt")).not_to_have_text(prompt)
    expect(view.locator(".bk-today-progress")).to_have_text(
        message("today.progress-met", lang, done=GOAL + 1, goal=GOAL))


# ---------------------------------------------------------------- JupyterLab: lesson 00's course map
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_today_view_in_the_course_map_by_keyboard_in_jupyterlab(lab: Any, lab_page: Any, lang: str) -> None:
    page = lab_page
    folder = lab.add_course()
    seed(lab.root / folder / progress.FILENAME)
    lesson = f"{folder}/notebooks/{'en/' if lang == 'en' else ''}00-how-to-use.ipynb"
    if lang == "en":  # the course copy holds the Chinese edition; the English one beside it
        (lab.root / folder / "notebooks" / "en").mkdir(exist_ok=True)
        (lab.root / lesson).write_bytes((REPO / "notebooks/en/00-how-to-use.ipynb").read_bytes())
    try:
        lab.open(page, lesson)
        lab.run_all(page, lesson)
        view = page.locator(".bk-course-map .bk-today")
        expect(view).to_have_count(1)
        goal = view.locator(".bk-today-goal input")
        expect(goal).to_have_value("20")
        goal.focus()  # the learner's first Tab into the widget; from here only keys
        operate_by_keyboard(page, view, lang)
    finally:
        lab.shutdown(lesson)
    check_record(json.loads((lab.root / folder / progress.FILENAME).read_text(encoding="utf-8")))


# ---------------------------------------------------------------- Voilà: the trainer
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_today_view_in_the_trainer_by_keyboard_in_voila(page: Any, tmp_path: Path, lang: str) -> None:
    from conftest import voila_server

    home = tmp_path / "home"
    home.mkdir()
    # The repository is a git checkout: the trainer served from it keeps its record at home.
    seed(home / progress.FILENAME)
    with voila_server(REPO / "trainer" / "trainer.ipynb", home) as url:
        page.goto(url, wait_until="domcontentloaded")
        view = page.locator(".bk-today")
        expect(view.locator(".bk-today-goal input")).to_be_visible(timeout=KERNEL_START_MS)
        expect(page.locator(".bk-drill")).to_have_count(1, timeout=KERNEL_START_MS)
        if lang == "en":  # the view's own switch, by keyboard: Tab to "English", Enter
            tab_to(page, "el.closest('.bk-today .bk-lang') && el.textContent.includes('English')")
            page.keyboard.press("Enter")
            expect(view.locator(".bk-today-progress")).to_contain_text("Today:")
            page.evaluate("document.activeElement.blur()")
        presses = tab_to(page, "el.closest('.bk-today-goal')")
        assert lang == "en" or presses <= 8, presses  # near the top of the trainer
        operate_by_keyboard(page, view, lang)
        answer_the_trainers_drill(page, view, lang)
    check_record(json.loads((home / progress.FILENAME).read_text(encoding="utf-8")), extra=1)


# ---------------------------------------------------------------- JupyterLite: lesson 00, offline
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_today_view_by_keyboard_in_jupyterlite(browser: Any, lang: str) -> None:
    from test_lite import SITE, _need_chromium, lite_notebook

    if not (SITE / "baccarat-kit-lite.json").is_file():
        pytest.skip(f"{SITE} not built: run `make lite` (make test does)")
    _need_chromium()
    path = f"notebooks/{'en/' if lang == 'en' else ''}00-how-to-use.ipynb"
    with lite_notebook(SITE, browser, path, f"lite-today-{lang}") as page:
        # The record lives in the browser: seed it from a new last cell (typed, then Shift+Enter).
        last = page.locator(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Cell").last
        last.locator(".jp-InputArea-prompt").first.click()  # command mode on the last cell
        page.keyboard.press("Escape")
        page.keyboard.press("b")
        page.keyboard.press("Enter")
        page.keyboard.insert_text(SEED.strip() + "\nprint('seeded')")
        page.keyboard.press("Shift+Enter")
        expect(page.locator(".jp-OutputArea-output", has_text="seeded")).to_have_count(1, timeout=KERNEL_START_MS)
        view = page.locator(".bk-course-map .bk-today").first
        view.scroll_into_view_if_needed()
        view.locator(".bk-today-refresh").focus()  # by keyboard: Enter reads the seeded record
        page.keyboard.press("Enter")
        expect(view.locator(".bk-today-due li")).to_have_count(len(DUE), timeout=KERNEL_START_MS)
        view.locator(".bk-today-goal input").focus()
        operate_by_keyboard(page, view, lang)
