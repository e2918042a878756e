"""Issue 37: lesson 10's final test answered by keyboard only in Voilà, both editions, then
lesson 00's course map shows the score.

The trainer offers no final test (its tools are the hand builder, the rule checker, a quiz and
the drill), so the lesson itself is served: one Voilà server for this module, on a learner's
course copy (``baccarat_kit.course.install``: the manifest tells the kernels where the course
folder and its progress record are). Voilà shows no code cells, so a keyboard learner Tabs from
control to control: every step here is a key press (Tab, Shift+Tab, the arrows, Space, Enter).

The questions are the kit's: this process builds the same :class:`FinalTest` from the same
record the Voilà kernel reads (a fresh record draws with seed 0 and attempt 1; a later attempt
with the record's seed and the next attempt number), so the test knows which option is right.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright")
from playwright.sync_api import expect

from baccarat_kit import course, progress
from baccarat_kit.i18n import message
from conftest import KERNEL_START_MS

pytestmark = pytest.mark.browser

FINAL = ".bk-final-test"
LESSON_10 = {"zh": "notebooks/10-summary.ipynb", "en": "notebooks/en/10-summary.ipynb"}
LESSON_00 = {"zh": "notebooks/00-how-to-use.ipynb", "en": "notebooks/en/00-how-to-use.ipynb"}
WRONG = (0, 3)
"""The questions answered wrong (by their position): 10 of 12 right, the pass mark."""


@pytest.fixture(scope="module")
def course_site(voila: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Path]]:
    """A learner's course copy served by Voilà (tree mode): (base URL, course folder)."""
    dest = tmp_path_factory.mktemp("final-course") / "course"
    course.install(dest)
    with voila(dest) as url:
        yield url, dest


def focused(page: Any, script: str) -> Any:
    return page.evaluate(f"() => {{ const el = document.activeElement; return {script}; }}")


def tab_to(page: Any, condition: str, limit: int = 60, key: str = "Tab") -> int:
    """Press Tab (or ``key``) until ``condition`` (JS, ``el`` the focused element) holds; how many."""
    for count in range(limit):
        if focused(page, f"!!({condition})"):
            return count
        page.keyboard.press(key)
    raise AssertionError(f"{key} never reached an element where {condition}")


RADIO = f"el.closest('{FINAL} .bk-quiz-options') && el.type === 'radio'"


def choose_by_keys(page: Any, radios: Any, target: int) -> None:
    """With focus on a radio of the group (none checked: Tab enters at the first, Shift+Tab at
    the last), check radio ``target``: Space where focus is, else one arrow, the way round the
    group (its arrows wrap, move and check) that is one step.

    One change of the answer per question, as a learner who sees the options makes: a second
    change sent before the kernel has acknowledged the first waits in ipywidgets' per-widget
    message throttle, and the submit button's click, another widget's message, overtakes it
    (found here: two ↑ then Tab, Enter was judged on the first ↑'s answer). The final test's
    questions have two or three options, so one step always suffices."""
    here = radios.evaluate_all("rs => rs.indexOf(document.activeElement)")
    count = radios.count()
    assert here >= 0, "focus is not on the options"
    if here == target:
        page.keyboard.press("Space")
    elif (target - here) % count == 1:
        page.keyboard.press("ArrowDown")
    elif (here - target) % count == 1:
        page.keyboard.press("ArrowUp")
    else:
        raise AssertionError(f"{count} options: not one step from {here} to {target}")


def recorded_attempts(path: Path, count: int, timeout: float = 30.0) -> list[dict[str, Any]]:
    """The final-test attempts in the record at ``path`` once it holds ``count`` of them (the
    kernel writes the record as it handles the last answer, after it sends the summary)."""
    deadline = time.monotonic() + timeout
    while True:
        attempts = progress.final_attempts(json.loads(path.read_text(encoding="utf-8"))["final"]) \
            if path.exists() else []
        if len(attempts) >= count or time.monotonic() > deadline:
            assert len(attempts) == count, attempts
            return attempts
        time.sleep(0.2)


def answer_by_keyboard(page: Any, final: Any, test: Any, lang: str, wrong: tuple[int, ...] = WRONG) -> None:
    """Answer every question of ``test`` (shown in ``final``) from the keyboard, focus already on
    the first question's options: the questions at ``wrong`` wrong, the others right; each
    submitted (Tab, Enter), its verdict awaited, then "next" (Tab, Enter) and Shift+Tab back to
    the new options."""
    for i, q in enumerate(test.questions):
        labels = [f"{chr(ord('A') + pos)}. {q.options[k].text[lang]}" for pos, k in enumerate(test.orders[i])]
        expect(final.locator(".bk-quiz-prompt")).to_have_text(q.prompt[lang])
        # the prompt and the options are two updates: wait for this question's options (keys
        # pressed on the last question's radios would be lost when the new ones arrive)
        expect(final.locator(".bk-quiz-options .widget-radio-box label")).to_have_text(labels)
        expect(final.locator(".bk-quiz-options input[type=radio]:checked")).to_have_count(0)
        if i:  # from the "next" button back to the options
            tab_to(page, RADIO, limit=8, key="Shift+Tab")
        right = test.orders[i].index(q.answer)
        target = (right + 1) % len(labels) if i in wrong else right
        radios = final.locator(".bk-quiz-options input[type=radio]")
        choose_by_keys(page, radios, target)
        expect(radios.nth(target)).to_be_checked()
        page.keyboard.press("Tab")  # the radio group is one Tab stop: then the submit button
        assert focused(page, f"!!el.closest('{FINAL} .bk-quiz-submit')")
        page.keyboard.press("Enter")
        verdict = ".bk-wrong" if i in wrong else ".bk-right"
        expect(final.locator(f".bk-quiz-feedback {verdict}")).to_have_count(1)
        if i + 1 < len(test.questions):
            tab_to(page, f"el.closest('{FINAL} .bk-quiz-next')", limit=8)
            page.keyboard.press("Enter")


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_final_test_by_keyboard_in_voila_then_the_course_map_shows_the_score(
        course_site: tuple[str, Path], page: Any, lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    base, dest = course_site
    record_path = dest / progress.FILENAME
    monkeypatch.setenv(progress.PROGRESS_ENV, str(record_path))
    before = progress.final_attempts(progress.load()["final"])
    from baccarat_kit.widgets import FinalTest

    test = FinalTest(lang=lang)  # what the kernel draws from this record
    assert len(test.questions) == 12

    page.goto(f"{base}voila/render/{LESSON_10[lang]}", wait_until="domcontentloaded")
    final = page.locator(FINAL)
    expect(final.locator(".bk-quiz-options input[type=radio]").first).to_be_visible(timeout=KERNEL_START_MS)
    expect(final.locator(".bk-quiz-prompt")).to_have_text(test.questions[0].prompt[lang])
    tab_to(page, RADIO, limit=200)  # from the top of the page: Tab only
    answer_by_keyboard(page, final, test, lang)
    right = len(test.questions) - len(WRONG)
    attempt = test.attempt
    summary = final.locator(".bk-final-summary")
    score = message("widgets.final.score", lang, right=right, total=12, attempt=attempt)
    expect(summary).to_contain_text(score)
    expect(summary).to_contain_text(message("widgets.final.passed", lang, pass_mark=10, total=12))
    expect(summary.locator("a")).to_have_count(len(WRONG))  # each miss links back to its lesson

    # the kernel wrote the attempt into the course's record; lesson 00's map shows it
    attempts = recorded_attempts(record_path, len(before) + 1)
    assert attempts[-1]["right"] == right
    best = max(a["right"] for a in attempts)
    page.goto(f"{base}voila/render/{LESSON_00[lang]}", wait_until="domcontentloaded")
    line = message("progress.final", lang, best=best, best_total=12, right=right, total=12,
                   attempts=len(attempts), pass_mark=10)
    expect(page.locator(".bk-course-map-table, .bk-course-map").first).to_contain_text(
        re.sub(r"\s+", " ", line), timeout=KERNEL_START_MS)
